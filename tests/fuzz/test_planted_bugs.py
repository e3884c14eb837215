"""``warlog fuzz`` finds bugs planted in copies of Battle for Armageddon (and one each of
Midgard and Armageddon Empires), shrinks each to a small log that audits clean, and ``--replay`` fails with it until the bug is
fixed (issue 14, item 5).

Each planted ruleset is fuzzed from a game recorded before the bug was planted (the fixed rules
under the same name, or the ruleset's own latest edges source), as a rules developer fuzzes the
games recorded before a change. The budgets
here are small, to keep the suite fast; docs/fuzzing.md gives what the default budget finds.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar, cast

import msgspec
import pytest
from click.testing import CliRunner

from tests.fuzz import planted as plants
from warlog.arbiter.application import Arbiter
from warlog.arbiter.autoplay import autoplay
from warlog.arbiter.database import on_database
from warlog.arbiter.exchange import export_line
from warlog.cli.main import cli
from warlog.domain import rulesets
from warlog.domain.battle_for_armageddon import commands as cmd
from warlog.domain.battle_for_armageddon.build_events import CounterPlaced
from warlog.domain.battle_for_armageddon.decide import HANDLERS
from warlog.domain.battle_for_armageddon.state import GameState
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import WarlogError, reject
from warlog.domain.core.rules import Handler
from warlog.eventstore.memory_store import MemoryStore
from warlog.fixtures.recorder import EDGES


def warlog(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def recorded(name: str, folder: Path, commands: int = 150, *, revealed: bool = True) -> Path:
    """A game of the fixed rules registered as ``name``, played by autoplay (and then the
    commands ``THEN`` names) and revealed (the same log on every run); or not revealed,
    exported by the referee with every value opened (``warlog export --open``)."""
    seed = hashlib.sha256(name.encode()).digest()
    with plants.registered(name, plants.fixed(name)):
        arb = Arbiter(MemoryStore(), rulesets.get, seeds=lambda: seed, clock=lambda: RECORDED_AT)
        game = arb.new_game(name, game="recorded")
        autoplay(arb, game, commands)
        for command in THEN.get(name, []):
            arb.play(game, json.dumps(command))
        if revealed:
            arb.reveal(game)
        records = arb.export_records(game, opened=not revealed)
        lines = "".join(export_line(r) + "\n" for r in records)
    path = folder / f"{name}.jsonl"
    path.write_text(lines, encoding="utf-8")
    return path


def fuzzed(source: Path, out: Path, examples: int, budget: int, seed: str) -> tuple[int, str]:
    """``warlog fuzz SOURCE`` with these limits, failures written to ``out``: its exit status
    and its JSON report."""
    status, stdout, _ = warlog(
        "fuzz",
        str(source),
        *("--examples", str(examples), "--budget", str(budget), "--seed", seed),
        *("--out", str(out), "--json"),
    )
    return status, stdout


#: planted ruleset -> the check that finds it, the examples and budget (seconds) the test gives
#: it (the examples run out first: the seed decides what is found, not the machine's speed),
#: the most events its shrunk log may hold, and the seed
CASES = {
    "bfa-planted-mutation": ("purity", 20, 60, 10, "4"),
    "bfa-planted-leak": ("views", 40, 60, 20, "1"),
    # a leak in the legal commands alone (the views are the same): the control played again
    # on the same dice is given what the real game gave, so it is a leak, not the rules'
    # nondeterminism
    "bfa-planted-legal-leak": ("views", 40, 60, 20, "4"),
    # a leak in a refusal alone, which only its issuer is given (and so the control's)
    "bfa-planted-refusal-leak": ("views", 150, 60, 40, "5"),
    "bfa-planted-global": ("audit", 20, 60, 10, "4"),
    # a view that differs on the same dice: played again as a control, not blamed on the draws
    "bfa-planted-unsteady": ("audit", 40, 60, 40, "4"),
    "bfa-planted-crash": ("crash", 150, 60, 480, "4"),
    # found at a fork point where the Imperials play (the Orks' end_phase wrongly accepted),
    # then tried from earlier fork points: one where the game waits for the Orks, whose
    # end_phase is legal there, must not pass for the same failure (seed 4 tries it)
    "bfa-planted-turn": ("outcome", 40, 60, 100, "4"),
    # a placement over the stacking limits accepted though legal never offers it: a mutated
    # place command of a type whose legal list is complete (Ruleset.complete_legal), from a
    # game recorded to its first Imperial placements (a few of its fork points)
    "bfa-planted-overstack": ("outcome", 300, 60, 230, "3"),
    # a hero joining the other side's unit accepted though legal lists own units only: a
    # mutated join_unit naming a unit no command of the log or the legal list names, one the
    # state holds (fuzz.kinds), from a game where a hero has just left his unit
    "hb-planted-join": ("outcome", 300, 60, 20, "4"),
    # an empire laying a minefield with the other empire's engineers, accepted though legal
    # lists its own armies only: a mutated lay_minefield naming an army no legal command of
    # its type names (fuzz.strategies._unused), from the latest Armageddon Empires edges source
    "ae-planted-minefield": ("outcome", 300, 60, 30, "19"),
}
#: planted ruleset -> the commands its source plays (150 unless named): a game stopped where
#: its last fork points stand at a placement the planted bug accepts
COMMANDS = {"bfa-planted-overstack": 68, "hb-planted-join": 0}
#: planted ruleset -> the commands its source plays after the autoplay's: a Saxon hero leaves
#: his unit at once, so that from the last fork point he may join one (HB-5)
THEN = {"hb-planted-join": [{"type": "leave_unit", "hero": "aelle", "player": "saxons"}]}
#: planted ruleset -> the recorded source it is fuzzed from instead of a game ``recorded`` plays
#: (registered as the ruleset it copies, ``planted.PLANTED_AS``)
SOURCE = {"ae-planted-minefield": EDGES / "armageddon-empires-edges.jsonl"}
#: the time every event of the recorded games is stamped with: the same log, byte for byte, on
#: every run (an example's dice depend on the log it forks)
RECORDED_AT = "2026-11-23T10:00:00.000Z"


@pytest.mark.parametrize("name", list(CASES))
def test_a_planted_bug_is_found_shrunk_and_replayed_until_it_is_fixed(
    name: str, tmp_path: Path
) -> None:
    check, examples, budget, most, seed = CASES[name]
    source = SOURCE.get(name) or recorded(name, tmp_path, COMMANDS.get(name, 150))
    out = tmp_path / "failures"
    as_name = plants.PLANTED_AS.get(name, name)
    with plants.registered(as_name, plants.PLANTED[name]()):
        plants.forget()
        status, stdout = fuzzed(source, out, examples, budget, seed)
        assert status == 4
        report = json.loads(stdout)
        (tally,) = report["tallies"]
        # every step tried is counted as what it did, the failing ones too
        assert tally["accepted"] + tally["refused"] + tally["crashed"] == tally["steps"]
        assert (tally["crashed"] > 0) == (check == "crash")
        # "the first failed at example N; M more after it, shrinking": N + M examples ran
        assert tally["first_failure"] == tally["examples"] - tally["shrinking"] > 0
        found = {f["check"]: f for f in report["found"]}
        assert check in found, report["found"]
        failure = found[check]
        steps = 1
        if name == "bfa-planted-unsteady":  # nothing hidden differs: no leak is reported
            assert "views" not in found, report["found"]
            assert "the rules are not deterministic" in failure["message"]
            steps = 4  # a twin is made at a step that draws for the other side
        if name == "bfa-planted-refusal-leak":
            steps = 2  # a step that draws for the other side, then the refused one
        assert failure["steps"] <= steps and failure["events"] <= most  # shrunk
        pair = Path(failure["fixture"])
        assert pair.parent == out  # written where --out says
        written = json.loads(pair.with_suffix(".json").read_text())
        assert (written["check"], written["seed"]) == (check, int(seed))
        # the failing step is the last one replayed, with what had to happen to it when found
        assert written["failing"] == len(written["steps"]) - 1 == failure["steps"] - 1
        assert written["steps"][-1]["expect"] in (
            "accepted",
            "refused",
            "input",
            "unlisted",
            "either",
        )
        if check == "crash":  # it crashed in a combat, after rolling its dice: they are kept
            assert written["steps"][-1]["dice"]
        # the log holds the events the summary counts, and forks its source at fork_at
        log = [json.loads(line) for line in pair.with_suffix(".jsonl").read_text().splitlines()]
        assert len(log) == failure["events"]
        (fork, *_) = (e for e in log if e["type"] == "game_forked")
        assert fork["seq"] == written["fork_at"] + 1 and fork["data"]["at"] == written["fork_at"]
        # the log is a normal warlog log: it audits clean, every die checked against its seeds
        status, stdout, _ = warlog("audit", str(pair.with_suffix(".jsonl")), "--json")
        assert status == 0, stdout
        assert json.loads(stdout)["proved"]["dice_unverified"] == 0
        plants.forget()
        status, stdout, _ = warlog("fuzz", "--replay", str(pair.with_suffix(".json")))
        assert status == 4 and f"still failing: {check}" in stdout
    with plants.registered(as_name, plants.fixed(name)):
        status, stdout, _ = warlog("fuzz", "--replay", str(pair.with_suffix(".json")))
        assert status == 0 and "fixed: every check passes" in stdout


def in_database(name: str, folder: Path, commands: int = 150) -> Path:
    """The game ``recorded`` plays, played in an SQLite database (its key file beside it) as
    the game ``recorded``, not revealed; the database's path."""
    seed = hashlib.sha256(name.encode()).digest()
    db = folder / "games.db"
    with plants.registered(name, plants.fixed(name)):
        arb = on_database(str(db), create=True, seeds=lambda: seed, clock=lambda: RECORDED_AT)
        autoplay(arb, arb.new_game(name, game="recorded"), commands)
        arb.close()
    return db


