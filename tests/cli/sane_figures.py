#!/usr/bin/env python3
"""sane_figures.py - every command on every kind of trace the project can
make: no percentage outside 0-100, no count that is a wrapped negative.

Traces: the corpus (and smp/), the fuzz seeds, the generators (gen_txtb in
each timer kind, gen_hostile's shapes, the demos as TXTB, SMP and UIA, a UIA
buffer with lost-event gaps). Commands: info, dump, events (text, CSV, JSON
Lines), stats (both modes, text and JSON), report (its embedded statistics),
export (CSV, Chrome JSON), check (every rule, text and JSON), diff (against
itself and against the demo, text and JSON).

A percentage is any number followed by '%' in text, a JSON member whose name
says percent, and the CPU-load windows; each must lie in [0, 100]. The
relative-change column of `trx diff` is a change, not a share, and is left
out. A count is any integer in the output: none may exceed 2^62 (a wrapped
negative or a tick underflow lands near 2^64). On a trace without thread
context (UIA) `check` must name each rule it cannot evaluate and exit 2, or 0
with --skip-unavailable; `stats --json` of the report and `diff --json` must
carry null with a reason, not zeros.

usage: sane_figures.py TRX BUILD_DIR SHARED_DIR SOURCE_DIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile

TRX, BUILD, SHARED, SOURCE = sys.argv[1:5]
LIMIT = 1 << 62
RULES = ["max-isr-ticks=100", "max-isr-rate=3:100", "no-priority-inversion",
         "no-priority-inversion=unbounded", "min-stack-free=64", "max-cpu-load=90",
         "max-cpu-load=50:1000", "max-latency=100", "max-response=100", "no-lost-events"]
PERCENT = re.compile(r"(-?[0-9][0-9,]*(?:\.[0-9]+)?)\s?%")
INTEGER = re.compile(r"(?<![0-9A-Za-z_.x])-?[0-9]{16,}(?![0-9])")
failures = []
checked = {"outputs": 0, "percentages": 0, "traces": 0}


def fail(msg):
    failures.append(msg)
    print("FAIL " + msg, file=sys.stderr)


def run(args, ok=(0, 1, 2)):
    p = subprocess.run([TRX] + args, capture_output=True, timeout=300)
    if p.returncode not in ok:
        fail("%s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr.decode(errors="replace")[:300]))
    if p.returncode < 0:
        fail("%s: killed by signal %d" % (" ".join(args), -p.returncode))
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def check_text(what, text, percents=True):
    checked["outputs"] += 1
    for m in INTEGER.finditer(text):
        v = int(m.group(0))
        if v > LIMIT or v < -LIMIT:
            fail("%s: count %s out of range" % (what, m.group(0)))
    if not percents:
        return
    for m in PERCENT.finditer(text):
        v = float(m.group(1).replace(",", ""))
        checked["percentages"] += 1
        if not 0.0 <= v <= 100.0:
            fail("%s: percentage %s%% outside 0-100" % (what, m.group(1)))


def walk_json(what, node, key=""):
    if isinstance(node, dict):
        for k, v in node.items():
            walk_json(what, v, k)
    elif isinstance(node, list):
        for v in node:
            walk_json(what, v, key)
    elif isinstance(node, (int, float)) and not isinstance(node, bool):
        if isinstance(node, int) and not -LIMIT <= node <= LIMIT:
            fail("%s: %s = %d out of range" % (what, key, node))
        if "percent" in key or key == "windows":
            checked["percentages"] += 1
            if not 0.0 <= node <= 100.0:
                fail("%s: %s = %s outside 0-100" % (what, key, node))


def check_json(what, text):
    checked["outputs"] += 1
    try:
        doc = json.loads(text)
    except ValueError as e:
        fail("%s: not JSON: %s" % (what, e))
        return None
    walk_json(what, doc)
    return doc


def report_stats(html, what):
    """The statistics the report embeds (`"stats":{...}` in its data)."""
    i = html.find('"stats":{')
    if i < 0:
        fail(what + ": no embedded statistics")
        return None
    dec = json.JSONDecoder()
    try:
        doc, _ = dec.raw_decode(html[i + 8:])
    except ValueError as e:
        fail("%s: embedded statistics not JSON: %s" % (what, e))
        return None
    walk_json(what, doc)
    return doc


def traces(work):
    out = []
    corpus = os.path.join(SHARED, "corpus")
    for d in (corpus, os.path.join(corpus, "smp")):
        if os.path.isdir(d):
            out += [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.endswith(".trx")]
    seeds = os.path.join(SOURCE, "tests", "fuzz", "seeds")
    for d in ("fuzz_decode", "fuzz_uia", "fuzz_txtb"):
        p = os.path.join(seeds, d)
        if os.path.isdir(p):
            out += [os.path.join(p, f) for f in sorted(os.listdir(p))]
    gen = os.path.join(BUILD, "gen_txtb")
    for timer in ("up32", "down32", "up16", "down16"):
        f = os.path.join(work, "gen_%s.trx" % timer)
        subprocess.run([gen, "--out", f, "--entries", "3000", "--timer", timer, "--wrap", "--cores", "2"], check=True,
                       capture_output=True)
        out.append(f)
    hostile = os.path.join(BUILD, "gen_hostile")
    for shape in ("isr-resume-new", "running-unknown", "new-contexts", "open-inversions", "objects-window",
                  "distinct-ids", "same-address"):
        f = os.path.join(work, "hostile_%s.trx" % shape)
        subprocess.run([hostile, "--shape", shape, "--out", f, "--entries", "3000"], check=True, capture_output=True)
        out.append(f)
    for demo in ("trx_demo", "trx_demo_smp", "trx_demo_uia", "trx_demo_uia32"):
        exe = os.path.join(BUILD, demo)
        d = os.path.join(work, demo)
        os.makedirs(d, exist_ok=True)
        subprocess.run([exe, d], check=True, capture_output=True)
        out += [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.endswith((".trx", ".uia"))]
    gaps = os.path.join(BUILD, "tests", "interop", "make_uia_gaps")
    if not os.path.exists(gaps):
        fail("no " + gaps)
    else:
        for extra in ([], ["--backwards"]):
            f = os.path.join(work, "gaps%s.uia" % "".join(extra))
            subprocess.run([gaps, f] + extra, check=True, capture_output=True)
            out.append(f)
    return out


def main():
    with tempfile.TemporaryDirectory() as work:
        all_traces = traces(work)
        demo = os.path.join(work, "trx_demo", "demo.trx")
        for t in all_traces:
            name = os.path.relpath(t, work) if t.startswith(work) else os.path.basename(t)
            rc, out, err = run(["info", t])
            if rc == 2:
                continue  # not a readable trace (some seeds): nothing to check
            checked["traces"] += 1
            uia = (check_json(name + ": info --json", run(["info", "--json", t])[1]) or {}).get("format") == "uia"
            check_text(name + ": info", out)
            check_text(name + ": dump", run(["dump", t])[1])
            for fmt in ("text", "csv"):
                check_text(name + ": events " + fmt, run(["events", "--format", fmt, t])[1])
            for line in run(["events", "--format", "jsonl", t])[1].splitlines()[:20000]:
                check_json(name + ": events jsonl", line)
            for mode in ([], ["--compat", "tracex"]):
                check_text(name + ": stats " + " ".join(mode), run(["stats"] + mode + [t])[1])
                check_json(name + ": stats --json " + " ".join(mode), run(["stats", "--json"] + mode + [t])[1])
            html = os.path.join(work, "r.html")
            if run(["report", t, "-o", html])[0] == 0:
                with open(html, encoding="utf-8") as f:
                    st = report_stats(f.read(), name + ": report")
                if st is not None and uia:
                    if st.get("performance") is not None or not (st.get("unavailable") or {}).get("reason"):
                        fail(name + ": report statistics of a UIA trace: performance should be null with a reason")
            for fmt in ("csv", "chrome-json"):
                o = os.path.join(work, "x." + fmt)
                if run(["export", t, "--to", fmt, "-o", o])[0] == 0:
                    with open(o, encoding="utf-8", errors="replace") as f:
                        body = f.read()
                    if fmt == "csv":
                        check_text(name + ": export csv", body, percents=False)
                    else:
                        check_json(name + ": export chrome-json", body)
            rc, out, err = run(["check", t] + RULES)
            check_text(name + ": check", out)
            doc = check_json(name + ": check --json", run(["check", "--json", t] + RULES)[1])
            if uia and doc is not None:
                if rc != 2:
                    fail(name + ": check on a trace without thread context: exit %d, want 2" % rc)
                for r in doc["results"]:
                    if r["rule"] != "no-lost-events" and r["status"] != "unavailable":
                        fail(name + ": check: rule %s is %s on a trace without thread context" % (r["rule"], r["status"]))
                    if r["status"] == "unavailable" and "rule '%s'" % r["rule"] not in err:
                        fail(name + ": check: stderr does not name unavailable rule " + r["rule"])
                rc2 = run(["check", "--skip-unavailable", t, "max-cpu-load=90", "no-lost-events"])[0]
                if rc2 == 2:
                    fail(name + ": check --skip-unavailable still exits 2")
            for other in (t, demo):
                rc, out, _ = run(["diff", t, other])
                # the relative column (last) is a change, not a share
                check_text(name + ": diff", "\n".join(l.rsplit(None, 1)[0] if "%" in l else l for l in out.splitlines()),
                           percents=True)
                d = check_json(name + ": diff --json", run(["diff", "--json", t, other])[1].replace('"relative"', '"change_relative"'))
                if d is not None and uia and not (d.get("unavailable") or {}).get("reason"):
                    fail(name + ": diff --json of a trace without thread context has no unavailable reason")
    print("sane_figures: %d traces, %d outputs, %d percentages checked, %d failures" %
          (checked["traces"], checked["outputs"], checked["percentages"], len(failures)))
    if checked["traces"] < 30:
        fail("only %d traces were read" % checked["traces"])
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
