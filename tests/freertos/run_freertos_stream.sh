#!/usr/bin/env bash
# run_freertos_stream.sh TRX EXAMPLE WORKDIR [SECONDS=60] [--commands] - FreeRTOS on its
# POSIX port streams its kernel events to `trx capture` over TCP for
# SECONDS at its highest rate (examples/freertos/posix/main_stream.c: a
# producer and a consumer as fast as they go, a 16 KiB ring, a drain task
# that falls behind now and then). Checks (check_freertos_stream.py): at
# least 10 M events recorded (60 s), lost events = the recorder's own drop
# counter exactly, events received + lost = events recorded, and memory
# flat in both processes (resident size after 10 s and at the end).
# --commands: then the capture through every trx command as the FreeRTOS
# trace it is (check_stream_commands.py: its tasks at their xTaskCreate
# priorities, lost = the drop counter, no ThreadX word).
set -euo pipefail
TRX=$1 EXAMPLE=$2 WORK=$3 SECONDS_RUN=${4:-60} COMMANDS=${5:-}
# the sanitizer runs (TRX_TEST_SPARSE set) stream 20 s, not a minute: still
# long enough for the memory checks (15 s and more)
if [ "${TRX_TEST_SPARSE:-1}" -gt 1 ] && [ "$SECONDS_RUN" -gt 20 ]; then SECONDS_RUN=20; fi
HERE=$(cd "$(dirname "$0")" && pwd)
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK"
# FreeRTOS's POSIX port leaves its per-thread marker allocated at exit():
# not leak-checked in the example (trx capture is).
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 "$EXAMPLE" port.txt "$SECONDS_RUN" counts.txt &
example=$!
for _ in $(seq 100); do [ -s port.txt ] && break; sleep 0.1; done
if [ "$COMMANDS" = --commands ]; then # served live while it grows, as the page sees it
  "$TRX" capture "tcp://127.0.0.1:$(cat port.txt)" -o capture.uia --serve --port 0 \
    >serve.out 2>capture.log &
  capture=$!
  python3 "$HERE/live_meta.py" serve.out live_meta.json "$SECONDS_RUN" &
  live=$!
else
  "$TRX" capture "tcp://127.0.0.1:$(cat port.txt)" -o capture.uia 2>capture.log &
  capture=$!
fi
rss() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null || true; }
start=$(date +%s)
rss10= rssmax=0
while kill -0 "$capture" 2>/dev/null; do
  now=$(date +%s)
  r=$(rss "$capture")
  if [ -n "$r" ] && [ $((now - start)) -ge 10 ]; then
    [ -n "$rss10" ] || rss10=$r
    [ "$r" -gt "$rssmax" ] && rssmax=$r
  fi
  sleep 1
done
wait "$example" || { echo "FAIL: the example exited $?"; exit 1; }
wait "$capture" || { echo "FAIL: trx capture exited $?"; cat capture.log; exit 1; }
[ "$COMMANDS" != --commands ] || wait "$live"
cat counts.txt capture.log
echo "capture_rss_kib_at_10s ${rss10:-0}" >>counts.txt
echo "capture_rss_kib_max $rssmax" >>counts.txt
status=0
python3 "$HERE/check_freertos_stream.py" "$TRX" counts.txt capture.uia "$SECONDS_RUN" || status=$?
if [ "$COMMANDS" = --commands ]; then
  # main_stream.c: producer, consumer and drain at 2; FreeRTOSConfig.h: the
  # timer task at configTIMER_TASK_PRIORITY 5, the idle task at 0
  python3 "$HERE/check_stream_commands.py" "$TRX" capture.uia counts.txt commands \
    --live-meta live_meta.json \
    --task producer=2 --task consumer=2 --task drain=2 --task "Tmr Svc=5" || status=$?
fi
rm -f capture.uia # large: 10 M events and more
exit $status
