"""The air war (p.19, p.30–31; AE-39..AE-43): an attack card played on a hex, the intercept
window and each of its conditions, Anti-Air (a duel against HARM) and Anti-Missile, then the
Air-To-Ground challenge against a random or a chosen target, without the defender's hero's fate.

Red's aircraft fly from its HQ at 0,0; blue's HQ stands at 4,2 with Anti-Air in its garrison and
its army blue-a at 3,2 (plains everywhere). Attack cards here have no fate, so that the dice a
test types are only those that matter. Since version 13 every strike meets blue's Ground-To-Air
window, whatever the hex holds (AE-41): a test about another step answers it with ``launch``.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from tests.domain.armageddon_empires.helpers import (
    Scripted,
    army_block,
    game,
    only,
    sight,
    start_turns,
)
from tests.domain.armageddon_empires.invariants import check_invariants
from tests.given_when_then import Given
from warlog.domain.armageddon_empires.air_events import (
    AirStrikeAdvanced,
    AirStrikeEnded,
    AirStrikeLaunched,
    AirStrikeLaunchedSealed,
    AirTargetPicked,
    InterceptAnswered,
)
from warlog.domain.armageddon_empires.air_launch import HELO_FROM_ARMY_DAMAGE, legal_strikes
from warlog.domain.armageddon_empires.battle_events import BaseCaptured
from warlog.domain.armageddon_empires.challenge import Pool
from warlog.domain.armageddon_empires.challenge_events import CardDamaged, ChallengeOpened
from warlog.domain.armageddon_empires.commands import (
    AcceptChallenge,
    BuyInitiative,
    DeployCard,
    GroundToAir,
    GroundToAirChallenge,
    Intercept,
    PlayAttackCard,
    Roll,
)
from warlog.domain.armageddon_empires.frames import AirStrike
from warlog.domain.armageddon_empires.ground_to_air import GROUND_TO_AIR_ASKED_SINCE
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.sighting_events import StealthDropped, StealthEngaged
from warlog.domain.core.dice import SeededDice
from warlog.domain.core.errors import InputError
from warlog.domain.core.events import Event
from warlog.domain.core.seal import secrets_of

ROWS = [". . . . . . . ."] * 5

AIR_CARDS = """
[[cards]]
kind = "attack"
id = "hawk"
name = "Test Hawk"
craft = "aircraft"
cost = { energy = 1 }
attack = 4
defense = 2
fate = 0
hit_points = 2
range = 6
ap = 2

[[cards]]
kind = "attack"
id = "harrier"
name = "Test Harrier"
craft = "aircraft"
attack = 3
defense = 1
fate = 0
hit_points = 2
range = 6
ap = 2
abilities = ["HARM 3", "Precision Targeting"]

[[cards]]
kind = "attack"
id = "jay"
name = "Test Jay"
craft = "aircraft"
cost = { energy = 2 }
attack = 1
defense = 1
fate = 0
hit_points = 2
range = 5
ap = 2
abilities = ["Air To Air 3"]

[[cards]]
kind = "attack"
id = "bolt"
name = "Test Bolt"
craft = "missile"
attack = 5
defense = 1
fate = 0
hit_points = 1
range = 6
ap = 1

[[cards]]
kind = "unit"
id = "flak"
name = "Test Flak"
attack = 1
defense = 2
hit_points = 3
movement = 1
abilities = ["Anti-Air 3", "Anti-Missile 2"]

[[cards]]
kind = "unit"
id = "plate"
name = "Test Plate"
attack = 1
defense = 1
hit_points = 4
movement = 1
abilities = ["Composite Armor -1"]

[[cards]]
kind = "facility"
id = "bunker"
name = "Test Bunker"
defense = 1
structure = 6
abilities = ["Hardened"]
"""

BASES = """
[[bases]]
id = "red-hq"
empire = "red"
kind = "stronghold"
at = "0,0"
card = "keep"

[[bases]]
id = "blue-hq"
empire = "blue"
kind = "stronghold"
at = "4,2"
card = "keep"
facilities = ["bunker"]
garrison = {garrison}
"""

ARMIES = army_block("blue-a", "blue", "3,2", units=("plate",)) + army_block(
    "red-a", "red", "0,1", units=("trooper",)
)


def empires(red: list[str], blue: list[str], blue_energy: int = 5) -> str:
    return f"""
[[empires]]
id = "red"
name = "Red"
resources = {{ humans = 9, materials = 9, energy = 5 }}
hand = {red!r}
deck = ["trooper"]

