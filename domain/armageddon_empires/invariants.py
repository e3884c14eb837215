"""What holds of every Armageddon Empires state at rest (after a whole command's batch).

The invariants, each named: AP and stockpiles are never negative, AP owed stays within its bound,
no hand holds more than its limit, every card instance is in exactly one place (a captured hero
is its captor's prisoner, at a base; a minefield's card in its minefield) and held by its owner,
a card lost face down is in its owner's discard pile, minefields stand in the open (at most one
of an empire in a hex), are controlled by an empire of the game or by none (independent; only
such a one is kept once spent or lifted, out of play, AE-67) and known only to other empires,
armies keep to the limits of p.22–23 with a hero in the hero's slot and
units in the units', stand on the map and stealth only when every card can, garrisons stay at
their bases and are their owners', bases hold facilities and their prisoners are enemy heroes,
a card makes one assassination attempt a turn (AE-71), a hero one attempt to create a card
(AE-73), fate spent stays within the card's fate, a challenge's dice are d6 and its fate never negative,
damage stays short of a card's limit, sightings are of enemy armies that exist, the round
clock (whose turn, the bids) is coherent, and since version 26 a battle in progress has gone
no more than its stalemate's rounds without a hit point lost (AE-31). ``invariants`` is the ruleset's ``Rules.invariants``
(its class imports it).
"""

from __future__ import annotations

from collections import Counter

from warlog.domain.armageddon_empires.abilities import ASSASSIN, STEALTH, level
from warlog.domain.armageddon_empires.cards import INDEPENDENT, AttackCard, HeroCard, damage_limit
from warlog.domain.armageddon_empires.challenge import FAILURE_FACE, SUCCESS_FACE, Challenge
from warlog.domain.armageddon_empires.costs import MAX_AP_OWED
from warlog.domain.armageddon_empires.creators import CREATORS
from warlog.domain.armageddon_empires.frames import Battle
from warlog.domain.armageddon_empires.ground_combat import STALEMATE_ROUNDS, STALEMATE_SINCE
from warlog.domain.armageddon_empires.limits import (
    MAX_ARMIES_PER_HEX,
    MAX_HEROES_PER_ARMY,
    MAX_UNITS_PER_ARMY,
)
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.core.invariants import Violation


def violations(state: GameState) -> list[Violation]:
    """The invariants ``state`` breaks; empty when all hold."""
    out: list[Violation] = []
    _empires(state, out)
    _bases(state, out)
    _minefields(state, out)
    _armies(state, out)
    _cards_in_one_place(state, out)
    _fate_and_damage(state, out)
    _challenges(state, out)
    _sightings(state, out)
    _clock(state, out)
    _battles(state, out)
    return out


def card_places(state: GameState) -> Counter[str]:
    """How many places hold each card instance: a hand, deck or discard pile, a base (its card,
    facilities and prisoners, p.24, p.30), an army, a minefield (p.32; AE-50)."""
    places: Counter[str] = Counter()
    for empire in state.empires.values():
        places.update((*empire.hand, *empire.deck, *empire.discard))
    for base in state.bases.values():
        places.update((base.card, *base.facilities, *base.prisoners))
    for army in state.armies.values():
        places.update(army.cards())
    places.update(m.card for m in state.minefields.values())
    return places


def _empires(state: GameState, out: list[Violation]) -> None:
    for empire in state.empires.values():
        if empire.ap < 0:
            out.append(Violation("ap_never_negative", f"{empire.id} has {empire.ap} AP"))
        if not 0 <= empire.ap_owed <= MAX_AP_OWED:  # AE-19: its next turn can always pay it
            out.append(
                Violation(
                    "ap_owed_within_bound",
                    f"{empire.id} owes {empire.ap_owed} AP, at most {MAX_AP_OWED}",
                )
            )
        r = empire.resources
        if min(r.humans, r.materials, r.energy, r.technology) < 0:
            out.append(Violation("stockpile_never_negative", f"{empire.id} holds {r}"))
        if len(empire.hand) > empire.hand_limit:  # AE-6
            out.append(Violation("hand_limit", f"{empire.id} holds {len(empire.hand)} cards"))
        for card in (*empire.hand, *empire.deck, *empire.discard):
            if state.instances[card].owner != empire.id:
                out.append(Violation("cards_held_by_owner", f"{empire.id} holds {card}"))
        if not set(empire.face_down) <= set(empire.discard):  # AE-49: face down in the pile
            out.append(Violation("face_down_in_discard", f"{empire.id}: {empire.face_down}"))
        _assassins(state, empire.id, empire.assassin_cards, out)
        _researchers(state, empire.id, empire.researchers, out)


def _assassins(state: GameState, empire: str, cards: tuple[str, ...], out: list[Violation]) -> None:
    """AE-71: the cards that made an attempt this turn are the empire's own assassins, each
    once, listed only in its own turn."""
    own_turn = state.phase == "turns" and state.current == empire
    wrong = [
        c
        for c in cards
        if state.instances[c].owner != empire or not level(state.card(c).abilities, ASSASSIN)
    ]
    if wrong or len(set(cards)) != len(cards) or (cards and not own_turn):
        out.append(
            Violation("assassins_once_a_turn", f"{empire} lists {list(cards)} as its assassins")
        )


