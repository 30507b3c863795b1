#!/usr/bin/env bash
# description_everywhere.sh TRX RECORDER_LIB INCLUDE_DIR CC WORK [CFLAGS] - one event
# description drives everything: `trx describe` makes the recorder header
# (typed inline functions), a program records through it, and the same
# description names the events and their fields in `events` (text, JSON),
# `stats`, the report, the Perfetto, Chrome JSON, CSV and CTF exports; the
# .trxc it makes names them alike; the SystemView file lists them. Then one
# event is renamed in the description only: every output shows the new name
# and none the old one, and the header's function has the new name.
set -euo pipefail
TRX=$1 LIB=$2 INC=$3 CC=$4 WORK=$5 CFLAGS=${6:-} # CFLAGS: as the library was built (sanitizers)
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK"
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >app.c <<'C'
#include <stdio.h>

#include "trx/recorder.h"
#include "app_events.h"

static TRX_TRACE_BUFFER(buffer, 16384);

int main(int argc, char **argv)
{
    (void)argc;
    static int sensor;
    if (tx_trace_enable(buffer, sizeof buffer, 8) != TX_SUCCESS)
        return 1;
    trx_trace_object_register(TX_TRACE_OBJECT_TYPE_SEMAPHORE, &sensor, "sensor one", 0, 0);
    for (int i = 0; i < 3; i++) {
        APP_START(1200u + (uint32_t)i, -1 - i);
        trx_event_sensor_read(&sensor, -40, 0xBEEFu);
    }
    tx_trace_disable();
    FILE *f = fopen(argv[1], "wb");
    return !f || fwrite(buffer, 1, sizeof buffer, f) != sizeof buffer || fclose(f) != 0;
}
C

# build NAME SYMBOL: the description with event 4096 called NAME, the header,
# the program (APP_START calls the function the header has for it), its trace
build() {
  cat >app_events.csv <<CSV
# the application's events
id,name,meaning,field1,field2,field3,field4
4096,$1,,Motor Speed,Direction:i32,,
4097,Sensor Read,,Sensor::object,Celsius:i32,Raw Word:hex,
CSV
  "$TRX" describe --to header app_events.csv -o app_events.h
  grep -q "static inline UINT trx_event_$2(uint32_t motor_speed, int32_t direction)" app_events.h ||
    fail "header: no trx_event_$2(uint32_t motor_speed, int32_t direction)"
  # shellcheck disable=SC2086 # CFLAGS: words
  "$CC" -std=c99 -Wall -Wextra -Werror $CFLAGS -DTX_ENABLE_EVENT_TRACE -DTRX_SINGLE_CONTEXT=1 \
    "-DAPP_START=trx_event_$2" -I "$INC" -I . app.c "$LIB" -o app
  ./app trace.trx
}

# outputs: everything a user sees, one file each
outputs() {
  rm -rf out && mkdir out
  "$TRX" describe --to trxc app_events.csv -o out/app.trxc
  "$TRX" describe --to systemview app_events.csv -o out/systemview.txt
  "$TRX" events --custom app_events.csv trace.trx >out/events.txt
  "$TRX" events --custom app_events.csv --format jsonl trace.trx >out/events.jsonl
  "$TRX" events --custom out/app.trxc --format jsonl trace.trx >out/events-trxc.jsonl
  "$TRX" stats --custom app_events.csv trace.trx >out/stats.txt
  "$TRX" report --custom app_events.csv trace.trx -o out/report.html
  "$TRX" export --custom app_events.csv --to perfetto trace.trx -o out/perfetto.pb
  "$TRX" export --custom app_events.csv --to chrome-json trace.trx -o out/chrome.json
  "$TRX" export --custom app_events.csv --to csv trace.trx -o out/export.csv
  "$TRX" export --custom app_events.csv --to ctf trace.trx -o out/ctf
}

# expect NAME IDENT: every output names event 4096 NAME
expect() {
  for f in out/app.trxc out/events.txt out/events.jsonl out/stats.txt out/report.html \
           out/perfetto.pb out/chrome.json out/export.csv out/ctf/metadata; do
    grep -aqF -- "$1" "$f" || fail "$f does not name event 4096 \"$1\""
  done
  grep -q "^4096 *$2 *motor_speed=%u direction=%d$" out/systemview.txt ||
    fail "systemview: no '4096 $2 motor_speed=%u direction=%d'"
  grep -q "^4097 *Sensor_Read *sensor=%I celsius=%d raw_word=%x$" out/systemview.txt ||
    fail "systemview: 4097 not described"
  # the events and their fields, from the recorded values
  python3 - "$1" <<'PY'
import json, sys
name = sys.argv[1]
events = [json.loads(l) for l in open("out/events.jsonl")]
starts = [e for e in events if e["id"] == 4096]
reads = [e for e in events if e["id"] == 4097]
assert [e["name"] for e in starts] == [name] * 3, [e["name"] for e in starts]
assert [e["info"][:2] for e in starts] == [[1200, 0xFFFFFFFF], [1201, 0xFFFFFFFE], [1202, 0xFFFFFFFD]], starts
assert all(e["name"] == "Sensor Read" and e["info"][1:3] == [(-40) & 0xFFFFFFFF, 0xBEEF] for e in reads), reads
text = open("out/events.jsonl").read()
for caption in ("Motor Speed", "Direction", "Sensor", "Celsius", "Raw Word"):
    assert caption in text, caption
# the .trxc trx describe made names them as the description does
via = [json.loads(l) for l in open("out/events-trxc.jsonl")]
assert [e["name"] for e in via] == [e["name"] for e in events]
chrome = json.load(open("out/chrome.json"))
items = chrome["traceEvents"] if isinstance(chrome, dict) else chrome
got = [e for e in items if e.get("name") == name]
assert got and all(e["args"].get("Motor Speed") in (1200, 1201, 1202) for e in got), got[:2]
meta = open("out/ctf/metadata").read()
assert "int32_t direction;" in meta and "hex32_t raw_word;" in meta and "hex32_t sensor;" in meta, meta
PY
}

build "Motor Start" motor_start
outputs
expect "Motor Start" Motor_Start
# rename in the description only: the new name everywhere, the old one nowhere
build "Spindle Go" spindle_go
outputs
expect "Spindle Go" Spindle_Go
for f in out/*.txt out/*.jsonl out/app.trxc out/report.html out/perfetto.pb out/chrome.json \
         out/export.csv out/ctf/metadata app_events.h; do
  if grep -aqiE "Motor Start|motor_start" "$f"; then fail "$f still names Motor Start"; fi
done
echo "one description: header, program, events, stats, report, Perfetto, Chrome JSON, CSV, CTF, .trxc, SystemView; the rename reaches all"
