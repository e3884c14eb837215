"""A Hypothesis state machine per ruleset: random legal play (and illegal commands that must
append nothing) through the real application, checking the rules' invariants, live = replayed,
and a clean audit after every step."""

from __future__ import annotations

from hypothesis import settings

from tests.domain.armageddon_empires.games import independent_minefields_text
from tests.domain.armageddon_empires.invariants import check_invariants as ae_invariants
from tests.domain.battle_for_armageddon.invariants import check_invariants as bfa_invariants
from tests.domain.heroic_battles.invariants import check_invariants as hb_invariants
from tests.state_machine import GameMachine


class ArmageddonEmpiresMachine(GameMachine):
    ruleset_name = "armageddon-empires"
    rule_invariants = staticmethod(ae_invariants)


TestArmageddonEmpires = ArmageddonEmpiresMachine.TestCase
TestArmageddonEmpires.settings = settings(max_examples=12, stateful_step_count=25, deadline=None)


class IndependentMinefieldsMachine(GameMachine):
    """The bundled scenario, its set-up hidden, with independent minefields on its armies'
    roads (AE-67)."""

    ruleset_name = "armageddon-empires"
    scenario_text = staticmethod(independent_minefields_text)
    rule_invariants = staticmethod(ae_invariants)


TestIndependentMinefields = IndependentMinefieldsMachine.TestCase
TestIndependentMinefields.settings = settings(max_examples=8, stateful_step_count=25, deadline=None)


class BattleForArmageddonMachine(GameMachine):
    ruleset_name = "battle-for-armageddon"
    rule_invariants = staticmethod(bfa_invariants)


TestBattleForArmageddon = BattleForArmageddonMachine.TestCase
TestBattleForArmageddon.settings = settings(max_examples=12, stateful_step_count=40, deadline=None)


class HeroicBattlesMachine(GameMachine):
    ruleset_name = "heroic-battles"
    rule_invariants = staticmethod(hb_invariants)


TestHeroicBattles = HeroicBattlesMachine.TestCase
TestHeroicBattles.settings = settings(max_examples=12, stateful_step_count=40, deadline=None)
