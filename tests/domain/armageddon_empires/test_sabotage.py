"""Sabotage (p.29, p.45, p.48; AE-72; version 27): a saboteur in an enemy base's hex damages or
destroys a facility picked at random or named by a Master Saboteur; a Demolitionist destroys it
with one point; Counter Intel makes it a duel that wounds the saboteur; in given-when-then form."""

from __future__ import annotations

import msgspec
import pytest

from tests.domain.armageddon_empires.arena import EMPIRES, arena, begin, toml, top
from tests.domain.armageddon_empires.helpers import (
    PICK,
    army_block,
    base_block,
    only,
    standing_in,
    with_ap,
)
from tests.given_when_then import Given
from warlog.domain.armageddon_empires.battle_events import BaseRazed
from warlog.domain.armageddon_empires.challenge_events import (
    CardDamaged,
    ChallengeOpened,
    ChallengeResolved,
)
from warlog.domain.armageddon_empires.commands import (
    AcceptChallenge,
    Roll,
    Sabotage,
    TakePrerogative,
)
from warlog.domain.armageddon_empires.costs import SABOTAGE_AP
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.sabotage_events import SabotageBegan, SabotageEnded
from warlog.domain.armageddon_empires.targets import TARGET_SIDES
from warlog.domain.core.errors import InputError
from warlog.domain.core.events import DiceRolled, Event

#: the saboteurs and the Counter Intel facility, among the arena's cards (before its empires)
AGENTS = """
[[cards]]
kind = "hero"
id = "mole"
name = "Test Mole"
fate = 2
wounds = 2
movement = 3
abilities = ["Saboteur 3", "Stealth 3"]

[[cards]]
kind = "hero"
id = "wrecker"
name = "Test Wrecker"
fate = 0
wounds = 1
movement = 3
abilities = ["Saboteur 2", "Master Saboteur", "Demolitionist"]
"""
MAST_CARD = """
[[cards]]
kind = "facility"
id = "mast"
name = "Test Listening Mast"
defense = 1
structure = 3
level = 2
abilities = ["Counter Intel"]
"""

AGENTS += MAST_CARD

#: a unit saboteur: it has hit points, where a hero has wound points
SAPPER = """
[[cards]]
kind = "unit"
abilities = ["Saboteur 1", "Stealth 3"]
id = "sapper"
name = "Test Sapper"
hit_points = 3
attack = 1
defense = 1
movement = 3
"""

#: blue's stronghold at 6,3 (plains): its Test Keep (defence 5, structure 8) and a Test Veil
#: (defence 1, structure 2), a trooper in garrison; red's as in the arena
BASES = (
    base_block("red-hq", "red", "0,0", facilities=("sniffer",), garrison=("trooper",))
    + base_block("red-camp", "red", "0,3", card="camp", kind="outpost")
    + base_block("blue-hq", "blue", "6,3", facilities=("veil",), garrison=("trooper",))
)
KEEP, VEIL, MAST = "blue.keep.1", "blue.veil.1", "blue.mast.1"
MOLE, WRECKER = "red.mole.1", "red.wrecker.1"
#: the hidden picks of the first and the second of blue-hq's two facilities (its card first)
FIRST, SECOND = [1, 1, 1], [1, 1, 2]


def sabotage_game(hero: str = "mole", bases: str = BASES, version: int | None = None) -> Given:
    """Red's ``hero`` alone in a stealthed army in blue-hq's hex, in red's turn (12 AP)."""
    armies = army_block("red-op", "red", "5,3", hero=hero)
    g = begin(arena(armies, bases=bases, empires=AGENTS + EMPIRES))
    if version is not None:
        g.ruleset = RULESET.at_version(str(version))
        g.state = msgspec.structs.replace(g.state, rules_version=version)
    return standing_in(g, "red-op", "6,3", stealthed=True)


def sabotaged(g: Given, command: Sabotage, pick: list[int], dice: list[int]) -> list[Event]:
    """``command`` with its hidden pick, then (its challenge waiting for the saboteur's roll
    after that hidden roll, AE-37) the roll of ``dice``: the events of both."""
    events = g.when(command, dice=pick)
    assert g.state.awaiting is not None
    return events + g.when(Roll(player="red"), dice=dice)


def accepted(g: Given) -> list[Event]:
    """Blue, then red, accept the challenge as it stands."""
    return g.when(AcceptChallenge(player="blue")) + g.when(AcceptChallenge(player="red"))


