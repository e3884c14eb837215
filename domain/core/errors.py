"""The error tree: one root, stable namespaced codes, and the exit code each maps to.

Exit codes are a contract (ARCHITECTURE.md, "Errors and exit codes"):
1 bad input or environment, 3 the rules reject the command, 4 audit or import found the log
altered or invalid, 5 another writer appended first. Click's own usage errors are 2.
"""

from __future__ import annotations


class WarlogError(Exception):
    """Root of every error warlog raises on purpose. ``code`` is stable; ``str()`` is one line."""

    exit_code = 1
    default_code = "warlog/error"

    #: the longest message an error carries: what it quotes of a user's input is cut to fit
    MAX_LENGTH = 400

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        line = " ".join(message.split())  # always one line
        if len(line) > self.MAX_LENGTH:
            line = line[: self.MAX_LENGTH - 1] + "…"
        self.message = line
        self.code = code or self.default_code

    def __str__(self) -> str:
        return self.message

    def line(self) -> str:
        """The one line the CLI prints on stderr."""
        return f"error[{self.code}]: {self.message}"


class InputError(WarlogError):
    """Malformed or unknown input: bad JSON, unknown command type or field, bad scenario."""

    exit_code = 1
    default_code = "input/invalid"


class UnknownGame(InputError):
    default_code = "input/unknown_game"


class StoreError(WarlogError):
    """The database file is missing, unreadable, locked, full or corrupt."""

    exit_code = 1
    default_code = "store/unavailable"


class RulesError(WarlogError):
    """The rules reject the command; nothing was appended."""

    exit_code = 3
    default_code = "rules/illegal"


class IntegrityError(WarlogError):
    """Audit or import found the log altered or invalid."""

    exit_code = 4
    default_code = "audit/failed"


class ConflictError(WarlogError):
    """Another writer appended first; nothing was appended, retry."""

    exit_code = 5
    default_code = "store/conflict"


def reject(message: str, code: str) -> RulesError:
    """The RulesError (exit 3) for a command the rules do not allow now: ``code`` is the part
    after ``rules/`` (``reject("...", "bad_target")`` has the code ``rules/bad_target``)."""
    return RulesError(message, f"rules/{code}")


#: the most characters of a user's input an error message quotes
QUOTE_MAX = 60


def quoted(text: str | bytes) -> str:
    """A short, printable prefix of what a user gave, quoted, for an error message."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    text = " ".join(text.split())
    return repr(text if len(text) <= QUOTE_MAX else text[: QUOTE_MAX - 3] + "...")


def unacceptable_json(exc: ValueError) -> str:
    """Why JSON that parsed is still refused, in a reader's words: Python's own message for an
    integer too long to read names an interpreter setting, not the input."""
    if "integer string conversion" in str(exc):
        return "an integer of thousands of digits (no count, seq or die is that long)"
    return str(exc)[:QUOTE_MAX]
