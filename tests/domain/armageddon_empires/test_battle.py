"""Ground battles (p.33–34; AE-25, AE-26, AE-35, AE-36): the engagement offered on moving into
enemies in sight, set-up and rows, a delayed attack fought at the turn's end, a siege's assault,
and every battle of a random game ending. The set-up: ``battle_helpers``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec import UNSET
from msgspec.structs import replace

from tests.domain.armageddon_empires.air_helpers import SPOTTER_CARD
from tests.domain.armageddon_empires.battle_helpers import (
    BATTLE_CARDS,
    EMPTY_HANDS,
    GARRISONED,
    VERSUS_FOX,
    field,
)
from tests.domain.armageddon_empires.games import play
from tests.domain.armageddon_empires.helpers import army_block, game, only, start_turns, with_ap
from tests.domain.armageddon_empires.invariants import check_invariants
from tests.given_when_then import Given, of, tags
from warlog.domain.armageddon_empires.autoplay import choose
from warlog.domain.armageddon_empires.battle_events import (
    AssaultOrdered,
    BattleAverted,
    BattleBegan,
    BattleEnded,
    DelayedBattlesCalled,
    EngagementChosen,
    EngagementOffered,
)
from warlog.domain.armageddon_empires.challenge_events import CardDamaged
from warlog.domain.armageddon_empires.commands import (
    Assault,
    CommitArmy,
    DropStealth,
    EndTurn,
    Engage,
    MoveArmy,
    SetUpBattle,
)
from warlog.domain.armageddon_empires.frames import Battle
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.state import GameState


def test_moving_into_enemies_in_sight_offers_attack_or_delay_and_attacking_begins_a_battle() -> (
    None
):
    g = field(VERSUS_FOX)
    events = g.when(MoveArmy(player="red", army="red-x", to="4,0"))
    assert only(events, EngagementOffered).engagement.choices == ("attack", "delay")
    began = only(g.when(Engage(player="red", choice="attack")), BattleBegan)
    assert (began.battle.attacker.armies, began.battle.defender.armies) == (("red-x",), ("blue-y",))
    # both sides are asked to set up, whether or not they have a stealthed army to join (AE-26)
    assert RULESET.legal_commands(g.state, "red") == [SetUpBattle(player="red")]
    g.when(SetUpBattle(player="red"))
    assert RULESET.legal_commands(g.state, "blue") == [SetUpBattle(player="blue")]
    g.when(SetUpBattle(player="blue"))
    # the rows are the committing empire's choice (R13): every split of its units is offered
    backs = {c.back for c in RULESET.legal_commands(g.state, "red") if isinstance(c, CommitArmy)}
    assert backs == {(), ("red.lancer.1",), ("red.plated.1",), ("red.lancer.1", "red.plated.1")}


def test_a_delayed_attack_is_fought_when_its_empire_ends_the_turn() -> None:
    g = field(VERSUS_FOX)
    g.when(MoveArmy(player="red", army="red-x", to="4,0"))
    g.when(Engage(player="red", choice="delay"))
    assert g.state.delayed == ("4,0",) and not g.state.frames
    events = g.when(EndTurn(player="red"))
    called = only(events, DelayedBattlesCalled)
    assert called.hexes == ("4,0",)
    assert called.explain() == (
        "red ends its turn: first the battles it delayed are fought, at 4,0 "
        "(Delay Attack, p.33; AE-36)"
    )
    assert only(events, BattleBegan).started_by == "delayed"


def test_a_battle_s_choices_refuse_what_is_not_open_and_name_what_is() -> None:
    # given red's army walks into blue's in the open (no base: no siege, p.26)
    g = field(VERSUS_FOX)
    g.when(MoveArmy(player="red", army="red-x", to="4,0"))
    err = g.when_rejected(Engage(player="red", choice="siege"), "rules/bad_choice")
    assert str(err) == "siege is not open at 4,0: attack, delay (p.26, p.33)"
    g.when(Engage(player="red", choice="attack"))
    # only a stealthed army of red in the hex joins, and once (p.33)
    err = g.when_rejected(SetUpBattle(player="red", join=("red-x", "red-x")), "rules/cannot_join")
    assert str(err) == "'red-x' is named twice"
    err = g.when_rejected(SetUpBattle(player="red", join=("red-x",)), "rules/cannot_join")
    assert str(err).endswith("that may join (p.33); these may: none")
    g.when(SetUpBattle(player="red"))
    g.when(SetUpBattle(player="blue"))
    # the back row names units of the army committed, each once (R13)
    for back in (("blue.plated.1",), ("red.lancer.1", "red.lancer.1")):
        err = g.when_rejected(CommitArmy(player="red", army="red-x", back=back), "rules/bad_rows")
        assert str(err).endswith("once each: red.lancer.1, red.plated.1 (R13)")


def besieging() -> Given:
    """Red's trooper walks into blue's garrisoned HQ at 7,5 and lays siege (p.26, p.33)."""
    g = field(army_block("red-x", "red", "6,5", units=("trooper",)), bases=GARRISONED)
    g.when(MoveArmy(player="red", army="red-x", to="7,5"))
    g.when(Engage(player="red", choice="siege"))
    return g


def test_a_besieging_army_assaults_the_enemy_in_its_own_hex_for_3_ap() -> None:
    # given red's army laying siege to blue's garrisoned HQ: no battle yet
    g = besieging()
    assert not g.state.frames
    ap = g.state.empires["red"].ap
    assert Assault(player="red", army="red-x") in RULESET.legal_commands(g.state, "red")
    # when it assaults (Break Siege / Assault Defenses, p.26)
    events = g.when(Assault(player="red", army="red-x"))
    # then it pays 3 AP, and a battle begins in its hex against the garrison
    ordered = only(events, AssaultOrdered)
    assert (ordered.army, ordered.at, ordered.ap_cost) == ("red-x", "7,5", 3)
    assert ordered.explain() == (
        "red-x of red assaults the enemy at 7,5 for 3 AP (Break Siege / Assault Defenses, p.26; "
        "AE-35)"
    )
    assert g.state.empires["red"].ap == ap - 3
    began = only(events, BattleBegan)
    assert began.started_by == "assault"
    assert (began.battle.attacker.armies, began.battle.defender.armies) == (
        ("red-x",),
        ("blue-hq-garrison",),
    )
    assert "assaulted in its own hex for 3 AP (p.26; AE-35)" in began.explain()


def test_an_assault_needs_3_ap() -> None:
    # given red's besieging army and 2 AP left
    g = with_ap(besieging(), "red", 2)
    # when it assaults, then it is refused, naming the price, and is not offered
    refused = g.when_rejected(Assault(player="red", army="red-x"), "rules/not_enough_ap")
    assert str(refused) == "an assault costs 3 AP (p.26); red has 2"
    assert not any(isinstance(c, Assault) for c in RULESET.legal_commands(g.state, "red"))


def beside_unseen_spotters(drop_stealth: bool) -> Given:
    """Red's army red-x at 3,0 shares its hex with blue's stealthed Spotter Team blue-eyes (a
    game may start so); on blue's turn the team drops stealth (``drop_stealth``), which red does
    not see (sealed, AE-23), and blue ends its turn. No check has sighted it."""
    spotters = army_block("blue-eyes", "blue", "3,0", units=("spotter",)) + "stealthed = true\n"
    red = army_block("red-x", "red", "3,0", units=("lancer", "plated"))
    armies = BATTLE_CARDS + SPOTTER_CARD + red + spotters
    g = start_turns(game(armies=armies, empires=EMPTY_HANDS), first="blue")
    if drop_stealth:
        g.when(DropStealth(player="blue", army="blue-eyes"))
    g.when(EndTurn(player="blue"))
    return g


@pytest.mark.parametrize(
    "given",
    [
        pytest.param(lambda: field(VERSUS_FOX), id="no enemy in the hex"),
        pytest.param(lambda: beside_unseen_spotters(False), id="a stealthed enemy in the hex"),
        pytest.param(lambda: beside_unseen_spotters(True), id="an enemy in the hex never sighted"),
    ],
)
def test_an_assault_needs_an_enemy_its_empire_sees_in_the_hex(given: Callable[[], Given]) -> None:
    # given red's army at 3,0 with no enemy there that red has sighted: none at all, blue's
    # stealthed spotters, or the same spotters out of stealth but not sighted since (AE-35: an
    # assault is judged by what the empire sees, not by what stands in the hex)
    g = given()
    assert not any(s.at == "3,0" for s in g.state.sightings["red"].values())
    # when it assaults, then it is refused: red sees nothing there to attack; nor is it offered
    refused = g.when_rejected(Assault(player="red", army="red-x"), "rules/no_enemy")
    assert str(refused) == "red sees no enemy army that can fight nor an enemy base at 3,0"
    assert not any(isinstance(c, Assault) for c in RULESET.legal_commands(g.state, "red"))


def test_an_army_that_delayed_its_attack_does_not_assault_before_the_turn_s_end() -> None:
    # given red's army that walked into blue's and delayed its attack to the end of the turn
    g = field(VERSUS_FOX)
    g.when(MoveArmy(player="red", army="red-x", to="4,0"))
    g.when(Engage(player="red", choice="delay"))
    # when it assaults, then it is refused: the delayed battle comes at the turn's end (p.33)
    refused = g.when_rejected(Assault(player="red", army="red-x"), "rules/delayed")
    assert str(refused) == "red has delayed its attack at 4,0 (p.33)"


def test_a_delayed_attack_is_recorded_against_its_hex_and_explains_when_it_will_be_fought() -> None:
    # given red's army that walked into blue's and is offered attack or delay (AE-25)
    g = field(VERSUS_FOX)
    g.when(MoveArmy(player="red", army="red-x", to="4,0"))
    # when red delays the attack
    events = g.when(Engage(player="red", choice="delay"))
    # then the choice names the army, its hex and the choice; the offer is answered and the hex
    # waits for the turn's end (Delay Attack, p.33)
    assert events == [EngagementChosen(empire="red", army="red-x", at="4,0", choice="delay")]
    assert g.state.delayed == ("4,0",) and not g.state.frames
    assert events[0].explain() == (
        "red-x of red at 4,0 delays the attack to the end of its turn, when every delayed "
        "battle is fought (Delay Attack, p.33) (AE-25)"
    )


def test_laying_siege_explains_what_a_besieged_base_loses() -> None:
    # given red's trooper walked into blue's garrisoned HQ: attack, delay or siege (p.26, p.33)
    g = field(army_block("red-x", "red", "6,5", units=("trooper",)), bases=GARRISONED)
    g.when(MoveArmy(player="red", army="red-x", to="7,5"))
    # when red lays siege
    chosen = only(g.when(Engage(player="red", choice="siege")), EngagementChosen)
    # then no battle begins and nothing is delayed; the explanation cites the siege ruling
    assert (chosen.army, chosen.at, chosen.choice) == ("red-x", "7,5", "siege")
    assert not g.state.frames and g.state.delayed == ()
    assert "lays siege: the base gives no supply" in chosen.explain()
    assert chosen.explain().endswith("(p.26; AE-35) (AE-25)")


def delayed_with_the_enemy_gone() -> Given:
    """Red delayed its attack on blue's army at 4,0; that army's units have since been struck
    down, its hero left alone, who cannot fight (p.30)."""
    g = field(VERSUS_FOX)
    g.when(MoveArmy(player="red", army="red-x", to="4,0"))
    g.when(Engage(player="red", choice="delay"))
    return g.events(
        struck_down("blue.plated.1", "blue", 4), struck_down("blue.trooper.1", "blue", 2)
    )


def test_a_delayed_attack_whose_enemy_has_gone_gives_no_battle_and_the_turn_ends() -> None:
    # given red's attack delayed at 4,0, and no enemy army left there to fight
    g = delayed_with_the_enemy_gone()
    # when red ends its turn
    events = g.when(EndTurn(player="red"))
    # then the delayed battle is called, finds nobody, and is averted; the turn then ends (AE-36)
    averted = only(events, BattleAverted)
    assert averted == BattleAverted(
        empire="red",
        at="4,0",
        why="no enemy army there that is not stealthed can fight",
        called_by="delayed",
    )
    assert not of(events, BattleBegan)
    assert tags(events)[:3] == ["delayed_battles_called", "battle_averted", "turn_ended"]
    assert g.state.delayed == () and not g.state.frames
    assert averted.explain().startswith(
        "no battle at 4,0 for red: no enemy army there that is not stealthed can fight ("
    )


def test_a_delayed_battle_averted_cites_the_delayed_attacks_ruling_alone() -> None:
    # given red's attack delayed at 4,0, and no enemy army left there to fight
    g = delayed_with_the_enemy_gone()
    # when red ends its turn, then the averted battle records its caller (since version 21) and
    # cites AE-36 (Delayed attacks), not the assault's AE-35
    averted = only(g.when(EndTurn(player="red")), BattleAverted)
    assert averted.called_by == "delayed"
    assert averted.explain() == (
        "no battle at 4,0 for red: no enemy army there that is not stealthed can fight (a "
        "delayed attack, p.33, is fought only against an enemy that can fight; AE-36)"
    )


def test_a_battle_averted_in_a_game_of_version_20_records_no_caller_and_cites_both() -> None:
    # given the same delayed attack in a game begun under version 20
    g = delayed_with_the_enemy_gone()
    g.ruleset, g.state = RULESET.at_version("20"), replace(g.state, rules_version=20)
    # when red ends its turn, then the event is encoded as version 20 encoded it, no caller
    averted = only(g.when(EndTurn(player="red")), BattleAverted)
    assert averted.called_by is UNSET
    assert "called_by" not in msgspec.json.decode(msgspec.json.encode(averted))
    assert averted.explain().endswith(
        "(a delayed attack, p.33, or an assault, p.26, is fought only against an enemy that can "
        "fight; AE-35, AE-36)"
    )


def struck_down(card: str, owner: str, hit_points: int) -> CardDamaged:
    """Set-up: ``card`` destroyed outside any battle: the ``card_damaged`` an air strike's
    challenge (the game's first) emits when its hit reaches the card's points (p.31; AE-24);
    the strike itself is not played."""
    return CardDamaged(
        card=card,
        owner=owner,
        amount=hit_points,
        total=hit_points,
        limit=hit_points,
        destroyed=True,
        challenge=1,
        note="an air strike's hit",
    )


def test_an_assault_on_a_base_left_undefended_captures_it_and_gives_no_battle() -> None:
    # given red's army besieging blue's HQ, whose garrison's one trooper (2 hit points) an air
    # strike has since destroyed: the garrison stands with no card, the base still blue's
    g = besieging()
    g.events(struck_down("blue.trooper.1", "blue", 2))
    garrison = g.state.armies["blue-hq-garrison"]
    assert (garrison.garrison_of, garrison.cards()) == ("blue-hq", ())
    assert g.state.bases["blue-hq"].empire == "blue"
    ap = g.state.empires["red"].ap
    # when red's army assaults (p.26; AE-35)
    events = g.when(Assault(player="red", army="red-x"))
    # then it pays 3 AP, takes the base, and no battle is fought: the averted battle says why
    assert tags(events) == ["assault_ordered", "base_captured", "battle_averted"]
    averted = only(events, BattleAverted)
    assert (averted.empire, averted.at) == ("red", "7,5")
    assert averted.why.endswith("; blue-hq stands undefended and is captured")
    assert g.state.bases["blue-hq"].empire == "red"
    assert g.state.empires["red"].ap == ap - 3
    assert not g.state.frames
    # since version 21 it records the assault that called it, and cites AE-35 alone
    assert averted.called_by == "assault"
    assert averted.explain() == (
        f"no battle at 7,5 for red: {averted.why} (an assault, p.26, is fought only against an "
        "enemy that can fight; AE-35)"
    )


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**16), picks=st.randoms(use_true_random=False))
def test_every_battle_of_a_random_game_ends_and_the_game_ends_with_nothing_legal_after(
    seed: int, picks: random.Random
) -> None:
    """Random legal choices (half of them the autoplay policy's, so that games move on) from
    the bundled scenario: every battle that begins ends, no state leaves a card in two places or
    damage at a card's points (``check_invariants``), and once the game is over nobody may act."""

    def chooser(state: GameState, player: str, legal: list[Any]) -> Any:
        return picks.choice(legal) if picks.random() < 0.5 else choose(state, player, legal)

    began = ended = 0
    final = None
    for _, _, events, after in play(seed=seed, chooser=chooser, max_commands=3000):
        began += sum(isinstance(e, BattleBegan) for e in events)
        ended += sum(isinstance(e, BattleEnded) for e in events)
        check_invariants(after)
        final = after
    assert final is not None and RULESET.is_terminal(final)
    assert began == ended + sum(isinstance(f, Battle) for f in final.frames)
    assert not any(isinstance(f, Battle) for f in final.frames)
    assert all(RULESET.legal_commands(final, p) == [] for p in final.seats)
