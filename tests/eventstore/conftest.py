from __future__ import annotations

import itertools
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.toy import SCENARIO, rulesets
from warlog.arbiter.application import Arbiter
from warlog.eventstore.memory_store import MemoryStore

SEED = bytes(range(32))


def fixed_clock():
    counter = itertools.count()
    return lambda: f"2026-11-22T00:00:{next(counter) % 60:02d}.000Z"


@pytest.fixture
def scenario_file(tmp_path: Path) -> str:
    path = tmp_path / "race.toml"
    path.write_bytes(SCENARIO)
    return str(path)


@pytest.fixture
def arbiter() -> Arbiter:
    return Arbiter(
        MemoryStore(), rulesets, clock=fixed_clock(), seeds=lambda: SEED, snapshot_every=4
    )


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A directory another user can reach (pytest's own tmp_path is private to its user)."""
    path = Path(tempfile.mkdtemp(prefix="warlog-test-"))
    path.chmod(0o755)
    yield path
    for root, dirs, files in os.walk(path):
        for name in dirs + files:
            os.chmod(os.path.join(root, name), 0o700)
    path.chmod(0o700)
    shutil.rmtree(path)
