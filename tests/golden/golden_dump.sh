#!/usr/bin/env bash
# golden_dump.sh TRX SHARED_DIR NAME WORKDIR - `trx dump` of corpus trace NAME
# must equal TraceX's golden dump (NAME.tml.txt, else NAME.txt) from the
# "Trace File Header Information" line to the end.
set -u
trx=$1 shared=$2 name=$3 work=$4
. "$(dirname "$0")/golden_common.sh"
mkdir -p "$work" || exit 1

trace="$shared/corpus/$name.trx"
golden="$shared/corpus/$name.tml.txt"
[ -f "$golden" ] || golden="$shared/corpus/$name.txt"
[ -f "$trace" ] || { echo "missing $trace"; exit 1; }
[ -f "$golden" ] || { echo "missing golden dump for $name"; exit 1; }

if ! "$trx" dump "$trace" >"$work/dump.txt" 2>"$work/dump.err"; then
    fail "trx dump $name exited non-zero: $(head -c 300 "$work/dump.err")"
fi
from_header "$work/dump.txt" >"$work/ours.txt"
from_header "$golden" >"$work/golden.txt"
[ -s "$work/golden.txt" ] || fail "golden $golden has no header-information line"
[ -s "$work/ours.txt" ] || fail "trx dump printed no header-information line"
if [ -s "$work/ours.txt" ]; then
    show_diff "$work/ours.txt" "$work/golden.txt" "trx dump" ||
        fail "dump differs from $(basename "$golden") ($(wc -l <"$work/ours.txt") vs $(wc -l <"$work/golden.txt") lines)"
fi
finish
