"""Each check of the audit met by the forgery it exists for: the finding a referee reads, at its
seq. Every forgery here recomputes the chain (only the check under test can tell), and each case
once passed a planted mutant of that check as clean or misnamed (the proofs' mutation review)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from tests.eventstore.conftest import SEED, fixed_clock
from tests.eventstore.tamper import forged, rechain, relink
from tests.forger import forge
from tests.toy import SCENARIO, rulesets
from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import Auditor, audit_records
from warlog.arbiter.exchange import export_line, parse_lines
from warlog.domain.core.dice import commitment_of, derive_faces
from warlog.domain.core.seal import salt_for, seal_for
from warlog.eventstore.chain import link
from warlog.eventstore.memory_store import MemoryStore
from warlog.eventstore.records import Record

Log = list[Record]

#: a seed that is not the game's
OTHER_SEED = bytes(range(1, 33))


def exported(arb: Arbiter, game: str) -> Log:
    return list(parse_lines(export_line(r) for r in arb.export_records(game)))


def race(
    tmp_path: Path, *plays: dict[str, object], reveal: bool = True, dice: str = "auto"
) -> tuple[Arbiter, str]:
    """The toy dice race, red, blue and red rolling two dice (typed 3 and 4 in a manual-dice
    game), then ``plays``."""
    (tmp_path / "race.toml").write_bytes(SCENARIO)
    arb = Arbiter(MemoryStore(), rulesets, clock=fixed_clock(), seeds=lambda: SEED)
    game = arb.new_game("dice-race", str(tmp_path / "race.toml"), game="g1", dice=dice)
    typed = {"dice": [3, 4]} if dice == "manual" else {}
    for player in ("red", "blue", "red"):
        arb.play(game, json.dumps({"type": "roll", "player": player, "count": 2, **typed}))
    for play in plays:
        arb.play(game, json.dumps(play))
    if reveal:
        arb.reveal(game)
    return arb, game


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Log:
    """1 game_created; 2-5, 6-9, 10-13 a roll each (dice at 3, 7, 11); 14 dice_revealed."""
    arb, game = race(tmp_path_factory.mktemp("race"))
    records = exported(arb, game)
    assert [r.type for r in records[9:]] == [
        "command_issued",
        "dice_rolled",
        "scored",
        "turn_passed",
        "dice_revealed",
    ]
    return records


@pytest.fixture(scope="module")
def passed_after(tmp_path_factory: pytest.TempPathFactory) -> Log:
    """The same game, unrevealed, where blue passes at 14-15 instead."""
    arb, game = race(
        tmp_path_factory.mktemp("pass"), {"type": "pass", "player": "blue"}, reveal=False
    )
    return exported(arb, game)[13:]


@pytest.fixture(scope="module")
def forks(log: Log) -> dict[str, Log]:
    """The game forked keeping its dice at 13 (blue rolls at 15-18) and with new dice at 9 (red
    rolls at 11-14), each as exported."""
    arb = Arbiter(
        MemoryStore(), rulesets, clock=lambda: "2026-11-23T00:00:00.000Z", seeds=lambda: OTHER_SEED
    )
    game = arb.import_records(log)
    same = arb.fork(game, 13, new_game="s1", dice="same")
    arb.play(same, json.dumps({"type": "roll", "player": "blue", "count": 2}))
    new = arb.fork(game, 9, new_game="n1", dice="new")
    arb.play(new, json.dumps({"type": "roll", "player": "red", "count": 2}))
    return {"same": exported(arb, same), "new": exported(arb, new)}


def with_record(log: Log, i: int, **change: object) -> Record:
    """Event ``i`` of ``log`` with ``change``, unchained (``relink`` chains it)."""
    return msgspec.structs.replace(log[i], prev="", hash="", **change)


def second_face_forged(log: Log) -> Log:
    """Red's first roll (seq 3, faces [1, 3]) given a 5 for its 3, and its scores to match."""
    faces = json.loads(log[2].data)["faces"]
    assert faces == [1, 3]
    log = forged(log, 3, {"faces": [1, 5]})
    log = forged(log, 4, {"successes": 1, "total": 1})
    return forged(log, 12, {"total": 2})


