"""Special abilities: typed values parsed from the printed form on a card.

Printed forms (rules digest §9): a bare name (``Barracks``), a name and a level (``Bounty Hunter
2``, ``Air To Air 5``, ``HARM 5``, ``Trickster 2``), a damage modifier (``Composite Armor -1``),
observation (``Recce S5, R1`` on units; ``Recce 2 4`` = range 2, strength 4 on heroes and
facilities, digest §11.3), collateral damage (``Collateral 60% 4 Atk``) and weapons of mass
destruction (``Hydrogen Bomb 10, 15`` = 10 attack dice, 15 radiation).
"""

import functools
import re
from typing import Literal, NamedTuple

import msgspec

from warlog.domain.core.errors import InputError

Shape = Literal["flag", "rated", "recce", "armor", "collateral", "wmd"]


class Flag(msgspec.Struct, frozen=True, tag="flag", tag_field="form"):
    """An ability without a number, e.g. ``Barracks``."""

    name: str

    def printed(self) -> str:
        return self.name


class Rated(msgspec.Struct, frozen=True, tag="rated", tag_field="form"):
    """An ability with a level X, e.g. ``Bounty Hunter 2``."""

    name: str
    level: int

    def printed(self) -> str:
        return f"{self.name} {self.level}"


class Recce(msgspec.Struct, frozen=True, tag="recce", tag_field="form"):
    """Observation: ``strength`` dice projected up to ``range`` hexes (digest §3.2)."""

    strength: int
    range: int
    name: str = "Recce"

    def printed(self) -> str:
        return f"Recce S{self.strength}, R{self.range}"


class Armor(msgspec.Struct, frozen=True, tag="armor", tag_field="form"):
    """A damage modifier on the card that takes damage, e.g. ``Composite Armor -1``."""

    name: str
    damage: int

    def printed(self) -> str:
        return f"{self.name} {self.damage:+d}"


class Collateral(msgspec.Struct, frozen=True, tag="collateral", tag_field="form"):
    """``Collateral P% N Atk``: each army in the hex is hit on a d10 ≤ P/10 by N dice (p.31)."""

    percent: int
    attack: int
    name: str = "Collateral"

    def printed(self) -> str:
        return f"Collateral {self.percent}% {self.attack} Atk"


class Wmd(msgspec.Struct, frozen=True, tag="wmd", tag_field="form"):
    """``Hydrogen Bomb A, R``: an A-dice WMD challenge and R radiation damage (p.31)."""

    name: str
    attack: int
    radiation: int

    def printed(self) -> str:
        return f"{self.name} {self.attack}, {self.radiation}"


Ability = Flag | Rated | Recce | Armor | Collateral | Wmd

# Names the rules read by constant (``PLAYED`` lists every ability they play).
HQ = "HQ"
SUPPLY = "Supply"
BARRACKS = "Barracks"
AP_BONUS = "AP Bonus"
RAPID_REACTION = "Rapid Reaction"
LEADER = "Leader"
PATHFINDER = "Pathfinder"
RAIDER = "Raider"
COMMANDO = "Commando"
MOBILE_SUPPLY = "Mobile Supply"
STEALTH = "Stealth"
RECCE = "Recce"
SNIFFER = "Sniffer"
CAMOUFLAGE = "Camouflage"
BOUNTY_HUNTER = "Bounty Hunter"
ENGINEER = "Engineer"
#: a minefield facility's attack dice (AE-50: the manual does not state them)
MINEFIELD = "Minefield"
#: assassination (p.16, p.28, p.45; AE-71)
ASSASSIN = "Assassin"
MASTER_ASSASSIN = "Master Assassin"
SLAYER = "Slayer"
#: sabotage (p.29, p.45, p.48; AE-72)
SABOTEUR = "Saboteur"
MASTER_SABOTEUR = "Master Saboteur"
DEMOLITIONIST = "Demolitionist"
COUNTER_INTEL = "Counter Intel"
#: card creation (p.28, p.32, p.45; digest §8.5; AE-73): the heroes who create, and the
#: facilities their hex needs (the p.48 list is cut after Hardened, so these two are ours)
TACTICIAN = "Tactician"
TECHNOLOGIST = "Technologist"
ACADEMY = "Academy"
LABORATORY = "Laboratory"

