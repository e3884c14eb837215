"""The recorded scenario: the form ``game_created`` records a scenario in, each empire's hidden
set-up under it (AE-61) and, for a hidden set-up, the card catalogue by empire (AE-64), and the
scenario read back from every recorded form.
"""

from typing import Any

import msgspec

from warlog.domain.armageddon_empires.cards import INDEPENDENT
from warlog.domain.armageddon_empires.creators import CREATORS
from warlog.domain.armageddon_empires.scenario import Scenario, placed_cards, research_lists
from warlog.domain.armageddon_empires.scenario_checks import check
from warlog.domain.core.scenario import bad_scenario, convert_scenario

_bad = bad_scenario

#: AE-61: since version 15 the recorded scenario holds each empire's armies and minefields under
#: that empire (``recorded_by_empire``), each list sealed whole for it, so that ``game_created``
#: tells nobody how many the other empire has. Version 14 and before listed them at the top
#: level and sealed each entry on its own, so that the other empire counted its seals
HIDDEN_SETUP_BY_EMPIRE_SINCE = 15

#: the scenario's lists of hidden set-up entries, each held under its empire since version 15
BY_EMPIRE = ("armies", "minefields")


def recorded_by_empire(scenario: Scenario, independent: bool = False) -> dict[str, Any]:
    """``scenario`` as ``game_created`` records it since version 15 (AE-61): each empire's
    ``armies`` and ``minefields`` under it, in the scenario's order, an empty list where it has
    none; neither list at the top level. ``independent`` (since version 23, AE-67): and
    ``independent.minefields`` last, the minefields of no empire in the scenario's order, an
    empty list where there are none."""
    out: dict[str, Any] = msgspec.to_builtins(scenario)
    entries = {field: out.pop(field, []) for field in BY_EMPIRE}
    for empire in out["empires"]:
        for field, listed in entries.items():
            empire[field] = [e for e in listed if e.get("empire") == empire["id"]]
    if independent:
        out[INDEPENDENT_KEY] = {
            "minefields": [e for e in entries["minefields"] if "empire" not in e]
        }
    return out


#: AE-67: where the recorded scenario holds what no empire controls, since version 23
#: (``minefields.INDEPENDENT_MINEFIELDS_SINCE``), at its top level
INDEPENDENT_KEY = "independent"
#: its lists, each sealed whole for every player, present even when empty: the independent
#: minefields, and in a catalogue split by empire (AE-64) the card types they alone use
INDEPENDENT_SEALED = ("minefields", "cards")


#: AE-64: since version 18, in a scenario whose set-up is hidden (not ``public_setup``), the
#: recorded scenario's top-level ``cards`` holds only the card types its public part uses, and
#: each empire's ``cards``, sealed whole for it, the other types its hidden set-up uses
#: (``recorded_catalogue_by_empire``), so that ``game_created`` no longer tells an empire which
#: types the other's hidden set-up holds; a type nobody uses is left out. Since version 18 too
#: a game of a hidden set-up checks every move for minefields (AE-54), whatever its catalogue
CATALOGUE_BY_EMPIRE_SINCE = 18


def public_card_types(scenario: Scenario) -> set[str]:
    """The card types the public part of the set-up uses: each base's own card and its
    facilities (bases are public, AE-17; their garrisons are not), and since version 28 the
    cards its research lists offer (public, AE-73; a scenario before it has none)."""
    bases = {card for base in scenario.bases for card in (base.card, *base.facilities)}
    research = research_lists(scenario)
    return bases | {r.card for c in CREATORS.values() for r in getattr(research, c.key)}


def recorded_catalogue_by_empire(scenario: Scenario, independent: bool = False) -> dict[str, Any]:
    """``scenario`` as ``game_created`` records it since version 18 when its set-up is hidden
    (AE-64): ``recorded_by_empire``, its top-level ``cards`` only the types of
    ``public_card_types`` and each empire's ``cards`` the types its hidden set-up uses (hand,
    deck, garrisons, armies, minefields) that are not public, an empty list where there are
    none; a type two empires use is listed under both. ``independent`` (since version 23,
    AE-67): and ``independent.cards`` the types the independent minefields use that neither
    the public part nor an empire uses (each type in one list or both empires' only, so that
    the lists merge back into the catalogue recorded again the same). Each list in the file's
    order."""
    out = recorded_by_empire(scenario, independent)
    public = public_card_types(scenario)
    catalogue = out["cards"]
    out["cards"] = [card for card in catalogue if card["id"] in public]
    placed = placed_cards(scenario)
    used = set(public)
    for empire in out["empires"]:
        own = {card for owner, card in placed if owner == empire["id"]} - public
        empire["cards"] = [card for card in catalogue if card["id"] in own]
        used |= own
    if independent:
        nobody = {card for owner, card in placed if owner == INDEPENDENT} - used
        out[INDEPENDENT_KEY]["cards"] = [card for card in catalogue if card["id"] in nobody]
    return out


def scenario_from_builtins(obj: dict[str, Any]) -> Scenario:
    """The scenario from its recorded JSON form (``game_created``), checked as a file is: the
    form of version 14 and before, since version 15 each empire's armies and minefields under
    it (``recorded_by_empire``), read back into the top-level lists empire by empire, and since
    version 18 each empire's card types too (``recorded_catalogue_by_empire``), read back into
    one catalogue, and since version 23 the independent minefields and the card types they
    alone use (AE-67), read back after the empires'."""
    return convert_scenario(_flat(obj), Scenario, check)


