#!/usr/bin/env bash
# conversions.sh TRX SWAP_ENDIAN SHARED_DIR NAME WORKDIR - round trips of a
# corpus trace through the other input forms. From the original NAME.trx it
# makes an Intel HEX and an S-record copy (objcopy, loaded at the trace's own
# base address), ASCII hex (xxd -p, the same with spaces between bytes, and
# a C array: xxd -i, with declaration and braces) and a big-endian copy (SWAP_ENDIAN, also as Intel HEX). `trx dump` of each,
# auto-detected and with --input-format forced, must equal the original's
# from the header-information line on, except the `Trace ID:` line of the
# big-endian copies (which must read 54585442). `trx info` and
# `trx events --format jsonl` of the text copies must equal the original's
# apart from the file name and the source format.
set -u
trx=$1 swap=$2 shared=$3 name=$4 work=$5
. "$(dirname "$0")/golden_common.sh"
mkdir -p "$work" || exit 1
trace="$shared/corpus/$name.trx"
[ -f "$trace" ] || { echo "missing $trace"; exit 1; }
base=$(trace_base "$trace")
echo "trace $name, base address 0x$base"

# ---- make the copies
make_copy() { # what, then the command
    local what=$1
    shift
    "$@" || fail "could not make the $what copy"
}
make_copy "Intel HEX" objcopy -I binary -O ihex --change-addresses "0x$base" "$trace" "$work/$name.hex"
make_copy "S-record" objcopy -I binary -O srec --change-addresses "0x$base" "$trace" "$work/$name.srec"
make_copy "ASCII hex" sh -c 'xxd -p "$1" >"$2"' sh "$trace" "$work/$name.ascii.txt"
make_copy "spaced ASCII hex" sh -c 'xxd -p -c 16 "$1" | sed "s/../& /g" >"$2"' sh "$trace" "$work/$name.spaced.txt"
make_copy "C array" sh -c 'xxd -i "$1" >"$2"' sh "$trace" "$work/$name.c"
make_copy "big-endian" "$swap" "$trace" "$work/$name.be.trx"
make_copy "big-endian Intel HEX" objcopy -I binary -O ihex --change-addresses "0x$base" \
    "$work/$name.be.trx" "$work/$name.be.hex"

# sanity of the copies themselves: the S-record/HEX data really carries the
# base address (first data record), and the big-endian id is in place.
# Address of the first data record of an Intel HEX file (types 02/04 applied).
ihex_first_address() {
    awk 'function hex(s,   v, i) {
            v = 0
            for (i = 1; i <= length(s); i++)
                v = v * 16 + index("0123456789ABCDEF", toupper(substr(s, i, 1))) - 1
            return v
        }
        /^:/ {
            type = substr($0, 8, 2); addr = hex(substr($0, 4, 4)); data = hex(substr($0, 10, 4))
            if (type == "04") high = data * 65536
            else if (type == "02") high = data * 16
            else if (type == "00") { v = high + addr; printf "%04X%04X\n", int(v / 65536), v % 65536; exit }
        }' "$1"
}
if [ -f "$work/$name.hex" ]; then
    first=$(ihex_first_address "$work/$name.hex")
    [ "$first" = "$base" ] || fail "Intel HEX copy starts at ${first:-nothing}, not at the base $base"
fi
if [ -f "$work/$name.be.trx" ]; then
    [ "$(head -c 4 "$work/$name.be.trx")" = "TXTB" ] || fail "big-endian copy does not start with TXTB"
fi

# ---- dumps
dump_body() { # file [extra args]: dump from the header line, Trace ID line removed
    local file=$1 out=$2
    shift 2
    if ! "$trx" dump "$@" "$file" >"$out.full" 2>"$out.err"; then
        fail "trx dump $* $(basename "$file") exited non-zero: $(head -c 300 "$out.err")"
    fi
    from_header "$out.full" | grep -v '^Trace ID:' >"$out"
    [ -s "$out" ] || fail "trx dump $* $(basename "$file") printed no header-information line"
}
trace_id() { grep -m1 '^Trace ID:' "$1.full" | awk '{ print $3 }'; }

