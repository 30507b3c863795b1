#!/usr/bin/env bash
# stream_cost.sh [BUILD_DIR=build] - the stream recorder's cost on a
# Cortex-M4 under QEMU, per transport: runs tests/qemu/run_stream.sh (uart:
# GDB stepi counts one streamed event, one packet close and one drain into
# the UART; rtt: the probe reads the ring, the target's cost is the event
# and the close) and prints the instruction counts. Needs arm-none-eabi-gcc,
# qemu-system-arm, gdb-multiarch. Not a test.
set -eu
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$build/bench-data/stream-cost
"$here/../../tests/qemu/run_stream.sh" uart "$build/trx" "$work" >"$work.log" 2>&1 || {
  cat "$work.log"
  exit 1
}
mapfile -t counts < <(grep '^insert-instructions' "$work/gdb.log" | awk '{print $2}')
packet=$(awk '/^packet-bytes/ {print $2}' "$work/gdb.log")
drain=$(awk '/^drain-bytes/ {print $2}' "$work/gdb.log")
echo "Cortex-M4 (QEMU mps2-an386), stream recorder, GDB stepi:"
echo "  one event, 4 arguments (UART and RTT):      ${counts[0]} instructions"
echo "  closing a $packet-byte packet (UART and RTT): ${counts[1]} instructions ($(python3 -c "print('%.1f' % (${counts[1]} / $packet))")/byte)"
echo "  draining $drain bytes into the UART:          ${counts[2]} instructions ($(python3 -c "print('%.1f' % (${counts[2]} / $drain))")/byte, outside the critical section)"
echo "  RTT: no drain on the target (the probe reads the ring)"
