"""The events of Armageddon Empires (past tense; tags are stable and never reused).

Each event that carries arithmetic says where its numbers come from in ``explain()``.
"""

from typing import Annotated

import msgspec

from warlog.domain.armageddon_empires.challenge import counted
from warlog.domain.armageddon_empires.limits import LAST_CARD_NUMBER
from warlog.domain.armageddon_empires.resources import Resources
from warlog.domain.core.events import Event
from warlog.domain.core.seal import Hidden
from warlog.domain.core.summary import plural


class RoundBegan(Event, frozen=True, tag="round_began"):
    """A new round of turns begins (the start of round 1 is the game's creation)."""

    round: int
    last_round: int

    def explain(self) -> str:
        return (
            f"round {self.round} of {self.last_round} begins (the scenario's max_rounds; "
            "the round of turns, pp.20–22)"
        )


class ResourcesCollected(Event, frozen=True, tag="resources_collected"):
    """Round start: the resources of the hexes holding the empire's strongholds and outposts."""

    empire: str
    gained: Resources
    #: one line per collecting base: "red-hq at 1,1: materials 2"
    sources: tuple[str, ...] = ()

    def explain(self) -> str:
        lines = "; ".join(self.sources) or "no base stands on a resource hex"
        return f"{self.empire} collects {self.gained.text()} (manual p.20; AE-4): {lines}"


class InitiativeDiceBought(Event, frozen=True, tag="initiative_dice_bought"):
    """An empire bought its initiative dice; ``count`` is sealed for the other empire until
    ``initiative_determined`` makes every bid public (AE-3, AE-7)."""

    empire: str
    count: Annotated[int, Hidden(owner="empire")]

    def explain(self) -> str:
        return f"{self.empire} buys {self.count} initiative dice (paid when the dice roll, AE-3)"


class InitiativeDetermined(Event, frozen=True, tag="initiative_determined"):
    """Both pools rolled: most successes (faces 4–6, R1) goes first; ties re-roll (AE-3)."""

    order: tuple[str, ...]
    dice: dict[str, int]
    successes: dict[str, int]
    paid: dict[str, Resources]
    #: how many tied rolls were re-rolled before this result
    rerolls: int = 0
    #: True when the ties outlasted the re-rolls and AE-3's fallback order decided
    fallback: bool = False

    def explain(self) -> str:
        pools = ", ".join(
            f"{e} {counted(self.successes[e])} on {plural(self.dice[e], 'die', 'dice')} (paid {self.paid[e].text()})"
            for e in self.order
        )
        out = f"initiative: {pools}; order {' then '.join(self.order)} (R1: faces 4-6 succeed)"
        if self.rerolls:
            out += f"; {plural(self.rerolls, 'tied roll')} re-rolled (AE-3)"
            if 0 in self.dice.values():
                out += ", an empty pool re-rolling 1 die"
        if self.fallback:
            out += (
                "; still tied, so the empire that went last in the previous round goes first (AE-3)"
            )
        return out


class ApBonus(msgspec.Struct, frozen=True):
    """One source of extra AP: an ``AP Bonus X`` facility (p.48) or a prisoner (p.24, p.30)."""

    source: str
    ap: int
    rule: str = "AP Bonus, p.48"


class TurnBegan(Event, frozen=True, tag="turn_began"):
    """An empire's turn begins with ``ap`` = AP for its initiative place + bonuses (R10)."""

    empire: str
    place: int
    base_ap: int
    bonuses: tuple[ApBonus, ...]
    ap: int
    #: AP owed for moves made outside its last turn, paid now (AE-19)
    owed: int = 0

    def explain(self) -> str:
        parts = [f"{self.base_ap} for initiative place {self.place} (R10, p.11)"]
        parts += [f"{b.ap} from {b.source} ({b.rule})" for b in self.bonuses]
        out = f"{self.empire} starts its turn with {self.ap} AP = " + " + ".join(parts)
        if self.owed:
            out += (
                f" − {self.owed} owed (tactics and interceptors outside its last turn, AE-19; "
                "Sniper Attacks, AE-58), never below 0"
            )
        return out


