"""What a mutation review of ``stealth.py`` found untested: engaging stealth is paid for, so an
empire without the AP is refused (R11; AE-23: 1 AP an army, p.10)."""

from __future__ import annotations

from tests.domain.armageddon_empires.arena import arena, begin
from tests.domain.armageddon_empires.helpers import army_block, with_ap
from warlog.domain.armageddon_empires.commands import EngageStealth
from warlog.domain.armageddon_empires.costs import STEALTH_AP
from warlog.domain.armageddon_empires.ruleset import RULESET

SNEAK = army_block("red-sneak", "red", "2,2", hero="shade", units=("wisp",))


def test_an_empire_without_the_ap_cannot_engage_stealth_nor_is_it_offered() -> None:
    # given red's army that can stealth (every card has Stealth X, p.27), red with 1 AP short
    g = with_ap(begin(arena(SNEAK)), "red", STEALTH_AP - 1)
    # when red engages stealth, then it is refused for the AP it lacks (AE-23: 1 AP an army)
    err = g.when_rejected(EngageStealth(player="red", army="red-sneak"), code="rules/not_enough_ap")
    assert "engaging stealth costs 1 AP; red has 0" in str(err)
    assert not g.state.armies["red-sneak"].stealthed
    assert not [c for c in RULESET.legal_commands(g.state, "red") if isinstance(c, EngageStealth)]
