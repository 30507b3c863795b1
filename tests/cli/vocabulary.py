#!/usr/bin/env python3
"""vocabulary.py - one vocabulary per trace, everywhere (issue 30, item 2).

Walks every command and export (info text/json, events text/csv/jsonl, stats
text/json, report, export perfetto/chrome-json/ctf/csv, check, diff; dump
where TraceX's format applies) on a ThreadX trace (the corpus's demo), a
FreeRTOS trace (the FreeRTOS POSIX example, run here) and a SYS/BIOS capture
(sysbios_shaped with TI's metadata) and asserts:
  - no other RTOS's words: ThreadX's ("TX " event names, "ThreadX", "threadx",
    "tx_trace", "preemption_threshold" / "Preemption") in FreeRTOS and
    SYS/BIOS output, FreeRTOS's ("FreeRTOS", "freertos", "xTask", "xQueue",
    "xSemaphore", "vTask") in ThreadX and SYS/BIOS output, "FileX" / "NetX" /
    "USBX" where the trace has none of their events;
  - the idle row is named "Idle" in every output (TraceX's "Idle System" only
    in TraceX's own dump) and the RTOS's idle task has no row of its own;
  - every priority in every output is the source's: FreeRTOS's as
    xTaskCreate gave them (examples/freertos/app/trace_app.c), ThreadX's as
    TraceX's own dump of the trace shows them, SYS/BIOS's as the simulation's
    truth; per event, every export shows the priority JSON Lines shows;
  - a field declared i32 is the same signed number in JSON Lines, Chrome
    JSON, CSV, Perfetto and CTF.
The TraceX dump (`trx dump`) of a FreeRTOS trace is TraceX's format, byte
for byte, and keeps TraceX's words and recorded priorities: not walked.

usage: vocabulary.py TRX SHARED_DIR FREERTOS_EXAMPLE SYSBIOS_SHAPED WORKDIR"""
import json
import os
import re
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from test_check import expect, finish  # noqa: E402

TRX, SHARED, FREERTOS, SYSBIOS, WORK = sys.argv[1:6]
PROTO = os.path.join(SHARED, "perfetto")

for tool in ("protoc", "babeltrace2"):
    if not shutil.which(tool):
        if os.environ.get("TRX_ALLOW_MISSING_TOOLS") == "1":
            print("SKIP: %s missing" % tool)
            sys.exit(77)
        sys.exit("FAIL: %s is missing (tools/check_test_deps.sh installs it)" % tool)


def run(*args, ok=(0,), stdin=None):
    r = subprocess.run(list(args), capture_output=True, stdin=stdin)
    if r.returncode not in ok:
        sys.exit("FAIL: %s exited %d: %s" % (" ".join(args), r.returncode,
                                              r.stderr.decode(errors="replace")[:400]))
    return r.stdout.decode("utf-8", errors="replace") + r.stderr.decode("utf-8", errors="replace")


THREADX_WORDS = [re.compile(r"\bTX [A-Z]"), re.compile("ThreadX"), re.compile("threadx"),
                 re.compile("tx_trace"), re.compile("preemption_threshold"),
                 re.compile("Preemption")]
FREERTOS_WORDS = [re.compile(w) for w in ("FreeRTOS", "freertos", "xTask", "xQueue",
                                          "xSemaphore", "vTask")]
MIDDLEWARE = [re.compile(w, re.I) for w in ("FileX", "NetX", "USBX")]
# a ThreadX trace may show FileX / NetX statistics (zeros: its middleware's
# tables); without their events, no event, category or name of theirs
MIDDLEWARE_EVENTS = [re.compile(w) for w in (r"\bFX [A-Z]", r"\bNX [A-Z]", r"\bUX [A-Z]",
                                             r'"(filex|netx|usbx)"(?!\s*:)', r",(filex|netx|usbx),",
                                             r'"cat":"(filex|netx|usbx)"')]


