"""Verify a warlog export on your own: python verify.py GAME.jsonl (needs only the standard library)."""
import hashlib, hmac, json, sys  # noqa: E401


def sha(text):
    return hashlib.sha256(text.encode()).hexdigest()


def mac(key, text):
    return hmac.new(key, text.encode(), hashlib.sha256)


def dump(v):
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False)


def faces(seed, stream, salt, seq, count, sides):
    out, block, limit = [], 0, 256 - 256 % sides
    while len(out) < count:
        out += [b % sides + 1 for b in mac(seed, f"{stream}:{salt}:{seq}:{block}").digest() if b < limit]
        block += 1
    return out[:count]


def close(v, path, opened):  # the chained form: every opened seal closed again, kept in `opened`
    if isinstance(v, dict) and "sealed" in v and set(v) <= {"sealed", "value", "salt"}:
        opened += [(path[:-1], v)] if "value" in v else []
        return {"sealed": v["sealed"]}
    if isinstance(v, dict):
        return {k: close(x, f"{path}{k}.", opened) for k, x in v.items()}
    return [close(x, f"{path}{i}.", opened) for i, x in enumerate(v)] if isinstance(v, list) else v


def verify(lines):
    prev, problems, kept, spec, shift, dealing, seeds, n = "0" * 64, [], [], {}, 0, False, {}, 0
    for n, e in enumerate((json.loads(line) for line in lines if line.strip()), 1):
        opened, t, s = [], e["type"], e["seq"]
        d = close(e["data"], "", opened)
        if s != n or e["prev"] != prev or sha(f"{prev}\n{s}\n{t}\n{e['at']}\n{dump(d)}") != e["hash"]:
            problems.append(f"seq {s}: the chain is broken here")
        prev = e["hash"]
        dealing = t == "game_created" or dealing and t not in ("command_issued", "dice_revealed", "game_forked")
        problems += [f"seq {s}: the seal of {p} does not open" for p, v in opened if sha(f"{v['salt']}\n{dump(v['value'])}") != v["sealed"]]
        if t in ("game_created", "game_forked"):
            spec, shift = (d["dice"], 0) if d.get("dice") else (spec, shift + 1)
        kept += [(s, s - shift, p, v["salt"], spec) for p, v in opened]
        if t == "dice_rolled" and (spec.get("mode") == "auto" or dealing):  # the deal rolls on the seed
            rolled = dict(opened).get("faces", {"value": d["faces"]})["value"]
            kept.append((s, s - shift, None, (d["sides"], rolled if isinstance(rolled, list) else None), spec))
        if d.get("seed") and t in ("dice_revealed", "game_forked"):  # a reveal, or a same-dice fork
            seeds[spec.get("commitment")] = key = bytes.fromhex(d["seed"])
            if hashlib.sha256(key).hexdigest() != spec.get("commitment"):
                problems.append(f"seq {s}: the seed does not open the commitment in force")
    done, waiting = [0, 0], 0
    for seq, dseq, path, got, sp in kept:  # every salt and roll under a seed made public, before or after
        key = seeds.get(sp.get("commitment"))
        if key is None or path is None and got[1] is None:
            waiting += 1
            continue
        if path is not None and mac(key, f"seal:{sp['stream']}:{dseq}:{path}").hexdigest() != got:
            problems.append(f"seq {seq}: the salt of {path} does not come from the revealed seed")
        elif path is None and faces(key, sp["stream"], sp.get("salt", ""), dseq, len(got[1]), got[0]) != got[1]:
            problems.append(f"seq {seq}: these faces do not come from the revealed seed")
        done[path is not None] += 1
    return problems + ([] if n else ["the file holds no event"]), done, waiting


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python verify.py GAME.jsonl (a warlog export)")
    try:
        found, (dice, seals), waiting = verify(open(sys.argv[1], encoding="utf-8"))
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        sys.exit(f"verify.py: {sys.argv[1]} is not a readable warlog export ({exc})")
    print("\n".join(found) or f"chain intact; {dice} dice and {seals} seals checked against revealed seeds;"
          f" {waiting} not checked (their seed is not revealed, or their value stays sealed)")
    sys.exit(1 if found else 0)
