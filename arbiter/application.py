"""The rule-agnostic application: load a game's state, decide a command, append its batch.

Everything a CLI or server does goes through an ``Arbiter``: it is handed a store and a way to
find rulesets by name, and it never imports a ruleset itself.
"""

from __future__ import annotations

import contextlib
import os
import secrets as _secrets
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

from warlog.arbiter.audit import Auditor, audit_records
from warlog.arbiter.fold import Fold, Folded
from warlog.arbiter.ids import GAME_ID
from warlog.arbiter.meta import GameMeta
from warlog.domain import rulesets
from warlog.domain.core.dice import DiceSpec, ManualDice, SeededDice, commitment_of
from warlog.domain.core.errors import (
    ConflictError,
    InputError,
    IntegrityError,
    RulesError,
    StoreError,
)
from warlog.domain.core.events import (
    BATCH_STARTS,
    CommandIssued,
    DiceRevealed,
    Event,
    GameCreated,
    GameForked,
)
from warlog.domain.core.rules import unknown_command
from warlog.domain.core.ruleset import AnyRuleset
from warlog.eventstore.codec import Codec, command_to_builtins, decode_command
from warlog.eventstore.records import GameInfo, Pending, Record
from warlog.eventstore.store import Store
from warlog.projections.events_view import EventsView
from warlog.projections.player_events import as_seen_by
from warlog.projections.replay import replay_steps

#: how often long reads report their progress, in events
PROGRESS_EVERY = 5000
#: snapshots every K events (and at round starts): the state at any seq costs O(K)
SNAPSHOT_EVERY = 256


def utc_now() -> str:
    """UTC ISO-8601 with milliseconds, ending in ``Z`` (the contract's ``at``)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


class Revealed(msgspec.Struct, frozen=True):
    """A reveal: the seq of its ``dice_revealed`` event and the seed it published (hex)."""

    seq: int
    seed: str


class Loaded(msgspec.Struct):
    """A game's ruleset, codec and catalogue row."""

    info: GameInfo
    ruleset: AnyRuleset
    codec: Codec


def check_game_id(game: str) -> str:
    if not GAME_ID.match(game):
        raise InputError(
            f"bad game id {game!r}: use 1-64 letters, digits, '_', '.' or '-', starting with a letter or digit",
            "input/bad_game_id",
        )
    return game