[[empires]]
id = "blue"
name = "Blue"
resources = {{ humans = 9, materials = 9, energy = {blue_energy} }}
hand = {blue!r}
deck = ["trooper"]
""".replace("'", '"')


def skies(
    red: list[str],
    blue: list[str],
    garrison: tuple[str, ...] = (),
    more: str = "",
    bases_text: str = BASES,
    version: int | None = None,
    **kw: Any,
) -> Given:
    """Red's turn; red has sighted blue-a. ``more``: further cards and armies; ``bases_text``:
    the bases (``BASES`` changed); ``version``: the game plays under that version of the rules
    (default: the latest)."""
    bases = bases_text.replace("{garrison}", "[" + ", ".join(f'"{g}"' for g in garrison) + "]")
    g = game(
        ROWS,
        armies=AIR_CARDS + ARMIES + more,
        bases=bases,
        empires=empires(red, blue, **kw),
        resources="",
    )
    g = sight(start_turns(g), "red", "blue-a")
    if version is not None:
        g.state = replace(g.state, rules_version=version)
    return g


def accept_all(g: Given, *dice: list[int]) -> list[Event]:
    """Answer every question of the open challenges by accepting (or rolling an awaited roll):
    a command that rolls is given the next of ``dice`` (a command that rolls nothing, none)."""
    out: list[Event] = []
    rolls = list(dice)
    while True:
        waiting = RULESET.decision(g.state)
        if waiting is None or waiting.kind not in ("challenge", "roll"):
            return out
        player = waiting.players[0]
        cmd: Any = Roll(player=player) if waiting.kind == "roll" else AcceptChallenge(player=player)
        try:
            out += g.when(cmd, dice=[])
        except InputError:
            out += g.when(cmd, dice=rolls.pop(0))


def hold_fire(g: Given, dice: list[int] | None = None) -> list[Event]:
    """Every empire asked in the Ground-To-Air window launches no challenge (AE-41, since
    version 13); the last answer, after which the strike goes on, rolls ``dice``."""
    out: list[Event] = []
    while (waiting := RULESET.decision(g.state)) is not None and (
        waiting.kind == "ground_to_air_challenge"
    ):
        strike = g.state.frames[-1]
        assert isinstance(strike, AirStrike)
        last = len(strike.to_ask) == 1
        out += g.when(GroundToAirChallenge(player=waiting.players[0]), dice=dice if last else [])
    return out


def launch(g: Given, command: PlayAttackCard, dice: list[int] | None = None) -> list[Event]:
    """Red's strike, up to its Ground-To-Air window (nothing rolls before it), then every empire
    asked there launches no challenge (``hold_fire`` with ``dice``): the events of all of it."""
    return g.when(command, dice=[]) + hold_fire(g, dice)


def test_an_aircraft_played_on_a_hex_pays_its_ap_and_resources_and_opens_the_intercept_window() -> (
    None
):
    g = skies(["hawk"], ["jay"])
    ap, energy = g.state.empires["red"].ap, g.state.empires["red"].resources.energy
    events = g.when(PlayAttackCard(player="red", card="red.hawk.1", at="3,2", aim="unit"))
    launched = only(events, AirStrikeLaunched)
    assert (launched.launched_from, launched.distance) == ("red-hq", 5)
    assert g.state.empires["red"].ap == ap - 2
    assert g.state.empires["red"].resources.energy == energy - 1
    # blue holds a card: it is asked, whatever its hand holds (AE-40)
    waiting = RULESET.decision(g.state)
    assert waiting is not None and (waiting.kind, waiting.players) == ("intercept", ("blue",))
    assert RULESET.legal_commands(g.state, "blue") == [
        Intercept(player="blue", card="blue.jay.1"),
        Intercept(player="blue"),
    ]


def test_an_intercept_is_an_air_to_air_challenge_that_can_destroy_the_attack_card() -> None:
    g = skies(["hawk"], ["jay"])
    g.when(PlayAttackCard(player="red", card="red.hawk.1", at="3,2", aim="unit"))
    # jay's Air To Air 3 against hawk's defence 2: 3 successes to 0 = 3 damage ≥ 2 hit points
    events = g.when(Intercept(player="blue", card="blue.jay.1"), dice=[6, 6, 6, 1, 1])
    opened = only(events, ChallengeOpened).challenge
    assert (opened.kind, opened.attacker.pool.size, opened.defender.pool.size) == (  # type: ignore[union-attr]
        "opposed",
        3,
        2,
    )
    assert g.state.empires["blue"].ap_owed == 2  # outside its turn (AE-19)
    events = accept_all(g)
    assert only(events, CardDamaged).destroyed
    ended = only(events, AirStrikeEnded)
    assert not ended.survived
    assert "red.hawk.1" in g.state.empires["red"].discard
    assert "red.hawk.1" not in g.state.empires["red"].hand
    assert g.state.frames == ()


def test_an_empty_hand_lets_the_strike_pass_and_anti_air_duels_a_harm_card() -> None:
    g = skies(["harrier"], [], garrison=("flak",), version=12)
    # precision targeting names the bunker; blue, with no card, lets it pass (AE-20)
    events = g.when(
        PlayAttackCard(player="red", card="red.harrier.1", at="4,2", target="blue.bunker.1")
    )
    assert only(events, InterceptAnswered).automatic
    assert [e.strike.gunners for e in events if isinstance(e, AirStrikeAdvanced)] == [
        ("blue.flak.1",)
    ]
    # blue is given the chance to fire its flak (p.30; AE-41) and fires it: its Anti-Air 3
    # against the harrier's HARM 3, a duel (p.31)
    assert RULESET.legal_commands(g.state, "blue") == [
        GroundToAir(player="blue", fire=True),
        GroundToAir(player="blue", fire=False),
    ]
    events = g.when(GroundToAir(player="blue", fire=True), dice=[1, 1, 1, 6, 6, 1])
    duel = only(events, ChallengeOpened).challenge
    assert duel.kind == "duel"
    events = accept_all(g, [1, 1, 1, 1])
    # the defender's surplus hurts the attacker in a duel (p.31)
    hit = next(e for e in events if isinstance(e, CardDamaged))
    assert (hit.card, hit.amount) == ("blue.flak.1", 2)


def test_air_to_ground_gets_no_hero_fate_and_a_hardened_facility_takes_half() -> None:
    g = skies(["harrier"], [])
    events = launch(
        g,
        PlayAttackCard(player="red", card="red.harrier.1", at="4,2", target="blue.bunker.1"),
        dice=[6, 6, 6, 1],
    )
    strike = only(events, ChallengeOpened).challenge
    assert strike.defender is not None and strike.defender.fate_hero is None
    events = accept_all(g)
    # 3 − 0 successes = 3, halved by Hardened (R14) = 1
    assert only(events, CardDamaged).amount == 1
    ended = only(events, AirStrikeEnded)
    assert (ended.raw, ended.damage, ended.survived, ended.spent) == (3, 1, True, False)
    assert "red.harrier.1" in g.state.empires["red"].hand  # back in the hand (p.19)


def test_a_random_unit_target_is_picked_among_the_sighted_armies_and_armor_applies() -> None:
    g = skies(["hawk"], [])
    events = launch(
        g,
        PlayAttackCard(player="red", card="red.hawk.1", at="3,2", aim="unit"),
        dice=[6, 6, 6, 6, 1],
    )
    assert only(events, AirTargetPicked).candidates == ("blue.plate.1",)
    events = accept_all(g)
    # 4 − 0 = 4, Composite Armor −1 = 3
    assert only(events, CardDamaged).amount == 3


#: a Spotter Team: a Forward Air Controller (p.46) that may stealth
SPOTTER_CARD = """
[[cards]]
kind = "unit"
id = "spotter"
name = "Test Spotter Team"
attack = 1
defense = 2
hit_points = 2
movement = 3
abilities = ["Forward Air Controller", "Stealth 4"]
"""


def spotters(army: str = "red-eyes", at: str = "3,2") -> str:
    """Red's army ``army`` at ``at``, stealthed, holding a Spotter Team."""
    return army_block(army, "red", at, units=("spotter",)) + "stealthed = true\n"


