"""A card's creation tells the other empire that a card was tried and the resources paid, nothing
of the researcher's secrets (AE-73; version 28): which hero tried, which card, its AP and
threshold, the dice, the new card's number (and no fate is spent, so none shows later); whether it was created it learns
from the hand's size alone, which AE-7 shows.

Twin games on one key and clock, their set-up hidden: in red's turn a hero of red's keep, its
Academy beside him, tries a card; then blue plays its turn, and is refused a command of red's.
The twins differ in red's secrets alone: the Sage or the Mentor, the feint or the nerve (which
cost alike, as every entry of a research list, at other thresholds), the dice and the number's
faces.
Blue's outputs are compared as the other non-interference tests compare them (``outputs_of``:
every seal and digest blinded), each of its commands' results and refusals too."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.domain.armageddon_empires.helpers import (
    ARMIES,
    EMPIRES,
    PICK,
    army_block,
    begun,
    only,
    sight,
    standing_in,
    start_turns,
    toml,
)
from tests.domain.armageddon_empires.test_hidden_setup import outputs_of
from tests.domain.armageddon_empires.test_non_interference import KEY
from tests.domain.armageddon_empires.test_research import CREATORS, KEEP, RESEARCH, SAGE
from tests.given_when_then import Given
from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import audit_records
from warlog.domain import rulesets
from warlog.domain.armageddon_empires.challenge_events import TacticPlayed
from warlog.domain.armageddon_empires.commands import (
    AcceptChallenge,
    Assassinate,
    CreateCard,
    EndTurn,
    PlayTactic,
    Roll,
)
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.scenario_checks import parse_scenario
from warlog.fuzz.noninterference import blinded, refusals

#: a second Tactician of red's, in a field army at the keep: another level, so that his attempt
#: rolls another number of dice than the Sage's (Tactician 3)
MENTOR = """
[[cards]]
kind = "hero"
id = "mentor"
name = "Test Mentor"
fate = 0
wounds = 2
movement = 3
abilities = ["Tactician 2"]
"""

SCENARIO = toml(
    extra=RESEARCH,
    empires=MENTOR + CREATORS + EMPIRES,
    bases=KEEP,
    armies=ARMIES + army_block("red-mentor", "red", "0,0", hero="mentor"),
    public_setup=False,
)

#: what blue does after red's attempt: ends its turn, then tries red's own command as its own
BLUE = [{"type": "end_turn", "player": "blue"}]


def researched(tmp: Path, name: str, hero: str, card: str, dice: list[int]) -> Arbiter:
    """The game after red's hero tries ``card`` with the referee's ``dice`` (his pool, the
    number's 2 d256), then red's turn ended."""
    arb = begun(tmp / name, SCENARIO, KEY)
    commands: list[dict[str, Any]] = [
        {"type": "buy_initiative", "player": "red", "count": 0},
        {"type": "buy_initiative", "player": "blue", "count": 0, "dice": [6, 1]},
        {"type": "create_card", "player": "red", "hero": hero, "card": card, "dice": dice},
        {"type": "end_turn", "player": "red"},
    ]
    for command in commands:
        arb.play("ni", json.dumps(command))
    return arb


def blue_plays(arb: Arbiter) -> list[str]:
    """Blue's turn: the results of its commands, and its refusal of red's command, blinded."""
    hero = next(c for c in arb.view("ni")["state"]["instances"] if ".sage." in c)
    tried = {"type": "create_card", "player": "blue", "hero": hero, "card": "feint"}
    out = refusals(arb, "ni", "blue", [tried])
    for command in BLUE:
        shown = arb.play_as("ni", json.dumps(command))
        out.append(blinded([json.loads(r.data) for r in shown]))
    return out


def hero_of(arb: Arbiter, name: str) -> str:
    return next(c for c in arb.view("ni")["state"]["instances"] if f".{name}." in c)


def test_blue_is_told_the_same_whichever_hero_tried_which_card_with_which_dice(
    tmp_path: Path,
) -> None:
    """Given red's Sage (Tactician 3) creating the feint (3 successes against 2), the nerve (3
    against 3) or red's Mentor (Tactician 2) creating the feint (2 against 2, other number
    dice), then every output blue is given is the same, and so are its results and its
    refusal: the hero's dice do not show in how many dice are rolled."""
    probe = begun(tmp_path / "probe", SCENARIO, KEY)
    sage, mentor = hero_of(probe, "sage"), hero_of(probe, "mentor")
    games = [
        researched(tmp_path, "feint", sage, "feint", [6, 6, 6, 1, 1]),
        researched(tmp_path, "nerve", sage, "nerve", [6, 6, 6, 9, 200]),
        researched(tmp_path, "mentor", mentor, "feint", [6, 6, 40, 2]),
    ]
    for arb in games:  # each created its card, numbered at random (AE-73)
        red = arb.view("ni", player="red")["state"]["empires"]["red"]
        assert any(".feint." in c or ".nerve." in c for c in red["hand"])
    # the twins differ for red, which reads its own hero, card and dice
    assert outputs_of(games[0], "red") != outputs_of(games[1], "red")
    assert outputs_of(games[0], "red") != outputs_of(games[2], "red")
    blue = [(outputs_of(arb, "blue"), blue_plays(arb)) for arb in games]
    assert blue[0] == blue[1] == blue[2]
    feed = [(r.type, json.loads(r.data)) for r in games[0].records_as("ni", "blue")]
    issued = next(d for k, d in feed if k == "command_issued" and "hero" in d["command"])
    command = issued["command"]
    assert command["hero"].keys() == command["card"].keys() == {"sealed"}
    attempt = next(d for k, d in feed if k == "research_attempted")
    assert {k for k, v in attempt.items() if isinstance(v, dict) and "sealed" in v} == {
        "hero",
        "at",
        "ability",
        "card",
        "ap_cost",
        "challenge",
        "outcome",
        "created",
    }
    assert attempt["empire"] == "red" and attempt["paid"] == {"materials": 1}
    assert "red.sage" not in json.dumps(feed) and "red.feint" not in json.dumps(feed)


