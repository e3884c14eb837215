"""What a fuzz run did and found: the counts of each ruleset's run, the failures, and the summary
printed at the end (which names exactly the checks that ran, no more)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from warlog.domain.core.summary import listed, plural

if TYPE_CHECKING:
    from warlog.fuzz.example import Step


class Tally(msgspec.Struct):
    """The counts of one ruleset's run (shrinking included: ``shrinking`` says how many of the
    examples ran after the first failure, shrinking it or searching on)."""

    ruleset: str
    #: each source fuzzed -> the version of the rules it plays under (a fork plays on under
    #: its source's version)
    versions: dict[str, str]
    #: every event type the ruleset defines at those versions (its own and the engine's)
    known: list[str]
    examples: int = 0
    #: the examples asked for (``--examples``)
    planned: int = 0
    shrinking: int = 0
    #: the example that first failed (1 is the first example; 0: none failed)
    first_failure: int = 0
    #: the examples Hypothesis stopped before their end, out of draws (its target phase
    #: varies the examples that reached the rarest events, and a variation that needs more
    #: draws than the example it varies ends where they run out): their steps were played and
    #: checked, their end was not; counted in ``examples``
    cut_short: int = 0
    #: steps tried, by kind (legal, wrong_player, other_phase, mutated, malformed)
    tried: dict[str, int] = {}
    #: steps drawn as one kind and played as another ("mutated as malformed"), the kind drawn
    #: finding nothing to work on (``strategies.FALLBACKS``) or the game over: counted in
    #: ``tried`` under the kind played
    fallbacks: dict[str, int] = {}
    #: steps tried, by what had to happen to them where they were played (accepted, refused,
    #: input, unlisted, either: ``checks.expectation``)
    expected: dict[str, int] = {}
    #: the mutated steps the rules did not list (unlisted or either), by command type: the
    #: illegal variants tried of each type
    variants: dict[str, int] = {}
    #: the command types whose legal list the ruleset declares complete (``complete_legal``)
    #: and whose commands have a field a mutated step may change
    complete: list[str] = []
    #: what the steps tried did, whatever a check said of it: accepted + refused + crashed is
    #: the number of steps tried
    accepted: int = 0
    refused: int = 0
    crashed: int = 0
    #: states whose invariants were checked (after each step that changed the state)
    invariant_checks: int = 0
    #: live states compared with the state replayed from the log (one per accepted step that
    #: audited clean)
    replays_compared: int = 0
    #: examples whose end was checked (views rendered, the newest snapshot, the key revealed)
    finished: int = 0
    #: batches re-derived by the audit, rolls re-derived from a revealed key, seals opened
    rederived: int = 0
    dice_verified: int = 0
    snapshots_checked: int = 0
    #: steps compared in a twin game (non-interference), and twins ended because a command
    #: depended on a hidden value
    twin_steps: int = 0
    twins_ended: int = 0
    #: event type -> how many were appended
    reached: dict[str, int] = {}
    seconds: float = 0.0
    #: why the search stopped: "examples" (all run), "budget" (time ran out), "failure" (one
    #: was found: the search shrank it, then stopped)
    stopped: str = "examples"

    def version_text(self) -> str:
        """``version 2``, or ``versions 2, 3`` when the sources play under several."""
        versions = sorted(set(self.versions.values()), key=_version_order)
        return f"{'version' if len(versions) == 1 else 'versions'} {', '.join(versions)}"

    def steps(self) -> int:
        return sum(self.tried.values())

    def count(self, step: Step, expect: str, did: str, command_type: object) -> None:
        """One step tried, counted once it is known what it did (``accepted``, ``refused`` or
        ``crashed``), so that the parts add up to the steps tried even when a run is
        interrupted in the middle of one: its kind (and the kind drawn, where it fell back),
        what had to happen to it, and for a mutated command the rules did not list, its
        type."""
        kind = step.kind
        self.tried[kind] = self.tried.get(kind, 0) + 1
        if step.drawn:
            fell = f"{step.drawn} as {kind}"
            self.fallbacks[fell] = self.fallbacks.get(fell, 0) + 1
        self.expected[expect] = self.expected.get(expect, 0) + 1
        if kind == "mutated" and expect in ("unlisted", "either"):
            name = str(command_type)
            self.variants[name] = self.variants.get(name, 0) + 1
        if did == "accepted":
            self.accepted += 1
        elif did == "refused":
            self.refused += 1
        else:
            self.crashed += 1

    def coverage(self) -> tuple[list[str], list[str]]:
        """The known event types reached and those never reached."""
        reached = [t for t in self.known if self.reached.get(t)]
        return reached, [t for t in self.known if not self.reached.get(t)]


def _version_order(version: str) -> tuple[int, str]:
    return (int(version), "") if version.isdigit() else (-1, version)


class Found(msgspec.Struct):
    """A failure, shrunk and written as a regression fixture."""

    ruleset: str
    check: str
    message: str
    fixture: str
    #: the events of its log and the steps replayed after it
    events: int
    steps: int
    #: the check that failed when the fixture was replayed at once ("" if none did)
    replayed: str
    #: why the fixture could not be written ("" when it was: ``fixture`` is then its path)
    unwritten: str = ""
    #: why the fixture, written, could not be replayed at once ("" when it was)
    unreplayed: str = ""
    #: the source's seq its log forks after, and the generated commands its log holds after
    #: the fork (before the steps to replay)
    fork_at: int = 0
    commands: int = 0
    #: why shrinking stopped before it was done ("": it was not cut short)
    unfinished: str = ""
    #: the pair was in the folder already (the same failure, found by another run): kept as
    #: it was; ``kept_seed`` is the seed its .json names
    kept: bool = False
    kept_seed: int | None = None

    @property
    def reproduced(self) -> bool:
        return self.replayed == self.check


class Report(msgspec.Struct):
    seed: int
    sources: list[str]
    tallies: list[Tally]
    found: list[Found]
    #: the whole run's, of which ``loading`` the sources' (import, audit, fold)
    seconds: float
    loading: float = 0.0
    #: the ruleset whose search or shrinking Ctrl-C interrupted ("": none was), and the
    #: rulesets after it, never searched
    interrupted: str = ""
    unsearched: list[str] = []

    def ok(self) -> bool:
        return not self.found

    def unchecked(self) -> list[str]:
        """The rulesets in which no example ran (the budget ran out before the first)."""
        return [t.ruleset for t in self.tallies if not t.examples]


def checks_text(t: Tally, failed: Sequence[str] = ()) -> list[str]:
    """Exactly what was checked and how often, in the words of docs/fuzzing.md: what had to
    hold, never that it held (``failed``: the checks that failed, said last)."""
    expected = t.expected
    illegal = expected.get("refused", 0) + expected.get("input", 0)
    lines = [
        "  checked after every step (an example stops at its first failure): it raises nothing "
        "but warlog's own errors (crash); the state it was decided on is unchanged (purity)",
        "  outcome: a command the rules list as legal must be accepted "
        f"({plural(expected.get('accepted', 0), 'step')}); one known to be illegal (from a "
        "player the game does not wait for, of a type it does not wait for, after the game "
        "ended, or malformed) must be refused with nothing appended, by the rules (exit 3) or "
        f"as bad input (exit 1; malformed input: exit 1) ({plural(illegal, 'step')}); one the "
        "rules do not list, of a type whose legal list the ruleset declares complete, must be "
        "refused likewise, by the rules or as bad input "
        f"({plural(expected.get('unlisted', 0), 'step')}); any other mutated command the rules "
        "do not list may be accepted or refused: only that a refusal exits 1 or 3 with nothing "
        f"appended is checked ({plural(expected.get('either', 0), 'step')})",
        "  after every accepted step: the new batch audited (chain from the fork point, the "
        f"command re-derived: {plural(t.rederived, 'batch', 'batches')}"
        f"{_but(t, t.accepted - t.rederived, 'the outcome or purity check')}); the live state "
        f"equal to the state replayed from the log ({plural(t.replays_compared, 'state')}"
        f"{_but(t, t.accepted - t.replays_compared, 'an earlier check')}); the ruleset's "
        f"invariants and no dead end ({plural(t.invariant_checks, 'state')}: each example's "
        "fork point, and the state after each accepted step the checks before passed)",
        f"  snapshots: {plural(t.snapshots_checked, 'snapshot')} decoded and compared with the "
        "replayed state (each when written, and the newest plus its tail at the end of each "
        "example)",
        f"  dice: {plural(t.dice_verified, 'roll')} re-derived from each example's key, revealed "
        "at its end",
        f"  views: every reader's view rendered at the end of each example "
        f"({plural(t.finished, 'example')} reached {'its' if t.finished == 1 else 'their'} "
        "end); non-interference "
        f"on {plural(t.twin_steps, 'step')} of twin games (other draws for the other side; "
        f"{plural(t.twins_ended, 'twin')} ended where a command named a hidden value)",
    ]
    if failed:
        lines.append(f"  failed: {', '.join(failed)} (below)")
    return lines


def _but(t: Tally, n: int, which: str) -> str:
    """What a count after every accepted step leaves out: the ``n`` steps ``which`` check
    failed on first (the example stopped there), or that Ctrl-C cut short before their checks
    ran; an interrupted run that found no failure claims none."""
    if n <= 0:
        return ""
    if t.stopped != "interrupted":
        return f": one per accepted step, but for the {n} on which {which} failed first"
    if not t.first_failure:
        return f": one per accepted step, but for the {n} the interruption cut short"
    return (
        f": one per accepted step, but for the {n} on which {which} failed first or that the "
        "interruption cut short"
    )


def variants_text(t: Tally) -> str:
    """The illegal variants tried of each command type (the mutated commands the rules did not
    list), those of a type whose legal list is complete apart, and the complete types none was
    tried of: what the outcome check never met."""

    def counts(types: list[str]) -> str:
        return ", ".join(f"{k} {t.variants[k]}" for k in types) or "none"

    complete = set(t.complete)
    tried = sorted(t.variants)
    never = sorted(complete - set(tried))
    return (
        "  unlisted variants tried, by type (mutated commands the rules do not list): of the "
        f"types whose legal list is complete, each to be refused: "
        f"{counts([k for k in tried if k in complete])}; of the others, either way: "
        f"{counts([k for k in tried if k not in complete])}; complete types with none: "
        f"{', '.join(never) or 'none'}"
    )


def summary_text(report: Report) -> str:
    lines = []
    for t in report.tallies:
        reached, never = t.coverage()
        stopped = {
            "budget": "the budget ran out first",
            "examples": "the examples ran out first",
            "interrupted": "interrupted",
        }.get(t.stopped, "")
        why = [
            f"{t.cut_short} of them cut short by Hypothesis, out of draws: their steps checked, "
            "not their end"
            if t.cut_short
            else "",
            stopped + (": nothing was checked" if not t.examples else ""),
        ]
        stop = f" ({'; '.join(w for w in why if w)})" if any(why) else ""
        asked = f" of {t.planned}" if t.planned else ""
        outcomes = f"{t.accepted} accepted, {t.refused} refused" + (
            f", {t.crashed} crashed" if t.crashed else ""
        )
        lines.append(
            f"{t.ruleset} ({t.version_text()}): {t.examples}{asked} examples{stop}"
            + (
                f" (the first failed at example {t.first_failure}; {t.shrinking} more after it,"
                " shrinking)"
                if t.first_failure
                else ""
            )
            + f", {plural(t.steps(), 'command')} tried ({outcomes}) in {t.seconds:.1f} s"
        )
        lines.append(
            "  sources, in the order the examples draw them: "
            + ", ".join(f"{name} (version {v})" for name, v in t.versions.items())
        )
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(t.tried.items()))
        fell = ", ".join(f"{k} {n}" for k, n in sorted(t.fallbacks.items()))
        lines.append(
            f"  commands tried by kind: {kinds or 'none'}"
            + (f" (drawn as another kind, which had nothing to work on: {fell})" if fell else "")
        )
        lines.append(variants_text(t))
        lines.append(
            f"  coverage: {len(reached)} of {plural(len(t.known), 'event type')} reached"
            + (f"; never: {', '.join(never)}" if never else "")
        )
        failed = [f.check for f in report.found if f.ruleset == t.ruleset]
        lines += checks_text(t, list(dict.fromkeys(failed)))
    if report.found:
        lines.append(plural(len(report.found), "failure") + ":")
        for f in report.found:
            lines += _found_text(f)
    elif report.interrupted:
        lines.append("no failure found before the interruption")
    elif report.unchecked():
        lines.append(f"no failure found, but nothing was checked in {listed(report.unchecked())}")
    else:
        lines.append(NO_FAILURES)
    if report.interrupted:
        (t,) = (t for t in report.tallies if t.ruleset == report.interrupted)
        unsearched = f"; not fuzzed: {', '.join(report.unsearched)}" if report.unsearched else ""
        lines.append(
            f"interrupted (Ctrl-C) in {t.ruleset} after {plural(t.examples, 'example')}"
            f"{unsearched}; --seed {report.seed} runs the same examples again"
        )
    lines.append(
        f"seed {report.seed}; {report.seconds:.1f} s (loading the sources {report.loading:.1f} s)"
    )
    return "\n".join(lines)


#: the verdict of a run that checked something in every ruleset and found nothing
NO_FAILURES = "no failures"


def _found_text(f: Found) -> list[str]:
    """A failure's lines: the check and its message, then where its pair was written and how
    it replayed (or why it was not written), whether it was kept, and shrinking cut short."""
    lines = [f"  [{f.ruleset}] {f.check}: {f.message}"]
    if f.unwritten:
        return [*lines, f"    not written: {f.unwritten}"]
    if f.unreplayed:
        again = f" (it could not be replayed: {f.unreplayed})"
    elif f.reproduced:
        again = ""
    elif f.replayed:
        again = f" (replayed, it fails the {f.replayed} check instead)"
    else:
        again = " (replayed, it did NOT fail: see docs/fuzzing.md, flaky failures)"
    lines.append(
        f"    {f.fixture}.jsonl ({plural(f.events, 'event')}: the source to seq "
        f"{f.fork_at}, then {plural(f.commands, 'generated command')}) and .json "
        f"({plural(f.steps, 'step')} to replay){again}"
    )
    if f.kept:
        by = f"the run with seed {f.kept_seed}" if f.kept_seed is not None else "a run"
        lines.append(f"    (the same pair as {by} wrote there: kept as it was)")
    if f.unfinished:
        lines.append(
            f"    shrinking stopped short ({f.unfinished}): the pair may hold more than the "
            "failure needs"
        )
    return lines


def as_json(report: Report) -> Any:
    out: dict[str, Any] = msgspec.to_builtins(report)
    for t in out["tallies"]:
        t["steps"] = sum(t["tried"].values())
    for f, found in zip(out["found"], report.found, strict=True):
        f["reproduced"] = found.reproduced
    return out
