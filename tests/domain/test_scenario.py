"""Scenario files (``core.scenario``): every way a file can be bad is one ``input/bad_scenario``
error of one short line, naming where."""

from __future__ import annotations

import msgspec
import pytest

from warlog.domain.core.errors import InputError
from warlog.domain.core.scenario import convert_scenario, decode_scenario


class Skirmish(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str = ""
    turns: int = 1


def _refusal(data: bytes | str) -> str:
    with pytest.raises(InputError) as info:
        decode_scenario(data, Skirmish, lambda scenario: None)
    assert info.value.code == "input/bad_scenario"
    return info.value.message


def test_a_file_that_is_not_utf8_names_its_first_bad_byte_counted_from_one() -> None:
    assert _refusal(b'name = "\xff"') == "bad scenario: not UTF-8 text (byte 9)"


def test_a_file_nested_too_deeply_or_with_a_number_too_long_to_read_is_refused() -> None:
    assert _refusal("name = " + "[" * 5000 + "]" * 5000) == "bad scenario: nested too deeply"
    assert _refusal("turns = " + "9" * 5000).startswith("bad scenario: Exceeds the limit")


def test_an_error_quoting_the_file_is_cut_to_200_characters() -> None:
    # msgspec's "Object contains unknown field `...`" is 32 characters around the field's name
    whole = _refusal("k" * 168 + " = 1")
    assert whole == f"bad scenario: Object contains unknown field `{'k' * 168}`"
    cut = _refusal("k" * 300 + " = 1")
    assert cut == f"bad scenario: Object contains unknown field `{'k' * 166}..."
    assert len(cut) == len(whole) == len("bad scenario: ") + 200


def test_a_recorded_scenario_is_checked_as_a_file_is() -> None:
    def no_turns(scenario: Skirmish) -> None:
        if scenario.turns < 1:
            raise InputError("bad scenario: $.turns: at least 1", "input/bad_scenario")

    assert convert_scenario({"turns": 3}, Skirmish, no_turns) == Skirmish(turns=3)
    with pytest.raises(InputError, match=r"\$\.turns: at least 1"):
        convert_scenario({"turns": 0}, Skirmish, no_turns)
    with pytest.raises(InputError, match="bad scenario: Expected `int`"):
        convert_scenario({"turns": "three"}, Skirmish, no_turns)
