#!/usr/bin/env python3
"""Fuzzing speed: ``python bench/fuzz.py [--examples N] [--repeats N]``.

For each ruleset's recorded game in fixtures/, loaded once (import, audit, fold: a cost per run,
not per command), in one run: ``warlog fuzz``'s search with every check on (Hypothesis
included; nothing fails, so nothing is shrunk),
against the baseline of plain play, measured in the same run: as many examples, each a fork of
the same game at a random batch end with new dice, then as many random legal commands through
``Arbiter.play`` with no check at all. The figure is fuzzed commands per CPU second of the process
(the machine is shared: wall time would measure the neighbours); the ratio says what the checks
and the search cost. Medians of ``repeats`` runs, alternating which side goes first, after a
warm-up run per ruleset.
docs/performance.md gives the latest table and the method.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path
from typing import NoReturn

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import contextlib

from warlog.domain.core.errors import WarlogError
from warlog.fuzz import STEPS
from warlog.fuzz.example import forked
from warlog.fuzz.report import Tally
from warlog.fuzz.search import Budget, key_of, search
from warlog.fuzz.sources import Sources, load

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
#: the games fuzzed, one per ruleset
GAMES = {
    "armageddon-empires": FIXTURES / "armageddon-empires" / "ae-golden.jsonl",
    "battle-for-armageddon": FIXTURES / "battle-for-armageddon" / "bfa-golden.jsonl",
    "heroic-battles": FIXTURES / "heroic-battles" / "hb-golden.jsonl",
}
#: the issue's aim, in fuzzed commands per second, where it set one
AIMS = {"battle-for-armageddon": 1000}


def fuzzed(holder: Sources, examples: int, seed: int) -> tuple[int, float]:
    """``(commands, CPU seconds)`` of ``warlog fuzz``'s search of ``holder``'s game with every
    check on."""
    source = holder.sources[0]
    ruleset = source.ruleset
    tally = Tally(ruleset.name, {source.name: ruleset.version}, [])
    began = time.process_time()
    found = search(
        holder,
        [source],
        tally,
        examples=examples,
        steps=STEPS,
        seed=seed,
        budget=Budget(time.monotonic() + 3600.0, 0.0),
    )
    seconds = time.process_time() - began
    if found:
        raise SystemExit(f"fuzzing {source.name} found a failure: {found[0].message}")
    return tally.steps(), seconds


def plain(holder: Sources, examples: int, seed: int) -> tuple[int, float]:
    """``(commands, CPU seconds)`` of plain play: ``examples`` forks of ``holder``'s game at
    random batch ends, each played on for up to ``STEPS`` random legal commands, no check."""
    source = holder.sources[0]
    ruleset = source.ruleset
    rng = random.Random(seed)
    commands = 0
    began = time.process_time()
    for _ in range(examples):
        at = rng.choice(source.ends)
        arb, game = forked(holder, source, at, key_of(rng.getrandbits(32), source))(None)
        for _ in range(rng.randint(1, STEPS)):
            state = arb.folded(game).state
            legal = [
                c for p in ruleset.active_players(state) for c in ruleset.legal_commands(state, p)
            ]
            if not legal:
                break
            with contextlib.suppress(WarlogError):
                arb.play(game, msgspec.json.encode(rng.choice(legal)).decode())
            commands += 1
    return commands, time.process_time() - began


def _no_database() -> NoReturn:
    raise SystemExit("bench/fuzz.py reads only files")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=100, help="examples per run (100)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure (3)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    holders = {}
    for name, path in GAMES.items():
        began = time.process_time()
        holders[name] = load([str(path)], _no_database)
        loaded = time.process_time() - began
        print(
            f"{name}: {path.name} loaded (imported, audited, folded) in {loaded:.2f} s",
            file=sys.stderr,
        )
        fuzzed(
            holders[name], 2, args.seed
        )  # warm up: Hypothesis reads the project's constants once
    print(
        f"Fuzzed commands per CPU second, every check on, against plain play of as many forks; "
        f"{args.examples} examples of up to {STEPS} steps per run, medians of {args.repeats} "
        "runs.\n"
    )
    print("| ruleset | fuzzed (commands/s) | plain play (commands/s) | ratio | aim | |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for name in GAMES:
        fuzz_rates: list[float] = []
        plain_rates: list[float] = []
        for i in range(args.repeats):
            seed = args.seed + i
            sides = [("fuzz", fuzzed), ("plain", plain)]
            for label, measure in sides if i % 2 == 0 else reversed(sides):
                gc.collect()
                commands, seconds = measure(holders[name], args.examples, seed)
                (fuzz_rates if label == "fuzz" else plain_rates).append(commands / seconds)
        f, p = statistics.median(fuzz_rates), statistics.median(plain_rates)
        aim = AIMS.get(name)
        verdict = "" if aim is None else ("PASS" if f >= aim else "MISS")
        print(
            f"| {name} | {f:,.0f} | {p:,.0f} | {f / p:.2f} | "
            f"{f'>= {aim:,}' if aim else ''} | {verdict} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