#: a red Spotter Team in blue-a's hex, stealthed (a game starts with no battle)
SPOTTERS = SPOTTER_CARD + spotters()


def strike_on_blue_a(g: Given, dice: int) -> Pool:
    """Red's hawk strikes a unit of blue-a, blue holding its fire: the Air-To-Ground pool."""
    events = launch(
        g, PlayAttackCard(player="red", card="red.hawk.1", at="3,2", aim="unit"), dice=[1] * dice
    )
    return only(events, ChallengeOpened).challenge.attacker.pool


def test_a_forward_air_controller_in_the_hex_adds_3_dice_to_air_to_ground() -> None:
    # given red's Spotter Team in blue-a's hex, its army having dropped stealth
    g = skies(["hawk"], [], more=SPOTTERS)
    g.events(StealthDropped(empire="red", army="red-eyes", ap_cost=0))
    # the hawk's attack 4 + 3 = 7 dice against the plate's defence 1
    pool = strike_on_blue_a(g, 8)
    assert [t.value for t in pool.terms] == [4, 3] and pool.size == 7
    assert "Forward Air Controller red.spotter.1, p.46" in pool.text()


def test_a_stealthed_armys_forward_air_controller_does_not_give_it_away() -> None:
    """AE-42 (version 14): a stealthed army's controller adds nothing and is not named: blue,
    which has not sighted the army, reads the strike as if it were elsewhere (version 13 named
    it in the open pool and added its 3 dice)."""
    there = strike_on_blue_a(skies(["hawk"], [], more=SPOTTERS), 5)
    elsewhere = strike_on_blue_a(skies(["hawk"], [], more=SPOTTERS.replace('"3,2"', '"7,4"')), 5)
    assert there == elsewhere and [t.value for t in there.terms] == [4]
    assert (
        "red-eyes" not in RULESET.view(skies(["hawk"], [], more=SPOTTERS).state, "blue")["armies"]
    )
    old = strike_on_blue_a(skies(["hawk"], [], more=SPOTTERS, version=13), 8)
    assert "Forward Air Controller red.spotter.1, p.46" in old.text()


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


def test_a_missile_faces_anti_missile_is_never_intercepted_and_is_spent() -> None:
    g = skies(["bolt"], ["jay"], garrison=("flak",), version=12)
    g.when_rejected(
        PlayAttackCard(player="red", card="red.bolt.1", at="3,2", aim="unit"),
        code="rules/missile_strikes_facility",
    )
    events = g.when(PlayAttackCard(player="red", card="red.bolt.1", at="4,2"))
    assert not any(isinstance(e, InterceptAnswered) for e in events)
    # blue fires its flak: Anti-Missile 2 against the bolt's defence 1, opposed, no duel
    events = g.when(GroundToAir(player="blue", fire=True), dice=[1, 1, 6])
    assert only(events, ChallengeOpened).challenge.kind == "opposed"
    # a random facility of two (a d2: the keep), then the bolt's 5 dice against its defence 5
    accept_all(g, [1], [1] * 10)
    assert "red.bolt.1" in g.state.empires["red"].discard
    assert "red.bolt.1" not in g.state.empires["red"].hand
    assert g.state.frames == ()


def test_an_attack_card_is_played_not_deployed_and_only_within_range() -> None:
    g = skies(["jay"], [])
    g.when_rejected(
        DeployCard(player="red", card="red.jay.1", base="red-hq"), "rules/not_deployable"
    )
    # jay's range 5 reaches 3,2 (5 hexes) but not 4,2 (6 hexes)
    g.when_rejected(
        PlayAttackCard(player="red", card="red.jay.1", at="4,2", aim="facility"),
        code="rules/out_of_range",
    )
    g.when_rejected(PlayAttackCard(player="red", card="red.jay.1", at="3,2"), code="rules/no_aim")


# ---------------------------------------------------------------------- intercept conditions


def launched(g: Given) -> Given:
    g.when(PlayAttackCard(player="red", card="red.hawk.1", at="3,2", aim="unit"))
    return g


