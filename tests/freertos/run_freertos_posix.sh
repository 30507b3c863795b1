#!/usr/bin/env bash
# run_freertos_posix.sh TRX EXAMPLE WORKDIR [CHECK_OPTIONS] - runs the FreeRTOS example on the
# POSIX port (it stops by itself, writing its trace and counters) and checks
# the trace with check_freertos.py.
set -euo pipefail
TRX=$1 EXAMPLE=$2 WORK=$3
shift 3
HERE=$(cd "$(dirname "$0")" && pwd)
rm -rf "$WORK"
mkdir -p "$WORK"
# FreeRTOS's POSIX port keeps a per-thread marker it never frees (the
# example exits from a task): not this project's leak.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
  timeout 60 "$EXAMPLE" "$WORK/trace.trx" "$WORK/counts.txt" 2>"$WORK/stderr.txt" ||
  { cat "$WORK/stderr.txt"; exit 1; }
python3 "$HERE/check_freertos.py" "$TRX" "$WORK/trace.trx" "$WORK/counts.txt" \
  "$HERE/../../recorder/integrations/freertos/trx_freertos.trxc" "$@"
