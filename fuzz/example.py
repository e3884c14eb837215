"""One example: a game started fresh (a fork of a recorded game, or a regression's log), driven
step by step, with every check of ``checks`` after each step and at its end.

Each example runs on copies of the sources' memory store and vault, so examples never see each
other. Its game is stamped with one time (the source's latest) and its key comes from the
example, so that the same example gives the same log, byte for byte.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import msgspec

from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import Auditor
from warlog.arbiter.fold import Fold, Folded
from warlog.arbiter.sealing import REFEREE, Forms
from warlog.domain.core.dice import Dice
from warlog.domain.core.errors import WarlogError
from warlog.domain.core.events import Event
from warlog.eventstore.codec import command_to_builtins
from warlog.eventstore.lineage import Segment
from warlog.eventstore.records import Record
from warlog.eventstore.vault import MemoryVault, Opening, SeatToken
from warlog.fuzz.checks import (
    Failure,
    command_issuer,
    command_key,
    command_type,
    dead_end,
    expectation,
    first_difference,
    invariants_problem,
    outcome_problem,
    short,
    state_difference,
)
from warlog.fuzz.noninterference import Twin, blinded, other_draws, step_observed
from warlog.fuzz.report import Tally
from warlog.fuzz.sources import Source, Sources
from warlog.projections.events_view import EventsView

#: a snapshot every K events in an example's game (besides those at round starts), so that
#: snapshots are written and checked within examples of a few dozen commands
SNAPSHOT_EVERY = 64

#: starts an example's game afresh: ``(arbiter, game)``, given the dice filter of a twin
Start = Callable[[Callable[[Dice], Dice] | None], tuple[Arbiter, str]]


class Step(msgspec.Struct, frozen=True):
    """A step: a command as JSON text and what kind of command it is (what must happen to it
    is judged when it is played, by the state it is played in: ``Played.expect``)."""

    kind: str
    text: str
    #: the kind drawn, where it found nothing to work on and the step is of another
    #: (``strategies.FALLBACKS``; a step after the game ended): "" when it is ``kind``
    drawn: str = ""


class Played(msgspec.Struct):
    """What a step did: what had to happen to it in the state it was played in (``accepted``;
    ``refused`` by the rules or as bad input; ``input``: refused as bad input; ``either``),
    accepted or refused (the error line), the seqs it appended, its rolls."""

    step: Step
    accepted: bool
    expect: str = ""
    error: str = ""
    first: int = 0
    last: int = 0
    dice: list[tuple[int, list[int]]] = []


class WatchedVault:
    """A memory vault that remembers the seqs of the snapshots written to it (to check each)."""

    def __init__(self, inner: MemoryVault) -> None:
        self.inner = inner
        self.written: list[int] = []

    def available(self) -> bool:
        return True

    def put_key(self, commitment: str, seed: bytes, game: str) -> None:
        self.inner.put_key(commitment, seed, game)

    def key(self, commitment: str) -> bytes | None:
        return self.inner.key(commitment)

    def put_openings(self, openings: Sequence[Opening]) -> None:
        self.inner.put_openings(openings)

    def discard(self, commitment: str | None, hashes: Sequence[str]) -> None:
        self.inner.discard(commitment, hashes)

    def opening(self, hash_: str) -> Opening | None:
        return self.inner.opening(hash_)

    def clears(self, hashes: Sequence[str]) -> dict[str, str]:
        return self.inner.clears(hashes)

    def clears_between(self, game: str, lo: int, hi: int) -> dict[str, str]:
        return self.inner.clears_between(game, lo, hi)

    def openings(self, hashes: Sequence[str]) -> dict[str, Opening]:
        return self.inner.openings(hashes)

    def put_snapshot(self, owner: str, seq: int, version: str, state: bytes) -> None:
        self.written.append(seq)
        self.inner.put_snapshot(owner, seq, version, state)

    def latest_snapshot(
        self, segments: Sequence[Segment], seq: int, version: str
    ) -> tuple[int, bytes] | None:
        return self.inner.latest_snapshot(segments, seq, version)

    def put_tokens(self, tokens: Sequence[SeatToken]) -> None:
        self.inner.put_tokens(tokens)

    def token(self, id_: str) -> SeatToken | None:
        return self.inner.token(id_)


class RecordingDice:
    """Dice that keep the faces they give (``rolled``: ``(sides, faces)`` in order)."""

    def __init__(self, dice: Dice, rolled: list[tuple[int, list[int]]]) -> None:
        self._dice = dice
        self._rolled = rolled

    def faces(self, offset: int, count: int, sides: int) -> list[int]:
        faces = self._dice.faces(offset, count, sides)
        self._rolled.append((sides, list(faces)))
        return faces


def crash_text(exc: BaseException) -> str:
    """An unexpected exception in one line: its type, message and where it was raised."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno} in {frames[-1].name}"
    return f"{type(exc).__name__}: {exc}{where if frames else ''}"


