#!/usr/bin/env bash
# bench_stats.sh [BUILD_DIR=build] [ENTRIES=10000000] [RUNS=5] - `trx stats
# --json` (every analysis on, output to /dev/null) on a generated trace of
# ENTRIES entries (BUILD_DIR/gen_txtb, seed 7), in the default (correct)
# mode and with --compat tracex, each also with TRX_STATS_SERIAL=1 (all
# analyses on one thread). Prints the median of RUNS runs: wall and CPU
# (user + system) seconds, entries/s on the wall time, peak RSS (includes
# the mapped trace file) and the peak anonymous memory (heap, stacks). Also
# the hostile shapes of gen_hostile at ENTRIES/10 entries. Needs GNU time.
# Not a test: nothing here fails on slowness.
set -u
build=${1:-build}
entries=${2:-10000000}
runs=${3:-5}
trx="$build/trx"
gen="$build/gen_txtb"
hostile="$build/gen_hostile"
data="$build/bench-data"
for tool in "$trx" "$gen" "$hostile"; do
    [ -x "$tool" ] || { echo "bench_stats: $tool not built (cmake --build $build)"; exit 1; }
done
/usr/bin/time -f %U true >/dev/null 2>&1 || { echo "bench_stats: needs GNU time (/usr/bin/time)"; exit 1; }
mkdir -p "$data" || exit 1
trace="$data/stats_bench_$entries.trx"
[ -f "$trace" ] || "$gen" --out "$trace" --entries "$entries" --seed 7 || exit 1

# median LIST: the middle value of the numbers given.
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# peak_anon_kib CMD...: the largest RssAnon of one run, sampled every few ms.
peak_anon_kib() {
    "$@" >/dev/null 2>&1 &
    local pid=$! peak=0 key value unit
    while kill -0 "$pid" 2>/dev/null; do
        while read -r key value unit; do
            [ "$key" = "RssAnon:" ] && [ "$value" -gt "$peak" ] && peak=$value
        done <"/proc/$pid/status" 2>/dev/null
        sleep 0.005
    done
    wait "$pid"
    echo "$peak"
}

# run LABEL COUNT FILE SERIAL ARGS...: RUNS runs of `trx stats ARGS FILE`
# (SERIAL 1: with TRX_STATS_SERIAL=1), medians. The peak anonymous memory
# (heap and stacks: one set of analyses per segment) shows what segments cost.
run() {
    local label=$1 count=$2 file=$3 serial=$4
    shift 4
    local env_set=()
    [ "$serial" = 1 ] && env_set=(TRX_STATS_SERIAL=1)
    local walls=() cpus=() rsss=() r start end
    for ((r = 0; r < runs; r++)); do
        start=$(date +%s%N)
        env "${env_set[@]}" /usr/bin/time -f "%U %S %M" -o "$data/time.txt" "$trx" stats "$@" "$file" \
            >/dev/null ||
            { echo "bench_stats: trx stats $* $file failed" >&2; return; }
        end=$(date +%s%N)
        walls+=("$(awk -v ns=$((end - start)) 'BEGIN { print ns / 1e9 }')")
        cpus+=("$(awk '{ print $1 + $2 }' "$data/time.txt")")
        rsss+=("$(awk '{ print $3 }' "$data/time.txt")")
    done
    local wall cpu rss anon
    wall=$(median "${walls[@]}")
    cpu=$(median "${cpus[@]}")
    rss=$(median "${rsss[@]}")
    anon=$(peak_anon_kib env "${env_set[@]}" "$trx" stats "$@" "$file")
    printf '  %-34s wall %6.3f s  cpu %6.3f s  %7.2f M entries/s  peak RSS %6.1f MiB  anon %6.1f MiB\n' \
        "$label" "$wall" "$cpu" "$(awk -v n="$count" -v w="$wall" 'BEGIN { print n / w / 1e6 }')" \
        "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')" "$(awk -v k="$anon" 'BEGIN { print k / 1024 }')"
}

# info_scan: the median wall time of `trx info` (its full scan of the entries) on the same file.
info_scan() {
    local walls=() r start end
    for ((r = 0; r < runs; r++)); do
        start=$(date +%s%N)
        "$trx" info "$trace" >/dev/null
        end=$(date +%s%N)
        walls+=("$(awk -v ns=$((end - start)) 'BEGIN { print ns / 1e9 }')")
    done
    median "${walls[@]}"
}

scan=$(info_scan)
printf 'trx info (full scan) on the same file: %.3f s, %.1f M entries/s\n' "$scan" \
    "$(awk -v n="$entries" -v w="$scan" 'BEGIN { print n / w / 1e6 }')"
echo "trx stats --json on $entries generated entries (median of $runs runs):"
run "correct, segments (--jobs default)" "$entries" "$trace" 0 --json
for jobs in 1 2 4 8; do
    run "correct, --jobs $jobs" "$entries" "$trace" 0 --json --jobs "$jobs"
done
TRX_STATS_FANOUT=1 run "correct, one walk split by kind" "$entries" "$trace" 0 --json
run "correct, one thread" "$entries" "$trace" 1 --json
run "--compat tracex, segments" "$entries" "$trace" 0 --json --compat tracex
run "--compat tracex, --jobs 1" "$entries" "$trace" 0 --json --compat tracex --jobs 1

small=$((entries / 10))
echo "hostile shapes (gen_hostile) at $small entries:"
for shape in isr-resume-new running-unknown new-contexts open-inversions objects-window distinct-ids same-address; do
    f="$data/hostile_${shape}_$small.trx"
    [ -f "$f" ] || "$hostile" --shape "$shape" --out "$f" --entries "$small" 2>/dev/null || continue
    run "$shape" "$small" "$f" 0 --json
    run "$shape --compat tracex" "$small" "$f" 0 --json --compat tracex
done
