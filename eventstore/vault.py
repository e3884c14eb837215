"""The vault: what the arbiter keeps beside the log and never in it.

- **keys**: each game's secret seed (dice and seals), found by its public commitment;
- **openings**: the clear ``data`` of every event that holds sealed values, found by the event's
  hash, with the player entitled to each sealed path (the rules fold the clear form; players
  receive the chained form with their own values opened);
- **snapshots**: cached states (they hold hidden values), each under a MAC with the vault's own
  key, so that a doctored snapshot is never used;
- **seat tokens**: for each token a front end hands a player (the arbiter server's bearer
  tokens), the game and seat it acts for and a digest of its secret part, never the token itself.

The events database can be handed to every player; the vault (for SQLite, the key file beside
the database, readable by its owner only) never. Everything here is written *before* the events
it serves, so a crash leaves at most an unused key or opening, never an event without its key.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Sequence
from typing import Any, Protocol

import msgspec
import msgspec.json

from warlog.domain.core.errors import ConflictError, StoreError
from warlog.eventstore.lineage import Segment


class Opening(msgspec.Struct, frozen=True):
    """The clear form of one sealed event: ``hash`` is the event's chain hash; ``owners`` maps
    each sealed path to the one player entitled to it (None: no player)."""

    hash: str
    game: str
    seq: int
    clear: str
    owners: dict[str, str | None]


class SeatToken(msgspec.Struct, frozen=True):
    """What the vault keeps of one player's token: ``id`` (the token's public part, by which it
    is found), the ``game`` and ``seat`` (player) it acts for, and ``digest``, the sha256 (hex)
    of its secret part. The token itself is never kept."""

    id: str
    game: str
    seat: str
    digest: str


class Vault(Protocol):
    def available(self) -> bool:
        """True when the vault can be read (a key file that exists)."""
        ...

    def put_key(self, commitment: str, seed: bytes, game: str) -> None:
        """Keep ``seed`` under its ``commitment`` (sha256 of the seed, hex)."""
        ...

    def key(self, commitment: str) -> bytes | None:
        """The seed committed to as ``commitment``, or None if this vault does not hold it."""
        ...

    def put_openings(self, openings: Sequence[Opening]) -> None:
        """Keep the clear forms of sealed events (before the events are appended)."""
        ...

    def discard(self, commitment: str | None, hashes: Sequence[str]) -> None:
        """Forget the key ``commitment`` (None: no key) and the openings ``hashes``, put for a
        game whose creation the store then refused: the caller names only what it put itself
        and nothing else held."""
        ...

    def opening(self, hash_: str) -> Opening | None:
        """The clear form of the sealed event whose chain hash is ``hash_``, or None."""
        ...

    def clears(self, hashes: Sequence[str]) -> dict[str, str]:
        """hash -> clear ``data`` of those of the sealed events ``hashes`` the vault holds (a
        fold opens a stretch of the log in one lookup)."""
        ...

    def clears_between(self, game: str, lo: int, hi: int) -> dict[str, str]:
        """hash -> clear ``data`` of the openings the vault holds for events ``lo``..``hi``
        stored under ``game``, read as one range (a fold opens a stretch of the log: the caller
        matches them to its rows by hash and looks up any it misses with ``clears``)."""
        ...

    def openings(self, hashes: Sequence[str]) -> dict[str, Opening]:
        """hash -> opening of those of the sealed events ``hashes`` the vault holds (the audit
        opens a stretch of the log in one lookup)."""
        ...

    def put_snapshot(self, owner: str, seq: int, version: str, state: bytes) -> None:
        """Cache ``state`` after event ``seq`` of game ``owner`` (the game storing that event)."""
        ...

    def latest_snapshot(
        self, segments: Sequence[Segment], seq: int, version: str
    ) -> tuple[int, bytes] | None:
        """``(seq, state)`` of the newest intact ``version`` snapshot at or before ``seq`` on the
        lineage ``segments``; a snapshot whose MAC does not check is passed over."""
        ...

    def put_tokens(self, tokens: Sequence[SeatToken]) -> None:
        """Keep the seat tokens issued for a game (all or none). ConflictError if one of their
        ids is taken: a token is never replaced."""
        ...

    def token(self, id_: str) -> SeatToken | None:
        """The seat token whose public part is ``id_``, or None."""
        ...


def opening_row(row: Sequence[Any], where: str) -> Opening:
    """The opening a vault's row ``(hash, game, seq, clear, owners)`` holds, its owners read
    from their JSON; StoreError ``store/corrupt`` naming the event when they cannot be read."""
    hash_, game, seq, clear, owners = row
    if type(seq) is not int:
        raise StoreError(
            f"{where} is damaged: an opening of game {game} holds seq {seq!r:.40}, not an "
            "event's; restore it from a backup",
            "store/corrupt",
        )
    try:
        return Opening(hash_, game, seq, clear, _OWNERS.decode(owners))
    except (msgspec.DecodeError, ValueError, TypeError):
        raise StoreError(
            f"{where} is damaged: the opening of event {seq} of game {game} names its players "
            "unreadably; restore it from a backup",
            "store/corrupt",
        ) from None


_OWNERS = msgspec.json.Decoder(dict[str, str | None])


def named(vault: object) -> str:
    """How a message names ``vault``: ``the key file PATH`` for an SQLite key file."""
    return str(getattr(vault, "where", "the vault"))


def damaged_opening(where: str, game: str, seq: int, wrong: str) -> StoreError:
    """StoreError ``store/corrupt`` for the vault ``where`` whose opening of event ``seq`` of
    ``game`` is ``wrong`` (what is wrong with it: never its text, which may hold a sealed
    value the reader of the error may not see)."""
    of_game = f" of game {game}" if game else ""
    return StoreError(
        f"{where} is damaged: the opening of event {seq}{of_game} {wrong}; restore it from a "
        "backup",
        "store/corrupt",
    )


def checked_seed(commitment: str, seed: bytes | None, where: str) -> bytes | None:
    """``seed`` as the vault ``where`` holds it under ``commitment``, checked to be the seed
    committed to (its sha256): a damaged key would roll other dice and make seals that never
    open, so it is refused (StoreError ``store/corrupt``) before anything uses it."""
    if seed is not None and hashlib.sha256(seed).hexdigest() != commitment:
        raise StoreError(
            f"{where} is damaged: the key it holds for commitment {commitment[:16]}… is not the "
            "seed committed to; restore it from a backup",
            "store/corrupt",
        )
    return seed


def mac_key(meta: dict[str, str], where: str) -> bytes:
    """The key of the snapshots' MACs that the vault ``where`` keeps among its ``meta`` rows;
    StoreError ``store/corrupt`` naming the vault when it is missing or not hex: every command
    reads snapshots under it, and a new one would pass over every snapshot kept (a key that
    went missing is a damaged vault, to be restored, not quietly replaced)."""
    found = meta.get("snapshot_mac_key")
    if not isinstance(found, str):
        wrong = "holds no snapshot_mac_key"
    else:
        try:
            key = bytes.fromhex(found)
        except ValueError:
            key = b""
        if key:
            return key
        wrong = "holds a snapshot_mac_key that is not a key in hex"
    raise StoreError(
        f"{where} is damaged: its meta table {wrong}; restore it from a backup", "store/corrupt"
    )


def snapshot_mac(key: bytes, owner: str, seq: int, version: str, state: bytes) -> bytes:
    """The MAC that vouches a snapshot was written by this vault for this game, seq and rules."""
    head = f"{owner}\n{seq}\n{version}\n".encode()
    return hmac.new(key, head + state, hashlib.sha256).digest()


class MemoryVault:
    """A Vault in process memory (tests, the demo's in-memory games, audits of files)."""

    where = "the vault"

    def __init__(self) -> None:
        self._keys: dict[str, bytes] = {}
        self._openings: dict[str, Opening] = {}
        self._at: dict[tuple[str, int], set[str]] = {}  # (game, seq) -> hashes of its openings
        self._snapshots: dict[tuple[str, str], dict[int, tuple[bytes, bytes]]] = {}
        self._tokens: dict[str, SeatToken] = {}
        self._mac_key = os.urandom(32)

    def available(self) -> bool:
        return True

    def copy(self) -> MemoryVault:
        """A vault holding what this one holds (keys, openings, snapshots, under the same MAC
        key, seat tokens), which the two go on adding to apart."""
        other = MemoryVault()
        other._keys = dict(self._keys)
        other._openings = dict(self._openings)
        other._at = {k: set(v) for k, v in self._at.items()}
        other._snapshots = {k: dict(v) for k, v in self._snapshots.items()}
        other._tokens = dict(self._tokens)
        other._mac_key = self._mac_key
        return other

    def put_key(self, commitment: str, seed: bytes, game: str) -> None:
        self._keys.setdefault(commitment, bytes(seed))

    def key(self, commitment: str) -> bytes | None:
        return checked_seed(commitment, self._keys.get(commitment), "the vault")

    def discard(self, commitment: str | None, hashes: Sequence[str]) -> None:
        if commitment is not None:
            self._keys.pop(commitment, None)
        for hash_ in hashes:
            old = self._openings.pop(hash_, None)
            if old is not None:
                self._at[old.game, old.seq].discard(hash_)

    def put_openings(self, openings: Sequence[Opening]) -> None:
        for opening in openings:
            old = self._openings.get(opening.hash)
            if old is not None:
                self._at[old.game, old.seq].discard(old.hash)
            self._openings[opening.hash] = opening
            self._at.setdefault((opening.game, opening.seq), set()).add(opening.hash)

    def opening(self, hash_: str) -> Opening | None:
        return self._openings.get(hash_)

    def clears(self, hashes: Sequence[str]) -> dict[str, str]:
        openings = self._openings
        return {h: openings[h].clear for h in hashes if h in openings}

    def clears_between(self, game: str, lo: int, hi: int) -> dict[str, str]:
        openings, at = self._openings, self._at
        return {h: openings[h].clear for seq in range(lo, hi + 1) for h in at.get((game, seq), ())}

    def openings(self, hashes: Sequence[str]) -> dict[str, Opening]:
        held = self._openings
        return {h: held[h] for h in hashes if h in held}

    def put_snapshot(self, owner: str, seq: int, version: str, state: bytes) -> None:
        mac = snapshot_mac(self._mac_key, owner, seq, version, bytes(state))
        self._snapshots.setdefault((owner, version), {})[seq] = (bytes(state), mac)

    def latest_snapshot(
        self, segments: Sequence[Segment], seq: int, version: str
    ) -> tuple[int, bytes] | None:
        for owner, lo, hi in reversed(segments):
            top = seq if hi is None else min(seq, hi)
            found = self._snapshots.get((owner, version), {})
            for at in sorted((s for s in found if lo <= s <= top), reverse=True):
                state, mac = found[at]
                if hmac.compare_digest(mac, snapshot_mac(self._mac_key, owner, at, version, state)):
                    return at, state
        return None

    def put_tokens(self, tokens: Sequence[SeatToken]) -> None:
        taken = [t.id for t in tokens if t.id in self._tokens]
        if taken or len({t.id for t in tokens}) < len(tokens):
            raise ConflictError("a seat token id is taken", "store/token_taken")
        for token in tokens:
            self._tokens[token.id] = token

    def token(self, id_: str) -> SeatToken | None:
        return self._tokens.get(id_)