def test_a_saboteur_s_surplus_damages_the_facility_its_hidden_roll_picked() -> None:
    # given red's Mole (Saboteur 3) in a stealthed army in blue's stronghold's hex
    g = sabotage_game()
    # when he sabotages, his hidden pick choosing the keep, 3 successes against none of 5 dice
    events = sabotaged(g, Sabotage(player="red", saboteur=MOLE), FIRST, [6, 6, 6, 1, 1, 1, 1, 1])
    pick = events[0]
    assert pick == DiceRolled(
        sides=TARGET_SIDES, faces=FIRST, purpose="sabotage target", roller="", hidden=True
    )
    began = only(events, SabotageBegan)
    assert (began.frame.target, began.chosen_by, began.candidates) == (KEEP, "die", (KEEP, VEIL))
    assert g.state.empires["red"].ap == 12 - SABOTAGE_AP
    opened = only(events, ChallengeOpened).challenge
    assert (opened.kind, opened.attacker.pool.size, opened.defender.pool.size) == ("opposed", 3, 5)  # type: ignore[union-attr]
    # then, both accepting, the keep takes the surplus, 3 of its 8 structure
    after = accepted(g)
    assert only(after, SabotageEnded).dealt == 3
    hit = only(after, CardDamaged)
    assert (hit.card, hit.amount, hit.total, hit.destroyed) == (KEEP, 3, 3, False)
    assert g.state.damage[KEEP] == 3 and not g.state.frames
    # and red's army keeps its stealth, unseen by blue, who saw the Mole's card alone
    assert g.state.armies["red-op"].stealthed and "red-op" not in g.state.sightings.get("blue", {})
    assert "mole" in g.state.empires["blue"].seen


def test_a_sabotage_destroys_the_facility_at_its_structure() -> None:
    # given the Mole's hidden pick choosing the veil (structure 2)
    g = sabotage_game()
    sabotaged(g, Sabotage(player="red", saboteur=MOLE), SECOND, [6, 6, 6, 1])
    # when both accept 3 successes against none
    hit = only(accepted(g), CardDamaged)
    # then the veil is destroyed and leaves blue's base
    assert (hit.card, hit.amount, hit.destroyed) == (VEIL, 3, True)
    assert g.state.bases["blue-hq"].facilities == ()
    assert VEIL in g.state.empires["blue"].discard


def test_a_master_saboteur_names_his_target_and_a_demolitionist_destroys_it_with_one_point() -> (
    None
):
    # given red's Wrecker (Saboteur 2, Master Saboteur, Demolitionist) in blue's stronghold's hex
    g = sabotage_game("wrecker")
    legal = [c for c in RULESET.legal_commands(g.state, "red") if isinstance(c, Sabotage)]
    assert [c.target for c in legal] == [None, KEEP, VEIL]
    # when he names the keep and wins by one success
    named = Sabotage(player="red", saboteur=WRECKER, target=KEEP)
    events = sabotaged(g, named, PICK, [6, 1, 1, 1, 1, 1, 1])
    assert only(events, SabotageBegan).chosen_by == "master saboteur"
    after = accepted(g)
    # then a single point destroys the keep, all 8 of its structure, and razes blue's stronghold
    ended = only(after, SabotageEnded)
    assert ended.dealt == 8 and "Demolitionist" in ended.note
    hit = only(after, CardDamaged)
    assert (hit.card, hit.amount, hit.destroyed) == (KEEP, 8, True)
    assert only(after, BaseRazed).base == "blue-hq"


def test_a_demolitionist_s_blow_tells_only_the_damage_the_facility_took_in_the_open() -> None:
    # given blue's keep (8 structure) with 3 damage, 2 of it from a hidden challenge (collateral
    # damage, WMD or a minefield: blue's secret, AE-49)
    g = sabotage_game("wrecker")
    g.state = msgspec.structs.replace(g.state, damage={KEEP: 3}, hidden_damage={KEEP: 2})
    # when red's Wrecker names the keep and wins by one success
    named = Sabotage(player="red", saboteur=WRECKER, target=KEEP)
    sabotaged(g, named, PICK, [6, 1, 1, 1, 1, 1, 1])
    after = accepted(g)
    # then the keep is destroyed, and what red is told counts the 1 damage taken in the open
    ended = only(after, SabotageEnded)
    assert ended.dealt == 7 and "(7 structure left of the damage taken in the open)" in ended.note
    hit = only(after, CardDamaged)
    assert (hit.card, hit.amount, hit.total, hit.destroyed) == (KEEP, 7, 8, True)
    assert only(after, BaseRazed).base == "blue-hq"


def test_a_demolitionist_s_failed_sabotage_destroys_nothing() -> None:
    # given red's Wrecker (Saboteur 2, Demolitionist) naming blue's keep
    g = sabotage_game("wrecker")
    named = Sabotage(player="red", saboteur=WRECKER, target=KEEP)
    # when his 2 dice make no success against the keep's one of 5
    sabotaged(g, named, PICK, [1, 1, 6, 1, 1, 1, 1])
    after = accepted(g)
    # then the keep takes nothing: a Demolitionist destroys only with a point dealt (p.45)
    assert only(after, SabotageEnded).dealt == 0
    assert not [e for e in after if isinstance(e, (CardDamaged, BaseRazed))]
    assert KEEP not in g.state.damage and "blue-hq" in g.state.bases


