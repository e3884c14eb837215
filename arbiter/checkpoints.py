"""Checkpoints of a recorded game: values of the referee's view at chosen events, which every
replay of the recording must reproduce."""

from __future__ import annotations

import json
from typing import Any

from warlog.arbiter.application import Arbiter


def check_checkpoints(arb: Arbiter, game: str, checkpoints: str | bytes) -> list[str]:
    """What differs from the recorded checkpoints (JSON: ``[{"seq": N, "expect":
    {"dotted.path": value}}]``); empty when every value matches."""
    failures: list[str] = []
    for checkpoint in json.loads(checkpoints):
        view = arb.view(game, checkpoint["seq"])["state"]
        for dotted, want in checkpoint["expect"].items():
            got: Any = view
            for key in dotted.split("."):
                got = got.get(key) if isinstance(got, dict) else None
            if got != want:
                failures.append(f"seq {checkpoint['seq']}: {dotted} is {got!r}, recorded {want!r}")
    return failures
