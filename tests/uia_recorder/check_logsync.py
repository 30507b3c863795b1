#!/usr/bin/env python3
"""check_logsync.py TRX SYSBIOS_SHAPED DIR - the four_cores_logsync capture
(sysbios_shaped.c): four cores with unrelated clocks whose sync points are
logged through LogSync's module id, with TI's metadata giving the clocks.
Against the simulation's truth:
  - every record named (no "Event 0x..."), the sync points as UIASync's
    syncPoint with the logging module (LogSync) kept and named;
  - every record's ticks within one tick of its global time (per core, in
    the order written), and its time_us from the metadata's global timer
    frequency without --ticks-per-us;
  - trx info: each core aligned, its rate and offset against the global
    timer, its timestamp frequency (CpuFreq / CpuCyclesPerCpuTimerTick), the
    tick rate; and that an explicit --ticks-per-us wins."""
import json, os, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "uia"))
from test_support import check, finish

trx, sim, out = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(out, exist_ok=True)
subprocess.run([sim, out], check=True)
name = "four_cores_logsync"
path, meta = os.path.join(out, name + ".uia"), os.path.join(out, name + ".uia.xml")
truth = json.load(open(os.path.join(out, name + ".truth.json")))
RATES = {0: 3, 1: 1, 2: 4, 3: 2}      # core ticks per global tick (sysbios_shaped.c)
OFFSETS = {0: 5000, 1: 900000, 2: 77, 3: 2000000000}


def run(*args):
    r = subprocess.run([trx, *args], capture_output=True, text=True)
    check(r.returncode == 0, "trx %s: exit %d (%s)" % (" ".join(args), r.returncode, r.stderr))
    return r.stdout


events = [json.loads(l) for l in run("events", "--format", "jsonl", "--uia-meta", meta, path).splitlines()]
check(len(events) == sum(len(r) for r in truth["records"]),
      "%d events, truth %d" % (len(events), sum(len(r) for r in truth["records"])))
unnamed = [e for e in events if e["name"].startswith("Event 0x")]
check(not unnamed, "unnamed records: %s" % unnamed[:3])
syncs = [e for e in events if e["name"] == "UIASync_syncPoint"]
check(len(syncs) == 8 and all(e["module"] == 0x8040 and e["module_name"] == "ti.uia.runtime.LogSync"
                              for e in syncs), "sync points %s" % syncs[:2])
origin, hz = truth["origin_g"], truth["global_hz"]
for core, gs in enumerate(truth["records"]):
    mine = [e for e in events if e["core"] == core]
    want = [g - origin for g in gs]
    got = [e["ticks"] for e in mine]
    check(len(got) == len(want) and all(abs(a - b) <= 1 for a, b in zip(got, want)),
          "core %d ticks\n%s\ntruth\n%s" % (core, got[:20], want[:20]))
    us = [e.get("time_us") for e in mine]
    check(len(us) == len(want) and all(u is not None and abs(u - w * 1e6 / hz) <= 1e6 / hz + 0.001
                                       for u, w in zip(us, want)),
          "core %d time_us\n%s\ntruth\n%s" % (core, us[:20], [w * 1e6 / hz for w in want[:20]]))
ticks = [e["ticks"] for e in events]
check(ticks == sorted(ticks), "events not in time order on the one axis")
text = run("events", "--uia-meta", meta, path)
check("Event 0x" not in text and " LogSync " in text, "events text: unnamed or no LogSync module")

info = json.loads(run("info", "--json", "--uia-meta", meta, path))
check(info.get("time_axes") == "sync_points" and info.get("ticks_per_second") == hz,
      "info: axes %s, ticks_per_second %s" % (info.get("time_axes"), info.get("ticks_per_second")))
ct = info.get("core_time") or []
check(len(ct) == 4, "info core_time %s" % ct)
for c in ct:
    k = c["core"]
    rate, offset = 1 / RATES[k], -OFFSETS[k] / RATES[k]  # g = offset + rate x core time
    check(c["sync_points"] == 2 and c["aligned"] and abs(c["rate"] - rate) < 1e-9
          and abs(c["offset"] - offset) < 1e-3 and c["timestamp_hz"] == hz * RATES[k] * (k + 1) / (k + 1),
          "core %d: %s, truth rate %.9g offset %.6g" % (k, c, rate, offset))
itext = run("info", "--uia-meta", meta, path)
check("Tick rate:          2000000 ticks per second (the global timer)" in itext and
      "  core 2: 2 sync points, global = -19.25 + 0.25 x core ticks, timestamps at 8000000 Hz" in itext,
      "info text:\n%s" % itext)
line = [l for l in itext.splitlines() if l.startswith("Relative ticks:")]
check(len(line) == 1 and "(the global timer's, from the first record; " in line[0] and
      line[0].endswith("; %.6f s)" % (int(line[0].split()[4]) / hz)),
      "info text: relative ticks line %s" % line)

# bad metadata: one line on stderr naming the file and offset, even when the
# value it quotes holds a newline
bad = os.path.join(out, "bad.uia.xml")
with open(bad, "w") as f:
    f.write('<?xml version="1.0"?>\n<uia>\n  <evtMap id="1" moduleId="12\n34" shortName="x"/>\n</uia>\n')
r = subprocess.run([trx, "stats", "--uia-meta", bad, path], capture_output=True, text=True)
check(r.returncode == 2 and r.stderr.count("\n") == 1 and bad in r.stderr and "offset" in r.stderr,
      "bad metadata: exit %d, stderr %r" % (r.returncode, r.stderr))

# an explicit rate wins; without the metadata nothing is known
st = json.loads(run("stats", "--json", "--uia-meta", meta, path))
st4 = json.loads(run("stats", "--json", "--uia-meta", meta, "--ticks-per-us", "4", path))
check(st.get("ticks_per_second") == hz and st4.get("ticks_per_second") == 4000000,
      "stats rates %s %s" % (st.get("ticks_per_second"), st4.get("ticks_per_second")))
bare = [json.loads(l) for l in run("events", "--format", "jsonl", path).splitlines()[:3]]
check(all("time_us" not in e for e in bare), "time_us without a known rate: %s" % bare)
check(json.loads(run("info", "--json", path)).get("ticks_per_second") == 0, "info rate without metadata")
finish("check_logsync")
