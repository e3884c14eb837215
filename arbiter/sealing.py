"""Sealed values in the application: a batch's rows in their chained form with their openings,
the clear form of stored rows for the fold, and the form of the log each reader may see.

What is secret is marked by the rules (``domain.core.seal.Hidden``); this module applies the
marks with the game's key, which only the vault holds. The chain covers the chained form, so a
log handed to every player hides every sealed value, and a receipt (``seq hash``) says nothing of
them either.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice
from typing import Any, NamedTuple

import msgspec

from warlog.arbiter.meta import GameMeta, evolve_meta
from warlog.domain.core.errors import IntegrityError, StoreError, WarlogError
from warlog.domain.core.events import CommandIssued, Event, GameCreated
from warlog.domain.core.ruleset import AnyRuleset, Command
from warlog.domain.core.seal import (
    Sealer,
    Secret,
    compact,
    recorded_with,
    salts_for,
    secrets_of,
)
from warlog.eventstore.chain import link
from warlog.eventstore.codec import ClearForms, Codec, damaged_row
from warlog.eventstore.lineage import Segment, not_text, read_parts
from warlog.eventstore.records import Pending, Record
from warlog.eventstore.vault import Opening, Vault, damaged_opening, named

#: the core events that change which key and derivation seq seal the events after them
_LINEAGE_TAGS = frozenset({"game_created", "game_forked", "dice_revealed"})


#: what only a row holding a seal has in its data (a key ``"sealed"`` can only be a seal: a
#: string holding those characters is written with escaped quotes)
SEAL_MARK = '"sealed":'


class DamagedLineage(StoreError):
    """A lineage event of the log (``game_created``, ``game_forked``, ``dice_revealed``) whose
    stored data is no such event: the log is damaged (store/corrupt)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, "store/corrupt")


def has_seals(data: str) -> bool:
    """True when a row's data holds a seal."""
    return SEAL_MARK in data


def sealing_version(ruleset: AnyRuleset) -> int | None:
    """The version a game of ``ruleset`` seals by (``Hidden.since``): its version number (None,
    the newest marks, for a version that is not a number)."""
    return int(ruleset.version) if ruleset.version.isdigit() else None


def event_secrets(
    event: Event,
    command: Command | None = None,
    setup: Sequence[Secret] = (),
    version: int | None = None,
) -> list[Secret]:
    """The secrets of an event in a game of its ruleset's ``version`` (``sealing_version``;
    None: the newest): its marked fields; for ``command_issued`` the marked fields of the
    command it records; for ``game_created`` the ruleset's hidden set-up (``setup``, paths
    inside the scenario)."""
    if isinstance(event, CommandIssued):
        found = [] if command is None else secrets_of(command, "command.", version)
        if "dice" in event.command and ("command.dice", None) not in found:
            found.append(("command.dice", None))  # no faces typed is sealed too: see below
        return found
    if isinstance(event, GameCreated):
        return [(f"scenario.{path}", owner) for path, owner in setup]
    return secrets_of(event, version=version)


def recorded_command(
    command: Command, manual_dice: bool, version: int | None = None
) -> dict[str, Any]:
    """The command as ``command_issued`` records it in a game of ``version``
    (``sealing_version``; None: the newest). In a manual-dice game its ``dice`` are always
    recorded, sealed, even when the referee typed none: whether a command rolled dice at all can
    depend on what a player may not see (a stealthed army ending its move in sight), so an
    absent field would tell it (log-format.md, "Manual dice"). Likewise a sealed field the rules
    keep present at its default (``Hidden.present_since``: a hunt's ``target`` left out)."""
    recorded = recorded_with(command, version)
    if manual_dice:
        recorded.setdefault("dice", [])
    return recorded


def seal_batch(
    codec: Codec,
    game: str,
    events: Sequence[Event],
    secrets: Sequence[Sequence[Secret]],
    sealer: Sealer,
    meta_of: Callable[[int], GameMeta],
    first_seq: int,
    prev: str,
    at: str,
) -> tuple[list[Pending], list[Opening]]:
    """The rows to append for ``events`` (their chained form) and the openings of those that
    hold secrets. ``meta_of(seq)`` is the meta in force for the event at ``seq``; ``prev`` the
    hash before ``first_seq`` (the openings are keyed by the hash each row will have)."""
    rows: list[Pending] = []
    openings: list[Opening] = []
    seq = first_seq - 1
    for event, found in zip(events, secrets, strict=True):
        seq += 1
        type_, clear = codec.encode(event)
        data = clear
        if found:
            chained = sealer.chained(json.loads(clear), found, meta_of(seq).derivation_seq(seq))
            data = compact(chained)
        hash_ = link(prev, seq, type_, at, data)
        if found:
            openings.append(Opening(hash_, game, seq, clear, dict(found)))
        rows.append(Pending(type_, data, at))
        prev = hash_
    return rows, openings


