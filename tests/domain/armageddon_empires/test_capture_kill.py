"""Capture Kill (p.30; R2, R4; AE-21): who may hunt whom, the pools, the kill and capture
boundaries, the prisoner and its AP, in given-when-then form."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from tests.domain.armageddon_empires.arena import BASES, HUNT, arena, begin, toml, top
from tests.domain.armageddon_empires.helpers import (
    PICK,
    army_block,
    base_block,
    begun,
    only,
    sight,
    standing_in,
    with_ap,
)
from tests.domain.armageddon_empires.test_hidden_setup import outputs_of
from tests.domain.armageddon_empires.test_non_interference import (
    KEY,
    SHARED_HEX,
    empires,
    reads,
    wisp_into,
)
from tests.given_when_then import Given
from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import audit_records
from warlog.domain import rulesets
from warlog.domain.armageddon_empires.autoplay import choose
from warlog.domain.armageddon_empires.battle_events import BaseCaptured
from warlog.domain.armageddon_empires.challenge_events import (
    CaptureKillBegan,
    ChallengeOpened,
    HeroCaptured,
    HeroEscaped,
    HeroKilled,
    HuntFoiled,
)
from warlog.domain.armageddon_empires.commands import (
    AcceptChallenge,
    EndTurn,
    HuntHero,
    MoveArmy,
    Roll,
)
from warlog.domain.armageddon_empires.costs import HUNT_HERO_AP, PRISONER_AP
from warlog.domain.armageddon_empires.events import ApBonus, TurnBegan
from warlog.domain.armageddon_empires.observation import detection_pool
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.core.events import Event

QUARRY = "blue.quarry.1"
#: the hunters of the p.30 example without the Bounty Hunter (a trooper instead)
PLAIN_HUNT = HUNT.replace('"tracker", "eye", "trooper"', '"trooper", "eye", "trooper"')


def spotted(armies: str = HUNT) -> Given:
    g = begin(arena(armies))
    return sight(g, "red", "blue-quarry")


def hunted(g: Given, hunt: HuntHero, dice: list[int]) -> list[Event]:
    """``hunt`` with its hidden pick (``PICK``), then, as its challenge waits for the hunter's
    roll after that hidden roll (AE-37), the roll of ``dice``: the events of both."""
    events = g.when(hunt, dice=PICK)
    if g.state.awaiting is not None:
        events += g.when(Roll(player=hunt.player), dice=dice)
    return events


def test_a_version_26_hunter_s_pool_reads_its_halving_as_it_was_recorded() -> None:
    # given a game begun under version 26, whose events recorded "3 units // 2"
    g = spotted()
    g.ruleset = RULESET.at_version("26")
    g.state = msgspec.structs.replace(g.state, rules_version=26)
    # when red hunts, then its pool's term reads as version 26 wrote it, so that its log's
    # events re-derive byte for byte (version 27 reads "3 units ÷ 2, rounded down")
    events = hunted(g, HuntHero(player="red", army="red-hunt"), [6, 5, 4, 4, 1, 1, 6, 5, 4, 1])
    opened = only(events, ChallengeOpened).challenge
    assert opened.attacker.pool.terms[1].label == "3 units // 2"


def hunt_to_the_end(g: Given, hunter: list[int], target: list[int]) -> list[object]:
    """Red hunts, both sides accept; the events of the hunt and of the accepts."""
    events: list[object] = list(hunted(g, HuntHero(player="red", army="red-hunt"), hunter + target))
    events += g.when(AcceptChallenge(player="blue"))
    if g.state.frames:
        events += g.when(AcceptChallenge(player="red"))
    return events


def test_the_p30_example_hunter_6_dice_target_4_four_against_three_captures() -> None:
    g = spotted()
    events = hunted(g, HuntHero(player="red", army="red-hunt"), [6, 5, 4, 4, 1, 1, 6, 5, 4, 1])
    began = only(events, CaptureKillBegan)
    assert (
        began.chosen_by == "only" and began.frame.threshold == 2 and began.ap_cost == HUNT_HERO_AP
    )
    opened = only(events, ChallengeOpened).challenge
    assert opened.attacker.pool.text() == (
        "6 = 1 (base, R2) + 1 (3 units ÷ 2, rounded down) + 4 (Recce S5, R1 of Test Eye in "
        "red-hunt: 5 − range 0 − badlands 1)"
    )
    assert (
        opened.defender is not None
        and opened.defender.pool.text() == "4 = 4 (fate of Test Quarry, p.30)"
    )
    assert (opened.attacker.successes, opened.defender.successes) == (4, 3)
    # a Bounty Hunter in the hex lends the hunter its army's hero's fate (p.46)
    assert opened.attacker.fate_hero == "red.captain.1" and opened.defender.fate_hero == QUARRY
    g.when(AcceptChallenge(player="blue"))
    captured = only(g.when(AcceptChallenge(player="red")), HeroCaptured)
    assert (captured.base, captured.distance, captured.army_removed) == ("red-camp", 2, True)
    assert g.state.bases["red-camp"].prisoners == (QUARRY,)
    assert "blue-quarry" not in g.state.armies and g.state.frames == ()
    assert captured.explain().startswith(
        "hunter 4 > target 3 successes: the hero is caught (R4); capture threshold = target pool "
        "4 − largest Bounty Hunter 2 = 2 (R4, p.30); 4 > 2: captured"
    )


def test_the_captor_gains_3_ap_each_turn_while_it_holds_the_prisoner() -> None:
    g = spotted()
    hunt_to_the_end(g, [6, 5, 4, 4, 1, 1], [6, 5, 4, 1])
    g.when(EndTurn(player="red"))
    g.when(EndTurn(player="blue"))  # round 2 begins with the initiative purchase
    begin(g)
    began = [e for e in g.history if isinstance(e, TurnBegan)][-1]
    assert began.empire == "red" and began.ap == 12 + PRISONER_AP
    assert ApBonus(source=f"prisoner {QUARRY} at red-camp", ap=PRISONER_AP, rule="p.24, p.30") in (
        began.bonuses
    )
    assert "3 from prisoner blue.quarry.1 at red-camp (p.24, p.30)" in began.explain()


@pytest.mark.parametrize(
    ("hunter", "target", "outcome"),
    [
        ([6, 5, 4, 1, 1, 1], [6, 5, 4, 1], HeroEscaped),  # 3 = 3: equal successes, escapes
        ([6, 5, 1, 1, 1, 1], [6, 1, 1, 1], HeroKilled),  # 2 > 1, but exactly the threshold 2
        ([6, 5, 4, 1, 1, 1], [6, 1, 1, 1], HeroCaptured),  # 3 > 1 and > 2
    ],
)
def test_kill_and_capture_boundaries_with_a_bounty_hunter(
    hunter: list[int], target: list[int], outcome: type
) -> None:
    g = spotted()
    events = hunt_to_the_end(g, hunter, target)
    assert len([e for e in events if isinstance(e, outcome)]) == 1
    if outcome is HeroEscaped:
        assert g.state.armies["blue-quarry"].hero == QUARRY
    if outcome is HeroKilled:
        assert QUARRY in g.state.empires["blue"].discard


@pytest.mark.parametrize(
    ("hunter", "outcome"),
    [([6, 6, 6, 6, 1], HeroKilled), ([6, 6, 6, 6, 6], HeroCaptured)],
)
def test_without_a_bounty_hunter_the_threshold_is_the_whole_target_pool(
    hunter: list[int], outcome: type
) -> None:
    g = spotted(PLAIN_HUNT)
    # no Bounty Hunter: 1 + 3 // 2 + 4 = 6 dice, threshold 4 − 0 = 4; the hunter has no fate
    events = hunt_to_the_end(g, [*hunter, 1], [6, 6, 6, 1])
    assert only(events, CaptureKillBegan).frame.threshold == 4
    assert len([e for e in events if isinstance(e, outcome)]) == 1


def test_only_the_largest_bounty_hunter_lowers_the_capture_threshold() -> None:
    # two Bounty Hunter 2 units in the hex: the threshold is 4 − 2, not 4 − (2 + 2)
    g = spotted(HUNT.replace('"tracker", "eye", "trooper"', '"tracker", "eye", "tracker"'))
    # 1 + 3 // 2 + 4 = 6 dice: 2 successes against the quarry's 1 kill, exactly the threshold
    events = hunt_to_the_end(g, [6, 5, 1, 1, 1, 1], [6, 1, 1, 1])
    assert only(events, CaptureKillBegan).frame.threshold == 2
    killed = only(events, HeroKilled)
    assert "4 − largest Bounty Hunter 2 = 2" in killed.explain()
    assert QUARRY in g.state.empires["blue"].discard


def test_a_hero_not_spotted_this_round_cannot_be_hunted() -> None:
    g = begin(arena())
    err = g.when_rejected(HuntHero(player="red", army="red-hunt"), code="rules/no_target")
    assert "spotted no enemy hero alone" in str(err)
    assert not [c for c in RULESET.legal_commands(g.state, "red") if isinstance(c, HuntHero)]


def test_only_a_combat_capable_army_hunts_and_once_a_turn() -> None:
    g = begin(arena(HUNT + army_block("red-lone", "red", "2,1", hero="guide")))
    sight(g, "red", "blue-quarry")
    g.when_rejected(HuntHero(player="red", army="red-lone"), code="rules/not_combat_capable")
    hunt_to_the_end(g, [6, 5, 4, 1, 1, 1], [6, 5, 4, 1])  # escapes
    g.when_rejected(HuntHero(player="red", army="red-hunt"), code="rules/already_hunted")


def test_a_bad_target_is_named() -> None:
    g = spotted()
    g.when_rejected(
        HuntHero(player="red", army="red-hunt", target="blue.keep.1"), code="rules/bad_target"
    )


def test_the_hunter_s_stealthed_armies_in_the_hex_destealth_and_the_target_sees_them_all() -> None:
    ghost = army_block("red-ghost", "red", "2,1", units=("wisp",)) + "stealthed = true\n"
    g = spotted(HUNT + ghost)
    began = only(hunted(g, HuntHero(player="red", army="red-hunt"), [1] * 11), CaptureKillBegan)
    assert began.destealthed == ("red-ghost",) and not g.state.armies["red-ghost"].stealthed
    assert began.explain().endswith("; destealthed: red-ghost (p.30)")
    assert set(g.state.sightings["blue"]) == {"red-ghost", "red-hunt"}
    # 4 units now: 1 + 4 // 2 + 4
    assert top(g).attacker.pool.size == 7


def test_a_combat_capable_army_moves_onto_a_spotted_hero_alone_but_a_hero_alone_does_not() -> None:
    armies = (
        army_block("red-hunt", "red", "1,1", units=("trooper", "eye"))
        + army_block("blue-quarry", "blue", "2,1", hero="quarry")
        + army_block("red-lone", "red", "1,0", hero="guide")
    )
    g = begin(arena(armies))
    sight(g, "red", "blue-quarry")
    moves = {
        (c.army, c.to) for c in RULESET.legal_commands(g.state, "red") if isinstance(c, MoveArmy)
    }
    assert ("red-hunt", "2,1") in moves and ("red-lone", "2,1") not in moves
    g.when_rejected(MoveArmy(player="red", army="red-lone", to="2,1"), code="rules/enemy_hex")
    g.when(MoveArmy(player="red", army="red-hunt", to="2,1"))
    assert g.state.armies["red-hunt"].at == "2,1"
    assert [c for c in RULESET.legal_commands(g.state, "red") if isinstance(c, HuntHero)]


def policy_move(g: Given) -> MoveArmy | EndTurn:
    """What autoplay picks for red among its legal moves and ending the turn."""
    legal = [
        c for c in RULESET.legal_commands(g.state, "red") if isinstance(c, (MoveArmy, EndTurn))
    ]
    picked = choose(g.state, "red", legal)
    assert isinstance(picked, (MoveArmy, EndTurn))
    return picked


@pytest.mark.parametrize(("stealthed", "to"), [(False, "2,1"), (True, "1,3")])
def test_autoplay_moves_onto_a_spotted_hero_alone_unless_he_was_seen_stealthed(
    stealthed: bool, to: str
) -> None:
    # given red's hunters next to blue's shade alone, whom red sees, open or stealthed
    armies = army_block("red-hunt", "red", "1,1", units=("trooper", "eye"))
    g = begin(arena(armies + army_block("blue-quarry", "blue", "2,1", hero="shade")))
    shade = msgspec.structs.replace(g.state.armies["blue-quarry"], stealthed=stealthed)
    g.state = msgspec.structs.replace(g.state, armies={**g.state.armies, "blue-quarry": shade})
    sight(g, "red", "blue-quarry")
    # when autoplay moves for red
    # then it moves onto the hero it may hunt (p.30); a stealthed one is no quarry it may enter
    # to hunt (p.27), so it marches toward blue's stronghold instead
    assert policy_move(g) == MoveArmy(player="red", army="red-hunt", to=to)


def test_autoplay_does_not_take_a_hero_alone_in_an_enemy_base_for_a_hunt() -> None:
    # given two blue outposts red's hunters reach, blue's quarry alone in the second, seen
    armies = army_block("red-hunt", "red", "1,1", units=("trooper", "eye"))
    armies += army_block("blue-quarry", "blue", "2,2", hero="quarry")
    bases = BASES + "".join(
        base_block(base, "blue", at, card="camp", kind="outpost")
        for base, at in (("blue-north", "2,0"), ("blue-south", "2,2"))
    )
    g = sight(begin(arena(armies, bases=bases)), "red", "blue-quarry")
    # when autoplay moves for red
    # then a base stands there, so it is no hunt (p.30) but an assault like any other: red
    # marches on the first of the two bases, as it would without the hero
    assert policy_move(g) == MoveArmy(player="red", army="red-hunt", to="2,0")


def moved_to(g: Given, army: str, at: str) -> Given:
    """``army`` standing at ``at`` (a scenario cannot place enemies together, so tests move them)."""
    there = msgspec.structs.replace(g.state.armies[army], at=at)
    g.state = msgspec.structs.replace(g.state, armies={**g.state.armies, army: there})
    return g


def test_a_hero_sighted_with_a_unit_is_no_target() -> None:
    # p.30: only a hero alone in an army is hunted; red sees the quarry with its trooper
    escorted = HUNT.replace(
        army_block("blue-quarry", "blue", "2,1", hero="quarry"),
        army_block("blue-quarry", "blue", "3,1", hero="quarry", units=("trooper",)),
    )
    g = begin(arena(escorted))
    sight(moved_to(g, "blue-quarry", "2,1"), "red", "blue-quarry")
    g.when_rejected(HuntHero(player="red", army="red-hunt"), code="rules/no_target")
    assert not [c for c in RULESET.legal_commands(g.state, "red") if isinstance(c, HuntHero)]


def test_a_hunt_is_ordered_with_exactly_its_ap_left() -> None:
    g = with_ap(spotted(), "red", HUNT_HERO_AP)
    assert HuntHero(player="red", army="red-hunt") in RULESET.legal_commands(g.state, "red")
    began = only(hunted(g, HuntHero(player="red", army="red-hunt"), [1] * 10), CaptureKillBegan)
    assert began.ap_cost == HUNT_HERO_AP and g.state.empires["red"].ap == 0


def test_a_hero_that_engaged_stealth_since_he_was_seen_foils_the_hunt() -> None:
    # AE-38: the hunt is judged by the sighting, and finds the hero hidden: no challenge
    g = spotted(HUNT.replace('hero = "quarry"', 'hero = "shade"'))
    hidden = msgspec.structs.replace(g.state.armies["blue-quarry"], stealthed=True)
    g.state = msgspec.structs.replace(g.state, armies={**g.state.armies, "blue-quarry": hidden})
    events = g.when(HuntHero(player="red", army="red-hunt"), dice=PICK)
    foiled = only(events, HuntFoiled)
    assert (foiled.target, foiled.ap_cost) == ("blue.shade.1", HUNT_HERO_AP)
    assert not [e for e in events if isinstance(e, CaptureKillBegan)] and g.state.frames == ()


def test_a_hunt_finds_out_that_the_hero_has_left_the_army_it_was_seen_in() -> None:
    # given red saw blue's quarry alone in blue-quarry; since then, unseen, he has left it
    g = spotted()
    left = msgspec.structs.replace(g.state.armies["blue-quarry"], hero=None)
    g.state = msgspec.structs.replace(g.state, armies={**g.state.armies, "blue-quarry": left})
    # when red hunts him, the hunt is foiled (AE-38): red sees the army as it now stands
    foiled = only(g.when(HuntHero(player="red", army="red-hunt"), dice=PICK), HuntFoiled)
    assert foiled.seen is not None and (foiled.seen.hero, foiled.seen.units) == (None, ())
    assert foiled.explain().endswith(
        "but blue.quarry.1 is not found there alone: only a hero alone is hunted (p.30; AE-38)"
    )


def hidden_since_sighted(version: int | None = None, joined: bool = False) -> Given:
    """Red sighted blue's shade alone; since then, unseen, his army engaged stealth (and, with
    ``joined``, took blue's stealthed wisp), in a game of ``version`` (default: this one)."""
    ghost = army_block("blue-ghost", "blue", "2,1", units=("wisp",)) + "stealthed = true\n"
    g = spotted(HUNT.replace('hero = "quarry"', 'hero = "shade"') + ghost)
    armies = dict(g.state.armies)
    if joined:
        armies["blue-quarry"] = msgspec.structs.replace(
            armies["blue-quarry"], units=armies.pop("blue-ghost").units
        )
    armies["blue-quarry"] = msgspec.structs.replace(armies["blue-quarry"], stealthed=True)
    g.state = msgspec.structs.replace(g.state, armies=armies)
    if version is not None:
        g.ruleset = RULESET.at_version(str(version))
        g.state = msgspec.structs.replace(g.state, rules_version=version)
    return g


