"""The error tree: every error is one line of at most ``MAX_LENGTH`` characters."""

from __future__ import annotations

from warlog.domain.core.errors import InputError, WarlogError


def test_a_long_message_is_cut_to_max_length_characters_ending_in_an_ellipsis() -> None:
    """Given a message longer than ``MAX_LENGTH`` over several lines (a refusal quoting a
    user's input), when it is raised, then its message is one line of exactly ``MAX_LENGTH``
    characters, the last an ellipsis, and the CLI's line quotes it whole after its code."""
    error = InputError("word \n" * 200, "input/bad_json")
    assert "\n" not in error.message
    assert len(error.message) == WarlogError.MAX_LENGTH
    assert error.message.endswith("word…")
    assert error.line() == f"error[input/bad_json]: {error.message}"
