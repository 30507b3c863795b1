#!/usr/bin/env bash
# run_fuzzers.sh BUILD_DIR SECONDS [FUZZER[=SECONDS] ...] - runs the given
# fuzzers of BUILD_DIR/fuzz (default: all) for SECONDS each (or their own
# =SECONDS), two at a time, on the committed seed corpora (tests/fuzz/seeds,
# made by make_seeds.sh) plus the shared corpus traces and their Intel HEX /
# S-record / ASCII-hex conversions; prints one summary line per fuzzer with
# its rate (inputs per second) and exits 1 (printing the crash file) on any
# finding. New corpus entries are kept in BUILD_DIR/fuzz-work between runs;
# findings (crash-*, oom-*, timeout-*, leak-*, slow-unit-* files, named
# after their fuzzer) in BUILD_DIR/fuzz-findings, which no run deletes:
# they stay until you remove them, and every run ends by listing them.
# Logs: BUILD_DIR/fuzz-logs/FUZZER.log (the last run of each fuzzer).
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 BUILD_DIR SECONDS [FUZZER[=SECONDS] ...]" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
seconds=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
shared=${TRX_SHARED_DIR:-$here/../../../shared}
bin=$build/fuzz
seeds=$build/fuzz-seeds
work=$build/fuzz-work
logs=$build/fuzz-logs
findings=$build/fuzz-findings
all=(fuzz_txtb fuzz_uia fuzz_uia_meta fuzz_live fuzz_ihex fuzz_srec fuzz_ascii fuzz_trxc fuzz_elf fuzz_http fuzz_decode fuzz_export fuzz_gate fuzz_segments)
requested=("$@")
[ ${#requested[@]} -gt 0 ] || requested=("${all[@]}")
fuzzers=()
declare -A limit
for r in "${requested[@]}"; do
  f=${r%%=*}
  fuzzers+=("$f")
  if [ "$f" != "$r" ]; then limit[$f]=${r#*=}; else limit[$f]=$seconds; fi
done

for f in "${fuzzers[@]}"; do
  if [ ! -x "$bin/$f" ]; then
    echo "run_fuzzers: $bin/$f is missing: build the 'fuzzers' target with -DTRX_FUZZ=ON first" >&2
    exit 2
  fi
done

# ---- seed corpora: the committed ones, plus the shared corpus (rebuilt every run; cheap)
# findings of earlier runs stay (fuzz-findings is never emptied here); only
# the logs of the fuzzers about to run are replaced
rm -rf "$seeds"
mkdir -p "$logs" "$findings"
for f in "${fuzzers[@]}"; do rm -f "$logs/$f.log"; done
for f in "${fuzzers[@]}"; do
  mkdir -p "$seeds/$f" "$work/$f"
  # its own committed seeds (regressions found by it), and the whole traces
  # of fuzz_decode for the full paths that take the same inputs
  [ -d "$here/seeds/$f" ] && cp "$here/seeds/$f"/* "$seeds/$f/"
  case $f in
    fuzz_export | fuzz_gate | fuzz_segments) cp "$here/seeds/fuzz_decode"/* "$seeds/$f/" ;;
  esac
  case $f in # the full paths read UIA too: give them the UIA seeds (incl. regressions)
    fuzz_decode | fuzz_export | fuzz_gate | fuzz_segments) cp "$here/seeds/fuzz_uia"/* "$seeds/$f/" ;;
  esac
done
have_tools=1
for tool in objcopy xxd; do
  command -v $tool >/dev/null || { echo "run_fuzzers: $tool not found: shared-corpus conversion seeds skipped"; have_tools=0; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for trace in "$shared"/corpus/*.trx; do
  [ -f "$trace" ] || continue
  name=$(basename "$trace" .trx)
  # the whole traces for the full path only (the lean decoder keeps to small ones)
  for f in fuzz_decode fuzz_export fuzz_segments; do
    [ -d "$seeds/$f" ] && cp "$trace" "$seeds/$f/shared_$name.trx"
  done
  [ $have_tools = 1 ] || continue
  # Loader seeds: the first 2 KiB of each trace (whole traces only slow the loaders down).
  head -c 2048 "$trace" > "$tmp/$name.bin"
  if [ -d "$seeds/fuzz_ihex" ]; then
    objcopy -I binary -O ihex --change-addresses 0x20000000 "$tmp/$name.bin" "$seeds/fuzz_ihex/shared_$name.hex"
  fi
  if [ -d "$seeds/fuzz_srec" ]; then
    objcopy -I binary -O srec "$tmp/$name.bin" "$seeds/fuzz_srec/shared_$name.s19"
  fi
  if [ -d "$seeds/fuzz_ascii" ]; then
    xxd -p "$tmp/$name.bin" > "$seeds/fuzz_ascii/shared_$name.txt"
  fi
  # Whole small traces as text for the full path (format detection).
  if [ -d "$seeds/fuzz_decode" ] && [ "$(wc -c < "$trace")" -le 65536 ]; then
    objcopy -I binary -O ihex "$trace" "$seeds/fuzz_decode/shared_$name.hex"
    xxd -p "$trace" > "$seeds/fuzz_decode/shared_$name.txt"
  fi
done

# ---- run, two at a time
# The full paths take whole demo-sized traces (32-128 KiB); the lean decoder
# and the loaders stay small, which keeps them at thousands of runs per second.
max_len() {
  case $1 in
    fuzz_decode | fuzz_export | fuzz_gate | fuzz_segments) echo 140000 ;;
    fuzz_txtb) echo 8192 ;;
    *) echo 16384 ;;
  esac
}
run_one() {
  local f=$1
  # Memory bounded by the input: inputs are at most 140 KB, so no single
  # allocation may pass 256 MiB and no run 1 GiB (a tick-sized array is a
  # finding); the UIA seeds go to the full paths too (both formats).
  local -a opts=(-max_total_time="${limit[$f]}" -rss_limit_mb=1024 -malloc_limit_mb=256 -timeout=30
    -max_len="$(max_len "$f")"
    -print_final_stats=1 -artifact_prefix="$findings/$f-")
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
  corpus=$(grep -o 'corp: [0-9]*' "$log" | tail -1 | sed 's/corp: //' || true) # none before a finding
  s=${limit[$f]}
  if [ "${status[$f]}" -eq 0 ]; then
    printf '%-12s ok: %s runs in %s s (%s/s), corpus %s inputs\n' "$f" "${runs:-?}" "$s" \
      "$(( ${runs:-0} / (s > 0 ? s : 1) ))" "${corpus:-?}"
  else
    failed=1
    crash=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
    printf '%-12s FAILED (exit %s) after %s runs; crash file: %s; log: %s\n' "$f" "${status[$f]}" \
      "${runs:-?}" "${crash:-none}" "$log"
    grep -m1 -E 'ERROR: |runtime error|deadly signal' "$log" || true
    # where it was (CI keeps only this output): the stack's frames, and a
    # small finding in base64 to reproduce it from the log alone
    sed -n '/ERROR: \|runtime error\|deadly signal/,$p' "$log" | grep -E '^ +#[0-9]+ ' | head -30 || true
    if [ -n "$crash" ] && [ -f "$crash" ] && [ "$(wc -c < "$crash")" -le 24000 ]; then
      echo "finding ($(wc -c < "$crash") bytes, base64):"
      base64 -w 120 "$crash"
    fi
  fi
done
# every finding kept so far, this run's and earlier ones'
kept=()
for file in "$findings"/*; do [ -f "$file" ] && kept+=("$file"); done
if [ ${#kept[@]} -gt 0 ]; then
  echo "findings kept in $findings (${#kept[@]} files, earlier runs' too; remove them when fixed):"
  for file in "${kept[@]}"; do echo "  $(basename "$file") ($(wc -c < "$file") bytes)"; done
else
  echo "findings: none in $findings"
fi
exit $failed
