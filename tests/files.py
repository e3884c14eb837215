"""File modes, for the tests that hold the key file to being its owner's only."""

from __future__ import annotations

import os
import stat
from pathlib import Path


def mode(path: str | Path) -> int:
    """The permission bits of ``path`` (0o600: its owner's only)."""
    return stat.S_IMODE(os.stat(path).st_mode)
