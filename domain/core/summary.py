"""A state summary a person can read: a headline, what the game waits for, tables of each side's
forces and holdings, and the board as text. Rulesets build one from a player's view (so that it
shows only what that player may see); front ends render it."""

from collections.abc import Sequence

import msgspec


class Table(msgspec.Struct, frozen=True):
    """A titled table of text cells."""

    title: str
    columns: list[str]
    rows: list[list[str]]


class Summary(msgspec.Struct, frozen=True):
    """``headline`` (the clock and phase), ``waiting`` (who must decide what), ``tables``, and
    ``board`` (lines of text: a map) with its ``legend``."""

    headline: str
    waiting: str
    tables: list[Table] = []
    board: list[str] = []
    legend: str = ""


def listed(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return " and ".join(w for w in (", ".join(words[:-1]), *words[-1:]) if w)


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 hive``, ``2 hives`` (``many``: the plural when it is not ``word + "s"``)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"
