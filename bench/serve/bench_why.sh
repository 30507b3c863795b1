#!/usr/bin/env bash
# bench_why.sh [ENTRIES] [BUILD] - /api/why on trx serve of a gen_txtb trace
# of ENTRIES entries (default 10 M; 100000000 for the 100 M figures, 3.2 GB
# of disk): the why index's states, interval, build time and memory (the
# server's stderr line), then the latency of /api/why (curl's total time)
# for each thread's instances near the start, the middle and the end.
set -euo pipefail
entries=${1:-10000000}
build=${2:-build}
work=${TMPDIR:-/tmp}/trx-bench-why
mkdir -p "$work"
trace=$work/gen$entries.trx
[ -f "$trace" ] || "$build/gen_txtb" --out "$trace" --entries "$entries" --wrap
"$build/trx" serve "$trace" --port 0 >"$work/url" 2>"$work/err" &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
until [ "$(wc -l <"$work/url")" -ge 1 ]; do sleep 0.01; done
url=$(head -1 "$work/url")
base=${url%%/?token=*}
token=${url#*token=}
until curl -s "$base/api/status?token=$token" | grep -q '"latency":true'; do sleep 0.1; done
echo "trace: $entries entries"
grep 'why index' "$work/err" | sed 's/^/  /'
echo "  memory: $(grep -E 'RssAnon' /proc/$pid/status | tr -s ' \t' ' ')"
echo "  /api/status (an answer from memory): $(curl -s -o /dev/null -w '%{time_total}' "$base/api/status?token=$token") s"
curl -s "$base/api/latency?token=$token" | python3 -c '
import json, sys
for t in json.load(sys.stdin)["latency"]["threads"]:
    n = t["instances"] + t["incomplete"]
    if n > 2:
        print(t["address"], t["name"].replace(" ", "_"), 1, n // 2, n - 1)' |
while read -r address name first middle last; do
  line="  $name:"
  for n in $first $middle $last; do
    s=$(curl -s -o /dev/null -w "%{time_total}" "$base/api/why?token=$token&thread=$address&instance=$n")
    line="$line #$n $(echo "$s * 1000" | bc | sed 's/\..*//') ms;"
  done
  echo "$line"
done
