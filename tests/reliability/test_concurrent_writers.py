"""Several writers on one game at once: one wins each race, the others change nothing.

Two levels: ``warlog play`` processes racing for the same turn (the exit-code contract: 0 for the
one that lands, 5 for a loser that decided on the old head, 3 for one that arrived after the
turn had passed), and library-level writer processes hammering one game with retries (every
command they were told landed is in the log, exactly once).
"""

from __future__ import annotations

import json
import multiprocessing
import subprocess
from pathlib import Path
from typing import Any

from tests.reliability.conftest import (
    ROOT,
    assert_one_error_line,
    assert_whole_log,
    child_env,
    command,
    make_game,
    next_player,
    records_of,
    snapshot_agrees,
    warlog_argv,
)

RACERS = 6
ROUNDS = 5


def test_cli_writers_racing_for_one_turn_land_exactly_one_command(
    tmp_path: Path, scenario: Path
) -> None:
    db = tmp_path / "w.db"
    make_game(db, scenario)
    for round_ in range(ROUNDS):
        before = records_of(db)
        player = next_player(before)
        racers = [
            subprocess.Popen(
                warlog_argv(db, "play", "g", command(player, round_ + i)),
                cwd=ROOT,
                env=child_env(),
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for i in range(RACERS)
        ]
        results: list[tuple[int, str, str]] = []
        for p in racers:
            out, err = p.communicate(timeout=60)
            results.append((p.returncode, out, err))
        codes = sorted(code for code, _, _ in results)
        assert set(codes) <= {0, 3, 5}, results
        assert codes.count(0) == 1, f"round {round_}: {codes}"
        for code, out, err in results:
            if code == 0:
                assert not err
                winner_lines = out.splitlines()
            else:
                assert not out
                assert_one_error_line(err, "store/conflict" if code == 5 else "rules/not_your_turn")
        after = assert_whole_log(db)
        assert after[: len(before)] == before  # nothing before the race changed
        landed = after[len(before) :]
        assert landed and landed[0].type == "command_issued"
        assert json.loads(landed[0].data)["player"] == player
        assert len(winner_lines) == len(landed)  # play printed exactly the batch that landed
    snapshot_agrees(db)


# ---------------------------------------------------------------------- library-level hammer

WRITERS = 4
COMMANDS = 50


def _hammer(db: str, writer: int, out: Any, start: Any) -> None:
    """Play COMMANDS commands for whoever's turn it is, retrying on conflict and on a turn
    lost to another writer; report each landed batch's (first seq, last seq, last hash)."""
    from tests.toy import rulesets
    from warlog.arbiter.application import Arbiter
    from warlog.arbiter.database import on_database
    from warlog.domain.core.errors import ConflictError, RulesError

    landed: list[tuple[int, int, str]] = []
    outcomes = {"conflict": 0, "rules": 0}
    arb = on_database(db, rulesets)
    store, vault = arb.store, arb.vault
    ruleset = arb.ruleset_of("g")
    n = writer
    start.wait(timeout=60)  # every writer starts at once
    while len(landed) < COMMANDS:
        state = Arbiter(store, rulesets, vault=vault).state("g")  # a fresh read
        player = ruleset.active_players(state)[0]
        try:
            records = arb.play("g", command(player, n))
        except ConflictError:
            outcomes["conflict"] += 1
            continue
        except RulesError:
            outcomes["rules"] += 1
            continue
        finally:
            n += 1
        landed.append((records[0].seq, records[-1].seq, records[-1].hash))
    out.put((writer, landed, outcomes))


def test_writer_processes_hammering_one_game_leave_no_gap_duplicate_or_lost_batch(
    tmp_path: Path, scenario: Path
) -> None:
    db = tmp_path / "w.db"
    make_game(db, scenario)
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    start = ctx.Barrier(WRITERS)
    procs = [ctx.Process(target=_hammer, args=(str(db), w, queue, start)) for w in range(WRITERS)]
    for p in procs:
        p.start()
    reports = [queue.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(timeout=30)
        assert p.exitcode == 0
    records = assert_whole_log(db)
    by_seq = {r.seq: r for r in records}
    spans = sorted(span for _, landed, _ in reports for span in landed)
    assert len(spans) == WRITERS * COMMANDS
    # the landed batches tile the log after game_created, each exactly once, in order
    expected_first = 2
    for first, last, hash_ in spans:
        assert first == expected_first
        assert by_seq[first].type == "command_issued"
        assert by_seq[last].hash == hash_
        expected_first = last + 1
    assert expected_first == records[-1].seq + 1
    assert sum(o["conflict"] + o["rules"] for _, _, o in reports) > 0, "no writer ever raced"
    snapshot_agrees(db)
