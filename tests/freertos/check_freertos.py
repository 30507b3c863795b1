#!/usr/bin/env python3
"""check_freertos.py TRX TRACE COUNTS TRXC - checks a trace of the FreeRTOS example
(examples/freertos) against the application's own counters:
  - the buffer wrapped; after the MARK user event (4300) the queue sends and
    receives, semaphore gives and takes, mutex takes and gives on the
    application's objects (found by their registry names) equal the counters;
  - tasks, queue, semaphore, mutex and timer are registered under their names;
  - every internal SUSPEND names as next thread the task that runs next;
  - high's mutex take names low as the holder (the inversion), and with
    --reference (deterministic QEMU run) trx's statistics count it
    and the software timer's expirations (user event 4202, named by TRXC,
    the integration's trx_freertos.trxc);
  - with --no-counts (a preemptive run) the events only have to be there;
  - no time slice (the examples do not slice), yields recorded as yields;
  - with --reference (a platform whose MARK and STOP events carry an
    independent timer on the trace's clock): time stamps increase strictly
    and the MARK-STOP span agrees with that timer within 1%.
"""
import json
import os
import re
import subprocess
import sys

trx, trace, counts_path, trxc = sys.argv[1:5]
reference = "--reference" in sys.argv[5:]
exact_counts = "--no-counts" not in sys.argv[5:]
counts = dict((k, int(v)) for k, v in (l.split() for l in open(counts_path)))
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL: " + what)


def run(*args):
    return subprocess.run([trx] + list(args), check=True, capture_output=True, text=True).stdout


info = json.loads(run("info", "--json", trace))
check(info["wrapped"] and counts["buffer_wraps"] >= 1, "the buffer did not wrap")
objects = {}
for line in run("dump", trace).splitlines():
    m = re.match(r"^  ([0-9A-F]{8})   (THREAD|QUEUE|SEMAPHORE|MUTEX|TIMER)\s+(.+?)\s+[0-9A-F]{2}\s+", line)
    if m:
        objects[m.group(3)] = (m.group(2), int(m.group(1), 16))
for name, kind in (("high", "THREAD"), ("mid", "THREAD"), ("low", "THREAD"),
                   ("consumer", "THREAD"), ("control", "THREAD"), ("IDLE", "THREAD"),
                   ("Tmr Svc", "THREAD"), ("app queue", "QUEUE"), ("app semaphore", "SEMAPHORE"),
                   ("app mutex", "MUTEX"), ("tick2", "TIMER")):
    check(objects.get(name, ("", 0))[0] == kind, "%s %r not registered" % (kind, name))

events = [json.loads(l) for l in run("events", "--format", "jsonl", trace).splitlines()]
marks = [i for i, e in enumerate(events) if e["id"] == 4300]
check(len(marks) == 1, "MARK event missing (found %d)" % len(marks))
after = events[marks[0] + 1:] if marks else []


def count(event_id, obj):
    address = objects.get(obj, ("", -1))[1]
    return sum(1 for e in after if e["id"] == event_id and e["info"][0] == address)


for event_id, obj, key in ((69, "app queue", "queue_sends"), (68, "app queue", "queue_receives"),
                           (88, "app semaphore", "semaphore_gives"),
                           (83, "app semaphore", "semaphore_takes"),
                           (52, "app mutex", "mutex_takes"), (57, "app mutex", "mutex_gives")):
    n = count(event_id, obj)
    if not exact_counts:  # preemptive run: only that the events are there
        check(n > 0, "%s: no events after MARK" % key)
        continue
    check(n == counts[key] and n > 0, "%s: %d events after MARK, the application counted %d" %
          (key, n, counts[key]))

real = [e for e in events if not e["synthetic"]]
# FreeRTOS's IDLE task is idle time (header reserved4 names it): its events
# and the switches to it are idle in the default mode.
idle = objects.get("IDLE", ("", -1))[1]
check(info.get("freertos_idle_task") == idle, "idle task not marked: %s, IDLE is at 0x%x" %
      (info.get("freertos_idle_task"), idle))
suspends = 0
for i, a in enumerate(real):
    if a["id"] == 2 and a["context"] == "thread":
        # the next event not in an interrupt (interrupts may come between)
        b = next((e for e in real[i + 1:] if e["context"] != "isr"), None)
        if b is None:
            continue
        suspends += 1
        if a["info"][3] == idle:
            check(b["context"] == "idle", "SUSPEND at %d names IDLE next, next event is %s's" %
                  (a["index"], b["context"]))
            continue
        check(b["thread"] == a["info"][3],
              "SUSPEND at %d names next 0x%x, next event runs in 0x%x" %
              (a["index"], a["info"][3], b["thread"] or 0))
