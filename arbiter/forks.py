"""Forks: a game branched at a batch end, and the games that share hidden history.

A fork shares its parent's events up to the cut, the hands and draws before it included, so the
games of one family (a parent, its forks, theirs) keep one another's secrets until the seeds of
their common ancestors are public. So does a game imported from an export of another (a
referee's ``--open`` record, imported to the same database): its log holds the same keys, with
no lineage in the catalogue. Two games share hidden history when a key in force at some point
of both logs is not public yet.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, NamedTuple

import msgspec

from warlog.arbiter.creating import Unheld, creating, new_id, unheld
from warlog.arbiter.fold import Folded
from warlog.arbiter.ids import check_game_id
from warlog.arbiter.meta import evolve_meta
from warlog.arbiter.sealing import key_in_force
from warlog.domain.core.dice import DiceSpec, commitment_of
from warlog.domain.core.errors import InputError, StoreError, WarlogError
from warlog.domain.core.events import BATCH_STARTS, GameForked
from warlog.eventstore.records import GameInfo, Pending
from warlog.eventstore.store import Store

if TYPE_CHECKING:
    from warlog.arbiter.application import Arbiter


def batch_ends_near(store: Store, game: str, seq: int) -> tuple[int | None, int | None]:
    """The nearest batch ends at or before and after ``seq``."""
    head, _ = store.head(game)
    before = after = None
    lo = max(1, seq - 4096)
    for record in store.read(game, lo, min(head, seq + 4096)):
        if record.type in BATCH_STARTS and record.seq > 1:
            end = record.seq - 1
            if end <= seq:
                before = end
            elif after is None:
                after = end
    if after is None and head > seq:
        after = head
    return before, after


def fork_game(
    arb: Arbiter,
    game: str,
    at: int,
    *,
    new_game: str | None,
    dice: str,
    seeds: Callable[[], bytes],
    clock: Callable[[], str],
) -> str:
    """Branch a new game from event ``at`` of ``game`` (``Arbiter.fork``); returns the new id.
    InputError for a cut inside a batch or outside the game, a bad ``dice`` choice, or the
    same dice before their seed is revealed."""
    loaded = arb.loaded(game)
    head, _ = arb.store.head(game)
    if not 1 <= at <= head:
        raise InputError(f"game {game} has events 1..{head}; cannot fork at {at}", "input/bad_seq")
    if at < head:
        following = arb.record_at(game, at + 1)
        if following.type not in BATCH_STARTS:
            before, after = batch_ends_near(arb.store, game, at)
            ends = " or ".join(str(s) for s in (before, after) if s is not None)
            raise InputError(
                f"seq {at} is inside a command's batch; fork at a batch end ({ends})",
                "input/inside_batch",
            )
    if dice not in ("new", "same"):
        raise InputError(f"--dice must be 'new' or 'same', not {dice!r}", "input/bad_dice_choice")
    at_cut = arb.folded(game, at)
    cut = at_cut.meta
    spec = cut.dice
    fork_id = check_game_id(new_game) if new_game is not None else new_id(loaded.ruleset)
    new_spec: DiceSpec | None = None
    key: bytes | None = None
    kept: str | None = None
    if dice == "same":
        if (spec.commitment or "") not in arb.folded(game).meta.opened:
            raise InputError(
                f"game {game}'s seed in force at seq {at} has not been revealed; a fork with "
                "the same dice would let anyone compute its coming rolls and open its seals "
                "(reveal it first, or fork with --dice new)",
                "input/seed_not_revealed",
            )
        kept = key_in_force(arb.vault, cut, game).hex()
    else:
        key = seeds()
        new_spec = DiceSpec(
            mode=spec.mode, stream=fork_id, salt=spec.salt, commitment=commitment_of(key)
        )
    event = GameForked(game=fork_id, parent=game, at=at, dice=new_spec, seed=kept)
    info = GameInfo(game=fork_id, ruleset=loaded.info.ruleset, parent=game, fork_at=at)
    not_held: Unheld = (None, [])
    if key is not None:
        not_held = unheld(arb.vault, commitment_of(key), [])
        arb.vault.put_key(commitment_of(key), key, fork_id)
    type_, data = loaded.codec.encode(event)
    with creating(arb.vault, fork_id, not_held):
        (forked,) = arb.store.create_game(info, [Pending(type_, data, clock())])
    meta = evolve_meta(cut, forked.seq, event)
    assert meta is not None
    arb.states.hold(fork_id, Folded(forked.seq, forked.hash, meta, at_cut.state))
    return fork_id


def live_relatives(arb: Arbiter, game: str) -> list[str]:
    """The other games still being played that share hidden history with ``game``, sorted
    (``Arbiter.live_relatives``; ``live_sharers`` tells its family from the others)."""
    live = live_sharers(arb, game)
    return sorted(live.family + live.keyed)


class LiveSharers(NamedTuple):
    """The other games still being played that share a key not yet public with a game, each
    list sorted: ``family``, its relatives by lineage (its parent, its forks, theirs: the
    history before a cut is theirs too), and ``keyed``, the others (a game imported from an
    export of it, or of a relative, holds the same key)."""

    family: list[str]
    keyed: list[str]


class _Dice(msgspec.Struct):
    commitment: str | None = None


class _Lineage(msgspec.Struct):
    """What is read of a ``game_created`` or ``game_forked`` here: its dice (the rest, a whole
    scenario in ``game_created``, is skipped unread)."""

    dice: _Dice | None = None


_LINEAGE = msgspec.json.Decoder(_Lineage)

#: the events that put a key in force (ARCHITECTURE.md, dice): a game's creation and a fork
#: that commits anew; a fork that keeps its parent's dice brings none
_KEY_EVENTS = frozenset({"game_created", "game_forked"})

#: ``(seq, commitment)`` of each event of a log that puts a key in force
_Brought = list[tuple[int, str]]


def live_sharers(arb: Arbiter, game: str) -> LiveSharers:
    """The other games of the database still being played that share with ``game`` a key in
    force at some point of both logs whose seed is not public yet (``Arbiter.live_relatives``):
    the values sealed under it and what follows from them (the hands, decks and draws) are the
    same in both, so revealing one, or showing what it draws, can tell the others'. Not those
    revealed, over, or playing on a public seed (a same-dice fork of a revealed game).

    The keys come from the stored lineage events (``_Keys``), never from a fold: only
    ``game`` and the games that share a key with it are folded. StoreError (store/corrupt) if
    ``game``'s parents run in a circle."""
    infos = {info.game: info for info in arb.store.games()}
    family = _family(infos, game)
    keys = _Keys(arb, infos)
    asked = _folded(arb, game)
    mine = keys.exact([game])[game]
    now = None if asked is None else asked.meta.dice.commitment
    if mine is not None and now and now not in mine:
        # a log whose first event does not bring the key it is played by (forged, or imported
        # from elsewhere with its lineage): each of its lineage events read, since a reveal
        # publishes that key
        whole = _read_keys(arb, game)
        mine = None if whole is None else frozenset(key for _, key in whole)
    sharing = keys.sharing(mine) if mine else set()
    others = sorted((family | sharing) - {game})
    theirs = keys.exact(others)
    folded = {game: asked} | {other: _folded(arb, other) for other in others}
    # the seeds already public: revealed in one of these logs, or kept by a same-dice fork (a
    # seed is revealed in a log that holds its key: every such log is here)
    public = {c for f in folded.values() if f is not None for c in f.meta.opened}
    live = LiveSharers([], [])
    for other in others:
        found, shared = folded[other], theirs[other]
        if found is not None:
            if _past_secrets(arb, other, found, public):
                continue
            if mine is not None and shared is not None and mine & shared <= public:
                continue  # what they share is told already
        (live.family if other in family else live.keyed).append(other)
    return live


