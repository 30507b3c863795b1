#!/usr/bin/env bash
# bench_views.sh [BUILD_DIR=build] [ENTRIES=2000000] - the picture-making
# commands on a large trace: `trx report` and `trx export --to` perfetto,
# chrome-json, csv and ctf on a wrapped synthetic trace of ENTRIES entries
# (BUILD_DIR/gen_txtb; ~5 % more events with TraceX's RUNNING events), best
# of 3 runs each: wall time, output size, bytes per event, peak anonymous
# memory (RssAnon: heap and stacks, not the mapped input), the latter also at
# ENTRIES/4 to show it does not grow with the trace. Then, when node,
# chromium and tests/browser/node_modules are there, the report's first
# paint in headless Chromium (tests/browser/report_test.js --big).
# Not a test: nothing here fails on slowness.
set -u
build=${1:-build}
entries=${2:-2000000}
runs=3
trx="$build/trx"
gen="$build/gen_txtb"
data="$build/bench-data"
here=$(cd "$(dirname "$0")" && pwd)

for tool in "$trx" "$gen"; do
    [ -x "$tool" ] || { echo "bench_views: $tool not built (cmake --build $build)"; exit 1; }
done
mkdir -p "$data" || exit 1
now_ns() { date +%s%N; }

# peak_anon CMD...: runs CMD once, sampling RssAnon (KiB) every 2 ms; prints MiB.
peak_anon() {
    "$@" >/dev/null 2>&1 &
    local pid=$! peak=0 key value unit
    while kill -0 "$pid" 2>/dev/null; do
        while read -r key value unit; do
            [ "$key" = "RssAnon:" ] && [ "$value" -gt "$peak" ] && peak=$value
        done 2>/dev/null <"/proc/$pid/status"
        sleep 0.002
    done
    wait "$pid"
    awk -v k="$peak" 'BEGIN { printf "%.1f", k / 1024 }'
}

# bench LABEL EVENTS OUT CMD...: best wall time of $runs, size of OUT (file or directory).
bench() {
    local label=$1 events=$2 out=$3
    shift 3
    local best="" r start ns
    for ((r = 0; r < runs; r++)); do
        rm -rf "$out"
        start=$(now_ns)
        "$@" >/dev/null 2>"$data/err.txt" || { echo "  $label FAILED: $(head -c 200 "$data/err.txt")"; return; }
        ns=$(($(now_ns) - start))
        [ -z "$best" ] || [ "$ns" -lt "$best" ] && best=$ns
    done
    local size anon
    size=$(du -sb "$out" | cut -f1)
    anon=$(peak_anon "$@")
    printf '  %-22s %6.2f s  %10d bytes  %5.1f bytes/event  %5.2f M events/s  anon %6s MiB\n' \
        "$label" "$(awk -v ns="$best" 'BEGIN { print ns / 1e9 }')" "$size" \
        "$(awk -v s="$size" -v n="$events" 'BEGIN { print s / n }')" \
        "$(awk -v n="$events" -v ns="$best" 'BEGIN { print n / (ns / 1e9) / 1e6 }')" "$anon"
}

run_size() {
    local n=$1 file="$data/views_$1.trx"
    "$gen" --out "$file" --entries "$n" --wrap --seed 42 || { echo "gen_txtb failed"; exit 1; }
    local events
    events=$("$trx" stats --json "$file" | sed -n 's/.*"total_events": \([0-9]*\).*/\1/p' | head -1)
    echo "== $n entries, $events events (wrapped synthetic trace)"
    bench "report" "$events" "$data/views.html" "$trx" report "$file" -o "$data/views.html"
    bench "export perfetto" "$events" "$data/views.pftrace" "$trx" export --to perfetto "$file" -o "$data/views.pftrace"
    bench "export chrome-json" "$events" "$data/views.json" "$trx" export --to chrome-json "$file" -o "$data/views.json"
    bench "export csv" "$events" "$data/views.csv" "$trx" export --to csv "$file" -o "$data/views.csv"
    bench "export ctf" "$events" "$data/views_ctf" "$trx" export --to ctf "$file" -o "$data/views_ctf"
}

echo "trx report/export benchmark: $(uname -m), $(nproc) cores, best of $runs runs; build $build"
run_size $((entries / 4))
run_size "$entries"

browser="$here/../../tests/browser"
if command -v node >/dev/null && command -v chromium >/dev/null && [ -d "$browser/node_modules/playwright-core" ]; then
    echo "== first paint in headless Chromium"
    node "$browser/report_test.js" "$trx" "$(command -v chromium)" "$data/browser" \
        --big "$data/views_$entries.trx" | grep -v '^ok$' | sed 's/^/  /'
else
    echo "(first paint not measured: needs node, chromium and tests/browser/node_modules)"
fi
