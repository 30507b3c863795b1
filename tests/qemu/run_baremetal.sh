#!/usr/bin/env bash
# run_baremetal.sh ARCH TRX WORKDIR - the bare-metal example end to end under
# QEMU (examples/baremetal, ARCH cortex-m = mps2-an386, riscv32 = virt):
# build it, run it with -icount (deterministic) halted for GDB, stop in
# insert_probe (count the instructions of one insert with stepi) and in
# trace_done (after the buffer wrapped twice and the UART export), dump the
# buffer with the project's GDB command as bin, ihex and srec, read the
# firmware's counters through GDB, and let check_baremetal.py compare
# everything. Exit 77 (ctest SKIP) only when a tool is not installed.
set -euo pipefail
ARCH=$1 TRX=$2 WORK=$3
export TRX_PROGRAM=$TRX # the host trx that GDB's trx info runs
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
# How one insert is measured: Cortex-M by GDB stepi through insert_probe;
# RV32 by the firmware reading mcycle around it (-icount shift=0: one count
# per instruction), because QEMU 7.2 does not single-step a CSR read of
# mcycle under -icount.
case "$ARCH" in
  cortex-m) CC=arm-none-eabi-gcc QEMU=qemu-system-arm MACHINE=(-M mps2-an386) SHIFT=3
            MEASURE=(-ex "break insert_probe" -ex continue -ex count-to-return) ;;
  riscv32) CC=riscv64-unknown-elf-gcc QEMU=qemu-system-riscv32 MACHINE=(-M virt -bios none)
           SHIFT=0 MEASURE=() ;;
  *) echo "run_baremetal.sh: unknown ARCH $ARCH" >&2; exit 2 ;;
esac
. "$HERE/require_tools.sh"
require_tools "$CC" "$QEMU" gdb-multiarch python3
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK"
"$ROOT/examples/baremetal/build.sh" "$ARCH" .

"$QEMU" "${MACHINE[@]}" -kernel fw.elf -display none -monitor none -serial file:uart.txt \
  -icount shift=$SHIFT,sleep=off -S -chardev socket,id=gdb0,path="$WORK/gdb.sock",server=on,wait=off \
  -gdb chardev:gdb0 </dev/null >qemu.log 2>&1 &
qemu_pid=$!
# GDB's `kill` ends QEMU; if anything went wrong, make sure it is gone.
stop_qemu() {
  kill "$qemu_pid" 2>/dev/null || return 0
  for _ in $(seq 20); do kill -0 "$qemu_pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$qemu_pid" 2>/dev/null || true
}
trap stop_qemu EXIT
for _ in $(seq 100); do [ -S gdb.sock ] && break; sleep 0.1; done

timeout 120 gdb-multiarch -batch -nx -x "$ROOT/tools/gdb/trx.py" -x "$HERE/count_insert.py" fw.elf \
  -ex "target remote $WORK/gdb.sock" "${MEASURE[@]}" -ex "break trace_done" \
  -ex continue -ex "trx info" \
  -ex "trx dump --format bin gdb.bin" -ex "trx dump --format ihex gdb.hex" \
  -ex "trx dump --format srec gdb.srec" \
  -ex 'printf "counters %u %u %u %u %u\n", main_events, tick_events, timer_events, nested_events, buffer_wraps' \
  -ex 'printf "mcycle-instructions %u\n", insert_probe_instructions' -ex kill \
  >gdb.log 2>&1 </dev/null || true # `kill` may end the session with "Broken pipe"
stop_qemu
grep -q '^counters ' gdb.log || { echo "FAIL: the GDB session did not complete:"; cat gdb.log; exit 1; }
cat gdb.log | grep -E "^trx|^  |insert-instructions|counters" || true
python3 "$HERE/check_baremetal.py" "$ARCH" "$TRX" gdb.log
