#!/usr/bin/env bash
# run_freertos_qemu.sh TRX WORKDIR - the FreeRTOS example on QEMU's
# mps2-an385 (examples/freertos/cortex-m): build, run with -icount halted for
# GDB, stop in trace_done after the UART export, dump the buffer with the
# project's GDB command (bin, ihex, srec), read app_counts through GDB; then
# all five copies (three dumps, the UART capture read as Intel HEX and as
# S-record among console lines) must give identical event listings, and
# check_freertos.py compares the trace with the counters. Exit 77 (SKIP)
# only when a tool or the FreeRTOS kernel is missing.
set -euo pipefail
TRX=$1 WORK=$2
export TRX_PROGRAM=$TRX # the host trx that GDB's trx info runs
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
K=${FREERTOS_KERNEL_PATH:-$ROOT/../shared/third_party/FreeRTOS-Kernel}
for tool in arm-none-eabi-gcc qemu-system-arm gdb-multiarch python3; do
  command -v "$tool" >/dev/null 2>&1 || {
    [ "${TRX_ALLOW_MISSING_TOOLS:-0}" = 1 ] && { echo "SKIP: $tool not installed (TRX_ALLOW_MISSING_TOOLS=1)"; exit 77; }
    echo "FAIL: $tool not installed (tools/check_test_deps.sh installs it)" >&2
    exit 1
  }
done
[ -f "$K/tasks.c" ] || {
  [ "${TRX_ALLOW_MISSING_TOOLS:-0}" = 1 ] && { echo "SKIP: no FreeRTOS kernel at $K (TRX_ALLOW_MISSING_TOOLS=1)"; exit 77; }
  echo "FAIL: no FreeRTOS kernel at $K (../shared/third_party/FreeRTOS-Kernel, or FREERTOS_KERNEL_PATH)" >&2
  exit 1
}
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK"
"$ROOT/examples/freertos/cortex-m/build.sh" . "$K"
qemu-system-arm -M mps2-an385 -kernel fw.elf -display none -monitor none -serial file:uart.txt \
  -icount shift=3,sleep=off -S -chardev socket,id=gdb0,path="$WORK/gdb.sock",server=on,wait=off \
  -gdb chardev:gdb0 </dev/null >qemu.log 2>&1 &
qemu_pid=$!
stop_qemu() {
  kill "$qemu_pid" 2>/dev/null || return 0
  for _ in $(seq 20); do kill -0 "$qemu_pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$qemu_pid" 2>/dev/null || true
}
trap stop_qemu EXIT
for _ in $(seq 100); do [ -S gdb.sock ] && break; sleep 0.1; done
timeout 120 gdb-multiarch -batch -nx -x "$ROOT/tools/gdb/trx.py" fw.elf \
  -ex "target remote $WORK/gdb.sock" -ex "break trace_done" -ex continue -ex "trx info" \
  -ex "trx dump --format bin gdb.bin" -ex "trx dump --format ihex gdb.hex" \
  -ex "trx dump --format srec gdb.srec" \
  -ex 'printf "count queue_sends %u\n", app_counts.queue_sends' \
  -ex 'printf "count queue_receives %u\n", app_counts.queue_receives' \
  -ex 'printf "count semaphore_gives %u\n", app_counts.semaphore_gives' \
  -ex 'printf "count semaphore_takes %u\n", app_counts.semaphore_takes' \
  -ex 'printf "count mutex_takes %u\n", app_counts.mutex_takes' \
  -ex 'printf "count mutex_gives %u\n", app_counts.mutex_gives' \
  -ex 'printf "count buffer_wraps %u\n", app_counts.buffer_wraps' -ex kill \
  >gdb.log 2>&1 </dev/null || true # `kill` may end the session with "Broken pipe"
stop_qemu
sed -n 's/^count //p' gdb.log >counts.txt
[ "$(wc -l <counts.txt)" -eq 7 ] || { echo "FAIL: the GDB session did not complete:"; cat gdb.log; exit 1; }
fail=0
"$TRX" events --format jsonl gdb.bin >ref.jsonl
for copy in gdb.hex gdb.srec "--input-format ihex uart.txt" "--input-format srec uart.txt"; do
  # shellcheck disable=SC2086
  "$TRX" events --format jsonl $copy >copy.jsonl
  cmp -s ref.jsonl copy.jsonl || { echo "FAIL: events of '$copy' differ from gdb.bin"; fail=1; }
done
python3 "$HERE/check_freertos.py" "$TRX" gdb.bin counts.txt \
  "$ROOT/recorder/integrations/freertos/trx_freertos.trxc" --reference || fail=1
span=$("$TRX" info --json gdb.bin | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["last_ticks"], d["time_source"])')
echo "freertos on mps2-an385: 5 copies identical; trace span and time source: $span"
exit $fail