def one_die_more(log: Log) -> Log:
    """Red's last roll (seq 11, two dice) given a third die, the very one the revealed seed
    derives next, and its score to match."""
    faces = derive_faces(SEED, "g1", "", 11, 3, 6)
    assert faces[:2] == json.loads(log[10].data)["faces"]
    hits = sum(1 for face in faces if face >= 4)
    return forged(forged(log, 11, {"faces": faces}), 12, {"successes": hits, "total": hits})


def total_sealed(log: Log) -> Log:
    """Red's first score sealed (under the salt the seed derives): the rules show it."""
    salt = salt_for(SEED, "g1", 4, "total")
    return forged(log, 4, {"total": {"sealed": seal_for(salt, 0), "value": 0, "salt": salt}})


def at_of_one_event_changed(log: Log) -> Log:
    """Event 6's time moved, and its own hash recomputed (not the next event's prev)."""
    r, at = log[5], "2026-11-22T00:00:01.500Z"
    return [
        *log[:5],
        Record(r.seq, r.type, r.data, at, r.prev, link(r.prev, r.seq, r.type, at, r.data)),
        *log[6:],
    ]


# forgery of the race log (and of its forks), the --from of the audit, the start of a finding's line
CASES: list[tuple[str, Callable[[Log, Log, dict[str, Log]], Log], int, str]] = [
    (
        "seq-repeated",
        lambda log, _, __: relink([*log[:13], with_record(log, 13, seq=13)]),
        1,
        "seq 13 [sequence]: seq 13 is out of order or repeated after seq 13",
    ),
    (
        "next-prev-left",
        lambda log, _, __: at_of_one_event_changed(log),
        1,
        "seq 7 [chain]: prev is not the hash of the event before it",
    ),
    (
        "not-opening-a-batch",
        lambda log, _, __: rechain(log[2:]),
        1,
        "seq 1 [sequence]: dice_rolled does not belong to any command's batch",
    ),
    (
        "event-after-reveal",
        lambda log, _, __: relink(
            [
                *log,
                with_record(log, 11, seq=15, type="won", data='{"player":"blue"}', at=log[13].at),
            ]
        ),
        1,
        "seq 15 [sequence]: won follows dice_revealed, which has no consequences",
    ),
    (
        "fold-fails-before-from",
        lambda log, _, __: forged(log, 5, {"to": "nobody"}),
        10,
        "seq 2 [rules]: the recorded events cannot be applied: ValueError:",
    ),
    (
        "second-game-created",
        lambda log, _, __: relink([*log[:13], with_record(log, 0, seq=14, at=log[12].at)]),
        1,
        "seq 14 [sequence]: game_created after the first event",
    ),
    (
        "version-not-played",
        lambda log, _, __: forged(log, 1, {"version": "2"}),
        1,
        "seq 1 [version]: played under dice-race version 2, which this warlog does not play",
    ),
    (
        "no-commitment",
        lambda log, _, __: forged(log, 1, {"dice": {"mode": "auto", "stream": "g1"}}),
        1,
        "seq 1 [dice]: a game without a commitment to its key",
    ),
    (
        "no-commitment-then-a-reveal",
        lambda log, _, __: forged(log, 1, {"dice": {"mode": "auto", "stream": "g1"}}),
        1,
        "seq 14 [dice]: the revealed seed does not open the commitment in force (expected: None; "
        f"found: {commitment_of(SEED)})",
    ),
    (
        "players-swapped",
        lambda log, _, __: forged(log, 1, {"players": ["blue", "red"]}),
        1,
        "seq 1 [rules]: the players are not the scenario's (expected: ['red', 'blue']; found: "
        "['blue', 'red'])",
    ),
    (
        "reveal-of-another-seed",
        lambda log, _, __: forged(log, 14, {"seed": OTHER_SEED.hex()}),
        1,
        "seq 14 [dice]: the revealed seed does not open the commitment in force",
    ),
    (
        "second-face",
        lambda log, _, __: second_face_forged(log),
        1,
        "seq 3 [dice]: the faces are not the ones the seed revealed at seq 14 gives (expected: "
        "[1, 3]; found: [1, 5])",
    ),
    (
        "roll-at-from",
        lambda log, _, __: second_face_forged(log),
        3,
        "seq 3 [dice]: the faces are not the ones the seed revealed at seq 14 gives",
    ),
    (
        "underivable-die-rules-stopped",
        lambda log, _, __: forged(forged(log, 1, {"version": "2"}), 3, {"sides": 300}),
        1,
        "seq 3 [dice]: the roll cannot be derived: the dice contract derives dice of 1 to 256 "
        "sides, not 300",
    ),
    (
        "one-die-more",
        lambda log, _, __: one_die_more(log),
        1,
        "seq 11 [rules]: the dice do not match the rules: the rules roll 2 d6 where the log "
        "records 3 d6",
    ),
    (
        "command-after-reveal",
        lambda log, passed, _: relink(
            [*log, *(Record(r.seq + 1, r.type, r.data, log[13].at, "", "") for r in passed)]
        ),
        1,
        "seq 15 [rules]: a command after the seed was revealed at seq 14",
    ),
    (
        "auto-command-with-faces",
        lambda log, _, __: forged(
            log, 2, {"command": {"type": "roll", "count": 2, "player": "red", "dice": [1, 3]}}
        ),
        1,
        "seq 2 [rules]: an auto-dice game's command carries its own dice faces",
    ),
    (
        "shown-value-sealed",
        lambda log, _, __: total_sealed(log),
        1,
        "seq 4 [seal]: total is sealed; the rules show it to everyone",
    ),
    (
        "command-reordered",
        lambda log, _, __: forged(
            log, 2, {"command": {"player": "red", "type": "roll", "count": 2}}
        ),
        1,
        "seq 2 [rules]: the recorded command is not in the form the arbiter records",
    ),
    (
        "fork-cut-elsewhere",
        lambda _, __, forks: forged(forks["new"], 10, {"at": 8}),
        1,
        "seq 10 [sequence]: game_forked says it cuts at 8 (expected: 9; found: 8)",
    ),
    (
        "new-dice-fork-shows-a-seed",
        lambda _, __, forks: forged(forks["new"], 10, {"seed": OTHER_SEED.hex()}),
        1,
        "seq 10 [dice]: a fork with new dice shows a seed",
    ),
    (
        "fork-stream-not-its-id",
        lambda _, __, forks: forged(
            forks["new"], 10, {"dice": {**json.loads(forks["new"][9].data)["dice"], "stream": "g1"}}
        ),
        1,
        "seq 10 [dice]: the fork's dice stream is not its id (expected: n1; found: g1)",
    ),
    (
        "same-dice-fork-shows-another-seed",
        lambda _, __, forks: forged(forks["same"], 14, {"seed": OTHER_SEED.hex()}),
        1,
        "seq 14 [dice]: the seed the fork keeps does not open the commitment in force",
    ),
    (
        "same-dice-fork-seed-not-hex",
        lambda _, __, forks: forged(forks["same"], 14, {"seed": "not hex"}),
        1,
        "seq 14 [dice]: the seed the fork keeps does not open the commitment in force",
    ),
    (
        "new-dice-fork-without-commitment",
        lambda _, __, forks: forged(
            forks["new"],
            10,
            {"dice": {**json.loads(forks["new"][9].data)["dice"], "commitment": None}},
        ),
        1,
        "seq 10 [dice]: the fork's new dice carry no commitment",
    ),
    (
        "fork-names-an-id-never-written",
        lambda _, __, forks: forged(forks["new"], 10, {"game": "n 1"}),
        1,
        "seq 10 [decode]: game_forked names a game id the arbiter would not write",
    ),
    (
        "game-id-never-written",
        lambda log, _, __: forged(log, 1, {"game": "g 1"}),
        1,
        "seq 1 [decode]: 'g 1' is not a game id the arbiter would write",
    ),
    (
        "scenario-invalid",
        lambda log, _, __: forged(log, 1, {"scenario": {"players": "red"}}),
        1,
        "seq 1 [decode]: the recorded scenario is invalid: ",
    ),
    (
        # the same scenario, its keys in another order: what the rules read is unchanged, but
        # a recording is kept in the one form its version writes, which this is not
        "scenario-not-canonical",
        lambda log, _, __: forged(
            log,
            1,
            {"scenario": {"hands": {"red": 3, "blue": 5}, "target": 6, "players": ["red", "blue"]}},
        ),
        1,
        "seq 1 [decode]: the recorded scenario is not in its canonical form",
    ),
    (
        "reveal-not-hex",
        lambda log, _, __: forged(log, 14, {"seed": "not hex"}),
        1,
        "seq 14 [dice]: the revealed seed is not hex",
    ),
]