class SupplyTraced(Event, frozen=True, tag="supply_traced"):
    """Turn start: armies with no path of cost ≤ supply range from a source (p.26, p.30).
    Which armies is sealed for the other empire (they may be unseen, AE-17)."""

    empire: str
    supply_range: int
    sources: tuple[str, ...]
    out_of_supply: Annotated[tuple[str, ...], Hidden(owner="empire")]

    def explain(self) -> str:
        where = ", ".join(self.sources) or "no stronghold or outpost"
        if not self.out_of_supply:
            return (
                f"every army of {self.empire} is in supply (range {self.supply_range} from "
                f"{where}; p.26)"
            )
        return (
            f"out of supply: {', '.join(self.out_of_supply)} — no path of cost ≤ "
            f"{self.supply_range} (+ Raider X) from {where} avoiding enemy-held hexes (p.26); "
            "they may move only one hex this turn unless hero-only or all Commando (p.30; "
            "Commando, p.46)"
        )


class TurnEnded(Event, frozen=True, tag="turn_ended"):
    """An empire ended its turn; unspent AP is lost (R10). How much is sealed for the other
    empire: it would tell what its sealed moves cost, and so the size of its armies (AE-17)."""

    empire: str
    ap_lost: Annotated[int, Hidden(owner="empire")]

    def explain(self) -> str:
        return f"{self.empire} ends its turn; {self.ap_lost} unspent AP lost (R10)"


class ArmyCreated(Event, frozen=True, tag="army_created"):
    """An empty army raised at a base; its name and hex are sealed for the other empire (AE-17)."""

    empire: str
    army: Annotated[str, Hidden(owner="empire")]
    at: Annotated[str, Hidden(owner="empire")]
    ap_cost: int

    def explain(self) -> str:
        return f"{self.empire} creates army {self.army} at {self.at} for {self.ap_cost} AP (p.10)"


class ArmyDisbanded(Event, frozen=True, tag="army_disbanded"):
    """An empty army disbanded; which, and where, is sealed for the other empire (AE-17)."""

    empire: str
    army: Annotated[str, Hidden(owner="empire")]
    at: Annotated[str, Hidden(owner="empire")]
    ap_cost: int = 0

    def explain(self) -> str:
        return f"{self.empire} disbands the empty army {self.army} at {self.at} (p.23; AE-9)"


class CardsTransferred(Event, frozen=True, tag="cards_transferred"):
    """Cards moved between two armies in one hex; the receiver counts as moved if the giver
    has moved this turn (AE-9). Everything but the empire and the AP is sealed for the other
    empire (AE-17)."""

    empire: str
    from_army: Annotated[str, Hidden(owner="empire")]
    to_army: Annotated[str, Hidden(owner="empire")]
    cards: Annotated[tuple[str, ...], Hidden(owner="empire")]
    ap_cost: int
    receiver_moved: Annotated[bool, Hidden(owner="empire")] = False

    def explain(self) -> str:
        out = (
            f"{self.empire} transfers {', '.join(self.cards)} from {self.from_army} to "
            f"{self.to_army} for {self.ap_cost} AP (R11; AE-9)"
        )
        if self.receiver_moved:
            out += f"; {self.from_army} has moved this turn, so {self.to_army} now counts as moved"
        return out


class MoveStep(msgspec.Struct, frozen=True):
    """One hex entered: its terrain and movement cost (R12)."""

    to: str
    terrain: str
    cost: int


class ArmyMoved(Event, frozen=True, tag="army_moved"):
    """An army moved along ``steps``; AP = 1 per card not Rapid Reaction − Pathfinder (p.23).
    Everything but the empire is sealed for the other empire (AE-17): which army, where, and
    the AP (it tells the army's size). ``contact``: the hex where it walked into an enemy army
    it had not seen and stopped short (AE-17)."""

    empire: str
    army: Annotated[str, Hidden(owner="empire")]
    origin: Annotated[str, Hidden(owner="empire")]
    to: Annotated[str, Hidden(owner="empire")]
    steps: Annotated[tuple[MoveStep, ...], Hidden(owner="empire")]
    move_points: Annotated[int, Hidden(owner="empire")]
    allowance: Annotated[int, Hidden(owner="empire")]
    allowance_rule: Annotated[str, Hidden(owner="empire")]
    cards: Annotated[int, Hidden(owner="empire")]
    free_cards: Annotated[int, Hidden(owner="empire")]
    pathfinder: Annotated[int, Hidden(owner="empire")]
    ap_cost: Annotated[int, Hidden(owner="empire")]
    out_of_supply: Annotated[bool, Hidden(owner="empire")] = False
    contact: Annotated[str, Hidden(owner="empire")] = ""

    def explain(self) -> str:
        ap = f"move cost {self.ap_cost} AP = 1 AP × {plural(self.cards, 'card')} (p.23; AE-11)"
        if self.free_cards:
            ap += f" − {plural(self.free_cards, 'Rapid Reaction card')} (p.45, p.46)"
        if self.pathfinder:
            ap += f" − Pathfinder {self.pathfinder} (p.45)"
        if self.cards - self.free_cards - self.pathfinder != self.ap_cost:
            ap += ", never below 0"
        terrain = " + ".join(f"{s.terrain} {s.cost}" for s in self.steps) or "no hex entered"
        out = (
            f"{self.army} moves {self.origin} → {self.to}: {ap}; "
            f"terrain cost {self.move_points} = {terrain} (R12) of "
            f"{self.allowance} movement points ({self.allowance_rule})"
        )
        if self.out_of_supply:
            out += "; out of supply at turn start: one hex at most (p.30)"
        if self.contact and self.contact == self.to:
            out += (
                f"; it walked into an unseen enemy army at {self.contact}, its destination, and "
                "entered the hex (armies not stealthed are seen on contact, AE-17; AE-25)"
            )
        elif self.contact:
            out += (
                f"; it walked into an unseen enemy army at {self.contact} and stopped short "
                "(armies not stealthed are seen on contact, AE-17)"
            )
        return out


