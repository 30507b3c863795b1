#!/usr/bin/env bash
# export_usage.sh TRX TRACE WORK - `trx export` rejects bad command lines with
# exit 1 and one message, and writes nothing; a trace it cannot read is exit 2.
set -u
trx=$1 trace=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail=0
expect() { # expect STATUS PATTERN ARGS...
  local want=$1 pattern=$2
  shift 2
  "$trx" export "$@" >"$work/out" 2>"$work/err"
  local rc=$?
  if [ $rc -ne "$want" ] || ! grep -q -- "$pattern" "$work/err"; then
    echo "FAIL: trx export $* -> $rc ($(head -c 200 "$work/err")), want $want /$pattern/"
    fail=1
  fi
}
expect 1 "--to FORMAT is required" "$trace"
expect 1 "unknown format 'svg'" --to svg "$trace"
expect 1 "not a positive rate" --to csv --ticks-per-second 0 "$trace"
expect 1 "not a positive rate" --to csv --ticks-per-us 1.2345678 "$trace"
expect 1 "not a positive rate" --to csv --ticks-per-us abc "$trace"
expect 1 "give it with -o DIR" --to ctf "$trace"
expect 2 "offset" --to perfetto "$work/err"
[ -s "$work/out" ] && { echo "FAIL: output written on error"; fail=1; }
# a file where the CTF directory should be
touch "$work/file"
expect 3 "cannot create the directory" --to ctf "$trace" -o "$work/file"
# re-exporting into a CTF directory: stream files of an earlier export (other cores, the old
# single "stream") are removed, anything else is left alone
mkdir -p "$work/ctf" && touch "$work/ctf/stream" "$work/ctf/stream_9" "$work/ctf/stream_more" \
  "$work/ctf/streamer" "$work/ctf/notes.txt"
"$trx" export --to ctf "$trace" -o "$work/ctf" || fail=1
got=$(cd "$work/ctf" && ls | tr '\n' ' ')
[ "$got" = "metadata notes.txt stream_0 streamer " ] || { echo "FAIL: CTF directory holds $got"; fail=1; }
# --ticks-per-us with decimals is accepted and used
"$trx" export --to csv --ticks-per-us 2.5 "$trace" -o "$work/t.csv" || fail=1
line=$(sed -n 3p "$work/t.csv")
ticks=$(echo "$line" | cut -d, -f2) us=$(echo "$line" | cut -d, -f3)
want=$(python3 -c "print(('%.3f' % ($ticks / 2.5)).rstrip('0').rstrip('.'))")
[ "$us" = "$want" ] || { echo "FAIL: $ticks ticks at 2.5/us -> $us us, want $want"; fail=1; }
[ $fail -eq 0 ] && echo ok
exit $fail
