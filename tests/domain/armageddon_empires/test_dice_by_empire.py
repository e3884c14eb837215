"""Since version 21 each hidden roll of a strike's fallout is made once per empire, in the
scenario's order, each holding that empire's armies or cards alone, a roll of none recorded
(AE-66, ``fallout.dice_owners``).

Non-interference with the same key: games of a custom scenario whose set-up is hidden, begun
with the same key and played with the same commands (auto dice), that differ only in red's
army ``ambush``, stealthed in blue-a's hex at 3,2 — one Shade or two — give blue the same
answers when red's Test Blast (Collateral 100%) or Test Nova (Hydrogen Bomb) strikes blue-a
(``test_hidden_setup.outputs_of``: its feed of ``game_created``, the exported row, its view,
and every read of ``test_non_interference.reads``: its feed, where its own ``fallout_suffered``
results are opened, its views, ``explain`` of every event…). ``ambush`` sorts before blue-a: in
one roll over both empires, as in version 20, its dice come first and blue's faces shift.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.domain.armageddon_empires.air_helpers import (
    AIR_CARDS,
    BASES,
    ROWS,
    empires,
    hold_fire,
    launch,
)
from tests.domain.armageddon_empires.helpers import army_block, begun, sight, start_turns, toml
from tests.domain.armageddon_empires.test_fallout import fallout_of
from tests.domain.armageddon_empires.test_hidden_setup import outputs_of
from tests.domain.armageddon_empires.test_non_interference import KEY
from tests.domain.armageddon_empires.test_stealthed_controllers import FAR_EYE
from tests.given_when_then import Given
from tests.test_verifier import run as verify_run
from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import audit_records
from warlog.arbiter.exchange import export_line
from warlog.domain import rulesets
from warlog.domain.armageddon_empires.commands import (
    AcceptChallenge,
    GroundToAirChallenge,
    PlayAttackCard,
    Roll,
)
from warlog.domain.armageddon_empires.fallout_events import RadiationDie
from warlog.domain.armageddon_empires.radiation import RADIATION_SIDES
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.core.events import DiceRolled, Event


def aircraft(card: str, ability: str) -> str:
    """An ``[[cards]]`` table: red's aircraft ``card`` (attack 1) carrying ``ability``."""
    return f"""
[[cards]]
kind = "attack"
id = "{card}"
name = "Test {card.title()}"
craft = "aircraft"
attack = 1
defense = 2
fate = 0
hit_points = 2
range = 6
ap = 2
abilities = ["{ability}"]
"""


#: red's strikes, and the cards of the struck hex: red's Shade (resistance 2) and blue's
#: Bastion (resistance 4) each hold a die of the d64 radiation roll
CARDS = (
    aircraft("blast", "Collateral 100% 3 Atk")
    + aircraft("nova", "Hydrogen Bomb 6, 10")
    + """
[[cards]]
kind = "unit"
id = "shade"
name = "Test Shade"
attack = 1
defense = 2
hit_points = 30
movement = 2
resistance = 2
abilities = ["Stealth 4"]

[[cards]]
kind = "unit"
id = "bastion"
name = "Test Bastion"
attack = 1
defense = 2
hit_points = 30
movement = 1
resistance = 4
"""
)
WEAPONS = {"collateral": "red.blast.", "wmd": "red.nova."}


def scenario(shades: int, at: str = "3,2", public: bool = False, army: str = "ambush") -> str:
    """Blue-a (a Bastion) at 3,2, sighted by red's far eye at 2,2; red's ``army`` of
    ``shades`` Shades stealthed at ``at`` (in blue-a's hex by default); the set-up hidden
    unless ``public``."""
    armies = army_block("blue-a", "blue", "3,2", units=("bastion",))
    armies += army_block("red-a", "red", "2,2", units=("far-eye",))
    armies += army_block(army, "red", at, units=("shade",) * shades) + "stealthed = true\n"
    return toml(
        ROWS,
        armies=AIR_CARDS + FAR_EYE + CARDS + armies,
        bases=BASES.replace("{garrison}", "[]"),
        empires=empires(["blast", "nova"], []),
        resources="",
        public_setup=public,
    )


