"""Non-interference: what a player is given depends on the other side's secrets only through
commitments. Two games that differ only in those secrets must give the player byte-identical
outputs once every 64-hex commitment (seal, chain hash) is blinded.

``observed`` collects what a player can be given about a stretch of a game (``step_observed``,
what it is given after one command); ``blinded`` hides the commitments. The tests of hidden
information compare whole games built apart; ``warlog fuzz`` runs a twin of each example per
watching player, whose dice change the faces of every hidden roll (a draw) made by someone else,
and compares what the watcher is given after each step.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import msgspec

from warlog.arbiter.application import Arbiter
from warlog.domain.core.dice import Dice
from warlog.domain.core.errors import WarlogError
from warlog.domain.core.events import DiceRolled, Event

HEX64 = re.compile(r"[0-9a-f]{64}")


def blinded(value: Any) -> str:
    """``value`` as JSON with every 64-hex commitment replaced by ``#``, its keys in the order
    they are given: an order that hangs on a secret (cards listed as they were dealt) is a
    difference too."""
    return HEX64.sub("#", json.dumps(value))


def observed(arb: Arbiter, game: str, watcher: str, from_seq: int = 1) -> dict[str, Any]:
    """Everything ``watcher`` can be given about events ``from_seq``.. of ``game``: its feed,
    the view after each event, their replay and explanations, its Events-view tab (each entry
    whole, its seq, round and duration with its text, as the server's ``/log`` gives it), and
    its legal commands and receipt now."""
    head, _ = arb.head(game)
    seqs = range(from_seq, head + 1)
    tab = arb.events_view(game, watcher).tabs(watcher, True)[watcher]
    return step_observed(arb, game, watcher, from_seq) | {
        "views": [arb.view(game, seq, watcher) for seq in seqs],
        "replay": list(arb.replay(game, from_seq, None, watcher)),
        "explain": [arb.explain(game, seq, watcher) for seq in seqs],
        "log": msgspec.to_builtins(tab),
    }


def step_observed(
    arb: Arbiter, game: str, watcher: str, from_seq: int, legal: list[Any] | None = None
) -> dict[str, Any]:
    """What ``watcher`` is given after a command: its feed of events ``from_seq``.. (none when
    ``from_seq`` is past the head), the view now, its legal commands and receipt now (``legal``:
    the legal commands as ``arb.legal`` gives them, when the caller already has them)."""
    head, _ = arb.head(game)
    shown = arb.records_as(game, watcher, from_seq) if from_seq <= head else ()
    return {
        "feed": [json.loads(r.data) | {"seq": r.seq, "hash": r.hash} for r in shown],
        "view": arb.view(game, None, watcher),
        "legal": arb.legal(game, watcher) if legal is None else legal,
        "receipts": [arb.head(game)],
    }


def refusals(
    arb: Arbiter, game: str, watcher: str, commands: Sequence[dict[str, Any]]
) -> list[str]:
    """The refusal ``watcher`` is given for each of ``commands`` (each must be refused)."""
    out = []
    for command in commands:
        try:
            arb.play_as(game, json.dumps(command))
        except WarlogError as exc:
            out.append(exc.line())
        else:
            raise AssertionError(f"accepted {command}")
    return out


def other_draws(events: Sequence[Event], watcher: str) -> bool:
    """True when ``events`` hold a secret draw of another player: a hidden roll whose roller is
    a player other than ``watcher``. A hidden roll with no roller (the referee's, such as a
    hidden check whose outcome each side learns its part of) is not one."""
    return any(_others(e, watcher) for e in events)


def _others(event: Event, watcher: str) -> bool:
    return (
        isinstance(event, DiceRolled)
        and event.hidden
        and bool(event.roller)
        and event.roller != watcher
    )


class TwinDice:
    """The dice of a twin: the faces the real game's dice give, except that each secret draw of
    another player than ``watcher`` (``other_draws``) the real game made at the same place shows
    other faces (each face one higher, round the die), so that another card is drawn."""

    def __init__(self, dice: Dice, watcher: str, real: Sequence[Event]) -> None:
        self._dice = dice
        self._watcher = watcher
        self._real = real

    def faces(self, offset: int, count: int, sides: int) -> list[int]:
        faces = self._dice.faces(offset, count, sides)
        real = self._real[offset] if offset < len(self._real) else None
        if (
            isinstance(real, DiceRolled)
            and _others(real, self._watcher)
            and real.sides == sides
            and len(real.faces) == count
        ):
            return [face % sides + 1 for face in faces]
        return faces


class Twin:
    """A twin of an example for one watching player: the same game and commands, other draws
    for everyone else. ``real`` is set to the events the real game's command caused before the
    twin plays the same command."""

    def __init__(self, watcher: str, since: int) -> None:
        self.watcher = watcher
        #: the index of the example's step from which the twin's draws differ
        self.since = since
        self.real: Sequence[Event] = ()

    def dice(self, dice: Dice) -> Dice:
        """The arbiter's ``dice_filter`` for the twin game."""
        return TwinDice(dice, self.watcher, self.real)
