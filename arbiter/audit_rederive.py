"""Re-deriving a batch: its command (or the game's opening) decided again on the state folded
from the log, with its recorded dice, and every consequence and seal compared with the log's."""

from __future__ import annotations

import functools
from typing import Any

import msgspec

from warlog.arbiter.audit_report import Find, Proved
from warlog.arbiter.audit_rows import Row
from warlog.arbiter.initial import scenario_of
from warlog.arbiter.meta import GameMeta
from warlog.arbiter.sealing import event_secrets, recorded_command, sealing_version
from warlog.domain.core.dice import ManualDice, RecordedDice
from warlog.domain.core.errors import WarlogError
from warlog.domain.core.events import CommandIssued, DiceRolled, Event, GameCreated
from warlog.domain.core.ruleset import AnyRuleset, Command
from warlog.domain.core.seal import Secret, recorded_with
from warlog.eventstore.codec import Codec


class Rederivation:
    """Decides each batch again under the game's ruleset and compares what it derives with the
    log: each difference a finding, each batch compared counted in ``proved``."""

    def __init__(self, ruleset: AnyRuleset, codec: Codec, find: Find, proved: Proved) -> None:
        self.ruleset = ruleset
        self.codec = codec
        #: the version the game's seals follow (``Hidden.since``)
        self.sealing_version = sealing_version(ruleset)
        self.find = find
        self.proved = proved

    def command(self, batch: list[Row], issued: CommandIssued, meta: GameMeta, state: Any) -> None:
        """Decide the batch's command again on ``state`` (the game's before the batch)."""
        seq = batch[0].record.seq
        ruleset = self.ruleset
        command = self._command_of(seq, issued, batch[0].clear or "", meta)
        if command is None:
            return
        if meta.revealed:
            self.find(
                seq, "rules", f"a command after the seed was revealed at seq {meta.revealed_at}"
            )
            return
        recorded = [row.event for row in batch[1:]]
        rolls = [(e.sides, list(e.faces)) for e in recorded if isinstance(e, DiceRolled)]
        dice: Any
        if meta.dice.mode == "manual":
            dice = ManualDice(list(command.dice))
        else:
            if command.dice:
                self.find(seq, "rules", "an auto-dice game's command carries its own dice faces")
            dice = RecordedDice(rolls)
        try:
            derived = ruleset.decide(state, command, dice)
            if isinstance(dice, ManualDice):
                dice.check_all_used()
        except WarlogError as exc:
            self.find(seq, "rules", f"the rules reject this command: {exc}")
            return
        except Exception as exc:  # a ruleset failure on a forged log is a finding, not a crash
            self.find(seq, "rules", f"re-deciding the command failed: {type(exc).__name__}: {exc}")
            return
        if isinstance(dice, RecordedDice) and dice.mismatch:
            self.find(
                _roll_seq(batch, dice.mismatch_roll),
                "rules",
                f"the dice do not match the rules: {dice.mismatch}",
            )
        self._compare(
            batch,
            [CommandIssued(player=issued.player, command=issued.command), *derived],
            command,
            [],
        )

    def opening(self, batch: list[Row], created: GameCreated) -> None:
        """Open the game again from its recorded scenario and the opening batch's dice."""
        ruleset = self.ruleset
        try:
            scenario = scenario_of(ruleset, batch[0].record.data, created)
            rolls = [
                (row.event.sides, list(row.event.faces))
                for row in batch[1:]
                if isinstance(row.event, DiceRolled)
            ]
            dice = RecordedDice(rolls)
            derived = ruleset.begin(ruleset.initial_state(scenario), dice)
            setup = ruleset.hidden_setup(scenario)
        except WarlogError as exc:
            self.find(1, "rules", f"the rules cannot open this game: {exc}")
            return
        except Exception as exc:
            self.find(1, "rules", f"opening the game failed: {type(exc).__name__}: {exc}")
            return
        if dice.mismatch:
            self.find(
                _roll_seq(batch, dice.mismatch_roll),
                "rules",
                f"the dice do not match the rules: {dice.mismatch}",
            )
        self._compare(batch, [created, *derived], None, setup)

    def _command_of(
        self, seq: int, issued: CommandIssued, clear: str, meta: GameMeta
    ) -> Command | None:
        """The recorded command, typed (``clear``: its row's clear data, in canonical form)."""
        ruleset = self.ruleset
        raw = bytes(_ISSUED.decode(clear).command)  # msgspec's encoding of issued.command
        command: Command
        try:
            command = _command_decoder(ruleset.command_type).decode(raw)
        except msgspec.DecodeError:
            try:  # the message names the bad field as it always did
                command = msgspec.convert(issued.command, ruleset.command_type)
            except msgspec.ValidationError as exc:
                self.find(seq, "rules", f"the recorded command is not a valid command: {exc}")
                return None
        # a manual-dice command's empty `dice` are recorded (sealed) since they leak nothing;
        # a log written before records none: both are the arbiter's form. A field kept present
        # at its default (Hidden.present_since, whose seal the comparison checks) is in both
        # forms from its version on: a command of that version without it is not the arbiter's
        manual = meta.dice.mode == "manual"
        arbiter_form = recorded_command(command, manual, self.sealing_version)
        without_dice = recorded_with(command, self.sealing_version)
        if msgspec.json.encode(without_dice) != raw and msgspec.json.encode(arbiter_form) != raw:
            self.find(
                seq,
                "rules",
                "the recorded command is not in the form the arbiter records",
                str(arbiter_form),
                str(issued.command),
            )
            return None
        if command.player != issued.player or issued.player not in meta.players:
            self.find(
                seq, "rules", f"the command is issued by {issued.player!r}, who may not issue it"
            )
            return None
        return command

    def _compare(
        self,
        batch: list[Row],
        derived: list[Event],
        command: Command | None,
        setup: list[Secret],
    ) -> None:
        """Compare the derived events with the batch: their clear data, and where the rules
        put seals with where the log has them."""
        self.proved.batches_rederived += 1
        found = [(row.record.type, row.clear or "") for row in batch]
        expected = [self.codec.encode(e) for e in derived]
        if found != expected:  # the first event that differs is the finding
            for offset in range(max(len(found), len(expected))):
                want = expected[offset] if offset < len(expected) else None
                got = found[offset] if offset < len(found) else None
                if want != got:
                    self.find.differs(
                        # the row's own seq (a row missing from the batch shifts the rest)
                        batch[offset].record.seq
                        if offset < len(batch)
                        else batch[-1].record.seq + 1,
                        "rules",
                        "a consequence differs from what the rules derive from the command and "
                        "its dice",
                        want,
                        got,
                    )
                    return
        for row, event in zip(batch, derived, strict=True):
            secrets = event_secrets(event, command, setup, self.sealing_version)
            hidden = {path for path, _ in secrets}
            if row.owners is not None:
                self._check_owners(row, dict(secrets))
            sealed = set(row.sealed or ())  # known for every row whose clear data was read
            if hidden == sealed:
                continue
            for path in sorted(hidden - sealed):
                self.find(
                    row.record.seq, "seal", f"{path} is in the clear; the rules keep it hidden"
                )
            for path in sorted(sealed - hidden):
                self.find(
                    row.record.seq, "seal", f"{path} is sealed; the rules show it to everyone"
                )

    def _check_owners(self, row: Row, owners: dict[str, str | None]) -> None:
        """The key file gives each sealed value to the player the rules give it to: the one it
        is opened for (a wrong owner would show one player the other's secret)."""
        held = row.owners or {}
        for path in sorted(owners.keys() & held.keys()):
            if held[path] != owners[path]:
                self.find(
                    row.record.seq,
                    "seal",
                    f"the key file gives the value at {path} to {held[path] or 'nobody'}; the "
                    f"rules give it to {owners[path] or 'nobody'}",
                )
        for path in sorted(held.keys() - owners.keys()):
            self.find(
                row.record.seq, "seal", f"the key file names {path}, which the rules do not seal"
            )


class _Issued(msgspec.Struct):
    """A ``command_issued`` row's data with its command left as it is written."""

    player: str
    command: msgspec.Raw


_ISSUED = msgspec.json.Decoder(_Issued)


@functools.cache
def _command_decoder(command_type: Any) -> msgspec.json.Decoder[Any]:
    """A decoder of a ruleset's commands (its tagged union), made once per union."""
    return msgspec.json.Decoder(command_type)


def _roll_seq(batch: list[Row], index: int) -> int:
    """The seq of the batch's ``index``-th recorded roll (the batch's last seq when the rules
    roll more than it records)."""
    rolls = [row.record.seq for row in batch if isinstance(row.event, DiceRolled)]
    return rolls[index] if index < len(rolls) else batch[-1].record.seq
