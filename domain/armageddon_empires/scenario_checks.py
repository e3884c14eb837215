"""Reading a scenario: the TOML file decoded by msgspec into ``scenario``'s Structs, then
checked field by field.

Every error names the path of the bad field (``$.armies[2].units[0]: unknown card 'x'``) and is
an InputError ``input/bad_scenario`` (exit 1). The fields are documented in docs/scenarios.md.
"""

import importlib.resources

import msgspec

from warlog.domain.armageddon_empires.abilities import (
    HQ,
    MINEFIELD,
    QUALIFIES,
    STEALTH,
    Played,
    has,
    level,
    parse_ability,
    played_in,
)
from warlog.domain.armageddon_empires.cards import (
    INDEPENDENT,
    WHOLE_POOL_EFFECTS,
    CardEntry,
    FacilityCard,
    HeroCard,
    TacticCard,
    UnitCard,
    damage_limit,
    entry,
    kind_of,
    with_article,
)
from warlog.domain.armageddon_empires.creators import CREATORS
from warlog.domain.armageddon_empires.limits import (
    EMPIRES_PER_GAME,
    LAST_CARD_NUMBER,
    MAX_ARMIES_PER_HEX,
    MAX_HEROES_PER_ARMY,
    MAX_UNITS_PER_ARMY,
    RESEARCH_OFFER,
)
from warlog.domain.armageddon_empires.resources import NOTHING
from warlog.domain.armageddon_empires.scenario import (
    BaseSpec,
    MinefieldSpec,
    Research,
    ResearchEntry,
    Scenario,
    controller,
    garrison_id,
    placed_cards,
    placed_minefields,
    research_lists,
)
from warlog.domain.armageddon_empires.terrain import DEFAULT_LEGEND, terrain_table
from warlog.domain.core.errors import InputError
from warlog.domain.core.hexgrid import Hex
from warlog.domain.core.scenario import bad_scenario, decode_scenario

_bad = bad_scenario


def parse_scenario(data: bytes | str) -> Scenario:
    """The scenario in TOML ``data``, checked for a new game; InputError ``input/bad_scenario``
    names the path."""
    return decode_scenario(data, Scenario, _check_new)


def _check_new(scenario: Scenario) -> None:
    """``check``, and for a new game (not one already recorded) empire ids that keep their
    armies' names apart: an empire ``red-b`` beside ``red`` would let red name an army
    ``red-b-1`` and learn from "the name is taken" of red-b's unseen army (AE-17); and research
    entries a card of the scenario can reach (``_check_reachable``: a recorded scenario of a
    hidden set-up leaves out the card types nobody uses, AE-64)."""
    ids = [e.id for e in scenario.empires]
    for i, emp in enumerate(scenario.empires):
        for other in ids:
            if other != emp.id and emp.id.startswith(f"{other}-"):
                raise _bad(
                    f"$.empires[{i}].id",
                    f"empire id {emp.id!r} begins like {other!r}'s army names ('{other}-...', "
                    "AE-17): name the empires apart",
                )
    cards = catalogue(scenario)
    _check(scenario, cards)
    _check_reachable(research_lists(scenario), cards)


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
    """The terrain name of every hex of the map, by ``"q,r"`` (AE-1: row r lists hexes (0,r) …
    (width−1,r), one legend token each); InputError names the bad row."""
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
    _check(scenario, catalogue(scenario))


def _check(scenario: Scenario, cards: dict[str, CardEntry]) -> None:
    """``check``, given the scenario's catalogue (``catalogue``), parsed once."""
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
    _check_research(scenario, cards)
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
        owner = controller(mine)
        if any((e, at) in enemies_at for e in empires - {owner}):
            raise _bad(
                f"$.minefields[{i}].at",
                f"hex {at} holds an army; a game starts with nobody in an independent "
                "minefield (AE-51, AE-67)"
                if owner == INDEPENDENT
                else f"hex {at} holds an army of another empire; a game starts with nobody in "
                "an enemy minefield (AE-51)",
            )


#: AE-70: the rules version since which a new scenario may give a card only the abilities the
#: rules play (``abilities.PLAYED``), each on the kinds of card it works on; before, every ability
#: of the catalogue was accepted on any card, and those no rule reads there did nothing
PLAYED_ONLY_SINCE = 26


