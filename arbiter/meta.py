"""What the application itself folds from the core events: the game's identity and its dice."""

from __future__ import annotations

import msgspec

from warlog.domain.core.dice import DiceSpec
from warlog.domain.core.events import DiceRevealed, Event, GameCreated, GameForked


class GameMeta(msgspec.Struct, frozen=True):
    """The engine's own read of a game: who plays, which dice are in force, whether they are public.

    ``revealed`` means the seed in force has been published in this game's log; ``spec_seq`` is
    the seq of the event that put the dice in force (1, or a fork's lineage event).
    """

    game: str
    ruleset: str
    version: str
    players: list[str]
    dice: DiceSpec
    spec_seq: int = 1
    revealed: bool = False
    revealed_at: int = 0


def evolve_meta(meta: GameMeta | None, seq: int, event: Event) -> GameMeta | None:
    """The meta after the event at ``seq``."""
    if isinstance(event, GameCreated):
        return GameMeta(event.game, event.ruleset, event.version, list(event.players), event.dice)
    if meta is None:
        return None
    if isinstance(event, GameForked):
        if event.dice is None:  # keeps the parent's dice; its rolls go on from the same seed
            return msgspec.structs.replace(meta, game=event.game, revealed=False, revealed_at=0)
        return msgspec.structs.replace(
            meta, game=event.game, dice=event.dice, spec_seq=seq, revealed=False, revealed_at=0
        )
    if isinstance(event, DiceRevealed):
        return msgspec.structs.replace(meta, revealed=True, revealed_at=seq)
    return meta
