"""A writer killed with SIGKILL at random moments loses nothing it committed and tears nothing.

Each round starts a real writer process on the same SQLite file, lets it append for a random
while, and kills it without warning: inside a transaction, between the commit and the snapshot,
in the middle of an fsync, wherever it happens to be (a writer spends about half its time inside
the append's transaction and a quarter writing snapshots, so most kills land in one of them).
After every kill the log must be whole (seqs 1..head, the chain intact, every batch exactly what
the rules derive from its command), every batch the writer reported as committed must be in it
with the same hash, and the state from the latest snapshot must equal the fold of the whole log.
A second test kills a process in the middle of a WAL checkpoint, which random kills reach only
rarely.
"""

from __future__ import annotations

import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.reliability.conftest import (
    ROOT,
    assert_whole_log,
    child_env,
    make_game,
    records_of,
    snapshot_agrees,
)

KILLS = 25
#: the writer is killed this long (s) after it reported its first commit, drawn uniformly
WINDOW = (0.0, 0.3)


def test_a_writer_killed_at_random_moments_leaves_only_whole_committed_batches(
    tmp_path: Path, scenario: Path
) -> None:
    db = tmp_path / "w.db"
    make_game(db, scenario)
    rng = random.Random(int(os.environ.get("WARLOG_KILL_SEED", "20261122")))
    heads: list[int] = []
    acknowledged_total = 0
    for round_ in range(KILLS):
        child = subprocess.Popen(
            [sys.executable, "-m", "tests.reliability.writer", str(db), "g"],
            cwd=ROOT,
            env=child_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert child.stdout is not None
        ready, _, _ = select.select([child.stdout], [], [], 60)
        assert ready, f"round {round_}: the writer committed nothing in 60 s"
        first = child.stdout.readline()  # the writer has committed at least once
        assert first, child.stderr.read().decode() if child.stderr else "writer died"
        time.sleep(rng.uniform(*WINDOW))
        os.kill(child.pid, signal.SIGKILL)
        rest, _ = child.communicate(timeout=30)
        assert child.returncode == -signal.SIGKILL, f"round {round_}: the writer stopped by itself"
        lines = (first + rest).decode().split("\n")
        acknowledged = [line.split() for line in lines[:-1]]  # the last may be cut mid-line
        acknowledged_total += len(acknowledged)

        records = assert_whole_log(db)
        by_seq = {r.seq: r.hash for r in records}
        for seq, hash_ in acknowledged:
            assert by_seq.get(int(seq)) == hash_, f"round {round_}: committed batch {seq} lost"
        head = records[-1].seq
        assert not heads or head >= heads[-1]
        heads.append(head)
        snapshot_agrees(db)
    assert acknowledged_total >= KILLS
    assert heads[-1] > heads[0]


# a child that fills the WAL with ~48 MB of frames (checkpoints off) and dies without closing,
# so that the frames stay in the WAL; rows of a game no catalogue names are a harmless load
_FILL = """
import os, sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA wal_autocheckpoint=0")
conn.execute("BEGIN")
for i in range(1, 12000):
    conn.execute(
        "INSERT INTO events (game, seq, type, data, at, prev, hash)"
        " VALUES ('ballast', ?, 'x', ?, 'x', 'x', 'x')",
        (i, os.urandom(2000).hex()),
    )
conn.execute("COMMIT")
os._exit(0)
"""
_CHECKPOINT = """
import os, sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
print("go", flush=True)
conn.execute("PRAGMA wal_checkpoint(FULL)").fetchall()
os._exit(0)
"""


def test_a_checkpoint_killed_half_way_leaves_a_database_that_opens_whole(
    tmp_path: Path, scenario: Path
) -> None:
    """Any warlog process may be checkpointing (a commit past 1,000 WAL pages, or the last
    connection closing) when it is killed. SQLite copies pages from the WAL into the file in
    page order, page 1 (whose header gives the new size) first: killed half-way, the file is
    shorter than its header says while the WAL still holds every frame, and the database is
    whole. It must open, and its log must be the log it was."""
    for attempt in range(1, 30):
        db = tmp_path / f"w{attempt}.db"
        make_game(db, scenario)
        before = records_of(db)
        subprocess.run([sys.executable, "-c", _FILL, str(db)], check=True, env=child_env())
        checkpoint = subprocess.Popen(
            [sys.executable, "-c", _CHECKPOINT, str(db)], stdout=subprocess.PIPE, env=child_env()
        )
        assert checkpoint.stdout is not None
        start_size = db.stat().st_size
        checkpoint.stdout.readline()
        # kill it as soon as the copy has begun growing the file (polling, not a fixed sleep: on
        # a loaded machine a fixed delay lands before or after the copy too often)
        deadline = time.monotonic() + 10
        while db.stat().st_size <= start_size and time.monotonic() < deadline:
            if checkpoint.poll() is not None:
                break
        time.sleep(0.0005 * (attempt - 1))
        os.kill(checkpoint.pid, signal.SIGKILL)
        checkpoint.wait()
        header = db.read_bytes()[:100]
        promised = int.from_bytes(header[28:32], "big") * int.from_bytes(header[16:18], "big")
        if 0 < db.stat().st_size < promised:  # killed half-way through the copy
            break
    else:
        raise AssertionError("no kill landed inside a checkpoint in 29 tries")
    assert records_of(db) == before  # SQLiteStore opens it: the WAL makes it whole
    assert_whole_log(db)