@pytest.mark.parametrize("joined", [False, True])
def test_since_version_22_a_hunt_foiled_by_stealth_shows_the_hunter_nothing_of_the_army(
    joined: bool,
) -> None:
    # p.27; AE-38: a stealthed army is seen only through an observation check, so the hunt that
    # finds the hero hidden drops red's sighting of his army, as when he has gone
    g = hidden_since_sighted(joined=joined)
    foiled = only(g.when(HuntHero(player="red", army="red-hunt"), dice=PICK), HuntFoiled)
    assert foiled.seen is None and g.state.armies["blue-quarry"].stealthed
    assert "blue-quarry" not in g.state.sightings["red"]
    assert "blue-quarry" not in RULESET.view(g.state, "red")["armies"]
    assert foiled.explain() == (
        "red-hunt of red hunts blue.shade.1 at 2,1 for 2 AP (R11; AE-21), but blue.shade.1 is "
        "not found there alone (gone, or hidden by stealth): only a hero alone is hunted "
        "(p.30; AE-38)"
    )
    assert not [c for c in RULESET.legal_commands(g.state, "red") if isinstance(c, HuntHero)]


def test_version_21_shows_the_hunter_the_stealthed_army_and_every_unit_that_joined_it() -> None:
    # the defect version 22 closed (AE-38): 2 AP bought a contact sighting no check had won
    g = hidden_since_sighted(version=21, joined=True)
    foiled = only(g.when(HuntHero(player="red", army="red-hunt"), dice=[]), HuntFoiled)
    assert foiled.seen is not None and foiled.seen.how == "contact" and foiled.seen.stealthed
    assert (foiled.seen.hero, foiled.seen.units) == ("blue.shade.1", ("blue.wisp.1",))
    assert g.state.sightings["red"]["blue-quarry"] == foiled.seen
    assert RULESET.view(g.state, "red")["armies"]["blue-quarry"]["units"] == ("blue.wisp.1",)
    # and alone, the hunt is explained by the stealth it saw
    g = hidden_since_sighted(version=21)
    foiled = only(g.when(HuntHero(player="red", army="red-hunt"), dice=[]), HuntFoiled)
    assert "but blue-quarry has engaged stealth: only a hero alone is hunted" in foiled.explain()


