"""Supply: after each strategy card the phasing player's counters trace a line or suffer.

seed 003 "Supply": a line of any length to one of the side's own supply areas, never into an
enemy-occupied area or the sea (nor mountains, seed "Terrain Effects"), through ash waste if need
be. Counters out of supply are destroyed; a stack with a hive or a fortification is destroyed only
on a d6 of 1-3, and with both it rolls twice and is destroyed only if both rolls fail.
"""

from __future__ import annotations

from warlog.domain.battle_for_armageddon import board
from warlog.domain.battle_for_armageddon.losses import eliminate
from warlog.domain.battle_for_armageddon.rules import IMPERIALS, SUPPLY_LOSS_MAX_FACE
from warlog.domain.battle_for_armageddon.state import Counter, GameState
from warlog.domain.battle_for_armageddon.turn_events import StackOutOfSupply, SupplyChecked
from warlog.domain.core.batch import Batch


def subject(state: GameState, player: str) -> dict[str, list[Counter]]:
    """The player's counters that need supply, by area (BFA-13: fortifications, hives and
    factories do not), in map order."""
    out: dict[str, list[Counter]] = {}
    for a in state.scenario.areas:
        here = [
            x
            for x in board.counters_in(state, a.id, player)
            if not board.is_fortification(state, x)
        ]
        if here:
            out[a.id] = here
    return out


def protection(state: GameState, area: str, player: str) -> list[str]:
    """What lets a cut-off stack roll to survive: its hive, its fortification (seed 003)."""
    out: list[str] = []
    site = board.intact_site_in(state, area)
    if player == IMPERIALS and site is not None and site.kind == "hive":
        out.append("hive")
    if any(board.is_fortification(state, x) for x in board.counters_in(state, area, player)):
        out.append("fortification")
    return out


def check(batch: Batch[GameState], player: str) -> None:
    """Check the player's supply, rolling for protected stacks, and destroy what is cut off."""
    stacks = subject(batch.state, player)
    cut: list[str] = []
    lost: list[str] = []
    for area, counters in stacks.items():
        if board.supply_line(batch.state, area, player) is not None:
            continue
        cut.append(area)
        saves = protection(batch.state, area, player)
        faces = batch.roll(len(saves), 6, purpose=f"supply {area}", roller=player) if saves else []
        destroyed = all(f <= SUPPLY_LOSS_MAX_FACE for f in faces)
        batch.emit(
            StackOutOfSupply(
                player=player,
                area=area,
                counters=[x.id for x in counters],
                protection=saves,
                faces=faces,
                destroyed=destroyed,
            )
        )
        if destroyed:
            for x in counters:
                eliminate(batch, x.id, "out of supply (rules: Supply)")
                lost.append(x.id)
    if batch.state.rules_version < FLIPS_NAMED_SINCE:
        batch.emit(SupplyChecked(player=player, cut_off=cut, lost=lost))
        return
    flipped = [x for x in lost if board.on_map(batch.state.counters[x])]
    batch.emit(SupplyChecked(player=player, cut_off=cut, lost=lost, flipped=flipped))


#: since this rules version ``supply_checked`` names the chapters among its losses that flipped to
#: their detachment and stay (BFA-13), so that its explanation tells them from the counters lost;
#: the field is part of the logged event, so games begun under 6 and before keep their events
FLIPS_NAMED_SINCE = 7
