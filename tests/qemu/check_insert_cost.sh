#!/usr/bin/env bash
# check_insert_cost.sh INSERT_INSTRUCTIONS_SH TRX - runs the per-port insert
# count under QEMU and checks each of its 8 lines: a count between 10 and 400
# instructions and both probe events recorded. Exit 77 (ctest SKIP) only when
# arm-none-eabi-gcc, qemu-system-arm or gdb-multiarch is not installed.
set -u
script=$1 trx=$2
for tool in arm-none-eabi-gcc qemu-system-arm gdb-multiarch; do
  command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool not installed (.ci/run installs it)"; exit 77; }
done
out=$(TRX="$trx" bash "$script" 2>&1)
echo "$out"
lines=$(echo "$out" | grep -c "instructions per insert")
bad=$(echo "$out" | grep "instructions per insert" |
  awk '{ for (i = 1; i <= NF; i++) if ($i == "instructions") n = $(i - 1);
         if (!(n ~ /^[0-9]+$/) || n < 10 || n > 400 || $0 !~ /\(2 of 2 probe events recorded\)/) print }')
if [ "$lines" -ne 8 ] || [ -n "$bad" ]; then
  echo "FAIL: $lines port lines (want 8); bad: $bad"
  exit 1
fi
echo "ok: 8 ports, every insert counted and recorded"
