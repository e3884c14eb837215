"""AE-70: the abilities these rules play (``abilities.PLAYED``) and the kinds of card each works
on. Since version 26 a new scenario that gives a card any other ability of the catalogue, or one
of these on a kind of card no rule reads it on, is refused, naming the card (and its kind) and
the ability; games of version 25 and before accept it as they did. docs/scenarios.md lists the
abilities played in PLAYED's words, no rule module reads an ability PLAYED leaves out, and a rule
function reads each on every kind of card it names.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.domain.armageddon_empires.helpers import toml
from warlog.domain.armageddon_empires.abilities import (
    ACADEMY,
    ASSASSIN,
    CATALOGUE,
    LABORATORY,
    MASTER_ASSASSIN,
    PLAYED,
    PLAYED_SINCE,
    QUALIFIES,
    SLAYER,
    TACTICIAN,
    TECHNOLOGIST,
)
from warlog.domain.armageddon_empires.commands import ASSASSINATION_SINCE, CARD_CREATION_SINCE
from warlog.domain.armageddon_empires.creators import CREATORS
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.scenario_checks import bundled_names
from warlog.domain.core.errors import InputError

ROOT = Path(__file__).resolve().parents[3]
RULES = ROOT / "domain" / "armageddon_empires"

#: how each shape of ability is printed in docs/scenarios.md's table, and on a test card
SHAPES = {
    "flag": ("", ""),
    "rated": (" X", " 2"),
    "recce": ("", " S2, R1"),
    "armor": (" -N", " -1"),
    "collateral": (" P% N Atk", " 60% 4 Atk"),
    "wmd": (" A, R", " 10, 15"),
}
#: the abilities no rule reads: the catalogue less those played
UNPLAYED = sorted(set(CATALOGUE) - set(PLAYED))


#: a munition card for the test scenario, which has none
MUNITION = """
[[cards]]
kind = "munition"
id = "shell"
name = "Test Shell"
abilities = ["Collateral 50% 2 Atk"]
"""
#: AE-73: the research list of each ability that creates cards (a Tactician the tactic card
#: ``jab``, a Technologist the test scenario's missile ``dart``), for a scenario whose card
#: prints one: without its list it would create nothing, and is refused; a list no card of the
#: scenario can create from is refused too
RESEARCH = {
    "tactician": """
[[cards]]
kind = "tactic"
id = "jab"
name = "Test Jab"
effect = "dice_plus"
amount = 1

[[research.tactician]]
card = "jab"
threshold = 1
ap = 1
""",
    "technologist": """
