#!/usr/bin/env python3
"""cut_packets.py TRX TMPDIR - a UIAPacket file cut at either end, as a
capture joined mid-packet or stopped mid-packet leaves it: at every byte of
the first packet (and into the second) the front cut is read from the first
whole packet, skipped bytes reported, and the events are exactly the records
of the whole packets after the cut (nothing invented, nothing lost but the
gap that is really there); at every byte of the last packet the tail cut
keeps that packet's whole records and says how many bytes it lacks. Both
ends cut at once too."""
import json, os, struct, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_support import REC, check, finish, uia_packets

trx, tmp = sys.argv[1], sys.argv[2]
os.makedirs(tmp, exist_ok=True)


packets = uia_packets(6)
data = b"".join(packets)
starts = [sum(len(x) for x in packets[:k]) for k in range(len(packets) + 1)]
path = os.path.join(tmp, "cut.uia")


def read(blob):
    open(path, "wb").write(blob)
    r = subprocess.run([trx, "info", "--json", path], capture_output=True, text=True)
    e = subprocess.run([trx, "events", "--format", "jsonl", path], capture_output=True, text=True)
    if r.returncode or e.returncode:
        return None, None, r.stderr + e.stderr
    return json.loads(r.stdout), [tuple(json.loads(l)["args"]) for l in e.stdout.splitlines()], ""


def expect(first_packet, last_whole, tail_records):
    """The records (packet, record) of whole packets first_packet..last_whole-1, then tail_records of the next."""
    out = [(p, r) for p in range(first_packet, last_whole) for r in range(3)]
    return out + [(last_whole, r) for r in range(tail_records)]


def lost_for(recs):
    return 5 if (3, 0) in recs and (3, 1) in recs else 0


# the front cut: every byte of the first packet, and some of the second
for cut in range(1, starts[1] + 40):
    info, ev, err = read(data[cut:])
    k = next(i for i, s in enumerate(starts) if s >= cut)  # the first whole packet
    want = expect(k, len(packets), 0)
    if info is None:
        check(False, "front cut %d: refused: %s" % (cut, err.strip()))
        continue
    check(ev == want, "front cut %d: events %s, want %s" % (cut, ev[:4], want[:4]))
    check(info.get("skipped_front_bytes") == starts[k] - cut,
          "front cut %d: skipped %s, want %d" % (cut, info.get("skipped_front_bytes"), starts[k] - cut))
    check(info["lost_events"] == lost_for(want), "front cut %d: lost %d" % (cut, info["lost_events"]))

# the tail cut: every byte of the last packet (the whole packet kept at the end)
last = len(packets) - 1
for end in range(starts[last] + 1, len(data) + 1):
    info, ev, err = read(data[:end])
    if info is None:
        check(False, "tail cut at %d: refused: %s" % (end, err.strip()))
        continue
    inside = end - starts[last]
    whole = max(0, (inside - 16) // REC) if end < len(data) else 3
    want = expect(0, last, whole) if end < len(data) else expect(0, len(packets), 0)
    check(ev == want, "tail cut at %d: %d events, want %d" % (end, len(ev), len(want)))
    want_cut = len(data) - end if end < len(data) else 0
    if 0 < inside < 4:  # not even the length word: at least the rest of the header
        want_cut = 16 - inside
    check(info.get("cut_tail_bytes") == want_cut,
          "tail cut at %d: cut_tail %s" % (end, info.get("cut_tail_bytes")))

# both ends at once
info, ev, err = read(data[starts[1] - 7:len(data) - 30])
check(info is not None and ev == expect(1, last, (len(packets[last]) - 30 - 16) // REC) and info["skipped_front_bytes"] == 7 and
      info["cut_tail_bytes"] == 30, "both ends cut: %s %s %s" % (info and info.get("skipped_front_bytes"), ev, err))
text = subprocess.run([trx, "info", path], capture_output=True, text=True).stdout
check("Cut at the front:   7 bytes" in text and "Cut at the end:     the last packet lacks 30 bytes" in text,
      "info text: " + text)
os.remove(path)
finish("cut_packets")
