"""Engineers lay and lift minefields (p.46; AE-54, AE-55), in given-when-then form.

Red's sapper army (Engineer 2) stands at 2,0 on the plains of row 0, its plain trooper army at
1,0; red's hand holds two minefield cards; blue's minefield lies at 3,0 (test_minefields'
cards). A sapper walking into it is immune, so the move takes no minefield dice.
"""

from __future__ import annotations

from msgspec.structs import replace

from tests.domain.armageddon_empires.games import play
from tests.domain.armageddon_empires.helpers import game, only, start_turns, toml, with_ap
from tests.domain.armageddon_empires.invariants import check_invariants
from tests.domain.armageddon_empires.test_minefields import MINE_CARDS, army, minefield
from tests.given_when_then import Given
from warlog.domain.armageddon_empires.autoplay import choose
from warlog.domain.armageddon_empires.commands import (
    LayMinefield,
    LiftMinefield,
    MoveArmy,
)
from warlog.domain.armageddon_empires.costs import LAY_MINEFIELD_AP
from warlog.domain.armageddon_empires.invariants import violations
from warlog.domain.armageddon_empires.minefield_events import MinefieldLaid, MinefieldLifted
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.scenario_checks import parse_scenario
from warlog.domain.armageddon_empires.views import view

EMPIRES = """
[[empires]]
id = "red"
name = "Red"
resources = { humans = 9, materials = 9, energy = 5, technology = 1 }
hand = ["mines", "mines", "trooper"]
deck = ["trooper"]

[[empires]]
id = "blue"
name = "Blue"
resources = { humans = 9, materials = 9, energy = 5 }
hand = ["mines"]
deck = ["trooper"]
"""

ARMIES = (
    army("red-eng", "red", "2,0", None, "sapper")
    + army("red-foot", "red", "1,0", None, "trooper")
    + army("red-camp-eng", "red", "0,4", None, "sapper")
    + army("blue-a", "blue", "6,5", None, "trooper")
    + army("blue-eng", "blue", "5,0", None, "sapper")
)


def engineers(mines: str = minefield("blue-mines", "blue", "3,0")) -> Given:
    return start_turns(game(armies=MINE_CARDS + ARMIES + mines, empires=EMPIRES), "red")


def mine_card(g: Given, empire: str, nth: int = 0) -> str:
    hand = g.state.empires[empire].hand
    return [c for c in hand if g.state.instances[c].card == "mines"][nth]


def test_an_engineer_s_army_lays_a_minefield_card_of_the_hand_in_its_hex() -> None:
    g = engineers()
    card, ap = mine_card(g, "red"), g.state.empires["red"].ap
    laid = only(g.when(LayMinefield(player="red", army="red-eng", card=card)), MinefieldLaid)
    assert (laid.army, laid.engineer, laid.card, laid.at) == (
        "red-eng",
        "red.sapper.1",
        card,
        "2,0",
    )
    mine = g.state.minefields[laid.minefield]
    assert (mine.empire, mine.at, mine.card, mine.known_to) == ("red", "2,0", card, ())
    assert card not in g.state.empires["red"].hand
    assert g.state.empires["red"].ap == ap - 2 and laid.ap_cost == 2  # AE-54, R11
    assert "lays minefield" in laid.explain() and "AE-54" in laid.explain()
    # camouflaged: blue's view has no trace of it; red's shows it
    assert laid.minefield not in view(g.state, "blue")["minefields"]
    assert laid.minefield in view(g.state, "red")["minefields"]
    check_invariants(g.state)
    assert violations(g.state) == []


def test_a_laid_minefield_stops_and_attacks_an_enemy_army_that_walks_into_it() -> None:
    g = engineers()
    laid = only(
        g.when(LayMinefield(player="red", army="red-eng", card=mine_card(g, "red"))), MinefieldLaid
    )
    g.state = replace(with_ap(g, "blue", 6).state, current="blue")
    # blue's sapper (immune) walks from 5,0 toward 0,0's side and stops in red's new minefield
    g.when(MoveArmy(player="blue", army="blue-eng", to="1,1"), dice=[])
    assert g.state.armies["blue-eng"].at == "2,0"
    assert g.state.minefields[laid.minefield].known_to == ("blue",)


def test_laying_is_refused_without_an_engineer_in_the_army() -> None:
    g = engineers()
    g.when_rejected(
        LayMinefield(player="red", army="red-foot", card=mine_card(g, "red")), "rules/no_engineer"
    )


