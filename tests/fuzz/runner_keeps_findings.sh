#!/usr/bin/env bash
# runner_keeps_findings.sh WORK - run_fuzzers.sh keeps the findings of
# earlier runs: with stand-in fuzzers (shell scripts taking libFuzzer's
# options), a run of fuzz_txtb that finds a crash, then a run of fuzz_uia
# alone; the crash file of the first run must still be there, byte for
# byte, and the second run's output must name it and its folder.
set -euo pipefail
WORK=$1
HERE=$(cd "$(dirname "$0")" && pwd)
rm -rf "$WORK"
mkdir -p "$WORK/build/fuzz"
cat >"$WORK/build/fuzz/stand_in" <<'FUZZ'
#!/usr/bin/env bash
# a stand-in libFuzzer target: fuzz_txtb "finds" a crash, the others run clean
for a in "$@"; do case $a in -artifact_prefix=*) prefix=${a#*=} ;; esac; done
if [ "$(basename "$0")" = fuzz_txtb ]; then
  printf 'the crashing input\n' >"${prefix}crash-0123abcd"
  echo "==1==ERROR: AddressSanitizer: heap-buffer-overflow (stand-in)"
  echo "Test unit written to ${prefix}crash-0123abcd"
  exit 1
fi
echo "stat::number_of_executed_units: 42"
FUZZ
chmod +x "$WORK/build/fuzz/stand_in"
ln -s stand_in "$WORK/build/fuzz/fuzz_txtb"
ln -s stand_in "$WORK/build/fuzz/fuzz_uia"
fail=0
status=0
"$HERE/run_fuzzers.sh" "$WORK/build" 1 fuzz_txtb >"$WORK/first.out" 2>&1 || status=$?
crash=$WORK/build/fuzz-findings/fuzz_txtb-crash-0123abcd
[ "$status" = 1 ] || { echo "FAIL: a run with a finding must exit 1, not $status" >&2; fail=1; }
[ -f "$crash" ] || { echo "FAIL: the finding is not in fuzz-findings" >&2; cat "$WORK/first.out" >&2; exit 1; }
grep -q "crash file: $crash" "$WORK/first.out" || { echo "FAIL: the first run does not name its crash file" >&2; fail=1; }
status=0
"$HERE/run_fuzzers.sh" "$WORK/build" 1 fuzz_uia >"$WORK/second.out" 2>&1 || status=$?
[ "$status" = 0 ] || { echo "FAIL: a clean run must exit 0, not $status" >&2; fail=1; }
if [ "$(cat "$crash" 2>/dev/null)" != "the crashing input" ]; then
  echo "FAIL: the next run deleted or changed the earlier finding" >&2
  fail=1
fi
grep -qx "findings kept in $WORK/build/fuzz-findings (1 files, earlier runs' too; remove them when fixed):" \
  "$WORK/second.out" || { echo "FAIL: the second run does not say where the findings are" >&2; fail=1; }
grep -qx "  fuzz_txtb-crash-0123abcd (19 bytes)" "$WORK/second.out" ||
  { echo "FAIL: the second run does not list the earlier finding" >&2; fail=1; }
[ $fail = 0 ] || { cat "$WORK/second.out" >&2; exit 1; }
echo "runner_keeps_findings: the finding of the first run kept and listed by the second"