[[research.technologist]]
card = "dart"
threshold = 1
ap = 1
""",
}
#: the test scenario's card of each kind that a test gives one more ability: the abilities it
#: prints, and its index in ``$.cards``
CARD_OF_KIND = {
    "hero": ('"Raider 1"', 2),
    "unit": ('"Commando"', 5),
    "facility": ('"AP Bonus 2"', 9),
    "attack": ('"Collateral 60% 4 Atk"', 10),
    "munition": ('"Collateral 50% 2 Atk"', 11),
}
KINDS = sorted(CARD_OF_KIND)


def giving(
    printed: str, kind: str = "hero", *, also: tuple[str, ...] = (), research: str = ""
) -> bytes:
    """The test scenario with its card of ``kind`` (by default the runner, ``$.cards[2]``, a
    hero) printing ``printed`` too, after ``also``; and with the research list of the ability
    ``research`` names, if any (AE-73)."""
    abilities, _ = CARD_OF_KIND[kind]
    text = toml() + MUNITION + (RESEARCH[research] if research else "")
    assert text.count(abilities) == 1
    added = "".join(f', "{a}"' for a in (*also, printed))
    return text.replace(abilities, abilities + added).encode()


def printed(name: str) -> str:
    return name + SHAPES[CATALOGUE[name]][1]


def test_a_scenario_giving_a_card_regenerate_is_refused_naming_the_card_and_the_ability() -> None:
    # given a hero card printing Regenerate 2 (p.46), which no rule of version 28 reads
    with pytest.raises(InputError) as info:
        RULESET.parse_scenario(giving("Regenerate 2"))
    # then the scenario is refused, one line naming the field, the card and the ability
    assert info.value.code == "input/bad_scenario"
    assert info.value.message == (
        "bad scenario: $.cards[2].abilities[1]: card 'runner': 'Regenerate 2' is not played by "
        "version 28 of these rules, which would ignore it (AE-70); docs/scenarios.md lists the "
        "abilities they play"
    )


@pytest.mark.parametrize("name", UNPLAYED)
def test_every_ability_no_rule_reads_is_refused_since_26_and_accepted_under_25(name: str) -> None:
    # given a card printing an ability of the catalogue that no rule reads
    text = giving(printed(name))
    # then this version, as every one since 26, refuses the scenario, naming it
    with pytest.raises(InputError, match=re.escape(f"'{printed(name)}' is not played")):
        RULESET.parse_scenario(text)
    # and a game begun under version 25 accepts it, as it did (its recorded scenario too)
    old = RULESET.at_version("25")
    assert old is not None
    scenario = old.parse_scenario(text)
    assert printed(name) in scenario.cards[2].abilities
    assert old.scenario_from_builtins(old.recorded_scenario(scenario)) == scenario


@pytest.mark.parametrize("name", [ASSASSIN, MASTER_ASSASSIN, SLAYER])
def test_an_ability_played_since_27_is_refused_by_a_scenario_of_version_26(name: str) -> None:
    # given a hero card printing Assassin 2, Master Assassin or Slayer, which version 27 plays
    # (AE-71)
    text = giving(printed(name))
    assert PLAYED_SINCE[name] == ASSASSINATION_SINCE == 27
    beside = (printed(QUALIFIES[name]),) if name in QUALIFIES else ()  # p.45
    accepted = RULESET.parse_scenario(giving(printed(name), also=beside))
    assert printed(name) in accepted.cards[2].abilities
    # then a game begun under version 26 refuses the scenario, as one giving an ability its
    # rules do not play (AE-70)
    old = RULESET.at_version("26")
    assert old is not None
    with pytest.raises(InputError) as info:
        old.parse_scenario(text)
    assert info.value.message == (
        f"bad scenario: $.cards[2].abilities[1]: card 'runner': '{printed(name)}' is not played "
        "by version 26 of these rules, which would ignore it (AE-70); docs/scenarios.md lists "
        "the abilities they play"
    )


@pytest.mark.parametrize("name", [TACTICIAN, TECHNOLOGIST, ACADEMY, LABORATORY])
def test_an_ability_played_since_28_is_refused_by_a_scenario_of_version_27(name: str) -> None:
    # given a hero card printing Tactician 2 or Technologist 2, beside its research list, or a
    # facility card printing Academy or Laboratory, which version 28 plays (AE-73)
    kind = "facility" if name in (ACADEMY, LABORATORY) else "hero"
    _, index = CARD_OF_KIND[kind]
    assert PLAYED_SINCE[name] == CARD_CREATION_SINCE == 28
    research = "" if kind == "facility" else name.lower()
    accepted = RULESET.parse_scenario(giving(printed(name), kind, research=research))
    assert printed(name) in accepted.cards[index].abilities
    # then a game begun under version 27 refuses it, as one giving an ability its rules do not
    # play (AE-70), and its research lists too (AE-73)
    old = RULESET.at_version("27")
    assert old is not None
    with pytest.raises(InputError) as info:
        old.parse_scenario(giving(printed(name), kind))
    assert info.value.message == (
        f"bad scenario: $.cards[{index}].abilities[1]: card '{accepted.cards[index].id}': "
        f"'{printed(name)}' is not played by version 27 of these rules, which would ignore it "
        "(AE-70); docs/scenarios.md lists the abilities they play"
    )
    with pytest.raises(InputError) as info:
        old.parse_scenario(giving(printed(TACTICIAN), research="tactician"))
    assert info.value.message == (
        "bad scenario: $.research: research lists are played since version 28 of these rules; "
        "this game's is 27 (AE-73)"
    )


@pytest.mark.parametrize(
    ("name", "key"), [(TACTICIAN, "tactician"), (TECHNOLOGIST, "technologist")]
)
def test_a_creator_whose_research_list_offers_nothing_is_refused(name: str, key: str) -> None:
    # given a hero printing Tactician 2 or Technologist 2 in a scenario whose research list
    # for it offers nothing (AE-73)
    text = giving(printed(name))
    # then it is refused, one line naming the card, the ability and the list
    with pytest.raises(InputError) as info:
        RULESET.parse_scenario(text)
    assert info.value.message == (
        f"bad scenario: $.cards[2].abilities[1]: card 'runner': '{name}' creates the cards of "
        f"the scenario's research list [[research.{key}]], which offers none, and would do "
        "nothing (AE-70, AE-73); list what it creates there"
    )


def test_a_hero_printing_engineer_is_refused_naming_the_card_its_kind_and_the_ability() -> None:
    # given a hero card printing Engineer 1, which the rules read on units only (p.46)
    with pytest.raises(InputError) as info:
        RULESET.parse_scenario(giving("Engineer 1"))
    # then the scenario is refused, one line naming the field, the card, its kind, the ability
    assert info.value.code == "input/bad_scenario"
    assert info.value.message == (
        "bad scenario: $.cards[2].abilities[1]: card 'runner', a hero card: 'Engineer 1' is "
        "played by version 28 of these rules on unit cards only, and would do nothing on a hero "
        "card (AE-70); docs/scenarios.md lists the abilities they play and the cards they play "
        "them on"
    )


@pytest.mark.parametrize(("name", "needed"), sorted(QUALIFIES.items()))
def test_a_qualifier_printed_without_the_ability_it_qualifies_is_refused_naming_both(
    name: str, needed: str
) -> None:
    # given a hero card printing Master Assassin, Slayer, Master Saboteur or Demolitionist
    # without the Assassin X or Saboteur X they work on (p.45)
    text = giving(printed(name))
    # then version 28 refuses the scenario, one line naming the card and both abilities
    with pytest.raises(InputError) as info:
        RULESET.parse_scenario(text)
    assert info.value.code == "input/bad_scenario"
    assert info.value.message == (
        f"bad scenario: $.cards[2].abilities[1]: card 'runner': '{name}' works on the card's own "
        f"{needed} X, which it does not print, and would do nothing without it (p.45; AE-70); "
        f"give it {needed} X too"
    )
    # and accepts it beside that ability
    with_it = giving(name, also=(printed(needed),))
    assert name in RULESET.parse_scenario(with_it).cards[2].abilities


PAIRS = [(name, kind) for name in sorted(PLAYED) for kind in KINDS]


@pytest.mark.parametrize(("name", "kind"), PAIRS)
def test_an_ability_played_is_accepted_only_on_the_kinds_of_card_it_works_on(
    name: str, kind: str
) -> None:
    # given a card of ``kind`` printing an ability the rules play
    text = giving(printed(name), kind)
    _, index = CARD_OF_KIND[kind]
    if kind in PLAYED[name].kinds:
        # then this version accepts it where the rules read it, beside the ability it
        # qualifies if it qualifies one (p.45)
        qualified = (printed(QUALIFIES[name]),) if name in QUALIFIES else ()
        text = giving(
            printed(name),
            kind,
            also=qualified,
            research=CREATORS[name].key if name in CREATORS else "",
        )
        assert printed(name) in RULESET.parse_scenario(text).cards[index].abilities
        return
    # and refuses it elsewhere, naming the card's kind
    a = "an" if kind == "attack" else "a"
    with pytest.raises(
        InputError, match=re.escape(f"{a} {kind} card: '{printed(name)}' is played")
    ):
        RULESET.parse_scenario(text)
    # while a game begun under version 25 accepts it, as it did
    old = RULESET.at_version("25")
    assert old is not None
    assert printed(name) in old.parse_scenario(text).cards[index].abilities


def test_the_bundled_scenarios_give_only_abilities_played() -> None:
    for name in bundled_names():
        RULESET.parse_scenario((RULES / "scenarios" / f"{name}.toml").read_bytes())


def played_table() -> str:
    """The table docs/scenarios.md holds: every ability PLAYED, in its words."""
    rows = [
        "| ability | on cards | what the rules do with it | manual; rulings |",
        "| --- | --- | --- | --- |",
    ]
    for name, (does, where, kinds) in PLAYED.items():
        shown = f"`{name}{SHAPES[CATALOGUE[name]][0]}`"
        rows.append(f"| {shown} | {', '.join(kinds)} | {does} | {where} |")
    return "\n".join(rows)


def test_docs_list_exactly_the_abilities_played_in_their_words_and_the_others() -> None:
    docs = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    assert played_table() in docs
    others = ", ".join(f"`{name}`" for name in UNPLAYED)
    assert f"play on carrying them. They are: {others}." in " ".join(docs.split())


def rule_sources() -> dict[str, str]:
    """The source of every rule module (abilities.py, which names them all, left out)."""
    return {p.name: p.read_text() for p in RULES.glob("*.py") if p.name != "abilities.py"}


def constants() -> dict[str, str]:
    """abilities.py's constants for ability names: name -> constant."""
    text = (RULES / "abilities.py").read_text()
    return {v: k for k, v in re.findall(r'^([A-Z_]+) = "([^"]+)"$', text, re.MULTILINE)}


