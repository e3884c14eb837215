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
                plural(len(sites), "hive or factory", "hives and factories")
                if side == "imperials"
                else "-",
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
    return Summary(
        headline=headline,
        waiting=waiting,
        tables=[
            Table("sides", ["side", "on the map", "attack", "holds", "hand", "strategy"], sides),
            Table("areas", ["area", "terrain", "held by", "counters", "site", "neighbours"], areas),
        ],
    )
