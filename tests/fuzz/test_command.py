"""``warlog fuzz`` as a rules developer runs it: its summary, its JSON report, its exit codes and
its one-line errors (issue 14, item 1)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner

from warlog.arbiter.application import Arbiter
from warlog.arbiter.autoplay import autoplay
from warlog.arbiter.exchange import export_line
from warlog.cli import render
from warlog.cli.main import cli
from warlog.domain import rulesets
from warlog.domain.core.errors import WarlogError
from warlog.eventstore.memory_store import MemoryStore
from warlog.fuzz import run
from warlog.fuzz.search import Budget

ROOT = Path(__file__).resolve().parent.parent.parent
HB = str(ROOT / "fixtures" / "heroic-battles")
BFA = str(ROOT / "fixtures" / "battle-for-armageddon" / "bfa-golden.jsonl")


def warlog(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_a_clean_run_exits_0_and_sums_up_what_it_tried_checked_and_reached(
    tmp_path: Path,
) -> None:
    out = tmp_path / "failures"
    status, stdout, stderr = warlog(
        "fuzz", HB, "--examples", "4", "--steps", "5", "--seed", "7", "--out", str(out)
    )
    assert status == 0, stdout + stderr
    assert stderr == ""  # no progress bar when stderr is not a terminal
    lines = stdout.splitlines()
    tried = re.fullmatch(
        r"heroic-battles \(version 1\): 4 of 4 examples \(the examples ran out first\), "
        r"(\d+) commands tried "
        r"\((\d+) accepted, (\d+) refused\) in [\d.]+ s",
        lines[0],
    )
    assert tried, lines[0]
    total, accepted, refused = map(int, tried.groups())
    assert accepted + refused == total  # nothing crashed: the parts add up to the total
    assert lines[1] == (
        f"  sources, in the order the examples draw them: {HB}/hb-golden.jsonl (version 1)"
    )
    assert lines[2].startswith("  commands tried by kind: legal ")
    assert lines[3].startswith("  unlisted variants tried, by type (mutated commands the rules ")
    assert lines[4].startswith("  coverage: ") and " of 71 event types reached" in lines[4]
    # what was checked, as requirements and counts, never a verdict
    assert lines[5] == (
        "  checked after every step (an example stops at its first failure): it raises nothing "
        "but warlog's own errors (crash); the state it was decided on is unchanged (purity)"
    )
    assert "no crash" not in stdout
    assert re.fullmatch(
        r"  outcome: a command the rules list as legal must be accepted \(\d+ steps?\); one "
        r"known to be illegal \(from a player the game does not wait for, of a type it does "
        r"not wait for, after the game ended, or malformed\) must be refused with nothing "
        r"appended, by the rules \(exit 3\) or as bad input \(exit 1; malformed input: exit 1\) "
        r"\(\d+ steps?\); one the rules do not list, of a type whose legal list the ruleset "
        r"declares complete, must be refused likewise, by the rules or as bad input "
        r"\(\d+ steps?\); any other mutated command the rules do not list may be accepted or "
        r"refused: "
        r"only that a refusal exits 1 or 3 with nothing appended is checked \(\d+ steps?\)",
        lines[6],
    ), lines[6]
    assert lines[7].startswith("  after every accepted step: the new batch audited")
    assert lines[10].startswith("  views: every reader's view rendered at the end of each example")
    assert lines[-2:] == ["no failures", lines[-1]]
    assert re.fullmatch(r"seed 7; [\d.]+ s \(loading the sources [\d.]+ s\)", lines[-1])
    assert not out.exists()  # nothing written when nothing failed


def test_the_same_seed_gives_the_same_examples(tmp_path: Path) -> None:
    def run() -> dict[str, Any]:
        status, stdout, _ = warlog(
            "fuzz", BFA, "--examples", "3", "--steps", "4", "--seed", "11", "--json"
        )
        assert status == 0
        tally: dict[str, Any] = json.loads(stdout)["tallies"][0]
        return {k: v for k, v in tally.items() if k != "seconds"}

    first = run()
    assert first["examples"] == 3 and first["steps"]
    assert first["accepted"] + first["refused"] + first["crashed"] == first["steps"]
    assert sum(first["expected"].values()) == first["steps"]
    assert run() == first


def begun_now(folder: Path, commands: int) -> Path:
    """A Battle for Armageddon game begun under the latest rules and played on by autoplay
    for ``commands`` commands, exported with its values open (``warlog export --open``)."""
    arb = Arbiter(MemoryStore(), rulesets.get, seeds=lambda: b"\1" * 32)
    game = arb.new_game("battle-for-armageddon", game="fresh")
    autoplay(arb, game, commands)
    fresh = folder / "fresh.jsonl"
    fresh.write_text(
        "".join(export_line(r) + "\n" for r in arb.export_records(game, opened=True)),
        encoding="utf-8",
    )
    return fresh


def test_the_summary_names_the_rules_version_of_every_source(tmp_path: Path) -> None:
    # the golden game was recorded under version 2 and forks of it play on under it; a game
    # begun now plays under the latest version
    fresh = begun_now(tmp_path, commands=10)
    latest = rulesets.get("battle-for-armageddon").version
    args = ("fuzz", BFA, str(fresh), "--examples", "2", "--steps", "2", "--seed", "3")
    status, stdout, _ = warlog(*args)
    assert status == 0, stdout
    assert stdout.startswith(f"battle-for-armageddon (versions 2, {latest}): 2 of 2 examples ")
    status, stdout, _ = warlog(*args, "--json")
    assert json.loads(stdout)["tallies"][0]["versions"] == {BFA: "2", str(fresh): latest}


def test_a_search_out_of_time_before_its_first_example_says_nothing_was_checked() -> None:
    """Given a budget too short for one example, when a game is fuzzed, then the summary says
    the budget ran out first and nothing was checked, and the run exits 1 with one line saying
    so: a CI script must not pass a run that checked nothing as one that found nothing."""
    status, stdout, stderr = warlog("fuzz", HB, "--budget", "0.0001", "--seed", "7")
    assert status == 1
    assert stdout.startswith(
        "heroic-battles (version 1): 0 of 300 examples (the budget ran out first: nothing was "
        "checked), "
    )
    assert stderr == (
        "error[fuzz/nothing_checked]: no example ran in heroic-battles within the budget of "
        "0.0001 s: nothing was checked there; give a larger --budget\n"
    )


def test_bad_sources_and_fixtures_are_refused_in_one_line(tmp_path: Path) -> None:
    status, _, stderr = warlog("fuzz", str(tmp_path / "missing.jsonl"))
    assert status == 1 and stderr.startswith("error[") and len(stderr.splitlines()) == 1
    status, _, stderr = warlog("fuzz", str(tmp_path))  # a folder with no recorded game
    assert status == 1 and "error[input/no_sources]" in stderr
    # a source that cannot be read is 1: a .jsonl file that is not a warlog log
    (tmp_path / "logs").mkdir()
    other = tmp_path / "logs" / "other.jsonl"
    other.write_text('{"a": 1}\n{"b": 2}\n', encoding="utf-8")
    status, _, stderr = warlog("fuzz", str(other))
    assert status == 1 and stderr == (
        f"error[input/not_a_log]: {other} is not a warlog log: its first line is not the event "
        "opening a game (game_created) in the export format\n"
    )
    # a log that fails its audit is 4: a warlog log with a damaged line
    lines = Path(BFA).read_text(encoding="utf-8").splitlines(keepends=True)
    damaged = tmp_path / "logs" / "damaged.jsonl"
    damaged.write_text("".join(lines[:5]) + '{"seq": 6}\n' + "".join(lines[6:]), encoding="utf-8")
    status, _, stderr = warlog("fuzz", str(damaged))
    assert status == 4 and stderr.startswith("error[") and "line 6" in stderr
    status, _, stderr = warlog("fuzz")
    assert status == 2 and "give at least one SOURCE" in stderr
    status, _, stderr = warlog("fuzz", "--replay", str(tmp_path / "none.json"))
    assert status == 1 and stderr.startswith("error[") and len(stderr.splitlines()) == 1
    not_a_fixture = tmp_path / "x.json"
    not_a_fixture.write_text("{}")
    status, _, stderr = warlog("fuzz", "--replay", str(not_a_fixture))
    assert status == 1 and "is not a fuzz failure" in stderr
    # a failure's log given where its steps belong: named, with the file to give
    pair = Path(__file__).resolve().parents[2] / "fixtures" / "regressions"
    log = sorted(pair.glob("*.jsonl"))[0]
    status, _, stderr = warlog("fuzz", "--replay", str(log))
    assert status == 1 and stderr == (
        f"error[input/bad_fixture]: {log} is the log of a fuzz failure: give "
        f"{log.with_suffix('.json')}, its steps, beside it\n"
    )
    # a log with no steps beside it is not called a fuzz failure's: there is no file to give
    status, _, stderr = warlog("fuzz", "--replay", BFA)
    assert status == 1 and "is not a fuzz failure" in stderr and "give" not in stderr
    status, _, stderr = warlog("fuzz", "--replay", str(not_a_fixture), BFA)
    assert status == 2 and "--replay takes no SOURCE" in stderr


def test_an_export_still_sealed_is_refused_saying_what_to_give_instead(tmp_path: Path) -> None:
    """Given an Armageddon Empires game still being played, exported as a player is given it
    (its hands sealed), when it is fuzzed, then it is refused in one line (exit 1,
    fuzz/source_sealed) that names the sources fuzz can open: it named import's --chain-only,
    which fuzz does not take."""
    arb = Arbiter(MemoryStore(), rulesets.get, seeds=lambda: b"\1" * 32)
    game = arb.new_game("armageddon-empires", game="live")
    sealed = tmp_path / "live.jsonl"
    sealed.write_text(
        "".join(export_line(r) + "\n" for r in arb.export_records(game)), encoding="utf-8"
    )
    status, stdout, stderr = warlog("fuzz", str(sealed), "--examples", "1")
    assert (status, stdout) == (1, "")
    assert stderr == (
        f"error[fuzz/source_sealed]: cannot fuzz {sealed}: its sealed values are not opened (an "
        "export of a game whose seed is not revealed), and every command is re-derived; give "
        "the game's id on its database, or an export made with --open or after the reveal\n"
    )


def test_a_source_whose_log_was_altered_is_refused_as_a_broken_log(tmp_path: Path) -> None:
    lines = Path(BFA).read_text(encoding="utf-8").splitlines(keepends=True)
    record = json.loads(lines[5])
    record["at"] = "2000-01-01T00:00:00.000Z"
    lines[5] = json.dumps(record) + "\n"
    altered = tmp_path / "altered.jsonl"
    altered.write_text("".join(lines), encoding="utf-8")
    status, stdout, stderr = warlog("fuzz", str(altered), "--examples", "1")
    assert status == 4 and stdout == "" and len(stderr.splitlines()) == 1
    line = stderr.rstrip("\n")
    assert len(line) <= len("error[fuzz/source_not_clean]: ") + WarlogError.MAX_LENGTH
    # its audit finds the altered time twice (the chain and the order): one more than the
    # first; the long name of a test's folder may be left out of the audit to run, or cut in
    # its middle, never the finding, what to do next or what a source must be
    cut = re.fullmatch(
        r"error\[fuzz/source_not_clean\]: cannot fuzz (\S+): this log does not audit clean "
        r"from seq 6 \(altered or damaged\): seq 6 \[chain\]: hash does not match the event's "
        r"content \(the event was altered\) \(and 1 more; `warlog audit( \S+)?`( of it)? lists "
        r"them\); a source must audit clean under the rules installed",
        line,
    )
    assert cut, line
    head, _, tail = cut.group(1).partition("…")
    assert str(altered).startswith(head) and str(altered).endswith(tail)
    assert cut.group(1).endswith("altered.jsonl")


def test_the_exit_codes_in_help_say_what_fuzz_exits_4_for() -> None:
    status, stdout, _ = warlog("--help")
    assert status == 0
    assert (
        "4 audit or import found the log altered or invalid, or import could not check its "
        "rules (a log still sealed); fuzz found a failure (or --replay still fails), or a "
        "source (or a pair's log) does not audit clean" in " ".join(stdout.split())
    )


def test_on_a_terminal_a_progress_bar_runs_on_stderr_and_is_cleared_at_the_end(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    with render.bar("fuzzing") as show:
        assert show is not None
        show(0.5, "battle-for-armageddon: 3 examples")
    err = capsys.readouterr().err
    assert "[############------------]  50% battle-for-armageddon: 3 examples" in err
    assert err.endswith("\r\033[K")


def test_an_error_of_the_fuzzer_itself_is_not_reported_as_no_failures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given a fuzzer whose own step drawing raises (a bug in the fuzzer, not in the rules),
    when it runs, then it ends on that error, one line and not exit 0, instead of summing up a
    search that never ran as 'no failures'."""
    import warlog.fuzz.search as search

    def broken(*args: object) -> None:
        raise RuntimeError("the fuzzer's own bug")

    monkeypatch.setattr(search, "draw_step", broken)
    result = CliRunner().invoke(
        cli, ["fuzz", HB, "--examples", "3", "--seed", "1", "--out", str(tmp_path / "out")]
    )
    assert result.exit_code != 0
    assert "no failures" not in result.stdout
    assert result.stderr == (
        "error[internal/bug]: RuntimeError: the fuzzer's own bug (a bug in warlog; "
        "WARLOG_DEBUG=1 shows where)\n"
    )


