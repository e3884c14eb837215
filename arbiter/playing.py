"""Playing a command: decided on the state before it with the dice it is owed, then its batch
sealed, folded and appended.

One command in, one batch out: ``command_issued`` (the command as accepted) and every event the
rules derive from it. A batch is folded before it is appended (one that cannot be folded is never
stored) and its openings are in the vault before its events are in the log.
"""

from __future__ import annotations

from collections.abc import Callable

from warlog.arbiter.fold import Fold, Folded
from warlog.arbiter.sealing import (
    event_secrets,
    key_in_force,
    recorded_command,
    seal_batch,
    sealing_version,
)
from warlog.arbiter.states import States
from warlog.domain.core.dice import Dice, ManualDice, SeededDice
from warlog.domain.core.errors import InputError, RulesError
from warlog.domain.core.events import CommandIssued, Event
from warlog.domain.core.ruleset import AnyRuleset, Command
from warlog.domain.core.seal import Sealer
from warlog.eventstore.records import Record
from warlog.eventstore.vault import Vault


def decided(
    ruleset: AnyRuleset,
    game: str,
    before: Folded,
    command: Command,
    vault: Vault,
    dice_filter: Callable[[Dice], Dice] | None,
) -> list[Event]:
    """The batch ``command`` makes on the game folded as ``before``: its ``command_issued``
    and the events the rules decide, rolled on the key in force (``vault``'s) or on the dice it
    carries in a manual-dice game, passed through ``dice_filter`` if given. InputError for dice
    in an auto-dice game, RulesError once the key is revealed or when the rules refuse it."""
    meta = before.meta
    first_seq = before.seq + 1
    if meta.dice.mode == "auto" and command.dice:
        raise InputError(
            "this game rolls its own dice (auto); a command carries 'dice' only in a "
            "manual-dice game",
            "input/unexpected_dice",
        )
    if meta.revealed:
        raise RulesError(
            f"the key of game {game} was revealed at seq {meta.revealed_at}; its play is "
            "over (fork it with --dice new to play on)",
            "rules/seed_revealed",
        )
    key = key_in_force(vault, meta, game)
    manual = ManualDice(list(command.dice)) if meta.dice.mode == "manual" else None
    dice: Dice = manual or SeededDice(
        key, meta.dice.stream, meta.dice.salt, meta.derivation_seq(first_seq + 1)
    )
    if dice_filter is not None:
        dice = dice_filter(dice)
    events = ruleset.decide(before.state, command, dice)
    if manual is not None:
        manual.check_all_used()
    recorded = recorded_command(command, meta.dice.mode == "manual", sealing_version(ruleset))
    issued = CommandIssued(player=command.player, command=recorded)
    return [issued, *events]


def append_batch(
    states: States,
    game: str,
    before: Folded,
    events: list[Event],
    command: Command | None,
    clock: Callable[[], str],
) -> list[Record]:
    """Seal ``events`` (what they hide from whom: ``command``'s marks and theirs), fold them on
    ``before`` and append them after it; returns the records appended. ConflictError when the
    log has moved on past ``before``; nothing is appended on error. ``states`` then holds the
    new head (and a snapshot, when one falls due)."""
    loaded = states.loaded(game)
    ruleset = loaded.ruleset
    meta = before.meta
    version = sealing_version(ruleset)
    secrets = [event_secrets(e, command, version=version) for e in events]
    key = key_in_force(states.vault, meta, game) if any(secrets) else b""
    at = clock()  # one batch, appended at one moment
    rows, openings = seal_batch(
        loaded.codec,
        game,
        events,
        secrets,
        Sealer(key, meta.dice.stream),
        lambda s: meta,
        before.seq + 1,
        before.hash,
        at,
    )
    # fold first: a batch that cannot be folded is never appended
    fold = Fold(ruleset, before)
    clear = [loaded.codec.encode(e)[1] for e in events]
    for offset, (event, row) in enumerate(zip(events, rows, strict=True)):
        fold.apply(before.seq + 1 + offset, row.type, clear[offset], "", event)
    states.vault.put_openings(openings)  # first: an event is never stored without its opening
    records = states.store.append(game, rows, before.seq)
    assert fold.meta is not None
    after = Folded(records[-1].seq, records[-1].hash, fold.meta, fold.state, fold.initial)
    states.appended(game, ruleset, before, events, after)
    return records
