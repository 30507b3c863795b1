# golden_common.sh - shell helpers shared by the golden and round-trip tests
# (sourced, not run): failure bookkeeping and dump/output normalisation.

failures=0

# fail MESSAGE: records a failed check and says why.
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# from_header FILE: the dump from TraceX's header-information line onwards.
from_header() {
    sed -n '/^\*\{14\} Trace File Header Information/,$p' "$1"
}

# show_diff A B [LABEL]: prints nothing and succeeds when the files are
# identical, else the first differing lines.
show_diff() {
    if ! diff "$1" "$2" >"$1.diff"; then
        echo "--- first differences (${3:-$1} vs $2):"
        head -n 20 "$1.diff"
        return 1
    fi
    rm -f "$1.diff"
}

# trace_base FILE: the TXTB base address (little-endian word at offset 8), hex.
trace_base() {
    od -An -tx1 -j8 -N4 "$1" | awk '{ print toupper($4 $3 $2 $1) }'
}

# finish: exit status from the recorded failures.
finish() {
    if [ "$failures" -ne 0 ]; then
        echo "$failures check(s) failed"
        exit 1
    fi
    echo "all checks passed"
    exit 0
}
