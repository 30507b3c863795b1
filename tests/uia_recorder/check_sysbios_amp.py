#!/usr/bin/env python3
"""check_sysbios_amp.py TRX SYSBIOS_SHAPED DIR - AMP and SMP SYS/BIOS
captures (sysbios_shaped.c: amp_two_cores, smp_two_cores) against the
simulation's truth through `trx stats --json` with TI's metadata:
  - AMP (two instances of one image: the same handles on both cores): one
    thread per (core, handle), each with "core", named "core N/Task 0x...",
    its run ticks that core's truth; with --elf "N/symbol";
  - SMP (one instance, tasks migrating, never on two cores at once): one
    thread per handle without "core", its run ticks the sum over the cores;
  - both: context_switches = every LM_switch, per core switches the truth's.
Every figure is compared; a difference fails with both values."""
import json, os, subprocess, sys

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
            check(t["name"] == "core %d/Task 0x%08x" % (core, handle), "%s: thread named %r" % (name, t["name"]))
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
    return truth


capture("amp_two_cores", 1)
capture("smp_two_cores", 0)

# --elf on AMP: "core/symbol" (task 1: the object at its handle wins)
fw = os.path.join(out, "amp.elf")
fxns = [("task%d_fxn" % k, 0x1000 + 0x40 * k, 0x40, 0x12) for k in range(2)]
open(fw, "wb").write(elf32(fxns + [("task_one_obj", 0x20001100, 0x60, 0x11)], 0x10000, b"x\0"))
named = {(t.get("core"), t["address"]): t["name"] for t in stats("amp_two_cores", "--elf", fw).get("threads", [])}
want = {}
for core in (0, 1):
    want.update({(core, 0x20001000): "%d/task0_fxn" % core, (core, 0x20001100): "%d/task_one_obj" % core,
                 (core, 0x20001200): "core %d/Task 0x20001200" % core,
                 (core, 0x20001300): "core %d/Task 0x20001300" % core})
check(named == want, "AMP --elf names %s, want %s" % (named, want))

finish("check_sysbios_amp")
