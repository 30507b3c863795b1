#!/usr/bin/env python3
"""Checks `trx` against the ground truth of the ThreadX SMP corpus traces
(corpus/smp/, written by the recording programs, not decoded from the buffer).
Usage: check_smp_corpus.py TRX SHARED_DIR info|events|stats
  info    `info --json`: cores, events per core, and the threads that logged
          on each core with their counts equal NAME.truth.txt
  events  the core of every stored event in `events --format jsonl` equals
          NAME.cores.json; `--core N` keeps exactly core N's events; the
          text and CSV listings carry the same cores
  stats   `stats --json` (default mode): every thread's migrations equal the
          truth's; the running thread tracked per core agrees with the kernel's
          own record (NAME.kernel.json: the thread each core executed at every
          entry) for at least 92% of the cores' time, and the time with two or
          more threads running is within 30% of the kernel's"""
import glob
import json
import os
import re
import subprocess
import sys

trx, shared, what = sys.argv[1], sys.argv[2], sys.argv[3]
failures = 0
checked = 0


def check(name, label, ours, truth):
    global failures, checked
    checked += 1
    if ours != truth:
        failures += 1
        print(f"{name}: {label}: trx {ours!r} != truth {truth!r}")


def run(*args):
    return subprocess.run([trx, *args], check=True, capture_output=True, text=True).stdout


def parse_truth(path):
    """events per core and {core: ({thread name: logged count}, not-a-thread count)}."""
    per_core, lanes = None, {}
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        m = re.match(r"events_per_core_in_buffer: (.*)$", line)
        if m:
            per_core = [int(v) for k, v in re.findall(r"core(\d+)=(\d+)", m.group(1))]
        m = re.match(r"\s+core(\d+) logged: (.*?)(; not a thread=(\d+))?$", line)
        if m:
            threads = {}
            for item in m.group(2).split(", ") if m.group(2) else []:
                name, count = item.rsplit("=", 1)
                threads[name] = int(count)
            lanes[int(m.group(1))] = (threads, int(m.group(4) or 0))
    return per_core, lanes


traces = sorted(glob.glob(os.path.join(shared, "corpus", "smp", "*.trx")))
for trace in traces:
    name = os.path.basename(trace)[:-4]
    base = trace[:-4]
    if what == "info":
        per_core, lanes = parse_truth(base + ".truth.txt")
        info = json.loads(run("info", "--json", trace))
        check(name, "cores", info["cores"], len(per_core))
        check(name, "multi_core", info["multi_core"], len(per_core) > 1)
        check(name, "events_per_core", info["events_per_core"], per_core)
        for lane in info["threads_per_core"]:
            core = lane["core"]
            threads, other = lanes.get(core, ({}, 0))
            check(name, f"core {core} threads", {t["name"]: t["events"] for t in lane["threads"]},
                  threads)
            check(name, f"core {core} events not from a thread", lane["other_events"], other)
        check(name, "lanes", sorted(l["core"] for l in info["threads_per_core"]), sorted(lanes))
        text = run("info", trace)
        check(name, "text cores row", re.search(r"^Cores: +(\d+) \((multi|single)-core\)$", text,
                                               re.M).groups(),
              (str(len(per_core)), "multi" if len(per_core) > 1 else "single"))
    elif what == "stats":
        migrations = {}
        for line in open(base + ".truth.txt", encoding="utf-8"):
            m = re.match(r"\s+'(.*)': logged on \d+ core\(s\), (\d+) migration", line)
            if m:
                migrations[m.group(1)] = int(m.group(2))
        smp = json.loads(run("stats", "--json", trace))["smp"]
        check(name, "migrations", {t["name"]: t["migrations"] for t in smp["threads"]}, migrations)
        kernel = json.load(open(base + ".kernel.json"))
        names = {t["index"]: t["name"] for t in kernel["threads"]}
        entries = kernel["entries"]
        ticks = [json.loads(l)["ticks"] for l in
                 run("events", "--format", "jsonl", "--no-synthetic", trace).splitlines()]
        # between entries k and k+1 each core runs what the kernel shows at k+1
        truth, parallel, total = {}, 0, 0
        for k in range(len(entries) - 1):
            d = ticks[k + 1] - ticks[k]
            current = entries[k + 1][2]
            parallel += d if sum(1 for x in current if x >= 0) >= 2 else 0
            for core, x in enumerate(current):
                key = (core, names.get(x, None))
                truth[key] = truth.get(key, 0) + d
                total += d
        agree = 0
        for lane in smp["per_core"]:
            core = lane["core"]
            agree += sum(min(t["ticks"], truth.get((core, t["name"]), 0)) for t in lane["threads"])
            agree += min(lane["idle_ticks"], truth.get((core, None), 0))
        print(f"{name}: per-core running thread agrees with the kernel for "
              f"{100.0 * agree / total:.2f}% of the time; parallel {smp['parallel_ticks']} "
              f"ticks, kernel {parallel}")
        check(name, "agreement >= 92%", agree >= 0.92 * total, True)
        check(name, "parallel within 30%", abs(smp["parallel_ticks"] - parallel) <= 0.30 * parallel,
              True)
    else:
        truth = json.load(open(base + ".cores.json"))["cores"]
        events = [json.loads(l) for l in run("events", "--format", "jsonl", trace).splitlines()]
        stored = [e for e in events if not e["synthetic"]]
        check(name, "stored events", len(stored), len(truth))
        check(name, "core of every stored event", [e["core"] for e in stored], truth)
        for core in sorted(set(truth)):
            only = [json.loads(l) for l in
                    run("events", "--format", "jsonl", "--core", str(core), trace).splitlines()]
            check(name, f"--core {core}", [e["index"] for e in only],
                  [e["index"] for e in events if e["core"] == core])
        rows = run("events", "--format", "csv", trace).splitlines()
        column = rows[0].split(",").index("core")
        check(name, "csv core column", [int(r.split(",")[column]) for r in rows[1:]],
              [e["core"] for e in events])
        lines = run("events", trace).splitlines()
        check(name, "text core column", [int(l.split()[4]) for l in lines[1:]],
              [e["core"] for e in events])

print(f"{checked - failures} passed, {failures} failed")
sys.exit(1 if failures or checked == 0 or not traces else 0)