@pytest.mark.parametrize("version", [22, 21])
def test_a_hero_the_hunter_sighted_in_a_stealthed_army_is_no_target_since_version_22(
    version: int,
) -> None:
    """AE-38: given red's observation check won on blue's shade alone in his stealthed army, when
    red would hunt him: since version 22 no hunt is offered and one ordered is refused, red's
    sighting and AP kept (the hunt of a stealthed army is always foiled); version 21 offered it,
    took 2 AP and foiled it."""
    g = hidden_since_sighted(version=version)
    g = sight(g, "red", "blue-quarry")
    assert g.state.sightings["red"]["blue-quarry"].stealthed
    hunts = [c for c in RULESET.legal_commands(g.state, "red") if isinstance(c, HuntHero)]
    ap = g.state.empires["red"].ap
    if version >= 22:
        assert hunts == []
        refused = g.when_rejected(HuntHero(player="red", army="red-hunt"), code="rules/no_target")
        assert str(refused) == (
            "red has spotted no enemy hero alone in an army at 2,1 this round outside a "
            "stealthed army (p.30; AE-38)"
        )
        assert g.state.sightings["red"]["blue-quarry"].stealthed
        assert g.state.empires["red"].ap == ap
    else:
        assert hunts
        foiled = only(g.when(HuntHero(player="red", army="red-hunt"), dice=[]), HuntFoiled)
        assert foiled.seen is not None and g.state.empires["red"].ap == ap - HUNT_HERO_AP


