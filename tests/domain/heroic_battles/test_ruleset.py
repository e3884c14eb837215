"""The ruleset contract: registration, tags (pinned: never reused or renamed), command JSON, the
state's round trip, every event folded."""

from __future__ import annotations

import msgspec
import pytest

from tests.domain.heroic_battles.helpers import engaged, fighting, game, open_field, proving_ground
from warlog.domain import rulesets
from warlog.domain.heroic_battles import commands as c
from warlog.domain.heroic_battles.evolve import HANDLED
from warlog.domain.heroic_battles.ruleset import RULESET
from warlog.domain.heroic_battles.state import GameState

EVENT_TAGS = [
    "turn_began", "deeds_refreshed", "phase_began", "phase_ended", "turn_ended",
    "victory_checked", "game_ended", "reputation_gained", "reputation_lost", "deeds_spent",
    "dice_awaited", "dice_cast", "ones_rerolled", "command_tests_called", "command_test_taken",
    "command_test_rerolled", "command_test_resolved", "unit_moved", "movement_failed",
    "facing_changed", "hero_joined", "hero_left", "charge_declared", "charge_failed",
    "evade_declared", "evaded", "evade_failed", "counter_charge_declared", "counter_charged",
    "charge_received", "charge_pressed", "charge_contacted", "shots_fired",
    "target_in_rough_terrain", "heroes_at_risk", "risk_rolled", "risk_rerolled", "risk_resolved", "hits_taken", "shooting_ended",
    "shooting_passed", "melee_began", "melee_declared", "combat_dice_rolled",
    "support_saves_rolled", "melee_hits_counted", "melee_damage", "melee_decided",
    "retreats_ordered", "pursued", "held_ground", "disengage_declared", "disengaged",
    "stayed_engaged", "melee_ended", "challenge_issued", "challenge_forgone",
    "challenge_refused", "challenge_accepted", "deeds_committed", "single_combat_dice_rolled",
    "single_combat_round", "stamina_lost", "unit_destroyed", "hero_killed", "hero_death_rolled",
    "hero_unattached", "final_blow_struck", "retreat_began", "unit_retreated",
    "retreat_cancelled",
]  # fmt: skip
COMMAND_TAGS = [
    "move", "charge", "change_facing", "join_unit", "leave_unit", "end_movement", "evade",
    "counter_charge", "receive_charge", "press_charge", "reroll_test", "accept_test", "shoot",
    "end_shooting", "reroll_risk", "accept_risk", "challenge", "no_challenge",
    "accept_challenge", "refuse_challenge", "spend_deeds", "declare_melee", "pursue",
    "hold_ground", "disengage", "stay_engaged", "declare_retreat", "roll",
]  # fmt: skip


def test_it_is_registered_as_heroic_battles() -> None:
    assert rulesets.get("heroic-battles") is RULESET
    assert (RULESET.name, RULESET.version, RULESET.kept_versions) == (
        "heroic-battles",
        "4",
        ("3", "2", "1"),
    )
    kept = RULESET.at_version("1")
    assert kept is not None and kept.version == "1"
    assert kept.initial_state(open_field()).rules_version == 1
    assert RULESET.at_version("2").initial_state(open_field()).rules_version == 2  # type: ignore[union-attr]
    assert RULESET.at_version("3").initial_state(open_field()).rules_version == 3  # type: ignore[union-attr]
    assert RULESET.initial_state(open_field()).rules_version == 4
    assert RULESET.at_version("5") is None
    assert RULESET.players(open_field()) == ["britons", "saxons"]
    assert RULESET.default_scenario == "open-field"


def test_event_and_command_tags_are_pinned() -> None:
    assert [e.type_name() for e in RULESET.event_types] == EVENT_TAGS
    assert [t.type_name() for t in c.COMMAND_TYPES] == COMMAND_TAGS


def test_every_event_of_the_ruleset_has_its_fold() -> None:
    assert set(RULESET.event_types) == HANDLED


def test_commands_decode_from_json_and_unknown_fields_are_refused() -> None:
    text = b'{"type":"shoot","player":"red","shooter":"red-archers","target":"blue-horde","distance":3}'
    assert msgspec.json.decode(text, type=RULESET.command_type) == c.Shoot(
        player="red", shooter="red-archers", target="blue-horde", distance=3
    )
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(
            b'{"type":"charge","player":"red","unit":"a","target":"b","facing":"sideways"}',
            type=RULESET.command_type,
        )
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(
            b'{"type":"move","player":"red","unit":"a","x":1}', type=RULESET.command_type
        )


@pytest.mark.parametrize("scenario", [open_field, proving_ground])
def test_the_state_round_trips_through_msgpack(scenario: object) -> None:
    state = RULESET.initial_state(scenario())  # type: ignore[operator]
    assert msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=GameState) == state


def test_a_state_with_procedures_in_progress_round_trips_through_msgpack() -> None:
    g = game(*engaged("red-warriors", "blue-warriors"), *fighting())
    assert g.state.frames and g.state.combats
    encoded = msgspec.msgpack.encode(g.state)
    assert msgspec.msgpack.decode(encoded, type=GameState) == g.state


def test_the_first_turn_waits_for_the_attackers_movement_with_deeds_equal_to_level() -> None:
    state = RULESET.initial_state(open_field())
    decision = RULESET.decision(state)
    assert decision is not None
    assert (decision.kind, decision.players) == ("movement", ("saxons",))
    assert {h.id: h.deeds for h in state.heroes.values()} == {
        "artos": 3, "bedwyr": 3, "kai": 2, "aelle": 3, "hussa": 2, "eanfrith": 2, "osric": 1,
    }  # fmt: skip
    assert state.turn == 1
