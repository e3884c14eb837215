"""The benchmark measures legal games: its generated logs audit clean and seek correctly.

bench/workload.py writes its long games through a write-only store in large transactions rather
than through ``SQLiteStore.append``; this checks that what it writes is a whole, legal log with
usable snapshots, so that the figures in docs/performance.md are about real games.
"""

from __future__ import annotations

import random
from pathlib import Path

import msgspec

from bench.workload import ae_subject, play_corpus, race_subject, write_long_games
from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import audit_records
from warlog.arbiter.database import on_database


def test_the_long_games_audit_clean_and_every_seek_equals_the_fold(tmp_path: Path) -> None:
    rng = random.Random(5)
    for subject, sizes in ((race_subject(tmp_path), (300, 2000)), (ae_subject(tmp_path), (600,))):
        path = tmp_path / f"{subject.prefix}.db"
        games = write_long_games(subject, path, sizes, seed=1)
        with on_database(path, subject.rulesets) as arb:
            for size, game in games.items():
                records = list(arb.records(game.game))
                assert len(records) == game.events >= size
                assert [r.seq for r in records] == list(range(1, game.events + 1))
                auditor = arb.audit(game.game)  # with the key file: every seal opened
                assert not auditor.findings and not auditor.proved.rules_stopped_at
                assert game.batch_ends[-1] == game.events
                ruleset = subject.ruleset
                for at in [1, game.events, *rng.sample(range(1, game.events), 20)]:
                    fresh = Arbiter(arb.store, subject.rulesets, vault=arb.vault)
                    seek = fresh.folded(game.game, at)
                    whole = fresh.fold_records(ruleset, iter(records[:at]))
                    assert (seek.seq, seek.hash) == (whole.seq, whole.hash)
                    assert msgspec.msgpack.encode(seek.state) == msgspec.msgpack.encode(whole.state)
                assert game.snapshots > 0


def test_the_realistic_games_are_whole_games_that_audit_clean(tmp_path: Path) -> None:
    subject = ae_subject(tmp_path)
    for game in play_corpus(subject, games=2, max_commands=5000, seed=3):
        assert game.batches[0][0].type == "game_created"
        assert game.batches[-1][0].type == "dice_revealed"  # closed by revealing its seed
        store_records = [p for batch in game.batches for p in batch]
        assert any(p.type == "game_ended" for p in store_records)  # ended by the rules
        auditor = audit_records(game.export, subject.rulesets)  # its export, every seal opened
        assert not auditor.findings and not auditor.proved.rules_stopped_at
        assert auditor.revealed
