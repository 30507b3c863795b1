#!/usr/bin/env bash
# guide_literal.sh WORK - runs docs/freertos-cortex-m.md's short way exactly
# as the page has it: the fenced blocks after each <!-- guide-run --> marker,
# in order, in a copy of this tree (its tracked and untracked files, as a
# fresh clone has them) with ../shared beside it. Then the report, the trace
# and the statistics must be there: report.html names the example's tasks,
# trace.trx holds them, stats lists the inversions of "high".
set -euo pipefail
WORK=$1
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DOC=$ROOT/docs/freertos-cortex-m.md
. "$HERE/guide_copy.sh"
guide_copy "$WORK" "$DOC" 4 cmake arm-none-eabi-gcc qemu-system-arm gdb-multiarch python3 git
cd "$WORK/trx"
status=0
TRX_PROGRAM= timeout 600 bash -euo pipefail guide.sh >guide.log 2>&1 || status=$?
pkill -f "kernel out/fw.elf" 2>/dev/null || true # a QEMU the guide left behind
if [ "$status" -ne 0 ]; then
  tail -40 guide.log >&2
  echo "FAIL: the guide's commands failed (exit $status)" >&2
  exit 1
fi
fail=0
[ -s report.html ] || { echo "FAIL: no report.html" >&2; exit 1; }
for task in high mid low consumer control; do
  grep -q "\"$task\"" report.html || { echo "FAIL: report.html does not name task $task" >&2; fail=1; }
done
grep -q "Priority inversions" guide.log || { echo "FAIL: stats printed no inversions" >&2; fail=1; }
grep -q "Wrapped: *yes" <(build/trx info trace.trx) || { echo "FAIL: the example's buffer should have wrapped" >&2; fail=1; }
echo "freertos_guide: $(grep -c . guide.sh) commands from the guide ran; report.html $(wc -c <report.html) bytes"
exit $fail
