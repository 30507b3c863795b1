#!/usr/bin/env bash
# demo_bytes.sh - bytes per event of the demo workload recorded both ways:
# trx_demo (TXTB: 48-byte header, 16 registry entries of 48 bytes, 32 bytes
# per event) against trx_demo_uia (UIA, 64-bit timestamps) and trx_demo_uia32
# (UIA, 32-bit timestamps): packet header + records + terminator.
#
# usage: bench/recorder/demo_bytes.sh [BUILD_DIR]     (default: build)
set -euo pipefail
BUILD=${1:-build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mkdir -p "$out/txtb" "$out/uia64" "$out/uia32"
"$BUILD/trx_demo" "$out/txtb" >/dev/null
"$BUILD/trx_demo_uia" "$out/uia64" >/dev/null
"$BUILD/trx_demo_uia32" "$out/uia32" >/dev/null

key() { sed -n "s/^$2=//p" "$1"; }
entries=$(key "$out/txtb/demo.truth" trace_entries)
txtb=$((48 + 16 * 48 + 32 * entries))
printf '%-34s %8s %10s %10s %8s\n' recording events bytes bytes/event vs_TXTB
printf '%-34s %8d %10d %10.2f %8s\n' "TXTB (trx_demo)" "$entries" "$txtb" \
  "$(awk -v a="$txtb" -v b="$entries" 'BEGIN { print a / b }')" "100%"
for v in uia64 uia32; do
  t="$out/$v/demo_uia.truth"
  rec=$(key "$t" records)
  used=$(key "$t" bytes_used)
  [ "$rec" = "$entries" ] || { echo "demo_bytes: $v recorded $rec events, TXTB $entries" >&2; exit 1; }
  printf '%-34s %8d %10d %10.2f %7.1f%%\n' "UIA, $(key "$t" timestamp_bits)-bit timestamps" "$rec" \
    "$used" "$(awk -v a="$used" -v b="$rec" 'BEGIN { print a / b }')" \
    "$(awk -v a="$used" -v b="$txtb" 'BEGIN { print 100 * a / b }')"
done
