#!/usr/bin/env python3
"""trx check: every rule passing and failing with its exit status and
evidence line, bad rules, --rules files, --json and the JUnit report (read
with xml.etree). Expected values come from the simulation's truth file, the
corpus truth files, or are computed here from `trx events` / `trx stats`
output independently of the rule code.

usage: check_rules.py TRX TRX_DEMO MAKE_UIA_GAPS SHARED_DIR WORK_DIR
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from demo_truth import read_truth  # noqa: E402

TRX, DEMO_BIN, MAKE_GAPS, SHARED, WORK = sys.argv[1:6]
CORPUS = os.path.join(SHARED, "corpus")
failures = []


def run(*args):
    p = subprocess.run([TRX, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def expect(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def check(trace, *rules, want_rc):
    """Runs trx check --json and text; returns (json results, text lines)."""
    rc, out, err = run("check", "--json", trace, *rules)
    expect(rc == want_rc, f"check {rules} on {trace}: exit {rc}, wanted {want_rc} ({err})")
    doc = json.loads(out)
    rc2, text, _ = run("check", trace, *rules)
    expect(rc2 == want_rc, f"text check {rules}: exit {rc2}")
    return doc["results"], text.splitlines()


def line_for(lines, rule):
    for l in lines:
        if l.split(None, 1)[-1].startswith(rule + ":"):
            return l
    return ""


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
demo_dir = os.path.join(WORK, "demo")
os.makedirs(demo_dir)
subprocess.run([DEMO_BIN, demo_dir], check=True, capture_output=True)
demo = os.path.join(demo_dir, "demo.trx")
demo_truth = read_truth(os.path.join(demo_dir, "demo.truth"))[0]
gaps = os.path.join(WORK, "gaps.uia")
subprocess.run([MAKE_GAPS, gaps], check=True, capture_output=True)
wrapped = os.path.join(CORPUS, "b_sample_wrap.trx")
inv5 = os.path.join(CORPUS, "c_prio_inversion_mutex_noinherit.trx")
with open(os.path.join(CORPUS, "c_prio_inversion_mutex_noinherit.truth.txt")) as f:
    inv5_truth = f.read()  # "... 5 unbounded (non-deterministic) inversions"
nested = os.path.join(CORPUS, "d_interrupts_nested.trx")

# A damaged copy of the demo: entry 100's thread word zeroed, the rest of
# it left (a half-written entry the salvaging reader skips).
with open(demo, "rb") as f:
    image = bytearray(f.read())
base, = struct.unpack_from("<I", image, 8)
buffer_start, = struct.unpack_from("<I", image, 24)
entry = buffer_start - base + 100 * 32
struct.pack_into("<I", image, entry, 0)
damaged = os.path.join(WORK, "damaged.trx")
with open(damaged, "wb") as f:
    f.write(image)

stats = json.loads(run("stats", "--json", demo)[1])
events = [json.loads(l) for l in run("events", "--format", "jsonl", demo)[1].splitlines()]
ticks_of = {e["index"]: e["ticks"] for e in events}

# ------------------------------------------------------------ no-lost-events
res, lines = check(demo, "no-lost-events", want_rc=0)
expect(res[0]["status"] == "pass" and res[0]["value"] == 0, "demo: nothing lost")
expect(line_for(lines, "no-lost-events").startswith("PASS  no-lost-events: no gap, buffer not "
                                                     "wrapped, no damage"), "pass line")
res, lines = check(wrapped, "no-lost-events", want_rc=1)
expect(res[0]["status"] == "fail", "wrapped buffer fails")
expect("FAIL  no-lost-events: no gap; the buffer wrapped" in line_for(lines, "no-lost-events"),
       "wrapped evidence: " + line_for(lines, "no-lost-events"))
res, lines = check(gaps, "no-lost-events", want_rc=1)
# make_uia_gaps loses 10 events in 2 gaps (tests/interop/make_uia_gaps.c)
info = json.loads(run("info", "--json", gaps)[1])
expect(res[0]["value"] == 10, f"gaps: value {res[0]['value']}, wanted 10")
expect("10 events lost in 2 gaps" in res[0]["evidence"], "gap evidence: " + res[0]["evidence"])
expect(res[0]["event_index"] is not None, "gap evidence has an event index")
res, lines = check(damaged, "no-lost-events", want_rc=1)
expect(res[0]["value"] == 1 and "1 damaged entry" in res[0]["evidence"],
       "damaged evidence: " + res[0]["evidence"])

# --------------------------------------------------- no-priority-inversion
res, lines = check(inv5, "no-priority-inversion", "no-priority-inversion=unbounded", want_rc=1)
n = int(re.search(r"(\d+) unbounded", inv5_truth).group(1))
expect(res[0]["value"] == n and res[1]["value"] == n, f"c_prio: {res[0]['value']}, {res[1]['value']}")
inv_stats = json.loads(run("stats", "--json", inv5)[1])["inversions"]
expect(res[0]["event_index"] == inv_stats[0]["start_index"], "first inversion's start index")
expect(res[0]["ticks"] == inv_stats[0]["start_ticks"], "first inversion's start ticks")
expect(line_for(lines, "no-priority-inversion").startswith(
    f"FAIL  no-priority-inversion: {n} priority inversions ({n} unbounded), limit 0; first: "),
    "inversion line: " + line_for(lines, "no-priority-inversion"))
res, lines = check(demo, "no-priority-inversion=unbounded", want_rc=1)
expect(res[0]["value"] == int(demo_truth["priority_inversions_unbounded"]),
       "demo: unbounded count from the simulation")
expect(f"{demo_truth['priority_inversions']} priority inversions "
       f"({demo_truth['priority_inversions_unbounded']} unbounded)" in res[0]["evidence"],
       "demo inversion evidence: " + res[0]["evidence"])
res, lines = check(nested, "no-priority-inversion", "no-priority-inversion=unbounded", want_rc=0)
expect(all(r["status"] == "pass" and r["value"] == 0 for r in res), "no inversion in d_interrupts_nested")

# ------------------------------------------------------------ min-stack-free
known = [s for s in stats["stack_usage"] if s["min_available"] is not None]
least = min(known, key=lambda s: s["min_available"])
m = least["min_available"]
res, lines = check(demo, f"min-stack-free={m}", want_rc=0)
expect(res[0]["value"] == m and res[0]["subject"] == "thread " + least["name"], "least free stack")
expect(res[0]["event_index"] == least["event_index"], "stack event index")
expect(res[0]["ticks"] == ticks_of[least["event_index"]], "stack event ticks")
res, lines = check(demo, f"min-stack-free={m + 1}", want_rc=1)
want = (f"FAIL  min-stack-free={m + 1}: least free stack: thread \"{least['name']}\" {m} of 2048 "
        f"bytes free at event {least['event_index']} (ticks {ticks_of[least['event_index']]}), "
        f"limit {m + 1} bytes")
expect(line_for(lines, f"min-stack-free={m + 1}").startswith(want),
       "stack line: " + line_for(lines, f"min-stack-free={m + 1}"))
other = max(known, key=lambda s: s["min_available"])
o = other["min_available"]
res, _ = check(demo, f"min-stack-free={o}:{other['name']}", f"min-stack-free={o + 1}:{other['name']}",
               want_rc=1)
expect([r["status"] for r in res] == ["pass", "fail"], "named thread pass/fail")
expect(res[1]["subject"] == "thread " + other["name"] and res[1]["value"] == o, "named thread value")
rc, out, err = run("check", demo, "min-stack-free=10:nosuchthread")
expect(rc == 2 and "no thread named \"nosuchthread\"" in err, f"unknown thread: {rc} {err}")

# -------------------------------------------------------------- max-isr-rate
isr_ticks = [e["ticks"] for e in events if e["id"] == 3 and not e["synthetic"]]
window = 1000
peak, lo = 0, 0
for hi, t in enumerate(isr_ticks):
    while t - isr_ticks[lo] >= window:
        lo += 1
    peak = max(peak, hi - lo + 1)
expect(len(isr_ticks) == int(demo_truth["interrupts"]), "demo interrupts = truth")
res, lines = check(demo, f"max-isr-rate={peak}:{window}", want_rc=0)
expect(res[0]["value"] == peak, f"isr rate peak {res[0]['value']}, wanted {peak}")
res, lines = check(demo, f"max-isr-rate={peak - 1}:{window}", want_rc=1)
expect(line_for(lines, f"max-isr-rate={peak - 1}:{window}").startswith(
    f"FAIL  max-isr-rate={peak - 1}:{window}: peak {peak} interrupts in {window} ticks: events "),
    "rate line: " + line_for(lines, f"max-isr-rate={peak - 1}:{window}"))
first = res[0]["event_index"]
expect(ticks_of[first] == res[0]["ticks"], "rate window start ticks")
res, _ = check(demo, f"max-isr-rate={len(isr_ticks)}:{10**12}", f"max-isr-rate={len(isr_ticks) - 1}:{10**12}", want_rc=1)
expect([r["status"] for r in res] == ["pass", "fail"], "whole-trace window counts every interrupt")

# ------------------------------------------------------------ max-isr-ticks
by_index = {e["index"]: e for e in events}
isrs = stats["isr"]
top = max(isrs, key=lambda i: i["max"])
res, lines = check(demo, f"max-isr-ticks={top['max']}", want_rc=0)
expect(res[0]["value"] == top["max"] and res[0]["subject"] == f"ISR {top['id']}", "longest ISR")
ended = by_index[res[0]["event_index"]]
expect(ended["name"] == "ISR EXIT" and ended["ticks"] == res[0]["ticks"], f"ISR evidence {ended}")
res, lines = check(demo, f"max-isr-ticks={top['max'] - 1}", want_rc=1)
expect(line_for(lines, f"max-isr-ticks={top['max'] - 1}").startswith(
    f"FAIL  max-isr-ticks={top['max'] - 1}: longest ISR: ISR {top['id']} ran {top['max']} ticks "
    f"(inclusive of nested ISRs; {top['max_exclusive']} exclusive at most), ended at event "
    f"{ended['index']} (ticks {ended['ticks']}), limit {top['max'] - 1} ticks"),
    "ISR line: " + line_for(lines, f"max-isr-ticks={top['max'] - 1}"))
# per ISR number: the UART's ISR (number 3) never nests and always costs the
# same in the simulation (entry 12 + 120 of work + exit 8 cycles, minus the
# 12 before the ENTER event: 128..140 ticks between its ENTER and EXIT events)
uart = [i for i in isrs if i["id"] == 3][0]
expect(uart["max"] == uart["min"], f"the UART ISR's duration is constant: {uart}")
res, _ = check(demo, f"max-isr-ticks={uart['max']}:3", f"max-isr-ticks={uart['max'] - 1}:3",
               want_rc=1)
expect([r["status"] for r in res] == ["pass", "fail"] and res[0]["value"] == uart["max"],
       "ISR 3 pass/fail")
rc, out, err = run("check", demo, "max-isr-ticks=10:9")
expect(rc == 2 and "ISR number 9 never ran" in err, f"unknown ISR: {rc} {err}")

# ------------------------------------------------------------------ max-latency
for rule, table in (("max-latency", stats["latency"]["interrupt_to_thread"]),):
    top = max(table, key=lambda t: t["max"])
    res, _ = check(demo, f"{rule}={top['max']}", f"{rule}={top['max'] - 1}", want_rc=1)
    expect([r["status"] for r in res] == ["pass", "fail"], f"{rule} pass/fail")
    expect(res[1]["value"] == top["max"] and res[1]["subject"] == "thread " + top["thread"],
           f"{rule}: {res[1]}")
    # the evidence is the event after which the thread has the CPU: the next event outside
    # interrupt context is the thread's own (or its RUNNING)
    ended = by_index[res[1]["event_index"]]
    after = next((by_index[k] for k in range(ended["index"] + 1, len(by_index))
                  if by_index[k]["context"] != "isr"), None)
    expect(ended["ticks"] == res[1]["ticks"] and after is not None
           and after["thread_name"] == top["thread"], f"{rule}: evidence event {ended}, then {after}")
    low = min((t for t in table if t["max"] > 0), key=lambda t: t["max"])  # a limit of max-1
    res, lines = check(demo, f"{rule}={low['max']}:{low['thread']}",
                       f"{rule}={low['max'] - 1}:{low['thread']}", want_rc=1)
    expect([r["status"] for r in res] == ["pass", "fail"] and res[1]["value"] == low["max"],
           f"{rule} for one thread")
    expect(f"thread \"{low['thread']}\" {low['max']} ticks" in lines[1], f"{rule} line {lines[1]}")
    rc, out, err = run("check", demo, f"{rule}=10:nosuchthread")
    expect(rc == 2 and "no thread named" in err, f"{rule} unknown thread: {rc}")

# ----------------------------------------------------------------- max-response
# instances (trx latency): the longest response of all threads, or of one
lat = json.loads(run("latency", "--json", "--worst", "1", demo)[1])
rows = [t for t in lat["threads"] if t["worst"]]
top = max(rows, key=lambda t: t["worst"][0]["response_ticks"])
w = top["worst"][0]
res, lines = check(demo, f"max-response={w['response_ticks']}",
                   f"max-response={w['response_ticks'] - 1}", want_rc=1)
expect([r["status"] for r in res] == ["pass", "fail"], f"max-response pass/fail: {res}")
expect(res[1]["value"] == w["response_ticks"] and res[1]["subject"] == "thread " + top["name"]
       and res[1]["event_index"] == w["release_index"] and res[1]["ticks"] == w["release_ticks"],
       f"max-response: {res[1]} vs {w}")
expect(f"instance #{w['number']}" in lines[1] and f"--instance {w['number']}" in lines[1],
       f"max-response names the instance and how to ask why: {lines[1]}")
# and its first cause: the story of trx why for that instance
story = json.loads(run("why", demo, "--thread", top["name"], "--instance", str(w["number"]),
                       "--json")[1])["story"]
expect(story and story in lines[1], f"max-response tells the first cause ({story!r}): {lines[1]}")
low = min(rows, key=lambda t: t["worst"][0]["response_ticks"])
lw = low["worst"][0]["response_ticks"]
res, lines = check(demo, f"max-response={low['name']}:{lw}", f"max-response={low['name']}:{lw - 1}",
                   f"max-response={lw}:{low['name']}", want_rc=1)
expect([r["status"] for r in res] == ["pass", "fail", "pass"] and res[1]["value"] == lw,
       f"max-response for one thread (THREAD:LIMIT and TICKS:THREAD): {res}")
# a limit in time needs the rate: 1 tick per us makes LIMITus = LIMIT ticks
res, _ = check(demo, f"max-response={low['name']}:{lw}us", f"max-response={low['name']}:{lw - 1}us",
               "--ticks-per-us", "1", want_rc=1)
expect([r["status"] for r in res] == ["pass", "fail"], f"max-response in us: {res}")
rc, out, err = run("check", demo, f"max-response={low['name']}:5ms")
expect(rc == 2 and "tick rate is unknown" in err, f"max-response in ms without a rate: {rc} {err}")
rc, out, err = run("check", demo, "max-response=nosuchthread:10")
expect(rc == 2 and "no thread named" in err, f"max-response unknown thread: {rc}")

# -------------------------------------------------------------- max-cpu-load
# the demo is never idle (its background thread always runs): 100% busy
res, lines = check(demo, "max-cpu-load=100", "max-cpu-load=99", want_rc=1)
expect([r["status"] for r in res] == ["pass", "fail"] and res[0]["value"] == 100.0, "demo load")
# c_prio_inversion_mutex_noinherit idles most of the time: in one window as
# long as the trace, the load is the share of the span not in "Idle"
idle_stats = json.loads(run("stats", "--json", inv5)[1])
span = idle_stats["max_relative_ticks"]
idle = [p["ticks"] for p in idle_stats["execution_profile"] if p["name"] == "Idle"][0]
for load_window in (None, span):
    args = ["stats", "--json", inv5] + (["--window", str(load_window)] if load_window else [])
    load = json.loads(run(*args)[1])["cpu_load"]
    load_peak = load["peak_percent"]
    if load_window == span:
        expect(len(load["windows"]) == 1, "one window")
        expect(abs(load_peak - 100.0 * (span - idle) / span) < 0.01, f"load {load_peak} vs profile")
    suffix = f":{load_window}" if load_window else ""
    ceil_limit = int(-(-load_peak // 1))
    res, lines = check(inv5, f"max-cpu-load={ceil_limit}{suffix}",
                       f"max-cpu-load={ceil_limit - 1}{suffix}", want_rc=1)
    expect([r["status"] for r in res] == ["pass", "fail"], f"load {load_window}: {res}")
    expect(abs(res[0]["value"] - load_peak) < 0.01,
           f"load {load_window}: {res[0]['value']} vs {load_peak}")
    expect(f"of {len(load['windows'])} windows of {load['window']} ticks" in res[0]["evidence"],
           f"load windows: {res[0]['evidence']}")

# ------------------------------------------------------------- bad rules
for rule, expected in [("max-isr-ticks=abc", "expected max-isr-ticks=N[:ISR]"),
                       ("max-isr-ticks", "expected max-isr-ticks=N[:ISR]"),
                       ("max-isr-rate=5", "expected max-isr-rate=N:TICKS"),
                       ("max-isr-rate=5:0", "expected max-isr-rate=N:TICKS"),
                       ("no-priority-inversion=bounded", "expected no-priority-inversion or"),
                       ("min-stack-free=-3", "expected min-stack-free=BYTES[:THREAD]"),
                       ("min-stack-free=10:", "expected min-stack-free=BYTES[:THREAD]"),
                       ("max-cpu-load=101", "expected max-cpu-load=PERCENT[:WINDOW]"),
                       ("no-lost-events=1", "expected no-lost-events"),
                       ("max-latency=1.5", "expected max-latency=TICKS[:THREAD]"),
                       ("frobnicate=3", "unknown rule")]:
    rc, out, err = run("check", demo, rule)
    expect(rc == 2 and out == "", f"bad rule {rule}: exit {rc}")
    expect(err.startswith(f"trx check: bad rule '{rule}': {expected}"), f"bad rule {rule}: {err}")
rc, out, err = run("check", demo)
expect(rc == 2 and "no rule given" in err, f"no rule: {rc} {err}")
rc, out, err = run("check", "--bogus", demo, "no-lost-events")
expect(rc == 2 and "unknown option" in err, f"bad option: {rc}")
rc, out, err = run("check", os.path.join(WORK, "missing.trx"), "no-lost-events")
expect(rc == 2 and out == "", f"missing file: {rc}")

# ------------------------------------------------------------ --rules FILE
rules_file = os.path.join(WORK, "rules.txt")
with open(rules_file, "w") as f:
    f.write("# CI gate for the demo\n\n"
            "no-lost-events   # nothing may be lost\n"
            f"  min-stack-free={m}\n"
            "no-priority-inversion=unbounded\n")
rc, out, err = run("check", "--rules", rules_file, demo, f"max-isr-rate={peak}:{window}")
lines = out.splitlines()
expect(rc == 1, f"--rules: exit {rc}")
expect([l.split()[0] for l in lines[:4]] == ["PASS", "PASS", "FAIL", "PASS"], f"--rules: {lines}")
expect(lines[-1] == "4 rules: 3 passed, 1 failed", "summary line: " + lines[-1])
with open(rules_file, "a") as f:
    f.write("max-isr-rate=3\n")
rc, out, err = run("check", "--rules", rules_file, demo)
expect(rc == 2 and err.startswith(f"trx check: {rules_file}: line 6: bad rule 'max-isr-rate=3': "
                                  "expected max-isr-rate=N:TICKS"), f"bad rules file: {err}")

# ------------------------------------------------------ --junit, -o OUT
junit = os.path.join(WORK, "report.xml")
outfile = os.path.join(WORK, "out.txt")
rules = ["no-lost-events", f"min-stack-free={m + 1}", f"max-isr-rate={peak}:{window}",
         "no-priority-inversion", "no-priority-inversion=unbounded"]
rc, out, err = run("check", "--junit", junit, "-o", outfile, demo, *rules)
expect(rc == 1 and out == "", f"--junit: exit {rc} {err}")
with open(outfile) as f:
    text = f.read().splitlines()
expect(len(text) == len(rules) + 1 and text[-1] == "5 rules: 2 passed, 3 failed", f"-o: {text}")
root = ET.parse(junit).getroot()
suites = root.findall("testsuite")
expect(root.tag == "testsuites" and len(suites) == 1, "one testsuite")
suite = suites[0]
expect(suite.get("tests") == "5" and suite.get("failures") == "3" and suite.get("errors") == "0",
       f"suite counts {suite.attrib}")
cases = suite.findall("testcase")
expect([c.get("name") for c in cases] == rules, "testcase names are the rules")
for c, line in zip(cases, text):
    failed = c.find("failure")
    expect((failed is not None) == line.startswith("FAIL"), f"{c.get('name')}: failure element")
    evidence = line.split(": ", 1)[1]
    expect(c.find("system-out").text == evidence, f"{c.get('name')}: evidence in system-out")
    if failed is not None:
        expect(failed.get("message") == evidence, f"{c.get('name')}: failure message")
# an unavailable metric is a JUnit error, and names with XML characters are escaped
rc, out, err = run("check", "--junit", junit, demo, "max-latency=5:<a&b>", "no-lost-events")
suite = ET.parse(junit).getroot().find("testsuite")
expect(rc == 2 and suite.get("errors") == "1", f"junit error: {rc} {suite.attrib}")
expect(suite.findall("testcase")[0].get("name") == "max-latency=5:<a&b>", "escaped name")
expect(suite.findall("testcase")[0].find("error") is not None, "error element")

# a FreeRTOS trace's inversion evidence names the priorities as the
# application wrote them (higher = more urgent), as `trx stats --json` does
fr = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "latency",
                  "freertos_preemptive.trx")
rc, out, err = run("stats", "--json", fr)
first_inv = json.loads(out)["inversions"][0]
res, lines = check(fr, "no-priority-inversion", want_rc=1)
want = (f'first: "high" (priority {first_inv["waiter_priority"]}) blocked on mutex "app mutex" '
        f'held by "low" (priority {first_inv["holder_priority"]})')
expect(first_inv["waiter_priority"] > first_inv["holder_priority"] and want in lines[0],
       f"FreeRTOS inversion evidence in the application's priorities: {lines[0]} / {want}")

if failures:
    print(f"{len(failures)} failures")
    sys.exit(1)
print("check_rules: all passed")
