"""Forks: a game branched at a batch end, and the family of games that share hidden history.

A fork shares its parent's events up to the cut, the hands and draws before it included, so the
games of one family (a parent, its forks, theirs) keep one another's secrets until the seeds of
their common ancestors are public.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

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
    """The other games of ``game``'s family still being played and keeping secrets
    (``Arbiter.live_relatives``)."""
    infos = {info.game: info for info in arb.store.games()}
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
            folded[member] = arb.folded(member)
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
            if arb.ruleset_of(relative).is_terminal(found.state):
                continue
            # the history it shares with ``game`` lies in their common ancestors' events,
            # sealed under their seeds: told already if every one of them is public
            common = [a for a, b in zip(mine, ancestry(relative), strict=False) if a == b]
            sealed = [folded[a] for a in common]
            if all(f is not None and (f.meta.dice.commitment or "") in public for f in sealed):
                continue
        live.append(relative)
    return live
