#!/usr/bin/env python3
"""peak_anon.py TRX TRACE - the peak anonymous memory (RssAnon) of `trx serve
TRACE` until its overview and statistics are done, read from /proc in a
tight loop (tens of microseconds apart: bench_serve.sh samples every few
milliseconds and can miss a short peak). Linux only. Not a test."""
import subprocess
import sys
import time
import urllib.request

trx, trace = sys.argv[1], sys.argv[2]
p = subprocess.Popen([trx, "serve", trace, "--port", "0"], stdout=subprocess.PIPE,
                     stderr=subprocess.DEVNULL, text=True)
base, token = p.stdout.readline().strip().split("/?token=")
peak = samples = 0
start = time.time()
try:
    while time.time() - start < 600:
        with open("/proc/%d/status" % p.pid) as f:
            for line in f:
                if line.startswith("RssAnon:"):
                    peak = max(peak, int(line.split()[1]))
        samples += 1
        if samples % 200 == 0:
            with urllib.request.urlopen(base + "/api/status?token=" + token) as r:
                if '"done":true,"stats":true' in r.read().decode():
                    break
finally:
    p.terminate()
print("peak RssAnon %d kB (%.1f MiB), %d samples in %.1f s" %
      (peak, peak / 1024, samples, time.time() - start))
