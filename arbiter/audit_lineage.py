"""A game's lineage checked: its ``game_created`` (the version, ids, dice and recorded scenario it
opens with) and each ``game_forked`` (where it cuts, and the dice it keeps or commits to)."""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from warlog.arbiter.audit_report import Find
from warlog.arbiter.ids import GAME_ID
from warlog.arbiter.initial import scenario_of
from warlog.arbiter.meta import GameMeta
from warlog.domain.core.dice import commitment_of
from warlog.domain.core.errors import WarlogError
from warlog.domain.core.events import GameCreated, GameForked
from warlog.domain.core.ruleset import AnyRuleset
from warlog.domain.core.summary import listed
from warlog.eventstore.records import Record


def check_created(
    record: Record,
    event: GameCreated,
    ruleset: AnyRuleset,
    find: Find,
    stop_rules: Callable[[int, str], None],
) -> None:
    """Check a game's creation under ``ruleset`` (the one it names); ``stop_rules`` is told
    where and why the rules cannot follow it (a version not played here, a scenario invalid)."""
    if record.seq != 1:
        find(record.seq, "sequence", "game_created after the first event")
    if not GAME_ID.fullmatch(event.game):
        find(record.seq, "decode", f"{event.game!r} is not a game id the arbiter would write")
    if event.dice.stream != event.game:
        find(
            record.seq,
            "dice",
            "the dice stream is not the game's id",
            event.game,
            event.dice.stream,
        )
    if not event.dice.commitment:
        find(record.seq, "dice", "a game without a commitment to its key")
    if event.version != ruleset.version:
        find(
            record.seq,
            "version",
            f"played under {ruleset.name} version {event.version}, which this warlog does "
            f"not play{_unplayed_why(event.version, ruleset.version)} (it plays "
            f"{listed((ruleset.version, *ruleset.kept_versions))}), so rules re-derivation was "
            "not done",
        )
        stop_rules(record.seq, f"played under version {event.version}")
        return  # its rules, and what they would make of its scenario, are not here
    try:
        scenario = scenario_of(ruleset, record.data, event)
        recorded = ruleset.recorded_scenario(scenario)  # its version's form (AE-61)
        if msgspec.json.encode(recorded) != msgspec.json.encode(event.scenario):
            find(record.seq, "decode", "the recorded scenario is not in its canonical form")
        elif list(ruleset.players(scenario)) != list(event.players):
            find(
                record.seq,
                "rules",
                "the players are not the scenario's",
                str(ruleset.players(scenario)),
                str(event.players),
            )
    except (msgspec.ValidationError, WarlogError) as exc:
        find(record.seq, "decode", f"the recorded scenario is invalid: {exc}")
        stop_rules(record.seq, "the recorded scenario is invalid")


def _unplayed_why(version: str, latest: str) -> str:
    """What is known of why a log names a version not played here: a later one than the latest
    was written by a newer warlog (or forged), an earlier one is no longer kept."""
    if not (version.isdigit() and latest.isdigit()):
        return ""
    if int(version) > int(latest):
        return ": a newer warlog may have written it"
    return ": a version this warlog no longer keeps"


def check_forked(
    record: Record,
    event: GameForked,
    meta: GameMeta | None,
    find: Find,
    seeds: dict[str, tuple[int, bytes]],
) -> None:
    """Check a fork's lineage event against the meta in force before it; the seed a fork that
    keeps its dice shows is kept in ``seeds`` (commitment -> (seq, seed)) when it opens the
    commitment in force, as a reveal is."""
    if event.at != record.seq - 1:
        find(
            record.seq,
            "sequence",
            f"game_forked says it cuts at {event.at}",
            str(record.seq - 1),
            str(event.at),
        )
    if not GAME_ID.fullmatch(event.game) or not GAME_ID.fullmatch(event.parent):
        find(record.seq, "decode", "game_forked names a game id the arbiter would not write")
    if event.dice is None:
        if event.seed is None:
            find(
                record.seq,
                "dice",
                "a fork keeps dice whose seed it does not show: it must have been revealed "
                "(its rolls and seals were computable by whoever made it)",
            )
        elif meta is not None:
            try:
                seed = bytes.fromhex(event.seed)
            except ValueError:
                seed = b""
            if commitment_of(seed) != meta.dice.commitment:
                find(
                    record.seq,
                    "dice",
                    "the seed the fork keeps does not open the commitment in force",
                    meta.dice.commitment,
                    commitment_of(seed),
                )
            else:
                seeds.setdefault(meta.dice.commitment or "", (record.seq, seed))
    elif event.seed is not None:
        find(record.seq, "dice", "a fork with new dice shows a seed")
    else:
        if not event.dice.commitment:
            find(record.seq, "dice", "the fork's new dice carry no commitment")
        if event.dice.stream != event.game:
            find(
                record.seq,
                "dice",
                "the fork's dice stream is not its id",
                event.game,
                event.dice.stream,
            )
