"""Names checked by a pattern end where the text ends: a pattern's ``$`` also matches before a
final line break, so ``"blue-1\\n"`` passed for ``blue-1`` wherever one was checked with
``match`` or a msgspec ``pattern``."""

from __future__ import annotations

import json

import msgspec
import pytest

from warlog.arbiter.commands import parse_command
from warlog.domain.armageddon_empires.cards import Id as CardId
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.core.errors import InputError
from warlog.domain.core.seal import is_seal
from warlog.domain.heroic_battles.scenario import Id as MidgardId


def test_an_army_named_with_a_line_break_after_it_is_a_bad_command() -> None:
    """Given a create_army command whose army is a good name with a line break after it, when
    it is read, then it is refused, ``input/bad_command``, naming the field: else red could
    hold two armies both shown as ``red-x``."""
    command = {"type": "create_army", "player": "red", "army": "red-x\n", "at": "0,0"}
    with pytest.raises(InputError) as told:
        parse_command(RULESET, json.dumps(command))
    assert told.value.code == "input/bad_command"
    assert "$.army" in told.value.message
    command["army"] = "red-x"
    assert parse_command(RULESET, json.dumps(command)).army == "red-x"  # type: ignore[attr-defined]


@pytest.mark.parametrize("id_type", [CardId, MidgardId])
def test_a_scenario_id_with_a_line_break_after_it_is_not_an_id(id_type: object) -> None:
    assert msgspec.json.decode(b'"blue-1"', type=id_type) == "blue-1"
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(b'"blue-1\\n"', type=id_type)


def test_a_seal_whose_digest_has_a_line_break_after_it_is_not_a_seal() -> None:
    digest = "ab" * 32
    assert is_seal({"sealed": digest})
    assert not is_seal({"sealed": digest + "\n"})
