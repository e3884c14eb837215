"""Scenarios: the TOML file decoded by msgspec into typed Structs, then checked field by field.

Every error names the path of the bad field (``$.armies[2].units[0]: unknown card 'x'``) and is
an InputError ``input/bad_scenario`` (exit 1). The fields are documented in docs/scenarios.md.
"""

import importlib.resources
from typing import Annotated, Any, Literal

import msgspec

from warlog.domain.armageddon_empires.abilities import HQ, MINEFIELD, STEALTH, has, level
from warlog.domain.armageddon_empires.cards import (
    WHOLE_POOL_EFFECTS,
    CardEntry,
    CardType,
    FacilityCard,
    HeroCard,
    Id,
    TacticCard,
    UnitCard,
    damage_limit,
    entry,
)
from warlog.domain.armageddon_empires.limits import (
    DEFAULT_HAND_LIMIT,
    DEFAULT_SUPPLY_RANGE,
    EMPIRES_PER_GAME,
    GARRISON_SUFFIX,
    LAST_CARD_NUMBER,
    MAX_ARMIES_PER_HEX,
    MAX_HEROES_PER_ARMY,
    MAX_UNITS_PER_ARMY,
)
from warlog.domain.armageddon_empires.resources import Resources
from warlog.domain.armageddon_empires.terrain import DEFAULT_LEGEND, Terrain, terrain_table
from warlog.domain.core.dice import MAX_SIDES
from warlog.domain.core.errors import InputError
from warlog.domain.core.hexgrid import Hex
from warlog.domain.core.scenario import bad_scenario, convert_scenario, decode_scenario

CardList = Annotated[list[str], msgspec.Meta(max_length=200)]


class MapSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A parallelogram of ``width`` × ``height`` hexes: row r lists hexes (0,r) … (width−1,r)."""

    width: Annotated[int, msgspec.Meta(ge=1, le=64)]
    height: Annotated[int, msgspec.Meta(ge=1, le=64)]
    rows: list[str]
    legend: dict[str, str] = {}
    resources: dict[str, Resources] = {}


class EmpireSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: Id
    name: str
    resources: Resources = Resources()
    hand: CardList = []
    deck: CardList = []
    #: AE-15: cards dealt at random from the deck into the hand when the game is created
    deal: Annotated[int, msgspec.Meta(ge=0, le=20)] = 0
    supply_range: Annotated[int, msgspec.Meta(ge=0, le=99)] = DEFAULT_SUPPLY_RANGE
    hand_limit: Annotated[int, msgspec.Meta(ge=1, le=20)] = DEFAULT_HAND_LIMIT


class BaseSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: Id
    empire: str
    kind: Literal["stronghold", "outpost"]
    at: str
    card: str
    facilities: list[str] = []
    garrison: list[str] = []
    #: damage already taken by the base's card or a facility: card id -> damage (AE-22)
    damage: dict[str, int] = {}


class ArmySpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: Id
    empire: str
    at: str
    hero: str | None = None
    units: Annotated[list[str], msgspec.Meta(max_length=MAX_UNITS_PER_ARMY)] = []
    #: starts stealthed (every card must have Stealth X, p.27)
    stealthed: bool = False
    #: damage already taken: card id -> damage on the army's first card of that type (AE-22)
    damage: dict[str, int] = {}


class MinefieldSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A minefield (p.32; AE-50): a facility card with ``Minefield X`` in a hex without a base,
    camouflaged (sealed for the other empire when the game is created)."""

    id: Id
    empire: str
    at: str
    card: str
    #: damage already taken (structure points lost, AE-22)
    damage: Annotated[int, msgspec.Meta(ge=0, le=99)] = 0


