#!/usr/bin/env bash
# critical_section_required.sh CC INCLUDE_DIR - the recorder is safe by
# construction: a file that includes trx/recorder.h with tracing on, in
# critical-section mode, with no critical section and no single-context
# statement must fail to compile with a message that says what to do; each of
# the three ways out (TRX_SINGLE_CONTEXT=1, a TRX_DISABLE of its own, the
# lock-free mode) must compile, and tracing compiled out needs none.
set -u
CC=$1
INC=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/probe.c" <<'C'
#include "trx/recorder.h"
void probe(ULONG v);
void probe(ULONG v) { TRX_TRACE_EVENT(4096, v, 0, 0, 0, TX_TRACE_USER_EVENTS); }
C
fail=0
build() { "$CC" -std=c11 -Wall -Wextra -Werror -I"$INC" "$@" -c "$tmp/probe.c" -o "$tmp/probe.o" 2>"$tmp/log"; }

if build -DTX_ENABLE_EVENT_TRACE; then
  echo "FAIL: no critical section and no TRX_SINGLE_CONTEXT, yet it compiled"
  fail=1
elif ! grep -q "no critical section" "$tmp/log" || ! grep -q "TRX_SINGLE_CONTEXT=1" "$tmp/log" ||
     ! grep -q "TRX_RECORDER_PORT_HEADER" "$tmp/log"; then
  echo "FAIL: the compile error does not say what to do:"
  cat "$tmp/log"
  fail=1
else
  echo "ok: refused: $(grep -m1 -o 'trx recorder: no critical section[^"]*' "$tmp/log" | cut -c1-90)..."
fi
if build -DTX_ENABLE_EVENT_TRACE -DTRX_SINGLE_CONTEXT=0; then
  echo "FAIL: TRX_SINGLE_CONTEXT=0 accepted as a statement of single context"
  fail=1
fi
for way in "-DTRX_SINGLE_CONTEXT=1" "-DTRX_DISABLE=(void)0;" "-DTRX_RECORDER_LOCKFREE=1" ""; do
  defs=(-DTX_ENABLE_EVENT_TRACE)
  [ -z "$way" ] && defs=()
  [ -n "$way" ] && defs+=("$way")
  if build "${defs[@]}"; then
    echo "ok: compiles with ${defs[*]:-tracing compiled out}"
  else
    echo "FAIL: does not compile with ${defs[*]:-tracing compiled out}:"
    cat "$tmp/log"
    fail=1
  fi
done
exit $fail
