#!/usr/bin/env bash
# run_stream.sh MODE TRX WORKDIR - the bare-metal streaming example
# (examples/baremetal/common/fw_stream.c) under QEMU (Cortex-M4,
# mps2-an386), received by `trx capture` while it runs:
#   uart  the firmware drains its ring into the UART, which QEMU serves on
#         TCP (-serial tcp:...,server): trx capture tcp://127.0.0.1:PORT
#   txtb  as uart, the events written into a 64-entry TXTB buffer as a kernel
#         does and forwarded by trx_txtb_drain (overwritten entries counted)
#   rtt   GDB plays the probe (rtt_probe.py: halts in rtt_poll_point, reads
#         the RTT up-buffer as OpenOCD does, writes the read offset) and
#         feeds a FIFO: trx capture FIFO
# Then check_stream_fw.py compares the capture with the firmware's counters
# read through GDB at stream_done (lost = the recorder's drop counter, every
# event the firmware's own). UART mode also counts the instructions of one
# streamed event, of one packet close and of one drain into the UART (GDB
# stepi). Exit 77 (ctest SKIP)
# only when a tool is not installed and TRX_ALLOW_MISSING_TOOLS=1.
set -euo pipefail
MODE=$1 TRX=$2 WORK=$3
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
. "$HERE/require_tools.sh"
require_tools arm-none-eabi-gcc qemu-system-arm gdb-multiarch python3
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK"
"$ROOT/examples/baremetal/build.sh" cortex-m . "$([ "$MODE" = txtb ] && echo stream-txtb || echo stream)"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

GDB_SETUP=()
GDB_MEASURE=()
GDB_END=()
GDB_TXTB=()
[ "$MODE" = txtb ] && GDB_TXTB=(-ex 'printf "overwritten %u\n", overwritten_entries')
if [ "$MODE" = uart ] || [ "$MODE" = txtb ]; then
  PORT=$(free_port)
  SERIAL=(-serial "tcp:127.0.0.1:$PORT,server=on,wait=on")
  SOURCE=tcp://127.0.0.1:$PORT
  [ "$MODE" = txtb ] || GDB_MEASURE=(-ex "break stream_probe" -ex continue -ex count-to-return
               -ex "delete" -ex "break trx_stream_commit_"
               -ex continue -ex 'printf "packet-bytes %u\n", (unsigned)((char *)stream_logger.write - (char *)stream_logger.buffer)'
               -ex count-to-return -ex delete -ex "break trx_stream_drain" -ex continue
               -ex 'printf "drain-bytes %u\n", (ring->write_offset - ring->read_offset) % ring->size'
               -ex count-to-return -ex delete)
else
  mkfifo rtt.fifo
  SERIAL=(-serial null)
  SOURCE=rtt.fifo
  GDB_SETUP=(-x "$HERE/rtt_probe.py" -ex "break main" -ex continue -ex delete
             -ex "set var fw_transport = 1" -ex "set var fw_drain_every = 16"
             -ex "rtt-probe 0 0x10000 $WORK/rtt.fifo")
  GDB_END=(-ex rtt-probe-summary)
fi

qemu-system-arm -M mps2-an386 -kernel fw.elf -display none -monitor none "${SERIAL[@]}" \
  -icount shift=3,sleep=off -S -chardev socket,id=gdb0,path="$WORK/gdb.sock",server=on,wait=off \
  -gdb chardev:gdb0 </dev/null >qemu.log 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -S gdb.sock ] && break; sleep 0.1; done
if [ "$MODE" != rtt ]; then
  for _ in $(seq 100); do grep -q "waiting for connection" qemu.log 2>/dev/null && break; sleep 0.1; done
fi
"$TRX" capture "$SOURCE" -o capture.bin >capture.log 2>&1 &
capture_pid=$!
pids+=($capture_pid)

timeout 600 gdb-multiarch -batch -nx -x "$HERE/count_insert.py" fw.elf \
  -ex "target remote $WORK/gdb.sock" "${GDB_SETUP[@]}" "${GDB_MEASURE[@]}" \
  -ex "break stream_done" -ex continue "${GDB_END[@]}" \
  -ex 'printf "counters %u %u %u %u %u %u\n", main_events, tick_events, timer_events, nested_events, dropped_events, sent_bytes' \
  "${GDB_TXTB[@]}" \
  -ex kill >gdb.log 2>&1 </dev/null || true
grep -q '^counters ' gdb.log || { echo "FAIL: the GDB session did not complete:"; cat gdb.log; exit 1; }
# the capture ends when QEMU's socket closes (uart) or GDB closes the FIFO (rtt)
for _ in $(seq 100); do kill -0 "$capture_pid" 2>/dev/null || break; sleep 0.1; done
wait "$capture_pid" || { echo "FAIL: trx capture exited $?"; cat capture.log; exit 1; }
grep -E "^counters|^overwritten|instructions|packet-bytes|drain-bytes|rtt-probe" gdb.log || true
cat capture.log
status=0
python3 "$HERE/check_stream_fw.py" "$MODE" "$TRX" gdb.log capture.bin || status=$?
# the capture through every trx command: a TXTB drain's as the ThreadX-format
# trace it carries, the others as the UIA records they are; lost = the
# firmware's drop counter everywhere
awk '/^counters / {print "dropped", $6}' gdb.log >counts.txt
python3 "$ROOT/tests/freertos/check_stream_commands.py" "$TRX" capture.bin counts.txt commands \
  --rtos "$([ "$MODE" = txtb ] && echo threadx || echo none)" || status=$?
exit $status