@pytest.mark.parametrize("given", ["export", "game id"])
def test_a_game_not_yet_revealed_is_fuzzed_and_its_failure_written_with_its_values_opened(
    given: str, tmp_path: Path
) -> None:
    # an export made with --open before the reveal, or the game in its database: the fuzzer
    # has the values, and the key only in the second case
    name = "bfa-planted-turn"
    if given == "export":
        source = str(recorded(name, tmp_path, revealed=False))
        assert '"sealed"' in Path(source).read_text(encoding="utf-8")
        db: list[str] = []
    else:
        source, db = "recorded", ["--db", str(in_database(name, tmp_path))]
    out = tmp_path / "failures"
    with plants.registered(name, plants.PLANTED[name]()):
        status, stdout, stderr = warlog(
            "fuzz", source, *db, "--examples", "40", "--seed", "4", "--out", str(out), "--json"
        )
        assert status == 4, stderr
        (failure,) = json.loads(stdout)["found"]
        assert failure["check"] == "outcome" and failure["reproduced"]
        pair = Path(failure["fixture"])
        log = pair.with_suffix(".jsonl").read_text(encoding="utf-8")
        assert failure["events"] > 4 and '"sealed"' in log  # the source's events, opened
        status, stdout, _ = warlog("audit", str(pair.with_suffix(".jsonl")))
        assert status == 0, stdout
        status, stdout, _ = warlog("fuzz", "--replay", str(pair.with_suffix(".json")))
        assert status == 4 and "still failing: outcome" in stdout
    with plants.registered(name, plants.fixed(name)):
        status, stdout, _ = warlog("fuzz", "--replay", str(pair.with_suffix(".json")))
        assert status == 0 and "fixed: every check passes" in stdout