def reads(name: str, source: str) -> bool:
    """Whether ``source`` names ability ``name``: as a string, or abilities.py's constant."""
    const = constants().get(name)
    return f'"{name}"' in source or (const is not None and re.search(rf"\b{const}\b", source))


#: the abilities read by their shape, not by name: a rule takes every Recce, damage modifier,
#: collateral damage and WMD a card prints
BY_SHAPE = {
    "recce": r"\brecces\(",
    "armor": r"isinstance\(\w+, Armor\)",
    "collateral": r"isinstance\(\w+, Collateral\)",
    "wmd": r"isinstance\(\w+, Wmd\)",
}


def test_no_rule_module_reads_an_ability_played_leaves_out() -> None:
    sources = rule_sources()
    found = {name: sorted(m for m, s in sources.items() if reads(name, s)) for name in UNPLAYED}
    assert {name: modules for name, modules in found.items() if modules} == {}


def rule_functions() -> dict[str, str]:
    """The source of every function and module-level constant of a rule module, by
    ``module.name``."""
    out: dict[str, str] = {}
    for path in RULES.glob("*.py"):
        if path.name == "abilities.py":
            continue
        source = path.read_text()
        tree = ast.parse(source)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                out[f"{path.stem}.{node.name}"] = ast.get_source_segment(source, node) or ""
        for node in tree.body:
            if isinstance(node, ast.Assign | ast.AnnAssign):
                target = node.targets[0] if isinstance(node, ast.Assign) else node.target
                if isinstance(target, ast.Name) and target.id.isupper():
                    out[f"{path.stem}.{target.id}"] = ast.get_source_segment(source, node) or ""
    return out


