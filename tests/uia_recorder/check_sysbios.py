#!/usr/bin/env python3
"""check_sysbios.py TRX SYSBIOS_SHAPED DIR - SYS/BIOS-shaped captures written
by the UIA recorder (sysbios_shaped.c) against the simulation's truth, through
`trx stats --json` and `trx events --format jsonl` with TI's metadata:
  - per core: task switches, run ticks per task (the never-running task 0),
    interrupt ticks; performance.context_switches (every LM_switch, each
    core's first one out of initialization included);
  - Hwi durations by interrupt number and Swi durations by handle (count,
    min, max, mean);
  - the target's Load reports (cpu and task series, ticks on the core axis);
  - lost events: the three records cut in the middle of a task's run;
  - four cores with unrelated clocks: every record within one tick of its
    global time after sync-point alignment, per-core figures in global ticks.
Every figure is compared; a difference fails with both values."""
import json, os, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "uia"))
from elf32_writer import elf32
from test_support import check, finish

trx, sim, out = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(out, exist_ok=True)
subprocess.run([sim, out], check=True)


def run(*args):
    r = subprocess.run([trx, *args], capture_output=True, text=True)
    check(r.returncode == 0, "trx %s: exit %d (%s)" % (" ".join(args), r.returncode, r.stderr))
    return r.stdout


def near(a, b, tol):
    return abs(a - b) <= tol