def test_an_intercept_needs_the_card_in_range_of_a_base_that_is_not_besieged() -> None:
    g = skies(["hawk"], ["jay"])
    # blue's HQ moved out of jay's range 5 of 3,2 (blue-a still observes the hex)
    g.state = replace(
        g.state, bases={**g.state.bases, "blue-hq": replace(g.state.bases["blue-hq"], at="7,4")}
    )
    launched(g)
    assert RULESET.legal_commands(g.state, "blue") == [Intercept(player="blue")]
    err = g.when_rejected(Intercept(player="blue", card="blue.jay.1"), "rules/cannot_intercept")
    assert "beyond the range 5" in str(err)


def test_an_intercept_needs_a_base_that_is_not_besieged() -> None:
    g = skies(["hawk"], ["jay"])
    # red's army besieges blue's HQ
    g.state = replace(
        g.state,
        armies={**g.state.armies, "red-a": replace(g.state.armies["red-a"], at="4,2")},
    )
    launched(g)
    err = g.when_rejected(Intercept(player="blue", card="blue.jay.1"), "rules/cannot_intercept")
    assert "not besieged" in str(err)


def test_an_intercept_needs_the_means_to_pay() -> None:
    g = skies(["hawk"], ["jay"], blue_energy=1)
    launched(g)
    err = g.when_rejected(Intercept(player="blue", card="blue.jay.1"), "rules/cannot_intercept")
    # the resources it lacks are named, not the AP it does not lack
    assert str(err).endswith("blue.jay.1 costs energy 2; blue has humans 9, materials 9, energy 1")


def test_an_intercept_needs_the_hex_observed() -> None:
    from warlog.domain.armageddon_empires.intercept import intercept_problem, observes

    g = skies(["hawk"], ["jay"])
    launched(g)
    strike = g.state.frames[-1]
    assert isinstance(strike, AirStrike)
    assert observes(g.state, "blue", "3,2")  # its army stands there
    # without its army there, blue's bases observe nothing at 3,2: no intercept
    gone = replace(g.state, armies={a: v for a, v in g.state.armies.items() if a != "blue-a"})
    assert not observes(gone, "blue", "3,2")
    assert "does not observe" in intercept_problem(gone, "blue", strike, "blue.jay.1")


def test_both_initiative_purchases_are_needed_before_a_strike() -> None:
    g = game(
        ROWS,
        armies=AIR_CARDS + ARMIES,
        bases=BASES.replace("{garrison}", "[]"),
        empires=empires(["hawk"], []),
        resources="",
    )
    g.when(BuyInitiative(player="red", count=0))
    g.when_rejected(
        PlayAttackCard(player="red", card="red.hawk.1", at="3,2", aim="unit"),
        code="rules/wrong_phase",
    )
    assert Scripted  # the helpers' dice are used by start_turns


# ---------------------------------------------------------------------- properties


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_every_air_strike_ends_with_every_card_in_one_place(data: st.DataObject) -> None:
    """Random strikes, intercepts and answers: every strike ends, and after every event each card
    is in exactly one place, no damage reaches past a card's limit while it is in play."""
    g = skies(["hawk", "harrier", "bolt"], ["jay", "plate"], garrison=("flak",))
    strikes = 0
    for _ in range(60):
        waiting = RULESET.decision(g.state)
        assert waiting is not None
        player = waiting.players[0]
        legal = RULESET.legal_commands(g.state, player)
        if waiting.kind == "turn":
            plays = [c for c in legal if isinstance(c, PlayAttackCard)]
            if not plays or strikes >= 2:
                break
            command: Any = data.draw(st.sampled_from(plays))
            strikes += 1
        else:
            command = data.draw(st.sampled_from(legal))
        seed = data.draw(st.integers(0, 2**16))
        for event in RULESET.decide(g.state, command, SeededDice(seed.to_bytes(32), "p", "", 2)):
            g.events(event)
            check_invariants(g.state)
    assert strikes >= 1
    assert g.state.frames == ()
    assert RULESET.decision(g.state).kind == "turn"  # type: ignore[union-attr]


# -- AE-39: where a helo flies from ------------------------------------------------------------

CHOPPER = """
[[cards]]
kind = "attack"
id = "chopper"
name = "Test Chopper"
craft = "helo"
attack = 3
defense = 1
fate = 0
hit_points = 1
range = {range}
ap = 1
"""


def helo_strike(range_: int, version: int | None = None) -> AirStrikeLaunched:
    """Red plays its 1-hit-point helo on 3,2: red-hq (0,0) is 5 hexes away, its army red-a
    (0,1) 4."""
    g = skies(["chopper"], [], more=CHOPPER.format(range=range_))
    if version is not None:
        g.state = replace(g.state, rules_version=version)
    return only(
        g.when(PlayAttackCard(player="red", card="red.chopper.1", at="3,2", aim="unit")),
        AirStrikeLaunched,
    )


def test_a_helo_flies_from_its_base_in_range_though_an_army_is_nearer() -> None:
    # given the base 5 hexes away and an army 4 away, a helo of range 5: from the base, unhurt
    launched = helo_strike(5)
    assert (launched.launched_from, launched.distance, launched.launch_damage) == ("red-hq", 5, 0)
    # given range 4, only the army reaches: from the army, taking its launch damage (p.19)
    launched = helo_strike(4)
    assert (launched.launched_from, launched.distance) == ("red-a", 4)
    assert launched.launch_damage == HELO_FROM_ARMY_DAMAGE


