#!/usr/bin/env python3
"""stats_rows.py - `trx stats` text tables list at most --rows rows: the
busiest threads (execution profile), the fullest stacks, then "... and K
more threads"; --all and --rows 0 list every row, and a trace with a context
per event gives a report of a few KiB (gen_hostile new-contexts).
Every kept row is checked against `stats --json` (the same figures).

usage: stats_rows.py TRX GEN_HOSTILE TRACE..."""
import json
import os
import re
import subprocess
import sys
import tempfile

TRX, GEN = sys.argv[1], sys.argv[2]
TRACES = sys.argv[3:]
failures = []


def run(*args):
    p = subprocess.run([TRX] + list(args), capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("trx %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr))
    return p.stdout


def section(text, title):
    """The row lines of a text table, up to its blank line."""
    lines = text.split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith(title))
    rows = []
    for l in lines[start + 1:]:
        if not l.strip():
            break
        rows.append(l)
    return rows


def check(name, cond, what):
    if not cond:
        failures.append("%s: %s" % (name, what))


def expect_top(name, table, rows, keys, limit, names):
    """rows: the table's lines; keys: one per thread (larger kept first)."""
    n = len(keys)
    order = sorted(range(n), key=lambda i: (-keys[i], i))[: limit if limit else n]
    kept = sorted(order)
    thread_rows = rows[: len(kept)]
    check(name, len(rows) >= len(kept), "%s: %d rows, want %d" % (table, len(rows), len(kept)))
    for line, i in zip(thread_rows, kept):
        check(name, line.startswith("  " + names[i]), "%s: row '%s', want thread %d (%s)"
              % (table, line.strip(), i, names[i]))
    more = [l for l in rows if "... and" in l]
    if len(kept) < n:
        want = "  ... and %d more threads (--all lists every one)" % (n - len(kept))
        check(name, more == [want], "%s: %s, want '%s'" % (table, more, want))
    else:
        check(name, not more, "%s: says %s with every row listed" % (table, more))
    return kept


for trace in TRACES:
    name = os.path.basename(trace)
    js = json.loads(run("stats", "--json", trace))
    threads = js["threads"]
    names = [t["name"] for t in threads]
    full = run("stats", "--all", trace)
    check(name, full == run("stats", "--rows", "0", trace), "--all differs from --rows 0")
    if len(threads) <= 100:
        check(name, full == run("stats", trace), "default differs from --all with <= 100 threads")
    limit = 2
    short = run("stats", "--rows", str(limit), trace)
    prof = section(short, "Execution profile")
    keys = [t.get("execution_ticks", 0) for t in threads]
    kept = expect_top(name, "execution profile", prof, keys, limit, names)
    for line, i in zip(prof, kept):
        check(name, re.search(r"\s%d\s" % keys[i], line + " ") is not None,
              "profile row '%s' lacks %d ticks" % (line.strip(), keys[i]))
    rest = [l.split()[0] for l in prof[len(kept):] if not l.startswith("  ...")]
    check(name, rest == ["Idle", "Interrupt", "Initialization"], "profile ends with %s" % rest)
    stack = section(short, "Stack usage")
    skeys = []
    for t in threads:
        size, free = t.get("stack_size", 0), t.get("stack_min_available", 0)
        skeys.append((size - free) * 1000000 // size if size and free < size else 0)
    expect_top(name, "stack usage", stack, skeys, limit, names)

with tempfile.TemporaryDirectory() as work:
    big = os.path.join(work, "big.trx")
    subprocess.run([GEN, "--shape", "new-contexts", "--out", big, "--entries", "50000"],
                   check=True, capture_output=True)
    text = run("stats", big)
    n = len(json.loads(run("stats", "--json", big))["threads"])
    check("new-contexts", len(text) < 65536, "report is %d bytes" % len(text))
    check("new-contexts", "  ... and %d more threads (--all lists every one)" % (n - 100) in text,
          "no '... and %d more threads' line" % (n - 100))
    check("new-contexts", run("stats", "--all", big).count("Un-named Thread") >= 2 * (n - 3),
          "--all does not list every thread")

for f in failures:
    print("FAIL", f)
print("stats_rows: %d traces, %d failures" % (len(TRACES) + 1, len(failures)))
sys.exit(1 if failures else 0)