#: what an empire may hold under it in a recorded scenario: its lists of hidden set-up entries
#: (AE-61) and the card types only its hidden set-up uses (AE-64)
UNDER_AN_EMPIRE = (*BY_EMPIRE, "cards")


def _flat(obj: dict[str, Any]) -> dict[str, Any]:
    """``obj`` with the armies and minefields it holds under its empires (AE-61) listed at the
    top level, empire after empire, each empire's in its order, then the independent
    minefields (AE-67), and the card types it holds under them (AE-64) and under
    ``independent`` merged into its catalogue (``_merged_catalogue``); ``obj`` itself when it
    holds none there (the form of version 14 and before)."""
    empires = obj.get("empires")
    if not isinstance(empires, list) or not any(
        isinstance(e, dict) and not e.keys().isdisjoint(UNDER_AN_EMPIRE) for e in empires
    ):
        return obj
    for field in BY_EMPIRE:
        if field in obj:
            raise _bad(f"$.{field}", "listed under each empire in this form (AE-61), not here")
    entries: dict[str, list[Any]] = {field: [] for field in BY_EMPIRE}
    flat_empires = []
    for i, empire in enumerate(empires):
        if not isinstance(empire, dict):
            flat_empires.append(empire)  # msgspec names what is wrong with it
            continue
        flat_empires.append({k: v for k, v in empire.items() if k not in UNDER_AN_EMPIRE})
        for field in BY_EMPIRE:
            listed = empire.get(field, [])
            if not isinstance(listed, list):
                raise _bad(f"$.empires[{i}].{field}", "not a list")
            for j, item in enumerate(listed):
                if isinstance(item, dict) and item.get("empire") != empire.get("id"):
                    raise _bad(
                        f"$.empires[{i}].{field}[{j}].empire",
                        f"{item.get('empire')!r} listed under empire {empire.get('id')!r}",
                    )
            entries[field] += listed
    flat = {**obj, "empires": flat_empires, "armies": entries["armies"]}
    flat.pop(INDEPENDENT_KEY, None)
    nobody = _independent(obj)
    entries["minefields"] += nobody.get("minefields", [])
    if entries["minefields"]:  # none: left out, as a scenario without minefields is recorded
        flat["minefields"] = entries["minefields"]
    under = [
        (f"$.empires[{i}].cards", e["cards"])
        for i, e in enumerate(empires)
        if isinstance(e, dict) and "cards" in e
    ]
    if "cards" in nobody:
        under.append((f"$.{INDEPENDENT_KEY}.cards", nobody["cards"]))
    if under:
        flat["cards"] = _merged_catalogue([("$.cards", obj.get("cards", [])), *under])
    return flat


def _independent(obj: dict[str, Any]) -> dict[str, Any]:
    """What ``obj`` records under ``independent`` (AE-67): its minefields, of no empire, and the
    card types they alone use; empty when it records none (before version 23)."""
    path = f"$.{INDEPENDENT_KEY}"
    held = obj.get(INDEPENDENT_KEY, {})
    if not isinstance(held, dict):
        raise _bad(path, "not a table")
    for key, listed in held.items():
        if key not in INDEPENDENT_SEALED:
            raise _bad(
                f"{path}.{key}", f"unknown field; it holds {' and '.join(INDEPENDENT_SEALED)}"
            )
        if not isinstance(listed, list):
            raise _bad(f"{path}.{key}", "not a list")
    for j, item in enumerate(held.get("minefields", [])):
        if isinstance(item, dict) and "empire" in item:
            raise _bad(
                f"{path}.minefields[{j}].empire",
                f"{item['empire']!r}: an independent minefield has no empire (AE-67)",
            )
    return held


def _merged_catalogue(lists: list[tuple[str, Any]]) -> list[Any]:
    """The recorded catalogue's lists (path, list) as one catalogue (AE-64): each card type
    once, each list's order kept (a type placed before the next type of its list already
    merged, else last), so that the lists recorded again from it are the lists read. They are
    for every scenario ``recorded_catalogue_by_empire`` writes: its lists are in the file's one
    order, the public list shares no type with the empires', nor the independent list (AE-67)
    with any other, and the two empires' lists (``limits.EMPIRES_PER_GAME``) merge so. Lists
    in no one order, or three that share types, which only a forger writes, may not record
    again the same: the audit then says the scenario is not in its canonical form. A type
    listed twice must be the same card in both places; InputError names the second."""
    merged: list[Any] = []
    ids: list[Any] = []  # the id of each merged card, in step with ``merged``
    first: dict[str, tuple[str, Any]] = {}  # card id -> where it was first listed, and the card
    for path, listed in lists:
        if not isinstance(listed, list):
            raise _bad(path, "not a list")
        own = [card.get("id") if isinstance(card, dict) else None for card in listed]
        for j, (card, card_id) in enumerate(zip(listed, own, strict=True)):
            if isinstance(card_id, str) and card_id in first:
                where, known = first[card_id]
                if known != card:
                    raise _bad(f"{path}[{j}]", f"card {card_id!r} differs from {where}'s")
                continue
            later = next((c for c in own[j + 1 :] if isinstance(c, str) and c in first), None)
            at = len(merged) if later is None else ids.index(later)
            merged.insert(at, card)
            ids.insert(at, card_id)
            if isinstance(card_id, str):
                first[card_id] = (f"{path}[{j}]", card)
    return merged