def struck(
    tmp: Path, shades: int, weapon: str, version: str | None = None, at: str = "3,2"
) -> Arbiter:
    """The game ``ni`` of ``scenario(shades, at)`` begun under ``version`` (default: this one),
    key ``KEY``, auto dice: no initiative bought (blue ends its turn if it has the first), then
    red's ``weapon`` (``WEAPONS``) on the Bastion; blue fires nothing from the ground, each side
    accepts the Air-To-Ground challenge, and each awaited roll is rolled."""
    folder = tmp / f"{shades}-{at}-{weapon}-{version}"
    arb = begun(folder, scenario(shades, at), KEY, version, dice="auto")
    for player in ("red", "blue"):
        arb.play("ni", json.dumps({"type": "buy_initiative", "player": player, "count": 0}))
    if arb.view("ni")["state"]["current"] == "blue":
        arb.play("ni", json.dumps({"type": "end_turn", "player": "blue"}))
    return strike(arb, weapon)


def strike(arb: Arbiter, weapon: str) -> Arbiter:
    """Red's ``weapon`` on the Bastion at 3,2 in game ``ni``, played out (``struck``)."""
    hand = arb.view("ni", None, "red")["state"]["empires"]["red"]["hand"]
    card = next(c for c in hand if c.startswith(WEAPONS[weapon]))  # numbered at random
    play = {"type": "play_attack_card", "player": "red", "card": card, "at": "3,2"}
    arb.play("ni", json.dumps({**play, "aim": "unit"}))
    arb.play("ni", json.dumps({"type": "ground_to_air_challenge", "player": "blue"}))
    while (state := arb.view("ni")["state"])["awaited"] in ("challenge", "roll"):
        kind = "accept_challenge" if state["awaited"] == "challenge" else "roll"
        arb.play("ni", json.dumps({"type": kind, "player": state["active"][0]}))
    return arb


def hits_of(arb: Arbiter, empire: str) -> list[Any]:
    """``empire``'s ``fallout_suffered`` results, as its feed opens them."""
    rows = [
        json.loads(r.data) for r in arb.records_as("ni", empire) if r.type == "fallout_suffered"
    ]
    return [row["hits"]["value"] for row in rows if row["empire"] == empire]


def hidden_rolls(arb: Arbiter) -> list[tuple[str, int]]:
    """The purpose and number of dice of every hidden roll, as the referee reads them."""
    rows = [
        json.loads(r.data) for r in arb.export_records("ni", opened=True) if r.type == "dice_rolled"
    ]
    return [(d["purpose"], len(d["faces"]["value"])) for d in rows if d.get("hidden")]


#: twin games: red's ``ambush`` of one Shade in blue-a's hex, or (its secret) of two Shades
#: there, or of one Shade far from it
TWINS = {"one shade more": (2, "3,2"), "elsewhere": (1, "6,4")}


@pytest.mark.parametrize("twin", TWINS)
@pytest.mark.parametrize("weapon", ["collateral", "wmd"])
def test_blue_is_given_the_same_whatever_red_s_stealthed_army_in_the_struck_hex_holds(
    tmp_path: Path, weapon: str, twin: str
) -> None:
    shades, at = TWINS[twin]
    one, other = struck(tmp_path, 1, weapon), struck(tmp_path, shades, weapon, at=at)
    # the games differ for red: what its Shades suffer
    assert hits_of(one, "red") != hits_of(other, "red")
    # and blue's own cards were struck, their results told to blue
    assert hits_of(one, "blue") and hits_of(one, "blue")[0]
    # yet nothing blue is given differs, its own results among them
    assert hits_of(one, "blue") == hits_of(other, "blue")
    assert outputs_of(one, "blue") == outputs_of(other, "blue")


@pytest.mark.parametrize("twin", TWINS)
@pytest.mark.parametrize("weapon", ["collateral", "wmd"])
def test_in_a_game_of_version_20_blue_s_own_results_hang_on_red_s_stealthed_army(
    tmp_path: Path, weapon: str, twin: str
) -> None:
    """The defect AE-66 closes, kept in the games begun under version 20: one roll over both
    empires' cards, red's first."""
    shades, at = TWINS[twin]
    one, other = struck(tmp_path, 1, weapon, "20"), struck(tmp_path, shades, weapon, "20", at)
    assert hits_of(one, "blue") != hits_of(other, "blue")
    assert outputs_of(one, "blue")["every read"] != outputs_of(other, "blue")["every read"]