def capture(name, tol):
    """Checks capture NAME; tol: ticks a figure may differ by per interval
    (0 on one clock, 1 after the sync-point mapping rounds)."""
    path, meta = os.path.join(out, name + ".uia"), os.path.join(out, name + ".uia.xml")
    truth = json.load(open(os.path.join(out, name + ".truth.json")))
    stats = json.loads(run("stats", "--json", "--uia-meta", meta, path))
    check(stats.get("lost_events") == truth["lost"],
          "%s: lost %s, truth %d" % (name, stats.get("lost_events"), truth["lost"]))
    perf = stats.get("performance") or {}
    want_ts = sum(c["switches"] for c in truth["cores"])  # every LM_switch, each core's first too
    check(perf.get("context_switches") == want_ts,
          "%s: context_switches %s, truth %d" % (name, perf.get("context_switches"), want_ts))
    smp = stats.get("smp") or {}
    per_core = {c["core"]: c for c in smp.get("per_core", [])}
    profile = {p["address"]: p["ticks"] for p in stats.get("execution_profile") or []}
    shares = sum(p["percent"] for p in stats.get("execution_profile") or [])
    check(abs(shares - 100) < 0.01, "%s: the profile's shares add up to %.4f %%" % (name, shares))
    threads = {t["address"]: t for t in stats.get("threads") or []}
    for c in truth["cores"]:
        got = per_core.get(c["core"], {})
        check(got.get("sender") == c["core"], "%s core %d: sender %s" % (name, c["core"], got.get("sender")))
        check(got.get("switches") == c["switches"],
              "%s core %d: switches %s, truth %d" % (name, c["core"], got.get("switches"), c["switches"]))
        intervals = c["switches"] + 2 * sum(h["count"] for h in c["hwi"] + c["swi"]) + 2
        check(near(got.get("interrupt_ticks", -1), c["interrupt_ticks"], tol * intervals),
              "%s core %d: interrupt ticks %s, truth %d" % (name, c["core"], got.get("interrupt_ticks"),
                                                            c["interrupt_ticks"]))
        for t in c["tasks"]:
            check(t["handle"] in threads, "%s: task 0x%x not a thread" % (name, t["handle"]))
            check(near(profile.get(t["handle"], -1), t["ticks"], tol * intervals),
                  "%s core %d task 0x%x: %s ticks, truth %d" % (name, c["core"], t["handle"],
                                                               profile.get(t["handle"]), t["ticks"]))
            k = (t["handle"] >> 8) & 0xF  # task k: priority 1 + k (one_core's task 1 also 7)
            want = [1 + k, 7 if name == "one_core" and k == 1 else 1 + k]
            th = threads.get(t["handle"], {})
            got = [th.get("priority_highest"), th.get("priority_lowest")]
            check(got == want, "%s task 0x%x: priorities %s, truth %s" % (name, t["handle"], got, want))
            name_got = threads.get(t["handle"], {}).get("name")
            check(name_got == "Task 0x%08x" % t["handle"],
                  "%s: task 0x%x named %r" % (name, t["handle"], name_got))
    # Hwi and Swi durations (all cores: interrupt numbers and handles are per core in the truth)
    isr = {}
    for c in truth["cores"]:
        for h in c["hwi"]:
            a = isr.setdefault(h["id"], {"count": 0, "min": None, "max": 0, "sum": 0})
            a["count"] += h["count"]
            a["sum"] += h["sum"]
            a["max"] = max(a["max"], h["max"])
            a["min"] = h["min"] if a["min"] is None else min(a["min"], h["min"])
    got_isr = {i["id"]: i for i in stats.get("isr") or []}
    check(sorted(got_isr) == sorted(isr), "%s: ISR ids %s, truth %s" % (name, sorted(got_isr), sorted(isr)))
    for k, a in isr.items():
        g = got_isr.get(k, {})
        check(g.get("count") == a["count"], "%s ISR %d: count %s, truth %d" % (name, k, g.get("count"), a["count"]))
        check(near(g.get("min", -9), a["min"], 2 * tol) and near(g.get("max", -9), a["max"], 2 * tol),
              "%s ISR %d: min/max %s/%s, truth %d/%d" % (name, k, g.get("min"), g.get("max"), a["min"], a["max"]))
        check(near(g.get("mean", -9), a["sum"] / a["count"], 0.01 + 2 * tol),
              "%s ISR %d: mean %s, truth %.2f" % (name, k, g.get("mean"), a["sum"] / a["count"]))
    swi = {s["handle"]: s for c in truth["cores"] for s in c["swi"]}
    got_swi = {s["handle"]: s for s in stats.get("swi") or []}
    check(sorted(got_swi) == sorted(swi), "%s: Swi handles %s, truth %s" % (name, sorted(got_swi), sorted(swi)))
    for k, a in swi.items():
        g = got_swi.get(k, {})
        check(g.get("count") == a["count"] and near(g.get("min", -9), a["min"], 2 * tol)
              and near(g.get("max", -9), a["max"], 2 * tol),
              "%s Swi 0x%x: %s, truth %s" % (name, k, g, a))
    # the target's own load series, on the core's axis
    origin = truth["origin_g"]
    tl = stats.get("target_load")
    if truth["cpu_load"]:
        def same(got, want):  # the reports by core and time (ticks within tol), every value
            key = lambda r: (r[0], r[1])
            got, want = sorted(got, key=key), sorted(want, key=key)
            return len(got) == len(want) and all(
                g[0] == w[0] and near(g[1], w[1], tol) and g[2:] == w[2:] for g, w in zip(got, want))
        want = [(r["core"], r["g"] - origin, r["percent"]) for r in truth["cpu_load"]]
        got = [(r["core"], r["ticks"], r["percent"]) for r in (tl or {}).get("cpu", [])]
        check(same(got, want), "%s: cpu load series\n%s\ntruth\n%s" % (name, got, want))
        want = [(r["core"], r["g"] - origin, r["task"], r["time"], r["total"], r["function"])
                for r in truth["task_load"]]
        got = [(r["core"], r["ticks"], r["task"], r["time"], r["total"], r["function"])
               for r in (tl or {}).get("tasks", [])]
        check(same(got, want), "%s: task load series\n%s\ntruth\n%s" % (name, got, want))
    else:
        check(tl is None or not any(tl[k] for k in ("cpu", "tasks", "hwi", "swi")),
              "%s: target_load %s without Load reports" % (name, tl))
    # cause -> effect: every semaphore post -> its pend, every Swi post -> its begin
    chrome = json.loads(run("export", "--to", "chrome-json", "--uia-meta", meta, path))["traceEvents"]
    starts = [e for e in chrome if e.get("ph") == "s"]
    check(len(starts) == truth["flows"], "%s: %d flows, truth %d" % (name, len(starts), truth["flows"]))
    # the time line's run slices: per task lane, their ticks add up to the task's run time
    lane_of = {e["args"]["address"]: e["tid"] for e in chrome
               if e.get("ph") == "M" and e.get("pid") == 1 and "address" in e.get("args", {})}
    ran = {}
    for e in chrome:
        if e.get("ph") == "X" and e.get("pid") == 1 and e.get("cat") == "run":
            ran[e["tid"]] = ran.get(e["tid"], 0) + e["args"]["ticks"]
    for c in truth["cores"]:
        intervals = c["switches"] + 2 * sum(h["count"] for h in c["hwi"] + c["swi"]) + 2
        for t in c["tasks"]:
            got = ran.get(lane_of.get(t["handle"]), 0)
            check(near(got, t["ticks"], tol * intervals),
                  "%s task 0x%x: run slices %d ticks, truth %d" % (name, t["handle"], got, t["ticks"]))
    return stats


capture("one_core", 0)

# trx check on the same capture: the longest Hwi is the truth's; stacks and
# lock owners are not in SYS/BIOS's events: unavailable, never a pass
truth = json.load(open(os.path.join(out, "one_core.truth.json")))
r = subprocess.run([trx, "check", "--json", "--uia-meta", os.path.join(out, "one_core.uia.xml"),
                    os.path.join(out, "one_core.uia"), "max-isr-ticks=1000000", "min-stack-free=10",
                    "no-priority-inversion"], capture_output=True, text=True)
res = {x["rule"].split("=")[0]: x for x in json.loads(r.stdout)["results"]} if r.stdout else {}
longest = max(h["max"] for c in truth["cores"] for h in c["hwi"])
check(res.get("max-isr-ticks", {}).get("value") == longest,
      "check max-isr-ticks: %s, truth %d" % (res.get("max-isr-ticks"), longest))
