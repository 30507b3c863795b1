#!/usr/bin/env bash
# check_insert_cost.sh INSERT_INSTRUCTIONS_SH TRX - runs the per-port insert
# count under QEMU and checks each of its 8 lines: the count within about 5 %
# of what each port measured and both probe events recorded. A missing
# arm-none-eabi-gcc, qemu-system-arm or gdb-multiarch is a failure (exit 77,
# a ctest SKIP, only with TRX_ALLOW_MISSING_TOOLS=1).
set -u
script=$1 trx=$2
for tool in arm-none-eabi-gcc qemu-system-arm gdb-multiarch; do
  command -v "$tool" >/dev/null 2>&1 || {
    [ "${TRX_ALLOW_MISSING_TOOLS:-0}" = 1 ] && { echo "SKIP: $tool not installed (TRX_ALLOW_MISSING_TOOLS=1)"; exit 77; }
    echo "FAIL: $tool not installed (tools/check_test_deps.sh installs it)" >&2
    exit 1
  }
done
out=$(TRX="$trx" bash "$script" 2>&1)
echo "$out"
lines=$(echo "$out" | grep -c "instructions per insert")
# Each port's count near what was measured (2026-11-24, docs/recorder.md):
# M0 73, composed SysTick 57-58, DWT CYCCNT 30, lock-free 122; about +-5 %.
bad=$(echo "$out" | grep "instructions per insert" |
  awk '{ for (i = 1; i <= NF; i++) if ($i == "instructions") n = $(i - 1);
         lo = 0; hi = 0;
         if ($0 ~ /Cortex-M0,/) { lo = 70; hi = 77 }
         else if ($0 ~ /lock-free/) { lo = 116; hi = 128 }
         else if ($0 ~ /DWT CYCCNT/) { lo = 28; hi = 32 }
         else if ($0 ~ /composed SysTick/) { lo = 55; hi = 61 }
         if (!(n ~ /^[0-9]+$/) || n < lo || n > hi || $0 !~ /\(2 of 2 probe events recorded\)/)
           print $0 " (bounds " lo "-" hi ")" }')
if [ "$lines" -ne 8 ] || [ -n "$bad" ]; then
  echo "FAIL: $lines port lines (want 8); bad: $bad"
  exit 1
fi
echo "ok: 8 ports, every insert counted and recorded"
