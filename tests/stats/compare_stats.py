#!/usr/bin/env python3
"""Compares trx's statistics of every corpus trace with TraceX's own numbers
(corpus/NAME.tml-stats.json, produced by TraceX's analysis library).
Usage: compare_stats.py STATS_JSON_TOOL SHARED_DIR"""
import glob
import json
import os
import subprocess
import sys

tool, shared = sys.argv[1], sys.argv[2]
failures = 0
checked = 0


def check(name, what, ours, theirs):
    global failures, checked
    checked += 1
    if ours != theirs:
        failures += 1
        print(f"{name}: {what}: trx {ours!r} != TraceX {theirs!r}")


# the single-core corpus and the ThreadX SMP traces (corpus/smp/)
oracles = sorted(glob.glob(os.path.join(shared, "corpus", "*.tml-stats.json")))
oracles += sorted(glob.glob(os.path.join(shared, "corpus", "smp", "*.tml-stats.json")))
for oracle_path in oracles:
    name = os.path.basename(oracle_path)[: -len(".tml-stats.json")]
    trace = oracle_path[: -len(".tml-stats.json")] + ".trx"
    oracle = json.load(open(oracle_path))
    ours = json.loads(subprocess.run([tool, trace], check=True, capture_output=True).stdout)
    init = oracle["tml_initialize"]
    check(name, "total threads", ours["total_threads"], init["total_threads"])
    check(name, "total objects", ours["total_objects"], init["total_objects"])
    check(name, "total events", ours["total_events"], init["total_events"])
    check(name, "max relative ticks", ours["max_relative_ticks"], init["max_relative_ticks"])
    check(name, "oldest", "0x%08X" % ours["header"]["buffer_oldest"],
          oracle["header"]["trace_buffer_oldest_address"])
    for i, th in enumerate(oracle["threads"]):
        mine = ours["threads"][i]
        where = f"thread {i} ({th['name']})"
        check(name, where + " name", mine["name"], th["name"])
        check(name, where + " address", "0x%08X" % mine["address"], th["address"])
        for key in ("priority_lowest", "priority_highest", "preemption_threshold_lowest",
                    "preemption_threshold_highest", "total_events", "execution_ticks"):
            check(name, where + " " + key, mine[key], th[key])
        check(name, where + " suspensions", mine["suspensions"], th["suspensions_performed"])
        check(name, where + " resumptions", mine["resumptions"], th["resumptions_performed"])
        check(name, where + " popular services",
              [(x["id"], x["count"]) for x in mine["services"]],
              [(x["event_id"], x["count"]) for x in th["popular_services"]])
        su = th["stack_usage"]
        check(name, where + " stack minimum", mine["stack_min_available"], su["minimum_available"])
        check(name, where + " stack event", mine["stack_min_event"], su["event_index_of_minimum"])
    sp = oracle["system_performance_statistics"]
    perf = ours["performance"]
    for ours_key, theirs_key in (("context_switches", "context_switches"),
                                 ("preemptions", "thread_preemptions"),
                                 ("time_slices", "time_slices"),
                                 ("suspensions", "thread_suspensions"),
                                 ("resumptions", "thread_resumptions"),
                                 ("interrupts", "interrupts"),
                                 ("nested_interrupts", "nested_interrupts"),
                                 ("priority_inversions", "priority_inversions_deterministic"),
                                 ("bad_priority_inversions", "priority_inversions_nondeterministic")):
        check(name, theirs_key, perf[ours_key], sp[theirs_key])
    prof = oracle["system_execution_profile"]
    check(name, "interrupt ticks", ours["execution_profile"]["interrupt_ticks"], prof["interrupt_ticks"])
    check(name, "idle ticks", ours["execution_profile"]["idle_ticks"], prof["idle_ticks"])
    check(name, "popular services",
          [(s["id"], s["count"]) for s in ours["popular_services"]],
          [(s["event_id"], s["count"]) for s in oracle["system_popular_services"]])
    for key, value in oracle["filex_statistics"].items():
        if key != "status":
            check(name, "filex " + key, ours["filex"][key], value)
    for key, value in oracle["netx_statistics"].items():
        if key != "status":
            check(name, "netx " + key, ours["netx"][key], value)

print(f"{checked - failures} passed, {failures} failed")
sys.exit(1 if failures or checked == 0 else 0)
