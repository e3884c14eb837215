"""What an attack card may strike (p.31; AE-42): targets judged by its empire's sighting, a
target gone since found out when the card arrives. The set-up: ``air_helpers``.
"""

from __future__ import annotations

from msgspec.structs import replace

from tests.domain.armageddon_empires.air_helpers import launch, skies
from tests.domain.armageddon_empires.helpers import only, sight
from warlog.domain.armageddon_empires.air_events import AirStrikeAdvanced, AirStrikeEnded
from warlog.domain.armageddon_empires.air_launch import legal_strikes
from warlog.domain.armageddon_empires.air_targets import unit_targets
from warlog.domain.armageddon_empires.challenge_events import CardDamaged, ChallengeOpened
from warlog.domain.armageddon_empires.commands import PlayAttackCard
from warlog.domain.armageddon_empires.sighting_events import StealthEngaged


def test_targets_are_judged_by_red_s_sighting_and_a_target_gone_since_is_found_out_on_arrival() -> (
    None
):
    # given red sighted blue-a (Test Plate) at 3,2, and blue-a has since engaged stealth unseen
    seen = skies(["harrier"], [])
    gone = skies(["harrier"], []).events(
        StealthEngaged(empire="blue", army="blue-a", level=1, ap_cost=0)
    )
    # then red is offered and refused the same strikes in both (AE-42, as AE-38)
    assert legal_strikes(gone.state, "red") == legal_strikes(seen.state, "red")
    aimed = PlayAttackCard(player="red", card="red.harrier.1", at="3,2", target="blue.plate.1")
    assert aimed in legal_strikes(gone.state, "red")
    # when it strikes blue-a's card, the card arrives to find it gone: AP spent, no challenge
    ap = gone.state.empires["red"].ap
    events = launch(gone, aimed, dice=[])
    why = [e.why for e in events if isinstance(e, AirStrikeAdvanced)]
    assert why[-1] == "blue.plate.1 is no longer there (AE-42)"
    assert not any(isinstance(e, ChallengeOpened | CardDamaged) for e in events)
    assert only(events, AirStrikeEnded).survived
    assert gone.state.empires["red"].ap == ap - 2


def test_a_game_of_version_6_offers_only_the_sighted_units_still_standing_there() -> None:
    # given a game of version 6: red sighted blue-a's plate at 3,2
    seen = skies(["harrier"], [], version=6)
    assert unit_targets(seen.state, "red", "3,2") == ["blue.plate.1"]
    # once blue-a has engaged stealth, even unseen, it offers nothing (AE-42 as version 6 had it)
    gone = seen.events(StealthEngaged(empire="blue", army="blue-a", level=1, ap_cost=0))
    assert unit_targets(gone.state, "red", "3,2") == []


def test_an_attack_card_never_strikes_its_own_empire_s_base() -> None:
    # given red's HQ at 0,0, in reach of its hawk
    g = skies(["hawk"], [])
    # then red may not strike it: a facility target is an enemy base's (p.31; AE-42)
    err = g.when_rejected(
        PlayAttackCard(player="red", card="red.hawk.1", at="0,0", aim="facility"),
        code="rules/no_air_target",
    )
    assert "0,0 holds no enemy base (p.31; AE-42)" in str(err)
    assert not [s for s in legal_strikes(g.state, "red") if s.at == "0,0"]


def test_an_army_red_sighted_stealthed_offers_no_unit_to_strike() -> None:
    # given red's last sighting of blue-a found it stealthed (p.31; AE-42)
    g = skies(["hawk"], [])
    army = replace(g.state.armies["blue-a"], stealthed=True)
    g.state = replace(g.state, armies={**g.state.armies, "blue-a": army})
    g = sight(g, "red", "blue-a")
    # then a hawk aimed at a unit there finds none to strike
    err = g.when_rejected(
        PlayAttackCard(player="red", card="red.hawk.1", at="3,2", aim="unit"),
        code="rules/no_air_target",
    )
    assert "3,2 holds no unit of an enemy army you have sighted there" in str(err)
