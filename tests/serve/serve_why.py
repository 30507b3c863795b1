#!/usr/bin/env python3
"""serve_why.py TRX TRACE - trx serve's /api/why (a path computed from the
walk's state saved nearest before the instance, serve_state.c) equals
`trx why --json` byte for byte as JSON, for every thread's instances near
the trace's start, middle and end; and an instance past the last is
refused as trx why refuses it.
"""
import json, os, subprocess, sys, urllib.error

from served import Served

trx, trace = sys.argv[1], sys.argv[2]
failures = []
# the sanitizer runs (TRX_TEST_SPARSE > 1) compare the first, middle and last
# instance of each thread: every `trx why` walks the whole trace
sparse = int(os.environ.get("TRX_TEST_SPARSE", "1")) > 1


def check(cond, what):
    if not cond:
        failures.append(what)


lat = json.loads(subprocess.run([trx, "latency", "--json", trace], check=True,
                                capture_output=True).stdout)
srv = Served(trx, trace)
compared = 0
try:
    srv.wait_done(120)
    for row in lat["threads"]:
        n = row["instances"] + row["incomplete"]
        if n == 0:
            continue
        picks = {1, n // 2 + 1, n} if sparse else {1, 2, n // 2, n // 2 + 1, n - 1, n}
        for number in sorted(picks - {0}):
            want = subprocess.run([trx, "why", "--json", trace, "--thread", row["name"],
                                   "--instance", str(number)], capture_output=True, text=True)
            try:
                got = srv.get("api/why?thread=%d&instance=%d" % (row["address"], number))
            except urllib.error.HTTPError as e:
                got = None
                check(want.returncode != 0, "%s #%d: served %d, trx why answers" % (row["name"], number, e.code))
                continue
            check(want.returncode == 0, "%s #%d: served, trx why refuses: %s" % (row["name"], number, want.stderr.strip()))
            if want.returncode == 0:
                check(got == json.loads(want.stdout), "%s #%d: /api/why differs from trx why --json" % (row["name"], number))
                compared += 1
    check(compared >= (6 if sparse else 12), "only %d instances compared" % compared)
    print("serve /api/why: %d instances equal trx why --json" % compared)
finally:
    srv.stop()
for f in failures:
    print("FAIL: " + f)
sys.exit(1 if failures else 0)
