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

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from demo_truth import read_truth  # noqa: E402

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

# the demo: its simulated kernel counts what it did and times what took how long


def check_durations(what, row, truth, prefix):
    """A `trx stats --json` duration row against the simulation's PREFIX_* keys: count, min,
    max and mean exact; p99 within the documented histogram error (never below the exact
    value, at most 1/32 above it)."""
    check(what + " count", row["count"], truth[prefix + "_count"])
    check(what + " min", row["min"], truth[prefix + "_min"])
    check(what + " max", row["max"], truth[prefix + "_max"])
    check(what + " mean", row["mean"], round(truth[prefix + "_sum"] / truth[prefix + "_count"], 2))
    exact = truth[prefix + "_p99"]
    check(what + " p99 within [exact, exact + 1/32]", exact <= row["p99"] <= exact + exact // 32,
          True)


def check_demo(work, *demo_args):
    os.makedirs(work, exist_ok=True)
    subprocess.run([demo, work, *demo_args], check=True, capture_output=True)
    truth, lists = read_truth(os.path.join(work, "demo.truth"))
    ran_truth = {int(k.split("_")[1]): v for k, v in lists.items()
                 if k.startswith("inversion_") and k.endswith("_ran_inside")}
    s = stats(os.path.join(work, "demo.trx"))
    tag = "demo" + "".join(" " + a for a in demo_args)
    p = s["performance"]
    check(tag + " context switches", p["context_switches"], truth["context_switches"])
    check(tag + " interrupts", p["interrupts"], truth["interrupts"])
    check(tag + " nested interrupts", p["nested_interrupts"], truth["nested_interrupts"])
    check(tag + " suspensions", p["thread_suspensions"], truth["thread_suspensions"])
    check(tag + " resumptions", p["thread_resumptions"], truth["thread_resumptions"])
    inv = p["priority_inversions"]
    check(tag + " inversions", inv["total"], truth["priority_inversions"])
    check(tag + " unbounded", inv["unbounded"], truth["priority_inversions_unbounded"])
    check(tag + " bounded", inv["bounded"],
          truth["priority_inversions"] - truth["priority_inversions_unbounded"])
    by_lock = {}
    for v in s["inversions"]:
        by_lock[v["lock"]] = by_lock.get(v["lock"], 0) + 1
    check(tag + " inversions per mutex", sorted(by_lock.values()),
          sorted([truth["priority_inversions_no_inheritance"],
                  truth["priority_inversions_inheritance"]]))
    # who ran inside each one, in the order they began (the simulation lists them)
    check(tag + " inversions listed", len(ran_truth), len(s["inversions"]))
    for k, v in enumerate(s["inversions"]):
        if k in ran_truth:
            check(f"{tag} inversion {k} ran inside", (v["ran_inside"], v["ran_inside_more"]),
                  (ran_truth[k], False))

    # ISR durations: one row per ISR number the simulation ran, no other
    isr = {row["id"]: row for row in s["isr"]}
    ids = sorted(int(m.group(1)) for m in (re.fullmatch(r"isr_(\d+)_count", k) for k in truth) if m)
    check(tag + " ISR numbers", sorted(isr), ids)
    for n in ids:
        if n in isr:
            check_durations(f"{tag} ISR {n}", isr[n], truth, f"isr_{n}")
            check(f"{tag} ISR {n} min exclusive", isr[n]["min_exclusive"],
                  truth[f"isr_{n}_min_exclusive"])
            check(f"{tag} ISR {n} max exclusive", isr[n]["max_exclusive"],
                  truth[f"isr_{n}_max_exclusive"])

    # stack: the least free bytes per thread; null for a thread whose stack pointer never showed
    stack = {e["name"]: e for e in s["stack_usage"]}
    names = [t for t in stack]
    for name in names:
        if f"stack_unseen_{name}" in truth:
            check(f"{tag} stack of {name} unknown", stack[name]["min_available"], None)
        else:
            check(f"{tag} stack free of {name}", stack[name]["min_available"],
                  truth[f"stack_free_min_{name}"])
            check(f"{tag} stack used by {name}",
                  stack[name]["stack_size"] - stack[name]["min_available"],
                  truth[f"stack_used_{name}"])
    check(tag + " threads with a stack truth", len(names),
          len([k for k in truth if re.fullmatch(r"stack_(free_min|unseen)_.+", k)]))

    # execution profile: each thread's run time and the interrupts' as the
    # simulated kernel counted them (its time after the last event is not in
    # the trace: the thread running at the end has that much less)
    prof = {e["name"]: e["ticks"] for e in s["execution_profile"]}
    check(tag + " interrupt ticks", prof["Interrupt"], truth["interrupt_ticks"])
    last = None
    for name in (k[len("run_ticks_"):] for k in truth if k.startswith("run_ticks_")):
        if prof[name] != truth["run_ticks_" + name] and last is None and \
                prof[name] < truth["run_ticks_" + name]:
            last = name  # the one running after the last event
            continue
        check(f"{tag} run ticks of {name}", prof[name], truth["run_ticks_" + name])
    check(tag + " initialization ticks (+-1: the enable's first step)",
          abs(prof["Initialization"] - truth["init_ticks"]) <= 1, True)

    # interrupt-to-thread latency and response time per thread
    for table, key in (("interrupt_to_thread", "latency"), ("response", "response")):
        rows = {row["thread"]: row for row in s["latency"][table]}
        want = sorted(m.group(1) for m in (re.fullmatch(key + r"_(.+)_count", k) for k in truth) if m)
        check(f"{tag} {table} threads", sorted(rows), want)
        for name in want:
            if name in rows:
                check_durations(f"{tag} {table} {name}", rows[name], truth, f"{key}_{name}")


if len(sys.argv) > 4:
    demo, work = sys.argv[3], sys.argv[4]
    check_demo(work)
    check_demo(os.path.join(work, "extra_isr"), "--extra-isr")

print("FAILED" if failures else "all correct-mode figures equal the truth")
sys.exit(1 if failures else 0)