class Scenario(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A whole scenario file."""

    name: str
    max_rounds: Annotated[int, msgspec.Meta(ge=1, le=999)]
    map: MapSpec
    cards: list[CardType]
    empires: list[EmpireSpec]
    bases: list[BaseSpec]
    armies: list[ArmySpec] = []
    #: left out of the recorded form when absent, so that games recorded before minefields
    #: keep their canonical scenario (``placed_minefields`` reads it)
    minefields: list[MinefieldSpec] | msgspec.UnsetType = msgspec.UNSET
    #: true: the set-up is published with the scenario (the bundled ones), so its cards keep
    #: their numbers in set-up order (AE-62); left out of the recorded form when absent, so that
    #: games recorded before keep their canonical scenario (``setup_is_public`` reads it)
    public_setup: bool | msgspec.UnsetType = msgspec.UNSET
    title: str = ""
    description: str = ""
    terrain: dict[str, Terrain] = {}


_bad = bad_scenario


def placed_minefields(scenario: Scenario) -> list[MinefieldSpec]:
    """The scenario's minefields (none when the file has no ``[[minefields]]``)."""
    return [] if isinstance(scenario.minefields, msgspec.UnsetType) else scenario.minefields


def setup_is_public(scenario: Scenario) -> bool:
    """Whether the scenario declares its set-up published with it (``public_setup = true``)."""
    return scenario.public_setup is True


def parse_scenario(data: bytes | str) -> Scenario:
    """The scenario in TOML ``data``, checked for a new game; InputError ``input/bad_scenario``
    names the path."""
    return decode_scenario(data, Scenario, _check_new)


def _check_new(scenario: Scenario) -> None:
    """``check``, and for a new game (not one already recorded) empire ids that keep their
    armies' names apart: an empire ``red-b`` beside ``red`` would let red name an army
    ``red-b-1`` and learn from "the name is taken" of red-b's unseen army (AE-17)."""
    ids = [e.id for e in scenario.empires]
    for i, emp in enumerate(scenario.empires):
        for other in ids:
            if other != emp.id and emp.id.startswith(f"{other}-"):
                raise _bad(
                    f"$.empires[{i}].id",
                    f"empire id {emp.id!r} begins like {other!r}'s army names ('{other}-...', "
                    "AE-17): name the empires apart",
                )
    check(scenario)


#: AE-61: since version 15 the recorded scenario holds each empire's armies and minefields under
#: that empire (``recorded_by_empire``), each list sealed whole for it, so that ``game_created``
#: tells nobody how many the other empire has. Version 14 and before listed them at the top
#: level and sealed each entry on its own, so that the other empire counted its seals
HIDDEN_SETUP_BY_EMPIRE_SINCE = 15

#: the scenario's lists of hidden set-up entries, each held under its empire since version 15
BY_EMPIRE = ("armies", "minefields")


def recorded_by_empire(scenario: Scenario) -> dict[str, Any]:
    """``scenario`` as ``game_created`` records it since version 15 (AE-61): each empire's
    ``armies`` and ``minefields`` under it, in the scenario's order, an empty list where it has
    none; neither list at the top level."""
    out: dict[str, Any] = msgspec.to_builtins(scenario)
    entries = {field: out.pop(field, []) for field in BY_EMPIRE}
    for empire in out["empires"]:
        for field, listed in entries.items():
            empire[field] = [e for e in listed if e["empire"] == empire["id"]]
    return out


#: AE-64: since version 18, in a scenario whose set-up is hidden (not ``public_setup``), the
#: recorded scenario's top-level ``cards`` holds only the card types its public part uses, and
#: each empire's ``cards``, sealed whole for it, the other types its hidden set-up uses
#: (``recorded_catalogue_by_empire``), so that ``game_created`` no longer tells an empire which
#: types the other's hidden set-up holds; a type nobody uses is left out. Since version 18 too
#: a game of a hidden set-up checks every move for minefields (AE-54), whatever its catalogue
CATALOGUE_BY_EMPIRE_SINCE = 18


def public_card_types(scenario: Scenario) -> set[str]:
    """The card types the public part of the set-up uses: each base's own card and its
    facilities (bases are public, AE-17; their garrisons are not)."""
    return {card for base in scenario.bases for card in (base.card, *base.facilities)}


def recorded_catalogue_by_empire(scenario: Scenario) -> dict[str, Any]:
    """``scenario`` as ``game_created`` records it since version 18 when its set-up is hidden
    (AE-64): ``recorded_by_empire``, its top-level ``cards`` only the types of
    ``public_card_types`` and each empire's ``cards`` the types its hidden set-up uses (hand,
    deck, garrisons, armies, minefields) that are not public, an empty list where there are
    none; a type two empires use is listed under both. Each list in the file's order."""
    out = recorded_by_empire(scenario)
    public = public_card_types(scenario)
    catalogue = out["cards"]
    out["cards"] = [card for card in catalogue if card["id"] in public]
    placed = _placed_cards(scenario)
    for empire in out["empires"]:
        own = {card for owner, card in placed if owner == empire["id"]} - public
        empire["cards"] = [card for card in catalogue if card["id"] in own]
    return out


def scenario_from_builtins(obj: dict[str, Any]) -> Scenario:
    """The scenario from its recorded JSON form (``game_created``), checked as a file is: the
    form of version 14 and before, since version 15 each empire's armies and minefields under
    it (``recorded_by_empire``), read back into the top-level lists empire by empire, and since
    version 18 each empire's card types too (``recorded_catalogue_by_empire``), read back into
    one catalogue."""
    return convert_scenario(_flat(obj), Scenario, check)


#: what an empire may hold under it in a recorded scenario: its lists of hidden set-up entries
#: (AE-61) and the card types only its hidden set-up uses (AE-64)
UNDER_AN_EMPIRE = (*BY_EMPIRE, "cards")


def _flat(obj: dict[str, Any]) -> dict[str, Any]:
    """``obj`` with the armies and minefields it holds under its empires (AE-61) listed at the
    top level, empire after empire, each empire's in its order, and the card types it holds
    under them (AE-64) merged into its catalogue (``_merged_catalogue``); ``obj`` itself when
    it holds none there (the form of version 14 and before)."""
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
    if entries["minefields"]:  # none: left out, as a scenario without minefields is recorded
        flat["minefields"] = entries["minefields"]
    under = [(i, e["cards"]) for i, e in enumerate(empires) if isinstance(e, dict) and "cards" in e]
    if under:
        lists = [("$.cards", obj.get("cards", []))]
        flat["cards"] = _merged_catalogue(lists + [(f"$.empires[{i}].cards", c) for i, c in under])
    return flat


def _merged_catalogue(lists: list[tuple[str, Any]]) -> list[Any]:
    """The recorded catalogue's lists (path, list) as one catalogue (AE-64): each card type
    once, each list's order kept (a type placed before the next type of its list already
    merged, else last), so that the lists recorded again from it are the lists read. They are
    for every scenario ``recorded_catalogue_by_empire`` writes: its lists are in the file's one
    order, the public list shares no type with the empires', and the two empires' lists
    (``limits.EMPIRES_PER_GAME``) merge so. Lists in no one order, or three that share types,
    which only a forger writes, may not record again the same: the audit then says the
    scenario is not in its canonical form. A type listed twice must be the same card in both
    places; InputError names the second."""
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


def bundled_names() -> list[str]:
    """The names of the scenarios shipped in ``domain/armageddon_empires/scenarios``."""
    files = importlib.resources.files("warlog.domain.armageddon_empires.scenarios").iterdir()
    return sorted(f.name.removesuffix(".toml") for f in files if f.name.endswith(".toml"))


def bundled(name: str) -> Scenario:
    """A bundled scenario by name; InputError naming the known ones if there is none."""
    if name not in bundled_names():
        raise InputError(
            f"no bundled scenario {name!r}; known: {', '.join(bundled_names())}",
            "input/unknown_scenario",
        )
    pkg = importlib.resources.files("warlog.domain.armageddon_empires.scenarios")
    return parse_scenario(pkg.joinpath(f"{name}.toml").read_bytes())


def catalogue(scenario: Scenario) -> dict[str, CardEntry]:
    """The card types by id, abilities parsed; InputError names the card's path."""
    out: dict[str, CardEntry] = {}
    for i, spec in enumerate(scenario.cards):
        if spec.id in out:
            raise _bad(f"$.cards[{i}].id", f"card id {spec.id!r} is used twice")
        for j, _ in enumerate(spec.abilities):
            try:
                entry(msgspec.structs.replace(spec, abilities=spec.abilities[j : j + 1]))
            except InputError as exc:
                raise _bad(f"$.cards[{i}].abilities[{j}]", exc.message) from None
        if isinstance(spec, TacticCard):
            whole = spec.effect in WHOLE_POOL_EFFECTS
            if whole and spec.amount:
                raise _bad(f"$.cards[{i}].amount", f"'{spec.printed()}' takes no X (p.51)")
            if not whole and not spec.amount:
                raise _bad(f"$.cards[{i}].amount", f"{spec.effect} needs its X, 1 to 10 (p.51)")
        out[spec.id] = entry(spec)
    return out


def board_terrain(scenario: Scenario) -> dict[str, str]:
    """The terrain name of every hex of the map, by ``"q,r"``; InputError names the bad row."""
    m = scenario.map
    table = terrain_table(scenario.terrain)
    legend = {**DEFAULT_LEGEND, **m.legend}
    for token, name in m.legend.items():
        if name not in table:
            raise _bad(
                f"$.map.legend.{token}", f"unknown terrain {name!r}; known: {', '.join(table)}"
            )
    if len(m.rows) != m.height:
        raise _bad("$.map.rows", f"{len(m.rows)} rows for a map {m.height} hexes high")
    out: dict[str, str] = {}
    for r, row in enumerate(m.rows):
        tokens = row.split()
        if len(tokens) != m.width:
            raise _bad(f"$.map.rows[{r}]", f"{len(tokens)} hexes for a map {m.width} hexes wide")
        for q, token in enumerate(tokens):
            if token not in legend:
                raise _bad(f"$.map.rows[{r}]", f"{token!r} (hex {q},{r}) is not in the legend")
            out[f"{q},{r}"] = legend[token]
    for key in m.resources:
        _hex_on_map(f"$.map.resources['{key}']", key, out)
    return out


def _hex_on_map(path: str, text: str, terrain: dict[str, str]) -> str:
    try:
        h = Hex.parse(text)
    except InputError as exc:
        raise _bad(path, exc.message) from None
    if str(h) not in terrain:
        raise _bad(path, f"hex {h} is not on the map")
    return str(h)


def check(scenario: Scenario) -> None:
    """Raise InputError ``input/bad_scenario`` naming the first field that breaks a rule."""
    cards = catalogue(scenario)
    terrain = board_terrain(scenario)
    if len(scenario.empires) != EMPIRES_PER_GAME:
        raise _bad(
            "$.empires",
            f"this version plays exactly {EMPIRES_PER_GAME} empires, found {len(scenario.empires)}",
        )
    empires: set[str] = set()
    for i, emp in enumerate(scenario.empires):
        if emp.id in empires:
            raise _bad(f"$.empires[{i}].id", f"empire id {emp.id!r} is used twice")
        empires.add(emp.id)
        for field in ("hand", "deck"):
            for j, card in enumerate(getattr(emp, field)):
                _known_card(f"$.empires[{i}].{field}[{j}]", card, cards)
        if len(emp.hand) + emp.deal > emp.hand_limit:
            raise _bad(
                f"$.empires[{i}].deal",
                f"{len(emp.hand)} cards in hand and {emp.deal} dealt, over hand_limit {emp.hand_limit}",
            )
        if emp.deal > len(emp.deck):
            raise _bad(
                f"$.empires[{i}].deal", f"{emp.deal} cards dealt from a deck of {len(emp.deck)}"
            )
        if len(emp.deck) > MAX_SIDES:
            raise _bad(
                f"$.empires[{i}].deck",
                f"{len(emp.deck)} cards: a draw picks one with a single die, which has at most "
                f"{MAX_SIDES} sides (the dice contract)",
            )
    base_owner: dict[str, str] = {}  # hex -> the empire with a base there
    army_owner: dict[str, str] = {}  # hex -> its empire with a combat-capable army unstealthed
    base_at: dict[str, str] = {}
    armies_at: dict[tuple[str, str], int] = {}
    ids: set[str] = set()
    strongholds: dict[str, int] = {}
    for i, base in enumerate(scenario.bases):
        path = f"$.bases[{i}]"
        _check_base(path, base, cards, empires)
        _check_damage(f"{path}.damage", base.damage, [base.card, *base.facilities], cards)
        at = _hex_on_map(f"{path}.at", base.at, terrain)
        for name in (base.id, garrison_id(base.id)):
            if name in ids:
                raise _bad(f"{path}.id", f"id {name!r} is used twice")
            ids.add(name)
        if at in base_at:
            raise _bad(f"{path}.at", f"hex {at} already holds base {base_at[at]!r}")
        base_at[at] = base.id
        base_owner[at] = base.empire
        armies_at[base.empire, at] = armies_at.get((base.empire, at), 0) + 1
        if base.kind == "stronghold":
            strongholds[base.empire] = strongholds.get(base.empire, 0) + 1
    for emp in scenario.empires:
        if strongholds.get(emp.id, 0) != 1:
            raise _bad(
                "$.bases",
                f"empire {emp.id!r} has {strongholds.get(emp.id, 0)} strongholds; "
                "it needs exactly one, the card with HQ (p.15)",
            )
    for i, army in enumerate(scenario.armies):
        path = f"$.armies[{i}]"
        if army.id in ids:
            raise _bad(f"{path}.id", f"id {army.id!r} is used twice")
        ids.add(army.id)
        if army.empire not in empires:
            raise _bad(f"{path}.empire", f"unknown empire {army.empire!r}")
        for other in empires - {army.empire}:
            if army.id.startswith(f"{other}-"):
                raise _bad(
                    f"{path}.id",
                    f"{army.id!r} belongs to {army.empire} but is named like {other}'s armies "
                    "('<empire>-...', AE-17)",
                )
        at = _hex_on_map(f"{path}.at", army.at, terrain)
        if army.hero is not None:
            _card_of_kind(f"{path}.hero", army.hero, cards, HeroCard)
        for j, unit in enumerate(army.units):
            _card_of_kind(f"{path}.units[{j}]", unit, cards, UnitCard)
        if base_owner.get(at, army.empire) != army.empire:
            raise _bad(
                f"{path}.at",
                f"hex {at} holds {base_owner[at]!r}'s base; a game starts with no siege nor battle",
            )
        _check_damage(
            f"{path}.damage", army.damage, [c for c in (army.hero, *army.units) if c], cards
        )
        if army.stealthed:
            plain = [c for c in (army.hero, *army.units) if c and not has_stealth(cards[c])]
            if plain or not (army.hero or army.units):
                raise _bad(
                    f"{path}.stealthed", "every card of a stealthed army has Stealth X (p.27)"
                )
        elif army.units and army_owner.setdefault(at, army.empire) != army.empire:
            raise _bad(
                f"{path}.at",
                f"hex {at} holds a combat-capable army of {army_owner[at]!r} that is not "
                "stealthed; a game starts with no battle (only a hero alone may share a hex "
                "with its hunters, p.30)",
            )
        armies_at[army.empire, at] = armies_at.get((army.empire, at), 0) + 1
        if armies_at[army.empire, at] > MAX_ARMIES_PER_HEX:
            raise _bad(
                f"{path}.at", f"more than {MAX_ARMIES_PER_HEX} armies of one empire in hex {at}"
            )
    _check_card_counts(scenario)
    enemies_at = {(a.empire, str(Hex.parse(a.at))) for a in scenario.armies}
    mined: set[str] = set()
    for i, mine in enumerate(placed_minefields(scenario)):
        _check_minefield(f"$.minefields[{i}]", mine, cards, empires, terrain, ids, mined)
        at = str(Hex.parse(mine.at))
        if at in base_at:
            raise _bad(
                f"$.minefields[{i}].at",
                f"hex {at} holds base {base_at[at]!r}; a minefield "
                "stands in the open (p.32; AE-50)",
            )
        if any((e, at) in enemies_at for e in empires - {mine.empire}):
            raise _bad(
                f"$.minefields[{i}].at",
                f"hex {at} holds an army of another empire; a game starts with nobody in an "
                "enemy minefield (AE-51)",
            )


def _check_card_counts(scenario: Scenario) -> None:
    """At most ``LAST_CARD_NUMBER`` cards of one type in an empire's set-up (AE-62)."""
    counts: dict[tuple[str, str], int] = {}
    for empire, card in _placed_cards(scenario):
        counts[empire, card] = counts.get((empire, card), 0) + 1
        if counts[empire, card] > LAST_CARD_NUMBER:
            raise _bad(
                "$",
                f"{empire} holds more than {LAST_CARD_NUMBER} {card!r} cards; a card of a hidden "
                f"set-up is numbered at random from 1 to {LAST_CARD_NUMBER} (AE-62)",
            )


def _placed_cards(scenario: Scenario) -> list[tuple[str, str]]:
    """(empire, card type) of every card of the set-up."""
    out = [(b.empire, c) for b in scenario.bases for c in (b.card, *b.facilities, *b.garrison)]
    out += [(a.empire, c) for a in scenario.armies for c in (a.hero, *a.units) if c]
    out += [(e.id, c) for e in scenario.empires for c in (*e.hand, *e.deck)]
    return out + [(m.empire, m.card) for m in placed_minefields(scenario)]


def _check_minefield(
    path: str,
    mine: MinefieldSpec,
    cards: dict[str, CardEntry],
    empires: set[str],
    terrain: dict[str, str],
    ids: set[str],
    mined: set[str],
) -> None:
    if mine.id in ids:
        raise _bad(f"{path}.id", f"id {mine.id!r} is used twice")
    ids.add(mine.id)
    if mine.empire not in empires:
        raise _bad(f"{path}.empire", f"unknown empire {mine.empire!r}")
    card = _known_card(f"{path}.card", mine.card, cards)
    if card.kind != "facility" or level(card.abilities, MINEFIELD) < 1:
        raise _bad(
            f"{path}.card",
            f"{mine.card!r} is not a facility with Minefield X (its attack dice, AE-50)",
        )
    limit = damage_limit(card.spec)
    if mine.damage >= limit:
        raise _bad(
            f"{path}.damage", f"damage {mine.damage}: 0 to {limit - 1} (at {limit} it is removed)"
        )
    at = _hex_on_map(f"{path}.at", mine.at, terrain)
    if at in mined:
        raise _bad(f"{path}.at", f"hex {at} already holds a minefield")
    mined.add(at)


def _check_base(path: str, base: BaseSpec, cards: dict[str, CardEntry], empires: set[str]) -> None:
    if base.empire not in empires:
        raise _bad(f"{path}.empire", f"unknown empire {base.empire!r}")
    card = _known_card(f"{path}.card", base.card, cards)
    if card.kind != "facility":
        raise _bad(f"{path}.card", f"{base.card!r} is a {card.kind} card, not a facility")
    if base.kind == "stronghold" and not has(card.abilities, HQ):
        raise _bad(
            f"{path}.card", f"a stronghold's card has HQ; {base.card!r} has not (p.15, p.48)"
        )
    if base.kind == "outpost" and has(card.abilities, HQ):
        raise _bad(f"{path}.card", f"{base.card!r} has HQ, so it is a stronghold, not an outpost")
    slots = card.spec.level if isinstance(card.spec, FacilityCard) else 0
    if len(base.facilities) > slots:
        raise _bad(
            f"{path}.facilities",
            f"{len(base.facilities)} facilities, over the {slots} slots of level {slots} (p.18)",
        )
    for j, fac in enumerate(base.facilities):
        c = _known_card(f"{path}.facilities[{j}]", fac, cards)
        if c.kind != "facility" or has(c.abilities, HQ):
            raise _bad(f"{path}.facilities[{j}]", f"{fac!r} is not a facility without HQ")
    heroes = 0
    units = 0
    for j, card_id in enumerate(base.garrison):
        c = _known_card(f"{path}.garrison[{j}]", card_id, cards)
        if c.kind not in ("hero", "unit"):
            raise _bad(
                f"{path}.garrison[{j}]",
                f"{card_id!r} is a {c.kind} card; garrisons hold heroes and units",
            )
        heroes += c.kind == "hero"
        units += c.kind == "unit"
    if heroes > MAX_HEROES_PER_ARMY or units > MAX_UNITS_PER_ARMY:
        raise _bad(
            f"{path}.garrison",
            f"{heroes} heroes and {units} units; an army holds at most "
            f"{MAX_HEROES_PER_ARMY} hero and {MAX_UNITS_PER_ARMY} units (p.23)",
        )


def _check_damage(
    path: str, damage: dict[str, int], holds: list[str], cards: dict[str, CardEntry]
) -> None:
    for card, amount in damage.items():
        if card not in holds:
            raise _bad(f"{path}.{card}", f"no {card!r} card here to take damage")
        limit = damage_limit(cards[card].spec)
        if not 1 <= amount < limit:
            raise _bad(
                f"{path}.{card}", f"damage {amount}: 1 to {limit - 1} (at {limit} it is destroyed)"
            )


def has_stealth(card: CardEntry) -> bool:
    return has(card.abilities, STEALTH)


def _known_card(path: str, card: str, cards: dict[str, CardEntry]) -> CardEntry:
    if card not in cards:
        raise _bad(path, f"unknown card {card!r}")
    return cards[card]


def _card_of_kind(path: str, card: str, cards: dict[str, CardEntry], kind: type) -> None:
    c = _known_card(path, card, cards)
    if not isinstance(c.spec, kind):
        wanted = "hero" if kind is HeroCard else "unit"
        raise _bad(path, f"{card!r} is a {c.kind} card, not a {wanted}")


def garrison_id(base: str) -> str:
    """The id of the garrison army of base ``base`` (AE-8)."""
    return f"{base}{GARRISON_SUFFIX}"
