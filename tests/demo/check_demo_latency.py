#!/usr/bin/env python3
"""Every instance of every thread of the demo (trx_demo) and of the 2-core
demo (trx_demo_smp), as `trx latency --json` finds them, against what the
simulated kernels know (demo.latency.truth, demo_smp.latency.truth: JSON
Lines, one instance a line, examples/sim_instances.h; an incomplete one
without a number ran from the start of the trace, unreleased, to its first
wait): per thread the number of complete and incomplete instances, the response and execution minimum,
maximum and mean; per instance its number, release and end ticks, response
and execution ticks, and that the events at release_index / end_index are
that thread's RESUME / SUSPEND at those ticks; the worst list ordered by
response (ties: the earlier first). When the tree has `trx why`, each
instance's critical path is held against the truth too (check_why).
Usage: check_demo_latency.py TRX_DEMO TRX_DEMO_SMP TRX WORKDIR"""
import json
import os
import subprocess
import sys

demo, demo_smp, trx, work = sys.argv[1:5]
os.makedirs(work, exist_ok=True)
failures = checked = 0


def check(what, ours, theirs):
    global failures, checked
    checked += 1
    if ours != theirs:
        failures += 1
        if failures <= 40:
            print(f"{what}: trx {ours!r} != truth {theirs!r}")


def run(*args):
    return subprocess.run([trx, *args], check=True, capture_output=True, text=True).stdout


def read_truth(path):
    lines = [json.loads(line) for line in open(path) if line.strip()]
    return lines[0], lines[1:]


def check_truth_itself(name, instances):
    """The truth's own sums: every tick of an instance has one cause."""
    for i in instances:
        if not i["complete"]:
            continue
        total = i["running"] + i["ready"] + sum(i["preempted_by"].values())
        total += sum(x["ticks"] for x in i["interrupted_by"]) + sum(b["ticks"] for b in i["blocked"])
        check(f"{name} {i['thread']} #{i['number']}: truth's causes add up", total, i["response_ticks"])
        check(f"{name} {i['thread']} #{i['number']}: execution is running", i["execution_ticks"], i["running"])
        for b in i["blocked"]:
            s = b["holder_split"]
            split = s["running"] + s["ready"] + sum(s["preempted_by"].values())
            split += sum(x["ticks"] for x in s["interrupted_by"])
            check(f"{name} {i['thread']} #{i['number']}: holder split adds up", split, b["ticks"])


def mean(values):
    return round(sum(values) / len(values), 2) if values else None


def check_latency(name, trace, header, instances):
    events = [json.loads(line) for line in run("events", "--format", "jsonl", trace).splitlines()]
    check(f"{name}: first event's timestamp", events[0]["timestamp"], header["first_timestamp"])
    report = json.loads(run("latency", "--json", "--worst", "1024", trace))
    rows = {t["name"]: t for t in report["threads"]}
    threads = sorted({i["thread"] for i in instances})
    check(f"{name}: threads with instances", sorted(rows), threads)
    for thread in threads:
        mine = [i for i in instances if i["thread"] == thread]
        done = sorted((i for i in mine if i["complete"]), key=lambda i: i["number"])
        numbered = sorted(i["number"] for i in mine if i["number"] is not None)
        check(f"{name} {thread}: numbers 1..n in release order", numbered,
              list(range(1, len(numbered) + 1)))
        row = rows.get(thread)
        if row is None:
            continue
        check(f"{name} {thread}: instances", row["instances"], len(done))
        check(f"{name} {thread}: incomplete", row["incomplete"], len(mine) - len(done))
        for kind, key in (("response", "response_ticks"), ("execution", "execution_ticks")):
            values = [i[key] for i in done]
            if not values:
                continue
            check(f"{name} {thread}: {kind} min", row[kind]["min"], min(values))
            check(f"{name} {thread}: {kind} max", row[kind]["max"], max(values))
            check(f"{name} {thread}: {kind} mean", round(row[kind]["mean"], 2), mean(values))
        worst = row["worst"]
        check(f"{name} {thread}: worst list holds every instance", len(worst), len(done))
        order = sorted(done, key=lambda i: (-i["response_ticks"], i["number"]))
        check(f"{name} {thread}: worst order", [w["number"] for w in worst], [i["number"] for i in order])
        by_number = {w["number"]: w for w in worst}
        for i in done:
            w = by_number.get(i["number"])
            what = f"{name} {thread} #{i['number']}"
            if w is None:
                check(f"{what}: in trx's list", None, i["number"])
                continue
            for key in ("release_ticks", "end_ticks", "response_ticks", "execution_ticks"):
                check(f"{what}: {key}", w[key], i[key])
            rel, end = events[w["release_index"]], events[w["end_index"]]
            check(f"{what}: release event", (rel["name"], rel["info"][0], rel["ticks"]),
                  ("TX INTERNAL RESUME", thread_address(events, thread), i["release_ticks"]))
            check(f"{what}: end event", (end["name"], end["info"][0], end["ticks"]),
                  ("TX INTERNAL SUSPEND", thread_address(events, thread), i["end_ticks"]))


def thread_address(events, name):
    for e in events:
        if e.get("thread_name") == name and e["context"] == "thread":
            return e["thread"]
    return None


def has_why():
    return subprocess.run([trx, "why", "--help"], capture_output=True).returncode == 0


