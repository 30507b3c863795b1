#!/usr/bin/env bash
# hostile_linear.sh GEN_HOSTILE TRX ENTRIES - writes each hostile trace shape
# with ENTRIES entries and runs `trx stats --json` on it in both modes and
# `trx events` once; each run must succeed within 90 s (a quadratic analysis
# needs minutes at this size; a linear one, a second or two even under ASan).
set -euo pipefail
gen=$1 trx=$2 n=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
status=0
for shape in isr-resume-new running-unknown new-contexts open-inversions objects-window distinct-ids \
  same-address; do
  f="$dir/$shape.trx"
  "$gen" --shape "$shape" --out "$f" --entries "$n"
  for mode in "" "--compat tracex"; do
    start=$(date +%s)
    # shellcheck disable=SC2086
    if ! timeout 90 "$trx" stats --json $mode "$f" > "$dir/out.json"; then
      echo "FAIL: $shape stats $mode did not finish in 90 s (or failed)"
      status=1
      continue
    fi
    grep -q '"performance"' "$dir/out.json" || { echo "FAIL: $shape: no statistics"; status=1; }
    echo "ok: $shape stats ${mode:-(correct)} $(( $(date +%s) - start )) s"
  done
  timeout 90 "$trx" events --format jsonl "$f" | tail -1 > /dev/null || { echo "FAIL: $shape events"; status=1; }
done
exit $status