def outputs(name, trace, meta, thread_rule):
    """Every command's and export's output of `trace`: {label: text}, plus the
    parsed forms the priority checks read."""
    base = ["--uia-meta", meta] if meta else []
    d = os.path.join(WORK, name)
    os.makedirs(d, exist_ok=True)
    out = {}
    out["info"] = run(TRX, "info", *base, trace)
    out["info --json"] = run(TRX, "info", "--json", *base, trace)
    out["events"] = run(TRX, "events", *base, trace)
    out["events csv"] = run(TRX, "events", "--format", "csv", *base, trace)
    out["events jsonl"] = run(TRX, "events", "--format", "jsonl", *base, trace)
    out["stats"] = run(TRX, "stats", "--all", *base, trace)
    out["stats --json"] = run(TRX, "stats", "--json", *base, trace)
    html = os.path.join(d, "report.html")
    run(TRX, "report", *base, trace, "-o", html)
    page = open(html, encoding="utf-8").read()
    # the report's data (the page's code is the same for every trace)
    out["report"] = "\n".join(m.group(1) for m in re.finditer(
        r'<script id="trx-(?:meta|types)"[^>]*>(.*?)</script>', page, re.S))
    pf = os.path.join(d, "trace.pftrace")
    run(TRX, "export", "--to", "perfetto", *base, trace, "-o", pf)
    with open(pf, "rb") as f:
        out["perfetto"] = run("protoc", "--proto_path=" + PROTO, "--decode=perfetto.protos.Trace",
                              "perfetto_trace.proto", stdin=f)
    out["chrome-json"] = run(TRX, "export", "--to", "chrome-json", *base, trace)
    out["export csv"] = run(TRX, "export", "--to", "csv", *base, trace)
    ctf = os.path.join(d, "ctf")
    shutil.rmtree(ctf, ignore_errors=True)
    run(TRX, "export", "--to", "ctf", *base, trace, "-o", ctf)
    out["ctf"] = run("babeltrace2", ctf) + open(os.path.join(ctf, "metadata")).read()
    out["check"] = run(TRX, "check", *base, trace, thread_rule, "max-cpu-load=100",
                       "registry-not-full", ok=(0, 1))
    out["diff"] = run(TRX, "diff", *base, trace, trace)
    return out


def words(name, out, foreign, idle_task=None):
    for label, text in out.items():
        for w in foreign:
            m = w.search(text)
            expect(not m, "%s %s: foreign word %r in ...%s..." % (
                name, label, m and m.group(0), m and text[max(0, m.start() - 60):m.end() + 30]))
        expect("Idle System" not in text, "%s %s: TraceX's \"Idle System\" (not \"Idle\")" % (name, label))
    stats = json.loads(out["stats --json"])
    idle_rows = [r for r in stats["execution_profile"] if r["address"] == 0]
    expect([r["name"] for r in idle_rows] == ["Idle"], "%s: idle rows %s" % (name, idle_rows))
    if idle_task:
        names = [r["name"] for r in stats["execution_profile"]]
        expect(idle_task not in names, "%s: the idle task %s has a profile row" % (name, idle_task))
        rows = [t for t in stats["threads"] if t["name"] == idle_task]
        expect(len(rows) == 1 and rows[0].get("idle") is True,
               "%s: the idle task's thread entry is not flagged idle: %s" % (name, rows))
        for label in ("stats",):
            table = out[label].split("Threads across cores", 1)
            expect(len(table) == 2 and not re.search(r"^\s+%s\s" % re.escape(idle_task), table[1], re.M),
                   "%s %s: the idle task has a row in 'Threads across cores'" % (name, label))
        lanes = json.loads(re.search(r'<script id="trx-meta"[^>]*>(.*?)</script>',
                                     open(os.path.join(WORK, name, "report.html")).read(), re.S).group(1))["lanes"]
        shown = [l["name"] for l in lanes if l["kind"] == "idle" or (l["kind"] == "thread" and l["used"])]
        expect(shown.count("Idle") == 1 and idle_task not in shown, "%s report lanes: %s" % (name, shown))
        chrome = json.loads(out["chrome-json"])["traceEvents"]
        tracks = [e["args"]["name"] for e in chrome if e.get("name") == "thread_name"]
        expect(tracks.count("Idle") == 1 and idle_task not in tracks, "%s chrome tracks: %s" % (name, tracks))


