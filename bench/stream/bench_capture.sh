#!/usr/bin/env bash
# bench_capture.sh [BUILD_DIR=build] [EVENTS=6000000] - `trx capture` with its
# live count over loopback TCP: a stream of EVENTS events written by the
# stream recorder (stream_writer_std, 2 KiB packets, no drops) is sent by a
# Python server as fast as the socket takes it, received by trx capture on
# a pseudo-terminal (status line drawn, live count, summary); prints the rate
# and the peak RSS of trx capture (GNU time), 3 runs. Not a test: nothing
# fails on slowness.
set -eu
build=${1:-build}
events=${2:-6000000}
data=$build/bench-data
mkdir -p "$data"
"$build/tests/uia_recorder/stream_writer_std" "$data/stream.bin" "$events" 1048576 2044 \
  100000000 64 0 >/dev/null
bytes=$(stat -c %s "$data/stream.bin")
for run in 1 2 3; do
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  python3 - "$data/stream.bin" "$port" <<'PY' &
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[2]))); s.listen(1)
data = open(sys.argv[1], "rb").read()
c, _ = s.accept(); c.sendall(data); c.close()
PY
  sleep 1
  # on a pseudo-terminal (script(1)): the status line is drawn, as a user sees it
  script -q -e -c "/usr/bin/time -f '%e s %M KiB' -o '$data/time.txt' '$build/trx' capture \
    tcp://127.0.0.1:$port -o '$data/capture.bin'" /dev/null >"$data/tty.txt"
  wait
  read -r secs _ kib _ <"$data/time.txt"
  echo "run $run: $bytes bytes, $events events in $secs s: $(python3 -c "print('%.0f MB/s, %.1f M events/s' % ($bytes / $secs / 1e6, $events / $secs / 1e6))"), peak RSS $((kib / 1024)) MiB"
done
