"""The rule-agnostic application: load a game's state, decide a command, append its batch.

Everything a CLI or server does goes through an ``Arbiter``: it is handed a store (the log), a
vault (keys, the clear form of sealed values, snapshots) and a way to find rulesets by name, and
it never imports a ruleset itself.

The Arbiter is the front: each part of the work lives in a module of its own, which it calls
with what that part needs. It holds a ``States`` (states.py: the games loaded, the folds held, the
snapshots); playing.py decides a command and appends its batch; creating.py creates a game;
forks.py forks one and finds its live relatives; revealing.py checks a reveal; reads.py reads a
log as one reader may see it; audit_stored.py picks the form of the log the audit reads.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import msgspec

from warlog.arbiter import playing, reads
from warlog.arbiter.fold import Folded, RowDecoder, decoded
from warlog.arbiter.meta import GameMeta
from warlog.arbiter.sealing import PUBLIC, REFEREE
from warlog.arbiter.states import SNAPSHOT_EVERY, Loaded, States
from warlog.domain.core.dice import Dice
from warlog.domain.core.events import Event, GameCreated
from warlog.domain.core.ruleset import AnyRuleset, Command
from warlog.eventstore.codec import Codec, command_to_builtins
from warlog.eventstore.records import Record
from warlog.eventstore.store import Store
from warlog.eventstore.vault import MemoryVault, Vault

if TYPE_CHECKING:  # imported where they are used: a command pays only for what it runs
    from warlog.arbiter.audit import Auditor
    from warlog.domain.core.summary import Summary
    from warlog.projections.events_view import EventsView


def utc_now() -> str:
    """UTC ISO-8601 with milliseconds, ending in ``Z`` (the contract's ``at``)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


class Revealed(msgspec.Struct, frozen=True):
    """A reveal: the seq of its ``dice_revealed`` event and the seed it published (hex)."""

    seq: int
    seed: str


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
        self._dice_filter = dice_filter
        #: what this arbiter has read of each game: ruleset and codec, folds held, snapshots
        self.states = States(store, self.vault, rulesets, snapshot_every)
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
        return self.states.codec(ruleset)

    def loaded(self, game: str) -> Loaded:
        """The game's ruleset and codec; UnknownGame if there is no such game."""
        return self.states.loaded(game)

    def record_at(self, game: str, seq: int) -> Record:
        """The record at ``seq`` (which the caller knows is 1..head); StoreError when the log
        has no row there (a damaged database: a row deleted)."""
        return self.states.record_at(game, seq)

    def ruleset_of(self, game: str) -> AnyRuleset:
        return self.loaded(game).ruleset

    def decoder(self, codec: Codec, game: str) -> RowDecoder:
        """Decodes stored ``(seq, type, data, hash)`` rows into clear events (sealed values
        opened from the vault, one lookup for the rows given at once)."""
        return self.states.decoder(codec, game)

    def fold_records(self, ruleset: AnyRuleset, records: Iterable[Record]) -> Folded:
        """The game folded from its records, from the first (``game_created``) on."""
        return self.states.fold_records(ruleset, records)

    def folded(self, game: str, at: int | None = None) -> Folded:
        """The game folded after event ``at`` (the head if None): latest snapshot + tail, O(K)."""
        return self.states.folded(game, at)

    def fold_log(self, game: str) -> Folded:
        """The game folded afresh from its whole log (no snapshot, no cached state): a replay.
        The SELECT leaves out the rows the fold skips."""
        return self.states.fold_log(game)

    def state(self, game: str, at: int | None = None) -> Any:
        return self.folded(game, at).state

    def snapshot(self, game: str, at: int) -> Folded | None:
        """The newest usable snapshot of the game at or before event ``at``, decoded (None when
        there is none): what ``folded`` starts from before folding the tail."""
        return self.states.snapshot(game, at)

    def keep_snapshot(self, game: str, folded: Folded) -> None:
        """Keep ``folded`` (the game folded after one of its events, from the log) as a snapshot,
        under the game that stores that event."""
        self.states.keep_snapshot(game, folded)

    # ------------------------------------------------------------------ creating

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
        from warlog.arbiter import creating

        ruleset = self._rulesets(ruleset_name)
        created, key = creating.game_created(
            ruleset,
            scenario,
            game=game,
            dice=dice,
            salt=salt,
            key=lambda: seed if seed is not None else self._seeds(),
        )
        return self.create(created, key)

    def create(self, created: GameCreated, key: bytes) -> str:
        """Create the game ``created`` describes, its key committed to in it: the batch of
        ``game_created`` and the events that open the game (a deal, rolled on the key in both
        dice modes). Returns its id; InputError if the id is taken."""
        from warlog.arbiter.creating import create_game

        return create_game(self.states, self._rulesets, created, key, self._clock)

    # ------------------------------------------------------------------ playing

    def play(self, game: str, command_text: str | bytes, on: int | None = None) -> list[Record]:
        """Decide one command (JSON text) and append its batch; returns the records appended.

        ``on``: decide it on the state after that event, the head the caller knew (a server's
        ``If-Match``); the append then expects that head, so if the log has moved on meanwhile,
        in this process or another, it is a ConflictError (the default: the head of now).

        InputError (exit 1) for malformed input, RulesError (exit 3) when the rules reject it,
        ConflictError (exit 5) when another writer appended first. Nothing is appended on error.
        """
        ruleset = self.loaded(game).ruleset
        before = self.folded(game, on)
        command = self.parse_command(ruleset, command_text)
        events = playing.decided(ruleset, game, before, command, self.vault, self._dice_filter)
        return self._append(game, before, events, command)

    def play_as(
        self,
        game: str,
        command_text: str | bytes,
        shown_to: str | None = None,
        *,
        referee: bool = False,
        on: int | None = None,
    ) -> list[Record]:
        """``play`` (decided on the head ``on``, if given), returning the records as
        ``shown_to`` may see them (default: the player who issued the command; ``referee``:
        every value opened). An unknown ``shown_to`` is refused before anything is played.

        ``shown_to`` is a reader, as ``--as`` is everywhere in the CLI: it is not checked to be
        the command's ``player`` (the referee's ``warlog play CMD --as blue`` plays red's command
        and shows what blue sees of it). A caller acting for one seat checks the command's
        ``player`` itself before calling, as the server does (403 ``auth/not_your_seat``)."""
        reader = REFEREE if referee else None if shown_to is None else self.reader(game, shown_to)
        records = self.play(game, command_text, on)
        if reader is None:
            issued = json.loads(records[0].data)
            reader = str(issued["player"])
        return list(self.forms(game, reader, records[0].seq, records[-1].seq))

    @staticmethod
    def parse_command(ruleset: AnyRuleset, text: str | bytes) -> Command:
        """The typed command from JSON; InputError naming what is wrong (exit 1)."""
        from warlog.arbiter.commands import parse_command

        return parse_command(ruleset, text)

    def _append(
        self, game: str, before: Folded, events: list[Event], command: Command | None = None
    ) -> list[Record]:
        """Append the batch ``events`` on ``before`` (``playing.append_batch``), then tell the
        watchers."""
        records = playing.append_batch(self.states, game, before, events, command, self._clock)
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
        with it are still being played (``live_relatives``: its family, a game imported from an
        export of it; its reveal would tell their secrets), unless ``despite_live_forks``: the
        organiser has said so."""
        from warlog.arbiter.revealing import revealing

        folded, revealed = revealing(self, game, despite_live_forks)
        record = self._append(game, folded, [revealed])[0]
        return Revealed(record.seq, revealed.seed)

    def live_relatives(self, game: str) -> list[str]:
        """The other games of the database still being played that share hidden history with
        ``game``, sorted: those that share with it a key in force at some point of both logs
        whose seed is not public yet. Its family (its parent, its forks, theirs, and so on:
        the hands and draws before a fork are the same in both), and any game imported from
        an export of it or of a relative (the same key, whatever the catalogue's lineage).
        Revealing one, or showing what one draws, can tell the others' secrets. Not those
        revealed, over, or playing on a seed already public (a same-dice fork of a revealed
        game); nor those whose shared keys are all public (two forks of a revealed game share
        nothing secret). ``forks.live_sharers`` tells the family from the others."""
        from warlog.arbiter import forks

        return forks.live_relatives(self, game)

    # ------------------------------------------------------------------ forking

    def batch_ends_near(self, game: str, seq: int) -> tuple[int | None, int | None]:
        """The nearest batch ends at or before and after ``seq``."""
        from warlog.arbiter import forks

        return forks.batch_ends_near(self.store, game, seq)

    def fork(self, game: str, at: int, *, new_game: str | None = None, dice: str = "new") -> str:
        """Branch a new game from event ``at`` of ``game``; returns the new id.

        ``at`` must end a batch (InputError naming the nearest ends). ``dice="new"`` commits
        to a new key (put in the vault first); ``dice="same"`` keeps the key in force at the
        cut and is refused until that key has been revealed (InputError).
        """
        from warlog.arbiter import forks

        return forks.fork_game(
            self, game, at, new_game=new_game, dice=dice, seeds=self._seeds, clock=self._clock
        )

    # ------------------------------------------------------------------ exchanging

    def import_records(
        self,
        records: Sequence[Record],
        game: str | None = None,
        *,
        chain_only: bool = False,
        progress: Callable[[int], None] | None = None,
        fold_only: bool = False,
        despite_live_forks: bool = False,
    ) -> str:
        """Import an exported log as a new game; returns its id.

        The whole audit runs first (chain, rules, dice, seals) and a log with any finding is
        refused (IntegrityError, exit 4); a log whose rules could not be re-derived (values
        still sealed) is refused too, unless ``chain_only`` asks for a chain-only import.
        Opened seals go to the vault with the revealed key, so the game folds here. A log that
        holds values opened under a seed it does not reveal (a referee's ``--open`` record of a
        live game) is refused (InputError), since the game could be neither read nor played
        without that seed, unless ``fold_only``: a caller that only folds it (the fuzzer's
        sources) keeps its values. A log that plays by the key of a game of this database still
        being played (an export of it) is refused (InputError, ``input/live_forks``) unless
        ``despite_live_forks``: the copy would roll that game's dice and hold its secrets.
        """
        from warlog.arbiter.exchange import import_log

        return import_log(
            self,
            records,
            game,
            chain_only=chain_only,
            progress=progress,
            fold_only=fold_only,
            despite_live_forks=despite_live_forks,
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
        """The records ``from_seq``..``to_seq`` as ``reader`` (a player, ``REFEREE`` or
        ``PUBLIC``) may see them: their chained form, the seals open to that reader opened."""
        return reads.forms(self, game, reader, from_seq, to_seq)

    def engine_meta(self, game: str) -> tuple[GameMeta, int]:
        """The engine's meta of the game and its head, from its engine events alone (never
        sealed but the scenario): what can be read without the key file."""
        return reads.engine_meta(self, game)

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
        return reads.replay(self, game, from_seq, to_seq, player)

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
        rules and the read models fold (never hand them to a player). StoreError (store/corrupt)
        at an event missing from the log or not linked to the one before (``reads.linked``)."""
        from warlog.arbiter.reads import linked

        loaded = self.loaded(game)
        records = linked(self.store.read(game, from_seq, to_seq), game, from_seq, to_seq)
        return ((r.seq, event) for r, event in decoded(records, self.decoder(loaded.codec, game)))

    def audit(
        self, game: str, from_seq: int = 1, progress: Callable[[int], None] | None = None
    ) -> Auditor:
        """Audit the stored game (chain, rules from ``from_seq``, revealed dice and seals); the
        Auditor holds the findings and what it checked. It folds from the log, never from a
        snapshot; when the log audits clean to its end it then compares every snapshot a read
        could start from (state, legal and play do) with the log's fold (``check_snapshots``).
        ``progress`` is told how many events have been checked, every few thousand."""
        from warlog.arbiter.audit_stored import audit_game

        return audit_game(self, game, from_seq, progress)

    def check_snapshots(self, game: str) -> tuple[int, list[int]]:
        """Compare every usable snapshot of the game (its MAC checks, its event is in the log
        with its hash: what a read may start from), each one whatever the newer ones are, with
        the game folded from the log at its seq, state and meta (what is revealed included):
        how many were compared, and the seqs of those that differ. One fold of the log."""
        return self.states.check_snapshots(game)

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
        reads.check_range(self.store, game, from_seq, to_seq)

    def view(self, game: str, at: int | None = None, player: str | None = None) -> dict[str, Any]:
        """The state after ``at`` as ``player`` sees it (None: the referee's full view). A player
        asking for an event inside a batch is shown the state after the batch's last event
        (``seq``; ``at`` says what was asked): between two events of a batch, which the player
        receives together, the order of its events could tell what the rules hide."""
        loaded = self.loaded(game)
        shown = at if player is None or at is None else reads.batch_end(self.store, game, at)
        folded = self.folded(game, shown)
        if player is not None:
            loaded.ruleset.check_player(folded.state, player)
        return {
            "game": game,
            "ruleset": loaded.ruleset.name,
            "seq": folded.seq,
            "at": at,
            "round": loaded.ruleset.round_of(folded.state),
            "round_word": loaded.ruleset.round_word,
            "over": bool(loaded.ruleset.is_terminal(folded.state) or folded.meta.revealed),
            "as": player,
            "state": loaded.ruleset.view(folded.state, player),
        }
