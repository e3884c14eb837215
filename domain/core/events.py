"""The events every ruleset shares: game creation, commands, dice, reveals and forks.

Events are frozen msgspec Structs tagged by ``type``; the tag is the stored row's ``type`` column
and never reused. A ruleset's own events subclass ``Event`` the same way.
"""

from typing import Annotated, Any, ClassVar

import msgspec

from warlog.domain.core.dice import DiceSpec, commitment_of
from warlog.domain.core.seal import Hidden


class Event(msgspec.Struct, frozen=True, tag_field="type"):
    """Base of every event. ``starts_batch`` marks the first event of a batch."""

    starts_batch: ClassVar[bool] = False

    @classmethod
    def type_name(cls) -> str:
        return str(cls.__struct_config__.tag)

    def explain(self) -> str:
        """Why this event holds what it holds: the rule and its arithmetic, in one or more lines."""
        return ""

    def explain_sealed(self, closed: frozenset[str]) -> str | None:
        """What this event explains to a reader to whom the values at ``closed`` (their paths in
        ``data``) stay sealed: None (withheld, the default) unless it can say why in words that
        never depend on them, and then neither may ``part_of`` nor ``begins`` (``explain`` names
        the event that began the procedure to that reader). tests/projections/test_explained.py
        holds every override to it."""
        return None

    def part_of(self) -> str | None:
        """The procedure this event is a step of, named so that every step names it alike (e.g.
        ``"challenge 3"``), for ``explain`` to find the event that began it; None for most."""
        return None

    def begins(self) -> bool:
        """Whether this event begins the procedure ``part_of`` names."""
        return False


class GameCreated(Event, frozen=True, tag="game_created"):
    """seq 1 of every game: what is being played, by whom, with which dice."""

    starts_batch: ClassVar[bool] = True
    game: str
    ruleset: str
    version: str
    scenario_name: str
    scenario: dict[str, Any]
    players: list[str]
    dice: DiceSpec

    def explain(self) -> str:
        return (
            f"a game of {self.ruleset} (rules version {self.version}), scenario "
            f"{self.scenario_name}, for {', '.join(self.players)}; {_dice_text(self.dice)}"
        )


class CommandIssued(Event, frozen=True, tag="command_issued"):
    """The first event of a command's batch: the command exactly as accepted, with its issuer."""

    starts_batch: ClassVar[bool] = True
    player: str
    command: dict[str, Any]

    def explain(self) -> str:
        order = self.command.get("type", "")
        return (
            f"{self.player}'s order ({order}): a command is a player's order, not a rule; the "
            "rules that decide it are cited on the events it caused, the rest of its batch"
        )


class DiceRolled(Event, frozen=True, tag="dice_rolled", omit_defaults=True):
    """One roll: ``faces`` in the order rolled. ``purpose`` and ``roller`` say why and for whom;
    ``hidden`` marks a roll that picked something secret (a card drawn): its faces are sealed for
    everyone but the roller."""

    sides: int
    faces: Annotated[list[int], Hidden(owner="roller", when="hidden")]
    purpose: str = ""
    roller: str = ""
    hidden: bool = False

    def explain(self) -> str:
        return f"{self.roller or 'the game'} rolled {len(self.faces)} d{self.sides} for {self.purpose}: {self.faces}"


class DiceRevealed(Event, frozen=True, tag="dice_revealed"):
    """The arbiter publishes the seed; its sha256 equals the commitment it opens."""

    starts_batch: ClassVar[bool] = True
    seed: str

    def explain(self) -> str:
        try:
            digest = commitment_of(bytes.fromhex(self.seed))
        except ValueError:
            return f"the seed {self.seed!r} is published, but it is not hex: it opens nothing"
        return (
            f"the game's seed is published: its sha256 is {digest}, which must be the commitment "
            "the game made when its dice were committed; from here anyone can re-derive every "
            "automatic die and open every sealed value (`warlog audit`); a manual-dice game's "
            "typed dice are opened where they were sealed, but no seed derives them; and the "
            "game takes no more commands"
        )


class GameForked(Event, frozen=True, tag="game_forked"):
    """The first own event of a fork: its parent, the cut, and its dice: a new commitment, or
    None to keep the parent's. A fork that keeps them carries their ``seed`` (hex), public
    since its parent revealed it, so that its own log proves the rolls it goes on deriving."""

    starts_batch: ClassVar[bool] = True
    game: str
    parent: str
    at: int
    dice: DiceSpec | None = None
    seed: str | None = None

    def explain(self) -> str:
        if self.dice is not None:
            dice = _dice_text(self.dice)
        else:
            dice = "its dice go on from the parent's seed, revealed and carried here"
        return f"{self.game} forks {self.parent} after event {self.at}; {dice}"


def _dice_text(dice: DiceSpec) -> str:
    """What a game's dice are, as ``game_created`` and ``game_forked`` commit to them."""
    if dice.mode == "manual":
        how = "manual dice: the referee enters each roll's faces in the command"
    else:
        how = "automatic dice, each face derived from a secret seed"
    if dice.commitment is None:
        return (
            f"{how}; no commitment to the seed is recorded (the dice contract: docs/log-format.md)"
        )
    return (
        f"{how}; the seed (which also seals hidden values) is committed to as "
        f"sha256 {dice.commitment} (the dice contract: docs/log-format.md)"
    )


CORE_EVENTS: tuple[type[Event], ...] = (
    GameCreated,
    CommandIssued,
    DiceRolled,
    DiceRevealed,
    GameForked,
)
#: tags of the events that begin a batch (a fork may cut just before one)
BATCH_STARTS: frozenset[str] = frozenset(e.type_name() for e in CORE_EVENTS if e.starts_batch)
#: tags of the engine's own events (the ruleset's evolve never sees them)
CORE_TAGS: frozenset[str] = frozenset(e.type_name() for e in CORE_EVENTS)
#: core events that change no state at all (a command's consequences are the events after it;
#: a roll's faces are read by decide, not by the fold): a replay may skip them unread
INERT_TAGS: frozenset[str] = frozenset({CommandIssued.type_name(), DiceRolled.type_name()})
