#!/usr/bin/env python3
"""check_idle_load.py TRX SYSBIOS_SHAPED DIR - honest CPU load on a SYS/BIOS
capture (sysbios_shaped.c's idle_load: two cores, an Idle task that runs when
no task is ready, a long initialization before each core's first switch, the
target's own LS_cpuLoad reports):
  - without anything naming the Idle task: the load is unavailable with the
    reason (stats text and JSON, per core, check max-cpu-load), never 100 %;
  - with the ELF naming SYS/BIOS's Idle loop, or --idle with the Idle tasks'
    handles: each core's load equals the writer's truth within 0.5 % (the time
    before the first switch is unknown, not busy), idle ticks exact;
  - the target's reports shown beside trx's load (text and JSON).
Every figure is compared; a difference fails with both values."""
import json, os, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "uia"))
from elf32_writer import elf32
from test_support import check, finish

trx, sim, out = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(out, exist_ok=True)
subprocess.run([sim, out], check=True)
path, meta = os.path.join(out, "idle_load.uia"), os.path.join(out, "idle_load.uia.xml")
truth = json.load(open(os.path.join(out, "idle_load.truth.json")))
idle = {c["core"]: c for c in truth["idle"]}


def run(*args, code=0):
    r = subprocess.run([trx, *args], capture_output=True, text=True)
    check(r.returncode == code, "trx %s: exit %d (%s)" % (" ".join(args), r.returncode, r.stderr))
    return r.stdout


# no Idle task known: unavailable with the reason, never a figure
st = json.loads(run("stats", "--json", "--uia-meta", meta, path))
reason = st.get("load_unavailable") or ""
check(st.get("cpu_load", 0) is None and "--elf" in reason and "--idle" in reason,
      "no idle: cpu_load %s, load_unavailable %r" % (st.get("cpu_load"), reason))
for c in st["smp"]["per_core"]:
    check(c["load_percent"] is None and c.get("load_unavailable") == reason,
          "no idle: core %d load %s (%r)" % (c["core"], c["load_percent"], c.get("load_unavailable")))
check([p["core"] for p in st["target_load"]["per_core"]] == [0, 1] and
      all(p["trx_load_percent"] is None for p in st["target_load"]["per_core"]),
      "no idle: target_load.per_core %s" % st["target_load"]["per_core"])
text = run("stats", "--uia-meta", meta, path)
check("CPU load: unavailable (" + reason + ")" in text, "no idle: text without the reason")
check("Core 0: load unavailable" in text and "Core 1: load unavailable" in text,
      "no idle: per-core text load not unavailable")
r = subprocess.run([trx, "check", "--json", "--uia-meta", meta, path, "max-cpu-load=50"],
                   capture_output=True, text=True)
res = json.loads(r.stdout)["results"][0] if r.stdout else {}
check(res.get("status") == "unavailable" and reason in res.get("evidence", ""),
      "no idle: check max-cpu-load %s" % res)

# the ELF names the Idle loop (SYS/BIOS's Idle task function); or --idle
fw = os.path.join(out, "idle_load.elf")
fxns = [("task%d_fxn" % k, 0x1000 + 0x40 * k, 0x40, 0x12) for k in range(3)]
open(fw, "wb").write(elf32(fxns + [("ti_sysbios_knl_Idle_loop__E", 0x1200, 0x40, 0x12)], 0x10000,
                           b"x\0", ram=(0x20000000, 0x10000)))
handles = ",".join("0x%x" % idle[c]["idle_handle"] for c in sorted(idle))
for how in (["--elf", fw], ["--idle", handles]):
    st = json.loads(run("stats", "--json", "--uia-meta", meta, *how, path))
    check("load_unavailable" not in st and st.get("cpu_load"), "%s: load unavailable" % how[0])
    per_core = {c["core"]: c for c in st["smp"]["per_core"]}
    for k, want in idle.items():
        got = per_core.get(k, {})
        check(got.get("load_percent") is not None and
              abs(got["load_percent"] - want["load_percent"]) <= 0.5,
              "%s core %d: load %s, truth %.4f" % (how[0], k, got.get("load_percent"),
                                                    want["load_percent"]))
        check(got.get("idle_ticks") == want["idle_ticks"],
              "%s core %d: idle ticks %s, truth %d" % (how[0], k, got.get("idle_ticks"),
                                                       want["idle_ticks"]))
        busy = got.get("thread_ticks", 0) + got.get("interrupt_ticks", 0)
        check(abs(busy - want["busy_ticks"]) <= 1,
              "%s core %d: busy %d, truth %d" % (how[0], k, busy, want["busy_ticks"]))
        check(got.get("init_ticks") == 0 and got.get("unknown_ticks", 0) > 0,
              "%s core %d: init %s / unknown %s ticks (initialization is unknown time)"
              % (how[0], k, got.get("init_ticks"), got.get("unknown_ticks")))
        windows = [w for w in st["cpu_load"]["per_core"][k]["windows"]]
        check(windows[0] is None, "%s core %d: first window %s (its time is unknown)"
              % (how[0], k, windows[0]))
    names = [p["name"] for p in st["execution_profile"]]
    check("Unknown" in names and "Initialization" not in names, "profile rows %s" % names)
    beside = {p["core"]: p for p in st["target_load"]["per_core"]}
    for k, want in idle.items():
        reports = [r["percent"] for r in truth["cpu_load"] if r["core"] == k]
        b = beside.get(k, {})
        check(b.get("reports") == len(reports) and
              abs(b.get("mean_percent", -1) - sum(reports) / len(reports)) < 0.006 and
              b.get("trx_load_percent") == per_core[k]["load_percent"],
              "%s core %d: beside %s, truth %d reports mean %.2f" %
              (how[0], k, b, len(reports), sum(reports) / len(reports)))
    text = run("stats", "--uia-meta", meta, *how, path)
    for k in sorted(idle):
        check(("Core %d: load %.2f%%" % (k, per_core[k]["load_percent"])) in text,
              "%s: text of core %d's load" % (how[0], k))
    r = subprocess.run([trx, "check", "--json", "--uia-meta", meta, *how, path, "max-cpu-load=100"],
                       capture_output=True, text=True)
    res = json.loads(r.stdout)["results"][0] if r.stdout else {}
    check(res.get("status") == "pass", "%s: check max-cpu-load %s" % (how[0], res))

finish("check_idle_load")