def hand_size_left_out(value: Any) -> Any:
    """``value`` (JSON builtins) without the hand sizes its views hold, nor the replay's changes
    that name one."""
    if isinstance(value, dict):
        return {k: hand_size_left_out(v) for k, v in value.items() if k != "hand_size"}
    if isinstance(value, list):
        return [
            hand_size_left_out(v) for v in value if not (isinstance(v, str) and "hand_size" in v)
        ]
    return value


def blue_reads_but_hand_sizes(arb: Arbiter) -> dict[str, Any]:
    """``outputs_of`` blue, each without the hand sizes."""
    return {k: hand_size_left_out(json.loads(v)) for k, v in outputs_of(arb, "blue").items()}


def test_blue_learns_whether_the_card_was_created_from_red_s_hand_size_alone(
    tmp_path: Path,
) -> None:
    """Given the Sage's feint created (3 successes) or not (1), then blue
    is told the same but for red's hand size, one card more when it was created (AE-7)."""
    probe = begun(tmp_path / "probe", SCENARIO, KEY)
    sage = hero_of(probe, "sage")
    made = researched(tmp_path, "made", sage, "feint", [6, 6, 6, 1, 1])
    failed = researched(tmp_path, "failed", sage, "feint", [6, 1, 1, 1, 1])
    assert outputs_of(made, "blue") != outputs_of(failed, "blue")
    assert blue_reads_but_hand_sizes(made) == blue_reads_but_hand_sizes(failed)
    assert blue_plays(made) == blue_plays(failed)


def test_a_creation_audits_clean_every_seal_opened(tmp_path: Path) -> None:
    probe = begun(tmp_path / "probe", SCENARIO, KEY)
    arb = researched(tmp_path, "audit", hero_of(probe, "sage"), "nerve", [6, 6, 6, 9, 200])
    report = audit_records(arb.export_records("ni", opened=True), rulesets.get)
    assert report.findings == []
    assert report.proved.batches_rederived > 0 and not report.proved.rules_stopped_at


#: blue's assassin (stealthed, so that red's keep is not besieged as red sees it) and a tactic
#: card burning 1 fate of the side it is played against (p.51)
DRAIN = """
[[cards]]
kind = "hero"
id = "knife"
name = "Test Knife"
fate = 0
wounds = 2
movement = 3
abilities = ["Assassin 2", "Stealth 4"]

[[cards]]
kind = "tactic"
id = "drain"
name = "Test Drain"
effect = "enemy_fate_minus"
amount = 1
"""


def drained(hero: str, dice: list[int]) -> tuple[list[str], dict[str, Any]]:
    """Red's ``hero`` tries the feint with ``dice`` (his pool, the number's 2 d256) and ends
    its turn; blue's Knife, stealthed in red's keep's hex, the Sage's garrison sighted, makes an
    attempt on the Sage, red accepts, and blue plays its drain against him. Returns the lines
    of blue's tactic and of the challenge as the events tell every player, and blue's view of
    the state but for red's hand (its size tells whether the card was created, AE-7)."""
    empires = EMPIRES.replace('hand = ["trooper"]\n', 'hand = ["trooper", "drain"]\n', 1)
    armies = ARMIES + army_block("red-mentor", "red", "0,0", hero="mentor")
    armies += army_block("blue-knife", "blue", "6,5", hero="knife")
    text = toml(
        extra=RESEARCH, empires=DRAIN + MENTOR + CREATORS + empires, bases=KEEP, armies=armies
    )
    g = start_turns(Given(RULESET, parse_scenario(text)))
    g.when(CreateCard(player="red", hero=hero, card="feint"), dice=dice)
    g.when(EndTurn(player="red"), dice=[])
    standing_in(g, "blue-knife", "0,0", stealthed=True)
    sight(g, "blue", "red-hq-garrison")
    g.when(Assassinate(player="blue", card="blue.knife.1"), dice=PICK)
    g.when(Roll(player="blue"), dice=[6, 6, 6, 1])  # the Knife's 2 dice, the Sage's 2 (fate 2)
    g.when(AcceptChallenge(player="red"))
    played = only(g.when(PlayTactic(player="blue", card="blue.drain.1")), TacticPlayed)
    view = RULESET.view(g.state, "blue")
    del view["empires"]["red"]["hand_size"]
    return [played.line, *g.state.frames[-1].story], view


def test_a_fate_burning_tactic_against_the_researcher_tells_blue_the_same_in_every_twin() -> None:
    """Given red's Sage (fate 2) failing the feint, the Sage creating it, or red's Mentor creating
    it instead, then blue's drain played against the Sage in an assassination burns 1 of his fate
    in every twin, and blue is told the same: a hero spends no fate creating a card (AE-73), so
    no tactic's line, no challenge and no view shows that he tried or fell short."""
    failed = drained(SAGE, [6, 1, 1, 1, 1])
    made = drained(SAGE, [6, 6, 6, 1, 1])
    other = drained("red.mentor.1", [6, 6, 1, 1])
    assert failed[0][0] == (
        "-1 Opponent Fate Points: target Test Sage loses 1 fate (1 of red.sage.1's, spent until "
        "the round ends, R6)"
    )
    assert failed == made == other
