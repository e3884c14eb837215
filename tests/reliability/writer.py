"""A writer process for the crash tests: plays legal commands on one game, forever.

``python -m tests.reliability.writer DB GAME [BIG]`` appends through ``Arbiter.play`` on the
SQLite store and prints ``SEQ HASH`` of each committed batch's last event, flushed, once
``play`` has returned: every line printed is a batch the store acknowledged as committed.
"""

from __future__ import annotations

import json
import sys

from tests.toy import rulesets
from warlog.arbiter.database import on_database


def main(db: str, game: str) -> None:
    arb = on_database(db, rulesets)
    ruleset = arb.ruleset_of(game)
    n = 0
    while True:
        state = arb.state(game)
        player = ruleset.active_players(state)[0]
        kind = n % 4
        if kind == 3:
            text = json.dumps({"type": "pass", "player": player})
        else:
            text = json.dumps({"type": "roll", "player": player, "count": kind + 1})
        last = arb.play(game, text)[-1]
        sys.stdout.write(f"{last.seq} {last.hash}\n")
        sys.stdout.flush()
        n += 1


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
