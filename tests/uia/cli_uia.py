#!/usr/bin/env python3
"""cli_uia.py TRX TMPDIR - every command on a UIA packet file built here from the
header definitions: info --json members (format, records, lost_events, gaps,
packets, duplicate_packets, streams), events --format jsonl members (seq, id,
module, hdr_type, args, sender, logger, lost_before, snapshot, text with
--uia-meta), the lost line in text, stats --json counts, dump lines, the
options --trace-format and --endian, and errors naming the offset."""
import json, os, struct, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from elf32_writer import elf32
from test_support import check, finish

trx, tmp = sys.argv[1], sys.argv[2]


def run(*args, status=0):
    r = subprocess.run([trx, *args], capture_output=True, text=True)
    check(r.returncode == status, "trx %s: exit %d (%s)" % (" ".join(args), r.returncode, r.stderr))
    return r


le = lambda *ws: b"".join(struct.pack("<I", w & 0xFFFFFFFF) for w in ws)


def packet(body, seq, first, logger, sender):
    return struct.pack(">IIII", 10 << 28 | (16 + len(body)), seq << 16 | first << 2,
                       logger << 16 | 0x8003, 0xFFFF << 16 | sender) + body


# stream (sender 1, logger 2): seqs 0,1,2 then 6 (3 lost), 2-arg records, type 1
recs = b"".join(le(1 << 27 | 24 << 16 | s, 1000 + 10 * i, 0, 0x0010 << 16 | 0x8005, s, 0xAB)
                for i, s in enumerate([0, 1, 2, 6]))
# a one-record snapshot (type 3) of 5 bytes "hello" (this length high, total low)
snap = le(3 << 27 | 48 << 16 | 7, 2000, 0, 0x0001 << 16 | 0x8001, 0x1000, 42, 9, 0x20000000,
          5 << 16 | 5, 0x3000) + b"hello\0\0\0"
p1 = packet(recs + snap, 0, 0, 2, 1)
data = p1 + p1 + packet(le(1 << 27 | 16 << 16 | 0, 5, 0, 0x0020 << 16 | 0x8005), 0, 0, 0, 4)
path = os.path.join(tmp, "cli.uia")
open(path, "wb").write(data)

info = json.loads(run("info", "--json", path).stdout)
check(info["format"] == "uia" and info["input_format"] == "bin", "info format members")
check(info["records"] == 6 and info["lost_events"] == 3, "info records/lost: %s" % info)
# two senders = two cores, each on its own axis from 0; the events in the
# order of their ticks (ties: file order), so the gap is before event 4
check(info["gaps"] == [{"index": 4, "lost": 3, "from_ticks": 20, "to_ticks": 30, "stream": 0}],
      "info gaps %s" % info["gaps"])
check(info["packets"] == 3 and info["duplicate_packets"] == 1, "info packets")
check([(s["sender"], s["logger"], s["records"], s["lost_events"], s["sessions"])
       for s in info["streams"]] == [(1, 2, 5, 3, 1), (4, 0, 1, 0, 1)], "info streams")
text = run("info", path).stdout
check("3 events lost in 1 gap" in text and "1 duplicate skipped" in text, "info text says lost")

meta = os.path.join(tmp, "app.uia.xml")
open(meta, "w").write('<uia><evtMap id="16" moduleId="32773" shortName="Temp" '
                      'msg="t%3D%25d+f%3D%25x"/><modIdMap id="32773" moduleName="Sensor"/></uia>')
lines = [json.loads(l) for l in run("events", "--format", "jsonl", "--uia-meta", meta,
                                     path).stdout.splitlines()]
check(len(lines) == 6, "events: %d lines" % len(lines))
check([(l["ticks"], l["core"], l["sender"]) for l in lines] ==
      [(0, 0, 1), (0, 1, 4), (10, 0, 1), (20, 0, 1), (30, 0, 1), (1000, 0, 1)],
      "events on the cores' axes: %s" % [(l["ticks"], l["core"], l["sender"]) for l in lines])
e = lines[4]
check((e["seq"], e["id"], e["module"], e["hdr_type"], e["args"], e["sender"], e["logger"],
       e["lost_before"]) == (6, 16, 0x8005, 1, [6, 0xAB], 1, 2, 3), "events jsonl %s" % e)
check(e["name"] == "Temp" and e["text"] == "t=6 f=ab" and e["module_name"] == "Sensor",
      "events names/text %s" % e)
sn = lines[5].get("snapshot")
check(sn == {"id": 9, "address": 0x20000000, "total_length": 5, "length": 5, "records": 1,
             "incomplete": False, "data": "68656c6c6f"}, "snapshot %s" % sn)
check(lines[1]["core"] == 1 and lines[1]["sender"] == 4, "second sender = core 1")
txt = run("events", path).stdout
check("3 events lost here" in txt, "events text has the lost line")
check(len(run("events", "--format", "csv", "--event", "16", path).stdout.splitlines()) == 5,
      "csv with --event filter")

