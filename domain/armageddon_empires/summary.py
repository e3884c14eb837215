"""An Armageddon Empires position a person can read: the round and whose turn, what the game waits
for, each empire's stockpile, AP and cards, the armies in sight (its own and the enemy's it has
sighted, AE-17), an open challenge's dice, and the hex map as text — built from one empire's
view, so it shows only what that empire may see (AE-7)."""

from __future__ import annotations

from typing import Any

from warlog.domain.armageddon_empires.challenge import SUCCESS_FROM_FACE
from warlog.domain.armageddon_empires.resources import KINDS
from warlog.domain.armageddon_empires.terrain import DEFAULT_LEGEND
from warlog.domain.core.summary import Summary, Table, plural

_TOKEN = {name: token for token, name in DEFAULT_LEGEND.items()}
LEGEND = (
    "terrain: . plains, d desert, b badlands, f forest, h hills, u urban, s swamp, m mountains; "
    "a base is its empire's initial in capitals with S (stronghold) or O (outpost); a number "
    "and an initial are that many armies of that empire; a + after either: armies of another "
    "empire stand there too (after a base: any army in the field); row r starts at hex 0,r and "
    "each row sits half a hex to the right of the one above"
)


def _token(terrain: str) -> str:
    return _TOKEN.get(terrain, terrain[:1] or "?")


def hex_map(view: dict[str, Any]) -> list[str]:
    """The map, row by row; each row is shifted half a hex from the one above (axial q,r)."""
    board = view["board"]
    bases = {b["at"]: b for b in view["bases"].values()}
    armies: dict[str, list[dict[str, Any]]] = {}
    for army in view["armies"].values():
        if army.get("garrison_of") is None:  # a sighted army carries no garrison_of
            armies.setdefault(army["at"], []).append(army)
    lines = []
    for r in range(board["height"]):
        cells = []
        for q in range(board["width"]):
            at = f"{q},{r}"
            cell = _token(board["terrain"][at]) + " "  # every hex of the map has its terrain
            counts: dict[str, int] = {}
            for army in armies.get(at, []):
                counts[army["empire"]] = counts.get(army["empire"], 0) + 1
            if at in bases:
                base = bases[at]
                cell = base["empire"][:1].upper() + ("S" if base["kind"] == "stronghold" else "O")
                cell += "+" if counts else ""
            elif counts:
                first = max(counts, key=lambda e: counts[e])
                cell = f"{min(counts[first], 9)}{first[:1].lower()}" + (
                    "+" if len(counts) > 1 else ""
                )
            cells.append(f"{cell:<4}")
        lines.append(f"r{r:<3}" + " " * (2 * r) + "".join(cells).rstrip())
    return lines


def summary(view: dict[str, Any], player: str | None) -> Summary:
    """The summary of a view (``views.view``)."""
    headline = f"Round {view['round']} of {view['max_rounds']}"
    if view["phase"] == "initiative":
        headline += " — initiative: each empire buys its dice"
    elif view["phase"] == "over" or view.get("ended"):
        headline += f" — the game is over: {view.get('ended') or 'an HQ has fallen'}"
        if view["phase"] == "over":
            headline += f"; {view['winner']} wins" if view.get("winner") else "; a draw"
    elif view.get("current"):
        headline += f" — {view['current']}'s turn"
    active = view.get("active") or []
    challenge = next(
        (f for f in reversed(view.get("frames", [])) if f["frame"] == "challenge"), None
    )
    if view["phase"] == "initiative" and active:
        waiting = f"{' and '.join(active)} must buy initiative dice (buy_initiative)"
    elif challenge is not None and active:
        waiting = (
            f"{active[0]} answers challenge {challenge['number']} ({challenge['purpose']}) as the "
            f"{challenge['to_act']}: the prerogative, fate, a tactic card, or accept (R5)"
        )
    elif active and view.get("awaited", "turn") == "turn":
        waiting = f"{active[0]} acts: draw, deploy, move, hunt, stealth, repair, army orders, or end the turn"
    elif active:  # a battle, an engagement, an intercept, a roll: the decision's own words
        waiting = view.get("waiting", "")
    else:  # between two events of one command's batch, nobody is asked anything
        waiting = ""
    empires = []
    for eid, emp in view["empires"].items():
        hand = emp.get("hand")
        cards = plural(len(hand), "card") if hand is not None else plural(emp["hand_size"], "card")
        if hand:
            cards += f" ({', '.join(hand)})"
        stock = ", ".join(f"{kind} {emp['resources'].get(kind, 0)}" for kind in KINDS)
        bases = sum(1 for b in view["bases"].values() if b["empire"] == eid)
        armies = sum(
            1
            for a in view["armies"].values()
            if a["empire"] == eid and a.get("garrison_of") is None
        )
        ap = str(emp["ap"]) if "ap" in emp else "hidden"
        if emp.get("ap_owed"):  # owed for acts outside its turn, paid when its turn begins (AE-19)
            ap += f", owes {emp['ap_owed']}"
        bids = view.get("bids") or {}
        if view["phase"] == "initiative" and eid in bids:  # its own bid, or "hidden" (AE-7)
            ap += f"; bid {bids[eid]}"
        empires.append(
            [
                eid,
                ap,
                stock,
                cards,
                plural(emp["deck_size"] if "deck_size" in emp else len(emp["deck"]), "card"),
                plural(bases, "base"),
                # another empire's armies are only those this reader has sighted (AE-17)
                plural(armies, "army", "armies")
                + (" sighted" if player is not None and eid != player else ""),
            ]
        )
    in_sight = [
        [
            a.get("id") or a.get("army", "?"),
            a["empire"],
            a["at"],
            a.get("hero") or "-",
            ", ".join(a.get("units", [])) or "-",
            ("stealthed, " if a.get("stealthed") else "")
            + (a.get("how") or ("own" if player is not None else "-")),
        ]
        for a in view["armies"].values()
    ]
    tables = [
        Table("empires", ["empire", "AP", "stockpile", "hand", "deck", "bases", "armies"], empires),
        Table(
            "armies" if player is None else "armies in sight",
            ["army", "empire", "hex", "hero", "units", "seen"],
            in_sight,
        ),
    ]
    mines = view.get("minefields") or {}
    if mines:  # AE-53: its own, and the enemy's it walked into (their damage unknown to it)
        damage = view.get("damage", {})
        rows = [
            [
                m["id"],
                m["empire"] or "independent",  # AE-67: no empire's
                m["at"],
                m["card"],
                "removed"  # AE-67: out of play, in the referee's view alone
                if m.get("removed")
                else str(damage.get(m["card"], 0))
                if player is None or m["empire"] == player
                else "unknown",
            ]
            for m in mines.values()
        ]
        tables.append(Table("minefields", ["minefield", "empire", "hex", "card", "damage"], rows))
    if challenge is not None:
        sides = (
            [challenge["attacker"], challenge["defender"]]
            if challenge["defender"]
            else [challenge["attacker"]]
        )
        rows = [
            [
                side["name"],
                side["empire"],
                str(max(0, sum(t["value"] for t in side["pool"]["terms"]))),  # R3: never below 0
                str(side["faces"]),
                str(sum(1 for f in side["faces"] if f >= SUCCESS_FROM_FACE)),
            ]
            for side in sides
        ]
        tables.append(
            Table(
                f"challenge {challenge['number']} ({challenge['purpose']})",
                ["side", "empire", "pool", "dice", "successes"],
                rows,
            )
        )
    return Summary(
        headline=headline,
        waiting=waiting,
        tables=tables,
        board=hex_map(view),
        legend=LEGEND,
    )
