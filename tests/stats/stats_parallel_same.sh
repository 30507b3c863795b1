#!/usr/bin/env bash
# stats_parallel_same.sh GEN_TXTB GEN_HOSTILE TRX - `trx stats` of a TXTB
# trace of 65,536 entries or more runs on segments of the trace, one thread
# each (--jobs: how many), merged; with TRX_STATS_FANOUT set, one walk whose
# analyses are split between two threads; with TRX_STATS_SERIAL set (or with
# --jobs 1) one walk on one thread. Every way must print
# the same bytes, text and JSON, in both modes, on generated traces (single-
# and 2-core, wrapped big-endian) and on hostile shapes (TraceX's inversion
# look-ahead, many unknown threads), all above the threshold; and `trx
# latency` on segments (--jobs 2, 3) as on one walk (instances, user
# intervals, user intervals paired by a field), and `trx check` with
# response rules and `trx diff` (the statistics and the latency in one
# walk on segments) as on one walk each. With
# TRX_TEST_SPARSE set (the sanitizer runs) the JSON only, segments against
# one walk (no --jobs 3, no fan-out), latency's instances only, check and
# diff on one trace.
set -euo pipefail
gen=$1 hostile=$2 trx=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$gen" --out "$dir/plain.trx" --entries 150000 --seed 11
"$gen" --out "$dir/smp.trx" --entries 150000 --seed 12 --cores 2
"$gen" --out "$dir/wrap.trx" --entries 150000 --seed 13 --wrap --big-endian --timer down16
"$hostile" --shape open-inversions --out "$dir/inv.trx" --entries 100000
"$hostile" --shape new-contexts --out "$dir/ctx.trx" --entries 100000
formats=("" "--json")
latency_opts=("" "--worst 1" "--from 1 --to 2" "--from 69:1 --to 68:1")
sparse=false
if [ "${TRX_TEST_SPARSE:-1}" -gt 1 ]; then
  formats=("--json")
  latency_opts=("")
  sparse=true
fi
status=0
for f in "$dir"/*.trx; do
  for mode in "" "--compat tracex"; do
    for fmt in "${formats[@]}"; do
      # shellcheck disable=SC2086
      "$trx" stats $mode $fmt "$f" > "$dir/parallel.out"
      # shellcheck disable=SC2086
      TRX_STATS_SERIAL=1 "$trx" stats $mode $fmt "$f" > "$dir/serial.out"
      # shellcheck disable=SC2086
      "$trx" stats --jobs 1 $mode $fmt "$f" > "$dir/jobs1.out"
      if $sparse; then # the sanitizer runs: segments against one walk only
        cp "$dir/serial.out" "$dir/jobs3.out"
        cp "$dir/serial.out" "$dir/fanout.out"
      else
        # shellcheck disable=SC2086
        "$trx" stats --jobs 3 $mode $fmt "$f" > "$dir/jobs3.out"
        # shellcheck disable=SC2086
        TRX_STATS_FANOUT=1 "$trx" stats $mode $fmt "$f" > "$dir/fanout.out"
      fi
      if cmp -s "$dir/parallel.out" "$dir/serial.out" && cmp -s "$dir/parallel.out" "$dir/jobs1.out" &&
        cmp -s "$dir/parallel.out" "$dir/jobs3.out" && cmp -s "$dir/parallel.out" "$dir/fanout.out"; then
        echo "ok: $(basename "$f") ${mode:-(correct)} ${fmt:-(text)}"
      else
        echo "FAIL: $(basename "$f") ${mode:-(correct)} ${fmt:-(text)}: serial and parallel differ"
        for v in parallel jobs1 jobs3 fanout; do
          diff "$dir/serial.out" "$dir/$v.out" | head -5 | sed "s/^/$v: /"
        done
        status=1
      fi
    done
  done
done
# trx latency: on segments (--jobs 2, 3; the default) as on one walk (--jobs 1)
for f in "$dir"/*.trx; do
  for opts in "${latency_opts[@]}"; do
    # shellcheck disable=SC2086
    "$trx" latency --json --jobs 1 $opts "$f" > "$dir/lat1.out"
    same=true
    for jobs in 2 3; do
      # shellcheck disable=SC2086
      "$trx" latency --json --jobs $jobs $opts "$f" > "$dir/latn.out"
      cmp -s "$dir/lat1.out" "$dir/latn.out" || same=false
    done
    if $same; then
      echo "ok: latency $(basename "$f") ${opts:-(instances)}"
    else
      echo "FAIL: latency $(basename "$f") ${opts:-(instances)}: one walk and segments differ"
      diff "$dir/lat1.out" "$dir/latn.out" | head -5
      status=1
    fi
  done
done
# trx check with max-response rules and trx diff: the statistics and the
# instances in one walk on segments (the latency beside the statistics), as
# each on one walk (--jobs 1); a check's verdicts, evidence and exit status
check_rules=(max-response=100000000 "max-response=1000" no-priority-inversion max-latency=1000)
check_traces=("$dir"/*.trx)
$sparse && check_traces=("$dir/smp.trx") # the sanitizer runs: one trace (threads all the same)
for f in "${check_traces[@]}"; do
  set +e
  "$trx" check --json --jobs 1 "$f" "${check_rules[@]}" > "$dir/check1.out" 2>&1
  rc1=$?
  "$trx" check --json --jobs 2 "$f" "${check_rules[@]}" > "$dir/check2.out" 2>&1
  rc2=$?
  set -e
  "$trx" diff --json --jobs 1 "$f" "$dir/plain.trx" > "$dir/diff1.out"
  "$trx" diff --json --jobs 2 "$f" "$dir/plain.trx" > "$dir/diff2.out"
  if [ "$rc1" = "$rc2" ] && cmp -s "$dir/check1.out" "$dir/check2.out" &&
    cmp -s "$dir/diff1.out" "$dir/diff2.out"; then
    echo "ok: check and diff $(basename "$f") (exit $rc1)"
  else
    echo "FAIL: check or diff $(basename "$f"): one walk and segments differ (exit $rc1 / $rc2)"
    diff "$dir/check1.out" "$dir/check2.out" | head -5
    diff "$dir/diff1.out" "$dir/diff2.out" | head -5
    status=1
  fi
done
exit $status