def check_played(scenario: Scenario, version: int) -> None:
    """AE-70: since version 26 raise InputError ``input/bad_scenario`` naming the first card
    ability no rule of these rules plays (``abilities.played_in`` the version), or plays on a card
    of another kind (``Played.kinds``): its field, its card, the card's kind and the version;
    (since version 27, AE-71, AE-72) one that qualifies an ability its card does not print
    (``abilities.QUALIFIES``): its field, its card and both abilities; and (since version 28,
    AE-73) a Tactician X or Technologist X whose research list offers nothing."""
    if version < PLAYED_ONLY_SINCE:
        return
    played_here = played_in(version)  # AE-72: sabotage's since version 27
    for i, spec in enumerate(scenario.cards):
        kind = kind_of(spec)
        names = [parse_ability(p, card=spec.id, kind=kind).name for p in spec.abilities]
        for j, (printed, name) in enumerate(zip(spec.abilities, names, strict=True)):
            played = played_here.get(name)
            if played is None:
                raise _bad(
                    f"$.cards[{i}].abilities[{j}]",
                    f"card {spec.id!r}: {printed!r} is not played by version {version} of these "
                    "rules, which would ignore it (AE-70); docs/scenarios.md lists the "
                    "abilities they play",
                )
            if kind not in played.kinds:
                raise _bad(
                    f"$.cards[{i}].abilities[{j}]",
                    f"card {spec.id!r}, {with_article(kind)} card: {printed!r} is played by "
                    f"version {version} of these rules on {' and '.join(played.kinds)} cards "
                    f"only, and would do nothing on {with_article(kind)} card (AE-70); "
                    "docs/scenarios.md lists the "
                    "abilities they play and the cards they play them on",
                )
        _check_qualified(i, spec.id, names, played_here)
        _check_offered(i, spec.id, names, played_here, scenario)


def _check_qualified(i: int, card: str, names: list[str], played: dict[str, Played]) -> None:
    """A Master Assassin or Slayer without Assassin X, a Master Saboteur or Demolitionist without
    Saboteur X, would do nothing (p.45; ``abilities.QUALIFIES``): refused, naming both."""
    for j, name in enumerate(names):
        needed = QUALIFIES.get(name)
        if needed is None or name not in played or needed in names:
            continue
        raise _bad(
            f"$.cards[{i}].abilities[{j}]",
            f"card {card!r}: {name!r} works on the card's own {needed} X, which it does not "
            f"print, and would do nothing without it (p.45; AE-70); give it {needed} X too",
        )


def _check_research(scenario: Scenario, cards: dict[str, CardEntry]) -> None:
    """AE-73: each research list offers at most ``RESEARCH_OFFER`` cards (the manual's six,
    digest §8.5), each once, each a known card of a kind its ability creates
    (``creators.CREATORS``), each with a threshold of at least 1."""
    lists = research_lists(scenario)
    for ability, creator in CREATORS.items():
        path = f"$.research.{creator.key}"
        entries = getattr(lists, creator.key)
        if len(entries) > RESEARCH_OFFER:
            raise _bad(
                path,
                f"{len(entries)} cards; a {ability} is offered at most {RESEARCH_OFFER} to pick "
                "from (digest §8.5; AE-73)",
            )
        listed: set[str] = set()
        for i, item in enumerate(entries):
            card = _known_card(f"{path}[{i}].card", item.card, cards)
            if card.kind not in creator.creates:
                made = " and ".join(f"{k} cards" for k in creator.creates)
                raise _bad(
                    f"{path}[{i}].card",
                    f"{item.card!r} is {with_article(card.kind)} card; a {ability} creates {made} "
                    "(digest §8.5; AE-73)",
                )
            if item.card in listed:
                raise _bad(f"{path}[{i}].card", f"{item.card!r} is listed twice")
            listed.add(item.card)
            if item.threshold < 1:
                raise _bad(
                    f"{path}[{i}].threshold",
                    f"threshold {item.threshold}: at least 1, the successes the hero needs "
                    "(p.28; AE-73)",
                )
    _check_one_price(lists)