def test_since_version_22_a_hunt_foiled_by_units_that_joined_in_the_open_still_shows_them() -> None:
    # AE-38: an army that is not stealthed is seen in the hunter's hex, as it now stands
    g = hidden_since_sighted(joined=True)
    shown = msgspec.structs.replace(g.state.armies["blue-quarry"], stealthed=False)
    g.state = msgspec.structs.replace(g.state, armies={**g.state.armies, "blue-quarry": shown})
    foiled = only(g.when(HuntHero(player="red", army="red-hunt"), dice=PICK), HuntFoiled)
    assert foiled.seen is not None and foiled.seen.units == ("blue.wisp.1",)
    assert "blue-quarry now holds units (blue.wisp.1)" in foiled.explain()


def shadowed(tmp: Path, receiver: str, version: str | None = None) -> Arbiter:
    """Red's round checks sight blue-pawn, the shade alone, in red's hex (``SHARED_HEX``); on
    its turn blue moves a stealthed wisp, sealed for red, into ``receiver`` (blue-pawn itself,
    or blue-shade) and blue-pawn engages stealth, sealed too; then red hunts the hero it saw
    alone, its turn going on. ``version``: the game begun under it (default: this one's)."""
    text = toml(SHARED_HEX.replace('hero = "pawn"', 'hero = "shade"'), empires=empires("[]"))
    arb = begun(tmp / f"{receiver}-{version}", text, KEY, version)
    hunt: dict[str, Any] = {"type": "hunt_hero", "player": "red", "army": "red-hunt"}
    if version is None:
        hunt["dice"] = PICK  # since version 23 every hunt rolls its hidden pick (AE-21)
    for command in [
        *wisp_into(receiver),
        {"type": "engage_stealth", "player": "blue", "army": "blue-pawn"},
        {"type": "end_turn", "player": "blue"},
        hunt,
    ]:
        arb.play("ni", json.dumps(command))
    return arb