class Arbiter:
    """Creates, plays, forks and reveals games on a store, for rulesets found by name."""

    def __init__(
        self,
        store: Store,
        rulesets: Callable[[str], AnyRuleset],
        *,
        clock: Callable[[], str] = utc_now,
        seeds: Callable[[], bytes] = lambda: os.urandom(32),
        snapshot_every: int = SNAPSHOT_EVERY,
    ) -> None:
        self.store = store
        self._rulesets = rulesets
        self._clock = clock
        self._seeds = seeds
        self._snapshot_every = snapshot_every
        self._loaded: dict[str, Loaded] = {}
        self._live: dict[str, Folded] = {}
        self._codecs: dict[str, Codec] = {}

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
            ruleset = self._rulesets(info.ruleset)
            found = Loaded(info, ruleset, self.codec(ruleset))
            self._loaded[game] = found
        return found

    def ruleset_of(self, game: str) -> AnyRuleset:
        return self.loaded(game).ruleset

    def fold_records(self, ruleset: AnyRuleset, records: Iterable[Record]) -> Folded:
        """The game folded from its records, from the first (``game_created``) on."""
        rows = ((r.seq, r.type, r.data, r.hash) for r in records)
        return Fold(ruleset).rows(rows, self.codec(ruleset).decode).folded

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
        start: Folded | None = None
        snap = self.store.latest_snapshot(game, at, self._version_key(loaded.ruleset))
        if snap is not None:
            start = self._decode_snapshot(loaded.ruleset, snap[1])
        if live is not None and live.seq <= at and (start is None or live.seq > start.seq):
            start = live
        from_seq = start.seq + 1 if start else 1
        rows = self.store.read_rows(game, from_seq, at)
        result = Fold(loaded.ruleset, start).rows(rows, loaded.codec.decode).folded
        if at == head:
            self._live[game] = result
        return result

    def state(self, game: str, at: int | None = None) -> Any:
        return self.folded(game, at).state

    def _encode_snapshot(self, folded: Folded) -> bytes:
        return msgspec.msgpack.encode((folded.seq, folded.hash, folded.meta, folded.state))

    def _decode_snapshot(self, ruleset: AnyRuleset, blob: bytes) -> Folded | None:
        try:
            seq, hash_, meta, raw = msgspec.msgpack.decode(
                blob, type=tuple[int, str, GameMeta, msgspec.Raw]
            )
            state: Any = msgspec.msgpack.decode(raw, type=ruleset.state_type)
        except (msgspec.DecodeError, TypeError, ValueError):
            return None  # a cache: an unreadable snapshot is simply not used
        return Folded(seq, hash_, meta, state)

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
                self.store.put_snapshot(
                    game, folded.seq, self._version_key(ruleset), self._encode_snapshot(folded)
                )

    # ------------------------------------------------------------------ creating

    def resolve_scenario(self, ruleset: AnyRuleset, scenario: str | None) -> tuple[str, bytes]:
        """``(name, TOML bytes)`` of a bundled scenario name or a file path (None: the default)."""
        if scenario is None:
            scenario = rulesets.default_scenario(ruleset)
            if scenario is None:
                raise InputError(
                    f"{ruleset.name} has no bundled scenario; give --scenario FILE",
                    "input/no_scenario",
                )
        bundled = rulesets.bundled_scenario(ruleset, scenario)
        if bundled is not None:
            return scenario, bundled
        path = Path(scenario)
        if path.is_file():
            try:
                return path.stem, path.read_bytes()
            except OSError as exc:
                raise InputError(
                    f"cannot read scenario {scenario}: {exc.strerror}", "input/unreadable"
                ) from None
        known = ", ".join(sorted(rulesets.bundled_scenarios(ruleset))) or "none"
        raise InputError(
            f"unknown scenario {scenario!r}: not a bundled one ({known}) nor a file",
            "input/unknown_scenario",
        )

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
        """Create a game and return its id. InputError for a bad ruleset, scenario, id or dice mode."""
        ruleset = self._rulesets(ruleset_name)
        if dice not in ("auto", "manual"):
            raise InputError(
                f"dice must be 'auto' or 'manual', not {dice!r}", "input/bad_dice_mode"
            )
        name, text = self.resolve_scenario(ruleset, scenario)
        parsed = ruleset.parse_scenario(text)
        game = check_game_id(game) if game else self._new_id(ruleset)
        if dice == "auto":
            seed = seed if seed is not None else self._seeds()
            spec = DiceSpec(mode="auto", stream=game, salt=salt, commitment=commitment_of(seed))
        else:
            seed = None
            spec = DiceSpec(mode="manual", stream=game, salt=salt)
        created = GameCreated(
            game=game,
            ruleset=ruleset.name,
            version=ruleset.version,
            scenario_name=name,
            scenario=msgspec.to_builtins(parsed),
            players=list(ruleset.players(parsed)),
            dice=spec,
        )
        codec = self.codec(ruleset)
        try:
            self.store.create_game(
                GameInfo(game=game, ruleset=ruleset.name), [self._pending(codec, created)]
            )
        except ConflictError:
            raise InputError(
                f"game {game} already exists; choose another --game", "input/game_exists"
            ) from None
        if seed is not None:
            self.store.put_secret(game, seed)
        return game

    def _new_id(self, ruleset: AnyRuleset) -> str:
        short = "".join(word[0] for word in ruleset.name.split("-"))
        return f"{short}-{_secrets.token_hex(4)}"

    def _pending(self, codec: Codec, event: Event, at: str | None = None) -> Pending:
        type_, data = codec.encode(event)
        return Pending(type_, data, at or self._clock())

    # ------------------------------------------------------------------ playing

    def play(self, game: str, command_text: str | bytes) -> list[Record]:
        """Decide one command (JSON text) and append its batch; returns the records appended.

        InputError (exit 1) for malformed input, RulesError (exit 3) when the rules reject it,
        ConflictError (exit 5) when another writer appended first. Nothing is appended on error.
        """
        loaded = self.loaded(game)
        ruleset = loaded.ruleset
        before = self.folded(game)
        command = self.parse_command(ruleset, command_text)
        meta = before.meta
        first_seq = before.seq + 1
        if meta.dice.mode == "manual":
            manual = ManualDice(list(command.dice))
            events = ruleset.decide(before.state, command, manual)
            manual.check_all_used()
        else:
            if command.dice:
                raise InputError(
                    "this game rolls its own dice (auto); a command carries 'dice' only in a manual-dice game",
                    "input/unexpected_dice",
                )
            if meta.revealed:
                raise RulesError(
                    f"the dice seed of game {game} was revealed at seq {meta.revealed_at}; its play is over "
                    "(fork it with --dice new to play on)",
                    "rules/seed_revealed",
                )
            seed = self.store.secret(game)
            if seed is None:
                raise StoreError(
                    f"this arbiter does not hold the dice seed of game {game} (imported?); "
                    "fork it with --dice new to play on",
                    "store/no_seed",
                )
            events = ruleset.decide(
                before.state,
                command,
                SeededDice(seed, meta.dice.stream, meta.dice.salt, first_seq + 1),
            )
        issued = CommandIssued(player=command.player, command=command_to_builtins(command))
        return self._append(game, before, [issued, *events])

    @staticmethod
    def parse_command(ruleset: AnyRuleset, text: str | bytes) -> Any:
        """The typed command from JSON; InputError naming what is wrong (exit 1)."""
        if isinstance(text, str):  # argv may carry undecodable bytes as surrogates
            text = text.encode("utf-8", "surrogateescape")
        try:
            raw = msgspec.json.decode(text)
        except msgspec.DecodeError as exc:
            raise InputError(f"command is not valid JSON: {exc}", "input/bad_json") from None
        except RecursionError:
            raise InputError(
                "command is nested too deeply to be a command", "input/bad_json"
            ) from None
        except ValueError as exc:  # e.g. an integer of thousands of digits
            raise InputError(f"command is not acceptable JSON: {exc}", "input/bad_json") from None
        if not isinstance(raw, dict):
            raise InputError('a command is a JSON object with a "type" field', "input/bad_command")
        known = sorted(c.type_name() for c in _union_members(ruleset.command_type))
        kind = raw.get("type")
        if kind not in known:
            raise unknown_command(ruleset.name, kind, known)
        return decode_command(ruleset.command_type, text)

    def _append(self, game: str, before: Folded, events: list[Event]) -> list[Record]:
        loaded = self.loaded(game)
        ruleset = loaded.ruleset
        at = self._clock()  # one batch, appended at one moment
        encoded = [loaded.codec.encode(e) for e in events]
        # fold first: a batch that cannot be folded is never appended
        fold = Fold(ruleset, before)
        for offset, (event, (type_, data)) in enumerate(zip(events, encoded, strict=True)):
            fold.apply(before.seq + 1 + offset, type_, data, "", event)
        records = self.store.append(game, [Pending(t, d, at) for t, d in encoded], before.seq)
        assert fold.meta is not None
        after = Folded(records[-1].seq, records[-1].hash, fold.meta, fold.state)
        self._live[game] = after
        self._maybe_snapshot(game, ruleset, before.seq + 1, events, after)
        return records

    def legal(self, game: str, player: str | None = None) -> list[dict[str, Any]]:
        """The legal commands now, as JSON objects ``play`` accepts: ``player``'s, or those of
        everyone the game waits for. InputError for an unknown player."""
        ruleset = self.loaded(game).ruleset
        state = self.folded(game).state
        players = [player] if player is not None else ruleset.active_players(state)
        return [command_to_builtins(c) for p in players for c in ruleset.legal_commands(state, p)]

    def reveal(self, game: str) -> Revealed:
        """Publish the dice seed as a ``dice_revealed`` event (its own batch): its seq and the
        seed (hex)."""
        folded = self.folded(game)
        if folded.meta.dice.mode != "auto":
            raise InputError(
                f"game {game} uses manual dice: there is no seed to reveal", "input/manual_dice"
            )
        if folded.meta.revealed:
            raise InputError(
                f"game {game}'s seed was already revealed at seq {folded.meta.revealed_at}",
                "input/already_revealed",
            )
        seed = self.store.secret(game)
        if seed is None:
            raise StoreError(
                f"this arbiter does not hold the dice seed of game {game}", "store/no_seed"
            )
        record = self._append(game, folded, [DiceRevealed(seed=seed.hex())])[0]
        return Revealed(record.seq, seed.hex())

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

        ``at`` must end a batch (InputError naming the nearest ends). ``dice="same"`` is refused
        until the parent's seed has been revealed (InputError).
        """
        loaded = self.loaded(game)
        head, _ = self.store.head(game)
        if not 1 <= at <= head:
            raise InputError(
                f"game {game} has events 1..{head}; cannot fork at {at}", "input/bad_seq"
            )
        if at < head:
            following = next(iter(self.store.read(game, at + 1, at + 1)))
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
        at_fold = self.folded(game, at)
        spec = at_fold.meta.dice
        seed: bytes | None = None
        new_spec: DiceSpec | None
        new_id = check_game_id(new_game) if new_game else self._new_id(loaded.ruleset)
        if dice == "same":
            new_spec = None
            if spec.mode == "auto":
                head_fold = self.folded(game)
                same_spec = (
                    head_fold.meta.dice == spec and head_fold.meta.spec_seq == at_fold.meta.spec_seq
                )
                if not (same_spec and head_fold.meta.revealed) and not at_fold.meta.revealed:
                    raise InputError(
                        f"game {game}'s dice seed has not been revealed; a fork with the same dice would "
                        "let anyone compute its coming rolls (reveal it first, or fork with --dice new)",
                        "input/seed_not_revealed",
                    )
                seed = self.store.secret(game)
        elif spec.mode == "auto":
            seed = self._seeds()
            new_spec = DiceSpec(
                mode="auto", stream=new_id, salt=spec.salt, commitment=commitment_of(seed)
            )
        else:
            new_spec = DiceSpec(mode="manual", stream=new_id, salt=spec.salt)
        event = GameForked(game=new_id, parent=game, at=at, dice=new_spec)
        info = GameInfo(game=new_id, ruleset=loaded.info.ruleset, parent=game, fork_at=at)
        try:
            self.store.create_game(info, [self._pending(loaded.codec, event)])
        except ConflictError:
            raise InputError(
                f"game {new_id} already exists; choose another --game", "input/game_exists"
            ) from None
        if seed is not None:
            self.store.put_secret(new_id, seed)
        return new_id

    # ------------------------------------------------------------------ exchanging

    def import_records(self, records: Sequence[Record], game: str | None = None) -> str:
        """Import an exported log as a new game; IntegrityError (exit 4) if its chain is broken
        or an event is not one of its ruleset's, InputError if the id is taken."""
        findings = Auditor(self._rulesets, rules=False).feed(records)
        if findings:
            more = (
                f" (and {len(findings) - 1} more; `warlog audit FILE` lists them)"
                if len(findings) > 1
                else ""
            )
            raise IntegrityError(
                f"refusing a broken log: {findings[0].line()}{more}", "import/broken_log"
            )
        created = msgspec.json.decode(records[0].data)
        game = check_game_id(game or str(created.get("game", "")))
        info = GameInfo(game=game, ruleset=str(created["ruleset"]))
        try:
            self.store.create_game(info, [Pending(r.type, r.data, r.at) for r in records])
        except ConflictError:
            raise InputError(
                f"game {game} already exists; import with --game NEWID", "input/game_exists"
            ) from None
        return game

    # ------------------------------------------------------------------ reading

    def head(self, game: str) -> tuple[int, str]:
        return self.store.head(game)

    def records(self, game: str, from_seq: int = 1, to_seq: int | None = None) -> Iterator[Record]:
        self.loaded(game)
        return self.store.read(game, from_seq, to_seq)

    def replay_agrees(self, game: str) -> bool:
        """True when the state folded afresh from every record (no snapshot, no cache) is the
        live state, byte for byte."""
        loaded = self.loaded(game)
        replayed = self.fold_records(loaded.ruleset, self.store.read(game))
        live = self.folded(game).state
        return msgspec.msgpack.encode(replayed.state) == msgspec.msgpack.encode(live)

    def records_as(
        self, game: str, player: str | None, from_seq: int = 1, to_seq: int | None = None
    ) -> Iterator[Record]:
        """The records ``from_seq``..``to_seq`` as ``player`` may see them (None: the referee's
        full record). InputError for an unknown player."""
        loaded = self.loaded(game)
        records = self.store.read(game, from_seq, to_seq)
        if player is None:
            return records
        loaded.ruleset.check_player(self.folded(game).state, player)
        return as_seen_by(loaded.ruleset, loaded.codec, records, player)

    def replay(
        self, game: str, from_seq: int = 1, to_seq: int | None = None
    ) -> Iterator[dict[str, Any]]:
        """Each event from ``from_seq`` with its explanation and what it changed (the referee's
        view)."""
        loaded = self.loaded(game)
        state = self.state(game, from_seq - 1) if from_seq > 1 else None
        records = self.store.read(game, from_seq, to_seq)
        return replay_steps(loaded.ruleset, loaded.codec, state, records)

    def explain(self, game: str, seq: int) -> dict[str, Any]:
        """Why event ``seq`` happened: its batch, the command, the dice, the rule."""
        from warlog.arbiter.explain import explain_event

        return explain_event(self, game, seq)

    def events_view(self, game: str, player: str | None = None) -> EventsView:
        """The in-game Events view of the whole game (``player``: that empire's tab only is
        asked for; InputError if it is not one of the game's)."""
        loaded = self.loaded(game)
        if player is not None:
            loaded.ruleset.check_player(self.folded(game).state, player)
        return EventsView(loaded.ruleset).feed(self.store.read(game))

    def audit(
        self, game: str, from_seq: int = 1, progress: Callable[[int], None] | None = None
    ) -> Auditor:
        """Audit the stored game (chain, rules from ``from_seq``, revealed dice); the Auditor
        holds the findings (it never reads snapshots). ``progress`` is told how many events
        have been checked, every few thousand."""
        self.loaded(game)
        return audit_records(counted(self.store.read(game), progress), self._rulesets, from_seq)

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
            "over": bool(loaded.ruleset.is_terminal(folded.state)),
            "as": player,
            "state": loaded.ruleset.view(folded.state, player),
        }


def counted(records: Iterable[Record], progress: Callable[[int], None] | None) -> Iterator[Record]:
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
