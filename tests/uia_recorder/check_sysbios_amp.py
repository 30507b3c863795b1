#!/usr/bin/env python3
"""check_sysbios_amp.py TRX SYSBIOS_SHAPED DIR - AMP and SMP SYS/BIOS
captures (sysbios_shaped.c: amp_two_cores, smp_two_cores) against the
simulation's truth through `trx stats --json` with TI's metadata:
  - AMP (two instances of one image: the same handles on both cores): one
    thread per (core, handle), each with "core", named "N/Task 0x..." (as
    System Analyzer: core/task), its run ticks that core's truth; with
    --elf "N/symbol";
  - SMP (one instance, tasks migrating, never on two cores at once): one
    thread per handle without "core", its run ticks the sum over the cores;
  - both: context_switches = every LM_switch, per core switches the truth's;
  - Hwis / Swis: on AMP a row per (core, number / handle) with "core" (count,
    min, mean, max = that core's truth; text "N/Hwi id", check's longest ISR
    names its core, diff's ISR rows "N/Hwi id"); on SMP one per number /
    handle, the cores' sum, without "core".
Every figure is compared; a difference fails with both values."""
import json, os, re, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "uia"))
from elf32_writer import elf32
from test_support import check, finish

trx, sim, out = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(out, exist_ok=True)
subprocess.run([sim, out], check=True)


def stats(name, *more):
    path, meta = os.path.join(out, name + ".uia"), os.path.join(out, name + ".uia.xml")
    r = subprocess.run([trx, "stats", "--json", "--uia-meta", meta, *more, path], capture_output=True,
                       text=True)
    check(r.returncode == 0, "trx stats %s: exit %d (%s)" % (name, r.returncode, r.stderr))
    return json.loads(r.stdout) if r.returncode == 0 else {}


def capture(name, tol):
    """Checks NAME; tol: ticks a run time may differ by per interval (the
    sync-point mapping of a clock with another rate rounds)."""
    truth = json.load(open(os.path.join(out, name + ".truth.json")))
    st = stats(name)
    perf = st.get("performance") or {}
    want = sum(c["switches"] for c in truth["cores"])
    check(perf.get("context_switches") == want,
          "%s: context_switches %s, truth %d" % (name, perf.get("context_switches"), want))
    per_core = {c["core"]: c for c in (st.get("smp") or {}).get("per_core", [])}
    for c in truth["cores"]:
        got = per_core.get(c["core"], {}).get("switches")
        check(got == c["switches"], "%s core %d: switches %s, truth %d" % (name, c["core"], got, c["switches"]))
    intervals = sum(c["switches"] + 2 * sum(h["count"] for h in c["hwi"] + c["swi"]) + 2 for c in truth["cores"])
    threads = st.get("threads") or []
    profile = st.get("execution_profile") or []
    if truth["amp"]:  # per (core, handle): that core's figures
        want = {(c["core"], t["handle"]): t["ticks"] for c in truth["cores"] for t in c["tasks"]}
        got = {(t.get("core"), t["address"]): t for t in threads}
        check(sorted(got) == sorted(want), "%s: threads %s, truth %s" % (name, sorted(got), sorted(want)))
        for (core, handle), t in got.items():
            check(t["name"] == "%d/Task 0x%08x" % (core, handle), "%s: thread named %r" % (name, t["name"]))
        ticks = {(p.get("core"), p["address"]): p["ticks"] for p in profile[:-3]}
        for k, v in want.items():
            check(abs(ticks.get(k, -1) - v) <= tol * intervals,
                  "%s core %d task 0x%x: %s ticks, truth %d" % (name, k[0], k[1], ticks.get(k), v))
    else:  # one thread per handle: the sum over the cores
        want = {}
        for c in truth["cores"]:
            for t in c["tasks"]:
                want[t["handle"]] = want.get(t["handle"], 0) + t["ticks"]
        check(sorted(t["address"] for t in threads) == sorted(want),
              "%s: threads %s, truth %s" % (name, [t["address"] for t in threads], sorted(want)))
        check(not any("core" in t for t in threads + profile), "%s: a per-core row on SMP" % name)
        ticks = {p["address"]: p["ticks"] for p in profile[:-3]}
        for k, v in want.items():
            check(abs(ticks.get(k, -1) - v) <= tol * intervals,
                  "%s task 0x%x: %s ticks, truth %d" % (name, k, ticks.get(k), v))
    # Hwis per (core, number) and Swis per (core, handle) on AMP, with "core";
    # on SMP one row per number / handle (the cores' sum), without "core"
    for what, key, rows in (("hwi", "id", st.get("isr") or []), ("swi", "handle", st.get("swi") or [])):
        want = {}
        for c in truth["cores"]:
            for h in c[what]:
                k = (c["core"], h[key]) if truth["amp"] else (None, h[key])
                a = want.setdefault(k, {"count": 0, "min": None, "max": 0, "sum": 0})
                a["count"] += h["count"]
                a["sum"] += h["sum"]
                a["max"] = max(a["max"], h["max"])
                a["min"] = h["min"] if a["min"] is None else min(a["min"], h["min"])
        got = {(r.get("core"), r[key]): r for r in rows}
        check(sorted(got, key=str) == sorted(want, key=str),
              "%s: %s rows %s, truth %s" % (name, what, sorted(got, key=str), sorted(want, key=str)))
        for k, a in want.items():
            g = got.get(k, {})
            mean = a["sum"] / a["count"]
            ok = (g.get("count") == a["count"] and abs(g.get("min", -99) - a["min"]) <= 2 * tol
                  and abs(g.get("max", -99) - a["max"]) <= 2 * tol and abs(g.get("mean", -99) - mean) <= 0.01 + 2 * tol
                  and g.get("min_exclusive", -1) <= g.get("max_exclusive", -2) <= g.get("max", -3))
            check(ok, "%s %s %s: %s, truth %s (mean %.2f)" % (name, what, k, g, a, mean))
    return truth