def live_key_holders(arb: Arbiter, keys: Collection[str]) -> list[str]:
    """The games of the database still being played whose logs hold one of ``keys`` in force,
    its seed not public yet, sorted: a log imported beside them that holds it would roll their
    dice and open their values (``import_log`` refuses it). Not those revealed, over, or
    playing on a public seed."""
    wanted = frozenset(keys)
    infos = {info.game: info for info in arb.store.games()}
    known = _Keys(arb, infos)
    candidates = sorted(known.sharing(wanted))
    exact = known.exact(candidates)
    folded = {game: _folded(arb, game) for game in candidates}
    public = {c for f in folded.values() if f is not None for c in f.meta.opened}
    live = []
    for game in candidates:
        found, held = folded[game], exact[game]
        if held is not None and not (held & wanted) - public:
            continue  # what it holds of them is told already
        if found is not None and _past_secrets(arb, game, found, public):
            continue
        live.append(game)
    return live


def _past_secrets(arb: Arbiter, game: str, found: Folded, public: set[str]) -> bool:
    """Whether ``game`` (``found``: folded at its head) keeps no secret a reveal could tell: its
    seed revealed or already public (``public``: the seeds revealed in the logs at hand), or
    the game over."""
    if found.meta.revealed or (found.meta.dice.commitment or "") in public:
        return True
    return bool(arb.ruleset_of(game).is_terminal(found.state))


def _folded(arb: Arbiter, game: str) -> Folded | None:
    """``game`` folded at its head; None when it cannot be (its key file unreadable: it may be
    live)."""
    try:
        return arb.folded(game)
    except WarlogError:
        return None


def _family(infos: dict[str, GameInfo], game: str) -> set[str]:
    """``game``'s family by lineage: its first ancestor and every game forked from it, down
    the generations. StoreError (store/corrupt) for parents that run in a circle."""
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
    return family


