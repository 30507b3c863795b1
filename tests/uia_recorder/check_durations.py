#!/usr/bin/env python3
"""check_durations.py TRX SYSBIOS_SHAPED DIR - System Analyzer's duration
analysis (UIABenchmark start / stop pairs per core and name) on
sysbios_shaped's benchmark_two_cores capture, against the simulation's truth
(DIR/benchmark_two_cores.durations.json):
  - `trx stats --json` durations, field for field per (name, core): count,
    min / mean / max / sum ticks, incomplete (a start never stopped), unmatched
    stops (a stop without its start), the worst interval's start and end
    ticks; worst list longest first; names from the ELF's strings (--elf),
    the address without it;
  - `trx check max-duration=NAME:LIMIT`: pass at the truth's longest, fail
    one tick below, not available for an unknown name;
  - the report page's data (#trx-meta "durations") equal to stats --json;
  - the text section of `trx stats` lists every (name, core).
A difference fails with both values."""
import json, os, re, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "uia"))
from elf32_writer import elf32
from test_support import check, finish

trx, sim, out = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(out, exist_ok=True)
subprocess.run([sim, out], check=True)
path = os.path.join(out, "benchmark_two_cores.uia")
meta = path + ".xml"
truth = json.load(open(os.path.join(out, "benchmark_two_cores.durations.json")))
origin = truth["origin_g"]

# the strings at their addresses in the image's read-only data
strings = sorted(truth["strings"], key=lambda s: s["address"])
base = strings[0]["address"]
rodata = bytearray(strings[-1]["address"] - base + 16)
for s in strings:
    at = s["address"] - base
    rodata[at:at + len(s["name"]) + 1] = s["name"].encode() + b"\0"
fw = os.path.join(out, "benchmark.elf")
open(fw, "wb").write(elf32([], base, bytes(rodata)))
address_of = {s["name"]: s["address"] for s in strings}


def run(*args, code=0):
    r = subprocess.run([trx, *args], capture_output=True, text=True)
    check(r.returncode == code, "trx %s: exit %d, want %d (%s)" % (" ".join(args), r.returncode, code,
                                                                   r.stderr))
    return r.stdout


def compare(got_rows, named):
    """The rows of stats --json against the truth; `named`: names are strings."""
    def key(name):
        return name if named else "0x%08x" % address_of[name]
    want = sorted(truth["durations"], key=lambda d: (key(d["name"]), d["core"]))
    check([(r["name"], r["core"]) for r in got_rows] == [(key(w["name"]), w["core"]) for w in want],
          "rows %s, truth %s" % ([(r["name"], r["core"]) for r in got_rows],
                                 [(key(w["name"]), w["core"]) for w in want]))
    for g, w in zip(got_rows, want):
        what = "%s core %d" % (g["name"], g["core"])
        fields = {"address": address_of[w["name"]], "count": w["count"], "min_ticks": w["min"],
                  "max_ticks": w["max"], "sum_ticks": w["sum"], "incomplete": w["incomplete"],
                  "unmatched_stops": w["unmatched_stops"]}
        for f, v in fields.items():
            check(g.get(f) == v, "%s: %s %s, truth %s" % (what, f, g.get(f), v))
        check(abs(g.get("mean_ticks", -1) - w["sum"] / w["count"]) < 0.001,
              "%s: mean_ticks %s, truth %.4f" % (what, g.get("mean_ticks"), w["sum"] / w["count"]))
        worst = g.get("worst") or []
        check(len(worst) == min(5, w["count"]), "%s: %d worst" % (what, len(worst)))
        if worst:
            first = worst[0]
            want_first = {"start_ticks": w["worst_start_g"] - origin, "end_ticks": w["worst_end_g"] - origin,
                          "ticks": w["max"]}
            for f, v in want_first.items():
                check(first.get(f) == v, "%s: worst %s %s, truth %s" % (what, f, first.get(f), v))
        for x in worst:
            check(x["end_ticks"] - x["start_ticks"] == x["ticks"] and w["min"] <= x["ticks"] <= w["max"]
                  and x["start_index"] < x["end_index"], "%s: worst %s" % (what, x))
        check([x["ticks"] for x in worst] == sorted((x["ticks"] for x in worst), reverse=True),
              "%s: worst not longest first: %s" % (what, worst))


stats = json.loads(run("stats", "--json", "--uia-meta", meta, path))
compare(stats.get("durations") or [], False)
named = json.loads(run("stats", "--json", "--uia-meta", meta, "--elf", fw, path))
compare(named.get("durations") or [], True)

# the text section: a line per (name, core) with count and max
text = run("stats", "--uia-meta", meta, "--elf", fw, path)
check("Durations (UIABenchmark start/stop)" in text, "stats text: no durations section")
for w in truth["durations"]:
    line = re.search(r"^  %s +%d +%d +%d +%d +[0-9.]+ +%d " % (w["name"], w["core"], w["count"], w["incomplete"],
                                                          w["min"], w["max"]), text, re.M)
    check(line is not None, "stats text: no line for %s core %d" % (w["name"], w["core"]))

# trx check max-duration=NAME:LIMIT
longest = {}
for w in truth["durations"]:
    longest[w["name"]] = max(longest.get(w["name"], 0), w["max"])
for name, ticks in longest.items():
    ok = json.loads(run("check", "--json", "--uia-meta", meta, "--elf", fw, path,
                        "max-duration=%s:%d" % (name, ticks)))["results"][0]
    check(ok["status"] == "pass" and ok["value"] == ticks, "max-duration=%s:%d: %s" % (name, ticks, ok))
    bad = json.loads(run("check", "--json", "--uia-meta", meta, "--elf", fw, path,
                         "max-duration=%s:%d" % (name, ticks - 1), code=1))["results"][0]
    check(bad["status"] == "fail" and bad["value"] == ticks, "max-duration=%s:%d: %s" % (name, ticks - 1, bad))
addr = "0x%08x" % address_of["frame"]
ok = json.loads(run("check", "--json", "--uia-meta", meta, path, "max-duration=%s:%d" % (addr, longest["frame"])))
check(ok["results"][0]["status"] == "pass", "max-duration by address: %s" % ok)
gone = json.loads(run("check", "--json", "--uia-meta", meta, path, "max-duration=nothing:5", code=2))
check(gone["results"][0]["status"] == "unavailable", "max-duration of an unknown name: %s" % gone)

# the report's data: the same rows as stats --json
page = os.path.join(out, "benchmark.html")
run("report", "--uia-meta", meta, "--elf", fw, path, "-o", page)
html = open(page, encoding="utf-8").read()
m = re.search(r'<script id="trx-meta" type="application/json">(.*?)</script>', html, re.S)
data = json.loads(m.group(1)) if m else {}
check(data.get("durations") == named.get("durations"),
      "report durations differ from stats --json:\n%s\n%s" % (data.get("durations"), named.get("durations")))
finish("check_durations")
