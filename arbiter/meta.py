"""What the application itself folds from the core events: the game's identity and its dice."""

import msgspec

from warlog.domain.core.dice import DiceSpec
from warlog.domain.core.events import DiceRevealed, Event, GameCreated, GameForked
from warlog.domain.core.ruleset import AnyRuleset


class GameMeta(msgspec.Struct, frozen=True):
    """The engine's own read of a game: who plays, which dice are in force, whether they are public.

    ``revealed`` means the seed in force has been published in this game's log; ``spec_seq`` is
    the seq of the event that put the dice in force (1, or a fork's lineage event). ``shift`` is
    how many lineage events of same-dice forks lie between that event and now: the dice and
    seals of the event at seq s derive at seq ``s - shift`` (ARCHITECTURE.md, dice), so that a
    same-dice fork replaying its parent's commands gets its parent's rolls. ``opened`` are the
    commitments of the seeds revealed in this lineage: every value sealed under them is public.
    """

    game: str
    ruleset: str
    version: str
    players: list[str]
    dice: DiceSpec
    spec_seq: int = 1
    revealed: bool = False
    revealed_at: int = 0
    shift: int = 0
    opened: tuple[str, ...] = ()

    def derivation_seq(self, seq: int) -> int:
        """The seq the dice and seals of the event at ``seq`` derive from."""
        return seq - self.shift


def evolve_meta(meta: GameMeta | None, seq: int, event: Event) -> GameMeta | None:
    """The meta after the event at ``seq``."""
    if isinstance(event, GameCreated):
        return GameMeta(event.game, event.ruleset, event.version, list(event.players), event.dice)
    if meta is None:
        return None
    if isinstance(event, GameForked):
        if event.dice is None:  # keeps the parent's dice; its rolls go on from the same seed
            opened = meta.opened
            if event.seed is not None and (meta.dice.commitment or "") not in opened:
                opened = (*opened, meta.dice.commitment or "")
            return msgspec.structs.replace(
                meta,
                game=event.game,
                revealed=False,
                revealed_at=0,
                shift=meta.shift + 1,
                opened=opened,
            )
        return msgspec.structs.replace(
            meta,
            game=event.game,
            dice=event.dice,
            spec_seq=seq,
            revealed=False,
            revealed_at=0,
            shift=0,
        )
    if isinstance(event, DiceRevealed):
        commitment = meta.dice.commitment or ""
        return msgspec.structs.replace(
            meta, revealed=True, revealed_at=seq, opened=(*meta.opened, commitment)
        )
    return meta


class _Version(msgspec.Struct):
    version: object = None


def played_under(named: AnyRuleset, created: bytes | str) -> AnyRuleset:
    """The ruleset a game is played and re-derived with, from its ``game_created`` data: the
    ruleset ``named`` as it was at the version recorded there, if this warlog still plays that
    version; else ``named`` itself, at its own version (whose audit reports the version it
    could not re-derive)."""
    try:
        version = msgspec.json.decode(created, type=_Version).version
    except msgspec.DecodeError:
        return named
    found = named.at_version(version) if isinstance(version, str) else None
    return named if found is None else found
