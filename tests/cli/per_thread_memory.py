#!/usr/bin/env python3
"""per_thread_memory.py - `trx stats` keeps at most 256 bytes per thread
(issue 17): on the hostile shapes that make a thread nearly every event
(bench/host/gen_hostile: running-unknown, new-contexts, open-inversions),
the peak RSS of `trx stats` (both modes) minus the file's size (mapped,
every page read) must stay under 256 B x threads plus 8 MiB (the program,
libc, buffers). Memory only: time is measured in bench/, not here.

usage: per_thread_memory.py TRX GEN_HOSTILE [ENTRIES]"""
import json
import os
import subprocess
import sys
import tempfile

TRX, GEN = sys.argv[1], sys.argv[2]
ENTRIES = int(sys.argv[3]) if len(sys.argv) > 3 else 400000
LIMIT, SLACK = 256, 8 << 20


def peak(*args):
    """Peak RSS in bytes of one `trx` run (its own child process)."""
    probe = ("import resource, subprocess, sys\n"
             "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
             "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", probe, TRX] + list(args), check=True,
                         capture_output=True, text=True).stdout.split()
    if out[0] != "0":
        sys.exit("trx %s: exit %s" % (" ".join(args), out[0]))
    return int(out[1]) * 1024


failures = []
with tempfile.TemporaryDirectory() as work:
    for shape in ("running-unknown", "new-contexts", "open-inversions"):
        path = os.path.join(work, shape + ".trx")
        subprocess.run([GEN, "--shape", shape, "--out", path, "--entries", str(ENTRIES)],
                       check=True, capture_output=True)
        js = subprocess.run([TRX, "stats", "--json", path], check=True, capture_output=True,
                            text=True).stdout
        threads = len(json.loads(js)["threads"])
        base = os.path.getsize(path)
        for mode in ([], ["--compat", "tracex"]):
            p = peak("stats", *mode, path)
            per = (p - base) / threads
            ok = p - base <= LIMIT * threads + SLACK
            print("%-16s %-15s %7d threads: peak %6.1f MiB, file %6.1f MiB, %5.0f B a thread%s"
                  % (shape, " ".join(mode) or "default", threads, p / 2**20, base / 2**20, per,
                     "" if ok else "  OVER %d" % LIMIT))
            if not ok:
                failures.append("%s %s: %.0f B a thread" % (shape, " ".join(mode), per))
for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