@pytest.mark.parametrize(
    ("forge", "from_seq", "said"), [case[1:] for case in CASES], ids=[case[0] for case in CASES]
)
def test_each_forgery_is_named_by_the_check_that_exists_for_it(
    log: Log,
    passed_after: Log,
    forks: dict[str, Log],
    forge: Callable[[Log, Log, dict[str, Log]], Log],
    from_seq: int,
    said: str,
) -> None:
    """Given the revealed race (or one of its forks) forged as the case says, the chain
    recomputed, when it is audited, then the finding the case names is among its lines."""
    lines = [
        f.line()
        for f in audit_records(forge(log, passed_after, forks), rulesets, from_seq).findings
    ]
    assert any(line.startswith(said) for line in lines), lines


def test_the_untouched_forks_audit_clean_and_a_same_dice_fork_s_rolls_are_derived(
    forks: dict[str, Log],
) -> None:
    """Given the two forks as exported, then both audit clean; the same-dice fork's roll after
    the cut (seq 16, derived at seq 15: the fork's own event does not count) is derived again
    from the seed it shows, with the parent's three."""
    same = audit_records(forks["same"], rulesets)
    assert same.findings == [] and same.revealed
    assert (same.proved.dice_verified, same.proved.dice_unverified) == (4, 0)
    assert audit_records(forks["new"], rulesets).findings == []