def test_a_failure_that_cannot_be_written_is_still_reported(tmp_path: Path) -> None:
    name = "bfa-planted-turn"
    source = recorded(name, tmp_path)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    out = blocker / "failures"
    with plants.registered(name, plants.PLANTED[name]()):
        status, stdout, stderr = warlog(
            "fuzz", str(source), "--examples", "40", "--seed", "4", "--out", str(out)
        )
    assert status == 4 and stderr == ""
    lines = stdout.splitlines()
    at = lines.index("1 failure:")
    assert lines[at + 1].startswith("  [bfa-planted-turn] outcome: a command known to be illegal")
    assert lines[at + 2].startswith(
        f"    not written: error[input/unwritable]: cannot write the failure to {out}"
    )


def _end_phase_refused(batch: Batch[GameState], command: cmd.EndPhase) -> None:
    raise reject("a phase never ends", "endless")


class EndlessPhases(plants.PinnedBattle):
    """A change of the rules that re-derives recorded games differently: no phase ends."""

    handlers: ClassVar[Mapping[type[Any], Handler]] = {
        **HANDLERS,
        cmd.EndPhase: _end_phase_refused,
    }


def test_a_source_the_rules_installed_re_derive_differently_is_refused_naming_the_first_seq(
    tmp_path: Path,
) -> None:
    name = "bfa-planted-turn"
    source = recorded(name, tmp_path)
    first = next(
        json.loads(line)["seq"]
        for line in source.read_text(encoding="utf-8").splitlines()
        if '"type":"end_phase"' in line.replace(" ", "")
    )
    with plants.registered(name, type("Changed", (EndlessPhases,), {"name": name})()):
        status, stdout, stderr = warlog("fuzz", str(source), "--examples", "1")
        assert status == 4 and stdout == "" and len(stderr.splitlines()) == 1
        # the test's folder is long: its name is cut from its start, the file name kept whole
        assert stderr.startswith("error[fuzz/source_not_clean]: cannot fuzz "), stderr
        assert (
            f"{source.name}: the rules installed re-derive this log differently from seq {first} "
            f"(a change of the rules since it was recorded, or the log altered): seq {first} "
            "[rules]: the rules reject this command: a phase never ends" in stderr
        ), stderr
        # it counts the findings after the first that `warlog audit` lists
        status, stdout, _ = warlog("audit", str(source), "--json")
        findings = json.loads(stdout)["findings"]
        assert status == 4 and len(findings) > 2
        assert re.search(
            rf" \(and {len(findings) - 1} more; `warlog audit( \S+)?`( of it)? lists them\)",
            stderr,
        ), stderr
        # import says what it always said
        db = str(tmp_path / "games.db")
        status, _, stderr = warlog("--db", db, "import", str(source))
        assert status == 4 and stderr.startswith("error[import/broken_log]: refusing a broken log")


