#!/usr/bin/env python3
"""inherit_check.py - `trx check TRACE no-priority-inversion=unbounded` on
the traces the real ThreadX kernel recorded (tests/stats/inherit/): the
program without its own fault (`*_correct`) passes with TX_INHERIT (exit 0:
every wait bounded, though the holder's priority restore names the middle
thread as next) and fails without it (exit 1: the middle thread preempts
the holder); the traces with the sleeping holder fail either way. The
counts the rule prints must be the truth's (waits, unbounded ones).

usage: inherit_check.py TRX DIR
"""
import os
import re
import subprocess
import sys

TRX, DIR = sys.argv[1:3]
WANT_EXIT = {"inherit_correct": 0, "noinherit_correct": 1, "inherit": 1, "noinherit": 1}


def truth_counts(path):
    waits = unbounded = 0
    with open(path) as f:
        for line in f:
            w = line.split()
            if w[0] == "wait":
                waits += 1
                unbounded += w[w.index("kind") + 1] == "unbounded"
    return waits, unbounded


def main():
    failures = 0
    for name, want in WANT_EXIT.items():
        waits, unbounded = truth_counts(os.path.join(DIR, name + ".truth"))
        r = subprocess.run([TRX, "check", os.path.join(DIR, name + ".trx"),
                            "no-priority-inversion=unbounded"], capture_output=True, text=True)
        m = re.search(r"^(PASS|FAIL)  no-priority-inversion=unbounded: (\d+) priority inversions "
                      r"\((\d+) unbounded\)", r.stdout, re.M)
        got = (r.returncode, m.group(1), int(m.group(2)), int(m.group(3))) if m else (r.returncode,)
        exp = (want, "PASS" if want == 0 else "FAIL", waits, unbounded)
        if got != exp:
            failures += 1
            print("FAIL %s: exit, verdict, inversions, unbounded %r, want %r\n%s%s" %
                  (name, got, exp, r.stdout, r.stderr), file=sys.stderr)
        else:
            print("ok %s: %r" % (name, got))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