for rule in ("min-stack-free", "no-priority-inversion"):
    check(res.get(rule, {}).get("status") == "unavailable", "check %s: %s" % (rule, res.get(rule)))
check(r.returncode == 2, "check with unavailable rules: exit %d" % r.returncode)
capture("four_cores", 1)

# four cores: every record's ticks are its global time (the truth's first and
# last per core: the sync points) minus the earliest, within one tick
truth = json.load(open(os.path.join(out, "four_cores.truth.json")))
meta, path = os.path.join(out, "four_cores.uia.xml"), os.path.join(out, "four_cores.uia")
events = [json.loads(l) for l in run("events", "--format", "jsonl", "--uia-meta", meta, path).splitlines()]
for c in truth["cores"]:
    mine = [e for e in events if e.get("core") == c["core"]]
    check(len(mine) > 0, "four_cores core %d: no events" % c["core"])
    if mine:
        first, last = mine[0]["ticks"], mine[-1]["ticks"]
        check(near(first, c["first_g"] - truth["origin_g"], 1),
              "four_cores core %d: first record at %d, truth %d" % (c["core"], first, c["first_g"] - truth["origin_g"]))
        check(near(last, c["last_g"] - truth["origin_g"], 1),
              "four_cores core %d: last record at %d, truth %d" % (c["core"], last, c["last_g"] - truth["origin_g"]))
ticks = [e["ticks"] for e in events]
check(ticks == sorted(ticks), "four_cores: events not in time order on the one axis")

# --elf: tasks named by their function's symbol (task 1 also has an object
# at its handle: that name wins), the others keep their address name
meta, path = os.path.join(out, "one_core.uia.xml"), os.path.join(out, "one_core.uia")
fw = os.path.join(out, "fw.elf")
fxns = [("task%d_fxn" % k, 0x1000 + 0x40 * k, 0x40, 0x12) for k in range(4)]
open(fw, "wb").write(elf32(fxns[:2] + [("task_one_obj", 0x20001100, 0x60, 0x11)], 0x10000, b"x\0"))
named = {t["address"]: t["name"] for t in json.loads(run("stats", "--json", "--uia-meta", meta, "--elf", fw,
                                                         path))["threads"]}
want = {0x20001000: "task0_fxn", 0x20001100: "task_one_obj", 0x20001200: "Task 0x20001200",
        0x20001300: "Task 0x20001300"}
check(named == want, "--elf task names %s, want %s" % (named, want))
# is it the firmware? task handles in its RAM, task functions at its function starts
right, moved = os.path.join(out, "right.elf"), os.path.join(out, "moved.elf")
open(right, "wb").write(elf32(fxns, 0x10000, b"x\0", ram=(0x20000000, 0x10000)))
open(moved, "wb").write(elf32([(n, v + 0x100, s, i) for n, v, s, i in fxns], 0x10000, b"x\0",
                              ram=(0x20000000, 0x10000)))
# SYS/BIOS's Idle task (its function is the Idle loop): its time is idle time
idle_elf = os.path.join(out, "idle.elf")
open(idle_elf, "wb").write(elf32(fxns[:2] + [("ti_sysbios_knl_Idle_loop__E", 0x1080, 0x40, 0x12)], 0x10000,
                                 b"x\0", ram=(0x20000000, 0x10000)))
st = json.loads(run("stats", "--json", "--uia-meta", meta, "--elf", idle_elf, path))
one = json.load(open(os.path.join(out, "one_core.truth.json")))["cores"][0]
idle_truth = [t["ticks"] for t in one["tasks"] if t["handle"] == 0x20001200][0]
prof = {p["name"]: p for p in st["execution_profile"]}
check(prof.get("Idle", {}).get("ticks") == idle_truth and
      not any(p["address"] == 0x20001200 for p in st["execution_profile"]),
      "idle task: profile %s, truth idle %d" % (prof.get("Idle"), idle_truth))
check(st["smp"]["per_core"][0]["idle_ticks"] == idle_truth,
      "idle task: core 0 idle %s, truth %d" % (st["smp"]["per_core"][0]["idle_ticks"], idle_truth))
windows = st["cpu_load"]["windows"]
check(idle_truth == 0 or sum(windows) / len(windows) < 100, "idle task: load %s" % windows)
for elf, verdict in ((right, True), (moved, False)):
    r = subprocess.run([trx, "info", "--json", "--uia-meta", meta, "--elf", elf, path],
                       capture_output=True, text=True)
    got = json.loads(r.stdout).get("elf", {}) if r.returncode == 0 else {}
    check(got.get("matches") is verdict, "%s: elf %s, want matches %s" % (elf, got, verdict))
    check(("not the firmware" in r.stderr) == (not verdict), "%s: stderr %r" % (elf, r.stderr))

finish("check_sysbios")
