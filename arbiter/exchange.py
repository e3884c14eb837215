"""Export and import: a game as JSON Lines, one event per line, in the contract's format.

An export holds each event's chained ``data`` (sealed values as ``{"sealed": H}``), with the seals
opened (``{"sealed": H, "value": V, "salt": S}``) once the seed is revealed, or before the reveal
when a referee asks for it. Import checks everything the audit checks and keeps the opened
values in the vault, so that the imported game folds.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

import msgspec

from warlog.arbiter.ids import check_game_id
from warlog.arbiter.meta import played_under
from warlog.arbiter.sealing import event_secrets, has_seals, sealing_version
from warlog.domain.core.dice import commitment_of
from warlog.domain.core.errors import (
    ConflictError,
    InputError,
    IntegrityError,
    WarlogError,
    unacceptable_json,
)
from warlog.domain.core.events import CommandIssued, GameCreated
from warlog.domain.core.ruleset import AnyRuleset
from warlog.domain.core.seal import Secret, cleared, compact, seals_in, stripped
from warlog.eventstore.codec import Codec
from warlog.eventstore.records import GameInfo, Pending, Record
from warlog.eventstore.vault import Opening

if TYPE_CHECKING:
    from warlog.arbiter.application import Arbiter
    from warlog.arbiter.audit_report import Finding

FIELDS = ("seq", "type", "at", "data", "prev", "hash")


def export_line(record: Record) -> str:
    """``{"seq": 1, "type": "...", "at": "...", "data": {...}, "prev": "...", "hash": "..."}``."""
    return (
        f'{{"seq": {record.seq}, "type": {json.dumps(record.type, ensure_ascii=False)}, '
        f'"at": {json.dumps(record.at)}, "data": {record.data}, '
        f'"prev": "{record.prev}", "hash": "{record.hash}"}}'
    )


class BadLine(Exception):
    """A line that parses as JSON but is not an event of the export format."""

    def __init__(self, line_no: int, message: str) -> None:
        super().__init__(f"line {line_no}: {message}")
        self.line_no = line_no


def parse_lines(lines: Iterable[str]) -> Iterator[Record]:
    """Records from export lines. InputError for a line that is not JSON (exit 1); BadLine for
    a JSON line that is not a well-formed event (the caller reports it as an invalid log)."""
    for line_no, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise InputError(f"line {line_no} is not JSON: {exc}", "input/bad_json") from None
        except RecursionError:
            raise InputError(f"line {line_no} is nested too deeply", "input/bad_json") from None
        except ValueError as exc:  # e.g. an integer of thousands of digits
            raise InputError(
                f"line {line_no} is not acceptable JSON: {unacceptable_json(exc)}",
                "input/bad_json",
            ) from None
        if not isinstance(obj, dict):
            raise BadLine(line_no, "an event line is a JSON object")
        missing = [f for f in FIELDS if f not in obj]
        if missing:
            raise BadLine(line_no, f"missing {', '.join(missing)}")
        seq, type_, at, data, prev, hash_ = (obj[f] for f in FIELDS)
        if type(seq) is not int or not all(isinstance(v, str) for v in (type_, at, prev, hash_)):
            raise BadLine(line_no, "seq must be an integer and type, at, prev, hash text")
        if not isinstance(data, dict):
            raise BadLine(line_no, "data must be a JSON object")
        text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
        surrogate = lone_surrogate(line)
        if surrogate:
            raise InputError(f"line {line_no} {surrogate}", "input/not_text")
        yield Record(seq=seq, type=type_, data=text, at=at, prev=prev, hash=hash_)


#: a JSON escape of a UTF-16 surrogate (``\ud800``): a pair of them is one character
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def lone_surrogate(line: str) -> str | None:
    """What is wrong with a JSON line that holds an escaped lone surrogate (``"\\ud800"``:
    JSON allows it, but alone it is no character, and no UTF-8 text holds it), or None. Only a
    line holding such an escape is parsed again; one that is not JSON is parse_lines' to say."""
    if _SURROGATE_ESCAPE.search(line) is None:
        return None
    try:
        json.dumps(json.loads(line), ensure_ascii=False).encode()
    except UnicodeEncodeError as exc:
        escape = f"\\u{ord(exc.object[exc.start]):04x}"
        return f"holds an escaped lone surrogate ({escape}), which is not UTF-8 text"
    except (ValueError, RecursionError):
        return None
    return None


#: the longest line an export file may hold: an event's JSON is a few hundred bytes, a game's
#: ``game_created`` (the whole scenario) tens of kilobytes
MAX_LINE_BYTES = 4 * 1024 * 1024