def test_an_empty_log_is_a_finding() -> None:
    """Given no event at all, then the audit does not call it clean: it finds it empty."""
    assert [f.line() for f in audit_records([], rulesets).findings] == [
        "seq 0 [sequence]: the log is empty"
    ]


def test_a_log_whose_rules_are_not_followed_still_has_its_dice_derived(log: Log) -> None:
    """Given the race claiming a version this warlog does not play (the rules stop at seq 1),
    then the reveal is still followed: every roll is derived again from the revealed seed."""
    auditor: Auditor = audit_records(forged(log, 1, {"version": "2"}), rulesets)
    assert auditor.proved.rules_stopped_at == 1
    assert (auditor.proved.dice_verified, auditor.proved.dice_unverified) == (3, 0)
    assert auditor.revealed


def test_a_typed_die_more_than_the_command_rolls_is_a_finding(tmp_path: Path) -> None:
    """Given the revealed manual-dice race whose first command's typed dice (sealed, opened in
    the export) get a third face, resealed under the salt the seed derives and the chain
    recomputed, then the rules reject the command: it rolls two dice, not three (the faces
    left over once were never looked at)."""
    arb, game = race(tmp_path, dice="manual")
    source = tmp_path / "manual.jsonl"
    source.write_text("".join(export_line(r) + "\n" for r in arb.export_records(game)))

    def third_face(events: list[dict[str, Any]]) -> None:
        events[1]["data"]["command"]["dice"]["value"] = [3, 4, 5]

    path = forge(source, tmp_path / "forged.jsonl", third_face)
    records = list(parse_lines(path.read_text().splitlines()))
    lines = [f.line() for f in audit_records(records, rulesets).findings]
    assert lines == [
        "seq 2 [rules]: the rules reject this command: this command needs 2 dice (2 d6) in its "
        "'dice' list; 3 given"
    ]


@pytest.mark.parametrize(
    ("fork", "seq", "change", "said"),
    [
        ("new", 10, {"at": 8}, "seq 10 [sequence]: game_forked says it cuts at 8"),
        ("same", 14, {"seed": OTHER_SEED.hex()}, "seq 14 [dice]: the seed the fork keeps does"),
        (None, 14, {"seed": OTHER_SEED.hex()}, "seq 14 [dice]: the revealed seed does not open"),
    ],
    ids=["fork-cut", "fork-seed", "reveal-seed"],
)
def test_a_lineage_finding_is_told_once_when_the_rules_have_stopped(
    log: Log,
    forks: dict[str, Log],
    fork: str | None,
    seq: int,
    change: dict[str, object],
    said: str,
) -> None:
    """Given a log whose rules the audit does not follow (a version it does not play), with a
    fork or a reveal forged, then its finding is listed once, as when the rules are followed
    (it was listed twice: once as the batch's, once as the lineage's)."""
    source = log if fork is None else forks[fork]
    forged_log = forged(forged(source, 1, {"version": "2"}), seq, change)
    lines = [f.line() for f in audit_records(forged_log, rulesets).findings]
    assert sum(1 for line in lines if line.startswith(said)) == 1, lines
