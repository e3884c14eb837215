"""The target of a hunt (p.30; AE-21, AE-38): named by a Bounty Hunter, the only one, or picked
at random, since version 24 by a hidden roll made in every hunt: the hunter's in versions 24 to
26, the referee's since 27."""

from __future__ import annotations

import msgspec
import pytest

from tests.domain.armageddon_empires.arena import HUNT
from tests.domain.armageddon_empires.helpers import PICK, army_block, only, sight
from tests.domain.armageddon_empires.test_capture_kill import PLAIN_HUNT, QUARRY, spotted
from tests.given_when_then import Given
from warlog.domain.armageddon_empires.battle_events import RollAwaited
from warlog.domain.armageddon_empires.challenge_events import CaptureKillBegan, ChallengeOpened
from warlog.domain.armageddon_empires.commands import HuntHero, Roll
from warlog.domain.armageddon_empires.limits import MAX_ARMIES_PER_HEX
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.targets import TARGET_DICE, TARGET_SIDES, picked
from warlog.domain.core.events import DiceRolled


def two_heroes_spotted(armies: str, version: int | None = None) -> Given:
    """Red's hunters see blue's quarry and blue's shade (``blue-other``), each alone, in their
    hex, in a game of ``version`` (default: this one)."""
    g = spotted(armies + army_block("blue-other", "blue", "2,1", hero="shade"))
    if version is not None:
        g.ruleset = RULESET.at_version(str(version))
        g.state = msgspec.structs.replace(g.state, rules_version=version)
    return sight(g, "red", "blue-other")


def test_a_bounty_hunter_names_the_target_and_without_one_a_hidden_roll_picks_it() -> None:
    g = two_heroes_spotted(HUNT)
    legal = [c for c in RULESET.legal_commands(g.state, "red") if isinstance(c, HuntHero)]
    assert {c.target for c in legal} == {None, QUARRY, "blue.shade.1"}
    named = g.when(HuntHero(player="red", army="red-hunt", target="blue.shade.1"), dice=PICK)
    began = only(named, CaptureKillBegan)
    assert began.chosen_by == "bounty hunter" and began.frame.target == "blue.shade.1"

    g2 = two_heroes_spotted(PLAIN_HUNT)
    g2.when_rejected(
        HuntHero(player="red", army="red-hunt", target=QUARRY), code="rules/no_bounty_hunter"
    )
    # AE-21, AE-38: the referee's hidden pick, 3 d210 read as one number: 1, of 2 targets the
    # second (blue-other, then blue-quarry); the same roll a named target's hunt made above
    events = g2.when(HuntHero(player="red", army="red-hunt"), dice=[1, 1, 2])
    pick = events[0]
    assert isinstance(pick, DiceRolled) and pick == DiceRolled(
        sides=TARGET_SIDES,
        faces=[1, 1, 2],
        purpose="capture kill target",
        roller="",
        hidden=True,
    )
    assert named[0] == msgspec.structs.replace(pick, faces=PICK)
    began = only(events, CaptureKillBegan)
    assert began.chosen_by == "die" and began.frame.target == QUARRY
    # the target's pool depends on the pick, so its challenge waits for the hunter's roll (AE-37)
    assert only(events, RollAwaited).awaiting.roller == "red"
    assert RULESET.legal_commands(g2.state, "red") == [Roll(player="red")]
    opened = only(g2.when(Roll(player="red"), dice=[1] * 10), ChallengeOpened)
    assert opened.challenge.defender is not None and opened.challenge.defender.pool.size == 4


def test_versions_24_to_26_pick_the_target_with_the_hunter_s_own_hidden_roll() -> None:
    # given a game of version 26 whose hunters see two heroes alone
    g = two_heroes_spotted(PLAIN_HUNT, version=26)
    # when red hunts without naming one
    events = g.when(HuntHero(player="red", army="red-hunt"), dice=[1, 1, 2])
    # then the pick is red's hidden roll, as version 26 recorded it (AE-21; version 27 made it
    # the referee's, targets.REFEREE_PICKS_SINCE)
    pick = events[0]
    assert isinstance(pick, DiceRolled) and (pick.roller, pick.hidden) == ("red", True)
    assert (pick.sides, pick.faces, pick.purpose) == (
        TARGET_SIDES,
        [1, 1, 2],
        "capture kill target",
    )
    assert only(events, CaptureKillBegan).frame.target == QUARRY


def test_version_23_picks_the_target_with_a_public_die_of_as_many_sides_as_targets() -> None:
    # the leak version 24 closed (AE-38): the die's sides told the hunted empire how many lone
    # heroes the hunter had seen, its face which one it hunts, and a named target rolled none
    g = two_heroes_spotted(PLAIN_HUNT, version=23)
    events = g.when(HuntHero(player="red", army="red-hunt"), dice=[2])
    assert events[0] == DiceRolled(
        sides=2, faces=[2], purpose="capture kill target", roller="red", hidden=False
    )
    assert only(events, CaptureKillBegan).frame.target == QUARRY
    g = two_heroes_spotted(HUNT, version=23)
    named = g.when(HuntHero(player="red", army="red-hunt", target=QUARRY), dice=[1] * 10)
    assert not [e for e in named if isinstance(e, DiceRolled) and e.purpose.endswith("target")]


@pytest.mark.parametrize("count", range(1, MAX_ARMIES_PER_HEX + 1))
def test_the_hidden_pick_is_even_among_as_many_targets_as_a_hex_holds(count: int) -> None:
    """AE-21: the pick reads its 3 d210 as one number from 0 to 210³ − 1 and takes it modulo the
    number of targets; 210³ is a multiple of every number up to 8, the most enemy armies a hex
    holds, so each target has the same share of the faces."""
    assert (TARGET_SIDES**TARGET_DICE) % count == 0
    assert [picked(f, count) for f in ([1, 1, 1], [1, 1, 2], [1, 2, 1], [2, 1, 1])] == [
        0,
        1 % count,
        TARGET_SIDES % count,
        TARGET_SIDES**2 % count,
    ]
    assert picked([TARGET_SIDES] * TARGET_DICE, count) == count - 1
