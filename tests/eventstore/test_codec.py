"""The codec: ``data`` is exactly the contract's JSON, and every event type round-trips."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import msgspec.inspect as mi
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warlog.domain import rulesets
from warlog.domain.core.events import CORE_EVENTS, Event
from warlog.eventstore.codec import Codec

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=2000)
@given(JSON)
def test_msgspec_writes_exactly_what_json_dumps_writes(value: Any) -> None:
    expected = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    assert msgspec.json.encode(value).decode() == expected


def strategy(info: mi.Type) -> st.SearchStrategy[Any]:
    """A Hypothesis strategy for values of a msgspec type (as msgspec.inspect describes it)."""
    if isinstance(info, mi.AnyType):
        return JSON
    if isinstance(info, mi.NoneType):
        return st.none()
    if isinstance(info, mi.BoolType):
        return st.booleans()
    if isinstance(info, mi.IntType):
        lo = info.ge if info.ge is not None else (info.gt + 1 if info.gt is not None else -(2**31))
        hi = info.le if info.le is not None else (info.lt - 1 if info.lt is not None else 2**31)
        return st.integers(lo, hi)
    if isinstance(info, mi.StrType):
        return st.text(min_size=info.min_length or 0, max_size=info.max_length or 12)
    if isinstance(info, mi.LiteralType):
        return st.sampled_from(info.values)
    if isinstance(info, mi.EnumType):
        return st.sampled_from(list(info.cls))
    if isinstance(info, (mi.ListType, mi.VarTupleType, mi.SetType, mi.FrozenSetType)):
        items = st.lists(
            strategy(info.item_type),
            min_size=info.min_length or 0,
            max_size=min(info.max_length or 4, 4),
        )
        if isinstance(info, mi.VarTupleType):
            return items.map(tuple)
        if isinstance(info, (mi.SetType, mi.FrozenSetType)):
            return items.map(frozenset if isinstance(info, mi.FrozenSetType) else set)
        return items
    if isinstance(info, mi.TupleType):
        return st.tuples(*(strategy(t) for t in info.item_types))
    if isinstance(info, mi.DictType):
        return st.dictionaries(strategy(info.key_type), strategy(info.value_type), max_size=4)
    if isinstance(info, mi.UnionType):
        return st.one_of(*(strategy(t) for t in info.types))
    if isinstance(info, mi.StructType):
        fields = {f.name: strategy(f.type) for f in info.fields}
        return st.fixed_dictionaries(fields).map(lambda kw: info.cls(**kw))
    raise AssertionError(f"no strategy for {info!r}: a new kind of field, extend this test")


def event_types() -> list[tuple[str, type[Event]]]:
    out = [("core", cls) for cls in CORE_EVENTS]
    for name in rulesets.names():  # every registered ruleset
        out += [(name, cls) for cls in rulesets.get(name).event_types]
    return out


@pytest.mark.parametrize(("ruleset", "cls"), event_types(), ids=lambda v: getattr(v, "__name__", v))
@settings(max_examples=40)
@given(data=st.data())
def test_every_event_type_round_trips_through_its_row(
    ruleset: str, cls: type[Event], data: st.DataObject
) -> None:
    codec = Codec(() if ruleset == "core" else rulesets.get(ruleset).event_types)
    event = data.draw(strategy(mi.type_info(cls)))
    type_, text = codec.encode(event)
    assert type_ == cls.type_name()
    assert codec.decode(type_, text) == event
    assert text == json.dumps(json.loads(text), separators=(",", ":"), ensure_ascii=False)
    assert "type" not in json.loads(text) or "type" in {f for f in cls.__struct_fields__}


def test_a_stored_row_that_does_not_decode_is_a_damaged_log_named_by_game_and_seq() -> None:
    """Given rows read from a log, one of them damaged (``{``) or of a type no ruleset knows,
    when the read path decodes them, then StoreError store/corrupt (exit 1) names the game,
    the seq and the type; without seqs, the type alone."""
    from warlog.domain.core.errors import StoreError

    codec = Codec.for_ruleset(rulesets.get("battle-for-armageddon"))
    with pytest.raises(StoreError) as caught:
        codec.decode_all(["dice_revealed", "setup_ended"], ['{"seed":"00"}', "{"], [7, 8], "g1")
    assert (caught.value.code, caught.value.exit_code) == ("store/corrupt", 1)
    assert caught.value.message == (
        "game g1, event 8 (setup_ended) does not decode (bad setup_ended data: Input data was "
        "truncated): the log is damaged; `warlog audit` lists what is wrong"
    )
    with pytest.raises(StoreError) as caught:
        codec.decode_all(["bogus"], ["{}"])
    assert caught.value.message == (
        "a bogus event of the log does not decode (unknown event type 'bogus'): the log is "
        "damaged; `warlog audit GAME` names it"
    )


def test_a_single_event_that_does_not_decode_is_still_an_audit_finding() -> None:
    """``decode`` (what audit and import judge a log with) keeps its IntegrityError."""
    from warlog.domain.core.errors import IntegrityError

    codec = Codec.for_ruleset(rulesets.get("battle-for-armageddon"))
    with pytest.raises(IntegrityError) as caught:
        codec.decode("setup_ended", "{")
    assert (caught.value.code, caught.value.exit_code) == ("audit/bad_event_data", 4)


def test_a_ruleset_whose_event_reuses_a_tag_has_no_codec() -> None:
    """Given a ruleset's event type whose tag is a core event's (``dice_rolled``), when its
    codec is built, then it is refused naming the tag: a stored row of that type would decode
    as either event."""

    class Rolled(Event, tag="dice_rolled"):
        faces: int = 0

    with pytest.raises(ValueError, match="event tag 'dice_rolled' is used twice"):
        Codec([Rolled])