def forked(sources: Sources, source: Source, at: int, key: bytes) -> Start:
    """Starts a fork of ``source`` after event ``at`` with new dice whose key is ``key``. Where
    the source reveals the seed in force at ``at``, the fork first keeps it (a same-dice fork
    shows the seed, so the log proves the rolls before the cut) and then commits to ``key``."""
    keep, fork = sources.free_id("fuzz-keep"), sources.free_id("fuzz")

    def start(dice_filter: Callable[[Dice], Dice] | None) -> tuple[Arbiter, str]:
        arb = _arbiter(sources, source, key, dice_filter)
        parent, cut = source.game, at
        if at in source.public:
            parent, cut = arb.fork(parent, at, new_game=keep, dice="same"), at + 1
        return arb, arb.fork(parent, cut, new_game=fork, dice="new")

    return start


def at_head(sources: Sources, source: Source) -> Start:
    """Starts ``source`` itself, played on from its last event (its key must be in the vault)."""

    def start(dice_filter: Callable[[Dice], Dice] | None) -> tuple[Arbiter, str]:
        return _arbiter(sources, source, b"", dice_filter), source.game

    return start


def _arbiter(
    sources: Sources, source: Source, key: bytes, dice_filter: Callable[[Dice], Dice] | None
) -> Arbiter:
    return Arbiter(
        sources.store.copy(),
        sources.arbiter.rulesets,
        vault=WatchedVault(sources.vault.copy()),
        clock=lambda: source.last_at,
        seeds=lambda: key,
        snapshot_every=SNAPSHOT_EVERY,
        dice_filter=dice_filter,
    )


