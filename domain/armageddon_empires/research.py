"""Card creation (manual p.28, p.32, p.45; digest §8.5; AE-73): a hero researches a card.

- **Who and where**: a hero printing Tactician X or Technologist X (p.45; ``creators.CREATORS``),
  in an army of his empire (a garrison or a field army, stealthed or not), in the hex of one of
  its strongholds or outposts whose cards print the facility his ability needs: an Academy for a
  Tactician, a Laboratory for a Technologist (digest §8.5, from the official tutorial, a
  secondary source; the two abilities are ours, the p.48 list being cut). The hex in its
  empire's supply and the base not besieged, as its empire has seen it (p.26; AE-35, AE-56).
  Since version 28 (``CARD_CREATION_SINCE``) only; once a turn each (``RESEARCH_PER_TURN``);
  with room in the hand for the card (p.21; AE-6).
- **What**: a card of his ability's research list, the scenario's (``[[research.tactician]]``,
  ``[[research.technologist]]``, at most ``limits.RESEARCH_OFFER``): the list is the offer,
  every card of it offered, so that no hidden draw makes it (AE-73).
- **Cost**: the card's AP and resources, the list's, paid on the attempt whether it succeeds or
  not (AE-73: "its own AP and resource cost" is the price of trying).
- **The challenge** (p.28): a threshold challenge, the hero's X dice (digest §8.5, inferred)
  against the card's threshold, ties succeeding. Resolved at once by the referee's hidden roll
  (``challenge_moves.threshold_at_once``): no tactic card is played in it, and the hero spends
  no fate in it, since fate spent out of the other empire's sight would show in the next open
  challenge of the round, where he would hold less than it counts (AE-73).
- **Success**: the card, a new one numbered at random (``numbering.created_id``), goes to the
  hand; a failure leaves nothing but the price paid.
- **What the other empire learns** (AE-73): that a card was tried (the command's type), the
  resources paid (every stockpile is public), and from the hand's size whether it was created
  (AE-7); never the hero, where he stands, the card nor the dice. Every entry of the lists
  costs one price (``scenario_checks``), so that neither the AP nor the resources tell the card.
"""

from __future__ import annotations

from warlog.domain.armageddon_empires.abilities import has, level
from warlog.domain.armageddon_empires.cards import with_article
from warlog.domain.armageddon_empires.challenge import Pool, Side, Term
from warlog.domain.armageddon_empires.challenge_moves import threshold_at_once
from warlog.domain.armageddon_empires.commands import CARD_CREATION_SINCE, CreateCard
from warlog.domain.armageddon_empires.creators import CREATORS
from warlog.domain.armageddon_empires.guards import own_base_hex
from warlog.domain.armageddon_empires.limits import LAST_CARD_NUMBER
from warlog.domain.armageddon_empires.numbering import (
    CREATED_NUMBER_DICE,
    CREATED_NUMBER_PURPOSE,
    NUMBERING_SIDES,
    created_id,
    numbers_taken,
)
from warlog.domain.armageddon_empires.research_events import ResearchAttempted
from warlog.domain.armageddon_empires.scenario import ResearchEntry
from warlog.domain.armageddon_empires.state import Army, GameState
from warlog.domain.armageddon_empires.supply import is_besieged, supply_costs
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import RulesError, reject

#: the challenge's purpose, and its rolls' (public: every research's is the same)
PURPOSE = "research"
#: AE-73: a hero tries to create a card once in his empire's turn (the manual states no limit;
#: one, as an assassin's attempt, AE-71, and a saboteur's, AE-72)
RESEARCH_PER_TURN = 1


def played(state: GameState) -> bool:
    """Whether this game's rules play card creation: since version 28 (AE-73)."""
    return state.rules_version >= CARD_CREATION_SINCE


def offered(state: GameState, ability: str) -> list[ResearchEntry]:
    """The research list of ``ability`` (a key of ``creators.CREATORS``): the scenario's."""
    if state.research is None:
        return []
    return list(getattr(state.research, CREATORS[ability].key))


def army_of(state: GameState, empire: str, hero: str) -> Army | None:
    """The army of ``empire`` whose hero is ``hero``, if any."""
    return next((a for a in state.armies.values() if a.empire == empire and a.hero == hero), None)


def research_of(state: GameState, hero: str, card: str) -> tuple[str, ResearchEntry] | None:
    """The ability by which ``hero`` may try ``card`` and its entry, if one of his creator
    abilities' lists offers it."""
    abilities = state.card(hero).abilities
    for ability in CREATORS:
        if level(abilities, ability):
            for entry in offered(state, ability):
                if entry.card == card:
                    return ability, entry
    return None


def _holds_facility(state: GameState, player: str, at: str, facility: str) -> bool:
    """Whether a stronghold or outpost of ``player`` in hex ``at`` holds a card printing
    ``facility`` (Academy, Laboratory)."""
    base = own_base_hex(state, player, at)
    if base is None:
        return False
    return any(has(state.card(c).abilities, facility) for c in (base.card, *base.facilities))