def foiled_as_red(arb: Arbiter) -> dict[str, Any]:
    """``hunt_foiled``'s data as red's feed gives it."""
    (data,) = [json.loads(r.data) for r in arb.records_as("ni", "red") if r.type == "hunt_foiled"]
    return data


def test_a_hunter_cannot_tell_whether_units_joined_the_hero_that_hid_from_its_hunt(
    tmp_path: Path,
) -> None:
    """AE-38, since version 22: given twin games in which blue's hero, seen alone by red, engages
    stealth alone or after a stealthed unit joined him, both unseen, when red hunts him (the hunt
    foiled in both), then every output red is given is the same: what it is handed of the game's
    creation, its state, and every read (its feed of the log with ``hunt_foiled``, its view at
    every seq, its legal commands, its replay, the explanation of every event, the Events view)."""
    alone, joined = shadowed(tmp_path, "blue-shade"), shadowed(tmp_path, "blue-pawn")
    assert joined.state("ni").armies["blue-pawn"].units == ("blue.wisp.1",)
    assert alone.state("ni").armies["blue-pawn"].units == ()
    assert outputs_of(alone, "red") == outputs_of(joined, "red")
    assert reads(alone, "red") == reads(joined, "red")
    assert foiled_as_red(alone)["seen"]["value"] is None
    assert "blue-pawn" not in alone.view("ni", player="red")["state"]["armies"]


