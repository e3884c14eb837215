"""What a card's open damage tells the other empire (AE-49): since version 12 a
``card_damaged`` counts only the damage dealt in the open, never what a hidden challenge
(collateral damage, a WMD, a minefield) dealt the card before."""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from tests.domain.armageddon_empires.battle_helpers import VERSUS_FOX, attack_at, committed, field
from tests.domain.armageddon_empires.helpers import only
from tests.given_when_then import Given
from warlog.domain.armageddon_empires import changes
from warlog.domain.armageddon_empires.challenge_events import CardDamaged
from warlog.domain.armageddon_empires.challenge_moves import OPEN_TOTAL_SINCE
from warlog.domain.armageddon_empires.commands import Attack, NextRound
from warlog.domain.armageddon_empires.ruleset import RULESET

PLATED = "blue.plated.1"  # 4 hit points, Composite Armor -1


def struck(hidden: int, version: int | None = None) -> tuple[Given, CardDamaged]:
    """Blue's plated, after ``hidden`` damage from a hidden challenge, struck by red's lancer:
    3 successes against none, less its armour, 2 damage."""
    g = field(VERSUS_FOX)
    if version is not None:
        g.state = replace(g.state, rules_version=version)
    if hidden:
        g.state = changes.hidden_damage(g.state, PLATED, hidden, hidden)
    g = committed(attack_at(g, "red-x", "4,0"))
    g.when(NextRound(player="blue", choice="continue"), dice=[6, 6, 6, 1, 1, 1])
    events = g.when(Attack(player="red", unit="red.lancer.1", target=PLATED), dice=[6, 6, 6, 1, 1])
    return g, only(events, CardDamaged)


def test_a_card_s_open_damage_does_not_tell_what_a_hidden_challenge_dealt_it() -> None:
    # given blue's plated with 1 damage from a hidden challenge, and the same card unhurt
    hurt, seen_hurt = struck(hidden=1)
    _, seen_whole = struck(hidden=0)
    # when red's lancer deals it 2 damage in the open, then the event red receives is the same
    # byte for byte: 2 of 4, the damage dealt in the open
    assert msgspec.json.encode(seen_hurt) == msgspec.json.encode(seen_whole)
    assert (seen_hurt.amount, seen_hurt.total, seen_hurt.limit) == (2, 2, 4)
    # (its explanation names where a player reads when damage destroys a card: p.34 among them)
    assert seen_hurt.explain().endswith(
        "2 of 4 (a card is destroyed and discarded when its damage reaches its hit, wound or "
        "structure points: p.17–19, p.31, p.34; AE-24)"
    )
    # and the card has taken 3 in all, as blue sees it; red sees the 2 dealt in the open
    assert hurt.state.damage[PLATED] == 3
    assert RULESET.view(hurt.state, "blue")["damage"][PLATED] == 3
    assert RULESET.view(hurt.state, "red")["damage"][PLATED] == 2


def test_a_card_that_falls_to_open_damage_is_destroyed_by_its_whole_damage() -> None:
    # given the plated with 2 hidden damage, when 2 more are dealt in the open: 4 of 4, it falls
    g, seen = struck(hidden=2)
    assert (seen.total, seen.destroyed) == (2, True)
    assert PLATED not in g.state.armies["blue-y"].units


def test_a_game_of_version_11_keeps_its_rules_the_whole_damage_told() -> None:
    _, seen = struck(hidden=1, version=11)
    assert (seen.amount, seen.total) == (2, 3)


def test_from_version_12_exactly_open_damage_leaves_out_what_hidden_challenges_dealt() -> None:
    # given blue's plated with 1 damage from a hidden challenge, in a game of version 12, the
    # first of AE-49 (a card's card_damaged tells the damage taken in the open alone)
    assert OPEN_TOTAL_SINCE == 12
    g, seen = struck(hidden=1, version=OPEN_TOTAL_SINCE)
    _, whole = struck(hidden=0, version=OPEN_TOTAL_SINCE)
    # when red's lancer deals it 2 in the open, then red's event tells 2 of 4, the same bytes as
    # for an unhurt card: the hidden damage stays blue's secret
    assert (seen.amount, seen.total, seen.limit) == (2, 2, 4)
    assert msgspec.json.encode(seen) == msgspec.json.encode(whole)
    assert RULESET.view(g.state, "red")["damage"]["blue.plated.1"] == 2
