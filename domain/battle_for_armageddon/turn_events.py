"""Set-up and the turn's events (rules: Setup, Sequence of Play, Supply, Victory Conditions).

The turn begun, strategy cards chosen, initiative, action segments and phases, supply checked,
victory checked and the game's end; tags are stable. Never imports ``state.py``.
"""

from typing import Annotated

import msgspec

from warlog.domain.battle_for_armageddon.rules import (
    LAST_TURN,
    MOVEMENT_PHASE,
    SEQUENCE_OF_PLAY,
    SETUP,
    STARTING_HAND,
    STRATEGY_CARDS_CHOSEN,
    SUPPLY,
    SUPPLY_LOSS_MAX_FACE,
    VICTORY_CONDITIONS,
)
from warlog.domain.core.events import Event
from warlog.domain.core.seal import Hidden
from warlog.domain.core.summary import plural


class CounterDeployed(Event, frozen=True, tag="counter_deployed"):
    counter: str
    area: str

    def explain(self) -> str:
        return (
            f"{self.counter} is set up in {self.area}: the Ork player sets up in Ork Territory, "
            f"within stacking ({SETUP}; BFA-18)"
        )


class SetupEnded(Event, frozen=True, tag="setup_ended"):
    def explain(self) -> str:
        return (
            f"set-up is over: each player is dealt a starting hand of {STARTING_HAND} Special "
            f"Cards ({SETUP}; BFA-10)"
        )


class TurnBegan(Event, frozen=True, tag="turn_began"):
    """The first event of a game turn (the clock of the Events view)."""

    turn: int

    def explain(self) -> str:
        return (
            f"turn {self.turn} of {LAST_TURN} begins with its Strategy Segment ({SEQUENCE_OF_PLAY})"
        )


class ReinforcementsArrived(Event, frozen=True, tag="reinforcements_arrived"):
    """seed 003: Dante and the Marine Chapters enter the READY box on turn 3."""

    turn: int
    counters: list[str]

    def explain(self) -> str:
        return (
            f"turn {self.turn}: {', '.join(self.counters)} enter the READY box of the production "
            "track (rules: Special Units; Dante enters play on turn 3 with the Marine Chapters)"
        )


class StrategyChosen(Event, frozen=True, tag="strategy_chosen"):
    """A player's two strategy cards, in order; sealed for the opponent until each is revealed
    as its action segment begins."""

    player: str
    cards: Annotated[list[str], Hidden(owner="player")]

    def explain(self) -> str:
        return (
            f"the {self.player} secretly choose {' then '.join(self.cards)}: "
            f"{STRATEGY_CARDS_CHOSEN} of their Strategy Cards, revealed one per action segment "
            f"({SEQUENCE_OF_PLAY}; BFA-21)"
        )


class InitiativeDecided(Event, frozen=True, tag="initiative_decided"):
    player: str
    turn: int
    imperial_roll: int = 0
    ork_roll: int = 0
    reason: str = ""

    def explain(self) -> str:
        if not self.imperial_roll:
            return f"turn {self.turn}: the {self.player} have the initiative ({self.reason})"
        return (
            f"turn {self.turn}: Imperial d6 {self.imperial_roll} against Ork d6 {self.ork_roll} → "
            f"the {self.player} have the initiative ({self.reason}; {SEQUENCE_OF_PLAY}"
            f"{'' if '(BFA-1)' in self.reason else '; BFA-1'})"
        )


class ActionSegmentBegan(Event, frozen=True, tag="action_segment_began"):
    """The phasing player reveals the strategy card of this segment."""

    segment: int
    player: str
    card: str
    phases: list[str]

    def explain(self) -> str:
        return (
            f"action segment {self.segment}: the {self.player} reveal {self.card} "
            f"({' then '.join(self.phases)}; {SEQUENCE_OF_PLAY})"
        )