def test_version_21_shows_the_hunter_which_units_joined_the_hero_that_hid(tmp_path: Path) -> None:
    # the old defect (AE-38): the foiled hunt's contact sighting showed red the stealthed army as
    # it stood, so that red's state and reads told the twins apart; the game's creation did not
    alone, joined = shadowed(tmp_path, "blue-shade", "21"), shadowed(tmp_path, "blue-pawn", "21")
    before, after = outputs_of(alone, "red"), outputs_of(joined, "red")
    assert {k for k in before if before[k] != after[k]} == {
        "state --as red --json",
        "every read",
    }
    assert foiled_as_red(alone)["seen"]["value"]["units"] == []
    assert foiled_as_red(joined)["seen"]["value"]["units"] == ["blue.wisp.1"]


@pytest.mark.parametrize("version", [None, "21"])
def test_a_hunt_foiled_by_stealth_audits_clean_under_the_version_it_was_played_by(
    tmp_path: Path, version: str | None
) -> None:
    # given the joined twin, revealed: every seal opened and every die checked
    arb = shadowed(tmp_path, "blue-pawn", version)
    arb.reveal("ni")
    report = audit_records(arb.export_records("ni"), rulesets.get)
    assert report.findings == [] and report.revealed
    assert report.rules == f"armageddon-empires version {version or RULESET.version}"
    assert report.proved.batches_rederived > 0 and not report.proved.rules_stopped_at