def read_file(path: str) -> list[str]:
    """The lines of an export file; InputError (exit 1) if it cannot be read as UTF-8 text
    (a line holding an escaped lone surrogate is named with the file), is a device (/dev/zero
    never ends), or holds a line longer than ``MAX_LINE_BYTES``."""
    try:
        mode = os.stat(path).st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode) or stat.S_ISDIR(mode)):
            raise InputError(
                f"{path} is a device, not an export file (a regular file or a pipe)",
                "input/not_a_file",
            )
        lines = []
        with open(path, encoding="utf-8") as fh:
            for line_no, line in enumerate(iter(lambda: fh.readline(MAX_LINE_BYTES + 1), ""), 1):
                if len(line) > MAX_LINE_BYTES:
                    raise InputError(
                        f"{path} line {line_no} is longer than {MAX_LINE_BYTES:,} characters: "
                        "not an export file",
                        "input/not_a_file",
                    )
                lines.append(line.rstrip("\r\n"))
    except FileNotFoundError:
        raise InputError(f"no such file: {path}", "input/no_file") from None
    except IsADirectoryError:
        raise InputError(f"{path} is a directory, not an export file", "input/not_a_file") from None
    except UnicodeDecodeError:
        raise InputError(f"{path} is not UTF-8 text (JSON Lines)", "input/not_text") from None
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}", "input/unreadable") from None
    for line_no, line in enumerate(lines, start=1):
        surrogate = lone_surrogate(line)
        if surrogate:
            raise InputError(f"{path} line {line_no} {surrogate}", "input/not_text")
    return lines


def import_log(
    arb: Arbiter,
    records: Sequence[Record],
    game: str | None = None,
    *,
    chain_only: bool = False,
    progress: Callable[[int], None] | None = None,
    fold_only: bool = False,
    rules: bool | None = None,
    despite_live_forks: bool = False,
) -> str:
    """Import an exported log into ``arb`` as a new game; its id (``Arbiter.import_records``).
    ``progress`` is told how many events the audit has checked; ``rules``: whether the audit
    re-derives the rules (by default, unless ``chain_only``: a chain-only import that asks
    for them is refused at a finding of the rules, not for rules it could not check)."""
    from warlog.arbiter.audit import Auditor  # here: exporting a log never audits it
    from warlog.arbiter.reads import counted

    auditor = Auditor(arb.rulesets, rules=not chain_only if rules is None else rules)
    findings = auditor.feed(counted(records, progress))
    if findings:
        raise IntegrityError(broken_log(findings), "import/broken_log")
    proved = auditor.proved
    if proved.rules_stopped_at and not chain_only:
        raise IntegrityError(
            f"cannot check the rules from seq {proved.rules_stopped_at}: "
            f"{proved.rules_stopped_why}; import the export made after the reveal, or ask for "
            "a chain-only import (--chain-only)",
            "import/unchecked",
        )
    created = msgspec.json.decode(records[0].data)
    game = check_game_id(recorded_id(records) if game is None else game)
    # the version it was played under: where its seals are (``Hidden.since``)
    ruleset = played_under(arb.rulesets(str(created["ruleset"])), records[0].data)
    codec = arb.codec(ruleset)
    rows: list[Pending] = []
    openings: list[Opening] = []
    # the seeds the values can be opened by here: those the log makes public, and those the
    # vault already holds (the log of a game of this database, imported again)
    public = _public_commitments(records)
    in_force = list(_commitments_in_force(records))
    held: set[str] = set()
    if arb.vault.available():  # asked only of a key file that exists: asking would make one
        for commitment in set(in_force) - public:
            with contextlib.suppress(WarlogError):
                if commitment and arb.vault.key(commitment) is not None:
                    held.add(commitment)
    known = public | held
    if held and not despite_live_forks:
        _refuse_live_keys(arb, held, game)
    for record, commitment in zip(records, in_force, strict=True):
        data = record.data
        if has_seals(data):
            chained, opened = stripped(json.loads(data))
            data = compact(chained)
            if opened and commitment not in known and not fold_only:
                if not chain_only:
                    raise InputError(
                        f"event {record.seq} holds values opened under a seed this log does not "
                        "reveal (a referee's --open record of a game still being played): the "
                        "game could be neither read nor played here without that seed; audit "
                        "the file (warlog audit FILE), or import it with --chain-only (its "
                        "values then stay sealed)",
                        "import/unrevealed_values",
                    )
                opened = {}  # a chain-only import keeps the log as the public holds it
            if opened and len(opened) == sum(1 for _ in seals_in(chained)):
                clear = compact(cleared(chained, {p: v for p, (v, _) in opened.items()}))
                try:
                    owners = dict(_secrets_of(ruleset, codec, record.type, clear))
                except (msgspec.ValidationError, msgspec.DecodeError) as exc:
                    raise IntegrityError(
                        f"refusing a broken log: seq {record.seq} does not decode as its "
                        f"ruleset's {record.type}: {exc}",
                        "import/broken_log",
                    ) from None
                openings.append(Opening(record.hash, game, record.seq, clear, owners))
        if record.type in ("dice_revealed", "game_forked"):
            shown = json.loads(data).get("seed")  # a reveal's, or a same-dice fork's kept seed
            if shown:
                seed = bytes.fromhex(shown)
                arb.vault.put_key(commitment_of(seed), seed, game)
        rows.append(Pending(record.type, data, record.at))
    arb.vault.put_openings(openings)
    try:
        arb.store.create_game(GameInfo(game=game, ruleset=ruleset.name), rows)
    except ConflictError:
        raise InputError(
            f"game {game} already exists; import with --game NEWID", "input/game_exists"
        ) from None
    return game