def check_why(name, trace, instances):
    """Each complete instance's critical path (trx why --json) against the
    truth: top-level ticks per state and context, blocked per (lock, holder)
    with the holder's own split, and who released it."""
    for i in instances:
        if not i["complete"]:
            continue
        what = f"{name} {i['thread']} #{i['number']} why"
        path = json.loads(run("why", trace, "--thread", i["thread"], "--instance", str(i["number"]), "--json"))
        inst = path["instance"]
        for key in ("number", "release_ticks", "end_ticks", "response_ticks"):
            check(f"{what}: {key}", inst[key], i[key])
        by = i["released_by"]
        check(f"{what}: released by", context_name(inst["released_by"]["context"]),
              {"isr": f"ISR {by.get('isr')}", "init": "Initialization"}.get(by["kind"], by["context"]))
        if i["released_by"]["object"] is not None:
            check(f"{what}: released by object", inst["released_by"].get("object"), i["released_by"]["object"])
        ours, theirs = split_of(path["segments"]), truth_split(i)
        check(f"{what}: segments", ours, theirs)


def context_name(context):
    """A segment's or release's context as trx why names it (a thread's
    name, "ISR N", "Initialization"), the demo's ISRs by number."""
    if isinstance(context, dict):
        if context.get("isr") is not None:
            return f"ISR {context['isr']}"
        return context.get("name") or context.get("thread")
    return ISR_NUMBERS.get(context, context)


ISR_NUMBERS = {"timer": "ISR 1", "adc": "ISR 2", "uart": "ISR 3"}  # names from an ELF, if any


def split_of(segments):
    out = {}
    for s in segments:
        if s["state"] == "blocked":
            key = ("blocked", context_name(s.get("object")), context_name(s.get("holder")))
            out[key] = out.get(key, 0) + s["ticks"]
            for n in s.get("segments", []):
                ctx = None if n["state"] == "ready" else context_name(n.get("context"))
                k = ("holder", key[1], key[2], n["state"], ctx)
                out[k] = out.get(k, 0) + n["ticks"]
        else:
            ctx = None if s["state"] == "ready" else context_name(s.get("context"))
            key = (s["state"], ctx)
            out[key] = out.get(key, 0) + s["ticks"]
    return out


def truth_split(i):
    out = {}

    def add(key, ticks):
        if ticks:
            out[key] = out.get(key, 0) + ticks

    add(("running", i["thread"]), i["running"])
    add(("ready", None), i["ready"])
    for t, n in i["preempted_by"].items():
        add(("preempted", t), n)
    for x in i["interrupted_by"]:
        add(("interrupted", f"ISR {x['isr']}"), x["ticks"])
    for b in i["blocked"]:
        key = ("blocked", b["object"], b["holder"])
        add(key, b["ticks"])
        s = b["holder_split"]
        add(("holder", *key[1:], "running", b["holder"]), s["running"])
        add(("holder", *key[1:], "ready", None), s["ready"])
        for t, n in s["preempted_by"].items():
            add(("holder", *key[1:], "preempted", t), n)
        for x in s["interrupted_by"]:
            add(("holder", *key[1:], "interrupted", f"ISR {x['isr']}"), x["ticks"])
    return out


subprocess.run([demo, work], check=True, capture_output=True)
subprocess.run([demo_smp, work], check=True, capture_output=True)
why = has_why()
for name, trace, truth in (("demo", "demo.trx", "demo.latency.truth"),
                           ("demo_smp", "demo_smp.trx", "demo_smp.latency.truth")):
    header, instances = read_truth(os.path.join(work, truth))
    check_truth_itself(name, instances)
    check_latency(name, os.path.join(work, trace), header, instances)
    if why:
        check_why(name, os.path.join(work, trace), instances)

# The demo's truth holds the causes the tests exist for: an unbounded
# inversion (high blocked on the plain lock while medium preempts low), a
# bounded one (the inheriting lock: medium never preempts low there), ISRs
# interrupting, a thread preempting, and releases by an ISR, a thread and a timeout.
_, demo_instances = read_truth(os.path.join(work, "demo.latency.truth"))
blocked = [b for i in demo_instances if i["complete"] for b in i["blocked"]]
check("truth: medium preempts low inside a plain-lock wait",
      any(b["object"] == "lock (no inheritance)" and b["holder_split"]["preempted_by"].get("medium")
          for b in blocked), True)
check("truth: medium never preempts low inside an inheriting-lock wait",
      any(b["object"] == "lock (inheritance)" and b["holder_split"]["preempted_by"].get("medium")
          for b in blocked), False)
check("truth: inheriting-lock waits seen", any(b["object"] == "lock (inheritance)" for b in blocked), True)
done = [i for i in demo_instances if i["complete"]]
check("truth: interrupted by every ISR", sorted({x["isr"] for i in done for x in i["interrupted_by"]}),
      [1, 2, 3])
check("truth: preempted instances", any(i["preempted_by"] for i in done), True)
check("truth: released by", sorted({i["released_by"]["service"] for i in done}),
      ["queue_send", "semaphore_put", "sleep_timeout", "thread_create", "thread_resume"])
print(f"{checked - failures} passed, {failures} failed" + ("" if why else " (trx why: not in this tree)"))
sys.exit(1 if failures or checked == 0 else 0)