def key_in_force(vault: Vault, meta: GameMeta, game: str) -> bytes:
    """The game's key in force (its dice and seals; ``meta``: the game's at the point asked
    about); StoreError if ``vault`` does not hold it."""
    key = vault.key(meta.dice.commitment or "")
    if key is None:
        raise StoreError(
            f"this arbiter does not hold the key of game {game} (imported, or its key file "
            "is another's); fork it with --dice new to play on",
            "store/no_seed",
        )
    return key


class Opener:
    """The clear form of stored rows, from the vault: what the rules fold.

    ``lineage``: the segments holding the game's events (``Store.lineage``); the openings of a
    stretch of rows are then read as one range per segment, by the game that stores them, and
    only those the range misses (an opening kept under another game) are looked up by hash.
    Without it, every sealed row is looked up by hash."""

    def __init__(self, vault: Vault, game: str, lineage: Sequence[Segment] = ()) -> None:
        self._vault = vault
        self._game = game
        self._lineage = list(lineage)

    def clears(self, rows: Sequence[tuple[int, str, str, str]]) -> list[str]:
        """The clear data of each ``(seq, type, data, hash)`` row, the sealed ones found in the
        vault in one read (a ``ClearForms`` then, which names the vault they came from);
        StoreError if it does not hold one, or (``store/corrupt``) for a row whose data is
        not text."""
        datas = [row[2] for row in rows]
        try:
            sealed = [i for i, data in enumerate(datas) if SEAL_MARK in data]
        except TypeError:  # bytes (a BLOB) where the log holds text: found only if it happens
            raise self._not_text(rows) from None
        if not sealed:
            return datas
        found = self._found([rows[i] for i in sealed])
        opened = ClearForms(datas)
        for i in sealed:
            clear = found.get(rows[i][3])
            if clear is None:
                raise self._not_held(rows[i][0])
            opened[i] = clear
        opened.opened = frozenset(sealed)
        opened.where = named(self._vault)
        return opened

    def _not_text(self, rows: Sequence[tuple[int, str, str, str]]) -> StoreError:
        seq, type_, data, _ = next(row for row in rows if not isinstance(row[2], str))
        return not_text(self._game, seq, type_, "data", data)

    def _found(self, sealed: Sequence[tuple[int, str, str, str]]) -> dict[str, str]:
        """hash -> clear data of the ``sealed`` rows the vault holds (and maybe of others of
        their stretch)."""
        vault = self._vault
        if not self._lineage:
            return vault.clears([row[3] for row in sealed])
        found: dict[str, str] = {}
        seqs = [row[0] for row in sealed]
        for owner, lo, hi in read_parts(self._lineage, min(seqs), max(seqs)):
            found.update(vault.clears_between(owner, lo, hi))
        missed = [row[3] for row in sealed if row[3] not in found]
        if missed:
            found.update(vault.clears(missed))
        return found

    def _not_held(self, seq: int) -> StoreError:
        return StoreError(
            f"the key file holds no clear form of event {seq} of game {self._game}: its "
            "sealed values cannot be opened here (a log imported before its reveal?)",
            "store/sealed",
        )


class Opened(NamedTuple):
    """A stored record (its chained form) beside what the vault opens of it: its clear ``data``
    and the salt of each sealed path the vault holds a value for (none for a record without
    seals). The referee's read for the audit, which checks each opening against its seal, without
    writing the opened form out and parsing it again."""

    record: Record
    clear: str
    salts: dict[str, str]
    #: what the salts are derived from: ``salt_for(key, stream, seq, path)`` for each path, as
    #: ``(key, stream, seq)``; None when not told (the audit derives them again at the reveal)
    derived: tuple[bytes, str, int] | None = None
    #: the player the vault gives each sealed path to (None for a record without seals)
    owners: dict[str, str | None] | None = None
    #: for a sealed record the vault holds no opening of: what is missing (the audit's finding)
    missing: str = ""


