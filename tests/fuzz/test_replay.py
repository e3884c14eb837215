"""``warlog fuzz --replay`` judges each step by the state it is replayed in, and says when the
check that fails is not the one the fixture recorded (a fixture of one failure may show another
once the rules change)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import msgspec
from click.testing import CliRunner

from tests.fuzz import planted as plants
from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit_report import Difference, Finding
from warlog.arbiter.exchange import export_line
from warlog.cli.main import cli
from warlog.domain import rulesets
from warlog.domain.battle_for_armageddon import commands as cmd
from warlog.domain.battle_for_armageddon.decide import HANDLERS
from warlog.domain.battle_for_armageddon.state import GameState
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import WarlogError, reject
from warlog.domain.core.rules import Handler
from warlog.eventstore.memory_store import MemoryStore
from warlog.fuzz.fixture import NOT_CLEAN_CLOSING, not_clean
from warlog.fuzz.sources import Unclean

NAME = "bfa-planted-turn"
AT = "2026-11-23T10:00:00.000Z"


def warlog(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def fixture_after_a_move(folder: Path, steps: list[dict[str, str]], check: str) -> Path:
    """A fixture as a fuzz run writes it: a game of the fixed rules played by autoplay until a
    counter has moved in a movement phase, closed by its reveal; and ``steps`` to play on it,
    each a dict naming its kind and command (``{moved}``: the move just played, ``{idle}``: the
    side the game does not wait for)."""
    with plants.registered(NAME, plants.fixed(NAME)) as ruleset:
        arb = Arbiter(MemoryStore(), rulesets.get, seeds=lambda: b"\7" * 32, clock=lambda: AT)
        game = arb.new_game(NAME, game="recorded")
        while True:
            state = arb.state(game)
            player = ruleset.active_players(state)[0]
            legal = list(ruleset.legal_commands(state, player))
            choice = msgspec.json.encode(ruleset.choose(state, player, legal)).decode()
            arb.play(game, choice)
            waits = ruleset.active_players(arb.state(game))
            if json.loads(choice)["type"] == "move" and waits == [player]:
                break  # the side that moved moves on: its counter has moved this phase
        head, _ = arb.head(game)
        idle = next(p for p in ruleset.seats(arb.state(game)) if p != player)
        arb.reveal(game)
        log = "".join(export_line(r) + "\n" for r in arb.export_records(game))
    path = folder / f"{NAME}-{check}-handmade"
    path.with_suffix(".jsonl").write_text(log, encoding="utf-8")
    texts = {"moved": choice, "idle": json.dumps({"type": "end_phase", "player": idle})}
    fixture = {
        "ruleset": NAME,
        "version": ruleset.version,
        "check": check,
        "message": "as recorded",
        "source": "recorded",
        "fork_at": head,
        "steps": [
            {"kind": s["kind"], "text": texts[s["text"]], "expect": s["expect"]} for s in steps
        ],
        "failing": len(steps) - 1,
        "seed": 1,
    }
    path.with_suffix(".json").write_text(json.dumps(fixture), encoding="utf-8")
    return path.with_suffix(".json")


def test_a_step_recorded_as_legal_is_judged_by_the_state_it_is_replayed_in(
    tmp_path: Path,
) -> None:
    # found where the counter had not moved yet (under rules that forgot a move): replayed on
    # a log where it has, the fixed rules rightly refuse it, and that is no failure
    path = fixture_after_a_move(
        tmp_path, [{"kind": "legal", "text": "moved", "expect": "accepted"}], "replay"
    )
    with plants.registered(NAME, plants.fixed(NAME)):
        status, stdout, _ = warlog("fuzz", "--replay", str(path))
    assert status == 0, stdout
    assert stdout.splitlines()[-1] == "fixed: every check passes (it failed replay: as recorded)"


def test_replay_says_when_the_check_that_fails_is_not_the_one_recorded(tmp_path: Path) -> None:
    path = fixture_after_a_move(
        tmp_path, [{"kind": "wrong_player", "text": "idle", "expect": "refused"}], "replay"
    )
    with plants.registered(NAME, plants.PLANTED[NAME]()):
        status, stdout, _ = warlog("fuzz", "--replay", str(path))
        assert status == 4
        last = stdout.splitlines()[-1]
        assert last.startswith(
            "still failing, but another check than the one recorded (replay: as recorded): "
            "outcome: a command known to be illegal was accepted"
        ), stdout
        status, stdout, _ = warlog("fuzz", "--replay", str(path), "--json")
        assert status == 4
        assert json.loads(stdout) | {"message": ""} == {
            "fixture": str(path),
            "failing": True,
            "check": "outcome",
            "recorded": "replay",
            "message": "",
            "notes": [],
        }
    with plants.registered(NAME, plants.fixed(NAME)):
        status, stdout, _ = warlog("fuzz", "--replay", str(path))
    assert status == 0, stdout


def test_a_failure_at_the_end_of_its_example_fails_again_when_replayed(tmp_path: Path) -> None:
    """Given a fixture whose steps pass and whose failure came at its example's end (the
    referee's view, rendered there, crashes), when it is replayed under those rules, then it
    still fails the views check; under the fixed rules it passes."""
    path = fixture_after_a_move(
        tmp_path, [{"kind": "wrong_player", "text": "idle", "expect": "refused"}], "views"
    )
    crashing = plants.RefereeSummaryCrashes
    with plants.registered(NAME, type("Crashing", (crashing,), {"name": NAME})()):
        status, stdout, _ = warlog("fuzz", "--replay", str(path))
    assert status == 4
    assert stdout.splitlines()[-1].startswith(
        "still failing: views: the view as the referee: KeyError"
    ), stdout
    with plants.registered(NAME, plants.fixed(NAME)):
        status, stdout, _ = warlog("fuzz", "--replay", str(path))
    assert status == 0, stdout


def test_a_fixture_whose_log_lacks_the_reveal_of_its_key_is_refused(tmp_path: Path) -> None:
    """Given a fixture whose log was cut before the reveal of its key (the seed its steps' dice
    are drawn from), when it is replayed, then it is refused as no fuzz failure (exit 1), in one
    line naming the log."""
    path = fixture_after_a_move(
        tmp_path, [{"kind": "wrong_player", "text": "idle", "expect": "refused"}], "outcome"
    )
    log = path.with_suffix(".jsonl")
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    assert json.loads(lines[-1])["type"] == "dice_revealed"
    log.write_text("".join(lines[:-1]), encoding="utf-8")
    with plants.registered(NAME, plants.fixed(NAME)):
        status, stdout, stderr = warlog("fuzz", "--replay", str(path))
    assert (status, stdout) == (1, "")
    assert stderr == (
        f"error[input/bad_fixture]: {log} does not end with the reveal of its key, as a fuzz "
        "failure's log does\n"
    )


def _refused(batch: Batch[GameState], command: cmd.Move) -> None:
    raise reject(f"{command.counter} may not move", "no_movement")


class NoMovement(plants.PinnedBattle):
    """Battle for Armageddon that refuses every move: the fixtures' logs, which end with one,
    no longer audit under it."""

    name: ClassVar[str] = NAME
    handlers: ClassVar[Mapping[type[Any], Handler]] = {**HANDLERS, cmd.Move: _refused}


def test_a_fixture_whose_log_no_longer_audits_is_refused_as_one_that_cannot_tell(
    tmp_path: Path,
) -> None:
    """Given a fixture whose log the rules installed re-derive differently (they changed since
    it was written: a fix of what one of its commands did, say), when it is replayed, then it
    is refused in one line (exit 4, ``fuzz/pair_not_clean``) with the audit's first finding:
    its steps would be played on a game these rules never reach, which can say neither that
    the failure is fixed nor that it is not; with --json too, nothing on stdout."""
    path = fixture_after_a_move(
        tmp_path, [{"kind": "wrong_player", "text": "idle", "expect": "refused"}], "outcome"
    )
    for json_ in ((), ("--json",)):
        with plants.registered(NAME, NoMovement()):
            status, stdout, stderr = warlog("fuzz", "--replay", str(path), *json_)
        assert (status, stdout) == (4, "")
        (line,) = stderr.splitlines()
        assert len(line) <= len("error[fuzz/pair_not_clean]: ") + WarlogError.MAX_LENGTH
        # the test's long folder is cut from its start, the file name and the finding whole
        named = re.fullmatch(
            r"error\[fuzz/pair_not_clean\]: cannot replay (\S+): "
            r"the rules installed re-derive this log differently from seq \d+ \(a change of "
            r"the rules since it was recorded, or the log altered\): seq \d+ \[rules\]: the "
            r"rules reject this command: \S+ may not move; (.*)",
            line,
        )
        assert named, line
        shown = named.group(1)
        assert shown.startswith("…") and str(path).endswith(shown.removeprefix("…")), shown
        assert shown.endswith(f"/{path.name}"), shown
        assert named.group(2) == (
            "whether the failure is fixed cannot be told from it; fuzz its source again"
        )


def edited(path: Path, edit: Any) -> Path:
    """The fixture at ``path`` with ``edit`` applied to its JSON."""
    fixture = json.loads(path.read_text())
    edit(fixture)
    path.write_text(json.dumps(fixture), encoding="utf-8")
    return path


def test_a_fixture_that_disagrees_with_itself_is_refused_in_one_line(tmp_path: Path) -> None:
    """Given a fixture whose step's command was edited apart from its text (the text is what
    is played), or whose failing index names no step, when it is replayed, then it is refused
    with one line saying which (exit 1), nothing replayed."""
    step = [{"kind": "wrong_player", "text": "idle", "expect": "refused"}]
    path = fixture_after_a_move(tmp_path, step, "outcome")
    moved = edited(path, lambda f: f["steps"][0].update(command={"type": "end_phase"}))
    with plants.registered(NAME, plants.PLANTED[NAME]()):
        status, stdout, stderr = warlog("fuzz", "--replay", str(moved))
    assert (status, stdout) == (1, "")
    assert stderr == (
        f"error[input/bad_fixture]: {path}: step 1's command is not its text, which is what a "
        "replay plays: make them the same (or remove command)\n"
    )
    path = fixture_after_a_move(tmp_path, step, "outcome")
    beyond = edited(path, lambda f: f.update(failing=5))
    with plants.registered(NAME, plants.PLANTED[NAME]()):
        status, stdout, stderr = warlog("fuzz", "--replay", str(beyond))
    assert (status, stdout) == (1, "")
    assert stderr == (
        f"error[input/bad_fixture]: {path}: failing is 5, which names no step (it holds 1 step, "
        "from 0)\n"
    )


def test_the_version_a_replay_names_is_the_log_s_not_the_json_s(tmp_path: Path) -> None:
    """Given a fixture whose .json claims version 99 of rules its log plays under version 5,
    when it is replayed, then it names the log's version and says the .json claims another."""
    step = [{"kind": "wrong_player", "text": "idle", "expect": "refused"}]
    path = edited(fixture_after_a_move(tmp_path, step, "outcome"), lambda f: f.update(version="99"))
    with plants.registered(NAME, plants.PLANTED[NAME]()):
        status, stdout, _ = warlog("fuzz", "--replay", str(path))
    assert status == 4
    assert stdout.splitlines()[:2] == [
        f"{path}: {NAME} (recorded under version {plants.RECORDED_UNDER}), 1 step",
        f"  note: the .json says {NAME} version 99; its log is played under {NAME} version "
        f"{plants.RECORDED_UNDER}, which the replay follows",
    ]