def _refuse_live_keys(arb: Arbiter, held: set[str], game: str) -> None:
    """InputError (``input/live_forks``) when a game of this database still being played holds
    one of the keys a log to import plays by that this key file ``held`` and the log does not
    reveal (an export of it, or a log forged to claim its key): the copy would roll that game's
    dice and open its values here, so playing or revealing it would tell that game's future and
    secrets."""
    from warlog.arbiter.forks import live_key_holders
    from warlog.arbiter.revealing import LIVE_FORKS
    from warlog.domain.core.summary import listed

    holders = live_key_holders(arb, held)
    if holders:
        one = len(holders) == 1
        raise InputError(
            f"this log plays by the key of {listed(holders)}, still being played: game {game} "
            f"would roll {'its' if one else 'their'} dice and hold {'its' if one else 'their'} "
            "secrets; nothing imported (fork a game with --dice new to try what-ifs; import it "
            f"once {'it is' if one else 'they are'} revealed, or anyway: warlog import FILE "
            "--despite-live-forks)",
            LIVE_FORKS,
        )


def broken_log(findings: Sequence[Finding]) -> str:
    """Why import refuses a log with ``findings``: the first one (by seq), cut so that the
    count of the others stays in the one line an error is."""
    more = (
        f" (and {len(findings) - 1} more; `warlog audit FILE` lists them)"
        if len(findings) > 1
        else ""
    )
    lead = f"refusing {_what_log(findings[0])}: "
    return lead + findings[0].line(WarlogError.MAX_LENGTH - len(lead) - len(more)) + more


def _what_log(first: Finding) -> str:
    """What is known of a log import refuses, from its first finding: one played under a
    version not played here, one that ends inside a batch, or (anything else) a broken one."""
    from warlog.arbiter.audit_report import ENDS_INSIDE_BATCH

    if first.check == "version":
        return "a log played under rules this warlog does not have"
    if first.message == ENDS_INSIDE_BATCH:
        return "a log that ends inside a batch"
    return "a broken log"


def recorded_id(records: Sequence[Record]) -> str:
    """The id the log records for its game: a fork's own (its last ``game_forked``), else the
    one ``game_created`` names (a fork's log begins with its parent's). The records are
    audited first: they open with ``game_created``, and each of those decodes as its event,
    a JSON object."""
    forks = [record for record in records if record.type == "game_forked"]
    named = forks[-1] if forks else records[0]
    return str(json.loads(named.data).get("game", ""))


def _commitments_in_force(records: Sequence[Record]) -> Iterator[str]:
    """The commitment of the dice seed in force at each record: the game's, then a new-dice
    fork's from its ``game_forked`` on (the seed seals and salts by)."""
    commitment = ""
    for record in records:
        if record.type in ("game_created", "game_forked"):
            dice = json.loads(record.data).get("dice") or {}
            commitment = str(dice.get("commitment") or commitment)
        yield commitment


def _public_commitments(records: Sequence[Record]) -> set[str]:
    """The commitments whose seeds the log itself makes public: revealed (``dice_revealed``), or
    kept by a same-dice fork (``game_forked`` showing its seed)."""
    public = set()
    for record in records:
        if record.type in ("dice_revealed", "game_forked"):
            seed = json.loads(record.data).get("seed")
            with contextlib.suppress(TypeError, ValueError):  # not hex: the audit's finding
                public.add(commitment_of(bytes.fromhex(seed)))
    return public


def _secrets_of(ruleset: AnyRuleset, codec: Codec, type_: str, clear: str) -> list[Secret]:
    """Where the rules seal values in this (clear) event, and for whom."""
    event = codec.decode(type_, clear)
    version = sealing_version(ruleset)
    if isinstance(event, CommandIssued):
        command = msgspec.convert(event.command, ruleset.command_type)
        return event_secrets(event, command, version=version)
    if isinstance(event, GameCreated):
        setup = ruleset.hidden_setup(ruleset.scenario_from_builtins(event.scenario))
        return event_secrets(event, setup=setup, version=version)
    return event_secrets(event, version=version)
