#!/usr/bin/env bash
# run_demo.sh - `make run`: runs the simulated-RTOS demo (trx_demo), then
# analyses its trace with the trx CLI: `trx dump` (TraceX's raw dump) into
# BUILD_DIR/demo_dump.txt, `trx report` (the interactive HTML time line) into
# BUILD_DIR/demo_report.html, `trx info` on the terminal, and shows the
# dump's statistics next to the demo's own ground truth; last, the path of
# the report to open.
#
# usage: examples/run_demo.sh [BUILD_DIR]     (default: build)
# Exit status: 0 when the demo ran and both CLI commands succeeded.
set -u
BUILD=${1:-build}
demo="$BUILD/trx_demo"
cli="$BUILD/trx"

if [ ! -x "$demo" ]; then
  echo "run_demo: $demo is not built (run 'make build' first)" >&2
  exit 1
fi
if ! "$demo" "$BUILD"; then
  echo "run_demo: trx_demo failed" >&2
  exit 1
fi

status=0
if [ ! -x "$cli" ]; then
  echo "run_demo: $cli is not built: the trace was written but not analysed" >&2
  status=1
else
  if "$cli" dump "$BUILD/demo.trx" >"$BUILD/demo_dump.txt" 2>"$BUILD/demo_dump.err"; then
    rm -f "$BUILD/demo_dump.err"
  else
    echo "run_demo: 'trx dump' failed (see $BUILD/demo_dump.err):" >&2
    head -n 5 "$BUILD/demo_dump.err" >&2
    status=1
  fi
  if ! "$cli" report "$BUILD/demo.trx" -o "$BUILD/demo_report.html"; then
    echo "run_demo: 'trx report' failed" >&2
    status=1
  fi
  echo
  echo "== trx info $BUILD/demo.trx"
  if ! "$cli" info "$BUILD/demo.trx"; then
    echo "run_demo: 'trx info' failed" >&2
    status=1
  fi
  if [ -s "$BUILD/demo_dump.txt" ]; then
    echo
    echo "== Performance statistics (trx dump)        vs. what the demo simulated"
    awk '/^Context Switches:|^Interrupts:|^Nested Interrupts:|^Thread Suspensions:|^Thread Resumptions:|^Priority Inversions:/' \
      "$BUILD/demo_dump.txt"
    grep -E '^(context_switches|interrupts|nested_interrupts|thread_suspensions|thread_resumptions|priority_inversions|priority_inversions_unbounded|user_events)=' \
      "$BUILD/demo.truth" | sed 's/^/  truth: /'
  fi
fi

echo
echo "Outputs:"
echo "  $BUILD/demo.trx        trace buffer (raw memory image; open it in TraceX or with trx)"
echo "  $BUILD/demo.hex        the same memory as Intel HEX (recorder export helper)"
echo "  $BUILD/demo.truth      ground truth from the simulation (key=value)"
echo "  $BUILD/demo.latency.truth  every instance of every thread and its causes (JSON Lines)"
[ -s "$BUILD/demo_dump.txt" ] && echo "  $BUILD/demo_dump.txt   TraceX-format raw trace dump"
if [ -s "$BUILD/demo_report.html" ]; then
  report=$(cd "$BUILD" && pwd)/demo_report.html
  echo
  echo "See it: open the interactive report in a browser (no network needed):"
  echo "  file://$report"
  echo "or serve the trace (the same page for traces of any size; open the URL it prints):"
  echo "  $BUILD/trx serve $BUILD/demo.trx"
fi
exit $status