capture("amp_two_cores", 1)
capture("smp_two_cores", 0)

# AMP: stats text rows "N/Hwi id" and "N/0x<handle>", trx check's longest
# ISR names its core, trx diff matches ISRs by (core, number)
amp_truth = json.load(open(os.path.join(out, "amp_two_cores.truth.json")))
amp, amp_meta = os.path.join(out, "amp_two_cores.uia"), os.path.join(out, "amp_two_cores.uia.xml")
text = subprocess.run([trx, "stats", "--uia-meta", amp_meta, amp], capture_output=True, text=True).stdout
rows = [m.group(1) for m in re.finditer(r"^  (\d+/(?:Hwi \d+|0x[0-9a-f]{8})) +\d", text, re.M)]
want = ["%d/Hwi %d" % (c["core"], h["id"]) for c in amp_truth["cores"] for h in c["hwi"]]
want += ["%d/0x%08x" % (c["core"], s["handle"]) for c in amp_truth["cores"] for s in c["swi"]]
check(sorted(rows) == sorted(want),
      "AMP stats text ISR / Swi rows %s, want %s" % (rows, want))
worst = max(((h["max"], c["core"], h["id"]) for c in amp_truth["cores"] for h in c["hwi"]))
r = subprocess.run([trx, "check", "--json", "--uia-meta", amp_meta, amp, "max-isr-ticks=1"], capture_output=True,
                   text=True)
res = json.loads(r.stdout)["results"][0] if r.stdout else {}
check(res.get("subject") == "%d/Hwi %d" % (worst[1], worst[2]) and abs(res.get("value", -9) - worst[0]) <= 2,
      "AMP check max-isr-ticks: %s, truth core %d ISR %d %d ticks" % (res, worst[1], worst[2], worst[0]))
r = subprocess.run([trx, "diff", "--json", "--uia-meta", amp_meta, amp, amp], capture_output=True, text=True)
drows = json.loads(r.stdout).get("isr", []) if r.stdout else []
want = {("%d/Hwi %d" % (c["core"], h["id"]), h["count"]) for c in amp_truth["cores"] for h in c["hwi"]}
got = {(x["name"], x["a"]) for x in drows if x["field"] == "count" and x["a"] == x["b"]}
check(got == want, "AMP diff ISR counts %s, truth %s" % (sorted(got), sorted(want)))

# --elf on AMP: "core/symbol" (task 1: the object at its handle wins)
fw = os.path.join(out, "amp.elf")
fxns = [("task%d_fxn" % k, 0x1000 + 0x40 * k, 0x40, 0x12) for k in range(2)]
open(fw, "wb").write(elf32(fxns + [("task_one_obj", 0x20001100, 0x60, 0x11)], 0x10000, b"x\0"))
named = {(t.get("core"), t["address"]): t["name"] for t in stats("amp_two_cores", "--elf", fw).get("threads", [])}
want = {}
for core in (0, 1):
    want.update({(core, 0x20001000): "%d/task0_fxn" % core, (core, 0x20001100): "%d/task_one_obj" % core,
                 (core, 0x20001200): "%d/Task 0x20001200" % core,
                 (core, 0x20001300): "%d/Task 0x20001300" % core})
check(named == want, "AMP --elf names %s, want %s" % (named, want))

# names shown more than once get their one core's prefix: four_cores (each
# core its own tasks, the same functions) with --elf: every task "N/taskK_fxn"
# with N the truth's core of its handle; SMP (tasks migrating) keeps the
# plain names; --idle by a plain name still finds each core's task
fw4 = os.path.join(out, "fw4.elf")
open(fw4, "wb").write(elf32([("task%d_fxn" % k, 0x1000 + 0x40 * k, 0x40, 0x12) for k in range(4)], 0x10000, b"x\0"))
four_truth = json.load(open(os.path.join(out, "four_cores.truth.json")))
core_of = {t["handle"]: c["core"] for c in four_truth["cores"] for t in c["tasks"]}
threads = stats("four_cores", "--elf", fw4).get("threads", [])
names = [t["name"] for t in threads]
check(len(names) == len(set(names)) and len(names) == len(core_of), "four_cores --elf: task names %s" % names)
for t in threads:
    c = core_of.get(t["address"])
    check(c is not None and re.fullmatch(r"%d/task[0-3]_fxn" % c, t["name"]) and "core" not in t,
          "four_cores --elf: task 0x%x (core %s) named %r" % (t["address"], c, t["name"]))
plain = sorted(t["name"] for t in stats("smp_two_cores", "--elf", fw4).get("threads", []))
check(plain == ["task%d_fxn" % k for k in range(len(plain))] and plain,
      "smp_two_cores --elf: names %s, want the plain task names" % plain)
idle = stats("four_cores", "--elf", fw4, "--idle", "task3_fxn").get("threads", [])
check(sorted(t["name"] for t in idle if t.get("idle")) == ["%d/task3_fxn" % c for c in range(4)],
      "four_cores --idle task3_fxn: idle tasks %s" % [t["name"] for t in idle if t.get("idle")])

finish("check_sysbios_amp")