def test_laying_is_refused_in_a_base_hex() -> None:
    g = engineers()
    g.when_rejected(
        LayMinefield(player="red", army="red-camp-eng", card=mine_card(g, "red")), "rules/base_hex"
    )


def test_laying_is_refused_where_the_empire_already_has_a_minefield() -> None:
    g = engineers()
    g.when(LayMinefield(player="red", army="red-eng", card=mine_card(g, "red")))
    g.when_rejected(
        LayMinefield(player="red", army="red-eng", card=mine_card(g, "red")),
        "rules/minefield_there",
    )


def test_laying_is_refused_for_a_card_not_in_the_hand_or_not_a_minefield() -> None:
    g = engineers()
    in_deck = g.state.empires["red"].deck[0]
    trooper = next(c for c in g.state.empires["red"].hand if "trooper" in c)
    g.when_rejected(LayMinefield(player="red", army="red-eng", card=in_deck), "rules/not_in_hand")
    g.when_rejected(
        LayMinefield(player="red", army="red-eng", card=trooper), "rules/not_a_minefield"
    )


def test_laying_is_refused_for_an_army_of_the_other_empire() -> None:
    g = engineers()
    g.when_rejected(
        LayMinefield(player="red", army="blue-eng", card=mine_card(g, "red")), "rules/unknown_army"
    )


def test_laying_is_refused_without_the_ap() -> None:
    g = with_ap(engineers(), "red", 1)
    refused = g.when_rejected(
        LayMinefield(player="red", army="red-eng", card=mine_card(g, "red")), "rules/not_enough_ap"
    )
    assert str(refused) == "laying a minefield costs 2 AP; red has 1"  # AE-54, R11


def test_an_unknown_enemy_minefield_does_not_stop_a_lay_so_that_no_refusal_reveals_it() -> None:
    g = unaware(engineers())
    g.when(LayMinefield(player="red", army="red-eng", card=mine_card(g, "red")))
    assert sorted(m.empire for m in g.state.minefields.values() if m.at == "2,0") == [
        "blue",
        "red",
    ]
    assert violations(g.state) == []


def laid_by_blue(g: Given, army: str, at: str) -> str:
    """Given: blue's ``army`` (its Engineer ``blue.sapper.1``) laid the minefield card of its
    hand at ``at``; the card."""
    card = mine_card(g, "blue")
    with_ap(g, "blue", LAY_MINEFIELD_AP)
    laid = MinefieldLaid(
        empire="blue",
        army=army,
        engineer="blue.sapper.1",
        minefield=card,
        card=card,
        at=at,
        ap_cost=LAY_MINEFIELD_AP,
    )
    g.events(laid)
    return card


def unaware(g: Given) -> Given:
    """Given: blue's sapper laid a minefield at 2,0, where red's sapper stands unaware of it."""
    laid_by_blue(g, "blue-eng", "2,0")
    return g


def walked_in(g: Given) -> Given:
    """Red's sapper walks into blue's minefield at 3,0 (immune: no dice) and knows it."""
    g.when(MoveArmy(player="red", army="red-eng", to="4,0"), dice=[])
    assert g.state.armies["red-eng"].at == "3,0"
    assert g.state.minefields["blue-mines"].known_to == ("red",)
    return g


def test_an_engineer_s_army_lifts_a_known_enemy_minefield_in_its_hex() -> None:
    g = walked_in(engineers())
    ap = g.state.empires["red"].ap
    lifted = only(g.when(LiftMinefield(player="red", army="red-eng")), MinefieldLifted)
    assert (lifted.empire, lifted.controller) == ("red", "blue")
    assert (lifted.lifted_by.army, lifted.lifted_by.minefield) == ("red-eng", "blue-mines")
    assert lifted.lifted_from.minefield == "blue-mines" and lifted.lifted_from.at == "3,0"
    assert "blue-mines" not in g.state.minefields
    blue = g.state.empires["blue"]
    assert lifted.lifted_by.card in blue.discard and lifted.lifted_by.card not in blue.face_down
    assert g.state.empires["red"].ap == ap - 2  # AE-55, R11
    assert lifted.explain().startswith("red-eng lifts blue's minefield blue-mines (")
    assert lifted.explain().endswith(
        "at work (p.46): 2 AP; the card goes to blue's discard pile (AE-55)"
    )
    # blue's Events view reports the loss, not the army
    texts = [n.text for n in RULESET.notices(g.state, g.state, lifted)]
    assert texts and "blue-mines" in texts[0] and "red-eng" not in texts[0]
    check_invariants(g.state)


