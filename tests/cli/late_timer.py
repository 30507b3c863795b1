#!/usr/bin/env python3
"""late_timer.py - a timer started after tracing began: the demo trace with
its first events stamped 0xFFFFFFFF (what the register held before the time
source ran). `trx info` (text: a Warning line; JSON: time_late_start) and
`trx stats` (stderr, text and JSON) must say where, how many and what to do;
the untouched demo must not warn.

usage: late_timer.py TRX TRX_DEMO   (runs the demo into a temporary directory)
"""
import atexit
import json
import shutil
import os
import subprocess
import sys
import tempfile

TRX, TRX_DEMO = sys.argv[1:3]
WORK = tempfile.mkdtemp()
atexit.register(shutil.rmtree, WORK, True)
subprocess.run([TRX_DEMO, WORK], check=True, capture_output=True)
DEMO = os.path.join(WORK, "demo.trx")
N = 7
failures = []


def run(*args):
    p = subprocess.run([TRX] + list(args), capture_output=True, text=True)
    if p.returncode != 0:
        failures.append("%s: exit %d" % (" ".join(args), p.returncode))
    return p.stdout, p.stderr


def expect(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL " + msg, file=sys.stderr)


def main():
    info = json.loads(run("info", "--json", DEMO)[0])
    expect("time_late_start" not in info, "the demo itself says late start")
    for args in (("info", DEMO), ("stats", DEMO)):
        out, err = run(*args)
        expect("what a timer holds before it runs" not in out + err, "%s warns on the demo" % args[0])
    data = bytearray(open(DEMO, "rb").read())
    start = info["buffer_start"] - info["base_address"]
    for k in range(N):  # the oldest N entries, stamp word at offset 12
        off = start + 32 * ((info["oldest_index"] + k) % info["capacity"]) + 12
        data[off:off + 4] = b"\xff\xff\xff\xff"
    with tempfile.TemporaryDirectory() as d:
        late = os.path.join(d, "late.trx")
        open(late, "wb").write(data)
        want = ("the first %d events (up to event %d) all carry the time stamp 0xFFFFFFFF, what a "
                "timer holds before it runs" % (N, N - 1))
        out, _ = run("info", late)
        expect("\nWarning:            " + want in out, "info text: no warning:\n" + out)
        expect("start the time source before tx_trace_enable" in out, "info text: no advice")
        j = json.loads(run("info", "--json", late)[0])
        expect(j.get("time_late_start") == {"events": N, "stamp": 0xFFFFFFFF},
               "info json: time_late_start is %r" % j.get("time_late_start"))
        for fmt in ((), ("--json",)):
            out, err = run("stats", *fmt, late)
            expect(err.count("trx stats: warning: " + want) == 1, "stats %s: stderr %r" % (fmt, err))
            expect("warning" not in out, "stats %s: the warning went to stdout" % (fmt,))
    print("late_timer: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
