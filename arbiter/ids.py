"""What a game id may be: 1-64 letters, digits, '_', '.' or '-', starting with a letter or digit,
and never what looks like a file (ending in ``.jsonl``): commands that take a game id or an
export file tell them apart by that (``sources.is_file_source``)."""

from __future__ import annotations

import re

from warlog.domain.core.errors import InputError, quoted

GAME_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
#: how a file argument ends (a game id never does)
FILE_SUFFIX = ".jsonl"


def is_game_id(text: str) -> bool:
    return GAME_ID.fullmatch(text) is not None and not text.endswith(FILE_SUFFIX)


def check_game_id(game: str) -> str:
    """``game`` if it is a valid id; InputError otherwise."""
    if not is_game_id(game):
        raise InputError(
            f"bad game id {quoted(game)}: use 1-64 letters, digits, '_', '.' or '-', starting with a "
            f"letter or digit and not ending in {FILE_SUFFIX}",
            "input/bad_game_id",
        )
    return game
