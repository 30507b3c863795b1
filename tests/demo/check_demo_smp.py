#!/usr/bin/env python3
"""The 2-core demo (trx_demo_smp) against what trx reports about its trace:
events per core (info), the core of every event (roamer's user events carry
the core they saw in info 2), and, from `stats --json`, run ticks per (core,
thread), idle per core, migrations per thread and the parallel time - all
equal to the simulation's own truth (demo_smp.truth).
Usage: check_demo_smp.py TRX_DEMO_SMP TRX WORKDIR"""
import json
import os
import subprocess
import sys

demo, trx, work = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(work, exist_ok=True)
subprocess.run([demo, work], check=True, capture_output=True)
trace = os.path.join(work, "demo_smp.trx")
truth = {}
for line in open(os.path.join(work, "demo_smp.truth")):
    if "=" in line and not line.startswith("#"):
        key, value = line.strip().split("=", 1)
        truth[key] = int(value)

failures = checked = 0


def check(what, ours, theirs):
    global failures, checked
    checked += 1
    if ours != theirs:
        failures += 1
        print(f"{what}: trx {ours!r} != truth {theirs!r}")


def run(*args):
    return subprocess.run([trx, *args], check=True, capture_output=True, text=True).stdout


cores = truth["cores"]
info = json.loads(run("info", "--json", trace))
check("cores", info["cores"], cores)
check("events per core", info["events_per_core"], [truth[f"events_core{c}"] for c in range(cores)])
for line in run("events", "--format", "jsonl", trace).splitlines():
    e = json.loads(line)
    if e["id"] in (4200, 4201, 4300, 4301):
        check(f"event {e['index']}: core seen by the thread", e["core"], e["info"][1])
smp = json.loads(run("stats", "--json", trace))["smp"]
check("span", smp["span_ticks"], truth["span_ticks"])
check("parallel ticks", smp["parallel_ticks"], truth["parallel_ticks"])
for lane in smp["per_core"]:
    c = lane["core"]
    check(f"core {c} idle", lane["idle_ticks"], truth[f"idle_ticks_core{c}"])
    check(f"core {c} run ticks", {t["name"]: t["ticks"] for t in lane["threads"] if t["ticks"]},
          {k.split("_", 3)[3]: v for k, v in truth.items() if k.startswith(f"run_ticks_core{c}_")})
for t in smp["threads"]:
    check(f"{t['name']} migrations", t["migrations"], truth[f"migrations_{t['name']}"])
check("roamer migrated", truth["migrations_roamer"] > 0, True)
print(f"{checked - failures} passed, {failures} failed")
sys.exit(1 if failures or checked == 0 else 0)