class Example:
    """A game driven step by step; ``run`` raises ``Failure`` when a check fails."""

    def __init__(self, start: Start, tally: Tally, *, twins: bool = True) -> None:
        self._start = start
        self.tally = tally
        #: the rolls of the step being played, as the rules asked for them: ``(sides, faces)``
        self.rolled: list[tuple[int, list[int]]] = []
        self.arb, self.game = start(self._recording)
        self.ruleset = self.arb.ruleset_of(self.game)
        self.codec = self.arb.codec(self.ruleset)
        vault = self.arb.vault
        self.vault = vault if isinstance(vault, WatchedVault) else None
        self.seats = list(self.arb.folded(self.game).meta.players)
        self.played: list[Played] = []
        #: the step being played (None between steps) and what had to happen to it
        self.current: Step | None = None
        self.current_expect = ""
        self.auditor = self._auditor()
        self.checked_snapshots = 0
        self._twins_on = twins
        self.twins: dict[str, tuple[Twin, Arbiter, str]] = {}
        self.ended: set[str] = set()
        #: the players the game waits for now, each with its legal commands
        self.legal: dict[str, list[Any]] = {}
        #: what the players the game waits for now may answer (None: the game is over)
        self.answers: frozenset[str] | None = None
        self._legal_keys: set[str] | None = None
        self._settled(self.arb.folded(self.game).state, since=0)

    # ------------------------------------------------------------------ the start

    def _recording(self, dice: Dice) -> Dice:
        return RecordingDice(dice, self.rolled)

    def _auditor(self) -> Auditor:
        """An auditor resumed at the head, from the state replayed from the log (the newest
        snapshot, decoded apart from the arbiter's, and the tail), never the live state."""
        arb, game = self.arb, self.game
        head, _ = arb.head(game)
        start = arb.snapshot(game, head)
        rows = arb.store.read_rows(game, start.seq + 1 if start else 1, head)
        folded = Fold(self.ruleset, start).rows(rows, arb.decoder(self.codec, game)).folded
        # states share what one event did not change (a decoded snapshot, too, shares what is
        # unchanged since the game began): the auditor's must be a copy of its own, or an evolve
        # that mutates in place would change the arbiter's state and this one alike, and the
        # purity check be blind to it
        whole = msgspec.msgpack.encode(folded.state)
        folded.state = msgspec.msgpack.decode(whole, type=self.ruleset.state_type)
        at = next(iter(arb.records(game, head, head))).at
        return Auditor.resume(arb.rulesets, self.ruleset, self.codec, folded, at)

    # ------------------------------------------------------------------ a step

    def run(self, step: Step) -> Played:
        """Play ``step`` and check everything; what it did. Failure if a check fails."""
        arb, game = self.arb, self.game
        before = arb.folded(game)
        replayed_before = self.auditor.state
        index = len(self.played)
        self.current = step
        self.current_expect = expect = self.expectation(step)
        tally = self.tally
        kind = command_type(step.text)
        self.rolled.clear()
        error: WarlogError | None = None
        records: list[Record] = []
        try:
            records = arb.play(game, step.text)
        except WarlogError as exc:
            error = exc
        except Exception as exc:
            tally.count(step, expect, "crashed", kind)
            raise Failure("crash", f"{crash_text(exc)} on {short(step.text)}") from None
        # counted as it happened, before any check: the parts sum to the steps tried, and the
        # coverage holds what a step appended even when a check then fails on it
        tally.count(step, expect, "refused" if error else "accepted", kind)
        events = self._reached(records) if error is None else []
        head, _ = arb.head(game)
        problem = outcome_problem(expect, error, head != before.seq, kind)
        if problem is not None:
            raise Failure("outcome", f"{problem}; the {step.kind} command {short(step.text)}")
        if before.state != replayed_before:
            raise Failure(
                "purity",
                "the state the command was decided on changed under it: "
                + state_difference(before.state, replayed_before),
            )
        played = Played(
            step,
            accepted=error is None,
            expect=expect,
            error=error.line() if error else "",
            dice=[(sides, list(faces)) for sides, faces in self.rolled],
        )
        if error is None:
            self._check_batch(before, records, played)
        if self._twins_on:
            self._follow(step, played, events, index)
        self.played.append(played)
        self.current = None
        return played

    def expectation(self, step: Step) -> str:
        """What must happen to ``step`` if it is played now (``checks.expectation``)."""
        return expectation(
            step.kind,
            step.text,
            self._keys,
            self.legal,
            self.answers,
            self.ruleset.complete_legal,
            self._key,
        )

    def _key(self, command: dict[str, Any]) -> str:
        """``command``'s key as the rules decode it (a field given its default is the same
        command as one leaving it out), or as given where they cannot decode it."""
        try:
            decoded = msgspec.convert(command, self.ruleset.command_type)
        except msgspec.ValidationError:
            return command_key(command)
        return command_key(decoded)

    def _keys(self) -> set[str]:
        if self._legal_keys is None:
            self._legal_keys = {command_key(c) for cs in self.legal.values() for c in cs}
        return self._legal_keys

    def _reached(self, records: list[Record]) -> list[Event]:
        """The events ``records`` hold, counted in the coverage."""
        decode = self.arb.decoder(self.codec, self.game)
        events = decode([(r.seq, r.type, r.data, r.hash) for r in records])
        reached = self.tally.reached
        for event in events:
            name = event.type_name()
            reached[name] = reached.get(name, 0) + 1
        return events

    def _check_batch(self, before: Folded, records: list[Record], played: Played) -> None:
        arb, game = self.arb, self.game
        played.first, played.last = records[0].seq, records[-1].seq
        self._audit(records, before)
        replayed = self.auditor.state
        live = arb.folded(game)
        self.tally.replays_compared += 1
        if live.state != replayed:
            raise Failure(
                "replay",
                "the live state is not the state replayed from the log: "
                + state_difference(live.state, replayed),
            )
        self._check_snapshots(live.seq, replayed)
        self._settled(live.state)

    def _audit(self, records: list[Record], before: Folded) -> None:
        found = len(self.auditor.findings)
        forms = Forms(self.arb.vault, self.codec, REFEREE, (), before.meta).forms(records)
        rederived = self.auditor.proved.batches_rederived
        self.auditor.take(forms)
        self.tally.rederived += self.auditor.proved.batches_rederived - rederived
        if len(self.auditor.findings) > found:
            finding = self.auditor.findings[found]
            raise Failure("audit", finding.line(), since=self._step_of(finding.seq))
        if self.auditor.state is None:
            proved = self.auditor.proved
            raise Failure(
                "audit",
                f"the rules could not follow the log from seq {proved.rules_stopped_at}: "
                f"{proved.rules_stopped_why}",
            )

    def _check_snapshots(self, head: int, replayed: Any) -> None:
        if self.vault is None or not self.vault.written:
            return
        written, self.vault.written = self.vault.written, []
        for seq in written:
            if seq != head:
                continue
            snap = self.arb.snapshot(self.game, head)
            self.tally.snapshots_checked += 1
            if snap is None or snap.seq != head:
                raise Failure("snapshot", f"the snapshot written at seq {head} cannot be read")
            if snap.state != replayed:
                raise Failure(
                    "snapshot",
                    f"the snapshot at seq {head} is not the replayed state: "
                    + state_difference(snap.state, replayed),
                )

    def _settled(self, state: Any, since: int | None = None) -> None:
        """The checks of a state at rest: the ruleset's invariants, and no dead end."""
        ruleset = self.ruleset
        try:
            broken = ruleset.invariants(state)
            decision = ruleset.decision(state)
            legal = {
                p: list(ruleset.legal_commands(state, p)) for p in ruleset.active_players(state)
            }
        except Exception as exc:
            raise Failure("crash", crash_text(exc), since) from None
        self.tally.invariant_checks += 1
        problem = invariants_problem(broken)
        if problem is not None:
            raise Failure("invariants", problem, since)
        problem = dead_end(ruleset, state, legal)
        if problem is not None:
            raise Failure("dead_end", problem, since)
        self.legal = legal
        self.answers = frozenset(decision.answers) if decision is not None else None
        self._legal_keys = None

    def _step_of(self, seq: int) -> int | None:
        for i, played in enumerate(self.played):
            if played.first <= seq <= played.last:
                return i
        return None

    # ------------------------------------------------------------------ twins

    def _follow(self, step: Step, played: Played, events: list[Event], index: int) -> None:
        """Play the step in each twin and compare; start a twin for each player another's
        hidden draw was made against in this step."""
        for twin, arb, game in list(self.twins.values()):
            self._twin_step(twin, arb, game, step, played, events)
        if not played.accepted:
            return
        for watcher in self.seats:
            if watcher in self.twins or watcher in self.ended:
                continue
            if other_draws(events[1:], watcher):
                twin = Twin(watcher, since=index)
                arb, game = self._start(twin.dice)
                for earlier in self.played:
                    if earlier.accepted:
                        _replayed(arb, game, earlier.step.text, "a twin game", twin.since)
                self.twins[watcher] = (twin, arb, game)
                self._twin_step(twin, arb, game, step, played, events)

    def _twin_step(
        self, twin: Twin, arb: Arbiter, game: str, step: Step, played: Played, events: list[Event]
    ) -> None:
        watcher = twin.watcher
        twin.real = events[1:]
        first, _ = arb.head(game)
        where = f"in a twin game where the others' draws differ for {watcher}"
        error = _played_elsewhere(arb, game, step.text, where, twin.since)
        if (error is None) != played.accepted:
            del self.twins[watcher]  # the command depended on a hidden value: it is told now
            self.ended.add(watcher)
            self.tally.twins_ended += 1
            return
        self.tally.twin_steps += 1
        after = played.first or self.arb.head(self.game)[0] + 1
        # what the real game offers a watcher it waits for is known already (``legal``, from
        # the settled state)
        mine = self.legal.get(watcher)
        real = self._observed(self.arb, self.game, watcher, after, mine)
        other = self._observed(arb, game, watcher, first + 1)
        if (
            error is not None and command_issuer(step.text) == watcher
        ):  # a refusal only its issuer sees
            real["refusal"], other["refusal"] = played.error, error.line()
        if real["view"] == other["view"]:  # views carry no commitment: compared as they are
            real["view"] = other["view"] = None
        if blinded(real) != blinded(other):  # dicts equal in another order differ too
            self._control(watcher, step, played, real)
            diff = first_difference(json.loads(blinded(real)), json.loads(blinded(other)))
            raise Failure(
                "views",
                f"{watcher} is given something else when the others' hidden draws differ: {diff}",
                twin.since,
            )

    def _control(self, watcher: str, step: Step, played: Played, real: dict[str, Any]) -> None:
        """Before a difference is blamed on the others' draws: the example played again in a
        game of its own on the same dice. If ``watcher`` is given something else there too, the
        rules are not deterministic (they hang on something besides the commands and dice,
        e.g. a set's order or a random module): an ``audit`` failure, not a leak."""
        arb, game = self._start(None)
        for earlier in self.played:
            if earlier.accepted:
                _replayed(arb, game, earlier.step.text, "the game played again", 0)
        first, _ = arb.head(game)
        error = _played_elsewhere(
            arb, game, step.text, "playing the example again on the same dice", 0
        )
        same = self._observed(arb, game, watcher, first + 1, self.legal.get(watcher))
        if error is not None and command_issuer(step.text) == watcher:
            same["refusal"] = error.line()
        if real["view"] is None:
            same["view"] = None
        if (error is None) != played.accepted or blinded(same) != blinded(real):
            diff = first_difference(json.loads(blinded(real)), json.loads(blinded(same)))
            raise Failure(
                "audit",
                f"the rules are not deterministic: played again on the same dice, {watcher} is "
                f"given something else: {diff}",
                0,
            )

    def _posted(self, arb: Arbiter, game: str, watcher: str, since: int) -> list[str]:
        """The Events-view entries posted to ``watcher`` by the events from ``since`` on."""
        view = EventsView.after(self.ruleset, arb.state(game, since - 1), self.seats)
        return [e.text for e in view.feed(arb.events(game, since)).tabs(watcher, True)[watcher]]

    def _observed(
        self,
        arb: Arbiter,
        game: str,
        watcher: str,
        from_seq: int,
        legal: list[Any] | None = None,
    ) -> dict[str, Any]:
        try:
            return step_observed(
                arb,
                game,
                watcher,
                from_seq,
                None if legal is None else [command_to_builtins(c) for c in legal],
            )
        except Exception as exc:
            raise Failure("crash", f"reading what {watcher} is given: {crash_text(exc)}") from None

    # ------------------------------------------------------------------ the end

    def finish(self) -> None:
        """The checks of the example's end: every reader's view and summary render, the Events
        view of each twin, the state from the newest snapshot and its tail, and the audit of the
        dice and seals once the example's key is revealed."""
        arb, game = self.arb, self.game
        end = len(self.played)
        self.tally.finished += 1
        for reader in (None, *self.seats):
            try:
                arb.summary(game, None, reader)
            except Exception as exc:
                raise Failure(
                    "views", f"the view as {reader or 'the referee'}: {crash_text(exc)}", end
                ) from None
        for watcher, (twin, tarb, tgame) in self.twins.items():
            since = self.played[twin.since].first
            real, other = (
                self._posted(a, g, watcher, since) for a, g in ((arb, game), (tarb, tgame))
            )
            if real != other:
                raise Failure(
                    "views",
                    f"{watcher}'s Events view differs when the others' hidden draws differ: "
                    + (first_difference(real, other) or ""),
                    twin.since,
                )
        live = arb.folded(game)
        fresh = Arbiter(arb.store, arb.rulesets, vault=arb.vault).folded(game)
        self.tally.snapshots_checked += 1
        if fresh.state != live.state:
            raise Failure(
                "snapshot",
                "the state from the newest snapshot and its tail is not the live state: "
                + state_difference(fresh.state, live.state),
                0,
            )
        found = len(self.auditor.findings)
        verified = self.auditor.proved.dice_verified
        arb.reveal(game, despite_live_forks=True)  # the fuzz's own copy, handed to nobody
        head, _ = arb.head(game)
        self.auditor.take(
            Forms(arb.vault, self.codec, REFEREE, (), live.meta).forms(
                arb.records(game, head, head)
            )
        )
        self.auditor.finish()
        self.tally.dice_verified += self.auditor.proved.dice_verified - verified
        if len(self.auditor.findings) > found:
            finding = self.auditor.findings[found]
            raise Failure("audit", finding.line(), self._step_of(finding.seq) or 0)


def _replayed(arb: Arbiter, game: str, text: str, where: str, since: int) -> None:
    """An accepted step of the example played again in another game of it (a twin, a
    control); Failure ``crash`` (from step ``since``) if it raises anything."""
    try:
        arb.play(game, text)
    except Exception as exc:
        raise Failure(
            "crash", f"replaying the example in {where}: {crash_text(exc)}", since
        ) from None


def _played_elsewhere(
    arb: Arbiter, game: str, text: str, where: str, since: int
) -> WarlogError | None:
    """``text`` played in another game of the example (a twin, a control): the refusal, or
    None once accepted; Failure ``crash`` (``where``, from step ``since``) for anything but
    warlog's own errors."""
    try:
        arb.play(game, text)
    except WarlogError as exc:
        return exc
    except Exception as exc:
        raise Failure("crash", f"{where}: {crash_text(exc)}", since) from None
    return None