check(suspends > 0, "no internal SUSPEND events")
# The inversion itself: high's take of the mutex names low as the holder.
mutex, low, high = (objects.get(n, ("", -1))[1] for n in ("app mutex", "low", "high"))
blocked = [e for e in real if e["id"] == 52 and e["info"][0] == mutex and e["thread"] == high
           and e["info"][2] == low]
check(len(blocked) > 0, "no mutex GET by high with low as the holder")
stats = json.loads(run("stats", "--json", trace))
perf = stats["performance"]
# One idle row: the default profile has no IDLE row, and its "Idle" is
# TraceX's IDLE row plus its "Idle System" (--compat tracex shows the task).
tracex_stats = json.loads(run("stats", "--json", "--compat", "tracex", trace))
rows = {r["name"]: r["ticks"] for r in stats["execution_profile"]}
tracex_rows = {r["name"]: r["ticks"] for r in tracex_stats["execution_profile"]}
check("IDLE" not in rows and "IDLE" in tracex_rows, "IDLE has a profile row in the default mode")
check(rows["Idle"] > 0, "no idle time (the example idles every round)")
# Both profiles cover the same span. Where no RUNNING guess was overruled
# (the correct mode names the thread the next event shows ran: docs/analyses.md,
# "Contradicted RUNNING events"), the idle time is exactly TraceX's two rows.
check(sum(rows.values()) == sum(tracex_rows.values()),
      "profiles sum to %d and %d ticks" % (sum(rows.values()), sum(tracex_rows.values())))
tracex_events = [json.loads(l) for l in run("events", "--format", "jsonl", "--compat", "tracex",
                                            trace).splitlines()]
def ran(e):  # the thread a RUNNING names, the idle task as "idle" in both modes
    return "idle" if e["context"] == "idle" or e.get("thread") == idle else e.get("thread")


overruled = sum(1 for a, b in zip(events, tracex_events) if a["synthetic"] and ran(a) != ran(b))
if overruled == 0:
    check(rows["Idle"] == tracex_rows["IDLE"] + tracex_rows["Idle System"],
          "idle %d, TraceX's IDLE %d + idle %d" % (rows["Idle"], tracex_rows["IDLE"],
                                                  tracex_rows["Idle System"]))
check(min(stats["cpu_load"]["windows"]) < 100.0, "CPU load 100% in every window: IDLE counted as busy")
if reference:
    # deterministic run (QEMU -icount): TraceX's analysis must count it. On
    # the host it may not: TraceX compares with the holder's last recorded
    # priority, which after an earlier inheritance can still be the boosted one.
    check(perf["priority_inversions"]["total"] > 0, "no priority inversion found")
# Priorities as the application wrote them (xTaskCreate in app/trace_app.c,
# tskIDLE_PRIORITY, configTIMER_TASK_PRIORITY 5): the trace is marked as
# FreeRTOS's, and trx shows them so; "low" is raised to 4 by inheritance
# while it holds the mutex "high" waits for. --compat tracex keeps the
# recorded (TraceX) order: configMAX_PRIORITIES - 1 - p.
want = {"high": (4, 4), "mid": (3, 3), "low": (2, 4), "consumer": (3, 3), "control": (1, 1),
        "IDLE": (0, 0), "Tmr Svc": (5, 5)}
check(info.get("rtos") == "freertos" and info.get("freertos_max_priorities") == 8,
      "trace not marked as FreeRTOS's: %s %s" % (info.get("rtos"), info.get("freertos_max_priorities")))
for mode, conv in (([], lambda p: p), (["--compat", "tracex"], lambda p: 7 - p)):
    threads = json.loads(run("stats", "--json", *mode, trace))["threads"]
    got = {t["name"]: (t["priority_lowest"], t["priority_highest"]) for t in threads}
    for name, (low_p, high_p) in want.items():
        # lowest = least urgent: the smallest FreeRTOS number, the largest recorded one
        w = (conv(low_p), conv(high_p))
        check(got.get(name) == w, "%s %s: priorities %s, want %s" % (" ".join(mode) or "default",
                                                                  name, got.get(name), w))
