"""An event that explains itself to a reader from whom some of its values stay sealed
(``Event.explain_sealed``) says the same, and names the same procedure, whatever those values
are: else the explanation would tell the reader what the seal hides.

Every event type of every ruleset that overrides ``explain_sealed`` must be listed in
``TWINS`` with events that differ only in their sealed values; a new override without twins
fails ``test_every_override_has_twins``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from tests.domain.armageddon_empires.air_helpers import SPOTTERS, skies
from tests.domain.armageddon_empires.test_stealthed_controllers import opening
from warlog.domain import rulesets
from warlog.domain.armageddon_empires.assassination_events import AssassinationBegan
from warlog.domain.armageddon_empires.challenge import Challenge, Pool, Side, Term
from warlog.domain.armageddon_empires.challenge_events import ChallengeOpened, StealthedController
from warlog.domain.armageddon_empires.frames import Assassination
from warlog.domain.armageddon_empires.research_events import ResearchAttempted
from warlog.domain.armageddon_empires.resources import Resources
from warlog.domain.core.events import Event
from warlog.domain.core.seal import secrets_of
from warlog.projections.replay import explained


def _strike_openings() -> list[Event]:
    """Red's hawk's Air-To-Ground opening (version 20) with every kind of left-out controller
    list: none, one, the same under other ids, two."""
    opened = opening(skies(["hawk"], [], more=SPOTTERS), 5)
    lists = [
        (),
        (StealthedController("red.spotter.1", "red-eyes"),),
        (StealthedController("red.spotter.7", "red-owl"),),
        (
            StealthedController("red.spotter.1", "red-eyes"),
            StealthedController("red.spotter.2", "red-owl"),
        ),
    ]
    return [msgspec.structs.replace(opened, stealthed_controllers=c) for c in lists]


def _assassination_attempts() -> list[Event]:
    """Red's attempt on blue's quarry (version 27) whatever red saw there and however the target
    was chosen: alone, picked among two or three, named by a Master Assassin (AE-71)."""
    frame = Assassination(
        empire="red",
        assassin="red.knife.1",
        at="2,1",
        target="blue.quarry.1",
        target_army="blue-quarry",
        target_empire="blue",
        level=3,
    )
    seen = [
        (("blue.quarry.1",), "only"),
        (("blue.shade.1", "blue.quarry.1"), "die"),
        (("blue.pawn.1", "blue.shade.1", "blue.quarry.1"), "die"),
        (("blue.shade.1", "blue.quarry.1"), "master assassin"),
    ]
    return [
        AssassinationBegan(frame=frame, ap_cost=2, candidates=heroes, chosen_by=how)  # type: ignore[arg-type]
        for heroes, how in seen
    ]


def _research_attempts() -> list[Event]:
    """Red's attempts to create a card (version 28), each paying 1 Technology: by another hero,
    of another card, at another AP, succeeding or not (AE-73)."""

    def attempt(hero: str, card: str, ap: int, faces: tuple[int, ...], made: bool) -> Event:
        side = Side(
            empire="red",
            name=f"researcher {hero}",
            pool=Pool((Term(len(faces), f"Tactician {len(faces)} of {hero}, p.45; AE-73"),)),
            faces=faces,
        )
        ch = Challenge(
            number=1,
            kind="threshold",
            purpose="research",
            round=1,
            attacker=side,
            threshold=2,
            to_act="attacker",
            accepts=1,
            ended="accepts",
        )
        return ResearchAttempted(
            empire="red",
            hero=hero,
            at="0,0",
            ability="Tactician",
            card=card,
            ap_cost=ap,
            paid=Resources(technology=1),
            challenge=ch,
            outcome=ch.outcome("accepts"),
            created=f"red.{card}.7" if made else None,
        )

    return [
        attempt("red.sage.1", "feint", 2, (6, 6, 1), True),
        attempt("red.mentor.1", "feint", 2, (6, 6, 1), True),
        attempt("red.sage.1", "nerve", 3, (6, 6, 6), True),
        attempt("red.sage.1", "feint", 2, (1, 1, 1), False),
    ]


#: event type -> (its ruleset version, events differing only in the values it seals)
TWINS: dict[type[Event], tuple[int, Callable[[], list[Event]]]] = {
    ChallengeOpened: (20, _strike_openings),
    AssassinationBegan: (27, _assassination_attempts),
    ResearchAttempted: (28, _research_attempts),
}


def overriding() -> set[type[Event]]:
    return {
        cls
        for ruleset in rulesets.all_rulesets().values()
        for cls in ruleset.event_types
        if cls.explain_sealed is not Event.explain_sealed
    }


def test_every_override_has_twins() -> None:
    # given every event type of every ruleset
    # then each that explains itself to a reader its seals are closed to has twins to test it
    assert overriding() == set(TWINS)


#: a reader who owns none of the sealed values: a third empire, or a player of another side
ONLOOKER = "an onlooker"


@pytest.mark.parametrize("cls", list(TWINS), ids=lambda cls: cls.type_name())
def test_what_an_event_tells_a_reader_its_seals_are_closed_to_does_not_hang_on_them(
    cls: type[Event],
) -> None:
    # given events of one type that differ only in their sealed values
    version, build = TWINS[cls]
    twins = build()
    assert len({msgspec.json.encode(e) for e in twins}) == len(twins)
    # each twin seals something, and the onlooker owns none of it: no reader is left untested
    assert all(secrets_of(e, version=version) for e in twins)
    assert all(closed_to(e, version, ONLOOKER) is not None for e in twins)
    owners = {owner for e in twins for _, owner in secrets_of(e, version=version)}
    readers = sorted({o for o in owners if o is not None} | {ONLOOKER})
    for reader in readers:
        # when each is explained to that reader, the values it does not own sealed
        shown = [closed_to(e, version, reader) for e in twins]
        closed = [(e, data) for e, data in zip(twins, shown, strict=True) if data is not None]
        if not closed:
            continue  # the reader opens every seal: it may be told all
        told = {explained(e, data) for e, data in closed}
        # then it is told something, the same for every twin, and the same procedure
        assert None not in told, reader
        assert len(told) == 1, reader
        assert len({(e.part_of(), e.begins()) for e, _ in closed}) == 1, reader


def closed_to(event: Event, version: int, reader: str) -> dict[str, Any] | None:
    """``event``'s data as ``reader`` is shown it: each value sealed for another owner (or for
    none: the referee's) a closed seal, a digest alone; None if no seal is closed to it."""
    shown = msgspec.to_builtins(event)
    paths = [path for path, owner in secrets_of(event, version=version) if owner != reader]
    if not paths:
        return None
    for path in paths:
        *outer, last = path.split(".")
        holder = shown
        for step in outer:
            holder = holder[int(step)] if isinstance(holder, list) else holder[step]
        holder[int(last) if isinstance(holder, list) else last] = {"sealed": "0" * 64}
    return shown