class CardDrawn(Event, frozen=True, tag="card_drawn"):
    """A card drawn at random from the deck; ``card`` is sealed for the other empire (AE-7)."""

    empire: str
    card: Annotated[str, Hidden(owner="empire")]
    ap_cost: int
    deck_left: int

    def explain(self) -> str:
        return (
            f"{self.empire} draws a card for {self.ap_cost} AP (R11; AE-6); "
            f"{self.deck_left} left in the deck"
        )


class CardDealt(Event, frozen=True, tag="card_dealt"):
    """A card dealt at random from the deck into the starting hand when the game is created
    (AE-15); ``card`` is sealed for the other empire (AE-7)."""

    empire: str
    card: Annotated[str, Hidden(owner="empire")]
    deck_left: int

    def explain(self) -> str:
        return (
            f"{self.empire} is dealt a starting card at random from the deck (AE-15); "
            f"{self.deck_left} left in the deck"
        )


class CardsNumbered(Event, frozen=True, tag="cards_numbered"):
    """When the game opens, the cards of an empire's hidden set-up (garrisons, armies, hand,
    deck, minefields) take numbers drawn at random from its sealed dice, so that a card seen in
    play does not tell how many of its type came before it (AE-62, since version 16, unless
    the scenario declares its set-up public). ``renamed``: each card's id in set-up order ->
    its id in play, sealed for the other empire."""

    empire: str
    renamed: Annotated[dict[str, str], Hidden(owner="empire")]

    def explain(self) -> str:
        return (
            f"{self.empire}'s {plural(len(self.renamed), 'card')} of its hidden set-up "
            f"numbered at random, each from 1 to {LAST_CARD_NUMBER} by its place in the set-up "
            "and the empire's sealed dice (AE-62); its bases' cards keep their numbers"
        )


class CardDeployed(Event, frozen=True, tag="card_deployed"):
    """A card from the hand deployed at a base: into its garrison (``army``) or as a facility."""

    empire: str
    card: str
    base: str
    army: str | None
    paid: Resources
    ap_cost: int
    rapid_reaction: bool = False

    def explain(self) -> str:
        total = self.paid.total()
        where = f"the garrison {self.army}" if self.army else "a facility slot"
        if self.rapid_reaction:
            ap = "0 AP (Rapid Reaction, p.45, p.46)"
        else:
            ap = f"{self.ap_cost} AP = {total} resource points ÷ 2, rounded down (p.18; R3)"
        return (
            f"{self.empire} deploys {self.card} into {where} of {self.base}: pays "
            f"{self.paid.text()} and {ap}"
        )


class GameEnded(Event, frozen=True, tag="game_ended"):
    """The game is over: an HQ fell, or the scenario's last round ended (AE-10)."""

    reason: str
    winner: str | None = None

    def explain(self) -> str:
        return f"game over: {self.reason}; winner: {self.winner or 'none (a draw)'}"


EVENT_TYPES: tuple[type[Event], ...] = (
    RoundBegan,
    ResourcesCollected,
    InitiativeDiceBought,
    InitiativeDetermined,
    TurnBegan,
    SupplyTraced,
    TurnEnded,
    ArmyCreated,
    ArmyDisbanded,
    CardsTransferred,
    ArmyMoved,
    CardDrawn,
    CardDeployed,
    GameEnded,
    CardDealt,
    CardsNumbered,
)
