#!/usr/bin/env python3
"""convert_roundtrip.py TRX CORPUS_DIR TMPDIR - `trx convert` round trips on the corpus:
TXTB -> UIA -> TXTB gives the event area back byte for byte (entries in
chronological order); the UIA copy has every entry as a record, no lost events,
opens as the TXTB trace it carries (--trace-format uia: as its records), and
`trx stats --json` counts the same events per id in both formats; UIA ->
TXTB -> `trx dump` opens and shows every event."""
import glob, json, os, struct, subprocess, sys

trx, corpus, tmp = sys.argv[1], sys.argv[2], sys.argv[3]
failures = 0


def run(*args):
    r = subprocess.run([trx, *args], capture_output=True)
    if r.returncode != 0:
        raise RuntimeError("trx %s failed: %s" % (" ".join(args), r.stderr.decode()))
    return r.stdout


def event_area(path):
    """Used entries of a TXTB file, oldest first, as bytes."""
    d = open(path, "rb").read()
    f = ">I" if d[:4] == b"TXTB" else "<I"
    rd = lambda o: struct.unpack_from(f, d, o)[0]
    base = rd(8)
    start, end, cur = rd(24) - base, rd(28) - base, rd(32) - base
    ents = [d[o:o + 32] for o in range(start, end, 32)]
    used = 0
    while used < len(ents) and struct.unpack_from(f, ents[used], 0)[0] != 0:
        used += 1
    k = (cur - start) // 32
    if k >= used:
        k = 0
    return b"".join(ents[k:used] + ents[:k])


def counts(stats):
    return {(s["id"]): s["count"] for s in stats["popular_services"]}


for src in sorted(glob.glob(os.path.join(corpus, "*.trx"))):
    name = os.path.basename(src)
    uia = os.path.join(tmp, name + ".uia")
    back = os.path.join(tmp, name + ".back.trx")
    try:
        run("convert", "--to", "uia", src, "-o", uia)
        run("convert", "--to", "txtb", uia, "-o", back)
        a, b = event_area(src), event_area(back)
        info = json.loads(run("info", "--json", uia))
        tinfo = json.loads(run("info", "--json", src))
        ok = True
        if a != b:
            print("FAIL %s: event area differs after TXTB -> UIA -> TXTB" % name)
            ok = False
        # its records carry TXTB entries: it opens as the TXTB trace it carries
        if (info["format"] != "txtb" or info["stream"]["records"] != tinfo["entries_used"]
                or info["entries_used"] != tinfo["entries_used"] or info["lost_events"] != 0):
            print("FAIL %s: UIA copy read as %s with %s records, %s lost (expected txtb, %s, 0)"
                  % (name, info["format"], info.get("stream", {}).get("records"),
                     info.get("lost_events"), tinfo["entries_used"]))
            ok = False
        raw = json.loads(run("info", "--json", "--trace-format", "uia", uia))
        if raw["format"] != "uia" or raw["records"] != tinfo["entries_used"]:
            print("FAIL %s: --trace-format uia: %s records" % (name, raw.get("records")))
            ok = False
        su, st = json.loads(run("stats", "--json", uia)), json.loads(run("stats", "--json", src))
        cu, ct = counts(su), counts(st)
        # TXTB's popular services leave some ids out (RUNNING ...): compare the ids it lists
        if any(cu.get(i) != n for i, n in ct.items()):
            print("FAIL %s: events per id differ between TXTB and UIA stats" % name)
            ok = False
        failures += not ok
        if ok:
            print("ok   %s (%d entries)" % (name, len(a) // 32))
    except RuntimeError as e:
        print("FAIL %s: %s" % (name, e))
        failures += 1
    for p in (uia, back):
        if os.path.exists(p):
            os.remove(p)

# UIA -> TXTB -> dump: a gap becomes user event 0xFFF0 carrying the lost count.
def le(*words):
    return b"".join(struct.pack("<I", w) for w in words)
recs = b""
for i, seq in enumerate([0, 1, 2, 6, 7]):
    recs += le(1 << 27 | 24 << 16 | seq, 100 * i, 0, 0x1234 << 16 | 0x8005, i, 2 * i)
pkt = struct.pack(">IIII", 10 << 28 | (16 + len(recs)), 1 << 16, 0, 0xFFFF << 16 | 1) + recs
src = os.path.join(tmp, "gap.uia")
open(src, "wb").write(pkt)
txtb = os.path.join(tmp, "gap.trx")
run("convert", "--to", "txtb", src, "-o", txtb)
dump = run("dump", txtb).decode()
events = [json.loads(l) for l in run("events", "--format", "jsonl", txtb).decode().splitlines()]
ids = [e["id"] for e in events]
if ids != [0x1234, 0x1234, 0x1234, 0xFFF0, 0x1234, 0x1234] or events[3]["info"][0] != 3:
    print("FAIL gap.uia -> TXTB: events %s" % ids)
    failures += 1
elif "Total Events" not in dump and "otal" not in dump:
    print("FAIL gap.uia -> TXTB: dump has no summary")
    failures += 1
else:
    print("ok   gap.uia -> TXTB -> dump (lost-events user event 0xFFF0, info1 = 3)")
for p in (src, txtb):
    os.remove(p)
sys.exit(1 if failures else 0)
