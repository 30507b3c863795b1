#!/usr/bin/env bash
# info_bounded.sh - `trx info` stays small on a trace with a context per
# event (gen_hostile new-contexts): the text names the 10 busiest threads of
# a core and "and K more", under 64 KiB; --json still lists every thread.
# usage: info_bounded.sh GEN_HOSTILE TRX [ENTRIES]
set -euo pipefail
gen=$1 trx=$2 n=${3:-200000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$gen" --shape new-contexts --out "$work/t.trx" --entries "$n" >/dev/null
"$trx" info "$work/t.trx" >"$work/info.txt"
bytes=$(wc -c <"$work/info.txt")
[ "$bytes" -lt 65536 ] || { echo "info text is $bytes bytes" >&2; exit 1; }
line=$(grep '^Core 0 threads:' "$work/info.txt")
named=$(grep -o 'Un-named Thread ([0-9]*)' <<<"$line" | wc -l)
more=$(sed -n 's/.*, and \([0-9]*\) more (\([0-9]*\) events.*/\1 \2/p' <<<"$line")
[ "$named" -eq 10 ] || { echo "named $named threads, want 10: $line" >&2; exit 1; }
[ "$more" = "$((n - 10)) $((n - 10))" ] || { echo "'and K more' is '$more', want $((n - 10)): $line" >&2; exit 1; }
listed=$("$trx" info --json "$work/t.trx" | grep -o '"name":"Un-named Thread"' | wc -l)
[ "$listed" -eq "$n" ] || { echo "--json lists $listed threads, want $n" >&2; exit 1; }
echo "info_bounded: $n contexts, text $bytes bytes, --json lists $listed"