def per_event_priorities(name, out, threads):
    """Every export shows, per event, the priority JSON Lines shows (None
    outside thread contexts) and that priority is the source's: `threads`
    maps a thread name to the set of priorities it may have."""
    events = [json.loads(l) for l in out["events jsonl"].splitlines()]
    want = {e["index"]: e["priority"] for e in events}
    bad = [e for e in events if e["priority"] is not None and e["thread_name"] in threads
           and e["priority"] not in threads[e["thread_name"]]]
    expect(not bad, "%s events: priorities not the source's: %s" % (name, bad[:3]))
    expect(any(e["priority"] is not None for e in events), "%s: no event has a priority" % name)
    # events text: the Prio column
    got = {}
    for line in out["events"].splitlines()[1:]:
        f = line.split()
        if len(f) > 6 and f[0].isdigit():
            m = re.match(r"\s*(\d+)\s+\d+\s+\S+\s+\d+\s+\d+\s+.{27}.{21}\s*(\S+)\s", line)
            if m:
                got[int(m.group(1))] = None if m.group(2) == "-" else int(m.group(2))
    expect(got == want, "%s events text: priorities differ from JSON Lines (%d of %d)" % (
        name, sum(got.get(k) != v for k, v in want.items()), len(want)))
    for label in ("events csv", "export csv"):
        rows = out[label].splitlines()
        head = rows[0].split(",")
        pi, ii = head.index("priority"), head.index("index")
        got = {}
        for r in rows[1:]:
            f = r.split(",")
            got[int(f[ii])] = int(f[pi]) if f[pi].strip() else None
        expect(got == want, "%s %s: priorities differ from JSON Lines" % (name, label))
    got = {}
    for e in json.loads(out["chrome-json"])["traceEvents"]:
        if e.get("ph") == "i" and "index" in e.get("args", {}):
            got[e["args"]["index"]] = e["args"].get("priority")
    expect(all(got.get(k) == v for k, v in want.items() if k in got) and len(got) >= len(want) // 2,
           "%s chrome-json: priorities differ from JSON Lines" % name)
    got = {}
    for line in out["ctf"].splitlines():
        m = re.search(r"index = (\d+), context = \d+, priority = (-?\d+)", line)
        if m:
            got[int(m.group(1))] = None if m.group(2) == "-1" else int(m.group(2))
    expect(got and all(want.get(k) == v for k, v in got.items()),
           "%s ctf: priorities differ from JSON Lines: %s" % (
               name, [(k, v, want.get(k)) for k, v in got.items() if want.get(k) != v][:5]))
    # Perfetto: the "priority" annotation of each instant, by its index annotation
    text = out["perfetto"]
    iid = re.search(r'event_names \{\s*iid: \d+\s*name: "[^"]*"', text)  # noqa: F841
    ann = {}
    for m in re.finditer(r"debug_annotation_names \{\s*iid: (\d+)\s*name: \"([^\"]*)\"", text):
        ann[m.group(2)] = int(m.group(1))
    got = {}
    for block in re.split(r"\n  track_event \{", text)[1:]:
        vals = {int(a): int(v) for a, v in re.findall(
            r"debug_annotations \{\s*name_iid: (\d+)\s*(?:uint|int)_value: (-?\d+)", block)}
        if ann.get("index") in vals:
            got[vals[ann["index"]]] = vals.get(ann.get("priority"))
    expect(got and all(want.get(k) == v for k, v in got.items()),
           "%s perfetto: priorities differ from JSON Lines: %s" % (
               name, [(k, v, want.get(k)) for k, v in got.items() if want.get(k) != v][:5]))


def thread_priorities(name, out, threads):
    stats = json.loads(out["stats --json"])
    for t in stats["threads"]:
        if t["name"] in threads and t["priority_highest"] is not None:
            got = {t["priority_lowest"], t["priority_highest"]}
            expect(got <= threads[t["name"]], "%s stats: %s priorities %s, source %s" % (
                name, t["name"], sorted(got), sorted(threads[t["name"]])))


def signed_fields(name, out):
    """Every i32 field (the catalogue's types, as CTF's metadata declares
    them) shows the same signed value in JSON Lines, Chrome JSON and CTF."""
    meta = out["ctf"]
    signed = {}  # event name -> i32 field names
    for m in re.finditer(r'name = "([^"]*)";\s*id = \d+;[^}]*?fields := struct \{(.*?)\};', meta, re.S):
        fs = re.findall(r"int32_t (\w+);", m.group(2))
        fs = [f for f in fs if f != "priority"]
        if fs:
            signed[m.group(1)] = fs
    negatives = 0
    for line in out["ctf"].splitlines():
        m = re.match(r"\[[^]]*\] \([^)]*\) (.*?): \{[^}]*\}, \{ index = (\d+), (.*) \}$", line)
        if m and m.group(1) in signed:
            for f in signed[m.group(1)]:
                v = re.search(r"\b%s = (-?\d+)" % f, m.group(3))
                if v and int(v.group(1)) < 0:
                    negatives += 1
    events = {json.loads(l)["index"]: json.loads(l) for l in out["events jsonl"].splitlines()}
    ctf_neg = {}
    for line in out["ctf"].splitlines():
        m = re.match(r"\[[^]]*\] \([^)]*\) (.*?): \{[^}]*\}, \{ index = (\d+), (.*) \}$", line)
        if m and m.group(1) in signed:
            ctf_neg[int(m.group(2))] = [int(x) for x in re.findall(r"= (-\d+)", m.group(3))
                                        if not re.search(r"priority = %s\b" % x, m.group(3))]
    for idx, vals in ctf_neg.items():
        args = list(events[idx]["args"].values())
        for v in vals:
            expect(v in args, "%s event %d: CTF %d, JSON Lines args %s" % (name, idx, v, args))
    return negatives