def _researchers(
    state: GameState, empire: str, heroes: tuple[str, ...], out: list[Violation]
) -> None:
    """AE-73: the heroes that tried to create a card this turn are the empire's own creators,
    each once, listed only in its own turn."""
    own_turn = state.phase == "turns" and state.current == empire
    wrong = [
        h
        for h in heroes
        if state.instances[h].owner != empire
        or not any(level(state.card(h).abilities, a) for a in CREATORS)
    ]
    if wrong or len(set(heroes)) != len(heroes) or (heroes and not own_turn):
        out.append(
            Violation(
                "researchers_once_a_turn", f"{empire} lists {list(heroes)} as its researchers"
            )
        )


def _bases(state: GameState, out: list[Violation]) -> None:
    for base in state.bases.values():
        garrison = state.armies.get(base.garrison)
        if garrison is None:
            out.append(Violation("garrisons", f"{base.id} lost its garrison"))
        elif garrison.empire != base.empire:
            # AE-8, AE-34: a base taken changes its garrison with it; enemy armies may stand in
            # its hex (besieging it, delayed, stealthed; p.26, p.33) but never garrison it
            out.append(
                Violation("garrisons", f"{base.id} of {base.empire} is held by {garrison.empire}")
            )
        for card in (base.card, *base.facilities):  # p.18: a base is its facility cards
            kind = state.card(card).kind
            if kind != "facility":
                out.append(Violation("bases_hold_facilities", f"{base.id} holds {card}, a {kind}"))
        for hero in base.prisoners:  # p.24, p.30: a captured enemy hero is held at a base
            kind, owner = state.card(hero).kind, state.instances[hero].owner
            if kind != "hero" or owner == base.empire:
                out.append(
                    Violation(
                        "prisoners_are_enemy_heroes",
                        f"{base.id} of {base.empire} holds {hero}, a {kind} of {owner}",
                    )
                )


def _minefields(state: GameState, out: list[Violation]) -> None:
    bases_at = {b.at for b in state.bases.values()}
    standing = [m for m in state.minefields.values() if m.standing]
    mined = Counter((m.empire, m.at) for m in standing)
    twice = sorted(at for at, n in mined.items() if n > 1)
    if twice:  # AE-54: never two an empire knows of in a hex
        out.append(Violation("minefields_in_the_open", f"two in one hex: {twice}"))
    for mine in state.minefields.values():  # p.32; AE-50: a facility in the open
        if mine.at not in state.board.terrain or mine.at in bases_at:
            out.append(Violation("minefields_in_the_open", f"{mine.id} is at {mine.at}"))
        if state.instances[mine.card].owner != mine.empire:
            out.append(Violation("cards_held_by_owner", f"{mine.empire} holds {mine.card}"))
        # AE-50, AE-67: an empire of the game controls it, or none (independent), and only the
        # other empires walk into it
        if mine.empire not in (*state.seats, INDEPENDENT):
            out.append(Violation("minefield_controllers", f"{mine.id} of {mine.empire!r}"))
        if not set(mine.known_to) <= set(state.seats) - {mine.empire}:
            out.append(
                Violation("minefield_controllers", f"{mine.id} known to {list(mine.known_to)}")
            )
        # AE-52, AE-67: an empire's spent or lifted minefield is discarded; an independent one
        # is kept out of play, its damage gone with it
        if not mine.standing and (mine.empire != INDEPENDENT or mine.card in state.damage):
            out.append(Violation("minefields_out_of_play", f"{mine.id} of {mine.empire!r}"))


def _armies(state: GameState, out: list[Violation]) -> None:
    per_hex: Counter[tuple[str, str]] = Counter()
    for army in state.armies.values():
        # an army's cards are its empire's (AE-66 rolls an army's dice and its cards' under one
        # empire: the army's for its collateral die, each card's owner for its challenge)
        strays = [c for c in army.cards() if state.instances[c].owner != army.empire]
        if strays:
            out.append(Violation("cards_held_by_owner", f"{army.id} holds {strays}"))
        if len(army.units) > MAX_UNITS_PER_ARMY or (army.hero is not None) > MAX_HEROES_PER_ARMY:
            out.append(Violation("army_size", f"{army.id} holds {len(army.units)} units"))
        # p.22–23: an army is one hero card and unit cards, each in its own slot
        slots = [("hero", army.hero)] if army.hero is not None else []
        for slot, card in (*slots, *(("unit", u) for u in army.units)):
            kind = state.card(card).kind
            if kind != slot:
                out.append(
                    Violation("army_slots", f"{army.id} holds {card}, a {kind}, as a {slot}")
                )
        if army.stealthed:  # p.23, p.27: only an army whose every card can stealth
            cannot = [c for c in army.cards() if level(state.card(c).abilities, STEALTH) < 1]
            if cannot:
                out.append(
                    Violation(
                        "stealth_needs_every_card",
                        f"{army.id} is stealthed with {cannot}, which cannot stealth",
                    )
                )
        if army.at not in state.board.terrain:
            out.append(Violation("armies_on_the_map", f"{army.id} is at {army.at}"))
        if army.garrison_of is not None:
            home = state.bases.get(army.garrison_of)
            if home is None or home.garrison != army.id or home.at != army.at:
                out.append(Violation("garrisons", f"{army.id} is not at its base"))
        per_hex[army.empire, army.at] += 1
    crowded = [f"{e} at {at}" for (e, at), n in per_hex.items() if n > MAX_ARMIES_PER_HEX]
    if crowded:
        out.append(Violation("armies_per_hex", f"more than {MAX_ARMIES_PER_HEX}: {crowded}"))