def test_a_game_of_version_11_keeps_its_rules_a_helo_flies_from_the_nearest() -> None:
    launched = helo_strike(5, version=11)
    assert (launched.launched_from, launched.distance) == ("red-a", 4)
    assert launched.launch_damage == HELO_FROM_ARMY_DAMAGE
    # and names where it flew from to everyone
    assert type(launched) is AirStrikeLaunched and secrets_of(launched) == []


def test_where_an_attack_card_flew_from_is_its_empire_s_alone() -> None:
    # given red's helo that reaches 3,2 only from its army red-a, which blue may not have seen
    launched = helo_strike(4)
    # then the army it flew from and its distance are sealed for red (AE-39): blue's log and
    # feed hold neither; the launch damage, which the card's own damage shows, stays public
    assert isinstance(launched, AirStrikeLaunchedSealed)
    assert secrets_of(launched) == [("launched_from", "red"), ("distance", "red")]
    # and so are they when it flies from a base, so that a seal tells nothing of where
    assert secrets_of(helo_strike(5)) == [("launched_from", "red"), ("distance", "red")]


# -- AE-41: a gunner's empire is given the chance to fire it (since version 12) -----------------


def flak_asked(version: int) -> tuple[Given, list[Event]]:
    """Red's harrier (HARM 3) strikes blue's bunker at blue's base garrisoned by flak."""
    g = skies(["harrier"], [], garrison=("flak",), version=version)
    strike = PlayAttackCard(player="red", card="red.harrier.1", at="4,2", target="blue.bunker.1")
    every_gunner_fires = version < GROUND_TO_AIR_ASKED_SINCE
    return g, g.when(strike, dice=[1, 1, 1, 6, 6, 1] if every_gunner_fires else [])


def test_a_gunner_that_holds_its_fire_challenges_nothing_and_takes_no_harm() -> None:
    # given blue asked whether its flak fires at the harrier, which would duel it (HARM)
    g, _ = flak_asked(version=12)
    waiting = RULESET.decision(g.state)
    assert waiting is not None and (waiting.kind, waiting.players) == ("ground_to_air", ("blue",))
    # when blue holds its fire, then no Ground-To-Air challenge opens, the flak is unhurt, and
    # the strike goes on to its Air-To-Ground challenge against the bunker
    events = g.when(GroundToAir(player="blue", fire=False), dice=[6, 6, 6, 1])
    assert next(e.why for e in events if isinstance(e, AirStrikeAdvanced)) == (
        "blue holds the fire of blue.flak.1: it does not challenge red.harrier.1 (p.30)"
    )
    opened = only(events, ChallengeOpened).challenge
    assert opened.purpose == "air strike 1 air to ground"
    assert opened.defender is not None and opened.defender.name == "Test Bunker (blue.bunker.1)"
    accept_all(g)
    assert "blue.flak.1" not in g.state.damage


def test_a_game_of_version_11_keeps_its_rules_every_gunner_fires() -> None:
    g, events = flak_asked(version=11)
    assert only(events, ChallengeOpened).challenge.kind == "duel"
    assert not [c for c in RULESET.legal_commands(g.state, "blue") if isinstance(c, GroundToAir)]


AA_FACILITIES = """
[[cards]]
kind = "facility"
id = "aakeep"
name = "AA Keep"
defense = 1
structure = 1
level = 2
abilities = ["HQ", "Supply", "Anti-Air 1"]

[[cards]]
kind = "facility"
id = "aabunker"
name = "AA Bunker"
defense = 1
structure = 6
abilities = ["Anti-Air 2"]
"""


def test_a_gunner_gone_before_its_turn_is_passed_over() -> None:
    # given blue's base whose own card and a facility both have Anti-Air, struck by red's
    # harrier (HARM 3)
    bases = BASES.replace(
        'at = "4,2"\ncard = "keep"\nfacilities = ["bunker"]',
        'at = "4,2"\ncard = "aakeep"\nfacilities = ["bunker", "aabunker"]',
    )
    g = skies(["harrier"], [], more=AA_FACILITIES, bases_text=bases, version=12)
    strike = PlayAttackCard(player="red", card="red.harrier.1", at="4,2", target="blue.bunker.1")
    g.when(strike)
    # when blue fires its keep and the HARM duel destroys it, razing the base with its bunker
    g.when(GroundToAir(player="blue", fire=True), dice=[1, 6, 6, 6])
    events = accept_all(g)
    assert "blue-hq" not in g.state.bases
    # then the bunker, gone with the base, is passed over (it was asked of nobody, and the
    # game was stuck on a StopIteration) and the strike ends
    whys = [e.why for e in events if isinstance(e, AirStrikeAdvanced)]
    assert "blue.aabunker.1 no longer stands in 4,2: it does not fire (AE-41)" in whys
    assert only(events, AirStrikeEnded).survived
    assert RULESET.decision(g.state).kind == "turn"  # type: ignore[union-attr]


def test_the_holder_of_a_captured_base_fires_its_cards_and_rolls_their_side() -> None:
    # given red's HQ, with its AA bunker, captured by blue; red strikes it with its hawk
    bases = (
        BASES.replace(
            'at = "0,0"\ncard = "keep"', 'at = "0,0"\ncard = "keep"\nfacilities = ["aabunker"]'
        )
        + '\n[[bases]]\nid = "red-out"\nempire = "red"\nkind = "outpost"\nat = "1,0"\ncard = "camp"\n'
    )
    g = skies(["hawk"], [], more=AA_FACILITIES, bases_text=bases, version=12)
    g.events(BaseCaptured(base="red-hq", empire="blue", previous="red", at="0,0"))
    g.when(PlayAttackCard(player="red", card="red.hawk.1", at="0,0", aim="facility"))
    waiting = RULESET.decision(g.state)
    assert waiting is not None and (waiting.kind, waiting.players) == ("ground_to_air", ("blue",))
    # when blue fires the bunker, then the challenge is blue's bunker against red's hawk: blue
    # rolls and answers the gunner's side, red the hawk's
    events = g.when(GroundToAir(player="blue", fire=True), dice=[6, 6, 1, 1])
    challenge = only(events, ChallengeOpened).challenge
    assert challenge.attacker is not None and challenge.defender is not None
    assert (challenge.attacker.empire, challenge.defender.empire) == ("blue", "red")


