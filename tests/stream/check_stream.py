#!/usr/bin/env python3
"""check_stream.py TRX STREAM_WRITER WORKDIR - streams written by the stream
recorder (stream_writer.c) read back by trx, with the writer's truth:

- every event that arrives is the one the target recorded (its number, its
  arguments: no invented or altered event), in order;
- lost events = the recorder's own drop counter when its ring was full;
- damage on the link (a flipped byte, bytes lost from a packet, noise
  between packets): exactly the damaged packets' events are missing and
  counted as lost, the noise is reported, nothing else changes;
- a capture joined mid-packet or cut mid-packet (kill -9): exactly the whole
  packets' events;
- target resets: a new session each, not lost events."""
import json, os, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "uia"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_support import check, finish  # noqa: E402
from stream_support import events_in, packets  # noqa: E402

TRX, WRITER, WORK = sys.argv[1:4]
os.makedirs(WORK, exist_ok=True)
EVENTS = 6000


def write(name, events=EVENTS, ring=65536, staging=512, chunk=1 << 20, every=8, resets=0):
    path = os.path.join(WORK, name + ".bin")
    out = subprocess.run([WRITER, path, str(events), str(ring), str(staging), str(chunk),
                          str(every), str(resets)], check=True, capture_output=True, text=True)
    return path, json.loads(out.stdout)


def trx(*args):
    r = subprocess.run([TRX] + list(args), capture_output=True, text=True)
    return r


def read(path):
    r = trx("info", "--json", path)
    check(r.returncode == 0, "%s: info exit 0 (%s)" % (path, r.stderr.strip()))
    info = json.loads(r.stdout) if r.returncode == 0 else {}
    r = trx("events", "--format", "jsonl", path)
    check(r.returncode == 0, "%s: events exit 0 (%s)" % (path, r.stderr.strip()))
    return info, [json.loads(l) for l in r.stdout.splitlines()]


def expected_args(i, session):
    """The arguments the writer gave event i."""
    a = [i, i * 2654435761 & 0xFFFFFFFF, ~i & 0xFFFFFFFF, session]
    return a[:1] if i % 4 == 0 else a[:2] if i % 4 == 1 else a


def numbered(events, sessions):
    """Each event's (session index, number), checking it is the writer's
    event of that number (arguments, id), that numbers only go up within a
    session and that sessions follow each other."""
    out, sess, last = [], 0, -1
    for e in events:
        if e["module"] != 0x1234:  # a snapshot record: its number only
            key = e["seq"] & 0xFFFFFFFF
        else:
            i = e["args"][0]
            key = i + i // 1000  # snapshots come after every 1000th event
        if key <= last and sess + 1 < len(sessions):  # numbers from 0 again: the next session
            sess, last = sess + 1, -1
        if e["module"] == 0x1234:
            ok = (e["id"] == 0x10 + i % 4 and e["args"] == expected_args(i, sessions[sess]["session"])
                  and (e["seq"] & 0xFFFFFFFF) == key)
            check(ok, "event %d is the writer's event %d of session %d: %s" % (e["index"], i, sess, e))
        check(key > last, "numbers go up (%d after %d)" % (key, last))
        last = key
        out.append((sess, key))
    return out


total = EVENTS + EVENTS // 1000  # events and snapshot records, numbered alike

# 1. a clean stream: every event, nothing lost
path, truth = write("clean")
info, ev = read(path)
check(info.get("records") == total and info.get("lost_events") == 0,
      "clean: %d records, 0 lost (%s, %s)" % (total, info.get("records"), info.get("lost_events")))
check(info.get("stream_packets", 0) > 10 and info.get("garbage_bytes") == 0 and
      info.get("corrupt_packets") == 0, "clean: checked packets, no garbage")
check([k for _, k in numbered(ev, truth["sessions"])] == list(range(total)), "clean: numbers 0..n-1")