#: every known ability by canonical name and its printed shape (digest §9.1–9.4)
CATALOGUE: dict[str, Shape] = {
    # heroes (p.45)
    RAPID_REACTION: "flag",
    STEALTH: "rated",
    RECCE: "recce",
    TACTICIAN: "rated",
    TECHNOLOGIST: "rated",
    "Geneticist": "rated",
    "Assassin": "rated",
    "Master Assassin": "flag",
    "Slayer": "flag",
    SABOTEUR: "rated",
    MASTER_SABOTEUR: "flag",
    DEMOLITIONIST: "flag",
    "Espionage": "rated",
    "Military Genius": "rated",
    "Aggressive": "rated",
    RAIDER: "rated",
    PATHFINDER: "rated",
    LEADER: "rated",
    "Air Ranger": "rated",
    "Jump Master": "rated",
    "Trickster": "rated",
    # units (p.46–47)
    "Fast Deploy": "flag",
    BOUNTY_HUNTER: "rated",
    ENGINEER: "rated",
    COMMANDO: "flag",
    "Forward Air Controller": "flag",
    "Regenerate": "rated",
    "Mutant Regeneration": "flag",
    MOBILE_SUPPLY: "flag",
    "Mobile Launcher": "flag",
    "Air Assault": "flag",
    "Anti-Air": "rated",
    "Anti-Missile": "rated",
    "Wave Attack": "flag",
    "Multi-targeting": "flag",
    "Double Attack": "flag",
    "Area Attack": "flag",
    "Breakthrough Attack": "flag",
    "Sniper Attack": "flag",
    "Shock Attack": "flag",
    "Regeneration": "flag",
    "Critical Damage": "flag",
    "Berserk": "flag",
    "Vengeance": "flag",
    "Absolute Terror": "flag",
    "Composite Armor": "armor",
    "Ceramic Armor": "armor",
    # facilities (p.48)
    HQ: "flag",
    SUPPLY: "flag",
    BARRACKS: "flag",
    COUNTER_INTEL: "flag",
    AP_BONUS: "rated",
    "Egg Chamber": "flag",
    "Create Thrall": "flag",
    SNIFFER: "rated",
    CAMOUFLAGE: "rated",
    "Hardened": "flag",
    MINEFIELD: "rated",
    "Armory": "flag",
    # AE-73: ours, since the facility list of p.48 is cut: the academy a Tactician creates at,
    # the laboratory a Technologist creates at (digest §8.5, from the official tutorial)
    ACADEMY: "flag",
    LABORATORY: "flag",
    # attack cards and munitions (p.29–31)
    "Air To Air": "rated",
    "HARM": "rated",
    "Precision Targeting": "flag",
    "Collateral": "collateral",
    "Hydrogen Bomb": "wmd",
    "Grav Warhead": "wmd",
    "One Damage Fac Kill": "flag",
    "Tactical Nuclear Warhead": "flag",
    "Neuro Toxin": "rated",
}


class Played(NamedTuple):
    """An ability the rules play (AE-70): what they do with it, where the manual and the
    rulings say so, and the kinds of card it works on (``cards.CardKind``)."""

    does: str
    where: str
    kinds: tuple[str, ...]


# The kinds of card an ability works on, as the rules that read it find it (AE-70).
HEROES = ("hero",)
UNITS = ("unit",)
FACILITIES = ("facility",)  # a stronghold's, an outpost's or a base's facility slot's card
ATTACK_CARDS = ("attack",)
#: the cards of an army: its hero and its units
ARMY_CARDS = ("hero", "unit")
#: the cards deployed in an army or at a base
DEPLOYED = ("hero", "unit", "facility")
#: who fires Ground-To-Air: the cards of a base and the units of armies (AE-41)
GUNNERS = ("unit", "facility")
#: what an air strike flies with: the attack card and the munition it carries (p.31)
FLOWN = ("attack", "munition")

