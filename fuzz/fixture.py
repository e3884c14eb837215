"""A failure as a regression fixture, and its replay.

``NAME.jsonl`` is a normal warlog log, hash-chained, importable and auditable: the shrunk
example's game up to just before the steps that show the failure, closed by the reveal of the
example's key (every die and seal of the example can be checked; the source's events are copied
as they were read, their values opened as the source opened them, since the key of a source not
yet revealed is not at hand). ``NAME.json`` holds those steps (the command as played, what had to
happen to it, the dice it rolled), the check that failed and its message.

Replaying imports the log, takes the key back from its reveal and plays the steps on from the
last event before it, with every check: a log and steps that still fail give the failure again;
once the rules are fixed, they pass.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import msgspec

from warlog.arbiter import initial
from warlog.arbiter.exchange import export_line
from warlog.arbiter.sealing import REFEREE
from warlog.arbiter.sources import file_records
from warlog.domain.core.dice import commitment_of
from warlog.domain.core.errors import InputError, IntegrityError
from warlog.fuzz import sources
from warlog.fuzz.checks import Failure
from warlog.fuzz.example import Example, Played, Step, at_head, forked
from warlog.fuzz.report import Tally
from warlog.fuzz.search import Trace, key_of

FORMAT = "warlog-fuzz-failure/1"


class FixtureStep(msgspec.Struct, frozen=True, omit_defaults=True):
    """A step to replay: the command exactly as played (``text``; ``command`` is the same
    parsed, for people), its kind, what had to happen to it, and the dice it rolled when found."""

    kind: str
    text: str
    expect: str
    command: Any = None
    dice: list[tuple[int, list[int]]] = []


class Fixture(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The ``.json`` of a regression fixture."""

    ruleset: str
    version: str
    check: str
    message: str
    source: str
    fork_at: int
    steps: list[FixtureStep]
    #: the index of the failing step in ``steps`` (None: the check failed at the example's end)
    failing: int | None = None
    seed: int | None = None
    format: str = FORMAT


class Written(msgspec.Struct):
    """A pair written: ``path`` (``out/NAME``), the events of its log, of which the source's to
    seq ``fork_at`` and then those of ``commands`` generated commands, and the steps to replay."""

    path: Path
    events: int
    steps: int
    fork_at: int = 0
    commands: int = 0
    #: the pair was there already, the same but for the seed of the run that wrote it (this
    #: seed; None when that run's is not known): kept as it was, not written again
    kept: bool = False
    kept_seed: int | None = None


def write(
    holder: sources.Sources, group: list[sources.Source], trace: Trace, out: Path, seed: int
) -> Written:
    """Write ``trace`` as ``out/NAME.jsonl`` and ``out/NAME.json``; ``path`` is ``out/NAME``.
    InputError (exit 1) if ``out`` cannot be written."""
    source = group[trace.source]
    arb, game = forked(holder, source, trace.at, key_of(trace.key, source))(None)
    logged = [p for p in trace.played[: trace.since] if p.accepted]  # a refusal appends nothing
    for played in logged:
        arb.play(game, played.step.text)
    arb.reveal(game, despite_live_forks=True)  # the fuzz's own copy, handed to nobody
    # the source's events as read (opened as its export or database opened them: the key of a
    # source not yet revealed is not here to open them again), then the fork's own, opened
    # with the example's key, revealed just now
    shared = source.records[: trace.at]
    own = arb.forms(game, REFEREE, trace.at + 1, None)
    text = "".join(export_line(r) + "\n" for r in [*shared, *own])
    replayed = [*trace.played[trace.since :], *([trace.failing] if trace.failing else [])]
    fixture = Fixture(
        ruleset=source.ruleset.name,
        version=source.ruleset.version,
        check=trace.check,
        message=trace.message,
        source=source.name,
        fork_at=trace.at,
        steps=[_step(p) for p in replayed],
        failing=len(replayed) - 1 if trace.failing else None,
        seed=seed,
    )
    digest = hashlib.sha256(text.encode() + msgspec.json.encode(fixture.steps)).hexdigest()
    path = out / f"{source.ruleset.name}-{trace.check}-{digest[:8]}"
    written = Written(path, text.count("\n"), len(replayed), trace.at, len(logged))
    # the name is a digest of the log and the steps: a pair there already by that name is the
    # same failure, found by another run (another seed, say); it is kept as it was rather than
    # written over, so that its .json keeps naming the run that wrote it
    there = [p for p in (path.with_suffix(".jsonl"), path.with_suffix(".json")) if p.exists()]
    if there:
        before = _same_pair(path, text, fixture)
        if before is None:
            raise InputError(
                f"{there[0]} exists and is not this failure's: nothing written over it (move it "
                "away, or give another --out)",
                "input/unwritable",
            )
        return msgspec.structs.replace(written, kept=True, kept_seed=before.seed)
    try:
        out.mkdir(parents=True, exist_ok=True)
        path.with_suffix(".jsonl").write_text(text, encoding="utf-8")
        pretty = json.dumps(msgspec.to_builtins(fixture), indent=1, ensure_ascii=False)
        path.with_suffix(".json").write_text(pretty + "\n", encoding="utf-8")
    except OSError as exc:
        raise InputError(
            f"cannot write the failure to {out}: {exc.strerror}", "input/unwritable"
        ) from None
    return written