def _check_reachable(lists: Research, cards: dict[str, CardEntry]) -> None:
    """AE-73: a hero creates a card with his X dice and needs the entry's threshold in
    successes (p.28), spending no fate: an entry whose threshold is above the highest X any hero
    card of the scenario prints for its list's ability would be paid for and never created. Refused,
    naming the entry, its threshold and the best creator the scenario holds (or that it holds
    none). Checked on a new game's scenario, whose catalogue is whole, not on a recorded one,
    which leaves out the card types a hidden set-up does not use (AE-64)."""
    for ability, creator in CREATORS.items():
        best, by = max(
            (
                (level(card.abilities, ability), card_id)
                for card_id, card in cards.items()
                if card.kind == "hero"  # only a hero creates cards (p.45; AE-73)
            ),
            default=(0, ""),
        )
        for i, item in enumerate(getattr(lists, creator.key)):
            if item.threshold <= best:
                continue
            holds = (
                f"the scenario's best is {ability} {best} ({by!r})"
                if best
                else f"no hero card of the scenario prints {ability} X"
            )
            raise _bad(
                f"$.research.{creator.key}[{i}].threshold",
                f"threshold {item.threshold} of {item.card!r}: a {ability} rolls X dice and "
                f"needs that many successes, spending no fate, and {holds}, so nobody could "
                "create it (p.28; AE-73)",
            )


def _check_one_price(lists: Research) -> None:
    """AE-73: every entry of the research lists, of both, costs the same AP and the same
    resources, as AE-54 prices every minefield alike: the AP ``turn_began`` gives an empire and
    its stockpile are public, so a price of its own would tell the other empire which card, or
    which list, an attempt tried. Refused in one line naming each entry priced unlike the first
    and the first's price."""
    entries = [
        (f"{creator.key}[{i}]", item)
        for creator in CREATORS.values()
        for i, item in enumerate(getattr(lists, creator.key))
    ]
    if not entries:
        return
    first_at, first = entries[0]

    def price(item: ResearchEntry) -> str:
        return f"{item.ap} AP" if item.cost == NOTHING else f"{item.ap} AP and {item.cost.text()}"

    unlike = [
        f"{at} {item.card!r} costs {price(item)}"
        for at, item in entries[1:]
        if (item.ap, item.cost) != (first.ap, first.cost)
    ]
    if unlike:
        raise _bad(
            "$.research",
            f"{'; '.join(unlike)}, where {first_at} {first.card!r} costs {price(first)}: every "
            "card of the research lists costs one price, since the AP and the stockpile the "
            "other empire sees would tell it which was tried (AE-73)",
        )


def _check_offered(
    i: int, card: str, names: list[str], played: dict[str, Played], scenario: Scenario
) -> None:
    """A Tactician X or Technologist X whose research list offers nothing would create nothing
    (AE-73; ``creators.CREATORS``): refused, naming the card, the ability and the list."""
    lists = research_lists(scenario)
    for j, name in enumerate(names):
        creator = CREATORS.get(name)
        if creator is None or name not in played or getattr(lists, creator.key):
            continue
        raise _bad(
            f"$.cards[{i}].abilities[{j}]",
            f"card {card!r}: {name!r} creates the cards of the scenario's research list "
            f"[[research.{creator.key}]], which offers none, and would do nothing (AE-70, AE-73); "
            "list what it creates there",
        )


def _check_card_counts(scenario: Scenario) -> None:
    """At most ``LAST_CARD_NUMBER`` cards of one type in an empire's set-up (AE-62)."""
    counts: dict[tuple[str, str], int] = {}
    for empire, card in placed_cards(scenario):
        counts[empire, card] = counts.get((empire, card), 0) + 1
        if counts[empire, card] > LAST_CARD_NUMBER:
            raise _bad(
                "$",
                f"{empire} holds more than {LAST_CARD_NUMBER} {card!r} cards; a card of a hidden "
                f"set-up is numbered at random from 1 to {LAST_CARD_NUMBER} (AE-62)",
            )


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
    # an empire named, even "", must be one; none named: an independent minefield (AE-67)
    if not isinstance(mine.empire, msgspec.UnsetType) and mine.empire not in empires:
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
