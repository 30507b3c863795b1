#!/usr/bin/env bash
# run_freertos_posix.sh TRX EXAMPLE WORKDIR [CHECK_OPTIONS] - runs the
# FreeRTOS example on the POSIX port under GDB: it stops in
# app_platform_done (tracing stopped, the buffer wrapped), where the
# project's GDB command dumps the buffer as bin, ihex and srec and GDB reads
# the application's counters; then the program writes its own copy and
# counters and exits. All copies must give identical `trx events`, the
# counters read through GDB must equal the program's, and check_freertos.py
# checks the trace against them. Without gdb the program runs alone (the
# GDB part is skipped with a note; .ci/run installs gdb-multiarch).
set -euo pipefail
TRX=$1 EXAMPLE=$2 WORK=$3
shift 3
HERE=$(cd "$(dirname "$0")" && pwd)
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK"
# FreeRTOS's POSIX port keeps a per-thread marker it never frees (the
# example exits from a task): not this project's leak.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
GDB=$(command -v gdb-multiarch || command -v gdb || true)
counts=counts.txt
if [ -n "$GDB" ]; then
  fields="queue_sends queue_receives semaphore_gives semaphore_takes mutex_takes mutex_gives buffer_wraps"
  prints=()
  for f in $fields; do prints+=(-ex "printf \"count $f %u\\n\", app_counts.$f"); done
  timeout 120 "$GDB" -batch -nx -x "$HERE/../../tools/gdb/trx.py" \
    -ex "handle all nostop noprint pass" -ex "break app_platform_done" -ex run \
    -ex "trx dump gdb.bin" -ex "trx dump --format ihex gdb.hex" -ex "trx dump --format srec gdb.srec" \
    "${prints[@]}" -ex continue --args "$EXAMPLE" trace.trx counts.txt >gdb.log 2>&1 </dev/null ||
    { cat gdb.log; exit 1; }
  sed -n 's/^count //p' gdb.log >gdb_counts.txt
  [ "$(wc -l <gdb_counts.txt)" -eq 7 ] || { echo "FAIL: GDB session incomplete:"; cat gdb.log; exit 1; }
  cmp -s gdb_counts.txt counts.txt || { echo "FAIL: counters read through GDB differ:"; diff gdb_counts.txt counts.txt; exit 1; }
  counts=gdb_counts.txt
  "$TRX" events --format jsonl trace.trx >own.jsonl
  for f in gdb.bin gdb.hex gdb.srec; do
    "$TRX" events --format jsonl "$f" >"$f.jsonl"
    cmp -s own.jsonl "$f.jsonl" || { echo "FAIL: events of $f differ from the program's buffer"; exit 1; }
  done
  echo "GDB dumps (bin, ihex, srec) decode like the program's buffer; counters read through GDB"
else
  echo "note: no gdb; the GDB dump part is skipped"
  timeout 60 "$EXAMPLE" trace.trx counts.txt 2>stderr.txt || { cat stderr.txt; exit 1; }
fi
python3 "$HERE/check_freertos.py" "$TRX" trace.trx "$counts" \
  "$HERE/../../recorder/integrations/freertos/trx_freertos.trxc" "$@"
