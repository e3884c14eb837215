"""Verify a warlog export on your own: python verify.py GAME.jsonl [RECEIPTS] (needs only the standard library)."""
import hashlib, hmac, json, sys  # noqa: E401


def sha(text): return hashlib.sha256(text.encode()).hexdigest()  # noqa: E704
def mac(key, text): return hmac.new(key, text.encode(), hashlib.sha256)  # noqa: E704
def dump(v): return json.dumps(v, separators=(",", ":"), ensure_ascii=False)  # noqa: E704


def faces(seed, stream, salt, seq, count, sides):
    out, block, limit = [], 0, 256 - 256 % sides
    while len(out) < count:
        out += [b % sides + 1 for b in mac(seed, f"{stream}:{salt}:{seq}:{block}").digest() if b < limit]
        block += 1
    return out[:count]


def close(v, path, seals):  # the chained form: every seal closed; each one kept in `seals` as it came
    if isinstance(v, dict) and "sealed" in v and set(v) <= {"sealed", "value", "salt"}:
        seals.append((path[:-1], v))
        return {"sealed": v["sealed"]}
    if isinstance(v, dict):
        return {k: close(x, f"{path}{k}.", seals) for k, x in v.items()}
    return [close(x, f"{path}{i}.", seals) for i, x in enumerate(v)] if isinstance(v, list) else v


def verify(file, receipts=()):  # exits at once, in one line, if the file cannot be read or a line is not an event warlog writes
    prev, problems, kept, spec, shift, dealing, seeds, n, line, hashes = "0" * 64, [], [], {}, 0, False, {}, 0, 0, {}
    done, waiting, typed, closed = [0, 0], [0, 0], 0, 0  # [rolls, seals] checked and not; rolls a referee typed; seals left closed
    try:
        for line, text in enumerate(open(file, "rb"), 1):
            if not text.strip():
                continue
            n, e, seals = n + 1, json.loads(text.decode()), []
            t, s, d = e["type"], e["seq"], close(e["data"], "", seals)
            if sha(f"{prev}\n{s}\n{t}\n{e['at']}\n{dump(d)}") != e["hash"] or s != n or e["prev"] != prev:
                problems.append(f"seq {s}: the chain is broken here")
            prev, opened, hashes[s] = e["hash"], [(p, v) for p, v in seals if "value" in v], e["hash"]
            closed += len(seals) - len(opened)
            dealing = t == "game_created" or dealing and t not in ("command_issued", "dice_revealed", "game_forked")
            problems += [f"seq {s}: the seal of {p} does not open" for p, v in opened if sha(f"{v['salt']}\n{dump(v['value'])}") != v["sealed"]]
            if t in ("game_created", "game_forked"):  # the dice's fields as text, as the derivation writes them
                spec, shift = ({k: str(d["dice"].get(k, "")) for k in ("mode", "stream", "salt", "commitment")}, 0) if d.get("dice") else (spec, shift + 1)
            kept += [(s, s - shift, p, v["salt"], spec) for p, v in opened]
            typed += t == "dice_rolled" and spec.get("mode") != "auto" and not dealing  # the deal rolls on the seed
            if t == "dice_rolled" and (spec.get("mode") == "auto" or dealing):
                rolled, sides = dict(seals).get("faces", {"value": d["faces"]}).get("value"), d["sides"]
                if not isinstance(sides, int) or not 1 <= sides <= 256 or not isinstance(rolled, (list, type(None))):
                    raise ValueError(f"a die of {dump(sides)[:20]} sides rolling {dump(d['faces'])[:40]}: dice have 1 to 256 sides, faces in a list")
                kept.append((s, s - shift, None, (sides, rolled), spec))
            if d.get("seed") and t in ("dice_revealed", "game_forked"):  # a reveal, or a same-dice fork
                seeds[spec.get("commitment")] = key = bytes.fromhex(d["seed"])
                if hashlib.sha256(key).hexdigest() != spec.get("commitment"):
                    problems.append(f"seq {s}: the seed does not open the commitment in force")
    except OSError as exc:
        sys.exit(f"verify.py: cannot read {file} ({exc.strerror or exc})")
    except (ValueError, LookupError, TypeError, AttributeError, RecursionError) as exc:
        sys.exit(f"verify.py: {file} line {line} is not an event warlog writes ({type(exc).__name__}: {exc})")
    for seq, dseq, path, got, sp in kept:  # every salt and roll under a seed made public, before or after
        key = seeds.get(sp.get("commitment"))
        if key is None or path is None and got[1] is None:
            waiting[path is not None] += 1
            continue
        if path is not None and mac(key, f"seal:{sp.get('stream')}:{dseq}:{path}").hexdigest() != got:
            problems.append(f"seq {seq}: the salt of {path} does not come from the revealed seed")
        elif path is None and faces(key, sp.get("stream"), sp.get("salt"), dseq, len(got[1]), got[0]) != got[1]:
            problems.append(f"seq {seq}: these faces do not come from the revealed seed")
        done[path is not None] += 1
    for seq, held in receipts:  # each `SEQ HASH` that `warlog head` (or the server's /head) gave you
        if hashes.get(seq) != held:
            problems.append(f"receipt {seq}: " + (f"the log ends at seq {n}, before it: it has been cut" if seq > n else
                            f"event {seq} here is not the one your receipt holds: this is not the log you were given"))
    return problems + ([] if n else ["the file holds no event"]), done, waiting, typed, closed


def receipts(file):  # the `SEQ HASH` lines `warlog head GAME >> my-receipts.txt` kept (or the server's /head gave)
    try:
        held = [t.split() for t in open(file, encoding="utf-8") if t.strip()]
    except (OSError, UnicodeDecodeError) as exc:
        sys.exit(f"verify.py: cannot read {file} ({getattr(exc, 'strerror', None) or exc})")
    bad = [r for r in held if len(r) != 2 or not r[0].isdecimal() or not int(r[0]) or len(r[1]) != 64 or r[1].strip("0123456789abcdefABCDEF")]
    if bad or not held:
        sys.exit(f"verify.py: {file} holds a line that is not a receipt `SEQ HASH`: {' '.join(bad[0])[:80]}" if bad else f"verify.py: {file} holds no receipt")
    return [(int(q), h.lower()) for q, h in held]


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: python verify.py GAME.jsonl [RECEIPTS] (a warlog export; the `SEQ HASH` lines warlog head printed)")
    held = receipts(sys.argv[2]) if len(sys.argv) == 3 else []
    found, (rolls, seals), (unseeded, unsalted), typed, closed = verify(sys.argv[1], held)
    print("\n".join(found) or f"chain intact; {f'the {len(held)} receipt(s) you kept, each in it' if held else 'no receipts given'}; {rolls} rolls and {seals} seals checked against revealed seeds; not checked: {unseeded} rolls"
          f" (their seed not revealed, or their faces sealed), {typed} rolls typed by a referee (no seed derives them),"
          f" {unsalted} opened seals' salts (their seed not revealed), {closed} seals still closed, the rules (not re-run: warlog audit does)")
    sys.exit(1 if found else 0)
