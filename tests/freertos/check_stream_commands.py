#!/usr/bin/env python3
"""check_stream_commands.py TRX CAPTURE COUNTS WORKDIR [--rtos freertos|threadx|none]
[--task NAME=PRIORITY]... - a streamed capture through every trx command.

A capture that trx's recorder streamed for an RTOS (a TXTB drain: the
FreeRTOS example, a ThreadX kernel) must read as a trace of that RTOS in
every command: `info` (its RTOS, lost = the target's drop counter from
COUNTS, "dropped N"), `events` (text, CSV, JSON Lines: the RTOS's event
names, each gap's lost_before), `stats` (text, JSON: the tasks with the
priorities the application gave them, lost_events), `report` (a lane per
task), `serve` (its meta, the same lanes and statistics), `export` to
Perfetto, Chrome JSON, CSV and CTF, `check`, `diff` and `convert --to txtb`
(the same trace back, with its profile and no registry warning). No output
may carry the other RTOS's words: ThreadX's event names ("TX ...") in a
FreeRTOS capture. --rtos none: a stream of plain UIA records (bare metal)
through the same commands, which must all succeed and agree on the lost
count."""
import argparse, json, os, re, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "uia"))
sys.path.insert(0, os.path.join(HERE, "..", "serve"))
from test_support import check, finish  # noqa: E402
from served import Served  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("trx")
ap.add_argument("capture")
ap.add_argument("counts")
ap.add_argument("work")
ap.add_argument("--rtos", default="freertos", choices=("freertos", "threadx", "none"))
ap.add_argument("--task", action="append", default=[], help="NAME=PRIORITY as the code set it")
ap.add_argument("--live-meta", help="/api/meta of `trx capture --serve` while it recorded")
a = ap.parse_args()
TRX, CAP, WORK = a.trx, a.capture, a.work
os.makedirs(WORK, exist_ok=True)
counts = dict((k, int(v)) for k, v in (l.split() for l in open(a.counts) if len(l.split()) == 2))
tasks = dict((n, int(p)) for n, p in (t.rsplit("=", 1) for t in a.task))
# words that must not appear in the output of a trace of another RTOS
FOREIGN = {"freertos": [r"\bTX [A-Z]", r"ThreadX", r"tx_trace", r"preemption.threshold",
                        r"FileX", r"NetX", r"USBX", r"Idle System"],
           "threadx": [r"FreeRTOS", r"xTask", r"xQueue", r"vTask"],
           "none": []}[a.rtos]
outputs = {}


def run(*args, ok=(0,), text=True):
    r = subprocess.run([TRX, *args], capture_output=True, text=text)
    check(r.returncode in ok, "trx %s: exit %d %s" % (" ".join(args), r.returncode,
                                                       (r.stderr or "")[:300].strip()))
    return r


def keep(name, text):
    outputs[name] = text
    return text


# info
info = json.loads(keep("info --json", run("info", "--json", CAP).stdout))
keep("info", run("info", CAP).stdout)
lost = counts.get("dropped")
if a.rtos == "none":
    check(info.get("lost_events") == lost, "info: lost %s = dropped %s" % (info.get("lost_events"), lost))
else:
    check(info.get("format") == "txtb" and info.get("rtos") == a.rtos,
          "info: read as a %s trace (format %s, rtos %s)" % (a.rtos, info.get("format"),
                                                             info.get("rtos")))
    check(info.get("lost_events") == lost and info.get("stream", {}).get("lost_events") == lost,
          "info: lost %s = the target's drop counter %s" % (info.get("lost_events"), lost))
    if "recorded" in counts:
        rec = info["stream"]["records"]  # the entries and the registry snapshots' records
        check(rec + lost == counts["recorded"] and info["entries_used"] < rec,
              "info: received %d + lost %d = recorded %d (%d entries)" %
              (rec, lost, counts["recorded"], info["entries_used"]))
    full = info["registry_used"] >= info["registry_entries"]  # the target's own registry
    warnings = [l for l in outputs["info"].splitlines() if "Warning" in l]
    check(warnings == ([] if not full else warnings[:1]) and
          all("registry is full" in w for w in warnings),
          "info: no warning but a full registry's (%d of %d used): %s" %
          (info["registry_used"], info["registry_entries"], warnings))

# stats
stats = json.loads(keep("stats --json", run("stats", "--json", CAP).stdout))
keep("stats", run("stats", CAP).stdout)
if a.rtos != "none":
    check(stats.get("lost_events") == lost, "stats: lost_events %s = %s" %
          (stats.get("lost_events"), lost))
    by_name = {t["name"]: t for t in stats["threads"]}
    for name, prio in tasks.items():
        t = by_name.get(name)
        check(t is not None and t["priority_lowest"] == prio and t["priority_highest"] == prio,
              "stats: task %s at priority %s (found %s)" % (name, prio, t and
                                                            (t["priority_lowest"],
                                                             t["priority_highest"])))
    check(re.search(r"^Lost: +%d events" % lost, outputs["stats"], re.M) is not None,
          "stats text: the lost events")

# events: the first and last of them in every form (a capture holds millions)
ev = run("events", "--format", "jsonl", CAP).stdout.splitlines()
keep("events jsonl (start, gaps, end)",
     "\n".join(ev[:20000] + [l for l in ev if '"lost_before":' in l and
                              '"lost_before":0' not in l][:200] + ev[-20000:]))
gap_lost = sum(json.loads(l).get("lost_before", 0) for l in ev)
if a.rtos != "none":
    check(gap_lost == lost, "events: lost_before sums to %d = %s" % (gap_lost, lost))
