"""The registry of rulesets by name (the name recorded in every game's first event), and the
scenarios each one bundles.

A ruleset is registered as ``"package.module:ATTRIBUTE"`` (imported on first use, so that a
command pays only for the rules it plays) or as the ruleset value itself. The bundled scenarios
are the ``*.toml`` files of the ruleset's ``scenario_package``: reading them is the one thing
here that touches package data; the rules never do.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from warlog.domain.core.errors import InputError, quoted
from warlog.domain.core.ruleset import AnyRuleset

if TYPE_CHECKING:
    from importlib import resources

#: name -> "module:attribute" of the ruleset value, or the value itself once loaded
_registry: dict[str, Any] = {
    "armageddon-empires": "warlog.domain.armageddon_empires.ruleset:RULESET",
    "battle-for-armageddon": "warlog.domain.battle_for_armageddon.ruleset:RULESET",
    "heroic-battles": "warlog.domain.heroic_battles.ruleset:RULESET",
}


def register(name: str, ruleset: Any) -> None:
    """Make ``ruleset`` (a value, or ``"module:attribute"`` naming one) playable as ``name``.

    Registering a name again replaces it (tests and plug-ins register their own rulesets).
    """
    _registry[name] = ruleset


def unregister(name: str) -> None:
    """Forget ``name`` (a no-op for a name that is not registered)."""
    _registry.pop(name, None)


def names() -> list[str]:
    return sorted(_registry)


def get(name: str) -> AnyRuleset:
    """The ruleset registered as ``name``; raises InputError naming the known ones (and for a
    name that is not text at all: a damaged log's ``game_created`` may hold anything)."""
    if not isinstance(name, str):
        raise InputError(
            f"the ruleset must be named by text, not {type(name).__name__} {name!r:.40}; known: "
            f"{', '.join(names())}",
            "input/unknown_ruleset",
        )
    target = _registry.get(name)
    if target is None:
        raise InputError(
            f"unknown ruleset {quoted(name)}; known: {', '.join(names())}", "input/unknown_ruleset"
        )
    if isinstance(target, str):
        module, attr = target.split(":")
        target = _registry[name] = getattr(importlib.import_module(module), attr)
    ruleset: AnyRuleset = target
    return ruleset


def all_rulesets() -> dict[str, AnyRuleset]:
    return {name: get(name) for name in names()}


def bundled_scenarios(ruleset: AnyRuleset) -> dict[str, resources.abc.Traversable]:
    """Bundled scenario name -> its TOML resource, from the ruleset's ``scenario_package``
    (empty when it bundles none)."""
    from importlib import resources  # here: most commands never read a bundled scenario

    package = ruleset.scenario_package
    if not package:
        return {}
    try:
        root = resources.files(package)
    except (ModuleNotFoundError, TypeError):
        return {}
    return {
        entry.name.removesuffix(".toml"): entry
        for entry in root.iterdir()
        if entry.name.endswith(".toml")
    }


def bundled_scenario(ruleset: AnyRuleset, name: str) -> bytes | None:
    """The TOML bytes of the bundled scenario ``name``, or None if the ruleset has no such one."""
    found = bundled_scenarios(ruleset).get(name)
    return None if found is None else found.read_bytes()


def default_scenario(ruleset: AnyRuleset) -> str | None:
    """The scenario ``new`` plays when none is named: the ruleset's default, else the first
    bundled one, else None."""
    if ruleset.default_scenario:
        return ruleset.default_scenario
    bundled = sorted(bundled_scenarios(ruleset))
    return bundled[0] if bundled else None


def catalogue() -> list[dict[str, Any]]:
    """Every registered ruleset that loads: ``{"name", "version", "kept_versions",
    "scenarios"}`` (what ``warlog rulesets`` and ``GET /rulesets`` show), sorted by name;
    ``kept_versions`` are the earlier versions it still plays games begun under, newest first."""
    rows = []
    for name in names():
        try:
            ruleset = get(name)
        except (ImportError, InputError):
            continue
        rows.append(
            {
                "name": name,
                "version": ruleset.version,
                "kept_versions": list(ruleset.kept_versions),
                "scenarios": sorted(bundled_scenarios(ruleset)),
            }
        )
    return rows


def scenario_text(name: str, ruleset_name: str | None = None) -> str:
    """The TOML text of the bundled scenario ``name`` (of ``ruleset_name``, or of whichever
    ruleset bundles it); InputError naming the bundled ones if there is no such scenario."""
    candidates = [ruleset_name] if ruleset_name is not None else names()
    found = []
    for candidate in candidates:
        text = bundled_scenario(get(candidate), name)
        if text is not None:
            found.append(text)
    if not found:
        known = sorted({s for n in candidates for s in bundled_scenarios(get(n))})
        raise InputError(
            f"no bundled scenario {quoted(name)}; bundled: {', '.join(known) or 'none'}",
            "input/unknown_scenario",
        )
    return found[0].decode("utf-8")