class _Elsewhere:
    """A batch whose counters are placed for another reason than the rules give."""

    def __init__(self, batch: Batch[GameState]) -> None:
        self._batch = batch

    def __getattr__(self, name: str) -> Any:
        return getattr(self._batch, name)

    def emit(self, event: Any) -> None:
        if isinstance(event, CounterPlaced):
            event = msgspec.structs.replace(event, reason="elsewhere")
        self._batch.emit(event)


def _placed_elsewhere(batch: Batch[GameState], command: cmd.Place) -> None:
    HANDLERS[cmd.Place](cast(Batch[GameState], _Elsewhere(batch)), command)


class PlacedElsewhere(plants.PinnedBattle):
    """A change of the rules that re-derives a placement's event with another reason."""

    handlers: ClassVar[Mapping[type[Any], Handler]] = {**HANDLERS, cmd.Place: _placed_elsewhere}


def test_a_refused_source_s_line_keeps_what_differs_and_its_closing_however_long_its_path(
    tmp_path: Path,
) -> None:
    """Given a source under a long path whose placements the rules installed re-derive with
    another reason, when it is fuzzed, then the one line of its refusal is at most 400
    characters, its path cut from its start (its file name kept whole), and it keeps what differs
    (the reason expected and found), the count of the other findings and the closing."""
    name = "bfa-planted-turn"
    folder = tmp_path / ("a-folder-whose-name-is-long-" * 6)
    folder.mkdir()
    source = recorded(name, folder)
    with plants.registered(name, type("Changed", (PlacedElsewhere,), {"name": name})()):
        status, stdout, stderr = warlog("fuzz", str(source), "--examples", "1")
    assert (status, stdout) == (4, "")
    (line,) = stderr.splitlines()
    message = line.removeprefix("error[fuzz/source_not_clean]: ")
    assert len(message) <= WarlogError.MAX_LENGTH, len(message)
    named = re.match(r"cannot fuzz (\S+): the rules installed ", message)
    # cut from its start, the file name whole
    assert named and re.fullmatch(rf"…\S*/{name}\.jsonl", named.group(1)), line
    assert 'counter_placed data.reason: expected "elsewhere", found "from the READY box"' in line
    assert re.search(r" \(and \d+ more; `warlog audit` of it lists them\); ", line)
    assert line.endswith("; a source must audit clean under the rules installed"), line