st = json.loads(run("stats", "--json", path).stdout)
counts = {(s["module"], s["id"]): s["count"] for s in st["popular_services"]}
check(counts == {(0x8005, 16): 4, (0x8001, 1): 1, (0x8005, 32): 1} and st["lost_events"] == 3,
      "stats %s" % st)
dump = run("dump", path).stdout
check("lost 3 events" in dump and "duplicate (skipped)" in dump and "snapshot id 9" in dump,
      "dump listing")

# forcing the other decoder / byte order is an error with an offset, not a misreading
r = run("info", "--trace-format", "txtb", path, status=2)
check("offset 0" in r.stderr and "TXTB" in r.stderr, "forced txtb: %s" % r.stderr)
raw = os.path.join(tmp, "raw.uia")
open(raw, "wb").write(recs)
run("info", "--endian", "little", raw)
r = run("info", "--endian", "big", raw, status=2)
check("offset" in r.stderr, "wrong --endian: %s" % r.stderr)
bad = os.path.join(tmp, "bad.uia")
open(bad, "wb").write(recs + le(13 << 27 | 8 << 16, 0))
r = run("info", bad, status=2)
check("offset 96: UIA record HdrType 13 is reserved" in r.stderr, "reserved type: %s" % r.stderr)
# trx's recorder, stop policy: the drop-count record (module 0x5452, event 1) is a gap at the end
drop = os.path.join(tmp, "drop.uia")
open(drop, "wb").write(le(10 << 27 | 20 << 16 | 0, 5, 0, 3 << 16 | 0x5458, 0x20001000) +
                       le(10 << 27 | 20 << 16 | 20 << 5 | 1, 6, 0, 1 << 16 | 0x5452, 17) +
                       le(8 << 27 | 20 << 5 | 2))
di = json.loads(run("info", "--json", drop).stdout)
check(di["target_dropped"] == 17 and di["lost_events"] == 17 and di["gaps"][0]["index"] == 2,
      "target_dropped %s" % di)
dt = run("events", drop).stdout
check("17 events dropped by the target" in dt and "TRX UIA DROPPED" in dt, "events text drop line")
# two cores with unrelated clocks (core 1 runs 3x faster, from another
# start) and two UIASync sync points each: with the metadata naming them,
# info says aligned and both cores share the global timer's axis
def core_packet(sender, offset, rate):
    body, seq = b"", 0
    for k in range(10):
        g = 100 + 10 * k + sender
        cpu = offset + rate * g
        if k in (0, 9):
            body += le(1 << 27 | 48 << 16 | seq, cpu & 0xFFFFFFFF, cpu >> 32, 0x31 << 16 | 0x8011,
                       k, cpu & 0xFFFFFFFF, cpu >> 32, g, 0, rate, 0, 0)
            seq += 1
        body += le(1 << 27 | 20 << 16 | seq, cpu & 0xFFFFFFFF, cpu >> 32, 0x20 << 16 | 0x8012, g)
        seq += 1
    return packet(body, 0, 0, 0, sender)
synced = os.path.join(tmp, "synced.uia")
open(synced, "wb").write(core_packet(0, 5000, 1) + core_packet(1, 9 << 32, 3))
sync_meta = os.path.join(tmp, "sync.uia.xml")
open(sync_meta, "w").write('<uia><evtMap id="49" moduleId="32785" shortName="UIASync_syncPoint" '
                           'longName="ti.uia.events.UIASync.syncPoint"/></uia>')
si = json.loads(run("info", "--json", "--uia-meta", sync_meta, synced).stdout)
check((si["cores"], si["time_axes"], si["sync_points"]) == (2, "sync_points", 4), "aligned info %s" % si)
check("2 cores aligned by 4 sync points" in run("info", "--uia-meta", sync_meta, synced).stdout,
      "aligned info text")
ev = [json.loads(l) for l in run("events", "--format", "jsonl", "--uia-meta", sync_meta,
                                  synced).stdout.splitlines()]
got = [(e["ticks"], e["args"][0]) for e in ev if e["id"] == 0x20]
check(got == sorted(got) and all(t == g - 100 for t, g in got) and len(got) == 20,
      "aligned events: %s" % got)
plain = json.loads(run("info", "--json", synced).stdout)
check((plain["time_axes"], plain["sync_points"]) == ("per_core", 0), "no names: per core %s" % plain)
# two loggers of one core: two streams, one core, one clock; the records of
# both in time order (the second logger's packet comes first in the file)
def logger_packet(logger, times):
    body = b"".join(le(1 << 27 | 20 << 16 | i, t, 0, 0x21 << 16 | 0x8012, t) for i, t in enumerate(times))
    return packet(body, 0, 0, logger, 9)
