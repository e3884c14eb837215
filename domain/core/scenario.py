"""Scenario files: TOML decoded by msgspec into a ruleset's typed Structs, then checked.

Every failure is one InputError, ``input/bad_scenario``, naming the path of the bad field.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import msgspec

from warlog.domain.core.errors import InputError

S = TypeVar("S")


def bad_scenario(path: str, message: str) -> InputError:
    """The error for a field that decodes but breaks a rule: ``bad scenario: $.path: message``."""
    return InputError(f"bad scenario: {path}: {message}", "input/bad_scenario")


def decode_scenario(data: bytes | str, type_: type[S], check: Callable[[S], None]) -> S:
    """The scenario in TOML ``data`` as ``type_``, after ``check``; InputError names the path."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(
                f"bad scenario: not UTF-8 text (byte {exc.start + 1})", "input/bad_scenario"
            ) from None
    try:
        scenario = msgspec.toml.decode(data, type=type_)
    except msgspec.ValidationError as exc:
        raise InputError(f"bad scenario: {_cut(str(exc))}", "input/bad_scenario") from None
    except msgspec.DecodeError as exc:
        raise InputError(
            f"bad scenario: not valid TOML: {_cut(str(exc))}", "input/bad_scenario"
        ) from None
    except RecursionError:
        raise InputError("bad scenario: nested too deeply", "input/bad_scenario") from None
    except ValueError as exc:  # a number beyond what a scenario holds
        raise InputError(f"bad scenario: {_cut(str(exc))}", "input/bad_scenario") from None
    check(scenario)
    return scenario


def _cut(text: str, limit: int = 200) -> str:
    """An error text cut to a short line (it may quote the user's file)."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def convert_scenario(obj: dict[str, Any], type_: type[S], check: Callable[[S], None]) -> S:
    """The scenario from its recorded JSON form (``game_created``), checked as a file is."""
    try:
        scenario = msgspec.convert(obj, type_)
    except msgspec.ValidationError as exc:
        raise InputError(f"bad scenario: {exc}", "input/bad_scenario") from None
    check(scenario)
    return scenario
