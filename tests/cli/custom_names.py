#!/usr/bin/env python3
"""custom_names.py - an option that names things means the same in every
command: with --custom FILE.trxc, each command that shows event names shows
the file's names for its user events (and never "User Event" for them), in
every output format: events (text, csv, jsonl), stats (text, --json), report,
export (chrome-json, csv, perfetto, ctf). `dump` keeps TraceX's raw dump,
which names no user event. Without --custom every one says "User Event".

usage: custom_names.py TRX TRX_DEMO"""
import glob
import json
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from test_check import expect, finish  # noqa: E402

TRX, DEMO = sys.argv[1:3]
NAMES = {4100: "Sensor Sample", 4101: "Queue Fill", 4102: "Consumer Step", 4103: "Background Tick"}


def run(*args):
    p = subprocess.run([TRX] + list(args), capture_output=True)
    if p.returncode != 0:
        sys.exit("trx %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr.decode()))
    return p.stdout


with tempfile.TemporaryDirectory() as work:
    subprocess.run([DEMO, work], check=True, capture_output=True)
    trace = os.path.join(work, "demo.trx")
    trxc = os.path.join(work, "app.trxc")
    with open(trxc, "w") as f:
        f.write("Start\n")
        for i, n in NAMES.items():
            f.write("%d,%s,U%d,(0,0,0),(255,255,255),a,b,c,d\n" % (i, n, i % 100))
        f.write("End\n")

    def outputs(custom):
        """(command, text) for every command x format that names events."""
        opt = ["--custom", trxc] if custom else []
        got = []
        for fmt in ("text", "csv", "jsonl"):
            got.append(("events --format " + fmt, run("events", *opt, "--format", fmt, trace)))
        got.append(("stats", run("stats", *opt, trace)))
        got.append(("stats --json", run("stats", "--json", *opt, trace)))
        page = os.path.join(work, "r.html")
        run("report", *opt, trace, "-o", page)
        got.append(("report", open(page, "rb").read()))
        for to in ("chrome-json", "csv", "perfetto"):
            out = os.path.join(work, "x." + to)
            run("export", *opt, trace, "--to", to, "-o", out)
            got.append(("export " + to, open(out, "rb").read()))
        ctf = os.path.join(work, "ctf")
        run("export", *opt, trace, "--to", "ctf", "-o", ctf)
        got.append(("export ctf", open(os.path.join(ctf, "metadata"), "rb").read()))
        return got

    for cmd, text in outputs(True):
        for i, n in NAMES.items():
            expect(n.encode() in text, "%s --custom: no '%s' (%d)" % (cmd, n, i))
        for i in NAMES:
            expect(b"User Event (%d)" % i not in text, "%s --custom: still 'User Event (%d)'" % (cmd, i))
    stats = json.loads(run("stats", "--json", "--custom", trxc, trace))
    named = {s["id"]: s["name"] for s in stats["popular_services"] if s["id"] in NAMES}
    expect(named == NAMES, "stats --json names %s" % named)
    events = [json.loads(l) for l in run("events", "--format", "jsonl", "--custom", trxc,
                                         trace).splitlines()]
    by_id = {e["id"]: e["name"] for e in events if e["id"] in NAMES}
    expect(by_id == NAMES, "events jsonl names %s" % by_id)
    for cmd, text in outputs(False):
        for n in NAMES.values():
            expect(n.encode() not in text, "%s without --custom: says '%s'" % (cmd, n))
    dump = run("dump", "--custom", trxc, trace)
    expect(dump == run("dump", trace), "dump changes with --custom (TraceX's view)")

finish("custom_names")
