"""A Battle for Armageddon position a person can read: the turn, the segment and phase, who must
decide what, each side's forces and holdings, and every area with its owner, counters and
neighbours — built from one side's view, so it shows only what that side may see."""

from __future__ import annotations

from typing import Any

from warlog.domain.battle_for_armageddon.rules import PLAYERS
from warlog.domain.core.summary import Summary, Table, plural

_WAITING = {
    "setup": "set up in Ork Territory (deploy) or end the set-up",
    "strategy": "choose two strategy cards, in the order they will be played",
    "movement": "move counters, play a special card, or end the phase",
    "combat": "attack, play a special card, or end the phase",
    "build": "build, place or rebuild, play a special card, or end the phase",
    "reroll": "reroll the combat result or keep it",
    "loss": "choose the counter lost",
    "retreat": "choose where the counter retreats",
    "advance": "choose the counters that advance",
}


def summary(view: dict[str, Any], player: str | None) -> Summary:
    """The summary of a view (``views.view``)."""
    headline = f"Turn {view['turn']} of {view['last_turn']}"
    if view["stage"] == "action":
        headline += (
            f" — segment {view['segment']}: the {view['phasing']}' {view['phase']} phase"
            f" (strategy card {view['card']})"
        )
    elif view["stage"] == "over":
        headline += f" — the game is over: {view['result']}"
    else:
        headline += f" — {view['stage']}"
    pending = view.get("pending") or {}
    waiting = ""
    if pending.get("players"):
        who = " and the ".join(pending["players"])
        what = _WAITING.get(pending["kind"], pending["kind"])
        where = f" in {pending['area']}" if pending.get("area") else ""
        waiting = f"the {who} must {what}{where}"
    counters = view["counters"]
    sides = []
    for side in PLAYERS:
        mine = [c for c in counters.values() if c["side"] == side]
        on_map = [c for c in mine if c["location"] in view["map"]]
        sites = [s for s in view["sites"].values() if side == "imperials" and not s["ruined"]]
        hand = view["hands"][side]
        strategy = view["strategy"][side]
        sides.append(
            [
                side,
                plural(len(on_map), "counter"),
                plural(sum(c["attack"] for c in on_map), "point") + " of attack",
                _holds(view, side, len(sites)),
                plural(hand["count"], "card")
                + (f" ({', '.join(hand['cards'])})" if hand.get("cards") else ""),
                ", ".join(strategy["cards"]) or ("chosen" if strategy["chosen"] else "-"),
            ]
        )
    areas = []
    for area_id, area in view["map"].items():
        here = view["areas"].get(area_id, {})
        ids = here.get("counters", [])
        owner = {counters[c]["side"] for c in ids}
        site = here.get("site")
        site_text = "" if site is None else f"{site['id']}{' (ruins)' if site['ruined'] else ''}"
        areas.append(
            [
                area_id,
                area["terrain"],
                "/".join(sorted(owner)) or ("imperials" if site and not site["ruined"] else ""),
                ", ".join(ids),
                site_text,
                ", ".join(area["neighbours"]),
            ]
        )
    tables = [
        Table("sides", ["side", "on the map", "attack", "holds", "hand", "strategy"], sides),
        Table("areas", ["area", "terrain", "held by", "counters", "site", "neighbours"], areas),
    ]
    combat = view.get("combat")
    if combat:  # the attack being resolved: its odds, its roll and the steps still to apply
        steps = "; ".join(f"{s['kind']} ({s['side']}, {s['area']})" for s in combat["steps"])
        tables.append(
            Table(
                f"combat at {combat['target']}",
                ["attacker", "from", "attack", "defence", "odds", "roll", "result", "steps left"],
                [
                    [
                        combat["attacker"],
                        ", ".join(combat["stacks"]),
                        str(combat["attack_total"]),
                        str(combat["defence_total"]),
                        combat["column"] or "-",
                        str(combat["roll"] or "-"),
                        combat["result"] or "-",
                        steps or "-",
                    ]
                ],
            )
        )
    return Summary(headline=headline, waiting=waiting, tables=tables)


def _holds(view: dict[str, Any], side: str, sites: int) -> str:
    """The Imperials' intact hives and factories, their build track and the points to spend in
    a build phase; the Orks' rebuilds left in theirs (rules: Build Phase)."""
    if side == "imperials":
        out = plural(sites, "hive or factory", "hives and factories")
        out += f", build track {view['build_track']}"
        if view["phase"] == "build" and view["phasing"] == side:
            out += f", {plural(view['build_points'], 'point')} to spend"
        return out
    if view["phase"] == "build" and view["phasing"] == side:
        return plural(view["rebuilds"], "rebuild") + " left"
    return "-"