# -- AE-41: since version 13 each empire is asked which gunners it fires, whatever the hex holds --

#: a second gunner of blue's in its HQ's hex, in a field army (blue.flak.2: the garrison's is 1)
GUNS = army_block("blue-guns", "blue", "4,2", units=("flak",))
HARRIER_ON_BUNKER = PlayAttackCard(
    player="red", card="red.harrier.1", at="4,2", target="blue.bunker.1"
)
#: blue launches no more challenges
BLUE_STOPS = GroundToAirChallenge(player="blue")


def fire(gunner: str) -> GroundToAirChallenge:
    return GroundToAirChallenge(player="blue", gunner=gunner)


def window(g: Given) -> AirStrike:
    strike = g.state.frames[-1]
    assert isinstance(strike, AirStrike)
    return strike


def test_every_other_empire_is_asked_though_the_hex_holds_no_gunner() -> None:
    # given red's hawk on blue-a at 3,2, where blue has nothing that fires from the ground
    g = skies(["hawk"], [])
    events = g.when(PlayAttackCard(player="red", card="red.hawk.1", at="3,2", aim="unit"), dice=[])
    # then blue is asked all the same, and may only launch no challenge (p.30; AE-41)
    waiting = RULESET.decision(g.state)
    assert waiting is not None
    assert (waiting.kind, waiting.players) == ("ground_to_air_challenge", ("blue",))
    assert waiting.waiting == "blue's Ground-To-Air challenges against air strike 1 over 3,2"
    assert waiting.about == {"strike": "1", "at": "3,2", "empire": "blue"}
    assert RULESET.legal_commands(g.state, "blue") == [BLUE_STOPS]
    assert RULESET.legal_commands(g.state, "red") == []
    opened = [e for e in events if isinstance(e, AirStrikeAdvanced)][-1]
    assert opened.why == (
        "the Ground-To-Air window: blue asked in turn whether to challenge red.hawk.1 from the "
        "ground (p.30–31; AE-41)"
    )
    assert (opened.strike.stage, opened.strike.to_ask, opened.strike.gunners) == (
        "ground",
        ("blue",),
        (),
    )
    # when blue launches none, the strike goes on to its Air-To-Ground challenge
    events = g.when(BLUE_STOPS, dice=[6, 6, 6, 6, 1])
    assert only(events, AirTargetPicked).candidates == ("blue.plate.1",)
    assert only(events, ChallengeOpened).challenge.purpose == "air strike 1 air to ground"


def test_a_gunner_fired_from_the_ground_duels_a_harm_card_and_its_empire_is_asked_again() -> None:
    g = skies(["harrier"], [], garrison=("flak",))
    g.when(HARRIER_ON_BUNKER, dice=[])
    # nothing public names the flak before it fires: the window carries no gunner (AE-41)
    assert window(g).gunners == () and window(g).fired == ()
    assert "blue.flak.1" not in str(RULESET.view(g.state, "red"))
    assert RULESET.legal_commands(g.state, "blue") == [fire("blue.flak.1"), BLUE_STOPS]
    # when blue fires its flak: Anti-Air 3 against the harrier's HARM 3, a duel (p.31)
    events = g.when(fire("blue.flak.1"), dice=[1, 1, 1, 6, 6, 1])
    assert [e.why for e in events if isinstance(e, AirStrikeAdvanced)] == [
        "blue fires blue.flak.1 at red.harrier.1 from the ground (p.30–31; AE-41)"
    ]
    duel = only(events, ChallengeOpened).challenge
    assert duel.kind == "duel" and duel.attacker.empire == "blue"
    assert duel.attacker.name == "Test Flak (blue.flak.1)" and duel.attacker.fate_hero is None
    # then the defender's surplus hurts the flak (p.31), and it shows itself: it has fired
    events = accept_all(g)
    hit = only(events, CardDamaged)
    assert (hit.card, hit.amount) == ("blue.flak.1", 2)
    assert window(g).fired == ("blue.flak.1",) and window(g).challenger == ""
    # the duel over, red still sees the flak that fired at its harrier (it showed itself)
    assert "blue.flak.1" in RULESET.view(g.state, "red")["instances"]
    # blue is asked again, its flak spent for this strike; it launches no more
    assert RULESET.legal_commands(g.state, "blue") == [BLUE_STOPS]
    events = g.when(BLUE_STOPS, dice=[1, 1, 1, 1])
    assert only(events, ChallengeOpened).challenge.purpose == "air strike 1 air to ground"


