#!/usr/bin/env bash
# bench_serve.sh [ENTRIES] [BUILD] - trx serve on a gen_txtb trace of ENTRIES
# entries (default 10 M; 100000000 for the 100 M figures, 3.2 GB of disk):
# the time to the URL and to the first answer, the overview's build time and
# rate, the server's anonymous memory (RssAnon) once the overview and the
# statistics are done, and the latency of /api/view at each zoom level from
# the whole span down to single events (median of 5, at 5 places each).
set -euo pipefail
entries=${1:-10000000}
build=${2:-build}
work=${TMPDIR:-/tmp}/trx-bench-serve
mkdir -p "$work"
trace=$work/gen$entries.trx
[ -f "$trace" ] || "$build/gen_txtb" --out "$trace" --entries "$entries" --wrap
start=$(date +%s.%N)
"$build/trx" serve "$trace" --port 0 >"$work/url" 2>"$work/err" &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
until [ "$(wc -l <"$work/url")" -ge 1 ]; do sleep 0.01; done # the whole first line
url=$(head -1 "$work/url")
t_url=$(echo "$(date +%s.%N) - $start" | bc)
base=${url%%/?token=*}
token=${url#*token=}
curl -s "$base/api/status?token=$token" >/dev/null
t_first=$(echo "$(date +%s.%N) - $start" | bc)
peak=0 # the largest RssAnon while the overview and the statistics are built
until curl -s "$base/api/status?token=$token" | grep -q '"done":true,"stats":true'; do
  anon=$(awk '/RssAnon/ { print $2 }' /proc/$pid/status)
  [ "$anon" -gt "$peak" ] && peak=$anon
  sleep 0.005
done
t_done=$(echo "$(date +%s.%N) - $start" | bc)
status=$(curl -s "$base/api/status?token=$token")
span=$(echo "$status" | sed 's/.*"ready_ticks":\([0-9]*\).*/\1/')
echo "trace: $entries entries, $(stat -c %s "$trace") bytes"
grep -E "overview|statistics in" "$work/err" | sed "s/^/  /"
echo "  URL printed after ${t_url} s; first answer after ${t_first} s; overview and statistics done after ${t_done} s"
echo "  memory: $(grep -E 'RssAnon|RssFile' /proc/$pid/status | tr -s ' \t' ' ' | tr '\n' ' ')(peak RssAnon while building: $peak kB)"
# sweep QUERY WHOLE UNIT SMALLEST: /api/view latency (median of 5 places x 5
# tries) for views of WHOLE, WHOLE/10 ... down to below SMALLEST, in UNIT
# (QUERY: the axis part of the query, empty for ticks).
sweep() {
  local query=$1 whole=$2 unit=$3 smallest=$4 width=$2 place k from to mode med times
  while :; do
    times=()
    for place in 1 3 5 7 9; do
      from=$(echo "($whole - $width) * $place / 10" | bc)
      to=$(echo "$from + $width" | bc)
      for k in 1 2 3 4 5; do
        times+=("$(curl -s -o "$work/view" -w '%{time_total}' "$base/api/view?token=$token${query}&from=$from&to=$to&cols=1250")")
      done
    done
    mode=$(grep -o '"mode":"[a-z]*"' "$work/view")
    med=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 13p)
    printf '    width %14s %s: %6.1f ms  %s, %s bytes\n' "$width" "$unit" "$(echo "$med * 1000" | bc)" "$mode" "$(stat -c %s "$work/view")"
    [ "$width" -lt "$smallest" ] && break
    width=$((width / 10))
  done
}
echo "  /api/view latency (ms, median of 5 places x 5 tries) by view width:"
sweep "" "$span" ticks 2000
# the sequential mode: views by event number
events=$(echo "$status" | sed 's/.*"total":\([0-9]*\).*/\1/')
echo "  /api/view?axis=index latency (sequential mode; ms, median of 5 places x 5 tries) by view width:"
sweep "&axis=index" "$((events - 1))" events 200
