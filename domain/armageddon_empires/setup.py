"""The state before the first command: the scenario's map, cards, bases and armies in play."""

from __future__ import annotations

import msgspec

from warlog.domain.armageddon_empires.abilities import MINEFIELD, level
from warlog.domain.armageddon_empires.cards import (
    INDEPENDENT,
    CardInstance,
    independent_card_id,
    instance_id,
)
from warlog.domain.armageddon_empires.creators import CREATORS
from warlog.domain.armageddon_empires.scenario import (
    Scenario,
    controller,
    garrison_id,
    placed_minefields,
    research_lists,
)
from warlog.domain.armageddon_empires.scenario_checks import board_terrain, catalogue
from warlog.domain.armageddon_empires.state import (
    Army,
    Base,
    Board,
    Empire,
    GameState,
    Minefield,
)
from warlog.domain.armageddon_empires.terrain import terrain_table
from warlog.domain.core.hexgrid import Hex


class _Dealer:
    """Numbers the physical cards of each empire: ``red.ash-lancers.1``, ``red.ash-lancers.2``…"""

    def __init__(self) -> None:
        self.instances: dict[str, CardInstance] = {}
        self._counts: dict[tuple[str, str], int] = {}

    def deal(self, empire: str, card: str) -> str:
        n = self._counts.get((empire, card), 0) + 1
        self._counts[empire, card] = n
        iid = instance_id(empire, card, n)
        self.instances[iid] = CardInstance(card=card, owner=empire)
        return iid


def _damaged(held: tuple[str, ...], damage: dict[str, int], dealer: _Dealer) -> dict[str, int]:
    """The scenario's starting damage (AE-22): card type -> damage, on the first card of that
    type among ``held`` (card instances)."""
    out: dict[str, int] = {}
    for card_type, amount in damage.items():
        first = next(c for c in held if dealer.instances[c].card == card_type)
        out[first] = amount
    return out


def initial_state(scenario: Scenario) -> GameState:
    """Round 1, initiative phase; the starting stockpiles stand in for round 1's collection (AE-4).

    Cards are numbered per empire in the order bases (card, facilities, garrison), armies (hero,
    units), hand, deck (AE-14), minefields (AE-50); an independent minefield's card is no
    empire's and is named after its minefield (AE-67, ``cards.independent_card_id``). The
    scenario is assumed checked (``parse_scenario`` does it).
    """
    cards = catalogue(scenario)
    m = scenario.map
    board = Board(
        width=m.width,
        height=m.height,
        terrain=board_terrain(scenario),
        resources={str(Hex.parse(k)): v for k, v in m.resources.items()},
        table=terrain_table(scenario.terrain),
    )
    dealer = _Dealer()
    damage: dict[str, int] = {}
    bases: dict[str, Base] = {}
    armies: dict[str, Army] = {}
    for spec in scenario.bases:
        at = str(Hex.parse(spec.at))
        card = dealer.deal(spec.empire, spec.card)
        facilities = tuple(dealer.deal(spec.empire, f) for f in spec.facilities)
        garrison = [dealer.deal(spec.empire, c) for c in spec.garrison]
        hero = next((c for c in garrison if cards[dealer.instances[c].card].kind == "hero"), None)
        gid = garrison_id(spec.id)
        armies[gid] = Army(
            id=gid,
            empire=spec.empire,
            at=at,
            hero=hero,
            units=tuple(c for c in garrison if c != hero),
            garrison_of=spec.id,
        )
        bases[spec.id] = Base(spec.id, spec.empire, spec.kind, at, card, facilities, gid)
        damage.update(_damaged((card, *facilities), spec.damage, dealer))
    for a in scenario.armies:
        hero = None if a.hero is None else dealer.deal(a.empire, a.hero)
        units = tuple(dealer.deal(a.empire, u) for u in a.units)
        damage.update(_damaged((*((hero,) if hero else ()), *units), a.damage, dealer))
        armies[a.id] = Army(
            id=a.id,
            empire=a.empire,
            at=str(Hex.parse(a.at)),
            hero=hero,
            units=units,
            stealthed=a.stealthed,
        )
    research = research_lists(scenario)
    offered = {r.card for c in CREATORS.values() for r in getattr(research, c.key)}
    empires: dict[str, Empire] = {}
    for e in scenario.empires:
        hand = tuple(dealer.deal(e.id, c) for c in e.hand)
        deck = tuple(dealer.deal(e.id, c) for c in e.deck)
        seen = {i.card for i in dealer.instances.values() if i.owner == e.id}
        for base in bases.values():  # bases are public (AE-17)
            seen.update(dealer.instances[c].card for c in (base.card, *base.facilities))
        seen.update(offered)  # the research lists are public (AE-73)
        empires[e.id] = Empire(
            id=e.id,
            name=e.name,
            resources=e.resources,
            hand=hand,
            deck=deck,
            supply_range=e.supply_range,
            hand_limit=e.hand_limit,
            deal=e.deal,
            seen=tuple(sorted(seen)),
        )
    minefields: dict[str, Minefield] = {}
    for mine in placed_minefields(scenario):  # dealt last: the other cards keep their numbers
        owner = controller(mine)
        if owner == INDEPENDENT:  # AE-67: no empire deals it, nor sees it
            card = independent_card_id(mine.id, mine.card)
            dealer.instances[card] = CardInstance(card=mine.card, owner=INDEPENDENT)
        else:
            card = dealer.deal(owner, mine.card)
            emp = empires[owner]
            empires[owner] = msgspec.structs.replace(
                emp, seen=tuple(sorted({*emp.seen, mine.card}))
            )
        minefields[mine.id] = Minefield(mine.id, owner, str(Hex.parse(mine.at)), card)
        if mine.damage:
            damage[card] = mine.damage
    seats = tuple(e.id for e in scenario.empires)
    return GameState(
        scenario=scenario.name,
        max_rounds=scenario.max_rounds,
        board=board,
        catalogue=cards,
        instances=dealer.instances,
        seats=seats,
        empires=empires,
        bases=bases,
        armies=armies,
        order=seats,
        damage=damage,
        minefields=minefields,
        # AE-54: from the scenario's catalogue, never from what a hand or deck holds; since
        # version 18 a hidden set-up's game checks every move (AE-64, ``ArmageddonEmpires``)
        mined=any(level(entry.abilities, MINEFIELD) for entry in cards.values()),
        research=None if isinstance(scenario.research, msgspec.UnsetType) else scenario.research,
    )
