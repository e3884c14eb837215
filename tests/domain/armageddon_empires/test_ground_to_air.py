"""Ground-To-Air (p.30–31; AE-41): Anti-Air against HARM in a duel and Anti-Missile, the gunners
fired at the attack card, asked gunner by gunner in version 12 and empire by empire since version
13. The set-up: ``air_helpers``.
"""

from __future__ import annotations

from tests.domain.armageddon_empires.air_helpers import (
    AA_FACILITIES,
    BASES,
    BLUE_STOPS,
    accept_all,
    skies,
)
from tests.domain.armageddon_empires.helpers import army_block, only
from tests.given_when_then import Given
from warlog.domain.armageddon_empires.air_events import (
    AirStrikeAdvanced,
    AirStrikeEnded,
    AirTargetPicked,
    InterceptAnswered,
)
from warlog.domain.armageddon_empires.battle_events import BaseCaptured
from warlog.domain.armageddon_empires.challenge_events import CardDamaged, ChallengeOpened
from warlog.domain.armageddon_empires.commands import (
    GroundToAir,
    GroundToAirChallenge,
    PlayAttackCard,
)
from warlog.domain.armageddon_empires.frames import AirStrike
from warlog.domain.armageddon_empires.ground_to_air import GROUND_TO_AIR_ASKED_SINCE
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.core.events import Event

# -- AE-41: a gunner's empire is given the chance to fire it (since version 12) -----------------


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


STEALTHY_FLAK = """
[[cards]]
kind = "unit"
id = "ghostflak"
name = "Test Ghost Flak"
attack = 1
defense = 2
hit_points = 3
movement = 1
abilities = ["Anti-Air 3", "Stealth 4"]
"""


def test_a_stealthed_army_s_anti_air_is_no_gunner() -> None:
    # given blue's stealthed army at 4,2 holding its one Anti-Air unit, under red's harrier
    army = army_block("blue-hidden", "blue", "4,2", units=("ghostflak",)) + "stealthed = true\n"
    g = skies(["harrier"], [], more=STEALTHY_FLAK + army)
    g.when(HARRIER_ON_BUNKER, dice=[])
    # then blue is offered no gunner, and naming the unit is refused: the gunners are the
    # base's cards and the units of armies not stealthed (AE-41)
    assert RULESET.legal_commands(g.state, "blue") == [BLUE_STOPS]
    g.when_rejected(fire("blue.ghostflak.1"), "rules/not_a_gunner")
