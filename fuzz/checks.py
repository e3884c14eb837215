"""What ``warlog fuzz`` checks after a step, as plain functions, and the failure it raises.

Each check has a stable name (the ``check`` of a failure and of its regression fixture):

- ``crash``: no command (legal or not) and no read makes warlog raise anything but its own
  errors (``internal/bug``);
- ``outcome``: a command listed as legal is accepted; a command known to be illegal is refused
  with a rules error (exit 3) or an input error (exit 1), and a refused command appends nothing;
  one of a type whose legal list the ruleset declares complete (``complete_legal``) is refused
  unless it is listed (any other command neither listed nor known to be illegal may go either
  way: ``expectation``);
- ``purity``: the state a command was decided on is the same afterwards (``decide`` and
  ``evolve`` never change what they are handed);
- ``audit``: the log audits clean (chain, each batch re-derived from its command and dice, each
  roll and seal against the key once it is revealed);
- ``replay``: the live state equals the state replayed from the log;
- ``snapshot``: each snapshot decodes to the replayed state, and the state from the newest
  snapshot plus its tail equals the live state;
- ``invariants``: the ruleset's own invariants hold;
- ``dead_end``: the game is over, or someone may act and has a legal command;
- ``views``: every view renders, and what a player is given is the same in a twin game where
  the other side's hidden draws differ (non-interference).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from typing import Any

import msgspec

from warlog.domain.core.errors import WarlogError
from warlog.domain.core.invariants import Violation
from warlog.domain.core.ruleset import AnyRuleset

CHECKS = (
    "crash",
    "outcome",
    "purity",
    "audit",
    "replay",
    "snapshot",
    "invariants",
    "dead_end",
    "views",
)
#: the longest text of a value a failure message quotes
QUOTE = 160


class Failure(Exception):
    """A check failed: its name, one line saying what, and where a fixture must start to show
    it (``since``: the index of the first step to replay; None: the failing step itself)."""

    def __init__(self, check: str, message: str, since: int | None = None) -> None:
        super().__init__(f"{check}: {message}")
        self.check = check
        self.message = " ".join(message.split())
        self.since = since


def short(value: Any) -> str:
    text = value if isinstance(value, str) else msgspec.json.encode(value).decode()
    return text if len(text) <= QUOTE else text[: QUOTE - 1] + "…"


def first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """Where two JSON-like values first differ, as ``path: A != B`` (None when equal)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}{key}: {'missing' if key not in a else short(a[key])} != " + (
                    "missing" if key not in b else short(b[key])
                )
            found = first_difference(a[key], b[key], f"{path}{key}.")
            if found:
                return found
        return None
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            found = first_difference(x, y, f"{path}{i}.")
            if found:
                return found
        if len(a) != len(b):
            return f"{path.rstrip('.') or 'value'}: {len(a)} items != {len(b)} items"
        return None
    if a != b or type(a) is not type(b):
        return f"{path.rstrip('.') or 'value'}: {short(a)} != {short(b)}"
    return None


def state_difference(a: Any, b: Any) -> str:
    """Where two states first differ (states compared equal by value are not passed here)."""
    found = first_difference(msgspec.to_builtins(a), msgspec.to_builtins(b))
    return found or "they differ in type only"


def command_object(text: str) -> dict[str, Any] | None:
    """The JSON object a step's text holds, None where it holds none (not JSON, or not an
    object): every check that reads a field of a played command's text reads it here."""
    try:
        found = json.loads(text)
    except ValueError:
        return None
    return found if isinstance(found, dict) else None


def command_type(text: str) -> object:
    """The ``type`` a command's JSON text names, None where it names none."""
    command = command_object(text)
    return None if command is None else command.get("type")


def command_issuer(text: str) -> str | None:
    """The ``player`` a command's JSON text names, None where it names none (or not a text)."""
    command = command_object(text)
    player = None if command is None else command.get("player")
    return player if isinstance(player, str) else None


def command_key(command: Any) -> str:
    """A command (a Struct, or its JSON object) as one canonical text, to compare commands."""
    return json.dumps(msgspec.to_builtins(command), sort_keys=True)


def expectation(
    kind: str,
    text: str,
    legal: Callable[[], set[str]],
    waiting: Collection[str],
    answers: Collection[str] | None,
    complete: Collection[str] = (),
    key: Callable[[dict[str, Any]], str] = command_key,
) -> str:
    """What must happen to a step played now, judged by the state it is played in, never by
    the one it was drawn in (a step replayed from another fork point, or under other rules,
    meets another state): ``input`` for malformed input; ``accepted`` for a command the rules
    list as legal now (``legal``: their keys, ``command_key``; ``key``: the step's, by default
    its ``command_key``, the command as the rules decode it in ``Example``, so that a field
    given its default compares equal to one left out); ``refused`` for one that cannot be legal
    now (the game is over: ``answers`` None; its player is not one the game waits for,
    ``waiting``; its type answers nothing the game waits for); ``unlisted`` for one not listed
    whose type is one whose legal list is complete (``complete``: ``Ruleset.complete_legal``),
    which must be refused too; ``either`` otherwise (not listed, yet not known to be illegal:
    the rules may list only some legal commands of its type)."""
    if kind == "malformed":
        return "input"
    command = command_object(text)
    if command is None:
        return "input"
    if key(command) in legal():
        return "accepted"
    if answers is None or command.get("player") not in waiting:
        return "refused"
    if command.get("type") not in answers:
        return "refused"
    if command.get("type") in complete:
        return "unlisted"
    return "either"


def outcome_problem(
    expect: str, error: WarlogError | None, appended: bool, command_type: object = ""
) -> str | None:
    """What is wrong with a step's outcome: ``expect`` is ``accepted``, ``refused`` (a rules or
    input error), ``input`` (an input error), ``unlisted`` (refused, as not listed among the
    legal commands of ``command_type``, whose list is complete) or ``either``; None when it is
    as expected."""
    if error is None:
        if expect in ("refused", "input"):
            return "a command known to be illegal was accepted"
        if expect == "unlisted":
            return (
                f"a {command_type} command was accepted though legal did not list it (the "
                f"ruleset declares {command_type}'s legal list complete: a bug in decide or in "
                "legal)"
            )
        return None
    if appended:
        return f"a refused command appended events ({error.line()})"
    if expect == "accepted":
        return f"a legal command was refused: {error.line()}"
    if error.exit_code not in (1, 3):
        return f"refused with exit {error.exit_code}, not as bad input (1) or by the rules (3): {error.line()}"
    if expect == "input" and error.exit_code != 1:
        return (
            f"malformed input refused as if by the rules (exit {error.exit_code}): {error.line()}"
        )
    return None


def invariants_problem(broken: list[Violation]) -> str | None:
    return "; ".join(v.line() for v in broken[:3]) if broken else None


def dead_end(ruleset: AnyRuleset, state: Any, legal: dict[str, list[Any]]) -> str | None:
    """Why the game can neither go on nor has ended (``legal``: the players the game waits for,
    each with its legal commands), or None."""
    if ruleset.is_terminal(state):
        return None
    decision = ruleset.decision(state)
    waiting = decision.waiting if decision is not None else "an automatic step"
    if not legal:
        return f"the game is not over but waits for nobody ({waiting})"
    if not any(legal.values()):
        return f"the game waits for {waiting} but {', '.join(legal)} has no legal command"
    return None
