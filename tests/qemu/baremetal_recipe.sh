#!/usr/bin/env bash
# baremetal_recipe.sh - runs docs/integration.md's bare-metal recipe exactly as
# written: each "recipe-file" block becomes that file in an empty directory,
# the "recipe-run" block runs with TRX pointing at a tree laid out like a trx
# checkout (this source tree, and the trx under test as build/trx). Then
# checks that the trace holds what the firmware recorded: every main-loop
# event in order (its count from GDB), one tick event and one ISR enter/exit
# pair per SysTick interrupt (count from GDB), nothing wrapped, and a report.
# usage: baremetal_recipe.sh TRX_BINARY WORK_DIR
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TRX_BIN=$1
WORK=$2
DOC=$ROOT/docs/integration.md
for tool in arm-none-eabi-gcc qemu-system-arm gdb-multiarch python3; do
  command -v "$tool" >/dev/null || { echo "baremetal_recipe: $tool not installed (tools/check_test_deps.sh)" >&2; exit 1; }
done
rm -rf "$WORK"
mkdir -p "$WORK/app" "$WORK/tree/build"
for d in include recorder tools; do ln -s "$ROOT/$d" "$WORK/tree/$d"; done
ln -s "$TRX_BIN" "$WORK/tree/build/trx"

# the blocks: <!-- recipe-file: NAME --> or <!-- recipe-run --> then a fenced block
python3 - "$DOC" "$WORK/app" <<'PY'
import re, sys
doc, out = sys.argv[1], sys.argv[2]
text = open(doc).read()
blocks = re.findall(r"<!-- recipe-(file: ([^ ]+)|run) -->\n```[a-z]*\n(.*?)```", text, re.S)
files = [b for b in blocks if b[1]]
runs = [b for b in blocks if not b[1]]
if len(files) != 3 or len(runs) != 1:
    sys.exit("baremetal_recipe: expected 3 recipe files and 1 run block, found %d and %d" % (len(files), len(runs)))
for _, name, body in files:
    open("%s/%s" % (out, name), "w").write(body)
open(out + "/run.sh", "w").write(runs[0][2])
PY

cd "$WORK/app"
TRX="$WORK/tree" timeout 240 bash -euo pipefail run.sh > run.log 2>&1 || { cat run.log >&2; echo "baremetal_recipe: the recipe failed" >&2; exit 1; }
loops=$(sed -n 's/^\$1 = \([0-9]*\)$/\1/p' run.log)
ticks=$(sed -n 's/^\$2 = \([0-9]*\)$/\1/p' run.log)
[ -n "$loops" ] && [ -n "$ticks" ] || { cat run.log >&2; echo "baremetal_recipe: GDB printed no counts" >&2; exit 1; }
[ -s report.html ] && grep -q 'main loop' report.html || { echo "baremetal_recipe: no report" >&2; exit 1; }
"$TRX_BIN" events --format jsonl trace.trx > events.jsonl
python3 - events.jsonl "$loops" "$ticks" <<'PY'
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
loops, ticks = int(sys.argv[2]), int(sys.argv[3])
real = [e for e in ev if not e["synthetic"]]
loop = [e for e in real if e["id"] == 4096]
tick = [e for e in real if e["id"] == 4097]
enter = [e for e in real if e["id"] == 3]
exit_ = [e for e in real if e["id"] == 4]
fail = []
if [e["info"][0] for e in loop] != list(range(loops)):
    fail.append("main-loop events: %d, want 0..%d in order" % (len(loop), loops - 1))
if any(e.get("thread_name") != "main loop" for e in loop):
    fail.append("main-loop events not in the 'main loop' context")
if [e["info"][0] for e in tick] != list(range(1, ticks + 1)):
    fail.append("tick events %d, want 1..%d" % (len(tick), ticks))
if len(enter) != ticks or len(exit_) != ticks or any(e["info"][1] != 15 for e in enter):
    fail.append("ISR enter/exit %d/%d, want %d of ISR 15" % (len(enter), len(exit_), ticks))
if ticks < 5:
    fail.append("only %d SysTick interrupts" % ticks)
if any(b["ticks"] <= a["ticks"] for a, b in zip(real, real[1:])):
    fail.append("time stamps do not increase")
for f in fail:
    print("baremetal_recipe: FAIL " + f, file=sys.stderr)
print("baremetal_recipe: %d main-loop events, %d SysTick interrupts, %d events" % (loops, ticks, len(real)))
sys.exit(1 if fail else 0)
PY
grep -q "Wrapped: *no" <("$TRX_BIN" info trace.trx) || { echo "baremetal_recipe: the buffer wrapped" >&2; exit 1; }