dump_body "$trace" "$work/ref.dump"
[ "$(trace_id "$work/ref.dump")" = "42545854" ] || fail "original's Trace ID is not 42545854"

check_dump() { # label file expected-trace-id [extra args]
    local label=$1 file=$2 id=$3
    shift 3
    local out="$work/$label.dump"
    dump_body "$file" "$out" "$@"
    [ -s "$out" ] || return
    show_diff "$out" "$work/ref.dump" "$label" || fail "$label: dump differs from the original's"
    local got
    got=$(trace_id "$out")
    [ "$got" = "$id" ] || fail "$label: Trace ID $got, expected $id"
}
check_dump ihex "$work/$name.hex" 42545854
check_dump ihex_forced "$work/$name.hex" 42545854 --input-format ihex
check_dump srec "$work/$name.srec" 42545854
check_dump srec_forced "$work/$name.srec" 42545854 --input-format srec
check_dump ascii "$work/$name.ascii.txt" 42545854
check_dump ascii_forced "$work/$name.ascii.txt" 42545854 --input-format ascii
check_dump ascii_spaced "$work/$name.spaced.txt" 42545854
check_dump c_array "$work/$name.c" 42545854
check_dump c_array_forced "$work/$name.c" 42545854 --input-format ascii
check_dump big_endian "$work/$name.be.trx" 54585442
check_dump big_endian_forced "$work/$name.be.trx" 54585442 --input-format bin
check_dump big_endian_ihex "$work/$name.be.hex" 54585442

# ---- info and events: identical apart from file name and source format
# normalize PATH: stdin with what depends on the dump file, not on the trace,
# masked: the path and base name, the format names, and the image's load
# address (a raw binary or ASCII dump has none: 0; a HEX copy loads at the
# trace base; checked separately below).
normalize() {
    sed -e "s|$1|FILE|g" -e "s|$(basename "$1")|FILE|g" |
        sed -E -e 's/(Intel HEX|S-record|ASCII hex|raw binary|binary|ihex|srec|ascii|bin)/FMT/Ig' \
            -e 's/("image_base":)[0-9]+/\1LOAD/' -e 's/^(Image:.* at )0x[0-9A-Fa-f]+/\1LOAD/'
}
run_normalized() { # label file out command...
    local label=$1 file=$2 out=$3
    shift 3
    if ! "$trx" "$@" "$file" >"$out.raw" 2>"$out.err"; then
        fail "$label: trx $* exited non-zero: $(head -c 300 "$out.err")"
    fi
    [ -s "$out.raw" ] || fail "$label: trx $* printed nothing"
    normalize "$file" <"$out.raw" >"$out"
}
for cmd in "info" "info --json" "events --format jsonl"; do
    tag=$(echo "$cmd" | tr -c 'a-z\n' '_')
    # shellcheck disable=SC2086
    run_normalized "original" "$trace" "$work/ref.$tag" $cmd
    for copy in hex srec ascii.txt; do
        # shellcheck disable=SC2086
        run_normalized "$copy" "$work/$name.$copy" "$work/$copy.$tag" $cmd
        show_diff "$work/$copy.$tag" "$work/ref.$tag" "trx $cmd ($copy)" ||
            fail "$copy: trx $cmd differs from the original's"
    done
done
# the HEX and S-record copies load at the trace's base address
for copy in hex srec; do
    raw="$work/$copy.info___json.raw"
    [ -s "$raw" ] || continue
    load=$(grep -o '"image_base":[0-9]*' "$raw" | cut -d: -f2)
    [ "$load" = "$((16#$base))" ] || fail "$copy: trx info --json image_base ${load:-missing}, expected $((16#$base))"
done
finish