# ---------------------------------------------------------------------- version 21's dice


def armed(
    shades: int = 2, at: str = "3,2", version: str | None = None, army: str = "ambush"
) -> Given:
    """``scenario(shades, at, army=army)`` with its set-up public (cards numbered in order),
    begun under ``version`` (default: this one), in red's turn, red sighting blue-a."""
    ruleset = RULESET if version is None else RULESET.at_version(version)
    assert ruleset is not None
    text = scenario(shades, at, public=True, army=army)
    g = Given(ruleset, RULESET.parse_scenario(text.encode()))
    return sight(start_turns(g), "red", "blue-a")


def rolls(events: list[Event]) -> list[DiceRolled]:
    return [e for e in events if isinstance(e, DiceRolled) and e.hidden]


def shapes(events: list[Event]) -> list[tuple[int, int]]:
    """The sides and the number of dice of each hidden roll."""
    return [(d.sides, len(d.faces)) for d in rolls(events)]


#: ``Test Nova`` (Hydrogen Bomb 6, 10): 6 dice against each card's defence 2
NOVA = PlayAttackCard(player="red", card="red.nova.1", at="3,2", aim="unit")


def test_version_21_rolls_a_wmd_s_hidden_dice_once_per_empire_each_with_its_own_cards() -> None:
    # given red's two Shades stealthed in blue-a's hex, red first in the scenario
    g = armed()
    # when red's Nova strikes the hex
    events = launch(g, NOVA)
    # then its hidden challenges roll once for red (2 Shades × (6 + 2) dice), then once for
    # blue (the Bastion's 6 + 2); each of the 25 radiation rolls once for red, then for blue,
    # the d64 holding the Shades' dice (resistance 2) in red's, the Bastion's (4) in blue's
    assert shapes(events) == [
        (6, 16),
        (6, 8),
        *((sides, n) for sides in RADIATION_SIDES for n in ((2, 1) if sides == 64 else (0, 0))),
    ]
    purposes = [d.purpose for d in rolls(events)]
    assert purposes[:2] == [
        "air strike 1 hidden WMD challenges: red's",
        "air strike 1 hidden WMD challenges: blue's",
    ]
    assert purposes[2:4] == ["air strike 1 radiation: red's", "air strike 1 radiation: blue's"]
    # and each empire's results read its own roll's dice, which its explanation shows
    challenges, d64 = rolls(events)[1], rolls(events)[3]
    (bastion,) = fallout_of(events, "blue").hits
    assert (*bastion.attack_faces, *bastion.defense_faces) == tuple(challenges.faces)
    assert bastion.radiation is not None
    assert bastion.radiation.dice == (RadiationDie(64, d64.faces[0]),)
    assert f"{list(bastion.attack_faces)} against" in fallout_of(events, "blue").explain()
    shades = fallout_of(events, "red").hits
    red_faces = rolls(events)[0].faces
    assert [(*h.attack_faces, *h.defense_faces) for h in shades] == [
        tuple(red_faces[:8]),
        tuple(red_faces[8:]),
    ]


def test_version_21_rolls_collateral_damage_once_per_empire_each_with_its_own_armies() -> None:
    g = armed()
    events = launch(g, PlayAttackCard(player="red", card="red.blast.1", at="3,2", aim="unit"))
    while (waiting := RULESET.decision(g.state)) is not None and waiting.kind in (
        "challenge",
        "roll",
    ):
        player = waiting.players[0]
        cmd = Roll(player=player) if waiting.kind == "roll" else AcceptChallenge(player=player)
        events += g.when(cmd)
    # a d10 for red's army, one for blue's (Collateral 100%: both hit); then the challenges,
    # red's two Shades' 3 + 2 dice each, the Bastion's 3 + 2
    assert shapes(events) == [(10, 1), (10, 1), (6, 10), (6, 5)]
    (bastion,) = fallout_of(events, "blue").hits
    assert (*bastion.attack_faces, *bastion.defense_faces) == tuple(rolls(events)[3].faces)


