#!/usr/bin/env bash
# gdb_dump.sh TRX HOST_TARGET SCRIPT WORKDIR - the GDB command (tools/gdb/trx.py)
# on a host process: stops gdb_host_target in trx_test_stop after its buffer
# wrapped, dumps the buffer with `trx dump` as bin, ihex and srec, and checks
#   - the binary dump equals the program's own copy of its buffer;
#   - all copies give identical `trx events --format jsonl`;
#   - the decoded events match the program's counter read through GDB
#     (a full buffer of user events, the newest numbered counter - 1);
#   - `trx info` in GDB reports the wrap, and bad requests fail with a message.
# No gdb installed: a failure (exit 77, a ctest SKIP, only with TRX_ALLOW_MISSING_TOOLS=1).
set -euo pipefail
TRX=$1 PROG=$2 SCRIPT=$3 WORK=$4
GDB=$(command -v gdb-multiarch || command -v gdb || true)
if [ -z "$GDB" ]; then
  [ "${TRX_ALLOW_MISSING_TOOLS:-0}" = 1 ] && { echo "SKIP: no gdb or gdb-multiarch (TRX_ALLOW_MISSING_TOOLS=1)"; exit 77; }
  echo "FAIL: no gdb or gdb-multiarch (tools/check_test_deps.sh installs it)" >&2
  exit 1
fi
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK"
export ASAN_OPTIONS=detect_leaks=0 # the process is killed at the breakpoint
export TRX_PROGRAM="$TRX" # the host trx the GDB command runs on the buffer
"$GDB" -batch -nx -x "$SCRIPT" -ex "break trx_test_stop" -ex run -ex "trx info" \
  -ex "trx dump --format bin gdb.bin" -ex "trx dump --format ihex gdb.hex" \
  -ex "trx dump --format srec gdb.srec" -ex "print events_recorded" \
  --args "$PROG" own.bin >gdb.log 2>&1 || { cat gdb.log; exit 1; }
fail=0
grep -q "^Wrapped: *yes" gdb.log || { echo "FAIL: trx info did not report the wrap"; fail=1; }
recorded=$(sed -n 's/^\$1 = \([0-9]*\)$/\1/p' gdb.log)
[ -n "$recorded" ] || { echo "FAIL: no events_recorded from GDB"; cat gdb.log; exit 1; }
size=$(stat -c %s gdb.bin)
cmp -n "$size" gdb.bin own.bin || { echo "FAIL: gdb.bin differs from the program's buffer"; fail=1; }
"$TRX" events --format jsonl own.bin >own.jsonl
for f in gdb.bin gdb.hex gdb.srec; do
  "$TRX" events --format jsonl "$f" >"$f.jsonl"
  cmp -s own.jsonl "$f.jsonl" || { echo "FAIL: events of $f differ from the program's buffer"; fail=1; }
done
python3 - "$recorded" own.jsonl "$TRX" own.bin <<'PY' || fail=1
import json, subprocess, sys
recorded, path, trx, binary = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
events = [json.loads(l) for l in open(path)]
info = json.loads(subprocess.check_output([trx, "info", "--json", binary]))
user = [e for e in events if 4096 <= e["id"] <= 4102]
assert info["wrapped"] and len(user) == info["capacity"], (len(user), info["capacity"])
assert user[-1]["info"][0] == recorded - 1, (user[-1]["info"][0], recorded)
assert [e["info"][0] for e in user] == list(range(recorded - len(user), recorded))
print("ok: %d events decoded, the newest %d of the %d the program counted" %
      (len(user), len(user), recorded))
PY
# errors: a bad format, an address without a buffer
"$GDB" -batch -nx -x "$SCRIPT" -ex "break trx_test_stop" -ex run \
  -ex "trx dump --format elf x.out" -ex "trx info --address &events_recorded" \
  --args "$PROG" own2.bin >err.log 2>&1 || true
grep -q "trx dump: unknown format 'elf'" err.log || { echo "FAIL: bad format accepted"; cat err.log; fail=1; }
grep -q "trx info: no TXTB buffer at" err.log || { echo "FAIL: bad address accepted"; cat err.log; fail=1; }
# GDB's trx info = the host's trx info on the same bytes (what GDB's trx dump
# wrote), word for word (the File line names target memory instead of the
# file): an unwrapped buffer
# (oldest entry 0), a wrapped one, and one whose clock never ran (the warning).
for mode in unwrapped wrapped stopped; do
  "$GDB" -batch -nx -x "$SCRIPT" -ex "break trx_test_stop" -ex run \
    -ex "trx info" -ex "trx info --json" -ex "trx dump gdb-$mode.bin" \
    --args "$PROG" "own-$mode.bin" "$mode" >"info-$mode.log" 2>&1 ||
    { cat "info-$mode.log"; exit 1; }
  python3 - "info-$mode.log" "$TRX" "gdb-$mode.bin" "$mode" <<'PY' || fail=1
import json, re, subprocess, sys
log, trx, binary, mode = sys.argv[1:5]
text = open(log).read()
host = subprocess.check_output([trx, "info", binary], text=True)
host_json = json.loads(subprocess.check_output([trx, "info", "--json", binary]))
start = text.index("File:")
gdb_text = text[start:start + len(host) + 200]
gdb_lines = gdb_text.splitlines()[:len(host.splitlines())]
host_lines = host.splitlines()
if not re.match(r"File: +target memory at 0x[0-9a-f]+$", gdb_lines[0]):
    sys.exit("FAIL %s: GDB's File line is %r" % (mode, gdb_lines[0]))
if gdb_lines[1:] != host_lines[1:]:
    for a, b in zip(gdb_lines[1:], host_lines[1:]):
        if a != b:
            print("FAIL %s: GDB says %r, the host %r" % (mode, a, b))
    sys.exit(1)
j = json.loads(text[text.index("{"):text.rindex("}") + 1])
j.pop("file"); host_json.pop("file")
if j != host_json:
    sys.exit("FAIL %s: trx info --json differs between GDB and the host" % mode)
want = {"unwrapped": "Oldest entry:       0 ", "wrapped": "Wrapped:            yes",
        "stopped": "Warning:            the time stamps never change"}[mode]
if not any(l.startswith(want) for l in gdb_lines):
    sys.exit("FAIL %s: GDB's trx info has no line starting %r" % (mode, want))
print("ok: %s buffer: GDB's trx info = the host's (%d lines, JSON too)" % (mode, len(host_lines)))
PY
done
# no host trx to run: a clear error
TRX_PROGRAM=/nonexistent PATH=/usr/bin:/bin "$GDB" -batch -nx -x "$SCRIPT" -ex "break trx_test_stop" -ex run \
  -ex "set trx-program /nonexistent" -ex "trx info" --args "$PROG" own3.bin >noprog.log 2>&1 || true
grep -q "trx info: no host trx program found" noprog.log ||
  [ -x "$(dirname "$SCRIPT")/../../build/trx" ] || { echo "FAIL: no error without a host trx"; cat noprog.log; fail=1; }
[ $fail -eq 0 ] && echo "ok: gdb dumps (bin, ihex, srec) decode identically to the program's buffer"
exit $fail