def module_constants() -> dict[str, str]:
    """The constants naming abilities in abilities.py and the rule modules: name -> constant."""
    found = constants()
    for path in RULES.glob("*.py"):
        for const, name in re.findall(r'^([A-Z_]+) = "([^"]+)"$', path.read_text(), re.MULTILINE):
            found.setdefault(name, const)
    return found


def readers(name: str, functions: dict[str, str]) -> set[str]:
    """The rule functions that read ability ``name``: by name, constant or shape, or through a
    rule function that does."""
    const = module_constants().get(name)
    shape = BY_SHAPE.get(CATALOGUE[name])

    def direct(source: str) -> bool:
        if shape is not None:
            return re.search(shape, source) is not None
        return f'"{name}"' in source or (
            const is not None and re.search(rf"\b{const}\b", source) is not None
        )

    found = {f for f, source in functions.items() if direct(source)}
    new = set(found)
    while new:
        called = {f.split(".")[1] for f in new}
        new = {
            f
            for f, source in functions.items()
            if f not in found
            and any(re.search(rf"\b{c}\b" if c.isupper() else rf"\b{c}\(", source) for c in called)
        }
        found |= new
    return found


#: how a rule function finds a card of each kind (abilities.Played.kinds)
KIND_FOUND = {
    "hero": r"\.hero\b|\.cards\(\)|\bhero_level\(",
    "unit": r"\.units\b|\.cards\(\)|\bunit\b",
    "facility": r"\bbase\.card\b|\bbase\.facilities\b|\bfacilit(y|ies)\b",
    "attack": r"\bstrike\.card\b|\bAttackCard\b|\bcarried\(",
    "munition": r"\bstrike\.munition\b|\bcarried\(",
}

