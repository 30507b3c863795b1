#!/usr/bin/env python3
"""serve_compat.py TRX TRACE - trx serve in TraceX's mode (--compat tracex):
the statistics served equal `trx stats --compat tracex --json`, the
inversion list pages what it lists (TraceX's mode lists no inversion
windows: its figures only) and the time line has no inversion bands, at the
start, middle and end.
"""
import json, subprocess, sys

from served import Served

trx, trace = sys.argv[1], sys.argv[2]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


want = json.loads(subprocess.run([trx, "stats", "--compat", "tracex", "--json", trace], check=True,
                                 capture_output=True).stdout)
srv = Served(trx, "--compat", "tracex", trace)
try:
    st = srv.wait_done()
    got = srv.get("api/stats")
    check(got.get("mode") == want.get("mode"), "mode %s, stats %s" % (got.get("mode"), want.get("mode")))
    for key in ("performance", "threads"):
        check(got.get(key) == want.get(key), "%s differs from trx stats --compat tracex --json" % key)
    iv = srv.get("api/inversions?first=0&count=100")
    listed = len(want.get("inversions") or [])
    check(iv["total"] == listed and iv["inversions"] == (want.get("inversions") or []),
          "/api/inversions: %d of %d listed, trx stats lists %d" % (len(iv["inversions"]), iv["total"], listed))
    total = st["total"]
    for first in (0, total // 2, max(0, total - 300)):
        a = srv.get("api/events?first=%d&count=300" % first)
        check(a.get("inversions") == [], "window at %d: inversion bands %s" % (first, a.get("inversions", [])[:3]))
    print("serve --compat tracex: %d events, statistics as trx stats, no bands" % total)
finally:
    srv.stop()
for f in failures:
    print("FAIL: " + f)
sys.exit(1 if failures else 0)