def _same_pair(path: Path, text: str, fixture: Fixture) -> Fixture | None:
    """The fixture of the pair at ``path`` if it is ``text`` and ``fixture`` but for the seed
    of the run that wrote it and the source as that run named it (``./x.jsonl``, an absolute
    path: both are for people, the log is the pair's own); None: another pair, or unreadable."""
    try:
        log = path.with_suffix(".jsonl").read_text(encoding="utf-8")
        before = msgspec.json.decode(path.with_suffix(".json").read_bytes(), type=Fixture)
    except (OSError, ValueError, msgspec.DecodeError, msgspec.ValidationError):
        return None
    told = msgspec.structs.replace(before, seed=fixture.seed, source=fixture.source)
    if log != text or told != fixture:
        return None
    return before


def _step(played: Played) -> FixtureStep:
    step = played.step
    try:
        command = json.loads(step.text)
    except ValueError:
        command = None
    return FixtureStep(step.kind, step.text, played.expect, command, played.dice)


def _check_agrees(path: str, fixture: Fixture) -> None:
    """InputError (``input/bad_fixture``, exit 1) for a ``.json`` that disagrees with itself:
    a step whose ``command`` is not its ``text`` (the text is what is played: an edit of the
    command alone would be ignored), or a ``failing`` index that names no step."""
    for i, step in enumerate(fixture.steps, 1):
        if step.command is None:
            continue
        try:
            same = json.loads(step.text) == step.command
        except ValueError:
            same = False
        if not same:
            raise InputError(
                f"{path}: step {i}'s command is not its text, which is what a replay plays: "
                "make them the same (or remove command)",
                "input/bad_fixture",
            )
    failing, count = fixture.failing, len(fixture.steps)
    if failing is not None and not 0 <= failing < count:
        raise InputError(
            f"{path}: failing is {failing}, which names no step (it holds "
            f"{count} step{'' if count == 1 else 's'}, from 0)",
            "input/bad_fixture",
        )


class Replayed(msgspec.Struct):
    """What replaying a fixture gave: the failure it shows again (None: every check passes),
    and anything worth saying about how it was replayed."""

    fixture: Fixture
    failure: Failure | None
    notes: list[str]


#: what a pair whose log no longer audits leaves untold, closing its refusal
NOT_CLEAN_CLOSING = "whether the failure is fixed cannot be told from it; fuzz its source again"


def not_clean(path: str, told: sources.Unclean) -> str:
    """The one line refusing to replay the pair ``path`` whose log ``told`` says no longer
    audits: the pair's name (cut from its start, its file name whole), why and the audit's
    first finding, what differs kept before its general words (``sources.refusal``), and
    ``NOT_CLEAN_CLOSING``. ``told.why`` says the log does not audit, so the lead names the
    pair alone, leaving the finding the room."""
    return sources.refusal(
        lambda most: f"cannot replay {sources.path_end(path, most)}: ", told, NOT_CLEAN_CLOSING
    )


def replay(path: str) -> Replayed:
    """Replay the fixture ``path`` (its ``.json``; the ``.jsonl`` beside it). InputError (exit 1)
    for a file that is not a fixture; IntegrityError (exit 4, ``fuzz/pair_not_clean``) for a
    log that does not audit clean under the rules installed (broken, or re-derived otherwise
    since it was written)."""
    spec = Path(path)
    if spec.suffix == ".jsonl" and spec.with_suffix(".json").is_file():
        raise InputError(
            f"{path} is the log of a fuzz failure: give {spec.with_suffix('.json')}, its steps, "
            "beside it",
            "input/bad_fixture",
        )
    try:
        fixture = msgspec.json.decode(spec.read_bytes(), type=Fixture)
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}", "input/unreadable") from None
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise InputError(f"{path} is not a fuzz failure: {exc}", "input/bad_fixture") from None
    _check_agrees(path, fixture)
    log = spec.with_suffix(".jsonl")
    records = file_records(str(log))
    last = records[-1]
    if last.type != "dice_revealed":
        raise InputError(
            f"{log} does not end with the reveal of its key, as a fuzz failure's log does",
            "input/bad_fixture",
        )
    seed = bytes.fromhex(json.loads(last.data)["seed"])
    initial.forget()  # as a fresh process would: what the search ran may have spoilt them
    holder = sources.empty()
    notes: list[str] = []
    try:
        source = sources.add(holder, str(log), records[:-1])
    except IntegrityError:
        # the rules installed re-derive the log differently (a fix of what a command of it
        # did, say): its steps would be played on a game these rules never reach, and what
        # they did there would say nothing of whether the failure is fixed
        told = sources.unclean(holder.arbiter, str(log), records[:-1])
        raise IntegrityError(not_clean(path, told), "fuzz/pair_not_clean") from None
    holder.vault.put_key(commitment_of(seed), seed, source.game)
    ruleset = source.ruleset
    if (fixture.ruleset, fixture.version) != (ruleset.name, ruleset.version):
        # the log says what it is played under; the .json only repeats it, for people
        notes.append(
            f"the .json says {fixture.ruleset} version {fixture.version}; its log is played "
            f"under {ruleset.name} version {ruleset.version}, which the replay follows"
        )
        fixture = msgspec.structs.replace(fixture, ruleset=ruleset.name, version=ruleset.version)
    tally = Tally(ruleset.name, {source.name: ruleset.version}, [])
    try:
        example = Example(at_head(holder, source), tally)
        for step in fixture.steps:
            example.run(Step(step.kind, step.text))
        example.finish()
    except Failure as failure:
        return Replayed(fixture, failure, notes)
    return Replayed(fixture, None, notes)
