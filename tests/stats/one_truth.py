#!/usr/bin/env python3
"""one_truth.py - every figure two analyses of `trx stats --json` compute
must agree, on every trace the project can make (the corpus and smp/, the
fuzz seeds, the generators and demos: tests/cli/sane_figures.py's list).

Compared (correct mode, TXTB traces; a UIA trace has no thread context):
  * per core: thread + interrupt + idle + init + unknown ticks = the span;
    thread ticks = the sum of its threads' ticks; the threads' events and
    the core's "not a thread" events = the core's events;
  * per thread: smp run_ticks = the sum of its per-core ticks; the cores it
    lists = the cores where it ran or logged events (never none when it
    ran);
  * single core: each thread's execution-profile ticks = its per-core ticks
    = its run_ticks, and Interrupt / Idle / Initialization = the
    core's interrupt / idle / init ticks (one timeline, one answer);
  * threads sharing an address count once.

usage: one_truth.py TRX BUILD_DIR SHARED_DIR SOURCE_DIR
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
import sane_figures  # noqa: E402  (the list of traces; same arguments)

TRX = sys.argv[1]
failures = []


def check(what, got, want):
    if got != want:
        failures.append("%s: %r, want %r" % (what, got, want))
        print("FAIL %s: %r, want %r" % (what, got, want), file=sys.stderr)


def one(name, path):
    p = subprocess.run([TRX, "stats", "--json", path], capture_output=True, text=True)
    if p.returncode != 0:
        return 0
    s = json.loads(p.stdout)
    if s.get("format") == "uia" or not s.get("smp"):
        return 0
    smp = s["smp"]
    span = smp["span_ticks"]
    first_at = {}
    for i, t in enumerate(s["threads"]):
        first_at.setdefault(t["address"], i)
    by_thread = {}  # address -> {core: (ticks, events)}
    for c in smp["per_core"]:
        tag = "%s core %d" % (name, c["core"])
        check(tag + " time", c["thread_ticks"] + c["interrupt_ticks"] + c["idle_ticks"] +
              c["init_ticks"] + c["unknown_ticks"], span)
        check(tag + " thread ticks", sum(t["ticks"] for t in c["threads"]), c["thread_ticks"])
        for t in c["threads"]:
            by_thread.setdefault(t["address"], {})[c["core"]] = (t["ticks"], t["events"])
    seen = set()
    for t in smp["threads"]:
        if t["address"] in seen:
            continue  # threads sharing an address: the first holds their time
        seen.add(t["address"])
        per = by_thread.get(t["address"], {})
        tag = "%s thread %s" % (name, t["name"])
        check(tag + " run ticks = its cores' ticks", t["run_ticks"], sum(x[0] for x in per.values()))
        ran = sorted(k for k, x in per.items() if x[0] > 0 or x[1] > 0)
        check(tag + " cores", t["cores"], ran)
        if t["run_ticks"] > 0 and not t["cores"]:
            check(tag + " ran but lists no core", True, False)
    if smp["cores"] == 1:
        c = smp["per_core"][0]
        prof = {e["name"]: e["ticks"] for e in s["execution_profile"][-3:]}
        check(name + " interrupt ticks: profile = core", prof["Interrupt"], c["interrupt_ticks"])
        check(name + " idle ticks: profile = core", prof["Idle"], c["idle_ticks"])
        check(name + " init ticks: profile = core", prof["Initialization"], c["init_ticks"])
        for i, t in enumerate(s["threads"]):
            if first_at[t["address"]] != i:
                continue
            core = by_thread.get(t["address"], {}).get(0, (0, 0))[0]
            check("%s thread %s: profile ticks = core 0 ticks" % (name, t["name"]),
                  t["execution_ticks"], core)
    return 1


def main():
    n = 0
    with tempfile.TemporaryDirectory() as work:
        for path in sane_figures.traces(work):
            n += one(os.path.relpath(path, work) if path.startswith(work) else os.path.basename(path),
                     path)
    print("one_truth: %d traces cross-checked, %d disagreements" % (n, len(failures)))
    if n < 30:
        print("FAIL: only %d traces" % n, file=sys.stderr)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