# ------------------------------------------------------------ ThreadX: the corpus demo
demo = os.path.join(SHARED, "corpus", "demo_threadx.trx")
tx = outputs("threadx", demo, None, "max-response=100000000:thread 1")
tx["dump"] = run(TRX, "dump", demo)
words("threadx", {k: v for k, v in tx.items() if k != "dump"}, FREERTOS_WORDS + MIDDLEWARE_EVENTS)
for w in FREERTOS_WORDS:
    expect(not w.search(tx["dump"]), "threadx dump: foreign word %s" % w.pattern)
expect("threadx" in tx["export csv"] and '"cat":"threadx"' in tx["chrome-json"]
       and 'name: "threadx"' in tx["perfetto"], "threadx: the kernel's category is not threadx")
# the source: TraceX's own dump of the trace (corpus demo_threadx.txt), per event
src = {}
for line in open(os.path.join(SHARED, "corpus", "demo_threadx.txt"), errors="replace"):
    m = re.match(r"\s+(\d+)\s+\d{20}\s+.{27}\(\s*\d+\)\s+(.+?) \(([0-9A-F]{8})\)\s+(\d+) \(", line)
    if m:
        src.setdefault(m.group(2).strip(), set()).add(int(m.group(4)))
expect(len(src) >= 3, "threadx: TraceX's dump gave priorities of %d threads" % len(src))
per_event_priorities("threadx", tx, src)
thread_priorities("threadx", tx, src)

# ------------------------------------------------------------ FreeRTOS: the POSIX example
fr_dir = os.path.join(WORK, "freertos-run")
os.makedirs(fr_dir, exist_ok=True)
env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
subprocess.run([FREERTOS, "trace.trx", "counts.txt"], cwd=fr_dir, check=True, timeout=60,
               capture_output=True, env=env)
frt = os.path.join(fr_dir, "trace.trx")
fr = outputs("freertos", frt, None, "max-response=100000000:low")
words("freertos", fr, THREADX_WORDS + MIDDLEWARE, idle_task="IDLE")
expect("freertos" in fr["export csv"] and '"cat":"freertos"' in fr["chrome-json"]
       and 'name: "freertos"' in fr["perfetto"], "freertos: the kernel's category is not freertos")
# xTaskCreate's priorities (trace_app.c); low inherits high's 4 through the mutex
source = {"high": {4}, "mid": {3}, "low": {2, 4}, "consumer": {3}, "control": {1},
          "IDLE": {0}, "Tmr Svc": {5}}
per_event_priorities("freertos", fr, source)
thread_priorities("freertos", fr, source)
st = {t["name"]: t for t in json.loads(fr["stats --json"])["threads"]}
for n, p in source.items():
    expect(n in st and st[n]["priority_lowest"] == min(p),
           "freertos: %s's lowest priority %s, xTaskCreate %d" % (n, st.get(n, {}).get("priority_lowest"), min(p)))
    expect(n in st and "preemption_threshold_lowest" not in st[n], "freertos: %s has a preemption threshold" % n)
expect("trx_freertos_enable" not in fr["check"] or "tx_trace_enable" not in fr["check"],
       "freertos check: the registry advice names ThreadX's API")
negatives = signed_fields("freertos", fr) + signed_fields("threadx", tx)

# ------------------------------------------------------------ SYS/BIOS: sysbios_shaped
sb_dir = os.path.join(WORK, "sysbios-run")
os.makedirs(sb_dir, exist_ok=True)
subprocess.run([SYSBIOS, sb_dir], check=True, capture_output=True, timeout=60)
sbt = os.path.join(sb_dir, "one_core.uia")
# (no Idle task named: the load rule is unavailable, skipped, and said so)
sb = outputs("sysbios", sbt, sbt + ".xml", "--skip-unavailable")
sb["dump"] = run(TRX, "dump", "--uia-meta", sbt + ".xml", sbt)
# SYS/BIOS's interrupts are Hwis: no "ISR 15" row or "ISR durations" heading
words("sysbios", sb, THREADX_WORDS + FREERTOS_WORDS + MIDDLEWARE + [re.compile(r"\bISR (\d|durations|number)")])
truth = json.load(open(os.path.join(sb_dir, "one_core.truth.json")))
sb_src = {}
for c in truth["cores"]:
    for t in c["tasks"]:
        k = (t["handle"] >> 8) & 0xF  # task k: priority 1 + k (task 1 also 7: check_sysbios.py)
        sb_src["Task 0x%08x" % t["handle"]] = {1 + k, 7} if k == 1 else {1 + k}
thread_priorities("sysbios", sb, sb_src)
sts = {t["name"]: t for t in json.loads(sb["stats --json"])["threads"]}
expect(all(n in sts and sts[n]["priority_highest"] == min(p) for n, p in sb_src.items()),
       "sysbios: task priorities %s, truth %s" % (
           {n: (t["priority_highest"], t["priority_lowest"]) for n, t in sts.items()}, sb_src))
print("i32 fields with negative values compared: %d" % negatives)
finish("vocabulary")
