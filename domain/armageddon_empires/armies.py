"""Armies: create, disband, and transfer cards between them; the limits they must keep.

Limits (digest 6.9, p.22–23): at most 1 hero and 8 units per army; at most 8 armies of one
empire in a hex (a garrison counts, AE-8). Combat-capable = at least one unit (p.34).
"""

from __future__ import annotations

from warlog.domain.armageddon_empires.abilities import STEALTH, has
from warlog.domain.armageddon_empires.commands import CreateArmy, DisbandArmy, TransferCards
from warlog.domain.armageddon_empires.costs import CREATE_ARMY_AP, DISBAND_ARMY_AP, TRANSFER_AP
from warlog.domain.armageddon_empires.events import ArmyCreated, ArmyDisbanded, CardsTransferred
from warlog.domain.armageddon_empires.guards import (
    hex_on_map,
    own_army,
    own_base_hex,
    pay_ap,
)
from warlog.domain.armageddon_empires.limits import (
    GARRISON_SUFFIX,
    MAX_ARMIES_PER_HEX,
    MAX_HEROES_PER_ARMY,
    MAX_UNITS_PER_ARMY,
)
from warlog.domain.armageddon_empires.observation import seen_at_a_base
from warlog.domain.armageddon_empires.state import Army, GameState
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import RulesError


def limits_broken(
    state: GameState, hero: str | None, units: tuple[str, ...], extra: tuple[str, ...]
) -> str | None:
    """Why an army of ``hero`` and ``units`` plus the cards ``extra`` breaks the limits, or None."""
    heroes = (hero is not None) + sum(1 for c in extra if state.card(c).kind == "hero")
    count = len(units) + sum(1 for c in extra if state.card(c).kind == "unit")
    if heroes > MAX_HEROES_PER_ARMY:
        return f"an army has at most {MAX_HEROES_PER_ARMY} hero (p.23)"
    if count > MAX_UNITS_PER_ARMY:
        return f"an army has at most {MAX_UNITS_PER_ARMY} units (p.23); this would make {count}"
    return None


#: AE-57: a garrison is named after its base (``GARRISON_SUFFIX``), and a captured base keeps
#: its id, so the captor's garrison there may bear the other empire's prefix; since version 8 no
#: army is created with such a name, so that "the name is taken" never tells of one
GARRISON_NAMES_SINCE = 8


def next_army_name(state: GameState, empire: str) -> str:
    """The name legal_commands offers for a new army: the first free ``<empire>-r<round>-<n>``.
    Named by the round, not by how many armies the empire has (``<empire>-<n>``), so that once
    the other empire sights it the name tells nothing of the armies it has not seen: the
    armies created this round are no secret (each ``create_army`` shows, its contents sealed),
    the set-up's and the earlier rounds' are."""
    n = 1
    while (name := f"{empire}-r{state.round}-{n}") in state.armies or name in state.bases:
        n += 1
    return name


def create_army(batch: Batch[GameState], cmd: CreateArmy) -> None:
    """``army_created``; RulesError if the name is taken, the hex holds none of the empire's
    strongholds or outposts, the hex is full, or AP is short."""
    state = batch.state
    empire = state.empires[cmd.player]
    if not cmd.army.startswith(f"{cmd.player}-"):
        raise RulesError(
            f"{cmd.player} names its armies '{cmd.player}-...', not {cmd.army!r} (a name taken "
            "by an unseen enemy army would give it away, AE-17)",
            "rules/army_name",
        )
    if state.rules_version >= GARRISON_NAMES_SINCE and cmd.army.endswith(GARRISON_SUFFIX):
        raise RulesError(
            f"a name ending {GARRISON_SUFFIX!r} is a garrison's, never an army's: a captured base's "
            "garrison keeps its name, so such a name could be the enemy's (AE-57)",
            "rules/army_name",
        )
    if cmd.army in state.armies or cmd.army in state.bases:
        raise RulesError(f"the name {cmd.army!r} is taken", "rules/army_name_taken")
    at = hex_on_map(state, cmd.at)
    if own_base_hex(state, cmd.player, at) is None:
        raise RulesError(
            f"armies are created at one of {cmd.player}'s strongholds or outposts; {at} holds none (AE-9)",
            "rules/not_at_base",
        )
    if len(state.armies_at(cmd.player, at)) >= MAX_ARMIES_PER_HEX:
        raise RulesError(
            f"hex {at} already holds {MAX_ARMIES_PER_HEX} armies of {cmd.player} (p.23)",
            "rules/hex_full",
        )
    pay_ap(empire, CREATE_ARMY_AP, "creating an army")
    batch.emit(ArmyCreated(empire=cmd.player, army=cmd.army, at=at, ap_cost=CREATE_ARMY_AP))