two = os.path.join(tmp, "two_loggers.uia")
open(two, "wb").write(logger_packet(5, [105, 115, 125]) + logger_packet(0, [100, 110, 120]))
te = [json.loads(l) for l in run("events", "--format", "jsonl", two).stdout.splitlines()]
check([(e["ticks"], e["stream"], e["core"], e["logger"]) for e in te] ==
      [(0, 1, 0, 0), (5, 0, 0, 5), (10, 1, 0, 0), (15, 0, 0, 5), (20, 1, 0, 0), (25, 0, 0, 5)],
      "two loggers: %s" % [(e["ticks"], e["stream"], e["core"], e["logger"]) for e in te])
ti = json.loads(run("info", "--json", two).stdout)
check((ti["cores"], ti["time_axes"], [s["core"] for s in ti["streams"]]) == (1, "one_clock", [0, 0]),
      "two loggers info %s" % ti)
# the target's own Load reports (named by metadata: any module and event
# ids), two cores: kept as series in stats --json target_load
def load_packet(sender, reports):
    body = b""
    for i, (t, ev, args) in enumerate(reports):
        body += le(1 << 27 | (16 + 4 * len(args)) << 16 | i, t, 0, ev << 16 | 0x8021, *args)
    return packet(body, 0, 0, 0, sender)
loads = os.path.join(tmp, "loads.uia")
open(loads, "wb").write(
    load_packet(0, [(1000, 0x41, [37]), (1100, 0x42, [0x20001000, 250, 1000, 0x08000421]),
                    (2000, 0x41, [55]), (2100, 0x43, [120, 1000])]) +
    load_packet(1, [(500, 0x41, [12]), (1500, 0x44, [30, 1000])]))
load_meta = os.path.join(tmp, "load.uia.xml")
open(load_meta, "w").write(
    '<uia>' + ''.join('<evtMap id="%d" moduleId="32801" shortName="Load_%s" longName='
                      '"ti.sysbios.utils.Load.%s"/>' % (i, n, n)
                      for i, n in ((0x41, "LS_cpuLoad"), (0x42, "LS_taskLoad"),
                                   (0x43, "LS_hwiLoad"), (0x44, "LS_swiLoad"))) + '</uia>')
tl = json.loads(run("stats", "--json", "--uia-meta", load_meta, loads).stdout)["target_load"]
check(tl == {"cpu": [{"core": 0, "ticks": 0, "percent": 37}, {"core": 1, "ticks": 0, "percent": 12},
                     {"core": 0, "ticks": 1000, "percent": 55}],
             "tasks": [{"core": 0, "ticks": 100, "task": 0x20001000, "time": 250, "total": 1000,
                        "function": 0x08000421}],
             "hwi": [{"core": 0, "ticks": 1100, "time": 120, "total": 1000}],
             "swi": [{"core": 1, "ticks": 1000, "time": 30, "total": 1000}],
             # beside the reports, trx's own load: none without the scheduler's events
             "per_core": [{"core": 0, "reports": 2, "mean_percent": 46.0, "trx_load_percent": None},
                          {"core": 1, "reports": 1, "mean_percent": 12.0, "trx_load_percent": None}],
             "complete": True},
      "target_load %s" % tl)
lt = run("stats", "--uia-meta", load_meta, loads).stdout
check(["core", "0", "2", "46.00", "55", "-"] in [l.split() for l in lt.splitlines()] and
      ["core", "1", "1", "12.00", "12", "-"] in [l.split() for l in lt.splitlines()], "load text:\n" + lt)
check(json.loads(run("stats", "--json", loads).stdout)["target_load"] is None, "no names: no target_load")
# --elf on UIA: "0x%x" and %p arguments named by the ELF's symbols, %s
# arguments printed from its read-only data (an ELF32 ARM file written here)
fw = os.path.join(tmp, "fw.elf")
open(fw, "wb").write(elf32([("sensor_task", 0x8001, 0x40, 0x12), ("sensor_sem", 0x20000100, 16, 0x11)],
                           0x10000, b"ready\0"))
sym_meta = os.path.join(tmp, "sym.uia.xml")
open(sym_meta, "w").write('<uia><evtMap id="5" moduleId="32802" shortName="Msg" '
                          'msg="%25s+in+0x%25x+on+0x%25x+count+%25d"/></uia>')
sym_uia = os.path.join(tmp, "sym.uia")
open(sym_uia, "wb").write(packet(le(1 << 27 | 32 << 16, 10, 0, 5 << 16 | 0x8022, 0x10000, 0x8001,
                                    0x20000108, 0x8001), 0, 0, 0, 1))
se = json.loads(run("events", "--format", "jsonl", "--uia-meta", sym_meta, "--elf", fw, sym_uia,
                    ).stdout.splitlines()[0])
check(se["text"] == "ready in 0x8001 <sensor_task> on 0x20000108 <sensor_sem+0x8> count 32769" and
      se["arg_symbols"] == [None, "sensor_task", "sensor_sem+0x8", None], "UIA with --elf: %s" % se)
for p in (path, meta, raw, bad, drop, synced, sync_meta, two, loads, load_meta, fw, sym_meta, sym_uia):
    os.remove(p)
finish("cli_uia")