def test_counter_intel_makes_the_sabotage_a_duel_that_wounds_the_saboteur() -> None:
    # given a Listening Mast (Counter Intel, level 2) among blue-hq's facilities
    bases = BASES.replace('facilities = ["veil"]', 'facilities = ["mast"]')
    g = sabotage_game(bases=bases)
    # when the Mole sabotages the keep and rolls no success against 2
    events = sabotaged(g, Sabotage(player="red", saboteur=MOLE), FIRST, [1, 1, 1, 6, 6, 1, 1, 1])
    frame = only(events, SabotageBegan).frame
    assert (frame.counter_intel, frame.intel_level) == (MAST, 2)
    # the facility defends with the mast's level in fate, in a duel
    ch = top(g)
    assert ch.kind == "duel" and ch.defender is not None and ch.defender.fate_bonus == 2
    # then blue takes the prerogative and its surplus of 2 wounds the Mole to death
    after = g.when(TakePrerogative(player="blue"))
    assert only(after, SabotageEnded).wounds == 2
    hit = only(after, CardDamaged)
    assert (hit.card, hit.amount, hit.destroyed) == (MOLE, 2, True)
    assert "red-op" not in g.state.armies  # left empty (AE-24)


def test_a_duel_s_surplus_is_a_hero_s_wounds_and_a_unit_s_damage_each_on_its_own_page() -> None:
    # given a Listening Mast (Counter Intel) among blue-hq's facilities, and the Mole, a hero
    bases = BASES.replace('facilities = ["veil"]', 'facilities = ["mast"]')
    g = sabotage_game(bases=bases)
    # when his sabotage of the keep makes no success against its one
    sabotaged(g, Sabotage(player="red", saboteur=MOLE), FIRST, [1, 1, 1, 6, 1, 1, 1, 1])
    before = g.state
    after = g.when(TakePrerogative(player="blue"))
    # then the challenge is sabotage's duel (p.29, p.48), and its surplus one wound to him
    resolved = only(after, ChallengeResolved).explain()
    assert "1 damage to the attacker (a duel, p.29, p.48)" in resolved
    ended = only(after, SabotageEnded)
    assert ended.explain() == (
        "saboteur 0 successes ≤ facility 1 success: no damage to blue.keep.1 (R5); a duel "
        "(Counter Intel, p.29, p.48): the facility's surplus 1 − 0 = 1 wound to red.mole.1"
    )
    assert [n.text for n in RULESET.notices(before, g.state, ended)] == [
        "Round 1: the sabotage of blue.keep.1: red.mole.1 takes 1 wound"
    ] * 2

    # given a unit saboteur instead, the Sapper (Saboteur 1, 3 hit points)
    armies = army_block("red-op", "red", "5,3", units=("sapper",))
    g = standing_in(
        begin(arena(armies, bases=bases, empires=SAPPER + AGENTS + EMPIRES)), "red-op", "6,3"
    )
    sapper = g.state.armies["red-op"].units[0]
    # when it fails by two against the keep
    sabotaged(g, Sabotage(player="red", saboteur=sapper), FIRST, [1, 6, 6, 1, 1, 1])
    before = g.state
    after = g.when(TakePrerogative(player="blue"))
    # then its surplus is damage to the unit's hit points, not wounds
    ended = only(after, SabotageEnded)
    assert ended.explain().endswith(
        f"the facility's surplus 2 − 0 = 2 damage to {sapper} (a unit: to its hit points)"
    )
    assert [n.text for n in RULESET.notices(before, g.state, ended)] == [
        f"Round 1: the sabotage of blue.keep.1: {sapper} takes 2 damage"
    ] * 2
    assert g.state.damage[sapper] == 2


def test_only_a_master_saboteur_names_a_facility_and_only_one_of_the_base() -> None:
    g = sabotage_game()
    error = g.when_rejected(
        Sabotage(player="red", saboteur=MOLE, target=KEEP), code="rules/no_master_saboteur"
    )
    assert "only a Master Saboteur names the facility it sabotages" in error.message
    g = sabotage_game("wrecker")
    error = g.when_rejected(
        Sabotage(player="red", saboteur=WRECKER, target="red.keep.1"), code="rules/bad_target"
    )
    assert error.message == (
        "'red.keep.1' is not a facility of blue-hq at 6,3; its facilities are blue.keep.1, "
        "blue.veil.1"
    )