def test_an_empire_fires_two_gunners_in_the_order_it_chooses() -> None:
    # given blue's flak in its garrison (blue.flak.1) and in blue-guns (blue.flak.2) at 4,2
    g = skies(["hawk"], [], garrison=("flak",), more=GUNS)
    g.when(PlayAttackCard(player="red", card="red.hawk.1", at="4,2", aim="facility"), dice=[])
    assert RULESET.legal_commands(g.state, "blue") == [
        fire("blue.flak.2"),
        fire("blue.flak.1"),
        BLUE_STOPS,
    ]
    # when blue fires its garrison's first (Anti-Air 3 against the hawk's defence 2: 1 − 0 = 1
    # damage, short of its 2 hit points) ...
    g.when(fire("blue.flak.1"), dice=[6, 1, 1, 1, 1])
    events = accept_all(g)
    assert [(e.card, e.amount) for e in events if isinstance(e, CardDamaged)] == [("red.hawk.1", 1)]
    assert RULESET.legal_commands(g.state, "blue") == [fire("blue.flak.2"), BLUE_STOPS]
    # ... then blue-guns' (0 − 0: a miss), then launches no more
    g.when(fire("blue.flak.2"), dice=[1, 1, 1, 1, 1])
    accept_all(g)
    assert window(g).fired == ("blue.flak.1", "blue.flak.2")
    assert RULESET.legal_commands(g.state, "blue") == [BLUE_STOPS]
    # then the strike goes on: a d2 picks the keep, the hawk's 4 dice against its defence 5
    g.when(BLUE_STOPS, dice=[1])
    events = accept_all(g, [1] * 9)
    assert only(events, AirStrikeEnded).survived
    assert g.state.frames == ()


def test_a_gunner_held_challenges_nothing_takes_no_harm_and_is_never_named() -> None:
    # given blue's flak under red's harrier, which would duel it (HARM 3)
    g = skies(["harrier"], [], garrison=("flak",))
    events = g.when(HARRIER_ON_BUNKER, dice=[])
    # when blue launches no challenge at all
    events += g.when(BLUE_STOPS, dice=[6, 6, 6, 1])
    # then no Ground-To-Air challenge opens, the flak is unhurt, the strike goes on ...
    opened = only(events, ChallengeOpened).challenge
    assert opened.purpose == "air strike 1 air to ground"
    accept_all(g)
    assert "blue.flak.1" not in g.state.damage
    # ... and no event of the strike ever named the flak: the held gunner was never shown
    assert "blue.flak.1" not in str([e for e in events if not isinstance(e, ChallengeOpened)])
    assert [e.why for e in events if isinstance(e, AirStrikeAdvanced)][1:] == [
        "blue launches no more Ground-To-Air challenges against air strike 1 (p.30; AE-41)",
        "it survived every challenge: the Air-To-Ground challenge (p.31)",
    ]


def test_a_card_shot_down_from_the_ground_ends_the_window() -> None:
    # given two Anti-Missile gunners of blue's under red's bolt (a missile: never intercepted)
    g = skies(["bolt"], ["jay"], garrison=("flak",), more=GUNS)
    g.when(PlayAttackCard(player="red", card="red.bolt.1", at="4,2"), dice=[])
    # when blue fires one: Anti-Missile 2 against the bolt's defence 1, opposed: 1 − 0 destroys it
    events = g.when(fire("blue.flak.1"), dice=[6, 1, 1])
    assert only(events, ChallengeOpened).challenge.kind == "opposed"
    events = accept_all(g)
    # then the strike is over: blue is not asked about its other gunner
    assert not only(events, AirStrikeEnded).survived
    assert "red.bolt.1" in g.state.empires["red"].discard
    assert g.state.frames == ()
    assert RULESET.decision(g.state).kind == "turn"  # type: ignore[union-attr]


def test_a_named_card_that_is_not_a_gunner_of_the_empire_in_the_hex_is_refused_alike() -> None:
    # given blue asked under red's harrier at 4,2, its flak there in the garrison, and another
    # flak of blue's at 3,2 (blue.flak.2, elsewhere)
    g = skies(["harrier"], [], garrison=("flak",), more=GUNS.replace('"4,2"', '"3,2"'))
    g.when(HARRIER_ON_BUNKER, dice=[])
    # then a card of red's, one of blue's elsewhere and a name that is nothing are refused in
    # the same words but for the name given (AE-41)
    words = set()
    for name in ("red.trooper.1", "blue.flak.2", "blue.plate.1", "no-such-card"):
        err = g.when_rejected(fire(name), "rules/not_a_gunner")
        assert "\n" not in str(err)
        words.add(str(err).replace(repr(name), "NAME"))
    assert words == {
        "NAME is not a gunner of blue's in 4,2 that may challenge air strike 1: one of its "
        "Anti-Air cards there that has not fired at it (p.31; AE-41)"
    }
    # a gunner that has fired is refused as such: it was seen firing (1 − 0: the harrier hit)
    g.when(fire("blue.flak.1"), dice=[6, 1, 1, 1, 1, 1])
    accept_all(g)
    err = g.when_rejected(fire("blue.flak.1"), "rules/already_fired")
    assert str(err) == (
        "blue.flak.1 has already challenged air strike 1 from the ground: each gunner "
        "challenges once (p.31; AE-41)"
    )
    # red is not the one asked; version 12's answer is not played since version 13, by either
    # empire, asked or not (it is refused for what it is, never as one that must wait)
    g.when_rejected(GroundToAirChallenge(player="red"), "rules/not_your_turn")
    for empire in ("blue", "red"):
        err = g.when_rejected(GroundToAir(player=empire, fire=True), "rules/not_in_this_version")
        assert str(err) == (
            f"ground_to_air is not played under version {RULESET.version} of these rules "
            "(since version 13): the Ground-To-Air window asks every other empire which gunner "
            "it fires, answered with ground_to_air_challenge (AE-41)"
        )


