#!/usr/bin/env bash
# gen_txtb_smoke.sh TRX GEN_TXTB SWAP_ENDIAN WORKDIR - the benchmark
# generator writes valid traces: for 1000 entries in each byte order (plain,
# wrapped, 16-bit down-counting timer) `trx info` succeeds and `trx dump`
# exits 0 and counts at least 1000 events; the big-endian file is exactly the
# little-endian one with its byte order swapped, and both dump the same
# apart from the Trace ID. With --cores 2 the trace is the same events with
# core numbers in id bits 24-31: `trx info` sees 2 cores, `trx stats
# --compat tracex` is unchanged and the dump differs only in its raw column.
set -u
trx=$1 gen=$2 swap=$3 work=$4
. "$(dirname "$0")/golden_common.sh"
mkdir -p "$work" || exit 1

for variant in plain wrap down16 spare; do
    case $variant in
    plain) opts=() ;;
    wrap) opts=(--wrap) ;;
    down16) opts=(--timer down16 --seed 7) ;;
    spare) opts=(--spare 200 --timer up16) ;;
    esac
    for order in le be; do
        file="$work/gen_${variant}_$order.trx"
        extra=()
        [ "$order" = be ] && extra=(--big-endian)
        "$gen" --out "$file" --entries 1000 "${opts[@]}" "${extra[@]}" ||
            { fail "gen_txtb $variant $order failed"; continue; }
        "$trx" info "$file" >"$file.info" 2>&1 || fail "trx info $variant $order failed: $(head -c 300 "$file.info")"
        if "$trx" dump "$file" >"$file.dump" 2>"$file.err"; then
            total=$(grep -m1 '^Total Events:' "$file.dump" | awk '{ print $3 }')
            [ "${total:-0}" -ge 1000 ] || fail "$variant $order: dump counts ${total:-no} events, expected >= 1000"
        else
            fail "trx dump $variant $order exited non-zero: $(head -c 300 "$file.err")"
        fi
    done
    le="$work/gen_${variant}_le.trx" be="$work/gen_${variant}_be.trx"
    "$swap" "$le" "$work/gen_${variant}_swapped.trx" || fail "swap_endian failed on $le"
    cmp -s "$be" "$work/gen_${variant}_swapped.trx" ||
        fail "$variant: big-endian output is not the byte-swapped little-endian output"
    from_header "$le.dump" | grep -v '^Trace ID:' >"$le.body"
    from_header "$be.dump" | grep -v '^Trace ID:' >"$be.body"
    [ -s "$le.body" ] || fail "$variant: no dump body"
    show_diff "$be.body" "$le.body" "$variant big-endian dump" ||
        fail "$variant: big- and little-endian dumps differ"
done

plain="$work/gen_cores1.trx" smp="$work/gen_cores2.trx"
"$gen" --out "$plain" --entries 1000 --seed 3 && "$gen" --out "$smp" --entries 1000 --seed 3 --cores 2 ||
    fail "gen_txtb --cores failed"
"$trx" info "$smp" | grep -q '^Cores: *2 (multi-core)$' || fail "--cores 2: trx info does not see 2 cores"
"$trx" info "$plain" | grep -q '^Cores: *1 (single-core)$' || fail "trx info does not see 1 core"
"$trx" stats --compat tracex "$plain" | tail -n +2 >"$work/stats1.txt"
"$trx" stats --compat tracex "$smp" | tail -n +2 >"$work/stats2.txt"
show_diff "$work/stats2.txt" "$work/stats1.txt" "stats --compat tracex with core bits" ||
    fail "--cores changed TraceX's statistics"
# the dump's next-to-last column is the raw event id: drop it, the rest is the same
"$trx" dump "$plain" | from_header /dev/stdin | awk 'NF > 2 { $(NF - 1) = "" } { print }' >"$work/dump1.txt"
"$trx" dump "$smp" | from_header /dev/stdin | awk 'NF > 2 { $(NF - 1) = "" } { print }' >"$work/dump2.txt"
show_diff "$work/dump2.txt" "$work/dump1.txt" "dump with core bits" ||
    fail "--cores changed more than the raw event column of the dump"
finish
