#!/usr/bin/env python3
"""check_apply.py ROOT [--list] - every mutation of tests/mutate/mutations.txt still
applies to today's code: its file exists, each "from" text is in it (in
order, each replaced once, as run.sh replaces them), its tests regex names
at least one registered ctest test (the names come on stdin from
`ctest -N`, when given), and no two mutations share a name. A mutation that
no longer applies proves nothing; run.sh would say so only when it is run
(it is not part of `make test`), so this guard is."""
import re
import sys

root = sys.argv[1]
listing = sys.argv[2:] == ["--list"]
tests = set()
if not listing and not sys.stdin.isatty():
    tests = set(re.findall(r"Test +#\d+: (\S+)", sys.stdin.read()))
blocks, cur = [], None
for n, line in enumerate(open(root + "/tests/mutate/mutations.txt"), 1):
    line = line.rstrip("\n")
    if line.startswith("#") or not line.strip():
        continue
    key, _, val = line.partition(": ")
    if line.endswith(":") and not val:
        key, val = line[:-1], ""
    if key == "name":
        cur = {"name": val, "line": n, "pairs": []}
        blocks.append(cur)
    elif cur is None or key not in ("file", "tests", "from", "to"):
        sys.exit("mutations.txt:%d: expected name/file/tests/from/to, got %r" % (n, line[:40]))
    elif key in ("file", "tests"):
        cur[key] = val
    elif key == "from":
        cur["pairs"].append([val, None])
    elif cur["pairs"] and cur["pairs"][-1][1] is None:
        cur["pairs"][-1][1] = val
    else:
        sys.exit("mutations.txt:%d: 'to' without its 'from'" % n)
if listing:
    for b in blocks:
        print("\x1f".join([b["name"], b["file"], b["tests"]] + [x for p in b["pairs"] for x in p] + ["."]))
    sys.exit(0)
problems, names = [], set()
for b in blocks:
    where = "mutations.txt:%d %s" % (b["line"], b["name"])
    if b["name"] in names:
        problems.append(where + ": the name is used twice")
    names.add(b["name"])
    if "file" not in b or "tests" not in b or not b["pairs"] or any(t is None for _, t in b["pairs"]):
        problems.append(where + ": needs file, tests and from/to pairs")
        continue
    try:
        text = open(root + "/" + b["file"]).read()
    except OSError:
        problems.append(where + ": no file " + b["file"])
        continue
    for old, new in b["pairs"]:
        old, new = old.replace("\\n", "\n"), new.replace("\\n", "\n")
        if old not in text:
            problems.append(where + ": does not apply: %r not in %s" % (old[:60], b["file"]))
            break
        text = text.replace(old, new, 1)
    if tests and not any(re.search(b["tests"], t) for t in tests):
        problems.append(where + ": no registered test matches " + b["tests"])
for p in problems:
    print("FAIL: " + p)
print("%d mutations, %d problems" % (len(blocks), len(problems)))
sys.exit(1 if problems else 0)