txt = run("events", CAP).stdout.splitlines()
keep("events text (start, end)", "\n".join(txt[:20000] + txt[-20000:]))
csv = run("events", "--format", "csv", CAP).stdout.splitlines()
keep("events csv (start, end)", "\n".join(csv[:20000] + csv[-20000:]))
del ev, txt, csv

# report: a lane per task
rep = os.path.join(WORK, "report.html")
run("report", CAP, "-o", rep)
html = open(rep, encoding="utf-8").read()
keep("report (names)", "\n".join(sorted(set(re.findall(r'"name":"([^"]*)"', html)))))
for name in tasks:
    check('"name":"%s"' % name in html, "report: a lane for task %s" % name)
del html

# serve: meta and statistics as trx stats says
s = Served(TRX, CAP)
try:
    meta = s.get("api/meta")
    keep("serve meta", json.dumps(meta))
    s.wait_done(300)
    served = s.get("api/stats")
    keep("serve stats", json.dumps(served))
    lane_names = json.dumps(meta)
    for name in tasks:
        check(name in lane_names, "serve: a lane for task %s" % name)
finally:
    s.stop()

# served live while the capture grew (trx capture --serve): the same RTOS and tasks
if a.live_meta:
    live = json.load(open(a.live_meta))
    keep("live serve meta", json.dumps(live))
    check(live.get("rtos") == a.rtos, "live serve: a %s trace (%s)" % (a.rtos, live.get("rtos")))
    lanes = [l["name"] for l in live.get("lanes", []) if l.get("kind") == "thread"]
    for name in tasks:
        check(name in lanes, "live serve: a lane for task %s (%s)" % (name, lanes))

# exports
for fmt in ("perfetto", "chrome-json", "csv", "ctf"):
    out = os.path.join(WORK, "export." + fmt)
    run("export", CAP, "--to", fmt, "-o", out)
    if fmt == "chrome-json":
        data = open(out, encoding="utf-8").read()
        names = sorted(set(re.findall(r'"(?:name|cat)":"([^"]*)"', data)))
        keep("export chrome-json (names)", "\n".join(names))
        for name in tasks:
            check(name in names, "chrome-json: a track for task %s" % name)
        del data
    elif fmt == "csv":
        with open(out, encoding="utf-8") as f:
            head = [next(f, "") for _ in range(20000)]
        keep("export csv (start)", "".join(head))
    elif fmt == "perfetto":
        data = open(out, "rb").read()
        strings = set(re.findall(rb"[ -~]{3,}", data))
        keep("export perfetto (strings)", "\n".join(sorted(x.decode() for x in strings)))
        del data
    else:
        meta_path = os.path.join(out, "metadata")
        keep("export ctf metadata", open(meta_path, encoding="utf-8").read())

# latency: no complete instance spans a gap (those are incomplete), and
# trx why of the worst one holds its sums
if a.rtos != "none":
    lat = json.loads(keep("latency --json", run("latency", "--json", "--worst", "3", CAP).stdout))
    gaps = [g["index"] for g in info["stream"]["gaps"]]
    import bisect
    spans = 0
    for t in lat["threads"]:
        for w in t["worst"]:
            k = bisect.bisect_right(gaps, w["release_index"])
            check(k == len(gaps) or gaps[k] > w["end_index"],
                  "latency: %s #%d (events %d..%d) spans no gap" %
                  (t["name"], w["number"], w["release_index"], w["end_index"]))
            spans += 1
    if tasks:  # an RTOS's tasks (a bare-metal drain has user events only: no instances)
        check(spans > 0 and any(t["incomplete"] for t in lat["threads"]),
              "latency: complete instances measured (%d) and some cut by gaps" % spans)
        top = max((t for t in lat["threads"] if t["worst"]),
                  key=lambda t: t["worst"][0]["response_ticks"])
        why = json.loads(keep("why --json", run("why", CAP, "--thread", top["name"], "--worst",
                                               "--json").stdout))
        check(sum(g["ticks"] for g in why["segments"]) == why["instance"]["response_ticks"],
              "why: the segments add up to the response")

# check and diff
chk = run("check", CAP, "no-lost-events", ok=(0, 1))
keep("check", chk.stdout)
check(chk.returncode == (1 if lost else 0), "check no-lost-events: exit %d with %s lost" %
      (chk.returncode, lost))
keep("diff", run("diff", CAP, CAP, "--changed").stdout)

# convert --to txtb: the same trace, its profile kept, no registry warning
if a.rtos != "none":
    back = os.path.join(WORK, "back.trx")
    r = run("convert", "--to", "txtb", CAP, "-o", back)
    keep("convert", r.stdout + r.stderr)
    binfo = json.loads(run("info", "--json", back).stdout)
    check(binfo.get("rtos") == a.rtos, "convert: %s kept (%s)" % (a.rtos, binfo.get("rtos")))
    btext = keep("info of converted", run("info", back).stdout)
    bwarn = [l for l in btext.splitlines() if "Warning" in l]
    check(bwarn == warnings, "convert: the capture's warnings, no other: %s" % bwarn)
    bstats = json.loads(run("stats", "--json", back).stdout)
    check([(t["name"], t["priority_lowest"]) for t in bstats["threads"]] ==
          [(t["name"], t["priority_lowest"]) for t in stats["threads"]],
          "convert: the same tasks and priorities")

# no foreign words anywhere
for name, text in outputs.items():
    for pat in FOREIGN:
        m = re.search(pat, text)
        check(m is None, "%s: no '%s' (found %r)" % (name, pat, m and text[max(0, m.start() - 60):
                                                                         m.end() + 60]))
finish("stream_commands")