#: records whose sealed values are looked up in the vault at once
CHUNK = 256


#: who reads: a player's name, or one of these
REFEREE = "\0referee"  # every value opened (the arbiter's own record)
PUBLIC = "\0public"  # only what every player may see (an export before the reveal)


class Forms:
    """Stored records in the form one reader may see (the contract's "Hidden information in the
    log"): every seal the reader is entitled to, or every seal of a revealed seed, opened with
    its value and salt; every other seal left as ``{"sealed": H}``."""

    def __init__(
        self,
        vault: Vault,
        codec: Codec,
        reader: str,
        opened: Iterable[str],
        meta: GameMeta | None = None,
    ) -> None:
        """``opened``: the commitments of the seeds revealed in the game's lineage; ``meta``:
        the meta in force before the first record that will be read (None from seq 1)."""
        self._vault = vault
        self._codec = codec
        self._reader = reader
        self._opened = frozenset(opened)
        self._meta = meta

    def form(self, record: Record) -> Record:
        """``record`` as the reader may see it."""
        if record.type in _LINEAGE_TAGS:
            self._meta = evolve_meta(self._meta, record.seq, self._lineage(record))
        try:
            sealed = has_seals(record.data)
        except TypeError:  # bytes (a BLOB) where the log holds text
            raise self._not_text(record) from None
        if type(record.at) is not str:  # what a reader writes out as text
            raise self._not_text(record)
        if not sealed:
            return self._json(record)
        meta = self._in_force(record)
        revealed = (meta.dice.commitment or "") in self._opened
        if self._reader == PUBLIC and not revealed:
            return self._json(record)
        opening = self._vault.opening(record.hash)
        key = self._vault.key(self._commitment(record, meta))
        if opening is None or key is None:
            raise StoreError(
                f"the key file cannot open event {record.seq}: its sealed values stay sealed",
                "store/sealed",
            )
        if revealed or self._reader == REFEREE:
            paths: list[str] = list(opening.owners)
        else:
            paths = [path for path, owner in opening.owners.items() if owner == self._reader]
        if not paths:
            return record
        sealer = Sealer(key, meta.dice.stream)
        data = self._open(record, opening, sealer, paths, meta.derivation_seq(record.seq))
        return Record(record.seq, record.type, data, record.at, record.prev, record.hash)

    def _open(
        self, record: Record, opening: Opening, sealer: Sealer, paths: list[str], seq: int
    ) -> str:
        """The data of ``record`` with its seals at ``paths`` opened from ``opening``.
        StoreError (``store/corrupt``) naming the vault and the event when its clear form is
        not JSON or does not fit the event, naming the event when the log's data is not JSON
        (what is wrong, never the text: it may hold a value sealed from this reader)."""
        where = named(self._vault)
        try:
            clear = json.loads(opening.clear)
        except (ValueError, TypeError):
            raise damaged_opening(where, opening.game, record.seq, "is not JSON") from None
        try:
            chained = json.loads(record.data)
        except ValueError:
            raise damaged_row(opening.game, record.seq, record.type, "not JSON") from None
        try:
            opened = sealer.opened(chained, clear, paths, seq)
        except (LookupError, TypeError, AttributeError):  # a path missing, or not a seal
            raise damaged_opening(
                where,
                opening.game,
                record.seq,
                "does not fit the event (a value missing, or a seal the event does not hold)",
            ) from None
        return compact(opened)

    def _json(self, record: Record) -> Record:
        """``record``, given as stored, once its data is known to be JSON: a row the fold does
        not read (a command, a roll) or a sealed one passed on unopened is checked nowhere else,
        and a reader writes it out as JSON (an export, the live feed); store/corrupt if not."""
        try:
            msgspec.json.decode(record.data, type=msgspec.Raw)
        except msgspec.DecodeError:
            game = self._meta.game if self._meta is not None else ""
            raise damaged_row(game, record.seq, record.type, "not JSON") from None
        return record

    def _commitment(self, record: Record, meta: GameMeta) -> str:
        """The dice commitment whose key opens sealed ``record``; DamagedLineage when the game
        in force names none (every game that seals a value commits to its key at creation, so
        the log was edited, not the key file)."""
        if not meta.dice.commitment:
            raise DamagedLineage(
                f"event {record.seq} ({record.type}) holds sealed values, but the game in force "
                "commits to no key: the log is damaged; `warlog audit` lists what is wrong"
            )
        return meta.dice.commitment

    def _in_force(self, record: Record) -> GameMeta:
        """The game's meta in force at sealed ``record``; DamagedLineage when no
        ``game_created`` comes before it (a log whose first row was edited)."""
        if self._meta is None:
            raise DamagedLineage(
                f"event {record.seq} ({record.type}) holds sealed values, but no game_created "
                "comes before it: the log is damaged; `warlog audit` lists what is wrong"
            )
        return self._meta

    def _not_text(self, record: Record, meta: GameMeta | None = None) -> StoreError:
        """StoreError (``store/corrupt``) for ``record``, whose data or at is not text, named
        by the game that stores it (``meta``'s, else the one in force)."""
        meta = meta or self._meta
        if meta is None and record.type == "game_created":  # msgspec reads bytes too
            with contextlib.suppress(WarlogError):
                meta = evolve_meta(None, 1, self._codec.decode(record.type, record.data))
        column, value = ("data", record.data) if type(record.data) is not str else ("at", record.at)
        return not_text(meta.game if meta else "", record.seq, record.type, column, value)

    def _not_text_in(self, chunk: Sequence[Record]) -> StoreError:
        """``_not_text`` for the first record of ``chunk`` whose data or at is not text (the
        lineage events before it in the chunk say which game stores it)."""
        meta = self._meta
        for record in chunk:
            if type(record.data) is not str or type(record.at) is not str:
                return self._not_text(record, meta)
            if record.type in _LINEAGE_TAGS:
                meta = evolve_meta(meta, record.seq, self._lineage(record))
        raise AssertionError("a chunk whose data and at are all text")

    def _lineage(self, record: Record) -> Event:
        """The lineage event (``game_created``, ``game_forked``, ``dice_revealed``) ``record``
        holds; DamagedLineage when its stored data is none (a damaged log: one line where it is
        read, a finding in the audit, which then reads the log as chained)."""
        try:
            return self._codec.decode(record.type, record.data)
        except IntegrityError as exc:
            where = f"event {record.seq} ({record.type})"
            if self._meta is not None:
                where = f"game {self._meta.game}, {where}"
            raise DamagedLineage(
                f"{where} does not decode ({exc.message}): the log is damaged; `warlog audit` "
                "lists what is wrong"
            ) from None

    def forms(self, records: Iterable[Record]) -> Iterator[Record]:
        return (self.form(r) for r in records)

    def opened(self, records: Iterable[Record]) -> Iterator[Opened]:
        """Every record with every sealed value the vault holds (the referee's read, what
        ``form`` opens for ``REFEREE``), as ``Opened``; StoreError as ``form``."""
        vault = self._vault
        keys: dict[str, bytes | None] = {}
        it = iter(records)
        while chunk := list(islice(it, CHUNK)):
            try:
                sealed = [has_seals(r.data) for r in chunk]
            except TypeError:  # bytes (a BLOB) where the log holds text
                raise self._not_text_in(chunk) from None
            if not all(type(r.at) is str for r in chunk):  # what the audit reads as text
                raise self._not_text_in(chunk)
            held = vault.openings([r.hash for r, s in zip(chunk, sealed, strict=True) if s])
            for record, has in zip(chunk, sealed, strict=True):
                if record.type in _LINEAGE_TAGS:
                    self._meta = evolve_meta(self._meta, record.seq, self._lineage(record))
                if not has:
                    yield Opened(record, record.data, {})
                    continue
                meta = self._in_force(record)
                commitment = self._commitment(record, meta)
                if commitment not in keys:
                    keys[commitment] = vault.key(commitment)
                opening, key = held.get(record.hash), keys[commitment]
                if key is None:
                    raise StoreError(
                        f"the key file holds no key for the commitment {commitment[:16]}… in "
                        f"force at event {record.seq}: it is another game's key file, or "
                        "damaged; the sealed values stay sealed",
                        "store/sealed",
                    )
                if opening is None:
                    yield Opened(
                        record, record.data, {}, missing="the key file holds no opening of it"
                    )
                    continue
                seq, stream = meta.derivation_seq(record.seq), meta.dice.stream
                salts = salts_for(key, stream, seq, opening.owners)
                yield Opened(record, opening.clear, salts, (key, stream, seq), opening.owners)