def test_lifting_is_refused_for_a_minefield_the_empire_does_not_know() -> None:
    g = unaware(engineers())
    g.when_rejected(LiftMinefield(player="red", army="red-eng"), "rules/no_known_minefield")
    g.when_rejected(LiftMinefield(player="red", army="red-camp-eng"), "rules/no_known_minefield")


def test_lifting_is_refused_without_an_engineer_or_the_ap() -> None:
    g = walked_in(engineers())
    g.when_rejected(LiftMinefield(player="red", army="red-foot"), "rules/no_engineer")
    with_ap(g, "red", 1)
    refused = g.when_rejected(LiftMinefield(player="red", army="red-eng"), "rules/not_enough_ap")
    assert str(refused) == "lifting a minefield costs 2 AP; red has 1"  # AE-55, R11


def test_an_empire_s_own_minefield_is_not_lifted() -> None:
    g = engineers()
    g.when(LayMinefield(player="red", army="red-eng", card=mine_card(g, "red")))
    g.when_rejected(LiftMinefield(player="red", army="red-eng"), "rules/no_known_minefield")


def test_legal_commands_list_every_lay_and_lift_and_each_is_accepted() -> None:
    g = walked_in(engineers())
    legal = [
        c
        for c in RULESET.legal_commands(g.state, "red")
        if isinstance(c, LayMinefield | LiftMinefield)
    ]
    cards = sorted({c for c in g.state.empires["red"].hand if "mines" in c})
    # the sapper in blue's known minefield lifts it; it lays nowhere there; the camp's is at a base
    assert legal == [LiftMinefield(player="red", army="red-eng")]
    g2 = engineers()
    legal2 = [c for c in RULESET.legal_commands(g2.state, "red") if isinstance(c, LayMinefield)]
    assert legal2 == [LayMinefield(player="red", army="red-eng", card=c) for c in cards]
    for command in legal + legal2:
        RULESET.decide(g.state if command in legal else g2.state, command, None)  # type: ignore[arg-type]


#: a small game for the autoplay policy: each side's sappers near the other's bases, minefield
#: cards in both hands, and each side's minefield on the other's road
AUTOPLAY = (
    army("red-eng", "red", "6,5", None, "sapper", "trooper")
    + army("blue-eng", "blue", "1,0", None, "sapper", "trooper")
    + minefield("blue-mines", "blue", "5,4")
    + minefield("red-mines", "red", "2,2")
)


def test_autoplay_first_lifts_a_known_enemy_minefield_an_engineer_s_army_stands_in() -> None:
    g = walked_in(engineers())
    legal = RULESET.legal_commands(g.state, "red")
    assert choose(g.state, "red", legal) == LiftMinefield(player="red", army="red-eng")


def test_autoplay_lays_minefields_and_the_invariants_hold() -> None:
    scenario = parse_scenario(toml(armies=MINE_CARDS + AUTOPLAY, empires=EMPIRES, max_rounds=6))
    played: set[str] = set()
    for seed in range(3):
        for _, command, _, after in play(seed=seed, scenario=scenario, max_commands=1500):
            played.add(type(command).__name__)
            assert violations(after) == []
            check_invariants(after)
    assert "LayMinefield" in played


def test_laying_needs_exactly_its_ap() -> None:
    g = with_ap(engineers(), "red", LAY_MINEFIELD_AP)
    lay = LayMinefield(player="red", army="red-eng", card=mine_card(g, "red"))
    assert lay in RULESET.legal_commands(g.state, "red")
    only(g.when(lay), MinefieldLaid)
    assert g.state.empires["red"].ap == 0


#: a unit printed with Minefield X: AE-50 makes a minefield of a facility card alone
RIGGED = """
[[cards]]
kind = "unit"
id = "rigged"
name = "Test Rigged"
attack = 1
defense = 1
hit_points = 1
movement = 2
abilities = ["Minefield 2"]
"""


def test_a_unit_with_minefield_x_is_not_laid_as_a_minefield() -> None:
    empires = EMPIRES.replace('hand = ["mines", "mines", "trooper"]', 'hand = ["rigged"]')
    g = start_turns(game(armies=MINE_CARDS + RIGGED + ARMIES, empires=empires), "red")
    rigged = g.state.empires["red"].hand[0]
    g.when_rejected(
        LayMinefield(player="red", army="red-eng", card=rigged), "rules/not_a_minefield"
    )
    assert not [c for c in RULESET.legal_commands(g.state, "red") if isinstance(c, LayMinefield)]
