"""The game state: the board, the cards in play, empires, bases, armies and the round clock.

Frozen msgspec Structs that round-trip through msgpack (snapshots). ``evolve`` builds new ones
with ``msgspec.structs.replace`` and copies every dict it changes; tuples are never mutated.
"""

from typing import Literal

import msgspec

from warlog.domain.armageddon_empires.cards import CardEntry, CardInstance
from warlog.domain.armageddon_empires.fog import Sighting
from warlog.domain.armageddon_empires.frames import AnyFrame
from warlog.domain.armageddon_empires.limits import DEFAULT_HAND_LIMIT, DEFAULT_SUPPLY_RANGE
from warlog.domain.armageddon_empires.resources import Resources
from warlog.domain.armageddon_empires.scenario import Research
from warlog.domain.armageddon_empires.terrain import Terrain
from warlog.domain.core.rolls import AwaitedRoll

Phase = Literal["initiative", "turns", "over"]
BaseKind = Literal["stronghold", "outpost"]


class Board(msgspec.Struct, frozen=True):
    """The hex map: terrain and resources of every hex (keys ``"q,r"``) and the terrain table."""

    width: int
    height: int
    terrain: dict[str, str]
    resources: dict[str, Resources]
    table: dict[str, Terrain]

    def move_cost(self, at: str) -> int | None:
        """Movement points to enter hex ``at``, None when it is off the map (R12)."""
        name = self.terrain.get(at)
        return None if name is None else self.table[name].move


class Empire(msgspec.Struct, frozen=True):
    """A player: stockpile, AP of the current turn, the cards in hand, deck and discard pile."""

    id: str
    name: str
    resources: Resources
    hand: tuple[str, ...]
    deck: tuple[str, ...]
    discard: tuple[str, ...] = ()
    ap: int = 0
    supply_range: int = DEFAULT_SUPPLY_RANGE
    hand_limit: int = DEFAULT_HAND_LIMIT
    #: cards dealt from the deck into the hand when the game is created (AE-15)
    deal: int = 0
    #: armies that moved this turn (one move per army per turn, p.23)
    moved: tuple[str, ...] = ()
    #: armies out of supply at the start of this empire's turn (p.30)
    out_of_supply: tuple[str, ...] = ()
    #: since version 26, the unit cards of those armies, kept until this empire's next trace,
    #: through the other empire's turn and wherever the units go: a unit fights at its last
    #: trace's supply whoever's turn it is and whichever army it is in (AE-69)
    unsupplied: tuple[str, ...] = ()
    #: AP owed for moves made outside its own turn, paid when its next turn begins (AE-19)
    ap_owed: int = 0
    #: armies that hunted a hero this turn (one hunt per army per turn, AE-21)
    hunted: tuple[str, ...] = ()
    #: since version 27, the cards that made an assassination attempt this turn (one attempt per
    #: card per turn, AE-71); left out of the encoding (UNSET) while none has, as ``sabotaged``,
    #: so that older games' states stay as they were
    assassins: tuple[str, ...] | msgspec.UnsetType = msgspec.UNSET
    #: the card types this empire has seen (its own, and the enemy's it has seen; AE-7, AE-17)
    seen: tuple[str, ...] = ()
    #: cards of its discard pile destroyed by hidden challenges: face down, only it sees them
    #: (collateral damage and WMD, p.31; AE-49)
    face_down: tuple[str, ...] = ()
    #: since version 27, the saboteurs that have sabotaged this turn (once a turn each, AE-72);
    #: left out of the encoding (UNSET) while none has, so that older games' states stay as
    #: they were
    sabotaged: tuple[str, ...] | msgspec.UnsetType = msgspec.UNSET
    #: since version 28, the heroes that have tried to create a card this turn (once a turn
    #: each, AE-73); left out of the encoding (UNSET) while none has, as ``assassins``
    researched: tuple[str, ...] | msgspec.UnsetType = msgspec.UNSET

    @property
    def researchers(self) -> tuple[str, ...]:
        """``researched``, none while it is unset."""
        return () if isinstance(self.researched, msgspec.UnsetType) else self.researched

    @property
    def assassin_cards(self) -> tuple[str, ...]:
        """``assassins``, none while it is unset."""
        return () if isinstance(self.assassins, msgspec.UnsetType) else self.assassins

    @property
    def sabotaged_cards(self) -> tuple[str, ...]:
        """``sabotaged``, none while it is unset."""
        return () if isinstance(self.sabotaged, msgspec.UnsetType) else self.sabotaged


class Base(msgspec.Struct, frozen=True):
    """A stronghold (the HQ card) or outpost: its card, facility cards and garrison army."""

    id: str
    empire: str
    kind: BaseKind
    at: str
    card: str
    facilities: tuple[str, ...]
    garrison: str
    #: enemy heroes held here (p.24, p.30): +3 AP a round to the holder while not besieged
    prisoners: tuple[str, ...] = ()


class Army(msgspec.Struct, frozen=True):
    """At most one hero and eight units in a hex; a garrison belongs to a base and never moves."""

    id: str
    empire: str
    at: str
    hero: str | None = None
    units: tuple[str, ...] = ()
    garrison_of: str | None = None
    #: a stealthed army controls no hex and is seen only by a check against its Stealth (p.27)
    stealthed: bool = False

    def cards(self) -> tuple[str, ...]:
        return self.units if self.hero is None else (self.hero, *self.units)

    @property
    def combat_capable(self) -> bool:
        """At least one unit card (p.34)."""
        return bool(self.units)


