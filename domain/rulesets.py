"""The registry of rulesets by name (the name recorded in every game's first event)."""

from __future__ import annotations

import importlib
from typing import Any

from domain.core.errors import InputError

#: name -> "module:attribute" of the ruleset instance
_REGISTRY: dict[str, str] = {
    "armageddon-empires": "domain.armageddon_empires.ruleset:RULESET",
    "battle-for-armageddon": "domain.battle_for_armageddon.ruleset:RULESET",
}


def names() -> list[str]:
    return sorted(_REGISTRY)


def get(name: str) -> Any:
    """The ruleset registered as ``name``; raises InputError naming the known ones."""
    target = _REGISTRY.get(name)
    if target is None:
        raise InputError(
            f"unknown ruleset {name!r}; known: {', '.join(names())}", "input/unknown_ruleset"
        )
    module, attr = target.split(":")
    return getattr(importlib.import_module(module), attr)


def all_rulesets() -> dict[str, Any]:
    return {name: get(name) for name in names()}
