"""What the command line and the server tell a person who asks: the games in a database, and the
legal commands with the dice each needs, or why there are none."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from warlog.arbiter.reads import NO_CLEAR_FORMS
from warlog.domain.core.dice import ProbeDice
from warlog.domain.core.errors import StoreError, WarlogError
from warlog.domain.core.events import DiceRolled
from warlog.domain.core.ruleset import AnyRuleset, Command
from warlog.eventstore.records import GameInfo

if TYPE_CHECKING:
    from warlog.arbiter.application import Arbiter


class GameSummary(msgspec.Struct, frozen=True):
    """One game of a database, as `warlog games` lists it."""

    game: str
    ruleset: str
    scenario: str
    players: list[str]
    head: int
    waiting: str
    over: bool
    revealed: bool
    parent: str | None = None
    fork_at: int | None = None


def games(arb: Arbiter) -> list[GameSummary]:
    """Every game of the store, sorted by id."""
    out = []
    for info in arb.store.games():
        scenario = _scenario_name(arb, info.game)
        try:
            folded = arb.folded(info.game)
        except StoreError as exc:
            if exc.code not in NO_CLEAR_FORMS:
                raise
            out.append(_unfolded(arb, info, scenario))
            continue
        ruleset = arb.ruleset_of(info.game)
        decision = ruleset.decision(folded.state)
        over = ruleset.is_terminal(folded.state) or folded.meta.revealed
        out.append(
            GameSummary(
                game=info.game,
                ruleset=info.ruleset,
                scenario=scenario,
                players=list(folded.meta.players),
                head=folded.seq,
                waiting="" if over or decision is None else decision.waiting,
                over=over,
                revealed=folded.meta.revealed,
                parent=info.parent,
                fork_at=info.fork_at,
            )
        )
    return out


#: what `games` says of a game it cannot fold: the state needs the key file's clear values
NO_KEY_FILE = "a move the key file would tell (not here)"


def _unfolded(arb: Arbiter, info: GameInfo, scenario: str) -> GameSummary:
    """A game of a database handed out without its key file: what its engine events say
    (players, head, reveal), never sealed, and not whose move it is."""
    meta, head = arb.engine_meta(info.game)
    revealed = meta.revealed
    return GameSummary(
        game=info.game,
        ruleset=info.ruleset,
        scenario=scenario,
        players=list(meta.players),
        head=head,
        waiting="" if revealed else NO_KEY_FILE,
        over=revealed,
        revealed=revealed,
        parent=info.parent,
        fork_at=info.fork_at,
    )


def _scenario_name(arb: Arbiter, game: str) -> str:
    first = arb.record_at(game, 1)
    try:
        created = msgspec.json.decode(first.data)
    except msgspec.DecodeError:
        created = None
    if not isinstance(created, dict):
        raise StoreError(
            f"game {game}, event 1 (game_created) does not decode: the database is damaged",
            "store/corrupt",
        )
    return str(created.get("scenario_name", ""))


class DieNeed(msgspec.Struct, frozen=True):
    """Dice a command rolls: ``count`` d``sides`` for ``purpose``, rolled for ``roller``."""

    count: int
    sides: int
    purpose: str
    roller: str

    def text(self) -> str:
        whose = f" ({self.roller})" if self.roller else ""
        return f"{self.count} d{self.sides} for {self.purpose or 'the rules'}{whose}"


class LegalReport(msgspec.Struct, frozen=True):
    """The legal commands (as ``play`` takes them), in a manual-dice game the dice each needs
    (``more`` when re-rolls can call for more, depending on the faces), and, when there are
    none, why."""

    commands: list[dict[str, Any]]
    dice: list[list[DieNeed]] = []
    more: list[bool] = []
    why_none: str = ""


def legal_report(arb: Arbiter, game: str, player: str | None) -> LegalReport:
    """What ``player`` (None: everyone the game waits for) may do now, or why nothing.

    In a manual-dice game the dice each command needs are given to the referee only (no
    ``player``): how many dice a move rolls can tell what that player may not see — the other
    side's sealed bid, an unseen army within reach of the move's end."""
    loaded = arb.loaded(game)
    ruleset = loaded.ruleset
    folded = arb.folded(game)
    if player is not None:
        ruleset.check_player(folded.state, player)
    commands = arb.legal(game, player)
    if not commands:
        return LegalReport([], why_none=_why_none(arb, game, player))
    if folded.meta.dice.mode != "manual" or player is not None:
        return LegalReport(commands)  # how many: only the referee (below)
    typed = [msgspec.convert(c, ruleset.command_type) for c in commands]
    needs, more = zip(*(_dice_of(ruleset, folded.state, c) for c in typed), strict=True)
    return LegalReport(commands, list(needs), list(more))


#: the faces the probes show: every die low, every die high, alternating, and counting up
PROBES = ("low", "high", "mixed", "ascending")


def _dice_of(ruleset: AnyRuleset, state: Any, command: Command) -> tuple[list[DieNeed], bool]:
    """The fewest dice ``command`` rolls under the probes' faces, and whether other faces call
    for more (re-rolls)."""
    found = [_rolls(ruleset, state, command, probe) for probe in PROBES]
    fewest = min(found, key=lambda rolls: sum(n.count for n in rolls))
    return fewest, any(rolls != fewest for rolls in found)


def _rolls(ruleset: AnyRuleset, state: Any, command: Command, probe: str) -> list[DieNeed]:
    try:
        events = ruleset.decide(state, command, ProbeDice(probe))
    except WarlogError:
        return []
    return [
        DieNeed(len(e.faces), e.sides, e.purpose, e.roller)
        for e in events
        if isinstance(e, DiceRolled)
    ]


def _why_none(arb: Arbiter, game: str, player: str | None) -> str:
    folded = arb.folded(game)
    ruleset = arb.ruleset_of(game)
    if folded.meta.revealed:
        return (
            f"the key of this game was revealed at seq {folded.meta.revealed_at}: its play is over "
            "(fork it with --dice new to play on)"
        )
    decision = ruleset.decision(folded.state)
    if decision is None:
        ended = ruleset.result(folded.state)
        return "the game is over" + (f" ({ended})" if ended else "")
    if player is not None and player not in decision.players:
        return f"the game waits for {decision.waiting}; nothing is asked of {player} now"
    return f"the game waits for {decision.waiting}, and no command answers it now"
