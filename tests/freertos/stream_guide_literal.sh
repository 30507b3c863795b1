#!/usr/bin/env bash
# stream_guide_literal.sh WORK - runs examples/freertos/README.md's
# "Streaming by hand" exactly as the page has it: its <!-- guide-run -->
# block, in a copy of this tree (tracked and untracked files, as a fresh
# clone has them) with ../shared beside it. The block builds trx and the
# streaming example itself, streams for a few seconds into `trx capture`
# and prints the counts; check_stream_guide.py then compares the capture
# with the example's own counts (counts.txt).
set -euo pipefail
WORK=$1
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DOC=$ROOT/examples/freertos/README.md
. "$HERE/guide_copy.sh"
guide_copy "$WORK" "$DOC" 1 cmake python3 git
cd "$WORK/trx"
status=0
# the example leaks FreeRTOS's per-thread marker at exit (see run_freertos_stream.sh)
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 timeout 900 bash -euo pipefail guide.sh \
  >guide.log 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
  tail -40 guide.log >&2
  echo "FAIL: the README's streaming block failed (exit $status)" >&2
  exit 1
fi
echo "freertos_stream_guide: $(grep -c . guide.sh) lines from the README ran"
python3 "$HERE/check_stream_guide.py" build/trx freertos.uia counts.txt guide.log