def test_the_progress_reaches_the_end_when_the_examples_run_out_first() -> None:
    """Given a budget far longer than a few examples need, when the search ends on its count of
    examples, then the progress it reports reaches 1 (the bar does not stop at a tenth), and
    never goes back."""
    told: list[float] = []
    report = run.fuzz(
        [BFA],
        lambda: None,
        budget=600,
        examples=4,
        seed=1,
        progress=lambda _r, _n, d: told.append(d),
    )
    assert report.tallies[0].examples >= 4
    assert told[-1] == 1.0
    assert told == sorted(told)


def test_as_a_library_call_without_progress_to_tell_the_search_runs_all_its_examples() -> None:
    """Given no progress to tell (a call from a script or a REPL), when a few examples are
    fuzzed, then the search runs them all and reports no failure."""
    report = run.fuzz([BFA], lambda: None, budget=600, examples=3, seed=1)
    (tally,) = report.tallies
    assert tally.examples >= 3 and tally.finished >= 3
    assert report.found == []


def test_what_one_ruleset_leaves_of_the_budget_goes_to_the_next(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Given sources of two rulesets and a budget of 100 s, when the first ruleset's search
    (the first by name, whatever the order the sources are named in) ends after 5 s (on a test
    clock), then it was given half the budget, and the second what is left of it, 95 s (not a
    half again), each with half its share to shrink what it finds."""
    given: list[tuple[float, float]] = []
    clock = [1000.0]

    def searched(*args: object, budget: Budget, **kwargs: object) -> list[object]:
        given.append((budget.search_until - clock[0], budget.shrinking))
        clock[0] += 5
        return []

    monkeypatch.setattr(run, "search", searched)
    monkeypatch.setattr(run, "time", SimpleNamespace(monotonic=lambda: clock[0]))
    report = run.fuzz([HB, BFA], lambda: None, budget=100, examples=1, seed=1)
    assert [t.ruleset for t in report.tallies] == ["battle-for-armageddon", "heroic-battles"]
    assert given == [(50.0, 25.0), (95.0, 47.5)]


def test_the_counts_of_a_run_add_up_and_each_check_is_said_as_often_as_it_ran() -> None:
    """Given Heroic Battles fuzzed with a seed that draws every kind of step, when the run is
    summed up, then the steps tried add up by kind, by what had to happen and by what did; each
    accepted step was audited and compared with its replay once, each state at rest (an
    example's start, each accepted step) had its invariants checked, every example reached its
    end; and the summary says each of those numbers."""
    args = ("fuzz", HB, "--examples", "8", "--steps", "10", "--seed", "2")
    status, stdout, _ = warlog(*args, "--json")
    assert status == 0
    t = json.loads(stdout)["tallies"][0]
    assert set(t["tried"]) == {"legal", "mutated", "wrong_player", "other_phase", "malformed"}
    assert sum(t["tried"].values()) == sum(t["expected"].values()) == t["steps"]
    assert t["accepted"] + t["refused"] == t["steps"] and t["crashed"] == 0
    assert t["replays_compared"] == t["rederived"] == t["accepted"]
    assert t["invariant_checks"] == t["examples"] + t["accepted"]
    assert t["finished"] == t["examples"] == 8
    # each snapshot written during an example, and the newest at its end
    assert t["snapshots_checked"] > t["finished"] and t["dice_verified"] > 0
    status, stdout, _ = warlog(*args)
    lines = stdout.splitlines()
    expected = t["expected"]
    illegal = expected["refused"] + expected["input"]
    assert f"must be accepted ({expected['accepted']} steps)" in lines[6]
    assert f"or as bad input (exit 1; malformed input: exit 1) ({illegal} steps)" in lines[6]
    unlisted = render.plural(expected.get("unlisted", 0), "step")
    assert f"must be refused likewise, by the rules or as bad input ({unlisted})" in lines[6]
    assert lines[6].endswith(f"is checked ({render.plural(expected.get('either', 0), 'step')})")
    assert lines[7] == (
        "  after every accepted step: the new batch audited (chain from the fork point, the "
        f"command re-derived: {t['rederived']} batches); the live state equal to the state "
        f"replayed from the log ({t['replays_compared']} states); the ruleset's invariants and "
        f"no dead end ({t['invariant_checks']} states: each example's fork point, and the state "
        "after each accepted step the checks before passed)"
    )
    assert lines[8].startswith(f"  snapshots: {t['snapshots_checked']} snapshots decoded")
    assert lines[9].startswith(f"  dice: {t['dice_verified']} rolls re-derived")
    assert "(8 examples reached their end); non-interference on 0 steps" in lines[10]


def test_an_example_plays_at_most_steps_commands() -> None:
    status, stdout, _ = warlog(
        "fuzz", HB, "--examples", "8", "--steps", "1", "--seed", "1", "--json"
    )
    assert status == 0
    (t,) = json.loads(stdout)["tallies"]
    assert t["steps"] == t["examples"] == 8


def test_a_game_just_created_is_fuzzed_from_the_end_of_its_opening(tmp_path: Path) -> None:
    """Given a Battle for Armageddon game just created (its one fork point the end of its
    opening), when it is fuzzed, then every example forks it there and the run is clean."""
    fresh = begun_now(tmp_path, commands=0)
    status, stdout, stderr = warlog(
        "fuzz", str(fresh), "--examples", "3", "--steps", "2", "--seed", "1", "--json"
    )
    assert status == 0, stderr
    (t,) = json.loads(stdout)["tallies"]
    assert t["examples"] == t["finished"] == 3


def test_a_log_with_an_event_dropped_is_refused_as_altered_or_damaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given the golden game with its event 101 deleted (the rules re-derive its batch
    differently, seq 101, before the chain finds the gap at 102), when it is fuzzed, then it
    is refused as a log altered or damaged, naming the chain's finding, not as one the rules
    re-derive differently."""
    monkeypatch.chdir(tmp_path)  # a short name: nothing of the line is cut
    lines = Path(BFA).read_text(encoding="utf-8").splitlines(keepends=True)
    dropped = Path("dropped.jsonl")
    dropped.write_text("".join(lines[:100] + lines[101:]), encoding="utf-8")
    status, stdout, stderr = warlog("fuzz", str(dropped), "--examples", "1")
    assert (status, stdout) == (4, "")
    assert stderr.startswith(
        f"error[fuzz/source_not_clean]: cannot fuzz {dropped}: this log does not audit clean "
        "from seq 102 (altered or damaged): seq 102 [chain]: prev is not the hash of the event "
        "before it (an earlier event was altered, dropped, inserted or reordered)"
    ), stderr


def chess(folder: Path) -> Path:
    """The golden game of Battle for Armageddon claiming to be a game of chess."""
    lines = Path(BFA).read_text(encoding="utf-8").splitlines(keepends=True)
    first = json.loads(lines[0])
    first["data"]["ruleset"] = "chess"
    path = folder / "chess.jsonl"
    path.write_text(json.dumps(first) + "\n" + "".join(lines[1:]), encoding="utf-8")
    return path


def test_a_log_of_a_ruleset_this_warlog_does_not_have_is_refused_saying_so(
    tmp_path: Path,
) -> None:
    path = chess(tmp_path)
    status, stdout, stderr = warlog("fuzz", str(path), "--examples", "1")
    assert (status, stdout) == (4, "")
    assert stderr == (
        f"error[fuzz/source_not_clean]: cannot fuzz {path}: this log is a game of 'chess', a "
        "ruleset this warlog does not have (it has armageddon-empires, battle-for-armageddon "
        "and heroic-battles); a source must audit clean under the rules installed\n"
    )


def test_every_source_that_does_not_audit_clean_is_counted_and_json_names_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given a clean source and two that do not audit clean (an altered log, a game of chess),
    when they are fuzzed, then the line names the first in the sources' order and says how
    many others fail too (exit 4), and --json names each with why and its first finding."""
    monkeypatch.chdir(tmp_path)  # short names: nothing of the line is cut
    lines = Path(BFA).read_text(encoding="utf-8").splitlines(keepends=True)
    dropped = Path("dropped.jsonl")
    dropped.write_text("".join(lines[:100] + lines[101:]), encoding="utf-8")
    named = (str(chess(Path("."))), HB, str(dropped))
    status, stdout, stderr = warlog("fuzz", *named, "--examples", "1")
    assert (status, stdout) == (4, "")
    assert stderr.startswith(
        f"error[fuzz/source_not_clean]: cannot fuzz {dropped} (nor 1 other source: --json "
        "names it): this log does not audit clean from seq 102 (altered or damaged): "
    ), stderr
    status, stdout, json_stderr = warlog("fuzz", *named, "--examples", "1", "--json")
    assert (status, json_stderr) == (4, stderr)
    assert json.loads(stdout) == {
        "not_clean": [
            {
                "source": str(dropped),
                "why": "this log does not audit clean from seq 102 (altered or damaged)",
                "finding": "seq 102 [chain]: prev is not the hash of the event before it (an "
                "earlier event was altered, dropped, inserted or reordered) (expected: "
                + json.loads(lines[99])["hash"]  # event 100's, which 102 does not follow
                + "; found: "
                + json.loads(lines[101])["prev"]
                + ")",
                "findings": 4,
            },
            {
                "source": named[0],
                "why": "this log is a game of 'chess', a ruleset this warlog does not have (it "
                "has armageddon-empires, battle-for-armageddon and heroic-battles)",
                "finding": None,
                "findings": None,
            },
        ]
    }


def test_the_same_sources_in_another_order_or_named_twice_give_the_same_examples() -> None:
    """Given the golden games of Midgard and of Battle for Armageddon, named in one order, then
    in the other with one named twice, when each is fuzzed with the same seed, then the two
    reports are the same (but for their times): the sources are taken in one order, each once,
    and the summary names them."""

    def report(*named: str) -> dict[str, Any]:
        status, stdout, _ = warlog(
            "fuzz", *named, "--examples", "3", "--steps", "3", "--seed", "5", "--json"
        )
        assert status == 0
        out: dict[str, Any] = json.loads(stdout)
        for key in ("seconds", "loading"):
            out.pop(key)
        for tally in out["tallies"]:
            tally.pop("seconds")
        return out

    one = report(HB, BFA)
    assert [t["ruleset"] for t in one["tallies"]] == ["battle-for-armageddon", "heroic-battles"]
    assert report(BFA, HB, BFA) == one
    status, stdout, _ = warlog("fuzz", BFA, HB, "--examples", "3", "--steps", "3", "--seed", "5")
    assert status == 0
    assert "  sources, in the order the examples draw them: " + BFA + " (version 2)" in stdout
