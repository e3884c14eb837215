"""The error tree: every error is one line of at most ``MAX_LENGTH`` characters."""

from __future__ import annotations

from warlog.domain.core.errors import InputError, WarlogError, quoted


def test_a_long_message_is_cut_to_max_length_characters_ending_in_an_ellipsis() -> None:
    """Given a message longer than ``MAX_LENGTH`` over several lines (a refusal quoting a
    user's input), when it is raised, then its message is one line of exactly ``MAX_LENGTH``
    characters, the last an ellipsis, and the CLI's line quotes it whole after its code."""
    error = InputError("word \n" * 200, "input/bad_json")
    assert "\n" not in error.message
    assert len(error.message) == WarlogError.MAX_LENGTH
    assert error.message.endswith("word…")
    assert error.line() == f"error[input/bad_json]: {error.message}"


def test_a_name_given_as_bytes_is_quoted_as_text_with_bad_bytes_replaced() -> None:
    """Given a name a user sent as raw bytes, one of them not UTF-8, when a refusal quotes it,
    then it reads as text with the bad byte replaced, not as a bytes literal."""
    assert quoted(b"ork \xff  boyz") == repr("ork \ufffd boyz")