#: AE-70: the abilities the rules of this version play, by canonical name: what they do with
#: it, where the manual and the rulings say so, and the kinds of card it works on.
#: docs/scenarios.md lists them in these words (a test keeps the two alike, finds no rule module
#: that reads any other ability of CATALOGUE, and one reading each on the kinds it names).
#: Since version 26 a new scenario that gives a card another one, or one on a kind of card it
#: does not work on, is refused (``scenario_checks.check_played``): a game would carry it and
#: do nothing with it
PLAYED: dict[str, Played] = {
    HQ: Played("the stronghold's card", "p.15, p.48", FACILITIES),
    SUPPLY: Played(
        "nothing of its own: every stronghold and outpost is a supply source, whatever its "
        "cards print (the manual's print it)",
        "p.24, p.26, p.48; AE-12",
        FACILITIES,
    ),
    BARRACKS: Played("heroes and units deploy into the base's garrison", "p.48; AE-13", FACILITIES),
    AP_BONUS: Played("+X AP a turn", "p.48", FACILITIES),
    RAPID_REACTION: Played("0 AP to deploy and to move", "p.45, p.46; AE-13", DEPLOYED),
    LEADER: Played("+X movement points for the hero's army", "p.45", HEROES),
    PATHFINDER: Played("−X AP for the hero's army's moves", "p.45", HEROES),
    RAIDER: Played("+X supply range for the hero's army", "p.45", HEROES),
    "Aggressive": Played("+X to its side's battle initiative", "p.45; R13, AE-29", HEROES),
    "Military Genius": Played(
        "+X attack and defence to the units of the hero's army", "p.45; AE-29", HEROES
    ),
    "Trickster": Played(
        "its army may retreat before its first round; −X dice to its retreat challenges' pursuers",
        "p.34; AE-28, AE-31",
        HEROES,
    ),
    STEALTH: Played(
        "an army whose every card has it may stealth, at the lowest X", "p.27; AE-23", ARMY_CARDS
    ),
    RECCE: Played(
        "observation checks, and the hunter's dice of a Capture Kill",
        "p.45, p.46, p.48; R2, R7, AE-18",
        DEPLOYED,
    ),
    SNIFFER: Played("X observation dice in its own hex", "p.48; AE-18", FACILITIES),
    CAMOUFLAGE: Played("X detection dice for the base's garrison", "p.48; AE-18", FACILITIES),
    BOUNTY_HUNTER: Played(
        "names a Capture Kill's target, lowers its threshold by X and lends its hero's fate",
        "p.30; R4, AE-21",
        ARMY_CARDS,
    ),
    COMMANDO: Played(
        "an army whose every unit has it is not held to one hex out of supply; since version 26 the unit fights out of supply at full strength",
        "p.46; AE-69",
        UNITS,
    ),
    "Wave Attack": Played(
        "since version 26 the unit neither counts toward its army's Command Rating nor takes its penalty (its attack growing with other wave attackers, told only by secondary sources, is not played)",
        "p.16; AE-68",
        UNITS,
    ),
    MOBILE_SUPPLY: Played("supplies its empire's armies in its own hex", "p.46; AE-12", UNITS),
    ENGINEER: Played(
        "lays and lifts minefields, is not attacked by them, −X dice to their attack",
        "p.46; AE-52, AE-54, AE-55",
        UNITS,
    ),
    "Forward Air Controller": Played(
        "+3 dice to its empire's Air-To-Ground challenges in its hex", "p.46; AE-42", UNITS
    ),
    "Mobile Launcher": Played("its army is a missile launch point", "p.25, p.46; AE-39", UNITS),
    "Anti-Air": Played(
        "X dice of Ground-To-Air against aircraft and helos in its hex", "p.31; AE-41", GUNNERS
    ),
    "Anti-Missile": Played(
        "X dice of Ground-To-Air against missiles in its hex", "p.31; AE-41", GUNNERS
    ),
    "Multi-targeting": Played("splits its attack among several targets", "p.34; AE-30", UNITS),
    "Double Attack": Played("strikes the same target again", "p.34; AE-30", UNITS),
    "Area Attack": Played("strikes another card of the same row", "p.34; AE-30", UNITS),
    "Breakthrough Attack": Played(
        "after a front-row hit, strikes the back row", "p.34; AE-30", UNITS
    ),
    "Sniper Attack": Played("strikes the enemy hero for 1 AP", "p.34; AE-30, AE-58", UNITS),
    "Composite Armor": Played(
        "damage taken −N, not in retreat challenges", "p.34; AE-28, AE-29", DEPLOYED
    ),
    "Ceramic Armor": Played(
        "damage taken −N, not in retreat challenges", "p.34; AE-28, AE-29", DEPLOYED
    ),
    "Hardened": Played(
        "halves conventional damage; shelters a base's garrison from a WMD",
        "p.48; AE-43, AE-48",
        FACILITIES,
    ),
    MINEFIELD: Played("a minefield facility's attack dice", "p.32; AE-50", FACILITIES),
    "Air To Air": Played(
        "intercepts aircraft and helos with X dice", "p.30, p.31; AE-40", ATTACK_CARDS
    ),
    "HARM": Played(
        "X dice against Ground-To-Air fire, which becomes a duel", "p.31; AE-41", ATTACK_CARDS
    ),
    "Precision Targeting": Played("names the Air-To-Ground target", "p.31; AE-42", ATTACK_CARDS),
    "Collateral": Played(
        "collateral damage to the armies of the hex struck", "p.31; AE-45, AE-46", FLOWN
    ),
    "Hydrogen Bomb": Played("a weapon of mass destruction", "p.31; AE-47, AE-48", FLOWN),
    "Grav Warhead": Played("a weapon of mass destruction", "p.31; AE-47, AE-48", FLOWN),
    ASSASSIN: Played(
        "since version 27 makes assassination attempts on the enemy heroes spotted in its hex, "
        "with X dice against the hero's fate",
        "p.16, p.28, p.45; AE-71",
        ARMY_CARDS,
    ),
    MASTER_ASSASSIN: Played(
        "since version 27 names the target of its own assassination attempts",
        "p.45; AE-71",
        HEROES,
    ),
    SLAYER: Played(
        "since version 27 kills with a single wound of its own assassination attempts",
        "p.45; AE-71",
        HEROES,
    ),
    SABOTEUR: Played(
        "since version 27 sabotages a facility of an enemy base in its hex with X dice",
        "p.29, p.45; AE-72",
        ARMY_CARDS,
    ),
    MASTER_SABOTEUR: Played(
        "since version 27 the saboteur names the facility it sabotages", "p.45; AE-72", HEROES
    ),
    DEMOLITIONIST: Played(
        "since version 27 a single point of the saboteur's damage destroys the facility",
        "p.45; R14, AE-72",
        HEROES,
    ),
    COUNTER_INTEL: Played(
        "since version 27 every facility of its hex defends a sabotage with fate equal to its "
        "level, in a duel that wounds the saboteur",
        "p.29, p.48; AE-72",
        FACILITIES,
    ),
    TACTICIAN: Played(
        "since version 28 creates the tactic cards of its scenario's research list, at an "
        "Academy in its hex, with X dice against the card's threshold",
        "p.28, p.45; AE-73",
        HEROES,
    ),
    TECHNOLOGIST: Played(
        "since version 28 creates the attack and munition cards of its scenario's research "
        "list, at a Laboratory in its hex, with X dice against the card's threshold (its "
        "salvage, p.21, is not played)",
        "p.28, p.45; AE-73",
        HEROES,
    ),
    ACADEMY: Played(
        "since version 28 a Tactician in its hex creates cards there (ours: the p.48 list is cut)",
        "digest §8.5; AE-73",
        FACILITIES,
    ),
    LABORATORY: Played(
        "since version 28 a Technologist in its hex creates cards there (ours: the p.48 list is "
        "cut)",
        "digest §8.5; AE-73",
        FACILITIES,
    ),
}

