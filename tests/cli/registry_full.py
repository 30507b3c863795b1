#!/usr/bin/env python3
"""registry_full.py - a trace whose object registry filled up says so
everywhere: `trx info` (a warning line; --json registry_full and
unregistered_contexts), `trx stats` (stderr), the report's header (its data:
registry_full, registry_warning) and `trx check registry-not-full`. The full
trace is the demo's with its free entries taken by dummy semaphores and one
thread's entry given to another object (that thread's events then come from
a context no entry names: an Un-named Thread); the demo itself stays quiet.

usage: registry_full.py TRX TRX_DEMO [OUT]   (OUT: keep the full trace there,
for the browser test)"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from test_check import expect, finish  # noqa: E402

TRX, DEMO = sys.argv[1:3]
OUT = sys.argv[3] if len(sys.argv) > 3 else None


def run(*args):
    p = subprocess.run([TRX] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


with tempfile.TemporaryDirectory() as work:
    subprocess.run([DEMO, work], check=True, capture_output=True)
    demo = os.path.join(work, "demo.trx")
    image = bytearray(open(demo, "rb").read())
    base, = struct.unpack_from("<I", image, 8)
    reg_start, = struct.unpack_from("<I", image, 12)
    name_size, = struct.unpack_from("<H", image, 18)
    reg_end, = struct.unpack_from("<I", image, 20)
    size = 16 + name_size
    entries = (reg_end - reg_start) // size
    info = json.loads(run("info", "--json", demo)[1])
    expect(info["registry_entries"] == entries, "registry size %d vs %d" % (info["registry_entries"], entries))
    free = [i for i in range(entries) if image[reg_start - base + i * size] == 1]
    threads = [i for i in range(entries) if image[reg_start - base + i * size + 1] == 1]
    expect(free and threads, "the demo has free entries and threads")
    for k, i in enumerate(free + threads[:1]):  # dummies: semaphores at addresses nothing uses
        off = reg_start - base + i * size
        image[off:off + 4] = bytes([0, 4, 0, 0])
        struct.pack_into("<III", image, off + 4, 0xDEAD0000 + 16 * k, 1, 0)
        name = b"dummy %d" % k
        image[off + 16:off + size] = name + bytes(name_size - len(name))
    assert len(image) == os.path.getsize(demo)
    full = os.path.join(work, "full.trx")
    open(full, "wb").write(image)
    if OUT:
        shutil.copyfile(full, OUT)

    # the demo: no warning anywhere
    rc, text, _ = run("info", demo)
    expect("registry is full" not in text, "demo: info warns")
    expect(info["registry_full"] is False and info["unregistered_contexts"] == 0,
           "demo: registry_full %s unregistered %s" % (info["registry_full"], info["unregistered_contexts"]))
    rc, _, err = run("stats", demo)
    expect("registry" not in err, "demo: stats warns: " + err)
    rc, out, _ = run("check", "--json", demo, "registry-not-full")
    res = json.loads(out)["results"][0]
    expect(rc == 0 and res["status"] == "pass" and res["value"] == len(free),
           "demo: check %d %s" % (rc, res))

    # the full one
    want = "the object registry is full (%d of %d entries in use)" % (entries, entries)
    rc, text, _ = run("info", full)
    line = [l for l in text.splitlines() if "registry is full" in l]
    expect(len(line) == 1 and line[0].startswith("Warning:") and want in line[0]
           and "1 thread context is named by no entry (Un-named Thread)" in line[0]
           and "more entries" in line[0], "info warning: %s" % line)
    js = json.loads(run("info", "--json", full)[1])
    expect(js["registry_full"] is True and js["unregistered_contexts"] == 1,
           "full: registry_full %s unregistered %s" % (js["registry_full"], js["unregistered_contexts"]))
    rc, _, err = run("stats", full)
    expect(rc == 0 and err.count("trx stats: warning: " + want) == 1, "stats stderr: " + err)
    rc, out, _ = run("check", "--json", full, "registry-not-full")
    res = json.loads(out)["results"][0]
    expect(rc == 1 and res["status"] == "fail" and res["value"] == 0 and want in res["evidence"],
           "full: check %d %s" % (rc, res))
    rc, text, _ = run("check", full, "registry-not-full")
    expect(rc == 1 and text.startswith("FAIL  registry-not-full: " + want), "check text: " + text)
    page = os.path.join(work, "full.html")
    rc, _, err = run("report", full, "-o", page)
    html = open(page).read()
    expect(rc == 0 and '"registry_full":true' in html and
           re.search(r'"registry_warning":"the object registry is full \(%d of %d' % (entries, entries), html),
           "report data lacks the warning")
    page = os.path.join(work, "demo.html")
    run("report", demo, "-o", page)
    expect('"registry_full"' not in open(page).read(), "demo report says registry_full")

finish("registry_full")
