"""Revealing a game's key: its play is over, and every seal and derived die can be checked.

A reveal publishes the key in force (the dice seed; in a manual-dice game the sealing seed) as a
``dice_revealed`` event. It is refused while games of the family that share hidden history with
the game are still being played, unless the organiser says so: it would tell their secrets from
before the fork.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warlog.arbiter.fold import Folded
from warlog.arbiter.sealing import key_in_force
from warlog.domain.core.errors import InputError
from warlog.domain.core.events import DiceRevealed
from warlog.domain.core.summary import listed

if TYPE_CHECKING:
    from warlog.arbiter.application import Arbiter

#: the refusal of a reveal that would tell the secrets of games still being played (its forks,
#: its parent: ``Arbiter.live_relatives``) before the organiser says so
LIVE_FORKS = "input/live_forks"


def revealing(arb: Arbiter, game: str, despite_live_forks: bool) -> tuple[Folded, DiceRevealed]:
    """The game folded at its head and the ``dice_revealed`` to append on it (``Arbiter.reveal``).
    InputError if its seed is revealed already, or ``LIVE_FORKS`` while relatives still being
    played share hidden history with it (unless ``despite_live_forks``)."""
    folded = arb.folded(game)
    if folded.meta.revealed:
        raise InputError(
            f"game {game}'s seed was already revealed at seq {folded.meta.revealed_at}",
            "input/already_revealed",
        )
    live = [] if despite_live_forks else arb.live_relatives(game)
    if live:
        raise InputError(
            f"{listed(live)} {'shares' if len(live) == 1 else 'share'} hidden history with "
            f"{game} and {'is' if len(live) == 1 else 'are'} still being played: revealing "
            f"{game} would tell their secrets from before the fork; nothing revealed (to "
            f"reveal it anyway: warlog reveal {game} --despite-live-forks, or "
            "?despite_live_forks=true over HTTP)",
            LIVE_FORKS,
        )
    seed = key_in_force(arb.vault, folded.meta, game)
    return folded, DiceRevealed(seed=seed.hex())
