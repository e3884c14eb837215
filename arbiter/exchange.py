"""Export and import: a game as JSON Lines, one event per line, in the contract's format."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from warlog.domain.core.errors import InputError
from warlog.eventstore.records import Record

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
                f"line {line_no} is not acceptable JSON: {exc}", "input/bad_json"
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
        yield Record(seq=seq, type=type_, data=text, at=at, prev=prev, hash=hash_)


def read_file(path: str) -> list[str]:
    """The lines of an export file; InputError (exit 1) if it cannot be read as UTF-8 text."""
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read().splitlines()
    except FileNotFoundError:
        raise InputError(f"no such file: {path}", "input/no_file") from None
    except IsADirectoryError:
        raise InputError(f"{path} is a directory, not an export file", "input/not_a_file") from None
    except UnicodeDecodeError:
        raise InputError(f"{path} is not UTF-8 text (JSON Lines)", "input/not_text") from None
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}", "input/unreadable") from None
