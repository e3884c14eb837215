"""The figures of a benchmark run: paired timings and their medians, rates, and the table's rows
with their targets and verdicts (PASS or MISS)."""

from __future__ import annotations

import gc
import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


def median(xs: Sequence[float]) -> float:
    return float(statistics.median(xs))


def paired(a: Callable[[], T], b: Callable[[], T], repeats: int) -> tuple[list[T], list[T]]:
    """``repeats`` timings of each, alternating which goes first."""
    xs: list[T] = []
    ys: list[T] = []
    for r in range(repeats):
        if r % 2 == 0:
            xs.append(a())
            ys.append(b())
        else:
            ys.append(b())
            xs.append(a())
    return xs, ys


def quiesce() -> None:
    """Collect garbage, then freeze what is left: the workload held in memory (hundreds of
    thousands of objects) must not be rescanned by every collection inside a timed section,
    which would slow the faster side most. Both sides start each timing from this state."""
    gc.collect()
    gc.freeze()


def rate(count: float, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


def fmt_rate(per_s: float, unit: str = "ev/s") -> str:
    return f"{per_s:,.0f} {unit}"


def fmt_ms(ms: float) -> str:
    return f"{ms:.3f} ms" if ms < 1 else f"{ms:.2f} ms" if ms < 100 else f"{ms:,.0f} ms"


@dataclass
class Row:
    measure: str
    warlog: str
    baseline: str
    ratio: float | None
    target: str  # ">= 0.7", "<= 1.5", or "" for a figure without one

    @property
    def shown(self) -> str:
        """The ratio as the table prints it, to two decimals, rounded towards missing its target
        (down against ``>=``, up against ``<=``), so that the figure never reads as meeting a
        target the ratio misses (0.6496 against ``>= 0.65`` is printed 0.64)."""
        if self.ratio is None:
            return ""
        op = self.target.split()[0] if self.target else ""
        hundredths = self.ratio * 100
        if op == ">=":
            hundredths = math.floor(hundredths + 1e-9)
        elif op == "<=":
            hundredths = math.ceil(hundredths - 1e-9)
        return f"{hundredths / 100:.2f}"

    @property
    def verdict(self) -> str:
        """PASS or MISS against the target, judged on the ratio itself; "" without a ratio or a
        target."""
        if self.ratio is None or not self.target:
            return ""
        op, value = self.target.split()
        ok = self.ratio >= float(value) if op == ">=" else self.ratio <= float(value)
        return "PASS" if ok else "MISS"


def fresh_db(workdir: Path, name: str) -> Path:
    path = workdir / name
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    return path


def drop_db(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def table(rows: Sequence[Row]) -> list[str]:
    lines = [
        "| measure | warlog | baseline | ratio | target | |",
        "| --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for r in rows:
        lines.append(
            f"| {r.measure} | {r.warlog} | {r.baseline} | {r.shown} | {r.target} | {r.verdict} |"
        )
    return lines
