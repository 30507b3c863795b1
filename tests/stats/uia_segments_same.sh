#!/usr/bin/env bash
# uia_segments_same.sh GEN_SYSBIOS TRX - `trx stats` of a SYS/BIOS
# capture of 131,072 records or more runs on segments (--jobs: how many),
# each counting events per id, pairing UIABenchmark starts and stops and
# keeping the target's Load reports beside the statistics, joined in trace
# order: every --jobs (1 to 4), TRX_STATS_SERIAL and TRX_STATS_FANOUT print
# the same bytes, text and JSON, both modes, on a gen_sysbios --benchmarks
# capture whose durations have complete, incomplete and unmatched ones and
# whose Load series is not empty (checked first: the comparison means
# something). `trx latency` likewise (--jobs 1 to 4: the tasks' instances,
# the worst ones). TRX_TEST_SPARSE (the sanitizer runs): JSON, default mode only.
set -euo pipefail
gen=$1 trx=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$gen" --out "$dir/sb.uia" --records 300000 --benchmarks >/dev/null
meta=(--uia-meta "$dir/sb.uia.xml")
"$trx" stats --json --jobs 1 "${meta[@]}" "$dir/sb.uia" >"$dir/one.json"
python3 - "$dir/one.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["durations"]
assert len(rows) == 3, rows
for key in ("count", "incomplete", "unmatched_stops"):
    assert all(r[key] > 0 for r in rows), (key, rows)
assert len(d["target_load"]["cpu"]) > 50, d["target_load"]
print("durations:", [(r["count"], r["incomplete"], r["unmatched_stops"]) for r in rows],
      "load reports:", len(d["target_load"]["cpu"]))
PY
formats=("" "--json")
modes=("" "--compat tracex")
runs=("--jobs 2" "--jobs 3" "--jobs 4" "serial" "fanout")
if [ "${TRX_TEST_SPARSE:-1}" -gt 1 ]; then
  formats=("--json")
  modes=("")
  runs=("--jobs 2" "--jobs 3")
fi
status=0
for mode in "${modes[@]}"; do
  for fmt in "${formats[@]}"; do
    # shellcheck disable=SC2086
    "$trx" stats --jobs 1 $mode $fmt "${meta[@]}" "$dir/sb.uia" >"$dir/one.out"
    for run in "${runs[@]}"; do
      case $run in
      serial) TRX_STATS_SERIAL=1 "$trx" stats $mode $fmt "${meta[@]}" "$dir/sb.uia" >"$dir/n.out" ;;
      fanout) TRX_STATS_FANOUT=1 "$trx" stats $mode $fmt "${meta[@]}" "$dir/sb.uia" >"$dir/n.out" ;;
      *) "$trx" stats $run $mode $fmt "${meta[@]}" "$dir/sb.uia" >"$dir/n.out" ;;
      esac
      if cmp -s "$dir/one.out" "$dir/n.out"; then
        echo "ok: $run ${mode:-(correct)} ${fmt:-(text)}"
      else
        echo "FAIL: $run ${mode:-(correct)} ${fmt:-(text)}: differs from one walk"
        diff "$dir/one.out" "$dir/n.out" | head -6
        status=1
      fi
    done
  done
done
# trx latency: on segments (--jobs 2-4) as on one walk (--jobs 1)
"$trx" latency --json --jobs 1 "${meta[@]}" "$dir/sb.uia" >"$dir/lat1.out"
grep -q '"instances": [1-9]' "$dir/lat1.out" || { echo "FAIL: no instances in the latency"; exit 1; }
for jobs in 2 3 4; do
  "$trx" latency --json --jobs $jobs "${meta[@]}" "$dir/sb.uia" >"$dir/latn.out"
  if cmp -s "$dir/lat1.out" "$dir/latn.out"; then
    echo "ok: latency --jobs $jobs"
  else
    echo "FAIL: latency --jobs $jobs: differs from one walk"
    diff "$dir/lat1.out" "$dir/latn.out" | head -6
    status=1
  fi
done
exit $status
