#!/usr/bin/env python3
"""trx diff: the demo against itself reports no change; the demo against its
variant with one more ISR per tick (trx_demo --extra-isr) reports the deltas
the simulation's truth files give (interrupts = the extra ISR's entries,
nested interrupts, switches, suspensions, resumptions, inversions).

usage: diff_demo.py TRX TRX_DEMO WORK_DIR
"""
import json
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from demo_truth import read_truth  # noqa: E402

TRX, DEMO_BIN, WORK = sys.argv[1:4]
failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(*args):
    p = subprocess.run([TRX, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr



shutil.rmtree(WORK, ignore_errors=True)
base_dir, variant_dir = os.path.join(WORK, "base"), os.path.join(WORK, "variant")
os.makedirs(base_dir)
os.makedirs(variant_dir)
subprocess.run([DEMO_BIN, base_dir], check=True, capture_output=True)
subprocess.run([DEMO_BIN, variant_dir, "--extra-isr"], check=True, capture_output=True)
base, variant = os.path.join(base_dir, "demo.trx"), os.path.join(variant_dir, "demo.trx")
tb = read_truth(os.path.join(base_dir, "demo.truth"))[0]
tv = read_truth(os.path.join(variant_dir, "demo.truth"))[0]
cycles, timer_period = tb["cycles"], 10000
# one more ISR per tick: as many extra entries as timer ticks, give or take the phase
expect(abs(tv["extra_isr_entries"] - cycles // timer_period) <= 1, f"extra ISR entries {tv}")
expect(tv["interrupts"] - tb["interrupts"] == tv["extra_isr_entries"],
       "the variant's only extra interrupts are the extra ISR's (truth files)")

SECTIONS = ["summary", "performance", "execution_profile", "stack_usage", "inversions", "isr",
            "interrupt_to_thread_latency", "response_time", "responses"]


def rows(doc):
    return [(s, r) for s in SECTIONS for r in doc.get(s, [])]


# ----------------------------------------------------- a trace vs itself
rc, out, err = run("diff", "--json", base, base)
expect(rc == 0, f"diff A A: exit {rc} {err}")
doc = json.loads(out)
expect(doc["changed"] == 0 and doc["rows"] == len(rows(doc)) > 20, f"A vs A: {doc['changed']} changed")
for s, r in rows(doc):
    both = r["a"] is not None
    expect(r["a"] == r["b"], f"A vs A {s}/{r['name']}: {r['a']} != {r['b']}")
    expect(r["change"] == (0 if both else None), f"A vs A {s}/{r['name']}: change {r['change']}")
    expect(r["relative"] == (0 if both else None), f"A vs A {s}/{r['name']}: relative")
# responses: per thread the instances and response percentiles of trx latency, on each side
lat = {p: {t["name"]: t for t in json.loads(run("latency", "--json", p)[1])["threads"]}
       for p in (base, variant)}
rdoc = json.loads(run("diff", "--json", base, variant)[1])
seen = 0
for r in rdoc.get("responses", []):
    name, field = r["name"], r["field"]
    for side, path in (("a", base), ("b", variant)):
        t = lat[path].get(name)
        want = None if t is None else t["instances"] if field == "instances" else \
            (t["response"] or {}).get(field)
        expect(r[side] == want, f"responses {name} {field} {side}: {r[side]} != latency's {want}")
        seen += 1
expect(seen >= 2 * 5 * len(lat[base]), f"responses rows for every thread ({seen})")
rc, out, err = run("diff", base, base)
expect(rc == 0 and "\n0 of " and " figures changed\n" in out, "text: no change")
rc, out, err = run("diff", "--changed", base, base)
expect(rc == 0 and "performance" not in out, "--changed prints no section without a change")

# ------------------------------------------- the demo vs its variant
rc, out, err = run("diff", "--json", base, variant)
expect(rc == 0, f"diff base variant: exit {rc} {err}")
doc = json.loads(out)
perf = {r["name"]: r for r in doc["performance"]}
for figure, key in [("interrupts", "interrupts"), ("nested_interrupts", "nested_interrupts"),
                    ("context_switches", "context_switches"),
                    ("thread_suspensions", "thread_suspensions"),
                    ("thread_resumptions", "thread_resumptions"),
                    ("priority_inversions", "priority_inversions"),
                    ("priority_inversions_unbounded", "priority_inversions_unbounded")]:
    r = perf[figure]
    expect(r["a"] == tb[key] and r["b"] == tv[key], f"{figure}: {r['a']}/{r['b']} vs truth {tb[key]}/{tv[key]}")
    expect(r["change"] == tv[key] - tb[key], f"{figure}: change {r['change']}")
    if r["a"]:
        expect(abs(r["relative"] - 100.0 * (tv[key] - tb[key]) / tb[key]) < 1e-3,
               f"{figure}: relative {r['relative']}")
expect(perf["interrupts"]["change"] == tv["extra_isr_entries"], "interrupts: one more per tick")
# the variant's extra entries: an ENTER and an EXIT per extra ISR, and the
# user events that changed (the truth files)
expect(tv["trace_entries"] - tb["trace_entries"] ==
       2 * tv["extra_isr_entries"] + tv["user_events"] - tb["user_events"], "entries (truth)")
# the ISR table: ISR 4 exists in B only, as often as the simulation ran it;
# ISRs 1-3 (timer, ADC, UART) are in both, matched by number
isr = {(r["name"], r["field"]): r for r in doc["isr"]}
expect(isr[("4", "count")]["a"] is None and isr[("4", "count")]["b"] == tv["extra_isr_entries"],
       f"ISR 4 count: {isr.get(('4', 'count'))}")
expect(isr[("4", "count")]["change"] is None, "ISR 4: no change figure without A")
base_isr = json.loads(run("stats", "--json", base)[1])["isr"]
for i in base_isr:
    r = isr[(str(i["id"]), "count")]
    expect(r["a"] == i["count"] and r["b"] is not None, f"ISR {i['id']} in both")
expect({r["name"] for r in doc["interrupt_to_thread_latency"]} >= {"sensor"}, "latency rows")
prof = {r["name"]: r for r in doc["execution_profile"]}
expect(prof["Interrupt"]["change"] > 0, "more time in interrupts")
# the values are trx stats' own, side by side
for side, path in (("a", base), ("b", variant)):
    st = json.loads(run("stats", "--json", path)[1])
    for k in ("context_switches", "interrupts", "nested_interrupts", "time_slices"):
        expect(perf[k][side] == st["performance"][k], f"{k} {side} = trx stats")
    for p in st["execution_profile"]:
        expect(prof[p["name"]][side] == p["ticks"], f"profile {p['name']} {side} = trx stats")
rc, out, err = run("diff", base, variant)
line = [l for l in out.splitlines() if l.split()[:1] == ["interrupts"]]
want = f"+{tv['extra_isr_entries']}"
expect(line and line[0].split()[1:4] == [str(tb["interrupts"]), str(tv["interrupts"]), want],
       f"text interrupts line: {line}")
line = [l for l in out.splitlines() if l.strip().startswith("ISR 4 (count)")]
expect(line and line[0].split()[3:] == ["-", str(tv["extra_isr_entries"]), "-", "-"],
       f"text ISR 4 line: {line}")

# --------------------------------------------- threads matched by name
rc, out, err = run("diff", "--json", "--compat", "tracex", base, variant)
expect(rc == 0 and json.loads(out)["mode"] == "tracex", "--compat tracex")
rc, out, err = run("diff", base)
expect(rc == 1 and "no input A B given" in err, f"one input: {rc} {err}")
rc, out, err = run("diff", base, os.path.join(WORK, "missing.trx"))
expect(rc == 2 and out == "", f"missing B: {rc}")

if failures:
    print(f"{len(failures)} failures")
    sys.exit(1)
print("diff_demo: all passed")