class Minefield(msgspec.Struct, frozen=True):
    """A minefield: a facility card with Minefield X in a hex without a base, camouflaged
    (p.32; AE-50), controlled by ``empire`` or, since version 23, by no empire
    (``cards.INDEPENDENT``: an independent minefield, AE-67). ``known_to``: the other empires
    that have walked into it (AE-53). ``removed``: an independent minefield spent or lifted,
    kept with its card, out of play, for the empires still in ``known_to``, which keep it in
    view as they knew it, since what the other empire's armies did to it is that empire's
    (AE-67); left out (UNSET) while it stands, and for every empire's minefield."""

    id: str
    empire: str
    at: str
    card: str
    known_to: tuple[str, ...] = ()
    removed: bool | msgspec.UnsetType = msgspec.UNSET

    @property
    def standing(self) -> bool:
        """Whether it is in play, to stop and attack the armies that walk in (AE-51)."""
        return self.removed is not True


#: AE-63: since this rules version an army holds its units in the order of their ids
#: (``GameState.in_order``)
UNITS_IN_ID_ORDER_SINCE = 17


class GameState(msgspec.Struct, frozen=True):
    """Everything the rules need. The board, catalogue and instances never change in play."""

    scenario: str
    max_rounds: int
    board: Board
    catalogue: dict[str, CardEntry]
    instances: dict[str, CardInstance]
    seats: tuple[str, ...]
    empires: dict[str, Empire]
    bases: dict[str, Base]
    armies: dict[str, Army]
    round: int = 1
    phase: Phase = "initiative"
    #: initiative dice bought this round, by empire (hidden from the other empire until rolled)
    bids: dict[str, int] = {}
    #: this round's initiative order (the previous round's until the new one is rolled)
    order: tuple[str, ...] = ()
    current: str | None = None
    winner: str | None = None
    ended: str = ""
    #: the procedures in progress, innermost last (a Capture Kill under its challenge)
    frames: tuple[AnyFrame, ...] = ()
    #: challenges opened so far (each is numbered in its events)
    challenges: int = 0
    #: observer empire -> enemy army -> how it saw it this round (fog of war, R7; AE-17)
    sightings: dict[str, dict[str, Sighting]] = {}
    #: hero card -> fate points spent this round (R6: spent until the next round of turns)
    fate_spent: dict[str, int] = {}
    #: card -> damage taken (hit, wound or structure points lost; repair clears it, p.34)
    damage: dict[str, int] = {}
    #: card -> how far its damage differs from what the other empires saw dealt in the open:
    #: above 0, taken in hidden challenges (collateral damage, WMD, minefields; AE-49, AE-53);
    #: below 0, repaired out of their sight (since version 12): only its owner sees the truth
    hidden_damage: dict[str, int] = {}
    #: battles begun so far (each is numbered in its events)
    battles: int = 0
    #: the round of the battle in progress in which a strike last took a hit point from a card,
    #: 0 before any: since version 26 a battle ends as a stalemate after
    #: ``ground_combat.STALEMATE_ROUNDS`` rounds in a row without (AE-31)
    hurt_round: int = 0
    #: air strikes launched so far (each is numbered in its events)
    air_strikes: int = 0
    #: hexes where the empire whose turn it is delayed its attack to the end of its turn (p.33)
    delayed: tuple[str, ...] = ()
    #: the empire whose turn it is has ended it and its delayed battles are being fought (p.33)
    ending_turn: bool = False
    #: a roll that waits for its roller's command (AE-37; ``core.rolls``)
    awaiting: AwaitedRoll | None = None
    #: the armies of the hex hit by an air strike's collateral damage, whose hidden challenges
    #: are still to come (p.31; AE-46): the referee's, seen by no player
    collateral: tuple[str, ...] = ()
    #: the minefields in play, by id (p.32; AE-50)
    minefields: dict[str, Minefield] = {}
    #: the game holds minefield cards (placed, or in a hand or deck to be laid by Engineers):
    #: every move is then checked for minefields (AE-53, AE-54); since version 18 every game
    #: whose set-up is hidden, whatever its cards (AE-64)
    mined: bool = False
    #: the version of these rules the game is played under (its ``game_created`` records it;
    #: ``ArmageddonEmpires.initial_state`` sets it): a rule that changed since version 6 asks it
    #: (a state of a version-6 game, written before this field, has the default)
    rules_version: int = 6
    #: the cards of each empire's hidden set-up are numbered at random when the game opens
    #: (``cards_numbered``; AE-62): since version 16, unless the scenario declares its set-up
    #: public (``ArmageddonEmpires.initial_state`` sets it)
    numbered_at_random: bool = False
    #: since version 28, the scenario's research lists (AE-73): what each ability that creates
    #: cards offers; None when the scenario has none (every game before version 28)
    research: Research | None = None

    def in_order(self, units: tuple[str, ...]) -> tuple[str, ...]:
        """An army's units as it holds them: since version 17 in the order of their ids
        (AE-63), so that a sighted army, a battle's rows or a strike's targets do not tell in
        what order its units joined it (a transfer out of sight, a deployment, the set-up);
        before, in the order they joined."""
        if self.rules_version >= UNITS_IN_ID_ORDER_SINCE:
            return tuple(sorted(units))
        return units

    def card(self, instance: str) -> CardEntry:
        """The card type of a card in play."""
        return self.catalogue[self.instances[instance].card]

    def armies_at(self, empire: str, at: str) -> list[Army]:
        return [a for a in self.armies.values() if a.empire == empire and a.at == at]

    def base_at(self, at: str) -> Base | None:
        for base in self.bases.values():
            if base.at == at:
                return base
        return None

    def bases_of(self, empire: str) -> list[Base]:
        return [b for b in self.bases.values() if b.empire == empire]
