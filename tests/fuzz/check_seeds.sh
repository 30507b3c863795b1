#!/usr/bin/env bash
# check_seeds.sh TRX SEED_TRACES SEEDS_DIR WORK - the committed fuzz seed
# corpora are what they claim: the binary traces are exactly what
# SEED_TRACES writes today (else run make_seeds.sh and commit), and every
# seed except the hand-written fragments (hand_*) is a trace `trx info`
# opens, read in its directory's format.
set -u
trx=$1 gen=$2 seeds=$3 work=$4
rm -rf "$work"
mkdir -p "$work"
fail=0
"$gen" "$work" || { echo "seed_traces failed"; exit 1; }
for f in "$work"/*.trx; do
  name=$(basename "$f")
  if ! cmp -s "$f" "$seeds/fuzz_txtb/$name"; then
    echo "fuzz_txtb/$name differs from what seed_traces writes (run tests/fuzz/make_seeds.sh)"
    fail=1
  fi
done
for f in "$seeds"/fuzz_txtb/*; do
  [ -f "$work/$(basename "$f")" ] || { echo "fuzz_txtb/$(basename "$f") is no longer written"; fail=1; }
done
count=0
for pair in fuzz_txtb:bin fuzz_uia:bin fuzz_decode:auto fuzz_segments:auto fuzz_ihex:ihex fuzz_srec:srec fuzz_ascii:ascii; do
  dir=${pair%%:*} format=${pair##*:}
  for f in "$seeds/$dir"/*; do
    case $(basename "$f") in hand_*) continue ;; esac
    if ! "$trx" info --input-format "$format" "$f" >/dev/null 2>"$work/err"; then
      echo "$dir/$(basename "$f"): $(cat "$work/err")"
      fail=1
    fi
    count=$((count + 1))
  done
done
[ "$count" -ge 40 ] || { echo "only $count seeds"; fail=1; }
[ $fail = 0 ] && echo "check_seeds: $count seeds open; binary seeds up to date"
exit $fail