#: AE-70, AE-71, AE-72, AE-73: the version since which the rules play an ability of ``PLAYED``
#: (every other one since version 26, when the check began): a scenario of an earlier version
#: that gives a card one of these is refused, as that version did (``played_in``)
PLAYED_SINCE: dict[str, int] = {
    ASSASSIN: 27,
    MASTER_ASSASSIN: 27,
    SLAYER: 27,
    SABOTEUR: 27,
    MASTER_SABOTEUR: 27,
    DEMOLITIONIST: 27,
    COUNTER_INTEL: 27,
    TACTICIAN: 28,
    TECHNOLOGIST: 28,
    ACADEMY: 28,
    LABORATORY: 28,
}


#: p.45 (digest §9.1): the hero abilities that qualify another the card prints, by the one they
#: qualify: a Master Assassin or a Slayer works on the card's own assassination attempts, a
#: Master Saboteur or a Demolitionist on its own sabotage. Printed without it they do nothing, so
#: a new scenario that gives a card one alone is refused (``scenario_checks.check_played``;
#: AE-70, AE-71, AE-72), since version 27, when the rules play them (``PLAYED_SINCE``)
QUALIFIES: dict[str, str] = {
    MASTER_ASSASSIN: ASSASSIN,
    SLAYER: ASSASSIN,
    MASTER_SABOTEUR: SABOTEUR,
    DEMOLITIONIST: SABOTEUR,
}


