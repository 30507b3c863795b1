#!/usr/bin/env python3
"""signed_fields.py TRX WORKDIR - a field an event description declares
`i32` is signed in every output: a user event whose "Celsius" word is
0xFFFFFFEE must read -18 in `trx events` (text args, JSON Lines, CSV), the
CSV, Chrome JSON and Perfetto exports, and CTF (babeltrace2), and its u32
neighbour 0xFFFFFFEE must stay 4294967278 (hex fields as hex). The trace is
written here: one thread, the event, a second one with +25, two more."""
import json, os, re, shutil, struct, subprocess, sys

TRX, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL", what)


def run(*args, stdin=None):
    r = subprocess.run(list(args), capture_output=True, text=True, stdin=stdin)
    if r.returncode != 0:
        sys.exit("FAIL: %s: exit %d %s" % (" ".join(args), r.returncode, r.stderr[:300]))
    return r.stdout


# a little-endian TXTB buffer: header, one registry entry (thread "sensor"), 4 entries
NAME, ENTRIES, THREAD = 32, 6, 0x20001000
reg_start, reg_end = 48, 48 + 16 + NAME
buf_start, buf_end = reg_end, reg_end + ENTRIES * 32
hdr = struct.pack("<IIIIHHIIIIIII", 0x54585442, 0xFFFFFFFF, 0, reg_start, 0, NAME, reg_end,
                  buf_start, buf_end, buf_start + 4 * 32, 0, 0, 0)
reg = struct.pack("<BBBBIII", 0, 1, 0x80, 5, THREAD, 0x20000000, 1024) + b"sensor".ljust(NAME, b"\0")
prio = 0x80000000 | 5 << 16 | 5
entries = struct.pack("<IIII4I", THREAD, prio, 4097, 100, 0x30000000, 0xFFFFFFEE, 0xFFFFFFEE, 0)
entries += struct.pack("<IIII4I", THREAD, prio, 4097, 200, 0x30000000, 25, 0xFFFFFFEE, 0)
entries += struct.pack("<IIII4I", THREAD, prio, 4098, 300, 0, 0, 0, 0)
entries += struct.pack("<IIII4I", THREAD, prio, 4098, 400, 0, 0, 0, 0)
entries += b"\0" * 64
trace = os.path.join(WORK, "signed.trx")
open(trace, "wb").write(hdr + reg + entries)
desc = os.path.join(WORK, "events.csv")
open(desc, "w").write("id,name,meaning,field1,field2,field3,field4\n"
                      "4097,Sensor Read,,Sensor::object,Celsius:i32,Raw:u32,\n")
C = ["--custom", desc]

jl = [json.loads(l) for l in run(TRX, "events", "--format", "jsonl", *C, trace).splitlines()]
jl = [e for e in jl if e["id"] == 4097]
check([e["args"].get("Celsius") for e in jl] == [-18, 25], "JSON Lines Celsius: %s" %
      [e["args"] for e in jl])
check([e["args"].get("Raw") for e in jl] == [4294967278, 4294967278], "JSON Lines Raw (u32)")
csv = run(TRX, "export", "--to", "csv", *C, trace)
check(re.search(r"Celsius=-18\b", csv) is not None or ",-18," in csv or ";-18" in csv,
      "export csv: -18 (%s)" % [l for l in csv.splitlines() if "Sensor" in l][:1])
check("4294967278" not in csv.replace("Raw=4294967278", "") or "Celsius=4294967278" not in csv,
      "export csv: Celsius not unsigned")
chrome = json.loads(run(TRX, "export", "--to", "chrome-json", *C, trace))
args = [e.get("args", {}) for e in chrome["traceEvents"] if e.get("name") == "Sensor Read"]
check(args and [a.get("Celsius") for a in args] == [-18, 25], "chrome-json Celsius: %s" % args)
pf = os.path.join(WORK, "t.pftrace")
run(TRX, "export", "--to", "perfetto", *C, trace, "-o", pf)
proto = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared",
                     "perfetto")
proto = os.environ.get("TRX_PERFETTO_PROTO", proto)
with open(pf, "rb") as f:
    dec = run("protoc", "--proto_path=" + proto, "--decode=perfetto.protos.Trace",
              "perfetto_trace.proto", stdin=f)
check(re.search(r"int_value: -18\b", dec) is not None, "perfetto: int_value -18")
check(re.search(r"int_value: 4294967278\b|uint_value: 4294967278\b", dec) is not None,
      "perfetto: the u32 field unsigned")
ctf = os.path.join(WORK, "ctf")
shutil.rmtree(ctf, ignore_errors=True)
run(TRX, "export", "--to", "ctf", *C, trace, "-o", ctf)
bt = run("babeltrace2", ctf)
check(re.search(r"celsius = -18\b", bt, re.I) is not None, "CTF: Celsius = -18 (%s)" %
      [l for l in bt.splitlines() if "elsius" in l][:1])
check(re.search(r"raw = 4294967278\b", bt, re.I) is not None, "CTF: the u32 field unsigned")
sys.exit(1 if failures else 0)
