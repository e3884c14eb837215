"""The registry of rulesets (``domain.rulesets``): the scenarios a ruleset bundles, the one
``new`` plays when none is named, and the catalogue of the rulesets that load."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

import pytest

from tests.toy import DiceRace
from warlog.domain import rulesets


class Unbundled(DiceRace):
    """A plug-in ruleset that bundles no scenario at all."""

    scenario_package: ClassVar[str] = ""


class BundledWithoutDefault(DiceRace):
    """A plug-in ruleset that bundles scenarios but names no default."""

    scenario_package: ClassVar[str] = "warlog.domain.armageddon_empires.scenarios"


def test_a_ruleset_with_no_scenario_package_bundles_nothing_and_has_no_default() -> None:
    assert rulesets.bundled_scenarios(Unbundled()) == {}
    assert rulesets.default_scenario(Unbundled()) is None


def test_a_ruleset_naming_no_default_plays_its_first_bundled_scenario() -> None:
    assert rulesets.default_scenario(BundledWithoutDefault()) == "cinder-and-glass"


@pytest.fixture
def broken_plug_in() -> Iterator[str]:
    rulesets.register("broken-plug-in", "tests.no_such_module:RULESET")
    try:
        yield "broken-plug-in"
    finally:
        rulesets.unregister("broken-plug-in")


def test_the_catalogue_leaves_out_a_registered_ruleset_that_does_not_load(
    broken_plug_in: str,
) -> None:
    assert broken_plug_in in rulesets.names()
    listed = [row["name"] for row in rulesets.catalogue()]
    assert broken_plug_in not in listed
    assert {"armageddon-empires", "battle-for-armageddon", "heroic-battles"} <= set(listed)