def played_in(version: int) -> dict[str, Played]:
    """The abilities ``PLAYED`` by ``version`` of these rules (``PLAYED_SINCE``)."""
    return {name: p for name, p in PLAYED.items() if PLAYED_SINCE.get(name, 0) <= version}


#: other printings of the same ability (digest §11.7: "Rapid Response" on p.23)
ALIASES: dict[str, str] = {
    "Rapid Response": RAPID_REACTION,
    "Collateral Damage": "Collateral",
    "Sniper": "Sniper Attack",
}

#: how each shape is printed, for error messages
EXAMPLES: dict[Shape, str] = {
    "flag": "Barracks",
    "rated": "Bounty Hunter 2",
    "recce": "Recce S5, R1 (units) or Recce 2 4 = range 2, strength 4 (heroes, facilities)",
    "armor": "Composite Armor -1",
    "collateral": "Collateral 60% 4 Atk",
    "wmd": "Hydrogen Bomb 10, 15",
}

#: card kinds whose Recce is printed "Recce X Y" = range X, strength Y (digest §11.3)
RANGE_FIRST_RECCE_KINDS = frozenset({"hero", "facility"})


def _name_pattern(name: str) -> re.Pattern[str]:
    # words of the name separated by spaces or hyphens ("Air-To-Air" = "Air To Air"), any case
    words = r"[\s-]+".join(re.escape(w) for w in name.replace("-", " ").split())
    return re.compile(rf"^{words}(?=\s|$)\s*", re.IGNORECASE)


@functools.cache
def _patterns() -> list[tuple[re.Pattern[str], str]]:
    """Each printed name's pattern and its canonical name, longest printed names first, so that
    "Sniper Attack" is not read as "Sniper" with a parameter. Compiled at the first ability
    read, not at import: a process that reads no scenario (a snapshot holds the cards) never
    needs them."""
    names = {n: n for n in CATALOGUE} | ALIASES
    return [
        (_name_pattern(printed), names[printed]) for printed in sorted(names, key=len, reverse=True)
    ]


# The parameters' printed forms, compiled at their first use (by ``re``'s own cache), as the names are.
_INT = r"\+?(\d{1,3})"
_RATED = rf"^{_INT}$"
_RECCE_LABELLED = r"^S\s*(\d{1,3})\s*,?\s*R\s*(\d{1,3})$"
_RECCE_LABELLED_RS = r"^R\s*(\d{1,3})\s*,?\s*S\s*(\d{1,3})$"
_RECCE_PLAIN = r"^(\d{1,3})\s*,?\s*(\d{1,3})$"
_ARMOR = r"^[-−–]\s*(\d{1,3})$"
_COLLATERAL = r"^(\d{1,3})\s*%\s*(\d{1,3})\s*Atk$"
_WMD = r"^(\d{1,3})\s*,\s*(\d{1,3})$"