def test_a_pair_refused_as_no_longer_auditing_keeps_what_differs_and_its_file_name() -> None:
    """Given a pair in a long folder whose log the rules installed re-derive otherwise (a card
    drawn for 3 AP where the log says 2, and two findings more), when its refusal is written,
    then the line, within the limit, keeps the pair's file name whole, why, the field that
    differs with both values, the count of the others and the closing: the general words of
    the finding are what gives way."""
    path = "/tmp/" + "a-long-folder-of-a-rules-developer/" * 3 + "ae-invariants-a0c95c87.json"
    finding = Finding(
        69,
        "rules",
        "a consequence differs from what the rules derive from the command and its dice",
        event_type="card_drawn",
        differences=[Difference("data.ap_cost", "3", "2")],
    )
    told = Unclean(
        path.removesuffix(".json") + ".jsonl",
        "the rules installed re-derive this log differently from seq 69 (a change of the "
        "rules since it was recorded, or the log altered)",
        finding,
        3,
    )
    line = not_clean(path, told)
    assert len(line) <= WarlogError.MAX_LENGTH
    assert line.startswith("cannot replay …")
    assert "/ae-invariants-a0c95c87.json: the rules installed re-derive this log" in line
    assert ": card_drawn data.ap_cost: expected 3, found 2 (and 2 more;" in line
    assert line.endswith(f"; {NOT_CLEAN_CLOSING}")