# 2. a ring too small for the rate: lost = the recorder's drop counter
for ring, every, chunk in ((1024, 16, 64), (4096, 8, 200), (8192, 50, 1000)):
    path, truth = write("drops_%d" % ring, ring=ring, every=every, chunk=chunk)
    info, ev = read(path)
    dropped = truth["sessions"][0]["dropped"]
    check(dropped > 0, "ring %d: the recorder dropped events (%d)" % (ring, dropped))
    check(info.get("lost_events") == dropped,
          "ring %d: lost %s = the recorder's count %d" % (ring, info.get("lost_events"), dropped))
    check(info.get("records", 0) + dropped == total, "ring %d: records + dropped = recorded" % ring)
    keys = [k for _, k in numbered(ev, truth["sessions"])]
    gaps = sum(e["lost_before"] for e in ev)
    check(gaps + (total - 1 - keys[-1]) == dropped, "ring %d: lost_before of events + the tail" % ring)

# 3. damage on the link, on the clean stream
path, truth = write("clean")
data = open(path, "rb").read()
pk = packets(data)
check(sum(l for _, l in pk) == len(data), "the writer's stream is whole packets")
victims = {5: "flip", 9: "cut", 14: "flip-header-length"}
damaged = bytearray()
lost = 0
for idx, (off, n) in enumerate(pk):
    body = bytearray(data[off:off + n])
    if idx in victims:
        lost += events_in(data, off, n)
    if victims.get(idx) == "flip":
        body[n // 2] ^= 0x10
    elif victims.get(idx) == "cut":
        del body[40:47]
    elif victims.get(idx) == "flip-header-length":
        body[3] ^= 0x40
    damaged += body
    if idx == 20:
        damaged += bytes((i * 37 + 11) & 0xFF for i in range(333))  # noise between packets
dpath = os.path.join(WORK, "damaged.bin")
open(dpath, "wb").write(damaged)
info, ev = read(dpath)
check(info.get("lost_events") == lost,
      "damage: lost %s = the damaged packets' events %d" % (info.get("lost_events"), lost))
check(info.get("records") == total - lost, "damage: every other event read")
check(info.get("corrupt_packets", 0) >= 1 and info.get("garbage_bytes", 0) >= 333,
      "damage: corrupt packets and noise reported (%s, %s)" % (info.get("corrupt_packets"),
                                                             info.get("garbage_bytes")))
numbered(ev, truth["sessions"])
r = trx("events", dpath)
check("no UIA packet" in r.stderr, "damage: every command warns (%s)" % r.stderr.strip())

# 4. joined mid-stream and stopped mid-packet (kill -9): whole packets only
for cut in (1, 7, pk[3][0] + 5, pk[3][0] + 61):
    part = data[cut:]
    whole = [p for p in pk if p[0] >= cut]
    cpath = os.path.join(WORK, "front.bin")
    open(cpath, "wb").write(part)
    info, ev = read(cpath)
    n = sum(events_in(data, o, l) for o, l in whole)
    check(info.get("records") == n and info.get("lost_events") == 0,
          "front cut %d: %d records of whole packets (%s), 0 lost" % (cut, n, info.get("records")))
    numbered(ev, truth["sessions"])
for cut in (len(data) - 1, pk[-5][0] + 3, pk[-5][0] + 40, pk[-5][0] + 17):
    part = data[:cut]
    whole = [p for p in pk if p[0] + p[1] <= cut]
    cpath = os.path.join(WORK, "tail.bin")
    open(cpath, "wb").write(part)
    info, ev = read(cpath)
    n = sum(events_in(data, o, l) for o, l in whole)
    check(info.get("records") == n, "tail cut %d: %d records of whole packets (%s)" %
          (cut, n, info.get("records")))
    numbered(ev, truth["sessions"])

# 5. target resets: sessions, not losses; drops counted per session
path, truth = write("resets", resets=2, ring=2048, every=12, chunk=100)
info, ev = read(path)
dropped = sum(s["dropped"] for s in truth["sessions"])
streams = info.get("streams", [{}])
check(len(streams) == 1 and streams[0].get("sessions") == 3,
      "resets: one stream, 3 sessions (%s)" % streams)
check(info.get("lost_events") == dropped,
      "resets: lost %s = dropped in all sessions %d" % (info.get("lost_events"), dropped))
sess = [s for s, _ in numbered(ev, truth["sessions"])]
check(sess[0] == 0 and sess[-1] == 2, "resets: events of all three sessions in order")

finish("stream_recorder")