def test_a_saboteur_outside_an_enemy_base_s_hex_has_nothing_to_sabotage() -> None:
    # given the Mole one hex short of blue's stronghold
    g = begin(
        arena(
            army_block("red-op", "red", "5,3", hero="mole"), bases=BASES, empires=AGENTS + EMPIRES
        )
    )
    assert not [c for c in RULESET.legal_commands(g.state, "red") if isinstance(c, Sabotage)]
    # then his sabotage is refused with one line
    error = g.when_rejected(Sabotage(player="red", saboteur=MOLE), code="rules/no_target")
    assert error.message == (
        "no enemy stronghold or outpost stands at 5,3; a saboteur sabotages the facilities of one "
        "in its own hex (p.28; AE-72)"
    )


def test_a_sabotage_needs_its_ap_and_is_made_once_a_turn() -> None:
    g = with_ap(sabotage_game(), "red", SABOTAGE_AP - 1)
    error = g.when_rejected(Sabotage(player="red", saboteur=MOLE), code="rules/not_enough_ap")
    assert error.message == "a sabotage costs 2 AP; red has 1"
    g = sabotage_game()
    sabotaged(g, Sabotage(player="red", saboteur=MOLE), FIRST, [1, 1, 1, 6, 1, 1, 1, 1])
    g.when(TakePrerogative(player="blue"))  # no damage to the keep: the dice stand
    assert not g.state.frames
    g.when_rejected(Sabotage(player="red", saboteur=MOLE), code="rules/already_sabotaged")


def test_a_game_of_version_26_refuses_the_sabotage() -> None:
    g = sabotage_game(version=26)
    assert not [c for c in RULESET.legal_commands(g.state, "red") if isinstance(c, Sabotage)]
    error = g.when_rejected(Sabotage(player="red", saboteur=MOLE), code="rules/not_in_this_version")
    assert error.message == (
        "sabotage is played since version 27 of these rules; this game's is 26 (AE-72)"
    )


@pytest.mark.parametrize("printed", ["Saboteur 3", "Master Saboteur", "Demolitionist"])
def test_a_scenario_of_version_26_refuses_the_saboteur_s_abilities(printed: str) -> None:
    # the Mole prints it first, before his Saboteur 3 if it is a qualifier of it (p.45)
    kept = "" if printed == "Saboteur 3" else '"Saboteur 3", '
    mole = AGENTS.replace('"Saboteur 3", ', f'"{printed}", {kept}')
    text = toml(empires=mole + EMPIRES).encode()
    old = RULESET.at_version("26")
    assert old is not None
    with pytest.raises(InputError, match=f"'{printed}' is not played by version 26"):
        old.parse_scenario(text)
    assert RULESET.parse_scenario(text)  # version 27 plays it


def test_a_scenario_of_version_26_refuses_counter_intel() -> None:
    text = toml(empires=MAST_CARD + EMPIRES).encode()
    old = RULESET.at_version("26")
    assert old is not None
    with pytest.raises(InputError, match="'Counter Intel' is not played by version 26"):
        old.parse_scenario(text)


def test_explain_shows_the_rule_its_page_its_ruling_and_the_arithmetic() -> None:
    g = sabotage_game()
    events = sabotaged(g, Sabotage(player="red", saboteur=MOLE), FIRST, [6, 6, 6, 1, 1, 1, 1, 1])
    assert only(events, SabotageBegan).explain() == (
        "red's saboteur red.mole.1 (Saboteur 3) sabotages blue.keep.1 of blue's blue-hq at 6,3 "
        "for 2 AP (R11; AE-72); target: picked by the referee's hidden roll among blue.keep.1, "
        "blue.veil.1 (p.45; AE-72)"
    )
    assert "saboteur Test Mole (red.mole.1) (red) pool 3 = 3 (Saboteur 3 of Test Mole, p.45)" in (
        only(events, ChallengeOpened).explain()
    )
    assert only(accepted(g), SabotageEnded).explain() == (
        "saboteur 3 successes > facility 0 successes: 3 damage to blue.keep.1 (R5): 3 dealt"
    )


def test_both_sides_are_told_of_the_sabotage_and_blue_sees_the_saboteur_not_his_army() -> None:
    g = sabotage_game()
    before = g.state
    events = g.when(Sabotage(player="red", saboteur=MOLE), dice=FIRST)
    began = only(events, SabotageBegan)
    notices = RULESET.notices(before, g.state, began)
    assert [(n.empire, n.text) for n in notices] == [
        (e, "Round 1: red's saboteur red.mole.1 sabotages blue.keep.1 at 6,3")
        for e in ("red", "blue")
    ]
    # blue, whose facility the Mole sabotages, sees his card (the challenge waits for red's
    # roll); not the army he stands in, nor which of red's saboteurs have acted
    blue = RULESET.view(g.state, "blue")
    assert MOLE in blue["instances"] and "red-op" not in blue["armies"]
    assert "sabotaged" not in blue["empires"]["red"]
    assert RULESET.view(g.state, "red")["empires"]["red"]["sabotaged"] == [MOLE]
