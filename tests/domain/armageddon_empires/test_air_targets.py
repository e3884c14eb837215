"""What an attack card may strike (p.31; AE-42): targets judged by its empire's sighting, a
target gone since found out when the card arrives. The set-up: ``air_helpers``.
"""

from __future__ import annotations

from tests.domain.armageddon_empires.air_helpers import launch, skies
from tests.domain.armageddon_empires.helpers import only
from warlog.domain.armageddon_empires.air_events import AirStrikeAdvanced, AirStrikeEnded
from warlog.domain.armageddon_empires.air_launch import legal_strikes
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
