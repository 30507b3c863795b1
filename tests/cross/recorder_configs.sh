#!/usr/bin/env bash
# recorder_configs.sh - runs the compile lines of docs/recorder.md (the block
# between the "recorder-configs" markers: one line per documented time
# source) exactly as written, from a directory that holds the tree's
# recorder/ and include/, once per format: TXTB alone, UIA records from the
# hooks (64- and 32-bit timestamps), and both (TXTB hooks plus a UIA logger of
# the firmware's own: tests/cross/both_formats.c compiled with the same
# line). Warnings are errors (-Wall -Wextra -Werror appended). A missing
# cross compiler fails unless TRX_ALLOW_MISSING_TOOLS=1.
#
# usage: tests/cross/recorder_configs.sh [WORK_DIR]
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${1:-$ROOT/build/recorder_configs}
DOC=$ROOT/docs/recorder.md

mapfile -t lines < <(sed -n '/<!-- recorder-configs: begin -->/,/<!-- recorder-configs: end -->/p' "$DOC" |
  grep -E '^(arm-none-eabi-gcc|riscv64-unknown-elf-gcc) ')
if [ "${#lines[@]}" -lt 5 ]; then
  echo "recorder_configs: expected at least 5 compile lines in $DOC, found ${#lines[@]}" >&2
  exit 1
fi

rm -rf "$WORK"
mkdir -p "$WORK"
ln -s "$ROOT/recorder" "$WORK/recorder"
ln -s "$ROOT/include" "$WORK/include"
cp "$ROOT/tests/cross/both_formats.c" "$WORK/"

formats=("txtb|" "uia64|-DTRX_RECORDER_FORMAT_UIA=1" "uia32|-DTRX_RECORDER_FORMAT_UIA=1 -DTRX_UIA_TIMESTAMP_BITS=32" "both|")
failed=0
ran=0
for line in "${lines[@]}"; do
  cc=${line%% *}
  if ! command -v "$cc" >/dev/null 2>&1; then
    if [ "${TRX_ALLOW_MISSING_TOOLS:-0}" = 1 ]; then
      echo "recorder_configs: SKIP (TRX_ALLOW_MISSING_TOOLS=1): $cc not installed"
      continue
    fi
    echo "recorder_configs: FAILED: $cc not installed (tools/check_test_deps.sh installs it)" >&2
    failed=1
    continue
  fi
  for f in "${formats[@]}"; do
    name=${f%%|*}
    extra=${f#*|}
    cmd=$line
    [ "$name" = both ] && cmd=${cmd/ recorder\/\*.c / recorder\/*.c both_formats.c }
    dir=$WORK/run$ran
    mkdir -p "$dir"
    ln -s "$ROOT/recorder" "$dir/recorder"
    ln -s "$ROOT/include" "$dir/include"
    cp "$WORK/both_formats.c" "$dir/"
    if log=$(cd "$dir" && eval "$cmd $extra -Wall -Wextra -Werror" 2>&1) && [ -z "$log" ]; then
      objs=$(ls "$dir"/*.o | wc -l)
      echo "ok   $name: $cmd $extra  ($objs objects)"
    else
      echo "FAIL $name: $cmd $extra" >&2
      echo "$log" >&2
      failed=1
    fi
    ran=$((ran + 1))
  done
done
[ "$ran" -gt 0 ] || { echo "recorder_configs: nothing compiled" >&2; exit 1; }

# A port header name whose quotes a Makefile or shell ate: the build fails,
# and the recorder's error says so (not "no critical section").
if command -v arm-none-eabi-gcc >/dev/null 2>&1; then
  if log=$(cd "$WORK" && arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -std=c99 -ffreestanding -c \
        recorder/trx_trace_insert.c -Iinclude -Irecorder/port -DTX_ENABLE_EVENT_TRACE \
        -DTRX_RECORDER_PORT_HEADER=trx_port_cortex_m.h -o /dev/null 2>&1); then
    echo "FAIL an unquoted TRX_RECORDER_PORT_HEADER compiled" >&2
    failed=1
  elif ! grep -q "lost its quotes" <<<"$log" || grep -q "no critical section\. Use a port" <<<"$log"; then
    echo "FAIL an unquoted TRX_RECORDER_PORT_HEADER: the error does not name the lost quotes:" >&2
    echo "$log" >&2
    failed=1
  else
    echo "ok   unquoted TRX_RECORDER_PORT_HEADER: the error names the lost quotes"
  fi
fi
exit $failed