def test_a_pair_whose_log_holds_only_its_reveal_or_lost_its_first_event_is_refused_in_one_line(
    tmp_path: Path,
) -> None:
    """Given a pair whose log was cut to its last line (the reveal alone), or lost its first
    event (``game_created``), when it is replayed, then it is refused in one line, exit 4
    (``fuzz/pair_not_clean``): the first saying the log holds no event to audit, the second
    naming the broken chain, not a ruleset named ''; never a traceback."""
    path = fixture_after_a_move(
        tmp_path, [{"kind": "wrong_player", "text": "idle", "expect": "refused"}], "outcome"
    )
    log = path.with_suffix(".jsonl")
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    for kept, says in (
        (lines[-1:], ": this log holds no event to audit; "),
        (lines[1:], ": this log does not audit clean from seq 2 (altered or damaged): seq 2 "),
    ):
        log.write_text("".join(kept), encoding="utf-8")
        with plants.registered(NAME, plants.fixed(NAME)):
            status, stdout, stderr = warlog("fuzz", "--replay", str(path))
        assert (status, stdout) == (4, "")
        (line,) = stderr.splitlines()
        assert line.startswith("error[fuzz/pair_not_clean]: cannot replay "), line
        assert says in line, line
        assert "''" not in line and "Traceback" not in stderr