def test_a_game_of_version_12_is_asked_gunner_by_gunner_and_refuses_version_13_s_answer() -> None:
    g, events = flak_asked(version=12)
    # version 12 named the gunner to everyone (the leak version 13 closes)
    assert [e.strike.gunners for e in events if isinstance(e, AirStrikeAdvanced)] == [
        ("blue.flak.1",)
    ]
    err = g.when_rejected(fire("blue.flak.1"), "rules/decision_pending")
    assert str(err) == (
        "ground_to_air_challenge is not an answer open now: the game waits for blue's chance to "
        "fire blue.flak.1 at air strike 1 over 4,2 (ground_to_air)"
    )


def test_a_game_of_version_13_refuses_version_12_s_answer_for_what_it_is() -> None:
    """Given a game of version 13, the first to ask every other empire (AE-41), blue asked
    under red's harrier; when blue answers as version 12 did (ground_to_air), then it is
    refused as a command this version does not play, naming version 13 itself, not as one
    that must wait."""
    g = skies(["harrier"], [], garrison=("flak",), version=13)
    g.when(HARRIER_ON_BUNKER, dice=[])
    err = g.when_rejected(GroundToAir(player="blue", fire=True), "rules/not_in_this_version")
    assert str(err).startswith(
        "ground_to_air is not played under version 13 of these rules (since version 13): "
    )


def test_the_holder_of_a_captured_base_fires_its_cards_from_the_ground() -> None:
    # given red's HQ, with its AA bunker, captured by blue; red strikes it with its hawk
    bases = (
        BASES.replace(
            'at = "0,0"\ncard = "keep"', 'at = "0,0"\ncard = "keep"\nfacilities = ["aabunker"]'
        )
        + '\n[[bases]]\nid = "red-out"\nempire = "red"\nkind = "outpost"\nat = "1,0"\ncard = "camp"\n'
    )
    g = skies(["hawk"], [], more=AA_FACILITIES, bases_text=bases)
    g.events(BaseCaptured(base="red-hq", empire="blue", previous="red", at="0,0"))
    g.when(PlayAttackCard(player="red", card="red.hawk.1", at="0,0", aim="facility"), dice=[])
    # then blue, the holder, is asked, and the base's card of red's deck is its gunner
    assert RULESET.legal_commands(g.state, "blue") == [fire("red.aabunker.1"), BLUE_STOPS]
    err = g.when_rejected(
        GroundToAirChallenge(player="red", gunner="red.aabunker.1"), "rules/not_your_turn"
    )
    assert "blue's Ground-To-Air challenges" in str(err)
    # when blue fires it, the challenge is blue's bunker against red's hawk: blue rolls and
    # answers the gunner's side, red the hawk's
    events = g.when(fire("red.aabunker.1"), dice=[6, 6, 1, 1])
    challenge = only(events, ChallengeOpened).challenge
    assert challenge.attacker is not None and challenge.defender is not None
    assert (challenge.attacker.empire, challenge.defender.empire) == ("blue", "red")


def test_the_holder_of_a_captured_base_defends_its_facility_against_air_to_ground() -> None:
    """AE-42 (version 14): red strikes a facility of its HQ, captured by blue: the Air-To-Ground
    challenge's defender is blue, whose questions (tactic cards, the Defender's Prerogative) are
    its own (version 13 gave the side to the card's owner, red, which then answered both)."""
    for version, defender in ((None, "blue"), (13, "red")):
        bases = (
            BASES.replace(
                'at = "0,0"\ncard = "keep"', 'at = "0,0"\ncard = "keep"\nfacilities = ["aabunker"]'
            )
            + '\n[[bases]]\nid = "red-out"\nempire = "red"\nkind = "outpost"\nat = "1,0"\n'
            'card = "camp"\n'
        )
        g = skies(["hawk"], [], more=AA_FACILITIES, bases_text=bases, version=version)
        g.events(BaseCaptured(base="red-hq", empire="blue", previous="red", at="0,0"))
        g.when(PlayAttackCard(player="red", card="red.hawk.1", at="0,0", aim="facility"), dice=[])
        g.when(BLUE_STOPS, dice=[2])  # the die picks the bunker among the HQ's facilities
        events = g.when(Roll(player="red"), dice=[6, 6, 6, 6, 1])
        challenge = only(events, ChallengeOpened).challenge
        assert challenge.defender is not None and challenge.defender.name == (
            "AA Bunker (red.aabunker.1)"
        )
        assert challenge.defender.empire == defender


def test_the_policy_fires_each_gunner_but_one_a_harm_card_outnumbers() -> None:
    from warlog.domain.armageddon_empires.autoplay import choose

    # given blue's base whose card has Anti-Air 1 and its bunker Anti-Air 2, and blue's flak
    # (Anti-Air 3) there, under red's harrier (HARM 3)
    bases = BASES.replace(
        'at = "4,2"\ncard = "keep"\nfacilities = ["bunker"]',
        'at = "4,2"\ncard = "aakeep"\nfacilities = ["bunker", "aabunker"]',
    )
    g = skies(["harrier"], [], garrison=("flak",), more=AA_FACILITIES, bases_text=bases)
    g.when(HARRIER_ON_BUNKER, dice=[])
    legal = RULESET.legal_commands(g.state, "blue")
    assert legal == [
        fire("blue.aakeep.1"),
        fire("blue.aabunker.1"),
        fire("blue.flak.1"),
        BLUE_STOPS,
    ]
    # then the policy fires the flak, whose duel is even, and not the two the HARM outnumbers
    assert choose(g.state, "blue", legal) == fire("blue.flak.1")
    g.when(fire("blue.flak.1"), dice=[1, 1, 1, 1, 1, 1])
    accept_all(g)
    legal = RULESET.legal_commands(g.state, "blue")
    assert choose(g.state, "blue", legal) == BLUE_STOPS
