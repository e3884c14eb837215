"""Checks the handlers share: which army or base, which hex, enough AP.

Each raises RulesError (exit 3) with a stable ``rules/…`` code and one line naming the problem.
"""

from __future__ import annotations

from warlog.domain.armageddon_empires.state import Army, Base, Empire, GameState
from warlog.domain.core.errors import RulesError
from warlog.domain.core.hexgrid import Hex

#: the hexes that hold a stronghold or an outpost of an empire (where armies are raised and
#: disbanded, p.23)
BASE_KINDS = ("stronghold", "outpost")


def own_army(state: GameState, player: str, army_id: str) -> Army:
    """The army ``army_id`` of ``player``; ``rules/unknown_army`` otherwise, in the same words
    whether another empire has an army of that name or nobody has: the other side's armies and
    garrisons are hidden (AE-17), and a refusal must not tell which names they use."""
    army = state.armies.get(army_id)
    if army is None or army.empire != player:
        raise RulesError(f"{player} has no army {army_id!r}", "rules/unknown_army")
    return army


def own_base(state: GameState, player: str, base_id: str) -> Base:
    """The base ``base_id`` of ``player``; ``rules/unknown_base`` or ``rules/not_your_base``."""
    base = state.bases.get(base_id)
    if base is None:
        raise RulesError(f"there is no base {base_id!r}", "rules/unknown_base")
    if base.empire != player:
        raise RulesError(
            f"base {base_id!r} belongs to {base.empire}, not {player}", "rules/not_your_base"
        )
    return base


def hex_on_map(state: GameState, text: str) -> str:
    """The canonical ``"q,r"`` of a hex on the map; InputError if malformed, ``rules/off_map``."""
    at = str(Hex.parse(text))
    if at not in state.board.terrain:
        raise RulesError(f"hex {at} is not on the map", "rules/off_map")
    return at


def pay_ap(empire: Empire, cost: int, what: str) -> None:
    """``rules/not_enough_ap`` unless the empire has ``cost`` AP left for ``what``."""
    if empire.ap < cost:
        raise RulesError(
            f"{what} costs {cost} AP; {empire.id} has {empire.ap}", "rules/not_enough_ap"
        )


def own_base_hex(state: GameState, empire: str, at: str) -> Base | None:
    """The empire's stronghold or outpost in hex ``at``, if any."""
    base = state.base_at(at)
    return base if base is not None and base.empire == empire and base.kind in BASE_KINDS else None
