#!/usr/bin/env bash
# insert_instructions.sh - instructions per insert for each Cortex-M port,
# counted with GDB stepi under QEMU (-icount): insert_probe/probe_fw.c built
# with the port, run on a QEMU board with that core, stopped in the second
# insert_probe() call and single-stepped to its return
# (tests/qemu/count_insert.py). The figures are in docs/recorder.md ("Cost
# per port"); RV32 is measured by the bare-metal example (mcycle).
# Needs arm-none-eabi-gcc, qemu-system-arm, gdb-multiarch.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE="$ROOT/bench/recorder/insert_probe"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
# cpu | QEMU board | linker script | port header | extra flags | label
CONFIGS=(
  "cortex-m0|microbit|probe.ld|trx_port_cortex_m0.h||Cortex-M0, composed SysTick"
  "cortex-m3|mps2-an385|probe.ld|trx_port_cortex_m.h|-DTRX_PORT_TIME_SYSTICK=1|Cortex-M3, composed SysTick"
  "cortex-m4|mps2-an386|probe.ld|trx_port_cortex_m.h|-DTRX_PORT_TIME_SYSTICK=1|Cortex-M4, composed SysTick"
  "cortex-m4|mps2-an386|probe.ld|trx_port_cortex_m.h||Cortex-M4, DWT CYCCNT (QEMU reads it as 0)"
  "cortex-m4|mps2-an386|probe.ld|trx_port_cortex_m.h|-DTRX_RECORDER_LOCKFREE=1|Cortex-M4, lock-free, DWT CYCCNT"
  "cortex-m7|mps2-an500|probe.ld|trx_port_cortex_m.h|-DTRX_PORT_TIME_SYSTICK=1|Cortex-M7, composed SysTick"
  "cortex-m33|mps2-an505|probe_an505.ld|trx_port_cortex_m.h||Cortex-M33, DWT CYCCNT (QEMU reads it as 0)"
  "cortex-m33|mps2-an505|probe_an505.ld|trx_port_cortex_m.h|-DTRX_PORT_TIME_SYSTICK=1|Cortex-M33, composed SysTick"
)
TRX=${TRX:-$ROOT/build/trx}
for c in "${CONFIGS[@]}"; do
  IFS='|' read -r cpu board script port extra label <<<"$c"
  elf="$OUT/probe.elf"
  # shellcheck disable=SC2086
  arm-none-eabi-gcc -std=c99 -O2 -g -mthumb -mcpu="$cpu" -ffreestanding -nostdlib -Wall -Werror \
    -I"$ROOT/include" -I"$ROOT/recorder" -I"$ROOT/recorder/port" -DTX_ENABLE_EVENT_TRACE \
    -DTRX_RECORDER_PORT_HEADER="\"$port\"" $extra -L "$HERE" -T "$HERE/$script" "$HERE/probe_fw.c" \
    "$ROOT"/recorder/trx_*.c -lgcc -o "$elf"
  qemu-system-arm -M "$board" -kernel "$elf" -display none -monitor none -icount shift=3 -S \
    -chardev socket,id=g,path="$OUT/gdb.sock",server=on,wait=off -gdb chardev:g \
    </dev/null >/dev/null 2>&1 &
  qemu=$!
  for _ in $(seq 50); do [ -S "$OUT/gdb.sock" ] && break; sleep 0.1; done
  n=$(timeout 60 gdb-multiarch -batch -nx -x "$ROOT/tests/qemu/count_insert.py" "$elf" \
        -ex "target remote $OUT/gdb.sock" -ex "break insert_probe" -ex continue -ex continue \
        -ex count-to-return -ex "break probe_done" -ex continue \
        -ex "dump binary memory $OUT/trace.bin &probe_buffer ((char *)&probe_buffer) + sizeof probe_buffer" \
        -ex kill 2>"$OUT/gdb.err" </dev/null | sed -n 's/^insert-instructions //p') || true
  kill "$qemu" 2>/dev/null || true
  wait "$qemu" 2>/dev/null || true
  rm -f "$OUT/gdb.sock"
  # the probe's two user events must be in the buffer (the count is of a real insert)
  recorded=?
  if [ -x "$TRX" ] && [ -s "$OUT/trace.bin" ]; then
    recorded=$("$TRX" events --format csv "$OUT/trace.bin" 2>/dev/null | grep -c ',4099,' || true)
  fi
  rm -f "$OUT/trace.bin"
  printf '%-48s %-11s %3s instructions per insert (%s of 2 probe events recorded)\n' "$label" \
    "$board" "${n:-?}" "$recorded"
done