def research_problem(state: GameState, player: str, hero: str, card: str) -> RulesError | None:
    """Why ``hero`` of ``player`` cannot try to create ``card`` now (AE-73), or None."""
    army = army_of(state, player, hero)
    if army is None:
        return reject(f"{player} has no hero {hero!r} in an army", "not_in_army")
    abilities = state.card(hero).abilities
    creates = [a for a in CREATORS if level(abilities, a)]
    if not creates:
        return reject(
            f"{hero} has no Tactician X nor Technologist X; only a hero with one creates cards "
            "(p.45; AE-73)",
            "not_a_creator",
        )
    found = research_of(state, hero, card)
    if found is None:
        lists = "; ".join(
            f"{a}: {', '.join(e.card for e in offered(state, a)) or 'none'}" for a in creates
        )
        return reject(
            f"{card!r} is not on the research list of {hero}'s {' nor '.join(creates)} "
            f"({lists}; AE-73)",
            "not_offered",
        )
    ability, entry = found
    emp = state.empires[player]
    if emp.researchers.count(hero) >= RESEARCH_PER_TURN:
        return reject(
            f"{hero} has already tried to create a card this turn (AE-73)", "already_researched"
        )
    if len(emp.hand) >= emp.hand_limit:
        return reject(
            f"{player}'s hand is full ({emp.hand_limit} cards, AE-6): a card created needs room "
            "in it (p.21; AE-73)",
            "hand_full",
        )
    facility = CREATORS[ability].facility
    if not _holds_facility(state, player, army.at, facility):
        return reject(
            f"no base of {player} at {army.at} holds {with_article(facility)}: a {ability} "
            "creates cards only where one does (digest §8.5; AE-73)",
            "no_facility",
        )
    if army.at not in supply_costs(state, player, emp.supply_range):
        return reject(
            f"{army.at} is out of {player}'s supply: cards are created only in supply (digest "
            "§8.5; AE-73)",
            "out_of_supply",
        )
    base = own_base_hex(state, player, army.at)
    assert base is not None
    if is_besieged(state, base):
        return reject(
            f"{base.id} at {army.at} is besieged: no card is created in a besieged base (digest "
            "§8.5; AE-73)",
            "besieged",
        )
    if numbers_taken(state, player, card) >= LAST_CARD_NUMBER:
        return reject(
            f"every number of {player}'s {card!r} cards, 1 to {LAST_CARD_NUMBER}, is taken: "
            "no more are numbered (AE-62, AE-73)",
            "too_many_cards",
        )
    if emp.ap < entry.ap:
        return reject(
            f"creating {card} costs {entry.ap} AP; {player} has {emp.ap}", "not_enough_ap"
        )
    if not emp.resources.covers(entry.cost):
        return reject(
            f"creating {card} costs {entry.cost.text()}; {player} has {emp.resources.text()}",
            "not_enough_resources",
        )
    return None


def create_card(batch: Batch[GameState], cmd: CreateCard) -> None:
    """The attempt's threshold challenge, resolved at once (the referee's hidden roll of the
    hero's dice, no fate spent), the hidden roll of a created card's number, made
    whatever the outcome, and ``research_attempted`` (AE-73). RulesError
    ``rules/not_in_this_version`` before version 28, and for a hero who may not try the card
    now (``research_problem``)."""
    state = batch.state
    if not played(state):
        raise RulesError(
            f"create_card is not played under version {state.rules_version} of these rules "
            f"(since version {CARD_CREATION_SINCE}, AE-73)",
            "rules/not_in_this_version",
        )
    problem = research_problem(state, cmd.player, cmd.hero, cmd.card)
    if problem:
        raise problem
    army = army_of(state, cmd.player, cmd.hero)
    found = research_of(state, cmd.hero, cmd.card)
    assert army is not None and found is not None
    ability, entry = found
    hero = state.card(cmd.hero)
    x = level(hero.abilities, ability)
    side = Side(
        empire=cmd.player,
        name=f"researcher {hero.name}",
        pool=Pool((Term(x, f"{ability} {x} of {hero.name}, p.45; AE-73"),)),
    )
    ch = threshold_at_once(batch, purpose=PURPOSE, side=side, threshold=entry.threshold)
    faces = batch.roll(
        CREATED_NUMBER_DICE,
        NUMBERING_SIDES,
        purpose=CREATED_NUMBER_PURPOSE,
        roller="",
        hidden=True,
    )
    outcome = ch.outcome("accepts")
    created = created_id(batch.state, cmd.player, entry.card, faces) if outcome.succeeded else None
    batch.emit(
        ResearchAttempted(
            empire=cmd.player,
            hero=cmd.hero,
            at=army.at,
            ability=ability,
            card=entry.card,
            ap_cost=entry.ap,
            paid=entry.cost,
            challenge=ch,
            outcome=outcome,
            created=created,
        )
    )


def legal_research(state: GameState, player: str) -> list[CreateCard]:
    """Every card each hero of ``player`` may try to create now; none before version 28."""
    if not played(state):
        return []
    out: list[CreateCard] = []
    for army in sorted(state.armies.values(), key=lambda a: a.id):
        if army.empire != player or army.hero is None:
            continue
        abilities = state.card(army.hero).abilities
        for ability in CREATORS:
            if not level(abilities, ability):
                continue
            for entry in offered(state, ability):
                if research_problem(state, player, army.hero, entry.card) is None:
                    out.append(CreateCard(player=player, hero=army.hero, card=entry.card))
    return out
