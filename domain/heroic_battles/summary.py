"""A Midgard battle a person can read: the turn and phase, who must decide what, each force's
Reputation Tokens, every unit and hero with its stamina, markers and Mighty Deeds, the melees on
the table, and the melee or single combat being fought now: what each side declared, the hits it
scored and saved. warlog keeps no map: the table is the players' (HB-27)."""

from __future__ import annotations

import contextlib
from typing import Any

from warlog.domain.core.summary import Summary, Table, plural

_WAITING = {
    "movement": "move, charge, change facing, join or leave a unit, or end its movement",
    "skirmish": "shoot with its skirmishers, light riders or unattached heroes, or stop",
    "challenge": "challenge an enemy hero to single combat, or not",
    "shooting": "shoot with a unit or hero, or pass",
    "charge_response": "evade, counter charge or receive the charge on {unit}",
    "charge_follow_up": "declare whether {unit} still reaches {target}",
    "reroll_test": "re-roll the failed command test of {unit} with a Mighty Deed, or accept it",
    "risk_reroll": "re-roll a 1 of the Risk to Heroes of {hero}, or accept it",
    "challenge_answer": "accept or refuse the challenge of {challenger} to {hero}",
    "single_combat_deeds": "commit Mighty Deeds of {hero} to round {round} of the single combat",
    "melee": "declare for {combat}: supports, hill or barrier, rough terrain, Mighty Deeds",
    "pursuit": "pursue or hold its ground",
    "disengage": "choose whether {unit} disengages",
    "retreat": "declare what the {distance} retreat of {unit} runs into",
    "roll": "roll {dice}D6: {what}",
}
_PHASES = {
    "movement": "the movement phase of {force}",
    "skirmish": "{force} shooting after its movement",
    "melee": "the melee phase of {force}",
    "shooting": "the shooting phase",
}


def summary(view: dict[str, Any], player: str | None) -> Summary:
    """The summary of a view (``views.view``)."""
    headline = f"Turn {view['turn']} of {view['last_turn']}"
    if view["phase"] == "over":
        outcome = "a draw" if view["result"] == "draw" else f"{view['result']} win"
        headline += f" — the battle is over: {outcome}"
    else:
        headline += " — " + _PHASES[view["phase"]].format(force=view["phasing"])
        headline += f" ({view['attacker']} attack, {view['defender']} defend)"
    return Summary(
        headline=headline,
        waiting=_waiting(view.get("pending") or {}),
        tables=[_forces(view), _units(view), _heroes(view), _melees(view), *_fought(view)],
        legend="warlog keeps no positions: the players measure the table and declare it "
        "(" + "; ".join(view["table_duties"]) + ")",
    )


def _waiting(pending: dict[str, Any]) -> str:
    if not pending.get("players"):
        return ""
    what = _WAITING.get(pending["kind"], pending["kind"])
    fields = {k: v for k, v in pending.items() if isinstance(v, str)}
    with contextlib.suppress(KeyError):  # every decision names what its phrase does
        what = what.format(**fields)
    return f"{' and '.join(pending['players'])} must {what}"


def _forces(view: dict[str, Any]) -> Table:
    rows = [
        [f, force["name"], plural(force["tokens"], "token"), str(force["on_table"])]
        for f, force in view["forces"].items()
    ]
    return Table("forces", ["force", "name", "Reputation", "on the table"], rows)


def _markers(piece: dict[str, Any]) -> str:
    marks = [m for m in ("charging", "winning", "shot") if piece.get(m)]
    return ", ".join(marks) or "-"


def _melee_of(view: dict[str, Any], pid: str) -> str:
    for c in view["combats"]:
        if any(pid in fighters for fighters in c["sides"].values()):
            return c["id"]
    return "-"


def _units(view: dict[str, Any]) -> Table:
    heroes: dict[str, list[str]] = {}
    for h in view["heroes"].values():
        if h["unit"]:
            heroes.setdefault(h["unit"], []).append(h["id"])
    rows = []
    for u in view["units"].values():
        dice = f"{u['combat_dice']}" + (
            f" / {u['shooting_dice']} {u['missile']}" if u["shooting_dice"] else ""
        )
        rows.append(
            [
                u["id"],
                u["force"],
                u["type"].replace("_", " "),
                u["gone"] or f"{u['stamina']}/{u['max_stamina']}",
                dice,
                str(u["armour"]),
                _markers(u),
                ", ".join(heroes.get(u["id"], [])) or "-",
                _melee_of(view, u["id"]),
            ]
        )
    columns = ["unit", "force", "type", "stamina", "dice", "armour", "markers", "heroes", "melee"]
    return Table("units", columns, rows)


