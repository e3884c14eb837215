"""Revealing a game's key: its play is over, and every seal and derived die can be checked.

A reveal publishes the key in force (the dice seed; in a manual-dice game the sealing seed) as a
``dice_revealed`` event. It is refused while games that share hidden history with the game are
still being played, unless the organiser says so: it would tell their secrets (a fork's from
before the cut; a game imported from an export of it holds the very same key).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warlog.arbiter.fold import Folded
from warlog.arbiter.forks import LiveSharers, live_sharers
from warlog.arbiter.sealing import key_in_force
from warlog.domain.core.errors import InputError
from warlog.domain.core.events import DiceRevealed
from warlog.domain.core.summary import listed

if TYPE_CHECKING:
    from warlog.arbiter.application import Arbiter

#: the refusal of a reveal that would tell the secrets of games still being played (its forks,
#: its parent, a game imported from an export of it: ``Arbiter.live_relatives``) before the
#: organiser says so
LIVE_FORKS = "input/live_forks"


def revealing(arb: Arbiter, game: str, despite_live_forks: bool) -> tuple[Folded, DiceRevealed]:
    """The game folded at its head and the ``dice_revealed`` to append on it (``Arbiter.reveal``).
    InputError if its seed is revealed already, or ``LIVE_FORKS`` while games still being
    played share hidden history with it (unless ``despite_live_forks``)."""
    folded = arb.folded(game)
    if folded.meta.revealed:
        raise InputError(
            f"game {game}'s seed was already revealed at seq {folded.meta.revealed_at}",
            "input/already_revealed",
        )
    live = LiveSharers([], []) if despite_live_forks else live_sharers(arb, game)
    if live.family or live.keyed:
        raise InputError(
            f"{sharers(live, game)}: revealing {game} would tell their secrets"
            f"{'' if live.keyed else ' from before the fork'}; nothing revealed (to reveal it "
            f"anyway: warlog reveal {game} --despite-live-forks, or ?despite_live_forks=true "
            "over HTTP)",
            LIVE_FORKS,
        )
    seed = key_in_force(arb.vault, folded.meta, game)
    return folded, DiceRevealed(seed=seed.hex())


def sharers(live: LiveSharers, game: str) -> str:
    """Which games ``live`` names and why: ``f1 shares hidden history with g1 and is still
    being played``; ``c1 shares its key with g1 …`` for one of no lineage with it; both kinds:
    ``f1 shares hidden history with g1 and c1 shares its key with it, all still being played``."""
    family, keyed = live
    history = f"{listed(family)} {_shares(family)} hidden history with {game}"
    its = "its" if len(keyed) == 1 else "their"
    key = f"{listed(keyed)} {_shares(keyed)} {its} key with"
    if family and keyed:
        return f"{history} and {key} it, all still being played"
    said, named = (history, family) if family else (f"{key} {game}", keyed)
    return f"{said} and {'is' if len(named) == 1 else 'are'} still being played"


def _shares(games: list[str]) -> str:
    return "shares" if len(games) == 1 else "share"
