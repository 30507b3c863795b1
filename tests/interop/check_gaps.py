#!/usr/bin/env python3
"""check_gaps.py - lost-event gaps reach every export and the report.

usage: check_gaps.py TRX SHARED_DIR TRACE WORK_DIR LOST GAPS

TRACE has GAPS gaps holding LOST events in all (make_uia_gaps writes one).
  CTF          babeltrace2 reads it, prints every event and reports the
               discarded events (events_discarded in the packet contexts);
  Chrome JSON  one "X" slice per gap on the "Lost events" thread, lost summed;
  Perfetto     decodes; one "N events lost" slice per gap;
  CSV          lost_before adds up;
  report       its data says lost_events = LOST and has GAPS gaps.
Event names are those of `trx events` (UIA: module-aware).
"""
import csv
import json
import os
import re
import subprocess
import sys


def run(args, **kw):
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    if r.returncode != 0:
        sys.exit("FAIL: %s exited %d: %s" % (" ".join(args), r.returncode, r.stderr.decode()[:400]))
    return r


def main():
    trx, shared, trace, work, lost, ngaps = sys.argv[1:7]
    lost, ngaps = int(lost), int(ngaps)
    os.makedirs(work, exist_ok=True)
    fails = []
    events = run([trx, "events", "--no-synthetic", "--format", "jsonl", trace]).stdout.decode()
    names = [json.loads(line)["name"] for line in events.splitlines() if '"index"' in line]
    count = len(names)

    out = os.path.join(work, "ctf")
    run([trx, "export", "--to", "ctf", trace, "-o", out])
    r = run(["babeltrace2", out])
    lines = r.stdout.decode().splitlines()
    if len(lines) != count:
        fails.append("ctf: babeltrace2 printed %d events, trx %d" % (len(lines), count))
    for line, name in zip(lines, names):
        if ") " + name + ":" not in line:
            fails.append("ctf: '%s' is not event %s" % (line[:80], name))
            break
    said = sum(int(x) for x in re.findall(r"discarded (\d+) events?", r.stderr.decode() + r.stdout.decode()))
    if said != lost:
        fails.append("ctf: babeltrace2 reports %d discarded events, want %d" % (said, lost))

    out = os.path.join(work, "t.json")
    run([trx, "export", "--to", "chrome-json", trace, "-o", out])
    doc = json.load(open(out))
    slices = [e for e in doc["traceEvents"] if e["ph"] == "X" and e.get("cat") == "lost"]
    if len(slices) != ngaps or sum(e["args"]["lost"] for e in slices) != lost:
        fails.append("chrome: lost slices %s" % slices)
    shown = [e["name"] for e in doc["traceEvents"] if e["ph"] == "i"]
    if shown != names:
        fails.append("chrome: event names differ from trx events: %s vs %s" % (shown[:3], names[:3]))

    out = os.path.join(work, "t.pftrace")
    run([trx, "export", "--to", "perfetto", trace, "-o", out])
    text = run(["protoc", "--proto_path=" + os.path.join(shared, "perfetto"),
                "--decode=perfetto.protos.Trace", "perfetto_trace.proto"],
               stdin=open(out, "rb")).stdout.decode()
    named = [int(x) for x in re.findall(r'name: "(\d+) events lost"', text)]
    if len(named) != ngaps or sum(named) != lost:
        fails.append("perfetto: gap slices %s" % named)

    out = os.path.join(work, "t.csv")
    run([trx, "export", "--to", "csv", trace, "-o", out])
    total = sum(int(r["lost_before"]) for r in csv.DictReader(open(out, newline="")))
    if total != lost:
        fails.append("csv: lost_before sums to %d" % total)

    out = os.path.join(work, "t.html")
    run([trx, "report", trace, "-o", out])
    html = open(out, encoding="utf-8").read()
    m = re.search(r'<script id="trx-meta" type="application/json">(.*?)</script>', html, re.S)
    meta = json.loads(m.group(1))
    if meta["lost_events"] != lost or len(meta["gaps"]) != ngaps:
        fails.append("report: lost_events %s, %d gaps" % (meta["lost_events"], len(meta["gaps"])))

    for f in fails:
        print("FAIL:", f)
    if not fails:
        print("ok: %d events, %d lost in %d gaps in every output" % (count, lost, ngaps))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