def _heroes(view: dict[str, Any]) -> Table:
    rows = [
        [
            h["id"],
            h["force"],
            str(h["level"]),
            h["gone"] or f"{h['stamina']}/{h['max_stamina']}",
            str(h["deeds"]),
            h["unit"] or ("-" if h["gone"] else "on its own"),
            _melee_of(view, h["id"]) if not h["unit"] else "-",
        ]
        for h in view["heroes"].values()
    ]
    columns = ["hero", "force", "level", "stamina", "Mighty Deeds", "with", "melee"]
    return Table("heroes", columns, rows)


def _melees(view: dict[str, Any]) -> Table:
    sides = [view["attacker"], view["defender"]]
    rows = [
        [
            c["id"],
            *(", ".join(c["sides"].get(side, [])) for side in sides),
            ", ".join(c["flanked"]) or "-",
        ]
        for c in view["combats"]
    ]
    return Table("melees", ["melee", *sides, "engaged in flank or rear"], rows)


#: a melee's steps (its frame's stage) in the words of the procedure (pp.50–62)
_MELEE_STEPS = {
    "declare": "declarations",
    "fight": "combat dice",
    "rerolls": "1s re-rolled",
    "count": "hits counted",
    "risk": "Risk to Heroes",
    "damage": "stamina lost",
    "outcome": "the result",
    "pursuit": "pursuit",
    "disengage": "disengaging",
}
_OUTCOMES = {"fighting_victory": "a fighting victory", "draw": "a draw", "destroyed": "destroyed"}


def _fought(view: dict[str, Any]) -> list[Table]:
    """The melee and the single combat being fought now, if any: step by step, each side's
    declarations, dice and hits as far as they have gone."""
    sides = [view["attacker"], view["defender"]]
    tables = []
    for frame in view["procedures"]:
        if frame["frame"] == "melee":
            tables.append(_melee_fought(frame, sides))
        elif frame["frame"] == "single_combat":
            tables.append(_single_combat(frame))
    return tables


def _melee_fought(frame: dict[str, Any], sides: list[str]) -> Table:
    title = f"{frame['combat']} being fought: {_MELEE_STEPS[frame['stage']]}"
    if frame["winner"]:
        title += f" — {frame['winner']} win, {_OUTCOMES[frame['outcome']]}"
    elif frame["outcome"]:
        title += f" — {_OUTCOMES[frame['outcome']]}"
    rows = []
    for side in sides:
        declared = frame["declared"].get(side)
        scored = frame["scored"].get(side)
        legendary = frame["legendary"].get(side, 0)
        conceded = frame["conceded"].get(side)
        rows.append(
            [
                side,
                "not yet" if declared is None else _declaration(declared),
                "-"
                if scored is None
                else str(scored) + (f" ({legendary} Legendary)" if legendary else ""),
                str(frame["saves"].get(side, "-" if conceded is None else 0)),
                "-" if conceded is None else f"{conceded} on {frame['primaries'][side]}",
            ]
        )
    columns = ["force", "declared", "hits scored", "support saves", "hits taken after saves"]
    return Table(title, columns, rows)


def _declaration(declared: dict[str, Any]) -> str:
    said = []
    if declared["supports"]:
        said.append("supported by " + ", ".join(declared["supports"]))
    if declared["holding"]:
        said.append("holds a hill or barrier")
    if declared["rough"]:
        said.append("in rough terrain: " + ", ".join(declared["rough"]))
    if declared["deeds"]:
        said.append("Mighty Deeds " + ", ".join(f"{h} {n}" for h, n in declared["deeds"].items()))
    if declared["inspire"]:
        said.append("Inspiring " + ", ".join(f"{h} {n}" for h, n in declared["inspire"].items()))
    return "; ".join(said) or "nothing"


def _single_combat(frame: dict[str, Any]) -> Table:
    stage = {"answer": "the answer", "deeds": "Mighty Deeds", "rerolls": "1s re-rolled"}
    title = (
        f"single combat of {frame['challenger']} and {frame['challenged']}: "
        f"round {frame['round']}, {stage[frame['stage']]}"
    )
    rows = [
        [
            hero,
            str(frame["deeds"].get(hero, "not yet")),
            str(frame["hits"].get(hero, "-")),
        ]
        for hero in (frame["challenger"], frame["challenged"])
    ]
    return Table(title, ["hero", "Mighty Deeds this round", "hits this round"], rows)
