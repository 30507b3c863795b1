#!/usr/bin/env python3
"""check_time_backwards.py TRX SYSBIOS_SHAPED DIR - a SYS/BIOS capture whose
time source steps back once (sysbios_shaped.c's time_backwards: the 32-bit
counter goes back 700 ticks inside a Hwi while a readied task waits; the
recorder extends it as if it had wrapped):
  - every command that reads the trace warns "timestamps go backwards" on
    stderr (once per input), stats --json says how often and how many
    figures it left out;
  - check --json, latency --json and trx serve's /api/meta carry the same
    time_backwards figure (absent on a capture whose time never steps back);
  - the Hwi and the response time spanning the step are left out (the Hwi's
    count is the truth's less one, nothing near 2^32 ticks), the span and the
    profile stay within the true time."""
import json, os, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "uia"))
from test_support import check, finish
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "serve"))
from served import Served

trx, sim, out = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(out, exist_ok=True)
subprocess.run([sim, out], check=True)
path, meta = os.path.join(out, "time_backwards.uia"), os.path.join(out, "time_backwards.uia.xml")
truth = json.load(open(os.path.join(out, "time_backwards.truth.json")))
core = truth["cores"][0]
WARNING = "timestamps go backwards 1 time (first at offset "

commands = [["info"], ["dump"], ["events"], ["stats"], ["stats", "--json"], ["latency"],
            ["report", "-o", os.path.join(out, "tb.html")],
            ["export", "--to", "chrome-json", "-o", os.path.join(out, "tb.json")],
            ["export", "--to", "csv", "-o", os.path.join(out, "tb.csv")],
            ["convert", "--to", "bin", "-o", os.path.join(out, "tb.bin")]]
for cmd in commands:
    r = subprocess.run([trx, *cmd, "--uia-meta", meta, path], capture_output=True, text=True)
    check(r.returncode == 0 and r.stderr.count(WARNING) == 1,
          "%s: exit %d, stderr %r" % (" ".join(cmd), r.returncode, r.stderr))
r = subprocess.run([trx, "check", "--uia-meta", meta, path, "max-isr-ticks=1000"], capture_output=True,
                   text=True)
check(r.stderr.count(WARNING) == 1, "check: stderr %r" % r.stderr)
r = subprocess.run([trx, "diff", "--uia-meta", meta, path, path], capture_output=True, text=True)
check(r.stderr.count(WARNING) == 2, "diff: stderr %r" % r.stderr)

st = json.loads(subprocess.run([trx, "stats", "--json", "--uia-meta", meta, path], capture_output=True,
                               text=True).stdout)
check(st.get("time_backwards") == 1, "stats --json time_backwards %s" % st.get("time_backwards"))
check(st.get("left_out_by_time_backwards") == 2,
      "stats --json left out %s, want 2 (the Hwi, the response)" % st.get("left_out_by_time_backwards"))
true_span = core["last_g"] - core["first_g"]
check(st["max_relative_ticks"] <= true_span, "span %d ticks, true span %d" % (st["max_relative_ticks"], true_span))
isr = {i["id"]: i for i in st["isr"]}
for h in core["hwi"]:
    want = h["count"] - (h["id"] == truth["backward"]["hwi"])
    got = isr.get(h["id"], {})
    check(got.get("count") == want and got.get("max", 1 << 40) <= h["max"],
          "ISR %d: %s, truth %s (less the one spanning the step)" % (h["id"], got, h))
for resp in st["latency"]["response"]:
    check(resp["max"] < true_span, "response %s spans more than the trace" % resp)
for p in st["execution_profile"]:
    check(p["ticks"] <= true_span, "profile row %s beyond the true span %d" % (p, true_span))
# trx latency: no instance spanning the step (no figure beyond the true span, none near 2^64)
lat = json.loads(subprocess.run([trx, "latency", "--json", "--uia-meta", meta, path], capture_output=True,
                                text=True).stdout)
widest = []
def ticks_in(o):
    if isinstance(o, dict):
        for k, v in o.items():
            if isinstance(v, int) and not isinstance(v, bool) and k.endswith("ticks") and not k.startswith(("release", "end", "start")):
                widest.append((v, k))
            ticks_in(v)
    elif isinstance(o, list):
        for v in o:
            ticks_in(v)
ticks_in(lat)
check(widest and max(widest)[0] <= true_span, "latency --json: %s beyond the true span %d" % (max(widest or [(0, "")]), true_span))
info = json.loads(subprocess.run([trx, "info", "--json", "--uia-meta", meta, path], capture_output=True,
                                 text=True).stdout)
check(info.get("time_backwards") == 1, "info --json time_backwards %s" % info.get("time_backwards"))
# check --json, latency --json and trx serve's meta carry the same figure (absent on a clean capture)
clean, clean_meta = os.path.join(out, "one_core.uia"), os.path.join(out, "one_core.uia.xml")
for capture, capture_meta, want in ((path, meta, 1), (clean, clean_meta, None)):
    for cmd in (["check", "--json"], ["latency", "--json"]):
        extra = ["max-isr-ticks=1000000"] if cmd[0] == "check" else []
        r = subprocess.run([trx, *cmd, "--uia-meta", capture_meta, capture, *extra], capture_output=True, text=True)
        got = json.loads(r.stdout).get("time_backwards") if r.stdout else "no output"
        check(got == want, "%s %s: time_backwards %s, stats --json says %s" % (" ".join(cmd), capture, got, want))
    served = Served(trx, "--uia-meta", capture_meta, capture)
    try:
        got = served.get("api/meta").get("time_backwards")
        check(got == want, "trx serve %s: meta time_backwards %s, stats --json says %s" % (capture, got, want))
    finally:
        served.stop()
finish("check_time_backwards")
