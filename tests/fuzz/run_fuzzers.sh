#!/usr/bin/env bash
# run_fuzzers.sh BUILD_DIR SECONDS - builds seed corpora (the corpus traces,
# their Intel HEX / S-record / ASCII-hex conversions, hand-written seeds),
# runs every fuzzer of BUILD_DIR/fuzz for SECONDS each, two at a time, prints
# one summary line per fuzzer and exits 1 (printing the crash file) on any
# finding. New corpus entries are kept in BUILD_DIR/fuzz-work between runs.
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 BUILD_DIR SECONDS" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
seconds=$2
here=$(cd "$(dirname "$0")" && pwd)
shared=${TRX_SHARED_DIR:-$here/../../../shared}
bin=$build/fuzz
seeds=$build/fuzz-seeds
work=$build/fuzz-work
logs=$build/fuzz-logs
fuzzers=(fuzz_ihex fuzz_srec fuzz_ascii fuzz_decode fuzz_trxc fuzz_export)

for f in "${fuzzers[@]}"; do
  if [ ! -x "$bin/$f" ]; then
    echo "run_fuzzers: $bin/$f is missing: build the 'fuzzers' target with -DTRX_FUZZ=ON first" >&2
    exit 2
  fi
done

# ---- seed corpora (rebuilt every run; cheap)
rm -rf "$seeds" "$logs"
mkdir -p "$logs"
for f in "${fuzzers[@]}"; do mkdir -p "$seeds/$f" "$work/$f"; done
have_tools=1
for tool in objcopy xxd; do
  command -v $tool >/dev/null || { echo "run_fuzzers: $tool not found: conversion seeds skipped"; have_tools=0; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for trace in "$shared"/corpus/*.trx; do
  [ -f "$trace" ] || continue
  name=$(basename "$trace" .trx)
  cp "$trace" "$seeds/fuzz_decode/$name.trx"
  cp "$trace" "$seeds/fuzz_export/$name.trx"
  [ $have_tools = 1 ] || continue
  # Loader seeds: the first 2 KiB of each trace (whole traces only slow the loaders down).
  head -c 2048 "$trace" > "$tmp/$name.bin"
  objcopy -I binary -O ihex --change-addresses 0x20000000 "$tmp/$name.bin" "$seeds/fuzz_ihex/$name.hex"
  objcopy -I binary -O ihex --change-addresses 0x18000 "$tmp/$name.bin" "$seeds/fuzz_ihex/$name.seg.hex"
  objcopy -I binary -O srec "$tmp/$name.bin" "$seeds/fuzz_srec/$name.s19"
  objcopy -I binary -O srec --srec-len=32 --srec-forceS3 --change-addresses 0x20000000 \
    "$tmp/$name.bin" "$seeds/fuzz_srec/$name.s3"
  xxd -p "$tmp/$name.bin" > "$seeds/fuzz_ascii/$name.txt"
  # Whole small traces as text for the decoder (format detection path).
  if [ "$(wc -c < "$trace")" -le 65536 ]; then
    objcopy -I binary -O ihex "$trace" "$seeds/fuzz_decode/$name.hex"
    objcopy -I binary -O srec "$trace" "$seeds/fuzz_decode/$name.srec"
    xxd -p "$trace" > "$seeds/fuzz_decode/$name.txt"
  fi
done
# Hand-written seeds: every record type and a few separators.
printf ':020000021200EA\r\n:0200040055AAFB\r\n:0400000300003800C1\r\n:04000005000000CD2A\r\n:00000001FF\r\n' \
  > "$seeds/fuzz_ihex/types.hex"
printf ':02000004FFFFFC\n:01000000AB54\n:0100000011EE:0100010022DC\n' > "$seeds/fuzz_ihex/linear.hex"
printf 'S00F000068656C6C6F202020202000003C\nS111003848656C6C6F20776F726C642E0A0042\nS5030003F9\nS9030000FC\n' \
  > "$seeds/fuzz_srec/hello.s19"
printf 'S2080123450102030484\nS30900000010AABBCCDDD8\nS604000002F9\nS804000000FB\n' > "$seeds/fuzz_srec/s2s3.srec"
printf '54 58 54 42\r\n\tab cd EF 01\n0203\n' > "$seeds/fuzz_ascii/spaced.txt"
printf 'comment line\nStart\n4096,Phase,PH,(255,0,0),(0,0,0),Seq,Magic,Id,Not\n5000, Marker ,MK,( 1, 2, 3),(4,5,6),a,b,c,d\r\nEnd\n' \
  > "$seeds/fuzz_trxc/good.trxc"
printf 'Start\n4096,Name,TOOLONG,(1,2,3),(4,5,6),a,b,c,d\nEnd\n' > "$seeds/fuzz_trxc/bad.trxc"

# ---- run, two at a time
# Whole demo-sized traces (32-128 KiB) fit; bigger seeds are cut, which keeps
# the decoder target at hundreds of runs per second instead of tens.
max_len() { case $1 in fuzz_decode | fuzz_export) echo 140000 ;; *) echo 65536 ;; esac; }
run_one() {
  local f=$1
  local -a opts=(-max_total_time="$seconds" -rss_limit_mb=2048 -timeout=30 -max_len="$(max_len "$f")"
    -print_final_stats=1 -artifact_prefix="$logs/$f-")
  "$bin/$f" "${opts[@]}" "$work/$f" "$seeds/$f" > "$logs/$f.log" 2>&1
}
declare -A status
pending=("${fuzzers[@]}")
while [ ${#pending[@]} -gt 0 ]; do
  batch=("${pending[@]:0:2}")
  pending=("${pending[@]:2}")
  declare -A pids=()
  for f in "${batch[@]}"; do
    run_one "$f" &
    pids[$f]=$!
  done
  for f in "${batch[@]}"; do
    if wait "${pids[$f]}"; then status[$f]=0; else status[$f]=$?; fi
  done
  unset pids
done

# ---- report
failed=0
for f in "${fuzzers[@]}"; do
  log=$logs/$f.log
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  corpus=$(grep -o 'corp: [0-9]*' "$log" | tail -1 | sed 's/corp: //')
  if [ "${status[$f]}" -eq 0 ]; then
    printf '%-12s ok: %s runs in %s s (%s/s), corpus %s inputs\n' "$f" "${runs:-?}" "$seconds" \
      "$(( ${runs:-0} / (seconds > 0 ? seconds : 1) ))" "${corpus:-?}"
  else
    failed=1
    crash=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
    printf '%-12s FAILED (exit %s) after %s runs; crash file: %s; log: %s\n' "$f" "${status[$f]}" \
      "${runs:-?}" "${crash:-none}" "$log"
    grep -m1 -E 'ERROR: |runtime error|deadly signal' "$log" || true
  fi
done
exit $failed