# FreeRTOS's names (recorder/integrations/freertos/trx_freertos_events.csv) in
# every output of the default mode, never ThreadX's "TX ..."; TraceX's view
# (--compat tracex) keeps them.
import tempfile
with tempfile.TemporaryDirectory() as work:
    outputs = {"events": run("events", "--format", "jsonl", trace).encode(),
               "events text": run("events", trace).encode(), "stats": run("stats", trace).encode(),
               "stats --json": run("stats", "--json", trace).encode()}
    page = os.path.join(work, "r.html")
    run("report", trace, "-o", page)
    outputs["report"] = open(page, "rb").read()
    for to in ("chrome-json", "csv", "perfetto"):
        out = os.path.join(work, "x." + to)
        run("export", trace, "--to", to, "-o", out)
        outputs["export " + to] = open(out, "rb").read()
    run("export", trace, "--to", "ctf", "-o", os.path.join(work, "ctf"))
    outputs["export ctf"] = open(os.path.join(work, "ctf", "metadata"), "rb").read()
    for what, data in outputs.items():
        check(b"TX " not in data, "%s: a ThreadX event name (%s)" % (
            what, data[data.find(b"TX "):data.find(b"TX ") + 24] if b"TX " in data else b""))
    check(b"xSemaphoreTake" in outputs["events"] and b"vTaskDelay" in outputs["events"],
          "events: no FreeRTOS API names")
    check(b'"rtos":"freertos"' in outputs["report"], "report: not marked FreeRTOS")
    check(re.search(rb'"IDLE","kind":"thread","address":%d,"used":false' % idle, outputs["report"]),
          "report: IDLE has a lane of its own (its time is the Idle lane's)")
    check(b"TX QUEUE SEND" in run("events", "--compat", "tracex", trace).encode(),
          "--compat tracex lost TraceX's names")
    # The FreeRTOS mark (header reserved3) changes nothing in TraceX's view:
    # the same trace with ThreadX's 0xBBBBBBBB there gives the same
    # --compat tracex statistics and the same events.
    image = bytearray(open(trace, "rb").read())
    big = image[:4] == b"TXTB"
    image[40:44] = (0xBBBBBBBB).to_bytes(4, "big" if big else "little")
    image[44:48] = (0xCCCCCCCC).to_bytes(4, "big" if big else "little")
    plain = os.path.join(work, "plain.trx")
    open(plain, "wb").write(image)
    check(json.loads(run("info", "--json", plain))["rtos"] == "threadx", "the unmarked copy is FreeRTOS's")
    for args in (["stats", "--json", "--compat", "tracex"], ["events", "--compat", "tracex"]):
        a, b = run(*args, trace), run(*args, plain)
        check(a.replace(trace, "T") == b.replace(plain, "T"),
              "%s differs with the FreeRTOS mark" % " ".join(args))
# Both example configurations set configUSE_TIME_SLICING 0: the kernel never
# slices, so a switch between ready tasks is a yield (RELINQUISH, 109), never
# a time slice (5).
check(perf["time_slices"] == 0 and not any(e["id"] == 5 for e in real),
      "time slices %d in a kernel that does not slice" % perf["time_slices"])
check(any(e["id"] == 109 for e in real), "no yield (RELINQUISH) recorded")
check(any(e["id"] == 4202 for e in after), "no timer expiration after MARK")
named = run("events", "--format", "jsonl", "--custom", trxc, trace)
check('"name":"Timer Expired"' in named, "trx_freertos.trxc does not name event 4202")
# The .trxc TraceX users load is generated from trx_freertos_events.csv (one
# description feeds both): `trx describe --to trxc` gives it byte for byte.
folder = os.path.dirname(os.path.abspath(trxc))
made = subprocess.run([os.path.abspath(trx), "describe", "--to", "trxc", "trx_freertos_events.csv"],
                      cwd=folder, check=True, capture_output=True).stdout
check(made == open(trxc, "rb").read(),
      "trx_freertos.trxc is not what `trx describe --to trxc trx_freertos_events.csv` makes")
if reference:
    stamps = [e["timestamp"] for e in real]
    check(all(0 < (b - a) & 0xFFFFFFFF < 0x80000000 for a, b in zip(stamps, stamps[1:])),
          "time stamps do not increase strictly")
    stop = [e for e in after if e["id"] == 4301]
    check(len(stop) == 1, "STOP event missing")
    if marks and stop:
        mark = events[marks[0]]
        span = stop[0]["ticks"] - mark["ticks"]
        ref = (stop[0]["info"][0] - mark["info"][0]) & 0xFFFFFFFF
        check(ref > 0 and abs(span / ref - 1) <= 0.01,
              "MARK-STOP span %d ticks, reference timer %d" % (span, ref))
        print("span MARK-STOP: %d ticks, reference timer %d (ratio %.5f)" %
              (span, ref, span / ref if ref else 0))
print("freertos: %d events, %d after MARK; counts %s; %d suspends with the right next task; "
      "%d priority inversions" % (len(real), len(after), counts, suspends,
                                  perf["priority_inversions"]["total"]))
sys.exit(1 if failures else 0)
