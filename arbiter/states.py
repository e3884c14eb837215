"""A game's state as an arbiter reads it: the latest snapshot and the tail folded, the folds held.

``States`` is the Arbiter's cache of what it has read of each game: the ruleset and codec it is
played under, the fold at the head and the one before the last batch appended (a read of that
batch starts there), and the snapshots in the vault, every K events and at round starts, that any
other read starts from. Every one of them is a cache: the state is always the fold of the log.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import msgspec

from warlog.arbiter import snapshots
from warlog.arbiter.fold import Fold, Folded, Row, RowDecoder, unread
from warlog.arbiter.initial import built, initial_state
from warlog.arbiter.meta import evolve_meta, played_under
from warlog.arbiter.sealing import Opener
from warlog.domain.core.errors import InputError, StoreError, WarlogError
from warlog.domain.core.events import Event, GameCreated
from warlog.domain.core.ruleset import AnyRuleset
from warlog.eventstore.codec import Codec
from warlog.eventstore.lineage import missing_event
from warlog.eventstore.records import GameInfo, Record
from warlog.eventstore.store import Store
from warlog.eventstore.vault import Vault

#: snapshots every K events (and at round starts): the state at any seq costs O(K)
SNAPSHOT_EVERY = 256


class Loaded(msgspec.Struct):
    """A game's ruleset, codec and catalogue row."""

    info: GameInfo
    ruleset: AnyRuleset
    codec: Codec


def version_key(ruleset: AnyRuleset) -> str:
    """The name snapshots are kept under: a state is read only by the rules that folded it."""
    return f"{ruleset.name}@{ruleset.version}"


