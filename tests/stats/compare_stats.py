#!/usr/bin/env python3
"""Compares `trx stats --compat tracex --json` of every corpus trace with
TraceX's own numbers (corpus/NAME.tml-stats.json, produced by TraceX's
analysis library).
Usage: compare_stats.py TRX SHARED_DIR"""
import glob
import json
import os
import re
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
    ours = json.loads(subprocess.run([tool, "stats", "--compat", "tracex", "--json", trace], check=True, capture_output=True).stdout)
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
    check(name, "mode", ours["mode"], "tracex")
    for key in ("context_switches", "thread_preemptions", "time_slices", "thread_suspensions",
                "thread_resumptions", "interrupts", "nested_interrupts"):
        check(name, key, perf[key], sp[key])
    # TraceX's "a/b": a = every window, b = the unbounded ones
    inv = perf["priority_inversions"]
    check(name, "priority inversions total", inv["total"], sp["priority_inversions_deterministic"])
    check(name, "priority inversions unbounded", inv["unbounded"],
          sp["priority_inversions_nondeterministic"])
    check(name, "priority inversions bounded", inv["bounded"],
          sp["priority_inversions_deterministic"] - sp["priority_inversions_nondeterministic"])
    prof = oracle["system_execution_profile"]
    profile = {e["name"]: e for e in ours["execution_profile"][-3:]}
    check(name, "interrupt ticks", profile["Interrupt"]["ticks"], prof["interrupt_ticks"])
    check(name, "idle ticks", profile["Idle System"]["ticks"], prof["idle_ticks"])
    for i, th in enumerate(oracle["threads"]):
        check(name, f"profile thread {i} ticks", ours["execution_profile"][i]["ticks"],
              th["execution_ticks"])
        su = th["stack_usage"]
        mine = ours["stack_usage"][i]
        unseen = su["minimum_available"] == mine["stack_size"]
        check(name, f"stack_usage {i} min_available", mine["min_available"],
              None if unseen else su["minimum_available"])
        check(name, f"stack_usage {i} event", mine["event_index"],
              None if unseen else su["event_index_of_minimum"])
    check(name, "popular services",
          [(s["id"], s["count"]) for s in ours["popular_services"]],
          [(s["event_id"], s["count"]) for s in oracle["system_popular_services"]])
    for key, value in oracle["filex_statistics"].items():
        if key != "status":
            check(name, "filex " + key, ours["filex"][key], value)
    for key, value in oracle["netx_statistics"].items():
        if key != "status":
            check(name, "netx " + key, ours["netx"][key], value)

# The golden dumps (TraceX's own text): Performance Statistics and Thread
# Execution against `trx stats --compat tracex --json`.
labels = (("Context Switches", "context_switches"), ("Thread Preemptions", "thread_preemptions"),
          ("Time Slices", "time_slices"), ("Thread Suspensions", "thread_suspensions"),
          ("Thread Resumptions", "thread_resumptions"), ("Interrupts", "interrupts"),
          ("Nested Interrupts", "nested_interrupts"))
dumps = 0
for dump_path in sorted(glob.glob(os.path.join(shared, "corpus", "*.txt"))):
    if dump_path.endswith(".truth.txt"):
        continue
    base = dump_path[: -len(".tml.txt")] if dump_path.endswith(".tml.txt") else dump_path[:-4]
    trace = base + ".trx"
    if not os.path.exists(trace):
        continue
    text = open(dump_path, errors="replace").read().replace("\r\n", "\n")
    if "Performance Statistics" not in text:
        continue
    dumps += 1
    name = os.path.basename(dump_path)
    ours = json.loads(subprocess.run([tool, "stats", "--compat", "tracex", "--json", trace],
                                     check=True, capture_output=True).stdout)
    perf = ours["performance"]
    for label, key in labels:
        m = re.search(r"^%s:\s+(\d+)$" % label, text, re.M)
        check(name, "dump " + label, perf[key], int(m.group(1)) if m else None)
    m = re.search(r"^Priority Inversions:\s+(\d+)/(\d+)$", text, re.M)
    inv = perf["priority_inversions"]
    check(name, "dump Priority Inversions a/b", (inv["total"], inv["unbounded"]),
          (int(m.group(1)), int(m.group(2))) if m else None)
    section = text.split("Thread Execution", 1)[1].split("*****", 1)[0]
    rows = re.findall(r"^ (\d{20})\s+\S+\s+(.*)$", section, re.M)
    profile = ours["execution_profile"]
    byname = {"Idle System": profile[-2]["ticks"], "Interrupt": profile[-3]["ticks"]}
    threads = [(e["name"], e["ticks"]) for e in profile[:-3]]
    for k, (ticks, who) in enumerate(rows):
        if who in byname:
            check(name, "dump execution " + who, byname[who], int(ticks))
        elif k < len(threads):
            check(name, "dump execution " + who, threads[k], (who.strip(), int(ticks)))
if dumps < 5:
    failures += 1
    print(f"only {dumps} golden dumps with statistics found")

print(f"{checked - failures} passed, {failures} failed")
sys.exit(1 if failures or checked == 0 else 0)