def test_without_a_bounty_hunter_the_hunter_has_no_hero_s_fate() -> None:
    # p.46; AE-21: the hunter's army's hero lends his fate only with a Bounty Hunter in the hex
    g = spotted(PLAIN_HUNT)
    hunted(g, HuntHero(player="red", army="red-hunt"), [1] * 10)
    assert top(g).attacker.fate_hero is None and top(g).defender is not None
    assert top(g).defender.fate_hero == QUARRY


def test_a_captured_hero_goes_to_the_stronghold_when_an_outpost_is_as_near() -> None:
    # AE-21: at 1,1 the stronghold red-hq (0,0) and the outpost red-camp (0,3) are both 2 away
    g = spotted(HUNT.replace('"2,1"', '"1,1"'))
    captured = only(hunt_to_the_end(g, [6] * 7, [1] * 4), HeroCaptured)
    assert (captured.base, captured.distance) == ("red-hq", 2)
    assert g.state.bases["red-hq"].prisoners == (QUARRY,)


def test_a_captured_hero_is_not_taken_to_a_besieged_base() -> None:
    # p.24: blue's trooper in red-camp's hex besieges it, so the farther red-hq takes him
    g = spotted(HUNT + army_block("blue-siege", "blue", "1,3", units=("trooper",)))
    standing_in(g, "blue-siege", "0,3")
    captured = only(hunt_to_the_end(g, [6, 5, 4, 4, 1, 1], [6, 5, 4, 1]), HeroCaptured)
    assert (captured.base, captured.distance) == ("red-hq", 3)


