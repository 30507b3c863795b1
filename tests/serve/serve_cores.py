#!/usr/bin/env python3
"""serve_cores.py TRX TRACE... - the CPU lanes of multi-core traces, served:
each window of exact events that trx serve sends (once the statistics are
computed) carries the cores with events and the runs [core, first, last,
lane] of the events in it, and these are the runs of `trx report`'s page
(its "cores" member, from one walk of the whole trace) cut to the window -
at the start, in the middle and at the end of each trace, and in windows
starting where the cores have been followed for less than their lead-in.
"""
import json, os, re, subprocess, sys, tempfile

from served import Served

trx = sys.argv[1]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def report_runs(trace, tmp):
    out = os.path.join(tmp, "report.html")
    subprocess.run([trx, "report", trace, "-o", out], check=True, capture_output=True)
    html = open(out, encoding="utf-8").read()
    m = re.search(r'<script id="trx-meta" type="application/json">(.*?)</script>', html, re.S)
    meta = json.loads(m.group(1))
    return meta.get("cores", []), meta


for trace in sys.argv[2:]:
    with tempfile.TemporaryDirectory() as tmp:
        runs, meta = report_runs(trace, tmp)
        srv = Served(trx, trace)
        try:
            st = srv.wait_done()
            total = st["total"]
            cores_with_events = sorted({r[0] for r in runs})
            windows = [(0, 400), (max(0, total // 2 - 150), 300), (max(0, total - 500), 500),
                       (min(total - 1, 5000), 1000), (min(total - 1, 9000), 2000)]
            compared = 0
            for first, count in windows:
                a = srv.get("api/events?first=%d&count=%d" % (first, count))
                if a["count"] == 0:
                    continue
                lo, hi = a["first"], a["first"] + a["count"] - 1
                want = [[r[0], max(r[1], lo), min(r[2], hi), r[3]] for r in runs if r[2] >= lo and r[1] <= hi]
                if len(cores_with_events) < 2:
                    check("cores" not in a, "%s: a one-core trace's window has CPU runs" % trace)
                    continue
                check(a.get("cpu_cores") is not None and set(cores_with_events) <= set(a["cpu_cores"]),
                      "%s: window %d-%d: cpu_cores %s, the report's runs use %s" %
                      (trace, lo, hi, a.get("cpu_cores"), cores_with_events))
                got = sorted(a.get("cores", []))
                check(got == sorted(want), "%s: window %d-%d: runs differ from the report's:\n  served %s\n  report %s" %
                      (trace, lo, hi, got[:8], sorted(want)[:8]))
                compared += len(want)
            print("%s: %d events, %d cores, %d runs compared in %d windows" %
                  (trace, total, len(cores_with_events), compared, len(windows)))
        finally:
            srv.stop()

for f in failures[:10]:
    print("FAIL: " + f)
sys.exit(1 if failures else 0)