def test_version_21_records_the_roll_of_an_empire_with_nothing_in_the_hex_empty() -> None:
    # given red's Shade far from the struck hex
    g = armed(1, "6,4")
    # when the Nova strikes, then red's rolls are recorded with no dice, so that the number of
    # rolls, and every later seq, tells nothing
    assert shapes(launch(g, NOVA)) == [
        (6, 0),
        (6, 8),
        *((sides, n) for sides in RADIATION_SIDES for n in ((0, 1) if sides == 64 else (0, 0))),
    ]


def test_version_20_rolls_once_over_both_empires_cards() -> None:
    g = armed(version="20")
    events = launch(g, NOVA)
    assert shapes(events) == [(6, 24), *((s, 3 if s == 64 else 0) for s in RADIATION_SIDES)]
    assert rolls(events)[0].purpose == "air strike 1 hidden WMD challenges"


def test_a_referee_typing_too_few_dice_is_told_how_many_of_which_kind_and_nothing_is_played() -> (
    None
):
    # given red's two Shades in blue-a's hex, in an army whose id sorts after blue-a's (so that
    # in one roll over both, as in version 20, blue's dice would come first)
    g = armed(army="red-shades")
    g.when(NOVA, dice=[])
    # every die of the strike is counted before any is rolled (AE-37), in version 21's order:
    # red's 16 d6 then blue's 8, then the d64's 2 of red and 1 of blue
    refused = g.when_rejected(GroundToAirChallenge(player="blue"), "input/dice_count", [1] * 23)
    assert str(refused).startswith(
        "this command needs 27 dice (24 d6 then 3 d64) in its 'dice' list; 23 given"
    )
    # typed in that order, the Bastion's dice are the 17th to the 24th, its d64 the 27th
    typed = [1] * 16 + [6, 6, 5, 4, 6, 1, 1, 1] + [1, 1, 9]
    (bastion,) = fallout_of(hold_fire(g, typed), "blue").hits
    assert (bastion.attack_faces, bastion.defense_faces) == ((6, 6, 5, 4, 6, 1), (1, 1))
    assert bastion.radiation is not None and bastion.radiation.dice == (RadiationDie(64, 9),)


# ---------------------------------------------------------------------- audits


def both_strikes(tmp: Path, version: str | None = None) -> Arbiter:
    """``struck``'s game of two Shades and its collateral damage, then red's Nova too."""
    return strike(struck(tmp, 2, "collateral", version), "wmd")


@pytest.mark.parametrize("version", ["20", None])
def test_a_revealed_game_with_both_strikes_audits_clean_under_its_version(
    tmp_path: Path, version: str | None
) -> None:
    arb = both_strikes(tmp_path, version)
    assert len({purpose for purpose, _ in hidden_rolls(arb) if "collateral" in purpose}) == (
        2 if version == "20" else 4
    )
    arb.reveal("ni")
    auditor = audit_records(arb.export_records("ni"), rulesets.get)
    assert auditor.findings == [] and auditor.revealed
    assert auditor.rules == f"armageddon-empires version {version or RULESET.version}"
    assert not auditor.proved.rules_stopped_at
    export = tmp_path / "both.jsonl"
    export.write_text("".join(export_line(r) + "\n" for r in arb.export_records("ni")))
    verified = verify_run(export)
    assert verified.returncode == 0, verified.stdout
    assert ", 0 seals still closed" in verified.stdout


def test_explain_shows_blue_s_results_with_the_dice_of_blue_s_own_roll(tmp_path: Path) -> None:
    arb = struck(tmp_path, 2, "wmd")
    seq = next(
        r.seq
        for r in arb.records_as("ni", "blue")
        if r.type == "fallout_suffered" and json.loads(r.data)["empire"] == "blue"
    )
    # the referee reads the batch's rolls, each empire's named, and blue's results drawn from
    # blue's: the Bastion's 6 attack dice then its 2 defence dice
    report = arb.explain("ni", seq)
    by_purpose = {d["purpose"]: d["faces"] for d in report["dice"]}
    faces = by_purpose["air strike 1 hidden WMD challenges: blue's"]
    assert len(by_purpose["air strike 1 hidden WMD challenges: red's"]) == 16
    assert f"6 dice {faces[:6]} against" in report["rule"]
    assert f"{faces[6:]}: " in report["rule"]
    # blue reads the same rule, every roll's faces sealed
    mine = arb.explain("ni", seq, "blue")
    assert mine["rule"] == report["rule"]
    assert {d["faces"] for d in mine["dice"]} == {"sealed"}
