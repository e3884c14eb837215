"""Reading a game's log: the ranges of its events, its records as one reader may see them, its
replay, and the progress of long reads.

The forms of the records (``sealing.Forms``) start from the game's meta before the first one
asked for: which seeds are revealed, which key sealed what. The engine's own meta can be read
without the key file (its events are never sealed but the scenario).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from warlog.arbiter.fold import Folded, decoded
from warlog.arbiter.meta import GameMeta, evolve_meta
from warlog.arbiter.sealing import PUBLIC, Forms
from warlog.domain.core.errors import InputError, StoreError
from warlog.domain.core.events import BATCH_STARTS, CORE_TAGS, INERT_TAGS
from warlog.eventstore.lineage import MissingEvent, missing_event
from warlog.eventstore.records import Record
from warlog.eventstore.store import Store

if TYPE_CHECKING:
    from warlog.arbiter.application import Arbiter

#: the errors of a read that needs the key file's clear values, which the store cannot give
NO_CLEAR_FORMS = frozenset({"store/no_key_file", "store/sealed"})

#: how often long reads report their progress, in events
PROGRESS_EVERY = 5000

T = TypeVar("T")


#: how many records ``batch_end`` reads at a time looking for the next batch's start
BATCH_WINDOW = 64


def batch_end(store: Store, game: str, seq: int) -> int:
    """The last event of the batch that holds event ``seq`` (``seq`` itself when it ends its
    batch or lies outside the log): a player sees a batch whole, never the game between two of
    its events, whose order could tell what the rules hide."""
    head, _ = store.head(game)
    if not 1 <= seq < head:
        return seq
    start = seq + 1
    while start <= head:
        stop = min(head, start + BATCH_WINDOW - 1)
        for record in list(store.read(game, start, stop)):
            if record.type in BATCH_STARTS:
                return record.seq - 1
        start = stop + 1
    return head


def check_range(store: Store, game: str, from_seq: int, to_seq: int | None) -> None:
    """InputError unless ``from_seq``..``to_seq`` are events of the game, in order."""
    head, _ = store.head(game)
    check_from(from_seq, head, f"game {game}")
    if to_seq is not None and not from_seq <= to_seq <= head:
        raise InputError(
            f"game {game} has events 1..{head}; --to {to_seq} must be between --from "
            f"{from_seq} and {head}",
            "input/bad_seq",
        )


def check_from(from_seq: int, head: int, label: str) -> None:
    """InputError unless ``from_seq`` is an event of the log (1..head)."""
    if not 1 <= from_seq <= head:
        raise InputError(
            f"{label} has events 1..{head}; --from {from_seq} is outside them", "input/bad_seq"
        )


def counted(records: Iterable[T], progress: Callable[[int], None] | None) -> Iterator[T]:
    """``records`` passed through, telling ``progress`` the count every ``PROGRESS_EVERY``
    records and at the end."""
    n = 0
    for n, record in enumerate(records, start=1):
        if progress is not None and n % PROGRESS_EVERY == 0:
            progress(n)
        yield record
    if progress is not None:
        progress(n)


def forms(
    arb: Arbiter,
    game: str,
    reader: str,
    from_seq: int,
    to_seq: int | None,
    *,
    checked: bool = True,
) -> Iterator[Record]:
    """The records ``from_seq``..``to_seq`` as ``reader`` may see them (``Arbiter.forms``),
    each row checked to follow the one before it (``linked``) unless not ``checked`` (the
    audit, which reports a gap as a finding)."""
    loaded = arb.loaded(game)
    rows = arb.store.read(game, from_seq, to_seq)
    if checked:
        rows = linked(rows, game, from_seq, to_seq)
    try:
        head = arb.folded(game)
    except StoreError as exc:
        unfolded = exc.code in NO_CLEAR_FORMS or (not checked and isinstance(exc, MissingEvent))
        if reader != PUBLIC or from_seq > 1 or not unfolded:
            raise
        # a database handed out without its key file: the public form of the whole log,
        # every seal closed (even a revealed seed's: the values live in the key file); the
        # same for the audit of a log whose fold meets a gap (the gap is the audit's finding)
        return Forms(arb.vault, loaded.codec, reader, ()).forms(rows)
    start = meta_before(arb, game, from_seq, head)
    shown = Forms(arb.vault, loaded.codec, reader, head.meta.opened, start)
    return shown.forms(rows)


def linked(
    records: Iterable[Record], game: str, from_seq: int, to_seq: int | None
) -> Iterator[Record]:
    """``records``, a read of the game's events ``from_seq``..``to_seq`` (None: the head) in
    seq order, passed through as they come, each checked to be the event after the one before
    it, its ``prev`` that event's hash. StoreError (store/corrupt, exit 1) at the first event
    missing (a row deleted) or not linked to the one before it (a row's hash or prev altered):
    a read of every row says so rather than skip it. Two comparisons a row: what the chain's
    hashes prove is the audit's to check."""
    expected, prev = from_seq, ""
    for record in records:
        seq = record.seq
        if seq != expected:
            raise missing_event(game, expected)
        if prev and record.prev != prev:
            raise StoreError(
                f"game {game}: event {seq} does not follow event {seq - 1} (its prev is not "
                "that event's hash): the database is damaged",
                "store/corrupt",
            )
        prev = record.hash
        expected = seq + 1
        yield record
    if to_seq is not None and expected <= to_seq:
        raise missing_event(game, expected)


def meta_before(arb: Arbiter, game: str, from_seq: int, head: Folded) -> GameMeta | None:
    """The meta the forms of the records from ``from_seq`` start from: None from seq 1;
    the head's when every lineage event but reveals lies before ``from_seq`` (the dice in
    force and their shift are then the head's, and what is revealed comes from
    ``head.meta.opened``), which spares the fold of the state at ``from_seq - 1``; else the
    meta folded there."""
    if from_seq <= 1:
        return None
    last_lineage_event = arb.store.lineage(game)[-1][1]  # game_created, or the fork's
    if from_seq > last_lineage_event and from_seq <= head.seq + 1:
        return head.meta
    return arb.folded(game, from_seq - 1).meta


def engine_meta(arb: Arbiter, game: str) -> tuple[GameMeta, int]:
    """The engine's meta of the game and its head (``Arbiter.engine_meta``)."""
    codec = arb.loaded(game).codec
    meta = None
    head = 0
    for seq, type_, data, _ in arb.store.read_rows(game):
        head = seq
        if type_ in CORE_TAGS and type_ not in INERT_TAGS:
            meta = evolve_meta(meta, seq, codec.decode(type_, data))
    if meta is None:
        raise StoreError(f"game {game} has no game_created event", "store/corrupt")
    return meta, head


def replay(
    arb: Arbiter, game: str, from_seq: int, to_seq: int | None, player: str | None
) -> Iterator[dict[str, Any]]:
    """Each event from ``from_seq`` as ``player`` may see it (``Arbiter.replay``)."""
    loaded = arb.loaded(game)
    arb.check_range(game, from_seq, to_seq)
    reader = arb.reader(game, player)
    state = arb.state(game, from_seq - 1) if from_seq > 1 else None
    clear = decoded(arb.store.read(game, from_seq, to_seq), arb.decoder(loaded.codec, game))
    shown = arb.forms(game, reader, from_seq, to_seq)
    from warlog.projections.replay import replay_steps

    after = (
        None if to_seq is None else next(iter(arb.store.read(game, to_seq + 1, to_seq + 1)), None)
    )
    last_ends = after is None or after.type in BATCH_STARTS  # a range may stop in a batch
    anchor = None  # a range that starts inside a batch: what the game waited for before it
    if from_seq > 1:
        first = arb.record_at(game, from_seq)
        if first.type not in BATCH_STARTS:
            batch_end, _ = arb.batch_ends_near(game, from_seq - 1)
            anchor = arb.state(game, batch_end) if batch_end else None
    steps = zip(shown, clear, strict=True)
    return replay_steps(loaded.ruleset, state, steps, player, last_ends, anchor)