class States:
    """The games an arbiter has read on ``store`` and ``vault``: loaded, folded, snapshotted."""

    def __init__(
        self,
        store: Store,
        vault: Vault,
        rulesets: Callable[[str], AnyRuleset],
        snapshot_every: int = SNAPSHOT_EVERY,
    ) -> None:
        self.store = store
        self.vault = vault
        self._rulesets = rulesets
        self._snapshot_every = snapshot_every
        self._loaded: dict[str, Loaded] = {}
        self._live: dict[str, Folded] = {}
        #: the fold before the last batch this arbiter appended (reads of that batch start there)
        self._previous: dict[str, Folded] = {}
        self._codecs: dict[str, Codec] = {}

    # ------------------------------------------------------------------ loading

    def codec(self, ruleset: AnyRuleset) -> Codec:
        key = version_key(ruleset)
        if key not in self._codecs:
            self._codecs[key] = Codec.for_ruleset(ruleset)
        return self._codecs[key]

    def loaded(self, game: str) -> Loaded:
        """The game's ruleset and codec; UnknownGame if there is no such game."""
        found = self._loaded.get(game)
        if found is None:
            info = self.store.info(game)
            created = self.record_at(game, 1)
            ruleset = played_under(self._rulesets(info.ruleset), created.data)
            found = Loaded(info, ruleset, self.codec(ruleset))
            self._loaded[game] = found
        return found

    def record_at(self, game: str, seq: int) -> Record:
        """The record at ``seq`` (which the caller knows is 1..head); StoreError when the log
        has no row there (a damaged database: a row deleted)."""
        found = next(iter(self.store.read(game, seq, seq)), None)
        if found is None:
            raise missing_event(game, seq)
        return found

    def decoder(self, codec: Codec, game: str) -> RowDecoder:
        """Decodes stored ``(seq, type, data, hash)`` rows into clear events (sealed values
        opened from the vault, one lookup for the rows given at once)."""
        opener = Opener(self.vault, game, self.store.lineage(game) if game else ())
        decode = codec.decode_all

        def events(rows: Sequence[Row]) -> list[Event]:
            types, seqs = [row[1] for row in rows], [row[0] for row in rows]
            return decode(types, opener.clears(rows), seqs, game)

        return events

    # ------------------------------------------------------------------ folding

    def fold_records(self, ruleset: AnyRuleset, records: Iterable[Record]) -> Folded:
        """The game folded from its records, from the first (``game_created``) on."""
        rows = ((r.seq, r.type, r.data, r.hash) for r in records)
        return Fold(ruleset).rows(rows, self.decoder(self.codec(ruleset), "")).folded

    def folded(self, game: str, at: int | None = None) -> Folded:
        """The game folded after event ``at`` (the head if None): latest snapshot + tail, O(K)."""
        loaded = self.loaded(game)
        head, head_hash = self.store.head(game)
        if at is None:
            at = head
        if not 1 <= at <= head:
            raise no_event(game, head, at)
        cached = self._held(game, at, head, head_hash)
        if cached is not None and cached.seq == at:
            return cached
        newer = self._snapshot(game, loaded.ruleset, at, newer_than=cached.seq if cached else 0)
        start = newer or cached or self.created(game)
        from_seq = start.seq + 1 if start else 1
        # the read names the first row missing from the tail (store/corrupt), skipped or not
        rows = self.store.read_rows(game, from_seq, at, skip=unread(loaded.ruleset))
        result = Fold(loaded.ruleset, start).rows(rows, self.decoder(loaded.codec, game)).folded
        if at == head:
            self._live[game] = result
        return result

    def _held(self, game: str, at: int, head: int, head_hash: str) -> Folded | None:
        """The newest fold this arbiter holds of ``game`` at or before event ``at``, if the log
        still holds that event with its hash. A backup restored and played on elsewhere puts
        other events under a running arbiter: then no fold it holds is the log's, and it drops
        them all (the read folds from a snapshot the log still holds, or from the start)."""
        held = [f for f in (self._live.get(game), self._previous.get(game)) if f is not None]
        newest = max((f for f in held if f.seq <= at), key=lambda f: f.seq, default=None)
        if newest is None:
            return None
        if newest.seq == head:
            logged = head_hash
        else:  # one row: the head's hash is at hand, an earlier one is read
            row = next(iter(self.store.read_rows(game, newest.seq, newest.seq)), None)
            logged = row[3] if row is not None else ""
        if logged == newest.hash:
            return newest
        self._live.pop(game, None)
        self._previous.pop(game, None)
        return None

    def fold_log(self, game: str) -> Folded:
        """The game folded afresh from its whole log (no snapshot, no cached state): a replay.
        The SELECT leaves out the rows the fold skips."""
        loaded = self.loaded(game)
        rows = self.store.read_rows(game, skip=unread(loaded.ruleset))
        return Fold(loaded.ruleset).rows(rows, self.decoder(loaded.codec, game)).folded

    def hold(self, game: str, folded: Folded) -> None:
        """Hold ``folded`` as the game's head (a fork's first event, folded by its creator)."""
        self._live[game] = folded

    def appended(
        self, game: str, ruleset: AnyRuleset, before: Folded, events: Sequence[Event], after: Folded
    ) -> None:
        """Hold ``after``, the fold of the batch of ``events`` just appended on ``before``, as
        the game's head and ``before`` for the reads of that batch; keep a snapshot when one
        falls due (every K events, or a round starts in the batch)."""
        self._previous[game] = before
        self._live[game] = after
        k = self._snapshot_every
        crosses = after.seq // k > before.seq // k
        if crosses or any(ruleset.is_round_start(e) for e in events):
            # a cache: the committed batch stands without it
            with contextlib.suppress(StoreError):
                self.keep_snapshot(game, after)

    # ------------------------------------------------------------------ snapshots

    def _snapshot(
        self, game: str, ruleset: AnyRuleset, at: int, newer_than: int = 0
    ) -> Folded | None:
        """The newest usable snapshot at or before ``at`` (and after ``newer_than``): its MAC
        checks (the vault) and the log still holds its event with its hash; anything else is
        folded from the log."""
        try:
            found = self.vault.latest_snapshot(self.store.lineage(game), at, version_key(ruleset))
        except StoreError:
            return None  # a cache: without the key file, fold from the log
        if found is None or found[0] <= newer_than:
            return None
        return self._usable(game, ruleset, found)

    def _usable(self, game: str, ruleset: AnyRuleset, found: tuple[int, bytes]) -> Folded | None:
        """The snapshot ``(seq, blob)`` decoded, if it decodes and the log still holds its event
        with its hash (a read folds from the log otherwise)."""
        start = snapshots.decode(ruleset.state_type, found[1], lambda: self.initial(game))
        if start is None or start.seq != found[0]:
            return None
        logged = next(iter(self.store.read_rows(game, start.seq, start.seq)), None)
        return start if logged is not None and logged[3] == start.hash else None

    def snapshot(self, game: str, at: int) -> Folded | None:
        """The newest usable snapshot of the game at or before event ``at``, decoded (None when
        there is none): what ``folded`` starts from before folding the tail."""
        return self._snapshot(game, self.loaded(game).ruleset, at)

    def keep_snapshot(self, game: str, folded: Folded) -> None:
        """Keep ``folded`` (the game folded after one of its events, from the log) as a snapshot,
        under the game that stores that event."""
        from warlog.eventstore.lineage import owner_of

        ruleset = self.loaded(game).ruleset
        owner = owner_of(self.store.lineage(game), folded.seq)
        if folded.initial is None:
            folded.initial = self.initial(game)
        self.vault.put_snapshot(owner, folded.seq, version_key(ruleset), snapshots.encode(folded))

    def initial(self, game: str) -> Any:
        """The state the game's ``game_created`` begins it with; None if it cannot be read
        here. Built once per process and shared; a process that has not built it yet (each
        ``warlog`` command) reads it from the snapshot at seq 1 (``created``)."""
        loaded = self.loaded(game)
        try:
            row = next(iter(self.store.read_rows(game, 1, 1)))
            state = built(loaded.ruleset, row[2])
            if state is not None:
                return state
            created = self.created(game, row)
            return None if created is None else created.state
        except WarlogError:
            return None

    def created(self, game: str, row: Row | None = None) -> Folded | None:
        """The game folded after its first event (``game_created``, stored as ``row`` when the
        caller has read it): from the whole snapshot at seq 1, which decodes far faster than
        the scenario builds (for Armageddon Empires, parsing every card's abilities: most of a
        ``warlog play`` on a young game), else built and that snapshot written for the next
        process. None if it cannot be read here."""
        loaded = self.loaded(game)
        ruleset = loaded.ruleset
        try:
            if row is None:
                row = next(iter(self.store.read_rows(game, 1, 1)))
            version = version_key(ruleset)
            lineage = self.store.lineage(game)
            found = None
            with contextlib.suppress(StoreError):  # without the key file, build it
                found = self.vault.latest_snapshot(lineage, 1, version)
            if found is not None and found[0] == 1:
                start = snapshots.decode(ruleset.state_type, found[1], lambda: None)
                if start is not None and start.seq == 1 and start.hash == row[3]:
                    start.initial = start.state
                    return start
            (created,) = self.decoder(loaded.codec, game)([row])
            if not isinstance(created, GameCreated):
                return None
            state = initial_state(ruleset, row[2], created)
            meta = evolve_meta(None, 1, created)
            assert meta is not None
            with contextlib.suppress(StoreError):  # a cache
                from warlog.eventstore.lineage import owner_of

                # whole (no initial state to leave fields out against): it is that state
                blob = snapshots.encode(Folded(1, row[3], meta, state))
                self.vault.put_snapshot(owner_of(lineage, 1), 1, version, blob)
            return Folded(1, row[3], meta, state, state)
        except WarlogError:
            return None

    def check_snapshots(self, game: str) -> tuple[int, list[int]]:
        """Compare every usable snapshot of the game (its MAC checks, its event is in the log
        with its hash: what a read may start from), each one whatever the newer ones are, with
        the game folded from the log at its seq, state and meta (what is revealed included):
        how many were compared, and the seqs of those that differ. One fold of the log."""
        loaded = self.loaded(game)
        ruleset = loaded.ruleset
        lineage, version = self.store.lineage(game), version_key(ruleset)
        found: list[Folded] = []
        at, _ = self.store.head(game)
        while at >= 1:
            raw = self.vault.latest_snapshot(lineage, at, version)
            if raw is None:
                break
            usable = self._usable(game, ruleset, raw)
            if usable is not None:
                found.append(usable)
            at = raw[0] - 1
        fold = Fold(ruleset)
        decode = self.decoder(loaded.codec, game)
        skip = unread(ruleset)
        differing = []
        encode = msgspec.msgpack.encode
        for snapshot in reversed(found):
            rows = self.store.read_rows(game, fold.seq + 1, snapshot.seq, skip=skip)
            fold.rows(rows, decode)
            logged = (fold.hash, encode(fold.meta), encode(fold.state))
            if logged != (snapshot.hash, encode(snapshot.meta), encode(snapshot.state)):
                differing.append(snapshot.seq)
        return len(found), differing


def no_event(game: str, head: int, seq: int) -> InputError:
    """The error of a read asked for event ``seq`` of a game whose events are 1..``head``: the
    one line every front end gives (``input/bad_seq``, exit 1, HTTP 400)."""
    return InputError(f"game {game} has events 1..{head}; there is no event {seq}", "input/bad_seq")
