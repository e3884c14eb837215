"""A seal's salt is HMAC-SHA256 of its place under the game's key (ARCHITECTURE.md, hidden
information): the hand-rolled RFC 2104 in ``seal.salt_for`` gives what the ``hmac`` module gives."""

from __future__ import annotations

import hashlib
import hmac

from hypothesis import given
from hypothesis import strategies as st

from warlog.domain.core.seal import salt_for, salts_for


@given(
    key=st.binary(min_size=0, max_size=200),  # shorter, equal to and longer than a block
    stream=st.text(max_size=40),
    seq=st.integers(1, 10**9),
    path=st.text(max_size=40),
)
def test_a_salt_is_the_hmac_sha256_of_its_place_under_the_key(
    key: bytes, stream: str, seq: int, path: str
) -> None:
    message = f"seal:{stream}:{seq}:{path}".encode()
    assert salt_for(key, stream, seq, path) == hmac.new(key, message, hashlib.sha256).hexdigest()


@given(
    key=st.binary(min_size=0, max_size=200),
    stream=st.text(max_size=40),
    seq=st.integers(1, 10**9),
    paths=st.lists(st.text(max_size=40), max_size=5),
)
def test_the_salts_of_an_events_paths_are_each_paths_salt(
    key: bytes, stream: str, seq: int, paths: list[str]
) -> None:
    assert salts_for(key, stream, seq, paths) == {p: salt_for(key, stream, seq, p) for p in paths}


def test_the_same_key_gives_the_same_salt_every_time_and_another_key_another() -> None:
    key = bytes(range(32))
    first = salt_for(key, "g1", 7, "dice.faces")
    assert salt_for(key, "g1", 7, "dice.faces") == first
    assert salt_for(bytes(range(1, 33)), "g1", 7, "dice.faces") != first
    assert salt_for(key, "g1", 8, "dice.faces") != first


def test_a_key_longer_than_a_block_is_hashed_first_as_rfc_2104_says() -> None:
    key = bytes(range(100))  # longer than SHA-256's 64-byte block
    message = b"seal:g1:7:dice.faces"
    assert (
        salt_for(key, "g1", 7, "dice.faces") == hmac.new(key, message, hashlib.sha256).hexdigest()
    )
    assert salt_for(key, "g1", 7, "dice.faces") != salt_for(key[:64], "g1", 7, "dice.faces")
