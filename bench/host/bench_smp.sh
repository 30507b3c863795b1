#!/usr/bin/env bash
# bench_smp.sh [BUILD_DIR=build] [ENTRIES=10000000] - what core bits cost.
# Generates the same synthetic trace twice with BUILD_DIR/gen_txtb (same
# seed, same events): once single-core, once with --cores 2 (ThreadX SMP core
# numbers in id bits 24-31, threads migrating). Times `trx stats` (default
# mode: the per-core tracking runs on both) and `trx stats --compat tracex`
# on each, best of 3 runs of CPU time (user + system, from /usr/bin/time:
# wall time on a shared, loaded box mostly measures the other processes) and
# wall time, and prints the SMP / single-core ratio. The acceptance figure of
# issue 14: the SMP trace within 10% of the other.
# Not a test: nothing here fails on slowness.
set -u
build=${1:-build}
entries=${2:-10000000}
runs=3
trx="$build/trx"
gen="$build/gen_txtb"
data="$build/bench-data"
for tool in "$trx" "$gen"; do
    [ -x "$tool" ] || { echo "bench_smp: $tool not built (cmake --build $build)"; exit 1; }
done
mkdir -p "$data" || exit 1
single="$data/smp_bench_1core.trx"
smp="$data/smp_bench_2core.trx"
"$gen" --out "$single" --entries "$entries" --seed 7 || exit 1
"$gen" --out "$smp" --entries "$entries" --seed 7 --cores 2 || exit 1

/usr/bin/time -f %U true >/dev/null 2>&1 || { echo "bench_smp: needs GNU time (/usr/bin/time)"; exit 1; }

# best FILE ARGS...: "CPU_MS WALL_MS", the best of $runs runs of `trx ARGS FILE`.
best() {
    local file=$1 cpu="" wall="" r start end ms c
    shift
    for ((r = 0; r < runs; r++)); do
        start=$(date +%s%N)
        /usr/bin/time -f "%U %S" -o "$data/time.txt" "$trx" "$@" "$file" >/dev/null ||
            { echo "bench_smp: trx $* $file failed" >&2; exit 1; }
        end=$(date +%s%N)
        ms=$(((end - start) / 1000000))
        c=$(awk '{ printf "%d", ($1 + $2) * 1000 }' "$data/time.txt")
        [ -z "$cpu" ] || [ "$c" -lt "$cpu" ] && cpu=$c
        [ -z "$wall" ] || [ "$ms" -lt "$wall" ] && wall=$ms
    done
    echo "$cpu $wall"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a ? b / a : 0 }'; }

echo "trx stats on $entries entries (best of $runs; CPU = user + system):"
printf '  %-18s %12s %12s %7s   %12s %12s %7s\n' "" "1 core CPU" "2 cores CPU" "ratio" \
    "1 core wall" "2 cores wall" "ratio"
for mode in default tracex; do
    args=(stats)
    [ "$mode" = tracex ] && args+=(--compat tracex)
    read -r a_cpu a_wall <<<"$(best "$single" "${args[@]}")"
    read -r b_cpu b_wall <<<"$(best "$smp" "${args[@]}")"
    printf '  %-18s %9d ms %9d ms %7s   %9d ms %9d ms %7s\n' "stats ($mode)" "$a_cpu" "$b_cpu" \
        "$(ratio "$a_cpu" "$b_cpu")" "$a_wall" "$b_wall" "$(ratio "$a_wall" "$b_wall")"
done
rm -f "$single" "$smp"
