"""Reading a command: one JSON object, strictly.

Refused with one line and exit 1: text that is not JSON (naming the line and column), not
UTF-8, nested too deeply, with a number beyond what a command holds, ``NaN`` or ``Infinity``, a
key given twice (which one would count?), nothing at all, or anything but an object. What the refusal
quotes is cut to a short prefix.
"""

from __future__ import annotations

import json
from typing import Any

from warlog.domain.core.errors import InputError, unacceptable_json
from warlog.domain.core.errors import quoted as quote
from warlog.domain.core.rules import unknown_command
from warlog.domain.core.ruleset import AnyRuleset, Command
from warlog.eventstore.codec import decode_command


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise InputError(
                f"command gives the key {quote(key)} twice; give each field once",
                "input/duplicate_key",
            )
        out[key] = value
    return out


#: what `legal` writes after a command of a manual-dice game, before the dice it needs
DICE_NOTE = "# dice:"


def _constant(name: str) -> Any:
    raise InputError(f"command holds {name}, which JSON does not allow", "input/bad_json")


def parse_json_object(text: str | bytes) -> dict[str, Any]:
    """The command's JSON object; InputError naming what is wrong (module doc)."""
    if isinstance(text, str):  # argv may carry undecodable bytes as surrogates
        text = text.encode("utf-8", "surrogateescape")
    try:
        decoded = text.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"command is not UTF-8 text (byte {exc.start + 1})", "input/bad_json"
        ) from None
    decoded = decoded.strip()
    if not decoded:
        raise InputError("the command is empty: give one JSON object", "input/empty_command")
    try:
        raw = json.loads(decoded, object_pairs_hook=_pairs, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        if exc.msg == "Extra data" and decoded[exc.pos :].lstrip().startswith(DICE_NOTE):
            raise InputError(
                f"command is followed by the {quote(DICE_NOTE)} note that `legal` prints in a "
                'manual-dice game: leave the note out and give the faces as a "dice" list in '
                'the command, e.g. {..., "dice": [4, 2]}; a game that rolls its own dice takes '
                "the command alone",
                "input/bad_json",
            ) from None
        raise InputError(
            f"command is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}",
            "input/bad_json",
        ) from None
    except RecursionError:
        raise InputError("command is nested too deeply to be a command", "input/bad_json") from None
    except ValueError as exc:  # e.g. an integer of thousands of digits
        raise InputError(
            f"command is not acceptable JSON: {unacceptable_json(exc)}", "input/bad_json"
        ) from None
    if not isinstance(raw, dict):
        raise InputError(
            f'a command is a JSON object with a "type", not {quote(decoded)}',
            "input/bad_command",
        )
    return raw


def parse_command(ruleset: AnyRuleset, text: str | bytes) -> Command:
    """The typed command of ``ruleset`` from JSON; InputError naming what is wrong (exit 1)."""
    raw = parse_json_object(text)
    known = sorted(c.type_name() for c in _union_members(ruleset.command_type))
    kind = raw.get("type")
    if kind not in known:
        raise unknown_command(ruleset.name, kind, known)
    command: Command = decode_command(ruleset.command_type, raw)
    return command


def _union_members(tp: Any) -> tuple[Any, ...]:
    args = getattr(tp, "__args__", None)
    return tuple(args) if args else (tp,)