def _cards_in_one_place(state: GameState, out: list[Violation]) -> None:
    places = card_places(state)
    if set(places) != set(state.instances) or any(n != 1 for n in places.values()):
        wrong = sorted(
            {*set(state.instances) ^ set(places), *(c for c, n in places.items() if n != 1)}
        )
        out.append(Violation("cards_in_one_place", f"cards not in exactly one place: {wrong}"))


def _fate_and_damage(state: GameState, out: list[Violation]) -> None:
    for card, spent in state.fate_spent.items():
        # R6, AE-16: a hero's (or an attack card's, p.19) fate spent stays spent until the round
        # ends, so this round's spending never passes the fate printed on the card
        spec = state.card(card).spec
        fate = spec.fate if isinstance(spec, HeroCard | AttackCard) else 0
        if not 0 <= spent <= fate:
            out.append(Violation("fate_spent_within_fate", f"{card} spent {spent} fate of {fate}"))
    for card, taken in state.damage.items():
        # AE-24 (p.17–19, p.31, p.34): damage at the card's limit destroys it; none is not kept
        limit = damage_limit(state.card(card).spec)
        if not 0 < taken < limit:
            out.append(
                Violation("damage_short_of_the_limit", f"{card} has taken {taken} of {limit}")
            )


def _challenges(state: GameState, out: list[Violation]) -> None:
    for frame in state.frames:
        if not isinstance(frame, Challenge):
            continue
        for role, side in (("attacker", frame.attacker), ("defender", frame.defender)):
            if side is None:
                continue
            # R1: every die of a challenge is a d6 (a tactic card's dice show 1 or 6, AE-16), so
            # that its successes are its faces of 4 and more
            if any(not FAILURE_FACE <= f <= SUCCESS_FACE for f in side.faces):
                out.append(
                    Violation(
                        "challenge_dice_are_d6",
                        f"challenge {frame.number}'s {role} shows {list(side.faces)}",
                    )
                )
            if side.fate_bonus < 0 or side.fate_spent < 0:  # R6, AE-16: fate is points held
                out.append(
                    Violation(
                        "challenge_fate_never_negative",
                        f"challenge {frame.number}'s {role} was given {side.fate_bonus} fate "
                        f"and spent {side.fate_spent}",
                    )
                )


def _sightings(state: GameState, out: list[Violation]) -> None:
    for observer, seen in state.sightings.items():  # AE-17: an empire sights enemy armies
        for army, sighting in sorted(seen.items()):
            if sighting.empire == observer:
                out.append(Violation("sightings_of_enemies", f"{observer} sights its own {army}"))
            elif army not in state.armies:
                out.append(
                    Violation("sightings_of_enemies", f"{observer} sights {army}, which is gone")
                )


def _clock(state: GameState, out: list[Violation]) -> None:
    if not 1 <= state.round <= state.max_rounds:  # AE-10
        out.append(Violation("rounds", f"round {state.round} of {state.max_rounds}"))
    # AE-3, p.22: bids are bought in the initiative phase and paid when the dice roll; the
    # player turns go in the order rolled; nobody plays outside them
    if state.phase == "turns":
        broken = state.current not in state.order or bool(state.bids)
    elif state.phase == "initiative":
        broken = state.current is not None or not set(state.bids) <= set(state.seats)
    else:
        broken = state.current is not None
    if broken:
        out.append(
            Violation(
                "whose_turn",
                f"{state.phase} phase with {state.current!r} to play in the order "
                f"{list(state.order)} and bids from {sorted(state.bids)}",
            )
        )


def _battles(state: GameState, out: list[Violation]) -> None:
    """AE-31 since version 26: a battle in progress is at most ``STALEMATE_ROUNDS`` rounds past
    the last of its rounds in which a strike took a hit point (or its start). With no card
    gaining hit points in a battle, this bounds every battle's rounds (docs/rulings.md)."""
    if state.rules_version < STALEMATE_SINCE:
        return
    for b in state.frames:
        if isinstance(b, Battle) and not 0 <= b.round - state.hurt_round <= STALEMATE_ROUNDS:
            out.append(
                Violation(
                    "battle_ends_in_stalemate",
                    f"{b.name} is in round {b.round}; a strike last took a hit point in its "
                    f"round {state.hurt_round} (at most {STALEMATE_ROUNDS} rounds without)",
                )
            )


#: the ruleset's ``invariants`` (``ArmageddonEmpires`` imports it into its class body)
invariants = staticmethod(violations)
