"""What a game id may be: 1-64 letters, digits, '_', '.' or '-', starting with a letter or digit."""

from __future__ import annotations

import re

GAME_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
