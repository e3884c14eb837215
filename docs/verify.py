"""Verify a warlog export on your own: python verify.py GAME.jsonl (needs only the standard library)."""
import hashlib, hmac, json, sys  # noqa: E401


def faces(seed, stream, salt, seq, count, sides):
    out, block, limit = [], 0, 256 - 256 % sides
    while len(out) < count:
        msg = f"{stream}:{salt}:{seq}:{block}".encode()
        out += [b % sides + 1 for b in hmac.new(seed, msg, hashlib.sha256).digest() if b < limit]
        block += 1
    return out[:count]


def verify(lines):
    prev, problems, rolls, spec = "0" * 64, [], [], {}
    for n, e in enumerate(json.loads(line) for line in lines if line.strip()):
        d = e["data"]
        data = json.dumps(d, separators=(",", ":"), ensure_ascii=False)
        text = f"{prev}\n{e['seq']}\n{e['type']}\n{e['at']}\n{data}"
        if e["seq"] != n + 1 or e["prev"] != prev or hashlib.sha256(text.encode()).hexdigest() != e["hash"]:
            problems.append(f"seq {e['seq']}: the chain is broken here")
        prev = e["hash"]
        if e["type"] in ("game_created", "game_forked") and d.get("dice"):
            spec = d["dice"]
        elif e["type"] == "dice_rolled":
            rolls.append((e["seq"], d["sides"], d["faces"], spec))
        elif e["type"] == "dice_revealed":
            seed = bytes.fromhex(d["seed"])
            if hashlib.sha256(seed).hexdigest() != spec.get("commitment"):
                problems.append(f"seq {e['seq']}: the seed does not open the commitment")
            for seq, sides, got, s in rolls:
                if s is spec and faces(seed, s["stream"], s.get("salt", ""), seq, len(got), sides) != got:
                    problems.append(f"seq {seq}: these faces do not come from the revealed seed")
    return problems


if __name__ == "__main__":
    found = verify(open(sys.argv[1], encoding="utf-8"))
    print("\n".join(found) or "chain intact; every revealed die re-derived")
    sys.exit(1 if found else 0)
