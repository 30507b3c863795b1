#!/usr/bin/env bash
# crlf_dump.sh TRX SHARED_DIR NAME WORKDIR - `trx dump --crlf` must be the
# LF dump with every "\n" turned into "\r\n" (and the LF dump has no "\r").
set -u
trx=$1 shared=$2 name=$3 work=$4
. "$(dirname "$0")/golden_common.sh"
mkdir -p "$work" || exit 1
trace="$shared/corpus/$name.trx"

"$trx" dump "$trace" >"$work/lf.txt" || fail "trx dump exited non-zero"
"$trx" dump --crlf "$trace" >"$work/crlf.txt" || fail "trx dump --crlf exited non-zero"
[ -s "$work/lf.txt" ] || fail "empty LF dump"
if grep -q $'\r' "$work/lf.txt"; then
    fail "LF dump contains carriage returns"
fi
sed 's/$/\r/' "$work/lf.txt" >"$work/expected_crlf.txt"
cmp -s "$work/crlf.txt" "$work/expected_crlf.txt" ||
    fail "--crlf output is not the LF dump with CRLF line ends ($(cmp "$work/crlf.txt" "$work/expected_crlf.txt" 2>&1 | head -1))"
lines=$(wc -l <"$work/lf.txt")
crs=$(tr -cd '\r' <"$work/crlf.txt" | wc -c)
[ "$lines" -eq "$crs" ] || fail "$lines lines but $crs carriage returns in the --crlf dump"
finish
