#!/usr/bin/env python3
"""bounded_memory.py - the inputs that once made trx allocate by tick values
(UIA records whose time goes back across lost-event gaps: 4.2 GB for report
and check, 8.4 GB for diff) and the fuzzers' regression seeds, through
report, check (every rule, a 1-tick window too), diff (against itself and
the demo), stats --json and every export: each run's peak RSS must stay
under a fixed floor (no allocation sized by a value in the input) and its
time under a few seconds.

usage: bounded_memory.py TRX MAKE_UIA_GAPS SEEDS_DIR TRX_DEMO
"""
import os
import resource
import subprocess
import sys
import tempfile
import time

TRX, GAPS, SEEDS, TRX_DEMO = sys.argv[1:5]
RSS_MB, SECONDS = 300, 20  # floor: the sanitizer builds included
failures = []


def run(args):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.monotonic()
    p = subprocess.run([TRX] + args, capture_output=True, timeout=120)
    dt = time.monotonic() - t0
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB, the largest child so far
    if p.returncode < 0 or p.returncode > 3:
        failures.append("%s: exit %d" % (" ".join(args), p.returncode))
    if peak > max(before, RSS_MB * 1024):
        failures.append("%s: peak RSS %d MB over %d MB" % (" ".join(args), peak // 1024, RSS_MB))
    if dt > SECONDS:
        failures.append("%s: %.1f s" % (" ".join(args), dt))


with tempfile.TemporaryDirectory() as work:
    back = os.path.join(work, "back.uia")
    subprocess.run([GAPS, back, "--backwards"], check=True)
    subprocess.run([TRX_DEMO, work], check=True, capture_output=True)
    DEMO = os.path.join(work, "demo.trx")
    inputs = [back] + [os.path.join(SEEDS, d, f) for d in ("fuzz_uia", "fuzz_decode")
                       for f in sorted(os.listdir(os.path.join(SEEDS, d)))]
    rules = ["max-cpu-load=50", "max-cpu-load=50:1", "max-isr-rate=2:1", "max-isr-ticks=1",
             "no-priority-inversion", "min-stack-free=1", "max-latency=1", "max-response=1",
             "no-lost-events"]
    for f in inputs:
        run(["report", f, "-o", os.path.join(work, "r.html")])
        run(["check", f] + rules)
        run(["diff", f, f])
        run(["diff", f, DEMO])
        run(["stats", "--json", f])
        for fmt in ("perfetto", "chrome-json", "csv", "ctf"):
            run(["export", f, "--to", fmt, "-o", os.path.join(work, "x." + fmt)])
    for f in failures:
        print("FAIL " + f, file=sys.stderr)
    print("bounded_memory: %d inputs x 12 commands, peak RSS limit %d MB: %d failures"
          % (len(inputs), RSS_MB, len(failures)))
sys.exit(1 if failures else 0)
