#!/usr/bin/env bash
# run_bench.sh [BUILD_DIR=build] [ENTRIES=10000000] - host-tool benchmark.
# Generates a wrapped synthetic TXTB trace of ENTRIES entries (one of 1 M
# entries, to show that memory does not grow with the trace, and a
# big-endian 16-bit down-counting one of ENTRIES entries) with
# BUILD_DIR/gen_txtb, then times `trx info` (full scan),
# `trx events --format csv` and `trx dump` (output to /dev/null), best of 3
# runs each, and prints entries/s and peak RSS; then the raw-scan
# micro-benchmark (BUILD_DIR/bench_scan) and, if installed, tracex_parser.
# Not a test: nothing here fails on slowness.
set -u
build=${1:-build}
entries=${2:-10000000}
runs=3
trx="$build/trx"
gen="$build/gen_txtb"
scan="$build/bench_scan"
data="$build/bench-data"

for tool in "$trx" "$gen"; do
    [ -x "$tool" ] || { echo "run_bench: $tool not built (cmake --build $build)"; exit 1; }
done
mkdir -p "$data" || exit 1
have_gnu_time=0
/usr/bin/time -f %M true >/dev/null 2>&1 && have_gnu_time=1

# now_ns: monotonic-enough wall clock in nanoseconds.
now_ns() { date +%s%N; }

# measure LABEL ENTRIES FILE CMD...: best wall time of $runs runs, peak RSS.
measure() {
    local label=$1 count=$2 file=$3
    shift 3
    local best="" rss_max=0 r start end ns rss
    for ((r = 0; r < runs; r++)); do
        start=$(now_ns)
        if [ "$have_gnu_time" = 1 ]; then
            /usr/bin/time -f %M -o "$data/rss.txt" "$@" "$file" >/dev/null 2>"$data/err.txt"
        else
            "$@" "$file" >/dev/null 2>"$data/err.txt"
        fi
        local status=$?
        end=$(now_ns)
        if [ $status -ne 0 ]; then
            printf '  %-26s FAILED (exit %d): %s\n' "$label" $status "$(head -c 200 "$data/err.txt" | tr '\n' ' ')"
            return
        fi
        ns=$((end - start))
        [ -z "$best" ] || [ "$ns" -lt "$best" ] && best=$ns
        if [ "$have_gnu_time" = 1 ]; then
            rss=$(tail -n 1 "$data/rss.txt")
            [ "$rss" -gt "$rss_max" ] && rss_max=$rss
        fi
    done
    local anon rate
    anon=$(peak_anon_kib "$file" "$@")
    rate=$(awk -v n="$count" -v ns="$best" 'BEGIN { printf "%.2f", n / (ns / 1e9) / 1e6 }')
    printf '  %-26s %7.3f s %8s M entries/s  peak RSS %7s MiB  anon %7s MiB\n' "$label" \
        "$(awk -v ns="$best" 'BEGIN { print ns / 1e9 }')" "$rate" \
        "$([ "$have_gnu_time" = 1 ] && kib_to_mib "$rss_max" || echo "?")" "$anon"
}

# kib_to_mib KIB: KiB as MiB with one decimal.
kib_to_mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }

# peak_anon_kib FILE CMD...: runs the command once more and samples its
# anonymous resident memory (heap, stacks: RssAnon in /proc/PID/status)
# every few milliseconds. Peak RSS above also counts the pages of the
# memory-mapped input file, which grow with the file; this part does not.
peak_anon_kib() {
    local file=$1
    shift
    "$@" "$file" >/dev/null 2>&1 &
    local pid=$! peak=0 key value unit
    while kill -0 "$pid" 2>/dev/null; do
        while read -r key value unit; do
            if [ "$key" = "RssAnon:" ] && [ "$value" -gt "$peak" ]; then
                peak=$value
            fi
        done <"/proc/$pid/status" 2>/dev/null
        sleep 0.002
    done
    wait "$pid"
    if [ "$peak" -eq 0 ]; then
        echo "n/a"
    else
        kib_to_mib "$peak"
    fi
}

# bench_size N [big]: generate N entries (little-endian, 32-bit up-counting
# timer; with "big": big-endian, 16-bit down-counting), then time the three
# commands and the raw scan.
bench_size() {
    local n=$1 kind=${2:-little} start
    local file="$data/bench_${n}_$kind.trx" opts=(--wrap --seed 42) what="little-endian, 32-bit up timer"
    if [ "$kind" = big ]; then
        opts+=(--big-endian --timer down16)
        what="big-endian, 16-bit down timer"
    fi
    start=$(now_ns)
    "$gen" --out "$file" --entries "$n" "${opts[@]}" || { echo "gen_txtb failed"; exit 1; }
    local mib=$(($(stat -c %s "$file") / 1048576))
    echo "== $n entries ($mib MiB, wrapped, $what), generated in" \
        "$(awk -v ns=$(($(now_ns) - start)) 'BEGIN { printf "%.2f s", ns / 1e9 }')"
    measure "trx info (full scan)" "$n" "$file" "$trx" info
    measure "trx events --format csv" "$n" "$file" "$trx" events --format csv
    measure "trx dump" "$n" "$file" "$trx" dump
    if [ -x "$scan" ]; then
        "$scan" "$file" "$runs" | sed 's/^/  bench_scan: /'
    fi
}

echo "trx host benchmark: $(uname -m), $(nproc) cores, best of $runs runs; build $build"
bench_size 1000000
if [ "$entries" != 1000000 ]; then
    bench_size "$entries"
fi
bench_size "$entries" big

if python3 -c 'import tracex_parser' 2>/dev/null; then
    echo "== tracex_parser on 1000000 entries"
    start=$(now_ns)
    python3 -c 'import sys; from tracex_parser.file_parser import parse_tracex_buffer; ev, _ = parse_tracex_buffer(sys.argv[1]); print(len(ev))' \
        "$data/bench_1000000_little.trx" >"$data/tp.txt" 2>&1
    echo "  tracex_parser: $(tail -n 1 "$data/tp.txt") events in" \
        "$(awk -v ns=$(($(now_ns) - start)) 'BEGIN { printf "%.2f s", ns / 1e9 }')"
else
    echo "tracex_parser not installed (PyPI not reachable here); published figure: 14.7 k events/s, 1.35 KB/event"
fi
echo "(delete $data to reclaim the disk space)"
