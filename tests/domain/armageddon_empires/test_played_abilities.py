"""AE-70: the abilities these rules play (``abilities.PLAYED``). Since version 26 a new scenario
that gives a card any other ability of the catalogue is refused, naming the card and the
ability; games of version 25 and before accept it as they did. docs/scenarios.md lists the
abilities played in PLAYED's words, and no rule module reads an ability PLAYED leaves out.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.domain.armageddon_empires.helpers import toml
from warlog.domain.armageddon_empires.abilities import CATALOGUE, PLAYED
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


def giving(printed: str) -> bytes:
    """The test scenario with its runner (``$.cards[2]``, a hero) printing ``printed`` too."""
    return toml().replace('"Raider 1"', f'"Raider 1", "{printed}"').encode()


def printed(name: str) -> str:
    return name + SHAPES[CATALOGUE[name]][1]


def test_a_scenario_giving_a_card_regenerate_is_refused_naming_the_card_and_the_ability() -> None:
    # given a hero card printing Regenerate 2 (p.46), which no rule of version 26 reads
    with pytest.raises(InputError) as info:
        RULESET.parse_scenario(giving("Regenerate 2"))
    # then the scenario is refused, one line naming the field, the card and the ability
    assert info.value.code == "input/bad_scenario"
    assert info.value.message == (
        "bad scenario: $.cards[2].abilities[1]: card 'runner': 'Regenerate 2' is not played by "
        "version 26 of these rules, which would ignore it (AE-70); docs/scenarios.md lists the "
        "abilities they play"
    )


@pytest.mark.parametrize("name", UNPLAYED)
def test_every_ability_no_rule_reads_is_refused_under_26_and_accepted_under_25(name: str) -> None:
    # given a card printing an ability of the catalogue that no rule reads
    text = giving(printed(name))
    # then version 26 refuses the scenario, naming it
    with pytest.raises(InputError, match=re.escape(f"'{printed(name)}' is not played")):
        RULESET.parse_scenario(text)
    # and a game begun under version 25 accepts it, as it did (its recorded scenario too)
    old = RULESET.at_version("25")
    assert old is not None
    scenario = old.parse_scenario(text)
    assert printed(name) in scenario.cards[2].abilities
    assert old.scenario_from_builtins(old.recorded_scenario(scenario)) == scenario


@pytest.mark.parametrize("name", sorted(PLAYED))
def test_every_ability_played_is_accepted(name: str) -> None:
    RULESET.parse_scenario(giving(printed(name)))


def test_the_bundled_scenarios_give_only_abilities_played() -> None:
    for name in bundled_names():
        RULESET.parse_scenario((RULES / "scenarios" / f"{name}.toml").read_bytes())


def played_table() -> str:
    """The table docs/scenarios.md holds: every ability PLAYED, in its words."""
    rows = [
        "| ability | what the rules do with it | manual; rulings |",
        "| --- | --- | --- |",
    ]
    for name, (does, where) in PLAYED.items():
        rows.append(f"| `{name}{SHAPES[CATALOGUE[name]][0]}` | {does} | {where} |")
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


def test_every_ability_played_is_read_by_a_rule_module() -> None:
    """Each by name or by its shape; Supply is played by every base whatever it prints (p.24,
    p.48: they all have it)."""
    sources = "\n".join(rule_sources().values())
    unread = [
        name
        for name in PLAYED
        if not (
            re.search(BY_SHAPE[CATALOGUE[name]], sources)
            if CATALOGUE[name] in BY_SHAPE
            else reads(name, sources)
        )
    ]
    assert unread == ["Supply"]
