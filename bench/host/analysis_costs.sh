#!/usr/bin/env bash
# analysis_costs.sh [BUILD_DIR=build] [ENTRIES=1000000] - instructions per
# trace entry of each analysis of `trx stats --json`, both modes (default
# and --compat tracex), measured with callgrind on one thread
# (TRX_STATS_SERIAL=1) over a generated trace (BUILD_DIR/gen_txtb, seed 7).
# Each row is a function's inclusive cost (itself and what it calls) divided
# by ENTRIES: the whole run, the event walk (the prepare walk or the cursor),
# all analyses (stats.c's feeds), each analysis's feed, and "stats.c itself":
# the feeds less the analyses listed (the calls, and the small feeds the
# compiler inlined into stats.c, which have no row of their own then).
# Needs valgrind (callgrind_annotate). Not a test.
set -u
build=${1:-build}
entries=${2:-1000000}
trx="$build/trx"
gen="$build/gen_txtb"
for tool in "$trx" "$gen"; do
    [ -x "$tool" ] || { echo "analysis_costs: $tool not built (cmake --build $build)"; exit 1; }
done
command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null ||
    { echo "analysis_costs: needs valgrind and callgrind_annotate"; exit 1; }
data="$build/bench-data"
mkdir -p "$data" || exit 1
trace="$data/stats_bench_$entries.trx"
[ -f "$trace" ] || "$gen" --out "$trace" --entries "$entries" --seed 7 || exit 1

# The rows: a label, then the functions whose inclusive costs it sums.
rows=(
    "timing (ISR, latency, load)|trx_timing_feed"
    "core tracker (per-core figures)|trx_core_tracker_feed"
    "inversions, correct|trx_correct_inversions_feed"
    "inversions, TraceX|trx_inversions_feed"
    "execution profile|trx_profile_feed"
    "performance, correct|trx_correct_performance_feed"
    "switches, TraceX|trx_switches_feed"
    "preemptions, TraceX|trx_preemptions_feed"
    "interrupts, TraceX|trx_interrupts_feed"
    "thread services|trx_thread_popularity_feed"
    "stack usage|trx_stack_usage_feed"
    "thread counts|trx_thread_counts_feed"
    "popular services|trx_popularity_feed"
    "FileX + NetX|trx_filex_feed trx_netx_feed"
)

# inclusive TABLE FUNCTIONS...: the sum of the functions' inclusive costs
# (each function's first row: its own; later rows are parts inlined elsewhere).
inclusive() {
    awk -v fns="$2" 'BEGIN { n = split(fns, f, " "); for (i = 1; i <= n; i++) want[f[i]] = 1 }
        /^ *[0-9,]+ \( *[0-9.]+%\) / { fn = $0; sub(/^.*%\) +/, "", fn); sub(/ .*/, "", fn); sub(/^.*:/, "", fn)
              if (fn in want && !(fn in seen)) { seen[fn] = 1; v = $1; gsub(",", "", v); s += v } }
        END { print s + 0 }' <<<"$1"
}

# measure LABEL ARGS...: one callgrind run of `trx stats ARGS`, the table.
measure() {
    local label=$1
    shift
    local out="$data/costs.$$.cg"
    TRX_STATS_SERIAL=1 valgrind --tool=callgrind --callgrind-out-file="$out" \
        "$trx" stats "$@" "$trace" >/dev/null 2>"$data/costs.$$.err" ||
        { echo "analysis_costs: trx stats $* failed (see $data/costs.$$.err)"; return; }
    local table
    table=$(callgrind_annotate --inclusive=yes --auto=no --threshold=100 "$out" 2>/dev/null)
    rm -f "$out" "$data/costs.$$.err"
    per_entry() { awk -v s="$1" -v n="$entries" 'BEGIN { printf "%7.1f", s / n }'; }
    local total walk feeds analyses=0 row name sum
    total=$(awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }' <<<"$table")
    walk=$(inclusive "$table" "from_prepare from_cursor")
    feeds=$(inclusive "$table" "correct_here correct_there tracex_here tracex_there")
    echo "$label: $entries entries, instructions per entry (inclusive)"
    printf '  %-34s %s\n' "whole run" "$(per_entry "$total")"
    printf '  %-34s %s\n' "event walk (prepare walk / cursor)" "$(per_entry "$walk")"
    printf '  %-34s %s\n' "all analyses (stats.c's feeds)" "$(per_entry "$feeds")"
    for row in "${rows[@]}"; do
        name=${row%%|*}
        sum=$(inclusive "$table" "${row#*|}")
        [ "$sum" = 0 ] && continue
        analyses=$((analyses + sum))
        printf '    %-32s %s\n' "$name" "$(per_entry "$sum")"
    done
    printf '    %-32s %s\n' "stats.c itself, inlined feeds" "$(per_entry $((feeds - analyses)))"
}

measure "correct mode" --json
measure "--compat tracex" --json --compat tracex
