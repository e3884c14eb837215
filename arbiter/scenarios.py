"""Which scenario a new game plays: a bundled scenario by name, or a TOML file."""

from __future__ import annotations

from pathlib import Path

from warlog.domain import rulesets
from warlog.domain.core.errors import InputError, quoted
from warlog.domain.core.ruleset import AnyRuleset


def resolve_scenario(ruleset: AnyRuleset, scenario: str | None) -> tuple[str, bytes]:
    """``(name, TOML bytes)`` of a bundled scenario name or a file path (None: the default).
    InputError when there is no such scenario or the file cannot be read."""
    if scenario is None:
        scenario = rulesets.default_scenario(ruleset)
        if scenario is None:
            raise InputError(
                f"{ruleset.name} has no bundled scenario; give --scenario FILE", "input/no_scenario"
            )
    bundled = rulesets.bundled_scenario(ruleset, scenario)
    if bundled is not None:
        return scenario, bundled
    path = Path(scenario)
    try:
        found = path.is_file()
    except OSError:  # e.g. a name longer than the file system allows
        found = False
    if found:
        try:
            return path.stem, path.read_bytes()
        except OSError as exc:
            raise InputError(
                f"cannot read scenario {quoted(scenario)}: {exc.strerror}", "input/unreadable"
            ) from None
    known = ", ".join(sorted(rulesets.bundled_scenarios(ruleset))) or "none"
    raise InputError(
        f"unknown scenario {quoted(scenario)}: not a bundled one ({known}) nor a file",
        "input/unknown_scenario",
    )
