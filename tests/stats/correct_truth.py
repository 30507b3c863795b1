#!/usr/bin/env python3
"""The correct mode of `trx stats --json` against what really happened:
the corpus truth files (the kernel's own counters: c_prio_inversion_mutex_noinherit
has 5 inversions, all unbounded; d_interrupts_nested's ISR enter counts) and
the demo's simulation truth (demo.truth, written by trx_demo itself).
Usage: correct_truth.py TRX SHARED_DIR [TRX_DEMO WORK_DIR]"""
import json
import os
import re
import subprocess
import sys

trx, shared = sys.argv[1], sys.argv[2]
failures = 0


def check(what, ours, truth):
    global failures
    if ours != truth:
        failures += 1
        print(f"FAIL {what}: trx {ours!r}, truth {truth!r}")
    else:
        print(f"ok   {what}: {ours!r}")


def stats(path, *extra):
    out = subprocess.run([trx, "stats", "--json", *extra, path], check=True,
                         capture_output=True).stdout
    return json.loads(out)


corpus = os.path.join(shared, "corpus")

# c_prio_inversion_mutex_noinherit: "expected: medium runs while high waits in
# EVERY iteration: 5 unbounded (non-deterministic) inversions"
truth = open(os.path.join(corpus, "c_prio_inversion_mutex_noinherit.truth.txt")).read()
iterations = int(re.search(r"iterations=(\d+)", truth).group(1))
unbounded = int(re.search(r"(\d+) unbounded", truth).group(1))
s = stats(os.path.join(corpus, "c_prio_inversion_mutex_noinherit.trx"))
check("c_prio mode", s["mode"], "correct")
inv = s["performance"]["priority_inversions"]
check("c_prio inversions total", inv["total"], iterations)
check("c_prio inversions unbounded", inv["unbounded"], unbounded)
check("c_prio inversions bounded", inv["bounded"], iterations - unbounded)
check("c_prio inversion list", len(s["inversions"]), iterations)
for v in s["inversions"]:
    check("c_prio inversion %d" % v["start_index"],
          (v["waiter"], v["lock"], v["lock_type"], v["holder"], v["unbounded"], v["ran_inside"]),
          ("high_prio", "inv_lock", "mutex", "low_prio", True, ["medium_prio"]))

# d_interrupts_nested: ISR_ENTER id5=150 (outer), id7=50 (nested inside id5),
# plus the system timer's id 0 once per tick.
truth = open(os.path.join(corpus, "d_interrupts_nested.truth.txt")).read()
enters = {int(k): int(v) for k, v in re.findall(r"ISR_ENTER id(\d+)=(\d+)", truth)}
ticks = int(re.search(r"timer_ticks_while_enabled=(\d+)", truth).group(1))
s = stats(os.path.join(corpus, "d_interrupts_nested.trx"))
check("d_interrupts interrupts", s["performance"]["interrupts"], enters[5] + enters[7] + ticks)
check("d_interrupts nested", s["performance"]["nested_interrupts"], enters[7])

# the demo: its simulated kernel counts what it did
if len(sys.argv) > 4:
    demo, work = sys.argv[3], sys.argv[4]
    os.makedirs(work, exist_ok=True)
    subprocess.run([demo, work], check=True, capture_output=True)
    truth = dict(line.split("=", 1) for line in open(os.path.join(work, "demo.truth"))
                 if "=" in line and not line.startswith("#"))
    truth = {k: int(v) for k, v in truth.items()}
    s = stats(os.path.join(work, "demo.trx"))
    p = s["performance"]
    check("demo context switches", p["context_switches"], truth["context_switches"])
    check("demo interrupts", p["interrupts"], truth["interrupts"])
    check("demo nested interrupts", p["nested_interrupts"], truth["nested_interrupts"])
    check("demo suspensions", p["thread_suspensions"], truth["thread_suspensions"])
    check("demo resumptions", p["thread_resumptions"], truth["thread_resumptions"])
    inv = p["priority_inversions"]
    check("demo inversions", inv["total"], truth["priority_inversions"])
    check("demo unbounded", inv["unbounded"], truth["priority_inversions_unbounded"])
    check("demo bounded", inv["bounded"],
          truth["priority_inversions"] - truth["priority_inversions_unbounded"])
    by_lock = {}
    for v in s["inversions"]:
        by_lock[v["lock"]] = by_lock.get(v["lock"], 0) + 1
    check("demo inversions per mutex", sorted(by_lock.values()),
          sorted([truth["priority_inversions_no_inheritance"],
                  truth["priority_inversions_inheritance"]]))
    for key, want in truth.items():
        m = re.fullmatch(r"stack_used_(.+)", key)
        if m:
            su = {e["name"]: e for e in s["stack_usage"]}[m.group(1)]
            check("demo stack used by " + m.group(1), su["stack_size"] - su["min_available"], want)

print("FAILED" if failures else "all correct-mode figures equal the truth")
sys.exit(1 if failures else 0)