class PhaseBegan(Event, frozen=True, tag="phase_began"):
    phase: str
    player: str
    index: int

    def explain(self) -> str:
        which = "first" if self.index == 0 else "second"
        return (
            f"the {self.player}' {self.phase} phase begins: the {which} phase of their Strategy "
            f"Card, in the printed order ({SEQUENCE_OF_PLAY})"
        )


class PhaseEnded(Event, frozen=True, tag="phase_ended"):
    phase: str
    player: str

    def explain(self) -> str:
        if self.phase == "movement":
            return (
                f"the {self.player}' movement phase ends: stacking limits count from now "
                f"({MOVEMENT_PHASE}; BFA-2)"
            )
        return f"the {self.player}' {self.phase} phase ends ({SEQUENCE_OF_PLAY})"


class StackOutOfSupply(Event, frozen=True, tag="stack_out_of_supply"):
    """seed 003 "Supply": a stack that cannot trace a line; its saving rolls if it has any."""

    player: str
    area: str
    counters: list[str]
    protection: list[str]
    faces: list[int]
    destroyed: bool

    def explain(self) -> str:
        if not self.protection:
            return (
                f"{self.area}: no supply line, no hive or fortification → destroyed (a full "
                f"Marine Chapter flips to its detachment instead) ({SUPPLY}; BFA-13)"
            )
        rolls = ", ".join(
            f"{p} d6 {f} ({'fails' if f <= SUPPLY_LOSS_MAX_FACE else 'holds'})"
            for p, f in zip(self.protection, self.faces, strict=True)
        )
        verdict = "every roll failed → destroyed" if self.destroyed else "survives"
        return (
            f"{self.area}: no supply line; {rolls} (1–{SUPPLY_LOSS_MAX_FACE} fails); {verdict} "
            f"({SUPPLY}; BFA-13)"
        )


class SupplyChecked(Event, frozen=True, tag="supply_checked"):
    """The supply check after a strategy card: the stacks cut off and the counters they lost,
    each eliminated (a full Marine Chapter among them flips to its detachment and stays)."""

    player: str
    cut_off: list[str]
    lost: list[str]
    #: since version 7 (``supply.FLIPS_NAMED_SINCE``): the chapters among ``lost`` that flipped to
    #: their detachment and stay (BFA-13); left out of the encoding before, so games begun under
    #: 6 and before keep their events
    flipped: list[str] | msgspec.UnsetType = msgspec.UNSET

    def explain(self) -> str:
        if not self.cut_off:
            return (
                f"after their Strategy Card every {self.player} counter that needs supply traces "
                f"a supply line ({SUPPLY}; BFA-13)"
            )
        cut = f"{self.player} cut off in {', '.join(self.cut_off)}"
        if isinstance(self.flipped, list):
            gone = [c for c in self.lost if c not in self.flipped]
            flips = f"; flipped to detachments: {', '.join(self.flipped)}" if self.flipped else ""
            return f"{cut}; lost: {', '.join(gone) or 'none'}{flips} ({SUPPLY}; BFA-13)"
        # an event of version 6 or before names no flipped chapter
        flips = " (a full Marine Chapter flips to its detachment instead)" if self.lost else ""
        return f"{cut}; eliminated: {', '.join(self.lost) or 'none'}{flips} ({SUPPLY}; BFA-13)"


class VictoryChecked(Event, frozen=True, tag="victory_checked"):
    turn: int
    captured: list[str]
    held: list[str]
    ghazghkull_in_play: bool
    result: str

    def explain(self) -> str:
        return (
            f"turn {self.turn}: Orks captured {plural(len(self.captured), 'hive')} "
            f"({', '.join(self.captured) or 'none'}; 3 win); Imperials hold {len(self.held)} of 5 "
            f"({', '.join(self.held) or 'none'}); Ghazghkull "
            f"{'in play' if self.ghazghkull_in_play else 'removed'} → {self.result or 'play on'} "
            f"({VICTORY_CONDITIONS}; BFA-23)"
        )


class GameEnded(Event, frozen=True, tag="game_ended"):
    result: str
    reason: str

    def explain(self) -> str:
        return self.reason