def _own_start(info: GameInfo) -> int:
    """The seq of a game's first own event: 1, or a fork's after its cut."""
    return 1 if info.parent is None or info.fork_at is None else info.fork_at + 1


class _Keys:
    """The keys in force at some point of each game's log, from the stored lineage events.

    A game made here brings one key, at its first own event (``new``: its ``game_created``;
    ``fork``: its ``game_forked``, none for same dice), read with every game's in one go
    (``Store.first_rows``); a fork holds its ancestors' up to its cut too. An imported log may
    bring more (a fork's export holds its parent's ``game_created`` and its own
    ``game_forked``): a log whose first event brings another game's key too (a copy of a log
    of this database, or the game copied) has each of its lineage events read, when asked.
    Two logs of this database that share a key begin with the same key (the ``game_created``
    its family began with), so only the games whose first events share one with a game can
    share any (``sharing``). A log forged to claim another game's key in a later event breaks
    that; ``live_sharers`` reads each lineage event of the game it is asked about when the key
    that game is played by is not among those found, so that its reveal publishes no key of a
    game still being played."""

    def __init__(self, arb: Arbiter, infos: dict[str, GameInfo]) -> None:
        self._arb = arb
        self._infos = infos
        rows = arb.store.first_rows()
        self._first: dict[str, str | None] = {}
        for game, info in infos.items():
            seq, type_, data = rows.get(game, (0, "", ""))
            right = seq == _own_start(info) and type_ in _KEY_EVENTS
            self._first[game] = _key_of(data) if right else None
        counted = Counter(key for key in self._first.values() if key)
        self._copies = {
            game
            for game, key in self._first.items()
            if key and counted[key] > 1 and _own_start(infos[game]) == 1
        }
        self._read: dict[str, _Brought | None] = {}
        self._firsts = _keys_in_force(infos, self._first_only, infos)

    def sharing(self, keys: frozenset[str]) -> set[str]:
        """The games whose first events, or their ancestors' up to their cuts, bring one of
        ``keys``: the only ones that may share one."""
        return {
            game
            for game, theirs in self._firsts.items()
            if theirs is not None and not theirs.isdisjoint(keys)
        }

    def exact(self, games: list[str]) -> dict[str, frozenset[str] | None]:
        """The keys in force at some point of each of ``games``' logs (None: not all known),
        the lineage events of the copies among them and their ancestors read."""
        return _keys_in_force(self._infos, self._own, games)

    def _first_only(self, game: str) -> _Brought | None:
        key = self._first[game]
        return None if key is None else [(_own_start(self._infos[game]), key)] if key else []

    def _own(self, game: str) -> _Brought | None:
        if game not in self._copies:
            return self._first_only(game)
        if game not in self._read:
            self._read[game] = _read_keys(self._arb, game)
        return self._read[game]


def _read_keys(arb: Arbiter, game: str) -> _Brought | None:
    """The keys every lineage event of ``game``'s log puts in force (None: one cannot be read)."""
    brought: _Brought = []
    try:
        for seq, type_, data, _ in arb.store.read_rows(game):
            if type_ in _KEY_EVENTS:
                key = _key_of(data)
                if key is None:
                    return None
                if key:
                    brought.append((seq, key))
    except WarlogError:
        return None
    return brought


def _key_of(data: str) -> str | None:
    """The commitment a lineage event's ``data`` puts in force ('' for none: a same-dice fork);
    None when it is no such event."""
    try:
        dice = _LINEAGE.decode(data).dice
    except (msgspec.DecodeError, TypeError):
        return None
    return "" if dice is None else dice.commitment or ""


def _keys_in_force(
    infos: dict[str, GameInfo],
    own: Callable[[str], _Brought | None],
    games: Collection[str],
) -> dict[str, frozenset[str] | None]:
    """The commitments of the keys in force at some point of each of ``games``' logs: those
    ``own`` says its own events bring, and for a fork those its ancestors' bring up to its cut
    (None: not all known)."""
    brought: dict[str, _Brought | None] = {}
    for game in games:
        line: list[str] = []  # the game and the ancestors not met yet, the game first
        at = game
        while at in infos and at not in brought and at not in line:
            line.append(at)
            if _own_start(infos[at]) == 1:
                break
            at = str(infos[at].parent)
        for member in reversed(line):  # a parent before its forks
            info, mine = infos[member], own(member)
            above: _Brought | None = []
            if _own_start(info) > 1:  # a parent missing or in a circle: not known
                above = brought.get(str(info.parent))
            cut = _own_start(info) - 1
            brought[member] = (
                None
                if mine is None or above is None
                else [(s, k) for s, k in above if s <= cut] + mine
            )
    return {g: None if (b := brought.get(g)) is None else frozenset(k for _, k in b) for g in games}
