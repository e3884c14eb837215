"""Card numbers that tell nothing (AE-62, since version 16).

Cards are numbered per empire and card type in set-up order (AE-14, ``setup._Dealer``). In a
custom scenario, whose set-up is hidden (AE-61), such a number seen in play would tell how many
cards of its type the empire placed before it. So when the game opens, unless the scenario
declares its set-up public (``public_setup = true``), each empire rolls ``NUMBERING_DICE``
hidden dice of ``NUMBERING_SIDES`` sides, the same count whatever its set-up holds, and each
card of its hidden set-up (garrisons, armies, hand, deck, minefields) takes a number from 1 to
``LAST_CARD_NUMBER``: the sha256 of those faces, the empire, the card type, the card's place in
the set-up (``army blue-a unit 0``, ``hand 2``, ``minefield blue-m1``) and an attempt, the next
attempt when the number is taken. A card's number depends on its own place and the sealed
faces, never on how many cards of its type come before it; drawn one after another without
repeats, the numbers of any cards the other empire sees are a uniform sample whatever the
count. A base's own card and facilities are public and keep their numbers (``red.keep.1``).
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Sequence

from msgspec.structs import replace

from warlog.domain.armageddon_empires.cards import instance_id
from warlog.domain.armageddon_empires.events import CardsNumbered
from warlog.domain.armageddon_empires.limits import LAST_CARD_NUMBER
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.core.batch import Batch

#: AE-62: the version since which a hidden set-up's cards are numbered at random
CARDS_NUMBERED_UNSEEN_SINCE = 16
#: each empire's dice for its numbers: a fixed count (rolls are public, their count must not
#: hang on the hidden set-up), 128 bits in all
NUMBERING_DICE = 16
NUMBERING_SIDES = 256
#: the ``purpose`` of those dice
NUMBERING_PURPOSE = "card numbers"


def number_cards(batch: Batch[GameState]) -> None:
    """For each empire, its hidden dice and ``cards_numbered``, when the game numbers at random
    (``GameState.numbered_at_random``); nothing otherwise."""
    if not batch.state.numbered_at_random:
        return
    for empire in batch.state.seats:
        faces = batch.roll(
            NUMBERING_DICE,
            NUMBERING_SIDES,
            purpose=NUMBERING_PURPOSE,
            roller=empire,
            hidden=True,
        )
        batch.emit(CardsNumbered(empire=empire, renamed=renaming(batch.state, empire, faces)))


def renaming(state: GameState, empire: str, faces: Sequence[int]) -> dict[str, str]:
    """Each card of ``empire``'s hidden set-up, by its id in set-up order -> its id in play."""
    taken = {c for base in state.bases_of(empire) for c in (base.card, *base.facilities)}
    out: dict[str, str] = {}
    for place, card in hidden_places(state, empire):
        kind = state.instances[card].card
        for attempt in itertools.count():
            new = instance_id(empire, kind, number(faces, empire, kind, place, attempt))
            if new not in taken:
                break
        taken.add(new)
        out[card] = new
    return out


def hidden_places(state: GameState, empire: str) -> list[tuple[str, str]]:
    """``(place, card)`` of every card of ``empire``'s hidden set-up as the game opens, in
    set-up order: garrisons and armies (``army ID hero``, ``army ID unit N``), hand, deck,
    minefields."""
    out: list[tuple[str, str]] = []
    for army in state.armies.values():
        if army.empire == empire:
            if army.hero is not None:
                out.append((f"army {army.id} hero", army.hero))
            out += [(f"army {army.id} unit {i}", c) for i, c in enumerate(army.units)]
    held = state.empires[empire]
    out += [(f"hand {i}", c) for i, c in enumerate(held.hand)]
    out += [(f"deck {i}", c) for i, c in enumerate(held.deck)]
    out += [(f"minefield {m.id}", m.card) for m in state.minefields.values() if m.empire == empire]
    return out


def number(faces: Sequence[int], empire: str, card: str, place: str, attempt: int) -> int:
    """1..``LAST_CARD_NUMBER``, from the sha256 of the faces, the card and its place."""
    text = json.dumps([list(faces), empire, card, place, attempt], separators=(",", ":"))
    digest = hashlib.sha256(text.encode()).digest()
    return int.from_bytes(digest[:8], "big") % LAST_CARD_NUMBER + 1


def renamed(state: GameState, names: dict[str, str]) -> GameState:
    """``state`` with every card id in ``names`` replaced by its new id, wherever the state
    holds card ids as the game opens (no procedure is in progress then)."""

    def new(card: str) -> str:
        return names.get(card, card)

    def each(cards: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(new(c) for c in cards)

    def keys(table: dict[str, int]) -> dict[str, int]:
        return {new(c): v for c, v in table.items()}

    return replace(
        state,
        instances={new(c): i for c, i in state.instances.items()},
        armies={
            k: replace(a, hero=a.hero and new(a.hero), units=state.in_order(each(a.units)))
            for k, a in state.armies.items()
        },
        empires={
            k: replace(
                e,
                hand=each(e.hand),
                deck=each(e.deck),
                discard=each(e.discard),
                face_down=each(e.face_down),
            )
            for k, e in state.empires.items()
        },
        bases={
            k: replace(
                b, card=new(b.card), facilities=each(b.facilities), prisoners=each(b.prisoners)
            )
            for k, b in state.bases.items()
        },
        minefields={k: replace(m, card=new(m.card)) for k, m in state.minefields.items()},
        sightings={
            observer: {
                k: replace(s, hero=s.hero and new(s.hero), units=each(s.units))
                for k, s in seen.items()
            }
            for observer, seen in state.sightings.items()
        },
        damage=keys(state.damage),
        hidden_damage=keys(state.hidden_damage),
        fate_spent=keys(state.fate_spent),
    )


#: AE-73: a card created in play (``research.py``) takes a number at random too, whatever the
#: set-up: the next number of its type would tell the other empire, once it sees the card, how
#: many of its type its empire held, and which of its attempts created it. Every attempt rolls
#: this many hidden dice of ``NUMBERING_SIDES`` sides, the referee's, for it: 65,536 faces
#: read as a number of 1..``LAST_CARD_NUMBER`` as the set-up's are (``number``)
CREATED_NUMBER_DICE = 2
#: the ``purpose`` of those dice
CREATED_NUMBER_PURPOSE = "a created card's number"
#: the place ``number`` reads for a created card (each attempt rolls its own faces)
CREATED_PLACE = "created"


def numbers_taken(state: GameState, empire: str, card: str) -> int:
    """How many of the ids ``empire`` numbers cards of type ``card`` under
    (``<empire>.<card>.<n>``, n from 1 to ``LAST_CARD_NUMBER``) some card in play holds, of
    whichever empire it now is: ``created_id`` finds a free one while fewer than
    ``LAST_CARD_NUMBER`` are (AE-62, AE-73)."""
    return sum(
        1 for n in range(1, LAST_CARD_NUMBER + 1) if instance_id(empire, card, n) in state.instances
    )


def created_id(state: GameState, empire: str, card: str, faces: Sequence[int]) -> str:
    """The id of a card of type ``card`` that ``empire`` creates (AE-73): the number ``faces``
    give, at the first attempt whose id no card in play holds (the caller makes sure one is
    free: ``numbers_taken`` under ``LAST_CARD_NUMBER``)."""
    for attempt in itertools.count():
        new = instance_id(empire, card, number(faces, empire, card, CREATED_PLACE, attempt))
        if new not in state.instances:
            return new
    raise AssertionError("unreachable")  # pragma: no cover