@functools.lru_cache(maxsize=4096)
def _split(text: str) -> tuple[str, str] | None:
    """``(canonical name, parameters text)`` of a printed ability, or None if the name is unknown
    (once per printing: every game's set-up and every audit of it reads its scenario's cards)."""
    words = " ".join(text.split())
    for pattern, name in _patterns():
        if m := pattern.match(words):
            return name, words[m.end() :]
    return None


def parse_ability(text: str, *, card: str = "?", kind: str | None = None) -> Ability:
    """The typed ability printed as ``text`` on card ``card`` (of ``kind``: hero, unit, …).

    Raises InputError ``input/unknown_ability`` naming the text and the card when the name is
    not in CATALOGUE, and ``input/bad_ability`` with the expected printing when its numbers are
    malformed.
    """
    split = _split(text)
    if split is None:
        raise InputError(f"card {card!r}: unknown ability {text!r}", "input/unknown_ability")
    name, params = split
    shape = CATALOGUE[name]
    ability = _parse_params(name, shape, params, kind)
    if ability is None and shape == "recce" and re.match(_RECCE_PLAIN, params):
        raise InputError(
            f"card {card!r}: a {kind} card prints Recce as 'Recce S<strength>, R<range>', "
            f"not {text!r} (the 'Recce X Y' order is for heroes and facilities, p.45, p.48)",
            "input/bad_ability",
        )
    if ability is None:
        raise InputError(
            f"card {card!r}: ability {text!r} is not printed as expected, e.g. {EXAMPLES[shape]!r}",
            "input/bad_ability",
        )
    return ability


def _parse_params(name: str, shape: Shape, params: str, kind: str | None) -> Ability | None:
    if shape == "flag":
        return Flag(name) if not params else None
    if shape == "rated":
        m = re.match(_RATED, params)
        return Rated(name, int(m[1])) if m and int(m[1]) >= 1 else None
    if shape == "recce":
        if m := re.match(_RECCE_LABELLED, params, re.IGNORECASE):
            return Recce(strength=int(m[1]), range=int(m[2]))
        if m := re.match(_RECCE_LABELLED_RS, params, re.IGNORECASE):
            return Recce(strength=int(m[2]), range=int(m[1]))
        m = re.match(_RECCE_PLAIN, params)
        if m and (kind is None or kind in RANGE_FIRST_RECCE_KINDS):
            return Recce(strength=int(m[2]), range=int(m[1]))  # "Recce X Y": range X, strength Y
        return None
    if shape == "armor":
        m = re.match(_ARMOR, params)
        return Armor(name, -int(m[1])) if m else None
    if shape == "collateral":
        m = re.match(_COLLATERAL, params, re.IGNORECASE)
        if m and 1 <= int(m[1]) <= 100:
            return Collateral(percent=int(m[1]), attack=int(m[2]))
        return None
    m = re.match(_WMD, params)
    return Wmd(name, int(m[1]), int(m[2])) if m else None


def parse_abilities(
    texts: list[str] | tuple[str, ...], *, card: str = "?", kind: str | None = None
) -> tuple[Ability, ...]:
    """Every ability of a card, in printed order; the first bad one raises as ``parse_ability``."""
    return tuple(parse_ability(t, card=card, kind=kind) for t in texts)


def has(abilities: tuple[Ability, ...], name: str) -> bool:
    """True if one of ``abilities`` is called ``name``."""
    return any(a.name == name for a in abilities)


def level(abilities: tuple[Ability, ...], name: str) -> int:
    """The highest level X of the rated ability ``name`` among ``abilities``, 0 if absent."""
    return max((a.level for a in abilities if isinstance(a, Rated) and a.name == name), default=0)


def recces(abilities: tuple[Ability, ...]) -> list[Recce]:
    """The observation abilities among ``abilities`` (a card may print more than one)."""
    return [a for a in abilities if isinstance(a, Recce)]
