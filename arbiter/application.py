"""The rule-agnostic application: load a game's state, decide a command, append its batch.

Everything a CLI or server does goes through an ``Arbiter``: it is handed a store (the log), a
vault (keys, the clear form of sealed values, snapshots) and a way to find rulesets by name, and
it never imports a ruleset itself.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

import msgspec

from warlog.arbiter import snapshots
from warlog.arbiter.fold import Fold, Folded, Row, RowDecoder, decoded, unread
from warlog.arbiter.ids import check_game_id
from warlog.arbiter.initial import built, initial_state, share
from warlog.arbiter.meta import GameMeta, evolve_meta, played_under
from warlog.arbiter.scenarios import resolve_scenario
from warlog.arbiter.sealing import (
    PUBLIC,
    REFEREE,
    DamagedLineage,
    Forms,
    Opened,
    Opener,
    event_secrets,
    recorded_command,
    seal_batch,
    sealing_version,
)
from warlog.domain.core.dice import Dice, DiceSpec, ManualDice, SeededDice, commitment_of
from warlog.domain.core.errors import (
    ConflictError,
    InputError,
    RulesError,
    StoreError,
    WarlogError,
    quoted,
)
from warlog.domain.core.events import (
    BATCH_STARTS,
    CORE_TAGS,
    INERT_TAGS,
    CommandIssued,
    DiceRevealed,
    Event,
    GameCreated,
    GameForked,
)
from warlog.domain.core.rules import unknown_command
from warlog.domain.core.ruleset import AnyRuleset, Command
from warlog.domain.core.seal import Sealer, Secret
from warlog.domain.core.summary import listed
from warlog.eventstore.codec import Codec, command_to_builtins, decode_command
from warlog.eventstore.records import GameInfo, Record
from warlog.eventstore.store import Store
from warlog.eventstore.vault import MemoryVault, Vault

if TYPE_CHECKING:  # imported where they are used: a command pays only for what it runs
    from warlog.arbiter.audit import Auditor
    from warlog.domain.core.summary import Summary
    from warlog.projections.events_view import EventsView

#: the errors of a read that needs the key file's clear values, which the store cannot give
NO_CLEAR_FORMS = frozenset({"store/no_key_file", "store/sealed"})

T = TypeVar("T")

#: how often long reads report their progress, in events
PROGRESS_EVERY = 5000
#: snapshots every K events (and at round starts): the state at any seq costs O(K)
SNAPSHOT_EVERY = 256


def utc_now() -> str:
    """UTC ISO-8601 with milliseconds, ending in ``Z`` (the contract's ``at``)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


#: the refusal of a reveal that would tell the secrets of games still being played (its forks,
#: its parent: ``Arbiter.live_relatives``) before the organiser says so
LIVE_FORKS = "input/live_forks"


#: the longest salt a game takes: a public beacon's value or a tournament's name fits many times
SALT_MAX = 256


def check_salt(salt: str) -> str:
    """``salt`` if a game may take it (at most ``SALT_MAX`` printable characters: it is hashed
    into every die and kept in ``game_created`` for good); InputError naming the first
    character that is not printable (a space other than the plain one, pasted from a web page,
    looks like one), or UnicodeEncodeError for text that is not UTF-8 (a lone surrogate), which
    the CLI names."""
    salt.encode()
    if len(salt) > SALT_MAX:
        raise InputError(
            f"bad salt {quoted(salt)} ({len(salt)} characters): use at most {SALT_MAX}",
            "input/bad_salt",
        )
    bad = next((i for i, c in enumerate(salt) if not c.isprintable()), None)
    if bad is not None:
        raise InputError(
            f"bad salt: its character {bad + 1}, U+{ord(salt[bad]):04X}, is not printable (a "
            "line break, a tab, a space other than the plain one); use printable characters",
            "input/bad_salt",
        )
    return salt


class Revealed(msgspec.Struct, frozen=True):
    """A reveal: the seq of its ``dice_revealed`` event and the seed it published (hex)."""

    seq: int
    seed: str


class Loaded(msgspec.Struct):
    """A game's ruleset, codec and catalogue row."""

    info: GameInfo
    ruleset: AnyRuleset
    codec: Codec


class Arbiter:
    """Creates, plays, forks and reveals games on a store, for rulesets found by name."""

    def __init__(
        self,
        store: Store,
        rulesets: Callable[[str], AnyRuleset],
        *,
        vault: Vault | None = None,
        clock: Callable[[], str] = utc_now,
        seeds: Callable[[], bytes] = lambda: os.urandom(32),
        snapshot_every: int = SNAPSHOT_EVERY,
        dice_filter: Callable[[Dice], Dice] | None = None,
    ) -> None:
        """``dice_filter`` wraps the dice handed to the rules for each command (``warlog
        fuzz``'s non-interference twin changes the faces of the other side's hidden draws with
        it); the dice pass unchanged without one."""
        self.store = store
        self.vault: Vault = vault if vault is not None else MemoryVault()
        self._rulesets = rulesets
        self._clock = clock
        self._seeds = seeds
        self._snapshot_every = snapshot_every
        self._dice_filter = dice_filter
        self._loaded: dict[str, Loaded] = {}
        self._live: dict[str, Folded] = {}
        #: the fold before the last batch this arbiter appended (reads of that batch start there)
        self._previous: dict[str, Folded] = {}
        self._codecs: dict[str, Codec] = {}
        self._listeners: list[Callable[[str, list[Record]], None]] = []

    def close(self) -> None:
        """Close the store and the vault (their files, for SQLite)."""
        for part in (self.store, self.vault):
            closer = getattr(part, "close", None)
            if closer is not None:
                closer()

    def __enter__(self) -> Arbiter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def watch(self, listener: Callable[[str, list[Record]], None]) -> None:
        """Tell ``listener(game, records)`` of every batch this arbiter appends to a game's log
        (a command's, a reveal's), right after it is committed, in the thread that appended it:
        what a live feed needs to push new events without polling the store. A listener must
        not raise (what it raises is dropped: the batch stands, and so does its verdict)."""
        self._listeners.append(listener)

    @property
    def rulesets(self) -> Callable[[str], AnyRuleset]:
        """How this arbiter finds a ruleset by name."""
        return self._rulesets

    # ------------------------------------------------------------------ loading

    def codec(self, ruleset: AnyRuleset) -> Codec:
        key = f"{ruleset.name}@{ruleset.version}"
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
            raise StoreError(
                f"game {game} has no event {seq} (the log has a gap): the database is damaged",
                "store/corrupt",
            )
        return found

    def ruleset_of(self, game: str) -> AnyRuleset:
        return self.loaded(game).ruleset

    def decoder(self, codec: Codec, game: str) -> RowDecoder:
        """Decodes stored ``(seq, type, data, hash)`` rows into clear events (sealed values
        opened from the vault, one lookup for the rows given at once)."""
        opener = Opener(self.vault, game, self.store.lineage(game) if game else ())
        decode = codec.decode_all

        def events(rows: Sequence[Row]) -> list[Event]:
            types, seqs = [row[1] for row in rows], [row[0] for row in rows]
            return decode(types, opener.clears(rows), seqs, game)

        return events

    def fold_records(self, ruleset: AnyRuleset, records: Iterable[Record]) -> Folded:
        """The game folded from its records, from the first (``game_created``) on."""
        rows = ((r.seq, r.type, r.data, r.hash) for r in records)
        return Fold(ruleset).rows(rows, self.decoder(self.codec(ruleset), "")).folded

    def _version_key(self, ruleset: AnyRuleset) -> str:
        return f"{ruleset.name}@{ruleset.version}"

    def folded(self, game: str, at: int | None = None) -> Folded:
        """The game folded after event ``at`` (the head if None): latest snapshot + tail, O(K)."""
        loaded = self.loaded(game)
        head, head_hash = self.store.head(game)
        if at is None:
            at = head
        if not 1 <= at <= head:
            raise InputError(
                f"game {game} has events 1..{head}; there is no event {at}", "input/bad_seq"
            )
        live = self._live.get(game)
        if live is not None and live.seq == at and (at < head or live.hash == head_hash):
            return live
        cached = None  # the newest fold this arbiter holds at or before ``at``
        for held in (live, self._previous.get(game)):
            if held is not None and held.seq <= at and (cached is None or held.seq > cached.seq):
                cached = held
        newer = self._snapshot(game, loaded.ruleset, at, newer_than=cached.seq if cached else 0)
        start = newer or cached or self._created(game)
        from_seq = start.seq + 1 if start else 1
        rows = self.store.read_rows(game, from_seq, at, skip=unread(loaded.ruleset))
        result = Fold(loaded.ruleset, start).rows(rows, self.decoder(loaded.codec, game)).folded
        if at == head:
            self._live[game] = result
        return result

    def fold_log(self, game: str) -> Folded:
        """The game folded afresh from its whole log (no snapshot, no cached state): a replay.
        The SELECT leaves out the rows the fold skips."""
        loaded = self.loaded(game)
        rows = self.store.read_rows(game, skip=unread(loaded.ruleset))
        return Fold(loaded.ruleset).rows(rows, self.decoder(loaded.codec, game)).folded

    def state(self, game: str, at: int | None = None) -> Any:
        return self.folded(game, at).state

    # ------------------------------------------------------------------ snapshots

    def _snapshot(
        self, game: str, ruleset: AnyRuleset, at: int, newer_than: int = 0
    ) -> Folded | None:
        """The newest usable snapshot at or before ``at`` (and after ``newer_than``): its MAC
        checks (the vault) and the log still holds its event with its hash; anything else is
        folded from the log."""
        try:
            found = self.vault.latest_snapshot(
                self.store.lineage(game), at, self._version_key(ruleset)
            )
        except StoreError:
            return None  # a cache: without the key file, fold from the log
        if found is None or found[0] <= newer_than:
            return None
        return self._usable(game, ruleset, found)

    def _usable(self, game: str, ruleset: AnyRuleset, found: tuple[int, bytes]) -> Folded | None:
        """The snapshot ``(seq, blob)`` decoded, if it decodes and the log still holds its event
        with its hash (a read folds from the log otherwise)."""
        start = snapshots.decode(ruleset.state_type, found[1], lambda: self._initial(game))
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
            folded.initial = self._initial(game)
        self.vault.put_snapshot(
            owner, folded.seq, self._version_key(ruleset), snapshots.encode(folded)
        )

    def _initial(self, game: str) -> Any:
        """The state the game's ``game_created`` begins it with; None if it cannot be read
        here. Built once per process and shared; a process that has not built it yet (each
        ``warlog`` command) reads it from the snapshot at seq 1 (``_created``)."""
        loaded = self.loaded(game)
        try:
            row = next(iter(self.store.read_rows(game, 1, 1)))
            state = built(loaded.ruleset, row[2])
            if state is not None:
                return state
            created = self._created(game, row)
            return None if created is None else created.state
        except WarlogError:
            return None

    def _created(self, game: str, row: Row | None = None) -> Folded | None:
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
            version = self._version_key(ruleset)
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

    def _maybe_snapshot(
        self,
        game: str,
        ruleset: AnyRuleset,
        first_seq: int,
        events: Sequence[Event],
        folded: Folded,
    ) -> None:
        k = self._snapshot_every
        crosses = folded.seq // k > (first_seq - 1) // k
        if crosses or any(ruleset.is_round_start(e) for e in events):
            # a cache: the committed batch stands without it
            with contextlib.suppress(StoreError):
                self.keep_snapshot(game, folded)

    # ------------------------------------------------------------------ keys

    def _key(self, meta: GameMeta, game: str) -> bytes:
        """The seed in force (dice and seals); StoreError if this arbiter does not hold it."""
        key = self.vault.key(meta.dice.commitment or "")
        if key is None:
            raise StoreError(
                f"this arbiter does not hold the key of game {game} (imported, or its key file "
                "is another's); fork it with --dice new to play on",
                "store/no_seed",
            )
        return key

    def _sealer(self, meta: GameMeta, game: str) -> Sealer:
        return Sealer(self._key(meta, game), meta.dice.stream)

    # ------------------------------------------------------------------ creating

    def resolve_scenario(self, ruleset: AnyRuleset, scenario: str | None) -> tuple[str, bytes]:
        """``(name, TOML bytes)`` of a bundled scenario name or a file path (None: the default)."""
        return resolve_scenario(ruleset, scenario)

    def new_game(
        self,
        ruleset_name: str,
        scenario: str | None = None,
        *,
        game: str | None = None,
        dice: str = "auto",
        salt: str = "",
        seed: bytes | None = None,
    ) -> str:
        """Create a game and return its id. InputError for a bad ruleset, scenario, id or dice
        mode. Its key (the dice seed in ``auto`` mode, a sealing seed in ``manual`` mode) is put
        in the vault first: a game never exists without its key."""
        ruleset = self._rulesets(ruleset_name)
        check_salt(salt)
        if dice not in ("auto", "manual"):
            raise InputError(
                f"dice must be 'auto' or 'manual', not {dice!r}", "input/bad_dice_mode"
            )
        name, text = resolve_scenario(ruleset, scenario)
        parsed = ruleset.parse_scenario(text)
        game = check_game_id(game) if game is not None else self._new_id(ruleset)
        key = seed if seed is not None else self._seeds()
        spec = DiceSpec(mode=dice, stream=game, salt=salt, commitment=commitment_of(key))  # type: ignore[arg-type]
        created = GameCreated(
            game=game,
            ruleset=ruleset.name,
            version=ruleset.version,
            scenario_name=name,
            scenario=ruleset.recorded_scenario(parsed),
            players=list(ruleset.players(parsed)),
            dice=spec,
        )
        return self.create(created, key)

    def create(self, created: GameCreated, key: bytes) -> str:
        """Create the game ``created`` describes, its key committed to in it: the batch of
        ``game_created`` and the events that open the game (a deal, rolled on the key in both
        dice modes). Returns its id; InputError if the id is taken."""
        named = self._rulesets(created.ruleset)
        ruleset = named.at_version(created.version) or named  # the version it records
        game = created.game
        parsed = ruleset.scenario_from_builtins(created.scenario)
        meta = evolve_meta(None, 1, created)
        assert meta is not None
        start = ruleset.initial_state(parsed)
        opening = ruleset.begin(start, SeededDice(key, game, created.dice.salt, 2))
        events: list[Event] = [created, *opening]
        version = sealing_version(ruleset)
        secrets: list[list[Secret]] = [
            event_secrets(created, setup=ruleset.hidden_setup(parsed), version=version)
        ]
        secrets += [event_secrets(e, version=version) for e in opening]
        rows, openings = seal_batch(
            self.codec(ruleset),
            game,
            events,
            secrets,
            Sealer(key, game),
            lambda s: meta,
            1,
            "0" * 64,
            self._clock(),
        )
        commitment = commitment_of(key)
        unheld = self._unheld(commitment, [o.hash for o in openings])
        self.vault.put_key(commitment, key, game)  # first: never a game without its key
        self.vault.put_openings(openings)
        with self._creating(game, unheld):
            self.store.create_game(GameInfo(game=game, ruleset=ruleset.name), rows)
        share(ruleset, rows[0].data, parsed, start)
        self._created(game)  # the snapshot at seq 1, from which every later process starts
        return game

    def _unheld(self, commitment: str, hashes: list[str]) -> tuple[str | None, list[str]]:
        """Of the key ``commitment`` and the openings ``hashes`` about to be put in the vault,
        those it does not hold yet: what ``_creating`` may take back if the store refuses them."""
        held = self.vault.clears(hashes) if hashes else {}
        fresh = self.vault.key(commitment) is None
        return (commitment if fresh else None), [h for h in hashes if h not in held]

    @contextlib.contextmanager
    def _creating(self, game: str, unheld: tuple[str | None, list[str]]) -> Iterator[None]:
        """The store's creation of ``game``: if the store refuses it, the vault takes back what
        was put for it (``unheld``; best effort: the store's refusal is the error to tell, and
        an unused key file row is harmless), and a game that exists already is InputError."""
        try:
            yield
        except (StoreError, ConflictError) as exc:
            with contextlib.suppress(StoreError):
                self.vault.discard(*unheld)
            if isinstance(exc, ConflictError):
                raise InputError(
                    f"game {game} already exists; choose another id (--game, or the body's "
                    '"game" over HTTP)',
                    "input/game_exists",
                ) from None
            raise

    def _new_id(self, ruleset: AnyRuleset) -> str:
        short = "".join(word[0] for word in ruleset.name.split("-"))
        import secrets

        return f"{short}-{secrets.token_hex(4)}"

    # ------------------------------------------------------------------ playing

    def play(self, game: str, command_text: str | bytes, on: int | None = None) -> list[Record]:
        """Decide one command (JSON text) and append its batch; returns the records appended.

        ``on``: decide it on the state after that event, the head the caller knew (a server's
        ``If-Match``); the append then expects that head, so if the log has moved on meanwhile,
        in this process or another, it is a ConflictError (the default: the head of now).

        InputError (exit 1) for malformed input, RulesError (exit 3) when the rules reject it,
        ConflictError (exit 5) when another writer appended first. Nothing is appended on error.
        """
        loaded = self.loaded(game)
        ruleset = loaded.ruleset
        before = self.folded(game, on)
        command = self.parse_command(ruleset, command_text)
        meta = before.meta
        first_seq = before.seq + 1
        if meta.dice.mode == "auto" and command.dice:
            raise InputError(
                "this game rolls its own dice (auto); a command carries 'dice' only in a "
                "manual-dice game",
                "input/unexpected_dice",
            )
        if meta.revealed:
            raise RulesError(
                f"the key of game {game} was revealed at seq {meta.revealed_at}; its play is "
                "over (fork it with --dice new to play on)",
                "rules/seed_revealed",
            )
        key = self._key(meta, game)
        manual = ManualDice(list(command.dice)) if meta.dice.mode == "manual" else None
        dice: Dice = manual or SeededDice(
            key, meta.dice.stream, meta.dice.salt, meta.derivation_seq(first_seq + 1)
        )
        if self._dice_filter is not None:
            dice = self._dice_filter(dice)
        events = ruleset.decide(before.state, command, dice)
        if manual is not None:
            manual.check_all_used()
        recorded = recorded_command(command, meta.dice.mode == "manual")
        issued = CommandIssued(player=command.player, command=recorded)
        return self._append(game, before, [issued, *events], command)

    def play_as(
        self,
        game: str,
        command_text: str | bytes,
        player: str | None = None,
        *,
        referee: bool = False,
        on: int | None = None,
    ) -> list[Record]:
        """``play`` (decided on the head ``on``, if given), returning the records as ``player``
        may see them (default: the player who issued the command; ``referee``: every value
        opened). An unknown ``player`` is refused before anything is played."""
        reader = REFEREE if referee else None if player is None else self.reader(game, player)
        records = self.play(game, command_text, on)
        if reader is None:
            issued = json.loads(records[0].data)
            reader = str(issued["player"])
        return list(self.forms(game, reader, records[0].seq, records[-1].seq))

    @staticmethod
    def parse_command(ruleset: AnyRuleset, text: str | bytes) -> Command:
        """The typed command from JSON; InputError naming what is wrong (exit 1)."""
        from warlog.arbiter.commands import parse_json_object

        raw = parse_json_object(text)
        known = sorted(c.type_name() for c in _union_members(ruleset.command_type))
        kind = raw.get("type")
        if kind not in known:
            raise unknown_command(ruleset.name, kind, known)
        command: Command = decode_command(ruleset.command_type, raw)
        return command

    def _append(
        self, game: str, before: Folded, events: list[Event], command: Command | None = None
    ) -> list[Record]:
        loaded = self.loaded(game)
        ruleset = loaded.ruleset
        meta = before.meta
        version = sealing_version(ruleset)
        secrets = [event_secrets(e, command, version=version) for e in events]
        sealer = self._sealer(meta, game) if any(secrets) else Sealer(b"", meta.dice.stream)
        at = self._clock()  # one batch, appended at one moment
        rows, openings = seal_batch(
            loaded.codec,
            game,
            events,
            secrets,
            sealer,
            lambda s: meta,
            before.seq + 1,
            before.hash,
            at,
        )
        # fold first: a batch that cannot be folded is never appended
        fold = Fold(ruleset, before)
        clear = [loaded.codec.encode(e)[1] for e in events]
        for offset, (event, row) in enumerate(zip(events, rows, strict=True)):
            fold.apply(before.seq + 1 + offset, row.type, clear[offset], "", event)
        self.vault.put_openings(openings)  # first: an event is never stored without its opening
        records = self.store.append(game, rows, before.seq)
        assert fold.meta is not None
        after = Folded(records[-1].seq, records[-1].hash, fold.meta, fold.state, fold.initial)
        self._previous[game] = before
        self._live[game] = after
        self._maybe_snapshot(game, ruleset, before.seq + 1, events, after)
        for listener in self._listeners:
            with contextlib.suppress(Exception):  # the batch is committed whatever it does
                listener(game, records)
        return records

    def legal(self, game: str, player: str | None = None) -> list[dict[str, Any]]:
        """The legal commands now, as JSON objects ``play`` accepts: ``player``'s, or those of
        everyone the game waits for. InputError for an unknown player."""
        ruleset = self.loaded(game).ruleset
        folded = self.folded(game)
        if folded.meta.revealed:
            return []  # a revealed game takes no more commands
        state = folded.state
        players = [player] if player is not None else ruleset.active_players(state)
        return [command_to_builtins(c) for p in players for c in ruleset.legal_commands(state, p)]

    def reveal(self, game: str, *, despite_live_forks: bool = False) -> Revealed:
        """Publish the key in force (the dice seed; in a manual-dice game the sealing seed) as a
        ``dice_revealed`` event: every sealed value becomes public and every derived die can be
        checked. Play in the game is over. Returns its seq and the seed (hex).

        InputError ``input/live_forks``, nothing appended, when games that share hidden history
        with it are still being played (``live_relatives``: its reveal would tell their secrets
        from before the fork), unless ``despite_live_forks``: the organiser has said so."""
        folded = self.folded(game)
        if folded.meta.revealed:
            raise InputError(
                f"game {game}'s seed was already revealed at seq {folded.meta.revealed_at}",
                "input/already_revealed",
            )
        live = [] if despite_live_forks else self.live_relatives(game)
        if live:
            raise InputError(
                f"{listed(live)} {'shares' if len(live) == 1 else 'share'} hidden history with "
                f"{game} and {'is' if len(live) == 1 else 'are'} still being played: revealing "
                f"{game} would tell their secrets from before the fork; nothing revealed (to "
                f"reveal it anyway: warlog reveal {game} --despite-live-forks, or "
                "?despite_live_forks=true over HTTP)",
                LIVE_FORKS,
            )
        seed = self._key(folded.meta, game)
        record = self._append(game, folded, [DiceRevealed(seed=seed.hex())])[0]
        return Revealed(record.seq, seed.hex())

    def live_relatives(self, game: str) -> list[str]:
        """The other games of ``game``'s family (its parent, its forks, theirs, and so on) still
        being played and keeping secrets: neither revealed nor over, nor playing on a seed
        already public (a same-dice fork of a revealed game). They share hidden history with it
        (the hands and draws before a fork are the same in both), so revealing one, or showing
        what one draws after the cut, can tell the others' secrets from before the cut; unless
        that history is public already (every common ancestor's seed revealed: two forks of a
        revealed game share nothing secret)."""
        infos = {info.game: info for info in self.store.games()}
        root, walked = game, {game}
        while infos.get(root) is not None and infos[root].parent is not None:
            root = str(infos[root].parent)
            if root in walked:  # parents that loop: a damaged catalogue
                raise StoreError(
                    f"game {game}'s lineage runs in a circle through {root}", "store/corrupt"
                )
            walked.add(root)
        family = {root}
        grew = True
        while grew:
            grew = False
            for info in infos.values():
                if info.parent in family and info.game not in family:
                    family.add(info.game)
                    grew = True
        folded: dict[str, Folded | None] = {}
        for member in sorted(family):
            try:
                folded[member] = self.folded(member)
            except WarlogError:
                folded[member] = None  # its key file unreadable: it may be live
        # the seeds already public: revealed in a log of the family, or kept by a same-dice fork
        public = {c for f in folded.values() if f is not None for c in f.meta.opened}

        def ancestry(member: str) -> list[str]:  # the root first (the walk above ends)
            line = [member]
            while (info := infos.get(line[-1])) is not None and info.parent is not None:
                line.append(str(info.parent))
            return line[::-1]

        mine = ancestry(game)
        live = []
        for relative in sorted(family - {game}):
            found = folded[relative]
            if found is not None:
                meta = found.meta
                if meta.revealed or (meta.dice.commitment or "") in meta.opened:
                    continue  # its seed is already known
                if self.ruleset_of(relative).is_terminal(found.state):
                    continue
                # the history it shares with ``game`` lies in their common ancestors' events,
                # sealed under their seeds: told already if every one of them is public
                common = [a for a, b in zip(mine, ancestry(relative), strict=False) if a == b]
                sealed = [folded[a] for a in common]
                if all(f is not None and (f.meta.dice.commitment or "") in public for f in sealed):
                    continue
            live.append(relative)
        return live

    # ------------------------------------------------------------------ forking

    def batch_ends_near(self, game: str, seq: int) -> tuple[int | None, int | None]:
        """The nearest batch ends at or before and after ``seq``."""
        head, _ = self.store.head(game)
        before = after = None
        lo = max(1, seq - 4096)
        for record in self.store.read(game, lo, min(head, seq + 4096)):
            if record.type in BATCH_STARTS and record.seq > 1:
                end = record.seq - 1
                if end <= seq:
                    before = end
                elif after is None:
                    after = end
        if after is None and head > seq:
            after = head
        return before, after

    def fork(self, game: str, at: int, *, new_game: str | None = None, dice: str = "new") -> str:
        """Branch a new game from event ``at`` of ``game``; returns the new id.

        ``at`` must end a batch (InputError naming the nearest ends). ``dice="new"`` commits
        to a new key (put in the vault first); ``dice="same"`` keeps the key in force at the
        cut and is refused until that key has been revealed (InputError).
        """
        loaded = self.loaded(game)
        head, _ = self.store.head(game)
        if not 1 <= at <= head:
            raise InputError(
                f"game {game} has events 1..{head}; cannot fork at {at}", "input/bad_seq"
            )
        if at < head:
            following = self.record_at(game, at + 1)
            if following.type not in BATCH_STARTS:
                before, after = self.batch_ends_near(game, at)
                ends = " or ".join(str(s) for s in (before, after) if s is not None)
                raise InputError(
                    f"seq {at} is inside a command's batch; fork at a batch end ({ends})",
                    "input/inside_batch",
                )
        if dice not in ("new", "same"):
            raise InputError(
                f"--dice must be 'new' or 'same', not {dice!r}", "input/bad_dice_choice"
            )
        at_cut = self.folded(game, at)
        cut = at_cut.meta
        spec = cut.dice
        new_id = check_game_id(new_game) if new_game is not None else self._new_id(loaded.ruleset)
        new_spec: DiceSpec | None = None
        key: bytes | None = None
        kept: str | None = None
        if dice == "same":
            if (spec.commitment or "") not in self.folded(game).meta.opened:
                raise InputError(
                    f"game {game}'s seed in force at seq {at} has not been revealed; a fork with "
                    "the same dice would let anyone compute its coming rolls and open its seals "
                    "(reveal it first, or fork with --dice new)",
                    "input/seed_not_revealed",
                )
            kept = self._key(cut, game).hex()
        else:
            key = self._seeds()
            new_spec = DiceSpec(
                mode=spec.mode, stream=new_id, salt=spec.salt, commitment=commitment_of(key)
            )
        event = GameForked(game=new_id, parent=game, at=at, dice=new_spec, seed=kept)
        info = GameInfo(game=new_id, ruleset=loaded.info.ruleset, parent=game, fork_at=at)
        unheld: tuple[str | None, list[str]] = (None, [])
        if key is not None:
            unheld = self._unheld(commitment_of(key), [])
            self.vault.put_key(commitment_of(key), key, new_id)
        type_, data = loaded.codec.encode(event)
        from warlog.eventstore.records import Pending

        with self._creating(new_id, unheld):
            (forked,) = self.store.create_game(info, [Pending(type_, data, self._clock())])
        meta = evolve_meta(cut, forked.seq, event)
        assert meta is not None
        self._live[new_id] = Folded(forked.seq, forked.hash, meta, at_cut.state)
        return new_id

    # ------------------------------------------------------------------ exchanging

    def import_records(
        self,
        records: Sequence[Record],
        game: str | None = None,
        *,
        chain_only: bool = False,
        progress: Callable[[int], None] | None = None,
        fold_only: bool = False,
    ) -> str:
        """Import an exported log as a new game; returns its id.

        The whole audit runs first (chain, rules, dice, seals) and a log with any finding is
        refused (IntegrityError, exit 4); a log whose rules could not be re-derived (values
        still sealed) is refused too, unless ``chain_only`` asks for a chain-only import.
        Opened seals go to the vault with the revealed key, so the game folds here. A log that
        holds values opened under a seed it does not reveal (a referee's ``--open`` record of a
        live game) is refused (InputError), since the game could be neither read nor played
        without that seed, unless ``fold_only``: a caller that only folds it (the fuzzer's
        sources) keeps its values.
        """
        from warlog.arbiter.exchange import import_log

        return import_log(
            self, records, game, chain_only=chain_only, progress=progress, fold_only=fold_only
        )

    def export_records(self, game: str, *, opened: bool = False) -> Iterator[Record]:
        """The game's records as the export holds them: in their chained form, every seal
        opened once its seed is revealed; ``opened`` (a referee's explicit choice) opens every
        seal before the reveal too."""
        return self.forms(game, REFEREE if opened else PUBLIC, 1, None)

    # ------------------------------------------------------------------ reading

    def head(self, game: str) -> tuple[int, str]:
        return self.store.head(game)

    def records(self, game: str, from_seq: int = 1, to_seq: int | None = None) -> Iterator[Record]:
        """The stored records (their chained form, sealed values sealed)."""
        self.loaded(game)
        return self.store.read(game, from_seq, to_seq)

    def replay_agrees(self, game: str) -> bool:
        """True when the state folded afresh from every record (no snapshot, no cache) is the
        live state, byte for byte."""
        replayed = self.fold_log(game)
        live = self.folded(game).state
        return msgspec.msgpack.encode(replayed.state) == msgspec.msgpack.encode(live)

    def reader(self, game: str, player: str | None) -> str:
        """The reader a request is for: ``player`` (checked: InputError for an unknown one) or,
        for None, the referee."""
        if player is None:
            return REFEREE
        loaded = self.loaded(game)
        loaded.ruleset.check_player(self.folded(game).state, player)
        return player

    def forms(self, game: str, reader: str, from_seq: int, to_seq: int | None) -> Iterator[Record]:
        loaded = self.loaded(game)
        try:
            head = self.folded(game)
        except StoreError as exc:
            if reader != PUBLIC or from_seq > 1 or exc.code not in NO_CLEAR_FORMS:
                raise
            # a database handed out without its key file: the public form of the whole log,
            # every seal closed (even a revealed seed's: the values live in the key file)
            return Forms(self.vault, loaded.codec, reader, ()).forms(
                self.store.read(game, from_seq, to_seq)
            )
        start = self._meta_before(game, from_seq, head)
        forms = Forms(self.vault, loaded.codec, reader, head.meta.opened, start)
        return forms.forms(self.store.read(game, from_seq, to_seq))

    def engine_meta(self, game: str) -> tuple[GameMeta, int]:
        """The engine's meta of the game and its head, from its engine events alone (never
        sealed but the scenario): what can be read without the key file."""
        codec = self.loaded(game).codec
        meta = None
        head = 0
        for seq, type_, data, _ in self.store.read_rows(game):
            head = seq
            if type_ in CORE_TAGS and type_ not in INERT_TAGS:
                meta = evolve_meta(meta, seq, codec.decode(type_, data))
        if meta is None:
            raise StoreError(f"game {game} has no game_created event", "store/corrupt")
        return meta, head

    def _meta_before(self, game: str, from_seq: int, head: Folded) -> GameMeta | None:
        """The meta the forms of the records from ``from_seq`` start from: None from seq 1;
        the head's when every lineage event but reveals lies before ``from_seq`` (the dice in
        force and their shift are then the head's, and what is revealed comes from
        ``head.meta.opened``), which spares the fold of the state at ``from_seq - 1``; else the
        meta folded there."""
        if from_seq <= 1:
            return None
        last_lineage_event = self.store.lineage(game)[-1][1]  # game_created, or the fork's
        if from_seq > last_lineage_event and from_seq <= head.seq + 1:
            return head.meta
        return self.folded(game, from_seq - 1).meta

    def records_as(
        self, game: str, player: str | None, from_seq: int = 1, to_seq: int | None = None
    ) -> Iterator[Record]:
        """The records ``from_seq``..``to_seq`` as ``player`` may see them: the chained form
        with that player's own sealed values opened (None: the referee's, every value opened).
        InputError for an unknown player or events outside the game."""
        self.check_range(game, from_seq, to_seq)
        return self.forms(game, self.reader(game, player), from_seq, to_seq)

    def replay(
        self, game: str, from_seq: int = 1, to_seq: int | None = None, player: str | None = None
    ) -> Iterator[dict[str, Any]]:
        """Each event from ``from_seq`` as ``player`` may see it (None: the referee), with its
        explanation and what it changed in that player's view."""
        loaded = self.loaded(game)
        self.check_range(game, from_seq, to_seq)
        reader = self.reader(game, player)
        state = self.state(game, from_seq - 1) if from_seq > 1 else None
        clear = decoded(self.store.read(game, from_seq, to_seq), self.decoder(loaded.codec, game))
        shown = self.forms(game, reader, from_seq, to_seq)
        from warlog.projections.replay import replay_steps

        after = (
            None
            if to_seq is None
            else next(iter(self.store.read(game, to_seq + 1, to_seq + 1)), None)
        )
        last_ends = after is None or after.type in BATCH_STARTS  # a range may stop in a batch
        anchor = None  # a range that starts inside a batch: what the game waited for before it
        if from_seq > 1:
            first = self.record_at(game, from_seq)
            if first.type not in BATCH_STARTS:
                batch_end, _ = self.batch_ends_near(game, from_seq - 1)
                anchor = self.state(game, batch_end) if batch_end else None
        steps = zip(shown, clear, strict=True)
        return replay_steps(loaded.ruleset, state, steps, player, last_ends, anchor)

    def explain(self, game: str, seq: int, player: str | None = None) -> dict[str, Any]:
        """Why event ``seq`` happened, as ``player`` may see it: its batch, the command, the
        dice, the rule."""
        from warlog.arbiter.explain import explain_event

        return explain_event(self, game, seq, player)

    def events_view(self, game: str, player: str | None = None) -> EventsView:
        """The in-game Events view of the whole game (``player``: that empire's tab only is
        asked for; InputError if it is not one of the game's)."""
        loaded = self.loaded(game)
        if player is not None:
            loaded.ruleset.check_player(self.folded(game).state, player)
        from warlog.projections.events_view import EventsView

        return EventsView(loaded.ruleset).feed(self.events(game))

    def events(
        self, game: str, from_seq: int = 1, to_seq: int | None = None
    ) -> Iterator[tuple[int, Event]]:
        """``(seq, event)`` of the clear events, sealed values opened from the vault: what the
        rules and the read models fold (never hand them to a player)."""
        loaded = self.loaded(game)
        records = self.store.read(game, from_seq, to_seq)
        return ((r.seq, event) for r, event in decoded(records, self.decoder(loaded.codec, game)))

    def audit(
        self, game: str, from_seq: int = 1, progress: Callable[[int], None] | None = None
    ) -> Auditor:
        """Audit the stored game (chain, rules from ``from_seq``, revealed dice and seals); the
        Auditor holds the findings and what it checked. It folds from the log, never from a
        snapshot; when the log audits clean to its end it then compares every snapshot a read
        could start from (state, legal and play do) with the log's fold (``check_snapshots``).
        ``progress`` is told how many events have been checked, every few thousand."""
        head, _ = self.store.head(game)
        check_from(from_seq, head, game)
        from warlog.arbiter.audit import Finding, audit_records

        records: Iterable[Record | Opened]
        # a damaged key file is its one line (store/corrupt, exit 1), not an audit of the sealed
        # form that would check less and say nothing of why
        holds = self.vault.available() and self._holds_its_key(game)
        try:
            if holds:
                # the referee's read opens every seal the vault holds, revealed or not: it
                # needs no fold of the game to know which seeds are revealed
                loaded = self.loaded(game)
                forms = Forms(self.vault, loaded.codec, REFEREE, ())
                records = forms.opened(self.store.read(game))
            else:
                records = self.forms(game, PUBLIC, 1, None)
        except StoreError as exc:
            if exc.code != "store/corrupt":
                raise
            # a log whose lineage does not decode (a damaged game_created): the audit of its
            # chained form says what is wrong, as a finding
            return audit_records(counted(self.store.read(game), progress), self._rulesets, from_seq)

        try:
            auditor = audit_records(counted(records, progress), self._rulesets, from_seq)
        except DamagedLineage:
            # a lineage event that does not decode, met on the way: the audit of the chained
            # form says what is wrong, as a finding (the key file is not at fault)
            return audit_records(counted(self.store.read(game), progress), self._rulesets, from_seq)
        if not auditor.findings and not auditor.proved.rules_stopped_at:
            checked, differing = self.check_snapshots(game)
            auditor.proved.snapshots_checked = checked
            auditor.findings.extend(
                Finding(
                    seq,
                    "snapshot",
                    "the stored snapshot is not the game folded from the log, its state or what "
                    "it counts revealed (state, legal and play start from it: the key file's "
                    "snapshots were altered, or warlog has a bug)",
                )
                for seq in differing
            )
        return auditor

    def _holds_its_key(self, game: str) -> bool:
        """The vault holds every key the game's log commits to (``game_created``'s and each
        new-dice fork's): not so for a log imported before its reveal with --chain-only, whose
        values stay sealed here. False for lineage data it cannot read (the audit says why)."""
        # every row: an imported log holds its forks' game_forked inside its one segment
        rows = iter(self.store.read_rows(game))
        while True:
            try:
                row = next(rows, None)
            except StoreError:
                return False  # rows it cannot read: the audit of the chained form tells them
            if row is None:
                break
            _, type_, data, _ = row
            if type_ not in ("game_created", "game_forked"):
                continue
            try:
                dice = json.loads(data).get("dice")
                commitment = "" if dice is None else str(dice.get("commitment") or "")
            except (ValueError, AttributeError, TypeError):
                return False
            if commitment and self.vault.key(commitment) is None:
                return False
        return True

    def check_snapshots(self, game: str) -> tuple[int, list[int]]:
        """Compare every usable snapshot of the game (its MAC checks, its event is in the log
        with its hash: what a read may start from), each one whatever the newer ones are, with
        the game folded from the log at its seq, state and meta (what is revealed included):
        how many were compared, and the seqs of those that differ. One fold of the log."""
        loaded = self.loaded(game)
        ruleset = loaded.ruleset
        lineage, version = self.store.lineage(game), self._version_key(ruleset)
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

    def about(self, game: str) -> dict[str, Any]:
        """What a game is and where it stands: ``{"game", "ruleset", "version", "players",
        "head": {"seq", "hash"}, "over"}`` (``version``: the rules it is played under; ``over``:
        the game has ended or its seed is revealed). UnknownGame if there is no such game."""
        loaded = self.loaded(game)
        folded = self.folded(game)
        meta = folded.meta
        return {
            "game": game,
            "ruleset": meta.ruleset,
            "version": meta.version,
            "players": list(meta.players),
            "head": {"seq": folded.seq, "hash": folded.hash},
            "over": bool(loaded.ruleset.is_terminal(folded.state) or meta.revealed),
        }

    def summary(self, game: str, at: int | None = None, player: str | None = None) -> Summary:
        """A summary a person can read of the state after ``at`` as ``player`` sees it."""
        view = self.view(game, at, player)
        return self.loaded(game).ruleset.summary(view["state"], player)

    def check_range(self, game: str, from_seq: int, to_seq: int | None) -> None:
        """InputError unless ``from_seq``..``to_seq`` are events of the game, in order."""
        head, _ = self.store.head(game)
        check_from(from_seq, head, f"game {game}")
        if to_seq is not None and not from_seq <= to_seq <= head:
            raise InputError(
                f"game {game} has events 1..{head}; --to {to_seq} must be between --from "
                f"{from_seq} and {head}",
                "input/bad_seq",
            )

    def view(self, game: str, at: int | None = None, player: str | None = None) -> dict[str, Any]:
        """The state after ``at`` as ``player`` sees it (None: the referee's full view)."""
        loaded = self.loaded(game)
        folded = self.folded(game, at)
        if player is not None:
            loaded.ruleset.check_player(folded.state, player)
        return {
            "game": game,
            "ruleset": loaded.ruleset.name,
            "seq": folded.seq,
            "round": loaded.ruleset.round_of(folded.state),
            "round_word": loaded.ruleset.round_word,
            "over": bool(loaded.ruleset.is_terminal(folded.state) or folded.meta.revealed),
            "as": player,
            "state": loaded.ruleset.view(folded.state, player),
        }


def check_from(from_seq: int, head: int, label: str) -> None:
    """InputError unless ``from_seq`` is an event of the log (1..head)."""
    if not 1 <= from_seq <= head:
        raise InputError(
            f"{label} has events 1..{head}; --from {from_seq} is outside them", "input/bad_seq"
        )


def counted(records: Iterable[T], progress: Callable[[int], None] | None) -> Iterator[T]:
    """``records`` passed through, telling ``progress`` the count every ``PROGRESS_EVERY``
    records and at the end."""
    n = 0
    for n, record in enumerate(records, start=1):
        if progress is not None and n % PROGRESS_EVERY == 0:
            progress(n)
        yield record
    if progress is not None:
        progress(n)


def _union_members(tp: Any) -> tuple[Any, ...]:
    args = getattr(tp, "__args__", None)
    return tuple(args) if args else (tp,)
