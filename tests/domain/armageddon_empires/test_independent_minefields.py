"""Independent minefields (p.32; AE-67, since version 23), in given-when-then form.

The map and cards are ``test_minefields``': plains along row 0, no Recce in play, so a move's
dice are the minefield's alone (each challenge the minefield's dice, then the card's). The
independent minefield ``ridge`` lies at 3,0, on row 0 between red's column at 1,0 and the east.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from msgspec.structs import replace

from tests.domain.armageddon_empires.games import INDEPENDENT_AT, play, with_independent_minefields
from tests.domain.armageddon_empires.helpers import (
    begun,
    game,
    only,
    sight,
    start_turns,
    toml,
)
from tests.domain.armageddon_empires.invariants import check_invariants
from tests.domain.armageddon_empires.test_engineers import ARMIES as ENGINEERS
from tests.domain.armageddon_empires.test_engineers import EMPIRES, laid_by_blue
from tests.domain.armageddon_empires.test_hidden_setup import created_as
from tests.domain.armageddon_empires.test_minefields import (
    COLUMN,
    FAR,
    MINE_CARDS,
    army,
    faces,
    minefield,
    reported,
)
from tests.domain.armageddon_empires.test_non_interference import KEY
from tests.given_when_then import Given
from warlog.arbiter.audit import audit_records
from warlog.domain import rulesets
from warlog.domain.armageddon_empires.cards import INDEPENDENT
from warlog.domain.armageddon_empires.commands import EndTurn, LiftMinefield, MoveArmy
from warlog.domain.armageddon_empires.control import controllers
from warlog.domain.armageddon_empires.costs import LIFT_MINEFIELD_AP
from warlog.domain.armageddon_empires.engineers import legal_engineer_orders
from warlog.domain.armageddon_empires.events import ArmyMoved
from warlog.domain.armageddon_empires.invariants import violations
from warlog.domain.armageddon_empires.minefield_events import (
    MinefieldLifted,
    MinefieldsChecked,
)
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.scenario_checks import parse_scenario
from warlog.domain.armageddon_empires.sighting_events import ArmiesSighted
from warlog.domain.armageddon_empires.state import Minefield
from warlog.domain.armageddon_empires.supply import supply_costs
from warlog.domain.armageddon_empires.views import view
from warlog.domain.core.errors import InputError


def independent(mine_id: str, at: str, damage: int = 0, card: str = "mines") -> str:
    """A ``[[minefields]]`` entry without ``empire``: an independent minefield (AE-67)."""
    return f'\n[[minefields]]\nid = "{mine_id}"\nat = "{at}"\ncard = "{card}"\ndamage = {damage}\n'


RIDGE = independent("ridge", "3,0")

#: blue's column at 6,4, in supply of its stronghold at 7,5, for blue to walk into a ridge at
#: 5,4 on its road west (red's army stays far off)
BLUE_COLUMN = army("blue-col", "blue", "6,4", "runner", "sprinter", "sprinter") + army(
    "red-far", "red", "1,4", None, "sprinter"
)

#: the ridge's challenges against a runner and two sprinters that hit nothing: the runner's
#: 5 dice against its 1 (fate 1), each sprinter's 5 against its 2 (defence 2)
MISSES = faces([1] * 5, [6], [1] * 5, [6, 6], [1] * 5, [6, 6])


def mined(armies: str = COLUMN + FAR, mines: str = RIDGE, first: str = "red") -> Given:
    """The ridge at 3,0 unless told otherwise; ``first`` to move."""
    return start_turns(game(armies=MINE_CARDS + armies + mines), first)


def moved(g: Given, player: str, army_id: str, to: str, dice: list[int] | None) -> list[Any]:
    return g.when(MoveArmy(player=player, army=army_id, to=to), dice=dice)


def attack_of(events: list[Any]) -> Any:
    attack = only(events, MinefieldsChecked).attack
    assert attack is not None
    return attack


def rejected(text: str, version: str | None = None) -> str:
    """The one line a scenario ``text`` is refused with, under ``version`` (default: this)."""
    rules = RULESET if version is None else RULESET.at_version(version)
    assert rules is not None
    with pytest.raises(InputError) as info:
        rules.parse_scenario(text.encode())
    assert info.value.code == "input/bad_scenario"
    return str(info.value)


def test_a_minefield_without_an_empire_is_independent_and_no_empire_sees_it() -> None:
    # given a scenario whose minefield entry names no empire
    g = mined()
    # then it is controlled by no empire and its card is no empire's, named after it (AE-67)
    assert g.state.minefields["ridge"] == Minefield("ridge", INDEPENDENT, "3,0", "ridge.mines")
    assert g.state.instances["ridge.mines"].owner == INDEPENDENT
    # and neither empire sees it, its card, nor its type; the referee does
    for empire in ("red", "blue"):
        seen = view(g.state, empire)
        assert seen["minefields"] == {} and "ridge.mines" not in seen["instances"]
        assert "mines" not in seen["catalogue"]
    assert view(g.state, None)["minefields"]["ridge"]["empire"] == ""
    check_invariants(g.state)


@pytest.mark.parametrize(
    ("mines", "message"),
    [
        (independent("m", "0,0"), "$.minefields[0].at: hex 0,0 holds base 'red-hq'"),
        (independent("m", "3,0") + independent("n", "3,0"), "$.minefields[1].at: hex 3,0 already"),
        (minefield("m", "blue", "3,0") + independent("n", "3,0"), "$.minefields[1].at: hex 3,0"),
        (independent("m", "3,0", card="nothing"), "$.minefields[0].card: unknown card 'nothing'"),
        (independent("m", "3,0", card="sprinter"), "$.minefields[0].card: 'sprinter' is not a"),
        (independent("m", "3,0", damage=4), "$.minefields[0].damage: damage 4: 0 to 3"),
        (independent("m", "9,0"), "$.minefields[0].at: hex 9,0 is not on the map"),
        (independent("red-col", "3,0"), "$.minefields[0].id: id 'red-col' is used twice"),
        (independent("m", "1,0"), "$.minefields[0].at: hex 1,0 holds an army; a game starts"),
        (independent("m", "6,5"), "$.minefields[0].at: hex 6,5 holds an army; a game starts"),
        (minefield("m", "", "3,0"), "$.minefields[0].empire: unknown empire ''"),
    ],
    ids=[
        "base",
        "two",
        "beside-an-empire-s",
        "unknown-card",
        "not-a-minefield",
        "spent",
        "off-the-map",
        "id-taken",
        "red-s-army",
        "blue-s-army",
        "empire-named-empty",
    ],
)
def test_a_bad_independent_minefield_is_refused_with_one_line_naming_its_field(
    mines: str, message: str
) -> None:
    # given an independent minefield that breaks a rule of AE-50 or AE-51
    # when the scenario is read, then it is refused with one line naming the field
    line = rejected(toml(armies=MINE_CARDS + COLUMN + FAR + mines))
    assert line.startswith(f"bad scenario: {message}") and "\n" not in line


@pytest.mark.parametrize("version", ["22", "15", "6"])
def test_version_22_and_before_refuse_an_independent_minefield_naming_its_empire(
    version: str,
) -> None:
    # given a scenario with an independent minefield
    text = toml(armies=MINE_CARDS + COLUMN + FAR + RIDGE)
    # when a version before 23 reads it, as a file or as a recorded game_created, then it is
    # refused in one line naming the missing empire and the version (AE-67)
    older = RULESET.at_version(version)
    assert older is not None
    line = (
        "bad scenario: $.minefields[0].empire: none given: an independent minefield (of no "
        f"empire) is played since version 23 of these rules; this game's is {version} (AE-67)"
    )
    assert rejected(text, version) == line
    recorded = RULESET.recorded_scenario(parse_scenario(text))
    with pytest.raises(InputError) as info:
        older.scenario_from_builtins(recorded)
    assert str(info.value) == line
    # while an empire's minefield is read as before
    assert older.parse_scenario(
        toml(armies=MINE_CARDS + COLUMN + FAR + minefield("m", "blue", "3,0")).encode()
    )


def test_game_created_records_the_independent_minefields_apart_each_list_sealed_for_all() -> None:
    # given a hidden set-up with the ridge and blue's minefield
    text = toml(
        armies=MINE_CARDS + COLUMN + FAR + RIDGE + minefield("m", "blue", "4,0"),
        public_setup=False,
    )
    scenario = parse_scenario(text)
    # when it is recorded, then the ridge and its card type, which no empire uses, are listed
    # under ``independent``, and neither under an empire (AE-67)
    recorded = RULESET.recorded_scenario(scenario)
    apart = recorded["independent"]
    assert apart["minefields"] == [{"id": "ridge", "at": "3,0", "card": "mines", "damage": 0}]
    assert [c["id"] for c in apart["cards"]] == []  # blue's minefield uses the type: blue's
    assert [m["id"] for m in recorded["empires"][1]["minefields"]] == ["m"]
    assert recorded["empires"][0]["minefields"] == []
    # each list sealed whole for every player (the referee's until the reveal)
    assert RULESET.hidden_setup(scenario)[-2:] == [
        ("independent.minefields", None),
        ("independent.cards", None),
    ]
    # and read back, it is the same scenario, recorded again the same
    back = RULESET.scenario_from_builtins(recorded)
    assert RULESET.recorded_scenario(back) == recorded
    assert RULESET.initial_state(back).minefields["ridge"].empire == INDEPENDENT
    # a type the ridge alone uses is listed under it; a scenario without one lists none
    alone = RULESET.recorded_scenario(
        parse_scenario(toml(armies=MINE_CARDS + COLUMN + FAR + RIDGE, public_setup=False))
    )
    assert [c["id"] for c in alone["independent"]["cards"]] == ["mines"]
    assert all("mines" not in [c["id"] for c in e["cards"]] for e in alone["empires"])
    none = RULESET.recorded_scenario(
        parse_scenario(toml(armies=MINE_CARDS + COLUMN + FAR, public_setup=False))
    )
    assert none["independent"] == {"minefields": [], "cards": []}
    public = RULESET.recorded_scenario(
        parse_scenario(toml(armies=MINE_CARDS + COLUMN + FAR + RIDGE))
    )
    assert public["independent"].keys() == {"minefields"}  # the catalogue is in the clear


def test_no_player_opens_the_independent_minefields_of_game_created_until_the_reveal(
    tmp_path: Path,
) -> None:
    # given a game of a hidden set-up with the ridge, begun through the application
    text = toml(armies=MINE_CARDS + COLUMN + FAR + RIDGE, public_setup=False)
    arb = begun(tmp_path / "g", text, KEY, dice="auto")
    # then each empire's feed holds the two lists closed, the referee's export opened
    for player in ("red", "blue"):
        apart = created_as(arb, player)["scenario"]["independent"]
        assert apart["minefields"].keys() == apart["cards"].keys() == {"sealed"}
    opened = created_as(arb, None)["scenario"]["independent"]
    assert opened["minefields"].keys() == {"sealed"}
    # and once revealed, every player opens them, and the log audits clean
    arb.reveal("ni")
    revealed = created_as(arb, "blue")["scenario"]["independent"]["minefields"]
    assert [m["id"] for m in revealed["value"]] == ["ridge"]
    assert audit_records(arb.export_records("ni"), rulesets.get).findings == []


@pytest.mark.parametrize(
    ("mover", "other", "armies", "at", "army_id", "to"),
    [
        ("red", "blue", COLUMN + FAR, "3,0", "red-col", "5,0"),
        ("blue", "red", BLUE_COLUMN, "5,4", "blue-col", "3,4"),
    ],
)
def test_an_army_of_either_empire_walking_in_stops_and_undergoes_its_challenges(
    mover: str, other: str, armies: str, at: str, army_id: str, to: str
) -> None:
    # given the ridge on the mover's road
    g = mined(armies, independent("ridge", at), first=mover)
    # when its column walks through the ridge's hex (the ridge hits nothing)
    events = moved(g, mover, army_id, to, MISSES)
    # then it stops there at once and undergoes a challenge per card (p.32; AE-51, AE-52)
    assert only(events, ArmyMoved).to == at
    attack = attack_of(events)
    assert (attack.minefield, attack.card, attack.independent) == ("ridge", "ridge.mines", True)
    assert [c.attack.size for c in attack.challenges] == [5, 5, 5]
    # the other empire is told nothing: its report is the one of a move into no minefield of its
    assert reported(events, other).loss is None
    # and nobody is told the ridge's loss: the referee's record, sealed for every player
    loss = reported(events, INDEPENDENT).loss
    assert loss is not None and (loss.minefield, loss.lost, loss.removed) == ("ridge", 0, False)
    # the mover now knows it, without its damage; the other does not
    assert g.state.minefields["ridge"].known_to == (mover,)
    assert view(g.state, mover)["minefields"]["ridge"]["at"] == at
    assert view(g.state, other)["minefields"] == {}
    explained = only(events, MinefieldsChecked).explain()
    assert explained.startswith(f"{army_id} walks into independent minefield ridge (ridge.mines")
    assert "no empire controls it (AE-67)" in explained
    check_invariants(g.state)


def test_the_ridge_loses_the_base_damage_and_is_removed_from_play_when_spent() -> None:
    # given the ridge with 2 of its 4 structure points left
    g = mined(mines=independent("ridge", "3,0", damage=2))
    # when red's runner's challenge scores 3 − 1 (it is killed) and spends the ridge
    events = moved(g, "red", "red-col", "5,0", faces([6, 6, 6, 1, 1], [6], [1] * 7, [1] * 7))
    attack = attack_of(events)
    # then the rest of the column is spared (p.32; AE-52)
    assert [c.card for c in attack.challenges] == ["red.runner.1"]
    assert attack.removed and attack.spared == ("red.sprinter.1", "red.sprinter.2")
    assert "- the minefield is spent and removed from play (AE-67); spared: " in (
        only(events, MinefieldsChecked).explain()
    )
    loss = reported(events, INDEPENDENT).loss
    assert loss is not None and (loss.lost, loss.total, loss.removed) == (2, 4, True)
    # and its card leaves play, no empire's discard pile holding it, nor anyone's view the ridge
    mine = g.state.minefields["ridge"]
    assert (mine.removed, mine.known_to) == (True, ())
    assert all("ridge.mines" not in e.discard for e in g.state.empires.values())
    assert "ridge.mines" not in g.state.damage
    assert view(g.state, "red")["minefields"] == {}
    assert "red.runner.1" in g.state.empires["red"].discard
    assert not violations(g.state)
    check_invariants(g.state)
    # when the column leaves and walks back through 3,0, then nothing stops it there
    for player in ("red", "blue"):
        g.when(EndTurn(player=player))
    start_turns(g, "red")
    moved(g, "red", "red-col", "4,0", [])
    for player in ("red", "blue"):
        g.when(EndTurn(player=player))
    start_turns(g, "red")
    events = moved(g, "red", "red-col", "2,0", [])
    assert only(events, ArmyMoved).to == "2,0"
    assert only(events, MinefieldsChecked).attack is None


def test_engineers_are_immune_to_the_ridge_and_take_their_x_off_its_dice() -> None:
    # given red's sapper (Engineer 2) and sprinter walking into the ridge
    g = mined(army("red-col", "red", "1,0", None, "sapper", "sprinter") + FAR)
    events = moved(g, "red", "red-col", "5,0", faces([1, 1, 1], [6, 6]))
    # then the sapper is immune and the sprinter faces 5 − 2 = 3 dice (p.46; AE-52)
    attack = attack_of(events)
    assert attack.immune == ("red.sapper.1",) and attack.engineer == 2
    (challenge,) = attack.challenges
    assert (challenge.card, challenge.attack.size) == ("red.sprinter.1", 3)


def test_an_army_walking_into_a_hex_holding_both_meets_the_empire_s_minefield() -> None:
    # given blue's minefield laid at 3,0 over the ridge, which blue's Engineer did not know of
    g = start_turns(game(armies=MINE_CARDS + COLUMN + FAR + RIDGE, empires=EMPIRES), "red")
    card = laid_by_blue(g, "blue-a", "3,0")
    # when red's column walks in, then it meets blue's, whose report tells blue (AE-67)
    events = moved(g, "red", "red-col", "5,0", MISSES)
    assert attack_of(events).minefield == card
    assert reported(events, "blue").loss is not None
    assert reported(events, INDEPENDENT).loss is None
    assert g.state.minefields["ridge"].known_to == ()
    check_invariants(g.state)


def sighted_by(events: list[Any], observer: str) -> ArmiesSighted:
    """The one ``armies_sighted`` of ``observer`` among ``events``."""
    return only([e for e in events if getattr(e, "observer", None) == observer], ArmiesSighted)


#: red's lone runner at 1,0, which a minefield's 5 dice at 3,0 kill (its 1 die a 1)
RUNNER = army("red-col", "red", "1,0", "runner") + FAR
KILLED = faces([6] * 5, [1])


@pytest.mark.parametrize(
    "mines", [RIDGE, minefield("blue-mines", "blue", "3,0")], ids=["independent", "blue's"]
)
def test_an_army_a_minefield_destroys_on_its_move_is_lost_from_sight_as_if_it_walked_out(
    mines: str,
) -> None:
    # given blue has red's lone runner in sight this round, and a minefield at 3,0 on its road
    g = sight(mined(RUNNER, mines), "blue", "red-col")
    # when the runner walks into it and is destroyed there
    events = moved(g, "red", "red-col", "5,0", KILLED)
    assert "red-col" not in g.state.armies
    # then blue's record of the move's window lists it lost from its sight, as one that walked
    # out of blue's checks (AE-17): what the minefield did is the mover's (AE-53, AE-67), and
    # blue's own minefield reports its loss, never the army (AE-53)
    assert sighted_by(events, "blue").lost == ("red-col",)
    assert sighted_by(events, "red").lost == ()
    assert "red-col" not in g.state.sightings["blue"]
    check_invariants(g.state)


def test_a_game_of_version_24_lists_an_army_a_minefield_destroyed_as_lost_to_nobody() -> None:
    # given the same, in a game begun under version 24
    g = sight(mined(RUNNER), "blue", "red-col")
    g.state = replace(g.state, rules_version=24)
    # when the runner walks into the ridge and is destroyed there
    events = moved(g, "red", "red-col", "5,0", KILLED)
    # then blue's record lists nothing lost, as version 24 did (README, Known leaks)
    assert sighted_by(events, "blue").lost == ()
    assert "red-col" not in g.state.sightings["blue"]


def engineered(mines: str = RIDGE, more: str = "") -> Given:
    """``test_engineers``' armies (red's sapper at 2,0) and ``mines``; red to move."""
    armies = MINE_CARDS + ENGINEERS + more + mines
    return start_turns(game(armies=armies, empires=EMPIRES), "red")


def test_an_engineer_lifts_a_known_independent_minefield_and_its_card_leaves_play() -> None:
    # given red's sapper walked into the ridge (immune: no dice), which it now knows
    g = engineered()
    moved(g, "red", "red-eng", "4,0", [])
    assert g.state.minefields["ridge"].known_to == ("red",)
    assert LiftMinefield(player="red", army="red-eng") in legal_engineer_orders(g.state, "red")
    ap = g.state.empires["red"].ap
    # when it lifts it (AE-55)
    lifted = only(g.when(LiftMinefield(player="red", army="red-eng")), MinefieldLifted)
    # then the ridge is out of play, its card in no discard pile, and no empire is told
    assert (lifted.empire, lifted.controller, lifted.lifted_by.minefield) == ("red", "", "ridge")
    assert lifted.explain().endswith(
        f"{LIFT_MINEFIELD_AP} AP; the card is removed from play, no empire to own it (AE-55, AE-67)"
    )
    assert RULESET.notices(g.state, g.state, lifted) == []
    assert g.state.empires["red"].ap == ap - LIFT_MINEFIELD_AP
    mine = g.state.minefields["ridge"]
    assert (mine.removed, mine.known_to) == (True, ())
    assert all("ridge.mines" not in e.discard for e in g.state.empires.values())
    assert view(g.state, "red")["minefields"] == {}
    check_invariants(g.state)


def test_lifting_is_refused_for_an_independent_minefield_the_empire_does_not_know() -> None:
    # given red's sapper standing in the ridge's hex unaware of it (as a retreat leaves one)
    g = engineered()
    sapper = replace(g.state.armies["red-eng"], at="3,0")
    g.state = replace(g.state, armies={**g.state.armies, "red-eng": sapper})
    # then the refusal is the one for a hex holding none (AE-55), which tells red nothing
    g.when_rejected(LiftMinefield(player="red", army="red-eng"), "rules/no_known_minefield")
    check_invariants(g.state)


def next_round(g: Given) -> Given:
    """Both empires end their turns; the next round, red first."""
    for player in ("red", "blue"):
        g.when(EndTurn(player=player))
    return start_turns(g, "red")


def test_a_known_independent_minefield_the_other_empire_spent_stays_in_view_and_lifts_alike() -> (
    None
):
    # given red's sapper walked into the ridge (1 structure point left), and left it next round
    blue_runner = army("blue-col", "blue", "6,0", "runner")
    g = engineered(independent("ridge", "3,0", damage=3), more=blue_runner)
    moved(g, "red", "red-eng", "3,0", [])
    next_round(g)
    moved(g, "red", "red-eng", "2,0", [])
    g.when(EndTurn(player="red"))
    # when blue's runner then walks in and spends it (5 − 0 = 5 base damage), killed there
    events = moved(g, "blue", "blue-col", "3,0", faces([6] * 5, [1]))
    assert attack_of(events).removed and "blue-col" not in g.state.armies
    # then red still sees the ridge as it knew it, and may still lift it (AE-67)
    assert g.state.minefields["ridge"].known_to == ("red",)
    assert view(g.state, "red")["minefields"]["ridge"] == {
        "id": "ridge",
        "empire": "",
        "at": "3,0",
        "card": "ridge.mines",
        "known_to": ["red"],
    }
    assert view(g.state, None)["minefields"]["ridge"]["removed"] is True
    # when red's sapper walks back in next round, it meets nothing there
    g.when(EndTurn(player="blue"))
    start_turns(g, "red")
    assert only(moved(g, "red", "red-eng", "3,0", []), MinefieldsChecked).attack is None
    # and its lift is the lift of a standing one: 2 AP, and the ridge leaves red's view
    assert LiftMinefield(player="red", army="red-eng") in legal_engineer_orders(g.state, "red")
    lifted = only(g.when(LiftMinefield(player="red", army="red-eng")), MinefieldLifted)
    assert lifted.lifted_by.minefield == "ridge"
    assert g.state.minefields["ridge"].known_to == ()
    assert view(g.state, "red")["minefields"] == {}
    check_invariants(g.state)


def test_an_independent_minefield_controls_no_hex_and_blocks_no_supply_path() -> None:
    # given the ridge at 3,0, and the same game without it
    mined_state = mined().state
    bare = mined(mines="").state
    # then it holds no hex and every supply path runs as without it (p.26; AE-5)
    assert controllers(mined_state) == controllers(bare)
    assert "3,0" not in controllers(mined_state)
    for empire in ("red", "blue"):
        assert supply_costs(mined_state, empire, 9) == supply_costs(bare, empire, 9)


def test_the_summary_names_a_known_independent_minefield_and_the_referee_sees_it_spent() -> None:
    g = mined(mines=independent("ridge", "3,0", damage=1))
    moved(g, "red", "red-col", "5,0", MISSES)
    (table,) = [
        t for t in RULESET.summary(view(g.state, "red"), "red").tables if t.title == "minefields"
    ]
    assert table.rows == [["ridge", "independent", "3,0", "ridge.mines", "unknown"]]
    spent = replace(g.state.minefields["ridge"], removed=True, known_to=())
    g.state = replace(g.state, minefields={"ridge": spent}, damage={})
    (table,) = [
        t for t in RULESET.summary(view(g.state, None), None).tables if t.title == "minefields"
    ]
    assert table.rows == [["ridge", "independent", "3,0", "ridge.mines", "removed"]]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_autoplay_plays_on_through_independent_minefields_to_the_end(seed: int) -> None:
    # given the bundled scenario with independent minefields on its armies' roads
    scenario = with_independent_minefields()
    walked: list[tuple[str, bool]] = []
    after = None
    # when the policy plays it, then every state holds the invariants
    for _, _, events, after in play(seed=seed, scenario=scenario):
        check_invariants(after)
        attacks = [e.attack for e in events if isinstance(e, MinefieldsChecked) and e.attack]
        walked += [(a.minefield, a.removed) for a in attacks if a.independent is True]
    # and armies walked into them, one was spent, and the game went on to its end
    assert after is not None and RULESET.is_terminal(after)
    assert {mine for mine, _ in walked} == set(INDEPENDENT_AT) and any(r for _, r in walked)
