"""A Hypothesis state machine any ruleset can run: from the opening or some way into a game of
the ruleset's own policy, random legal play through the real application, with some illegal
commands that must append nothing, checking after every step the ruleset's
invariants, that the live state equals the state replayed from the log, and that the log audits
clean."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import audit_records
from warlog.arbiter.autoplay import autoplay
from warlog.domain import rulesets
from warlog.domain.core.errors import WarlogError
from warlog.eventstore.memory_store import MemoryStore

SEED = bytes(range(32))


class GameMachine(RuleBasedStateMachine):
    """Subclass with ``ruleset_name`` and ``rule_invariants``; optionally ``scenario`` (a
    bundled name or a file) or ``scenario_text`` (the file's text: written to a temporary
    folder for the game)."""

    ruleset_name: str = ""
    scenario: str | None = None
    scenario_text: Callable[[], str] | None = None
    rule_invariants: Callable[[Any], None] = staticmethod(lambda state: None)

    def __init__(self) -> None:
        super().__init__()
        self.arbiter = Arbiter(MemoryStore(), rulesets.get, seeds=lambda: SEED)
        text = type(self).scenario_text
        if text is None:
            self.game = self.arbiter.new_game(self.ruleset_name, self.scenario, game="machine")
        else:
            with tempfile.TemporaryDirectory() as folder:
                path = Path(folder) / "machine.toml"
                path.write_text(text(), encoding="utf-8")
                self.game = self.arbiter.new_game(self.ruleset_name, str(path), game="machine")
        self.ruleset = self.arbiter.ruleset_of(self.game)
        self.players = list(self.arbiter.folded(self.game).meta.players)

    @initialize(into=st.sampled_from([0, 40, 160]))
    def some_way_into_the_game(self, into: int) -> None:
        """Start at the game's opening, or after ``into`` commands of the ruleset's own policy,
        so that random play also meets what comes later: battles, air strikes, captures, the
        end of the game."""
        autoplay(self.arbiter, self.game, into)

    def playable(self) -> bool:
        state = self.arbiter.state(self.game)
        return not self.ruleset.is_terminal(state) and bool(self.ruleset.active_players(state))

    @precondition(lambda self: self.playable())
    @rule(data=st.data())
    def play_a_legal_command(self, data: st.DataObject) -> None:
        state = self.arbiter.state(self.game)
        player = data.draw(
            st.sampled_from(list(self.ruleset.active_players(state))), label="player"
        )
        legal = self.arbiter.legal(self.game, player)
        if not legal:
            return
        command = data.draw(st.sampled_from(legal), label="command")
        self.arbiter.play(self.game, json.dumps(command))

    @rule(data=st.data())
    def an_illegal_command_appends_nothing(self, data: st.DataObject) -> None:
        state = self.arbiter.state(self.game)
        active = set(self.ruleset.active_players(state))
        idle = [p for p in self.players if p not in active]
        legal = self.arbiter.legal(self.game)
        kinds = ["garbage", "unknown_type", "unknown_player"]
        if legal:
            kinds += ["extra_field", "wrong_type"]
        if legal and idle:
            kinds.append("idle_player")
        kind = data.draw(st.sampled_from(kinds), label="illegal")
        if kind == "garbage":
            text = data.draw(st.sampled_from(["{", "[]", "null", '"move"', "{}", '{"type": 3}']))
        elif kind == "unknown_type":
            text = json.dumps({"type": "teleport", "player": self.players[0]})
        elif kind == "unknown_player":
            text = json.dumps(
                {**data.draw(st.sampled_from(legal)), "player": "nobody"}
                if legal
                else {"type": "x", "player": "nobody"}
            )
        elif kind == "extra_field":
            text = json.dumps({**data.draw(st.sampled_from(legal)), "sneaky": 1})
        elif kind == "wrong_type":
            command = data.draw(st.sampled_from(legal))
            text = json.dumps({**command, "player": 7})
        else:
            command = data.draw(st.sampled_from(legal))
            text = json.dumps({**command, "player": data.draw(st.sampled_from(idle))})
        before = self.arbiter.head(self.game)
        try:
            self.arbiter.play(self.game, text)
        except WarlogError as exc:
            assert exc.exit_code in (1, 3), exc
            assert "\n" not in exc.line()
        else:
            raise AssertionError(f"{kind} command was accepted: {text}")
        assert self.arbiter.head(self.game) == before

    @invariant()
    def the_rules_invariants_hold(self) -> None:
        type(self).rule_invariants(self.arbiter.state(self.game))

    @invariant()
    def the_live_state_equals_the_replayed_state(self) -> None:
        replayed = self.arbiter.fold_records(self.ruleset, self.arbiter.records(self.game))
        live = self.arbiter.state(self.game)
        assert msgspec.msgpack.encode(replayed.state) == msgspec.msgpack.encode(live)

    @invariant()
    def the_log_audits_clean(self) -> None:
        findings = audit_records(list(self.arbiter.records(self.game)), rulesets.get).findings
        assert findings == [], findings
