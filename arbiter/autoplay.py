"""Autoplay: a game played on by its ruleset's deterministic policy (the demo, recorded fixtures,
tests and benchmarks)."""

from __future__ import annotations

import msgspec

from warlog.arbiter.application import Arbiter


def autoplay(arb: Arbiter, game: str, max_commands: int) -> int:
    """Play ``game`` with its ruleset's policy (``choose``) for the first player the game waits
    for, until it ends, nobody can act, or ``max_commands`` were played; the number played."""
    ruleset = arb.ruleset_of(game)
    played = 0
    while played < max_commands:
        state = arb.state(game)
        active = ruleset.active_players(state)
        if not active:
            break
        player = active[0]
        legal = list(ruleset.legal_commands(state, player))
        if not legal:
            break
        arb.play(game, msgspec.json.encode(ruleset.choose(state, player, legal)))
        played += 1
    return played
