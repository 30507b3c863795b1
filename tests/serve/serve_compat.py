#!/usr/bin/env python3
"""serve_compat.py TRX TRACE - trx serve in TraceX's mode (--compat tracex):
the statistics served equal `trx stats --compat tracex --json`, the
inversion list pages what it lists (TraceX's mode lists no inversion
windows: its figures only) and the time line has no inversion bands, at the
start, middle and end.
"""
import json, re, subprocess, sys, time, urllib.request

trx, trace = sys.argv[1], sys.argv[2]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def get(base, token, path):
    with urllib.request.urlopen("%s%s%stoken=%s" % (base, path, "&" if "?" in path else "?", token),
                                timeout=60) as r:
        return json.loads(r.read())


want = json.loads(subprocess.run([trx, "stats", "--compat", "tracex", "--json", trace], check=True,
                                 capture_output=True).stdout)
p = subprocess.Popen([trx, "serve", "--compat", "tracex", trace, "--port", "0"],
                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
try:
    m = re.match(r"^(http://127\.0\.0\.1:\d+/)\?token=([0-9a-f]{32})$", p.stdout.readline().strip())
    base, token = m.group(1), m.group(2)
    for _ in range(600):
        st = get(base, token, "api/status")
        if st.get("done") and st.get("stats"):
            break
        time.sleep(0.1)
    got = get(base, token, "api/stats")
    check(got.get("mode") == want.get("mode"), "mode %s, stats %s" % (got.get("mode"), want.get("mode")))
    for key in ("performance", "threads"):
        check(got.get(key) == want.get(key), "%s differs from trx stats --compat tracex --json" % key)
    iv = get(base, token, "api/inversions?first=0&count=100")
    listed = len(want.get("inversions") or [])
    check(iv["total"] == listed and iv["inversions"] == (want.get("inversions") or []),
          "/api/inversions: %d of %d listed, trx stats lists %d" % (len(iv["inversions"]), iv["total"], listed))
    total = st["total"]
    for first in (0, total // 2, max(0, total - 300)):
        a = get(base, token, "api/events?first=%d&count=300" % first)
        check(a.get("inversions") == [], "window at %d: inversion bands %s" % (first, a.get("inversions", [])[:3]))
    print("serve --compat tracex: %d events, statistics as trx stats, no bands" % total)
finally:
    p.terminate()
    p.wait()
for f in failures:
    print("FAIL: " + f)
sys.exit(1 if failures else 0)
