#!/usr/bin/env bash
# gen_txtb_smoke.sh TRX GEN_TXTB SWAP_ENDIAN WORKDIR - the benchmark
# generator writes valid traces: for 1000 entries in each byte order (plain,
# wrapped, 16-bit down-counting timer) `trx info` succeeds and `trx dump`
# exits 0 and counts at least 1000 events; the big-endian file is exactly the
# little-endian one with its byte order swapped, and both dump the same
# apart from the Trace ID.
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
finish