#: AE-70 the other way round: for each ability played and each kind of card it works on, a rule
#: function that reads the ability on a card of that kind it finds (Supply: none, see PLAYED)
READ_ON: dict[tuple[str, str], str] = {
    ("HQ", "facility"): "hand._deploy_problem",
    ("Barracks", "facility"): "hand._barracks",
    ("AP Bonus", "facility"): "turns.turn_start",
    ("Rapid Reaction", "hero"): "movement.move_cost",
    ("Rapid Reaction", "unit"): "movement.move_cost",
    ("Rapid Reaction", "facility"): "hand._deploy_problem",
    ("Leader", "hero"): "movement.allowance",
    ("Pathfinder", "hero"): "movement.move_cost",
    ("Raider", "hero"): "supply.raider",
    ("Aggressive", "hero"): "ground_combat._round_start",
    ("Military Genius", "hero"): "battlefield.attack_points",
    ("Trickster", "hero"): "retreat.retreat_pool",
    ("Stealth", "hero"): "stealth.stealth_level",
    ("Stealth", "unit"): "stealth.stealth_level",
    ("Recce", "hero"): "observation._read",
    ("Recce", "unit"): "observation._read",
    ("Recce", "facility"): "observation._read",
    ("Sniffer", "facility"): "observation._read",
    ("Camouflage", "facility"): "observation.detection_pool",
    ("Bounty Hunter", "hero"): "capture.bounty_hunter",
    ("Bounty Hunter", "unit"): "capture.bounty_hunter",
    ("Commando", "unit"): "penalties.penalty_terms",
    ("Wave Attack", "unit"): "penalties.commanded",
    ("Mobile Supply", "unit"): "supply.out_of_supply",
    ("Engineer", "unit"): "engineers.engineer_of",
    ("Forward Air Controller", "unit"): "air_to_ground._controllers",
    ("Mobile Launcher", "unit"): "air_launch.launch_point",
    ("Anti-Air", "unit"): "ground_to_air.gunners",
    ("Anti-Air", "facility"): "ground_to_air.gunners",
    ("Anti-Missile", "unit"): "ground_to_air.gunners",
    ("Anti-Missile", "facility"): "ground_to_air.gunners",
    ("Multi-targeting", "unit"): "battlefield.multi_targeting",
    ("Double Attack", "unit"): "battlefield.follow_up",
    ("Area Attack", "unit"): "battlefield.follow_up",
    ("Breakthrough Attack", "unit"): "battlefield.follow_up",
    ("Sniper Attack", "unit"): "battlefield.sniper_target",
    ("Composite Armor", "hero"): "minefields.spring",
    ("Composite Armor", "unit"): "ground_combat.after_strike",
    ("Composite Armor", "facility"): "air_to_ground.strike_damage",
    ("Ceramic Armor", "hero"): "minefields.spring",
    ("Ceramic Armor", "unit"): "ground_combat.after_strike",
    ("Ceramic Armor", "facility"): "air_to_ground.strike_damage",
    ("Hardened", "facility"): "fallout.sheltered",
    ("Minefield", "facility"): "engineers.lay_problem",
    ("Air To Air", "attack"): "intercept.intercept_problem",
    ("HARM", "attack"): "autoplay._ground_fire",
    ("Precision Targeting", "attack"): "air_launch.strike_problem",
    ("Collateral", "attack"): "fallout._roll_collateral",
    ("Collateral", "munition"): "fallout._roll_collateral",
    ("Hydrogen Bomb", "attack"): "fallout._detonate",
    ("Hydrogen Bomb", "munition"): "fallout._detonate",
    ("Grav Warhead", "attack"): "fallout._detonate",
    ("Grav Warhead", "munition"): "fallout._detonate",
    ("Assassin", "hero"): "assassination.legal_assassinations",
    ("Assassin", "unit"): "assassination.legal_assassinations",
    ("Master Assassin", "hero"): "assassination.legal_assassinations",
    ("Slayer", "hero"): "assassination.assassinate",
    ("Saboteur", "hero"): "sabotage.saboteurs",
    ("Saboteur", "unit"): "sabotage.saboteurs",
    ("Master Saboteur", "hero"): "sabotage.saboteurs",
    ("Demolitionist", "hero"): "sabotage.saboteurs",
    ("Counter Intel", "facility"): "sabotage.counter_intel",
    ("Tactician", "hero"): "research.legal_research",
    ("Technologist", "hero"): "research.legal_research",
    ("Academy", "facility"): "research.research_problem",
    ("Laboratory", "facility"): "research.research_problem",
}


def test_every_ability_played_is_read_by_a_rule_on_every_kind_of_card_it_names() -> None:
    functions = rule_functions()
    named = {(name, kind) for name, played in PLAYED.items() for kind in played.kinds}
    # Supply is read by no rule: every stronghold and outpost supplies, whatever it prints
    assert readers("Supply", functions) == set()
    assert set(READ_ON) == named - {("Supply", "facility")}
    wrong = {
        (name, kind): where
        for (name, kind), where in READ_ON.items()
        if where not in readers(name, functions)
        or not re.search(KIND_FOUND[kind], functions[where])
    }
    assert wrong == {}