def test_a_captured_hero_is_killed_when_every_base_of_the_captor_is_besieged() -> None:
    # AE-21: blue's troopers besiege red-camp and red-hq, so red has no base to take him to
    besiegers = army_block("blue-siege", "blue", "1,3", units=("trooper",))
    besiegers += army_block("blue-siege-2", "blue", "1,0", units=("trooper",))
    g = spotted(HUNT + besiegers)
    standing_in(standing_in(g, "blue-siege", "0,3"), "blue-siege-2", "0,0")
    killed = only(hunt_to_the_end(g, [6, 5, 4, 4, 1, 1], [6, 5, 4, 1]), HeroKilled)
    assert killed.no_base and killed.army_removed
    assert "; but red has no base to take him to, so he is killed (AE-21)" in killed.explain()
    assert killed.explain().endswith("; blue-quarry is left empty and disbanded (AE-24)")
    assert QUARRY in g.state.empires["blue"].discard and "blue-quarry" not in g.state.armies


def garrisoned_quarry() -> Given:
    """Blue's quarry alone in its HQ's garrison, seen by red's hunters there."""
    bases = BASES.replace(
        'facilities = ["veil"]\ngarrison = ["trooper"]',
        'facilities = ["veil"]\ngarrison = ["quarry"]',
    )
    hunters = army_block(
        "red-hunt", "red", "5,3", hero="captain", units=("tracker", "eye", "trooper")
    )
    g = moved_to(begin(arena(hunters, bases=bases)), "red-hunt", "6,3")
    return sight(g, "red", "blue-hq-garrison")


def test_a_hero_alone_in_a_garrison_is_captured_and_the_garrison_stays() -> None:
    # AE-24: only an army in the field is disbanded when left empty; a garrison is its base's
    g = garrisoned_quarry()
    captured = only(hunt_to_the_end(g, [6] * 7, [1] * 4), HeroCaptured)
    assert captured.army_removed is False and "disbanded" not in captured.explain()
    assert "blue-hq-garrison" in g.state.armies and g.state.armies["blue-hq-garrison"].hero is None


def test_a_hero_alone_in_a_garrison_killed_while_escaping_leaves_the_garrison_standing() -> None:
    g = garrisoned_quarry()
    # 1 success against none, at most the capture threshold 2: killed (R4, p.30)
    killed = only(hunt_to_the_end(g, [6] + [1] * 6, [1] * 4), HeroKilled)
    assert not killed.army_removed and "blue-hq-garrison" in g.state.armies
    assert killed.explain().endswith("killed while escaping; blue.quarry.1 is discarded (p.30)")


def test_a_prisoner_goes_free_to_his_hand_when_his_empire_takes_the_base_that_holds_him() -> None:
    # p.18, p.34; AE-34: blue's trooper takes red-camp, where the quarry is held
    g = spotted(HUNT + army_block("blue-raid", "blue", "1,3", units=("trooper",)))
    hunt_to_the_end(g, [6, 5, 4, 4, 1, 1], [6, 5, 4, 1])
    assert g.state.bases["red-camp"].prisoners == (QUARRY,)
    g.when(EndTurn(player="red"))
    taken = only(g.when(MoveArmy(player="blue", army="blue-raid", to="0,3")), BaseCaptured)
    assert (taken.base, taken.empire, taken.freed, taken.taken) == (
        "red-camp",
        "blue",
        (QUARRY,),
        (),
    )
    assert taken.explain().endswith(
        f"; freed and back in hand (or discarded if it is full): {QUARRY}"
    )
    assert g.state.bases["red-camp"].prisoners == () and QUARRY in g.state.empires["blue"].hand


@pytest.mark.parametrize(
    ("version", "label"), [(27, "3 units ÷ 3, rounded down"), (26, "3 units // 3")]
)
def test_an_army_s_detection_dice_read_their_halving_as_its_version_recorded_it(
    version: int, label: str
) -> None:
    # given red's hunting army of 3 units, in a game of version 27 or 26
    g = spotted()
    state = msgspec.structs.replace(g.state, rules_version=version)
    # then the term its size takes off its detection dice (R7) reads in that version's words
    assert detection_pool(state, state.armies["red-hunt"]).terms[1].label == label