def disband_army(batch: Batch[GameState], cmd: DisbandArmy) -> None:
    """``army_disbanded``; RulesError for a garrison, a non-empty army, or one not at a base."""
    state = batch.state
    empire = state.empires[cmd.player]
    army = own_army(state, cmd.player, cmd.army)
    if army.garrison_of is not None:
        raise RulesError(
            f"{army.id} is the garrison of {army.garrison_of}; it cannot be disbanded",
            "rules/garrison_cannot_disband",
        )
    if army.cards():
        raise RulesError(
            f"{army.id} still holds {len(army.cards())} cards; only an empty army is disbanded (p.23)",
            "rules/army_not_empty",
        )
    if own_base_hex(state, cmd.player, army.at) is None:
        raise RulesError(
            f"{army.id} is not at a stronghold or outpost of {cmd.player} (p.23)",
            "rules/not_at_base",
        )
    pay_ap(empire, DISBAND_ARMY_AP, "disbanding an army")
    batch.emit(ArmyDisbanded(empire=cmd.player, army=army.id, at=army.at, ap_cost=DISBAND_ARMY_AP))


def transfer_cards(batch: Batch[GameState], cmd: TransferCards) -> None:
    """``cards_transferred``; RulesError unless both armies are the player's, in one hex, the
    cards are in the giver, the receiver keeps the limits, the giver is not left empty away
    from a base (AE-9), and 1 AP is left."""
    state = batch.state
    empire = state.empires[cmd.player]
    giver = own_army(state, cmd.player, cmd.from_army)
    taker = own_army(state, cmd.player, cmd.to_army)
    if giver.id == taker.id:
        raise RulesError("an army cannot transfer cards to itself", "rules/same_army")
    if giver.at != taker.at:
        raise RulesError(
            f"{giver.id} is at {giver.at} and {taker.id} at {taker.at}; transfers happen within one hex",
            "rules/not_same_hex",
        )
    if len(set(cmd.cards)) != len(cmd.cards):
        raise RulesError("a card is named twice", "rules/duplicate_card")
    for c in cmd.cards:
        if c not in giver.cards():
            raise RulesError(f"card {c!r} is not in {giver.id}", "rules/card_not_in_army")
    why = limits_broken(state, taker.hero, taker.units, cmd.cards)
    if why:
        raise RulesError(f"{taker.id} cannot take them: {why}", "rules/army_full")
    plain = [c for c in cmd.cards if not has(state.card(c).abilities, STEALTH)]
    if taker.stealthed and plain:
        raise RulesError(
            f"{taker.id} is stealthed and {plain[0]} has no Stealth X; every card of a "
            "stealthed army has it (p.27; AE-23)",
            "rules/not_stealth_capable",
        )
    if (
        len(cmd.cards) == len(giver.cards())
        and giver.garrison_of is None
        and own_base_hex(state, cmd.player, giver.at) is None
    ):
        raise RulesError(
            f"{giver.id} would be left empty at {giver.at}, away from a stronghold or outpost "
            "where it could be disbanded (AE-9)",
            "rules/army_stranded",
        )
    pay_ap(empire, TRANSFER_AP, "a transfer")
    moved = giver.id in empire.moved and taker.id not in empire.moved and taker.garrison_of is None
    batch.emit(
        CardsTransferred(
            empire=cmd.player,
            from_army=giver.id,
            to_army=taker.id,
            cards=tuple(cmd.cards),
            ap_cost=TRANSFER_AP,
            receiver_moved=moved,
        )
    )
    seen_at_a_base(batch, taker.id)


def legal_army_orders(
    state: GameState, player: str
) -> list[CreateArmy | DisbandArmy | TransferCards]:
    """Create (one per base hex), disband (every empty field army at a base) and every
    single-card transfer the player may order now."""
    ap = state.empires[player].ap
    out: list[CreateArmy | DisbandArmy | TransferCards] = []
    mine = [a for a in state.armies.values() if a.empire == player]
    if ap >= CREATE_ARMY_AP:
        name = next_army_name(state, player)
        for base in sorted(state.bases.values(), key=lambda b: b.id):
            if (
                own_base_hex(state, player, base.at) is base
                and len(state.armies_at(player, base.at)) < MAX_ARMIES_PER_HEX
            ):
                out.append(CreateArmy(player=player, army=name, at=base.at))
    for army in mine:
        if (
            army.garrison_of is None
            and not army.cards()
            and own_base_hex(state, player, army.at)
            and ap >= DISBAND_ARMY_AP
        ):
            out.append(DisbandArmy(player=player, army=army.id))
    if ap >= TRANSFER_AP:
        for giver in mine:
            for taker in mine:
                if taker.id == giver.id or taker.at != giver.at:
                    continue
                for card in giver.cards():
                    if _transfer_ok(state, player, giver, taker, card):
                        out.append(
                            TransferCards(
                                player=player, from_army=giver.id, to_army=taker.id, cards=(card,)
                            )
                        )
    return out


def _transfer_ok(state: GameState, player: str, giver: Army, taker: Army, card: str) -> bool:
    if limits_broken(state, taker.hero, taker.units, (card,)):
        return False
    if taker.stealthed and not has(state.card(card).abilities, STEALTH):
        return False
    stranded = len(giver.cards()) == 1 and giver.garrison_of is None
    return not (stranded and own_base_hex(state, player, giver.at) is None)
