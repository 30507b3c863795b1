#!/usr/bin/env bash
# run_wine.sh - cross-builds trx.exe (cmake/mingw-w64.cmake) and checks that under Wine it
# prints byte-for-byte what the Linux trx prints (dump, info --json, events jsonl, stats,
# --crlf, -o replacing a file) and fails on bad input like it (exit 2, one stderr line).
# usage: run_wine.sh SOURCE_DIR LINUX_TRX CORPUS_DIR WORK_DIR [WINE]
set -euo pipefail
SRC=$1 TRX=$2 CORPUS=$3 WORK=$4 WINE=${5:-wine}
BUILD=$WORK/build-windows
export WINEPREFIX=$WORK/wineprefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" WINEARCH=win64
unset DISPLAY WAYLAND_DISPLAY
fail=0
t0=$(date +%s.%N)
elapsed() { printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc 2>/dev/null || echo 0)"; }
stop_wine() { WINEPREFIX=$WINEPREFIX timeout 20 wineserver -k >/dev/null 2>&1 || true; }
trap stop_wine EXIT

cmake -S "$SRC" -B "$BUILD" -DCMAKE_TOOLCHAIN_FILE="$SRC/cmake/mingw-w64.cmake" \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$BUILD" -j 2 --target trx_cli >/dev/null
EXE=$BUILD/trx.exe
echo "built $EXE ($(elapsed) s)"

# First start creates the prefix (bounded: a hung wineboot fails the test, not the suite).
if [ ! -f "$WINEPREFIX/.trx-ready" ]; then
  rm -rf "$WINEPREFIX"
  if ! timeout 120 "$WINE" wineboot -i >"$WORK/wineboot.log" 2>&1; then
    echo "FAIL: wine first start (wineboot -i) failed or took over 120 s; see $WORK/wineboot.log"
    exit 1
  fi
  timeout 60 wineserver -w || true
  touch "$WINEPREFIX/.trx-ready"
  echo "wine prefix initialised ($(elapsed) s)"
fi

# Both programs run in a scratch copy of the corpus with relative names, so every byte,
# banner and "file" member included, must match.
DATA=$WORK/data
rm -rf "$DATA" && mkdir -p "$DATA"
traces=(demo_threadx b_sample_wrap d_interrupts_nested)
for n in "${traces[@]}"; do cp "$CORPUS/$n.trx" "$DATA/"; done
cd "$DATA"
win() { timeout 60 "$WINE" "$EXE" "$@"; }
# a first program start right after the prefix was made has failed once
# (exit 1, no output: wine still settling); one start whose result is not
# compared goes first
win --version >/dev/null 2>&1 || true

compare() { # compare NAME ARGS...
  local name=$1
  shift
  "$TRX" "$@" >"linux.out" 2>"linux.err" && lrc=0 || lrc=$?
  win "$@" >"win.out" 2>"win.err" && wrc=0 || wrc=$?
  if [ $lrc -ne $wrc ] || ! cmp -s linux.out win.out; then
    echo "FAIL: $name: trx $* (exit linux $lrc, windows $wrc)"
    diff <(head -c 4000 linux.out) <(head -c 4000 win.out) | head -n 10 || true
    head -n 3 win.err
    fail=1
  else
    echo "ok   $name: trx $* ($(wc -c <linux.out) bytes)"
  fi
}

for n in "${traces[@]}"; do
  compare "$n" dump "$n.trx"
  compare "$n" info --json "$n.trx"
  compare "$n" events --format jsonl "$n.trx"
done
compare demo_threadx stats --json demo_threadx.trx
compare demo_threadx dump --crlf demo_threadx.trx

# -o: a temporary file renamed over OUT, also when OUT exists already.
# The dump banner names OUT, so both write out.txt.
"$TRX" dump demo_threadx.trx -o out.txt
mv out.txt linux_o.txt
for i in 1 2; do
  if ! win dump demo_threadx.trx -o out.txt || ! cmp -s linux_o.txt out.txt; then
    echo "FAIL: trx dump -o (run $i) differs from Linux"
    fail=1
  fi
done
leftover=$(ls out.txt.* 2>/dev/null || true)
[ -z "$leftover" ] || { echo "FAIL: temporary files left: $leftover"; fail=1; }
[ $fail -ne 0 ] || echo "ok   dump -o twice (replaces the existing file, no temporary left)"

