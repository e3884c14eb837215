"""The dice a command may be decided with (``core.dice``): where no die may be rolled, asking
for one is a rules error with its own code."""

from __future__ import annotations

import pytest

from warlog.domain.core.dice import NoDice
from warlog.domain.core.errors import RulesError


def test_dice_for_a_context_that_must_not_roll_refuse_every_roll() -> None:
    with pytest.raises(RulesError) as info:
        NoDice().faces(0, 1, 6)
    assert (info.value.code, info.value.message) == (
        "rules/no_dice",
        "this action cannot roll dice here",
    )