# Bad input: the registry end pointer (offset 20) points past a cut file.
head -c 1000 demo_threadx.trx >bad_truncated.trx
win info bad_truncated.trx >win.out 2>win.err && wrc=0 || wrc=$?
"$TRX" info bad_truncated.trx >linux.out 2>linux.err || true
tr -d '\r' <win.err >win.err.lf
if [ $wrc -ne 2 ] || [ -s win.out ] || [ "$(wc -l <win.err.lf)" -ne 1 ] ||
   ! grep -q '^trx: bad_truncated.trx: offset 20: ' win.err.lf || ! cmp -s linux.err win.err.lf; then
  echo "FAIL: bad input: exit $wrc, stderr:"
  cat win.err
  fail=1
else
  echo "ok   bad input: exit 2, $(cat win.err.lf)"
fi

# trx capture (Winsock, C runtime files): a file and a TCP stream of UIA packets
# (a server here), byte for byte, with the same count of events and losses as
# on Linux; --max-events cuts where Linux cuts; a refused connection is exit 2.
python3 - capture_in.bin <<'PY'
import struct, sys
out, seq, t = b"", 0, 1000
for p in range(40):
    body = b""
    for r in range(3):
        if (p, r) == (7, 1):
            seq += 9  # 9 records lost
        body += struct.pack("<IIIIII", 1 << 27 | 24 << 16 | seq & 0xFFFF, t, 0, 7 << 16 | 0x8001, p, r)
        seq, t = seq + 1, t + 10
    out += struct.pack(">IIII", 10 << 28 | (16 + len(body)), p << 16, 1 << 16 | 0x8003, 0xFFFF << 16 | 2) + body
open(sys.argv[1], "wb").write(out)
PY
summary() { tr -d '\r' <"$1" | sed 's/.*; //'; }
"$TRX" capture capture_in.bin -o capture_linux.bin 2>linux.err
win capture capture_in.bin -o capture_win.bin 2>win.err && wrc=0 || wrc=$?
if [ $wrc -ne 0 ] || ! cmp -s capture_in.bin capture_win.bin || [ "$(summary linux.err)" != "$(summary win.err)" ]; then
  echo "FAIL: capture FILE: exit $wrc, $(cat win.err)"
  fail=1
else
  echo "ok   capture FILE: $(summary win.err)"
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 - capture_in.bin "$port" <<'PY' &
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[2]))); s.listen(1)
c, _ = s.accept(); c.sendall(open(sys.argv[1], "rb").read()); c.close()
PY
sleep 0.5
win capture "tcp://127.0.0.1:$port" -o capture_tcp.bin 2>win.err && wrc=0 || wrc=$?
wait
if [ $wrc -ne 0 ] || ! cmp -s capture_in.bin capture_tcp.bin || [ "$(summary linux.err)" != "$(summary win.err)" ]; then
  echo "FAIL: capture tcp://: exit $wrc, $(cat win.err)"
  fail=1
else
  echo "ok   capture tcp://: $(summary win.err)"
fi
"$TRX" capture capture_in.bin -o max_linux.bin --max-events 50 2>/dev/null
win capture capture_in.bin -o max_win.bin --max-events 50 2>/dev/null && wrc=0 || wrc=$?
if [ $wrc -ne 0 ] || ! cmp -s max_linux.bin max_win.bin; then
  echo "FAIL: capture --max-events: exit $wrc or the files differ"
  fail=1
else
  echo "ok   capture --max-events 50: $(wc -c <max_win.bin) bytes as on Linux"
fi
win capture tcp://127.0.0.1:1 -o refused.bin 2>win.err && wrc=0 || wrc=$?
if [ $wrc -ne 2 ] || [ "$(tr -d '\r' <win.err | wc -l)" -ne 1 ]; then
  echo "FAIL: capture of a refused connection: exit $wrc, $(cat win.err)"
  fail=1
else
  echo "ok   capture refused: exit 2, $(tr -d '\r' <win.err)"
fi

echo "windows_wine: total $(elapsed) s"
[ $fail -eq 0 ] && echo "windows_wine: OK" || echo "windows_wine: FAILED"
exit $fail
