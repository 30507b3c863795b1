#!/usr/bin/env bash
# cross_build.sh - cross-compiles the target recorder (recorder/*.c) as
# freestanding C99 with each port of recorder/port/ (Cortex-M0+, Cortex-M3/M4/
# M7/M33 with DWT CYCCNT or the composed SysTick counter, Cortex-M4 lock-free
# with LDREX/STREX, RV32IMAC with and without _zicsr in -march) at -O2 and -Os
# with warnings as errors, prints a .text/.data/.bss table per target, checks that
# the recorder hooks compile to nothing when tracing is compiled out, and
# measures the event-insert hot path of the Cortex-M4 -O2 build from its
# disassembly, for TXTB and for a 2-argument UIA record (uia_recorder.h).
#
# usage: tools/cross_build.sh [OUT_DIR]      (default: build/cross)
#   env HOT_SYMBOL=name  measure this recorder function instead of the insert
#                        probe (tests/cross/insert_probe.c)
#   env TRX_ALLOW_MISSING_TOOLS=1  a missing cross compiler is a SKIP (else: a failure)
# Exit status: 0 when every available target built warning-free, 1 otherwise.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$ROOT/build/cross}
HOT_SYMBOL_SET=${HOT_SYMBOL:+1}
HOT_SYMBOL=${HOT_SYMBOL:-trx_probe_thread_resume}

COMMON_FLAGS=(-std=c99 -ffreestanding -Wall -Wextra -Werror -pedantic -ffunction-sections
              -fdata-sections -I"$ROOT/include" -I"$ROOT/recorder" -I"$ROOT/recorder/port")
M4_PORT=(-DTRX_RECORDER_PORT_HEADER='"trx_port_cortex_m.h"')

# RV32: GCC 12+ wants _zicsr for CSR instructions; the port also builds without.
RV_MARCH=rv32imac
if command -v riscv64-unknown-elf-gcc >/dev/null 2>&1 &&
   echo 'int x;' | riscv64-unknown-elf-gcc -march=rv32imac_zicsr -mabi=ilp32 -x c -c - \
     -o /dev/null 2>/dev/null; then
  RV_MARCH=rv32imac_zicsr
fi

# name | compiler | size tool | objdump | target flags (port header and options)
TARGETS=(
  "cortex-m0plus|arm-none-eabi-gcc|arm-none-eabi-size|arm-none-eabi-objdump|-mthumb -mcpu=cortex-m0plus -DTRX_RECORDER_PORT_HEADER=\"trx_port_cortex_m0.h\""
  "cortex-m3|arm-none-eabi-gcc|arm-none-eabi-size|arm-none-eabi-objdump|-mthumb -mcpu=cortex-m3 -DTRX_RECORDER_PORT_HEADER=\"trx_port_cortex_m.h\""
  "cortex-m4|arm-none-eabi-gcc|arm-none-eabi-size|arm-none-eabi-objdump|-mthumb -mcpu=cortex-m4 -DTRX_RECORDER_PORT_HEADER=\"trx_port_cortex_m.h\""
  "cortex-m4-systick|arm-none-eabi-gcc|arm-none-eabi-size|arm-none-eabi-objdump|-mthumb -mcpu=cortex-m4 -DTRX_RECORDER_PORT_HEADER=\"trx_port_cortex_m.h\" -DTRX_PORT_TIME_SYSTICK=1"
  "cortex-m4-lockfree|arm-none-eabi-gcc|arm-none-eabi-size|arm-none-eabi-objdump|-std=c11 -mthumb -mcpu=cortex-m4 -DTRX_RECORDER_PORT_HEADER=\"trx_port_cortex_m.h\" -DTRX_RECORDER_LOCKFREE=1"
  "cortex-m7|arm-none-eabi-gcc|arm-none-eabi-size|arm-none-eabi-objdump|-mthumb -mcpu=cortex-m7 -DTRX_RECORDER_PORT_HEADER=\"trx_port_cortex_m.h\""
  "cortex-m33|arm-none-eabi-gcc|arm-none-eabi-size|arm-none-eabi-objdump|-mthumb -mcpu=cortex-m33 -DTRX_RECORDER_PORT_HEADER=\"trx_port_cortex_m.h\""
  "$RV_MARCH|riscv64-unknown-elf-gcc|riscv64-unknown-elf-size|riscv64-unknown-elf-objdump|-march=$RV_MARCH -mabi=ilp32 -DTRX_RECORDER_PORT_HEADER=\"trx_port_riscv32.h\""
  "rv32imac-no-zicsr|riscv64-unknown-elf-gcc|riscv64-unknown-elf-size|riscv64-unknown-elf-objdump|-march=rv32imac -mabi=ilp32 -DTRX_RECORDER_PORT_HEADER=\"trx_port_riscv32.h\""
)
OPTS=(O2 Os)

shopt -s nullglob
SOURCES=("$ROOT"/recorder/*.c)
if [ ${#SOURCES[@]} -eq 0 ]; then
  echo "cross_build: no recorder sources in $ROOT/recorder" >&2
  exit 1
fi

failed=0
skipped=0
lockfree_note=""
m4_built=0
table=()
mkdir -p "$OUT"

# compile SRC OBJ CC FLAGS... : fails (and shows the output) on any diagnostic.
compile() {
  local src=$1 obj=$2 cc=$3
  shift 3
  local log
  if ! log=$("$cc" "$@" -c "$src" -o "$obj" 2>&1) || [ -n "$log" ]; then
    echo "cross_build: FAILED: $cc $* -c ${src#"$ROOT"/}" >&2
    [ -n "$log" ] && echo "$log" >&2
    return 1
  fi
}

for t in "${TARGETS[@]}"; do
  IFS='|' read -r name cc sizetool objdump tflags <<<"$t"
  if ! command -v "$cc" >/dev/null 2>&1 || ! command -v "$sizetool" >/dev/null 2>&1; then
    if [ "${TRX_ALLOW_MISSING_TOOLS:-0}" != 1 ]; then
      echo "cross_build: FAILED: $cc not installed (tools/check_test_deps.sh installs it; TRX_ALLOW_MISSING_TOOLS=1 skips)" >&2
      failed=1
    else
      echo "cross_build: SKIP $name: $cc not installed"
      skipped=1
    fi
    continue
  fi
  # shellcheck disable=SC2206
  tf=($tflags)
  for opt in "${OPTS[@]}"; do
    dir="$OUT/$name-$opt"
    rm -rf "$dir"
    mkdir -p "$dir"
    objs=()
    for src in "${SOURCES[@]}"; do
      obj="$dir/$(basename "${src%.c}").o"
      if compile "$src" "$obj" "$cc" "${COMMON_FLAGS[@]}" -DTX_ENABLE_EVENT_TRACE=1 "${tf[@]}" \
          "-$opt"; then
        objs+=("$obj")
      else
        failed=1
      fi
    done
    [ ${#objs[@]} -eq 0 ] && continue
    [ "$name-$opt" = cortex-m4-O2 ] && [ ${#objs[@]} -eq ${#SOURCES[@]} ] && m4_built=1
    "$sizetool" "${objs[@]}" >"$dir/size.txt"
    if [ "$name" = cortex-m4-lockfree ] && [ $opt = O2 ]; then
      # The claim must be an exclusive-access loop, not a library call.
      lf=$("$objdump" -d "$dir/trx_trace_insert_lockfree.o")
      if ! grep -q ldrex <<<"$lf" || ! grep -q strex <<<"$lf" || grep -q '__atomic' <<<"$lf"; then
        echo "cross_build: FAILED: the Cortex-M4 lock-free insert does not use LDREX/STREX" >&2
        failed=1
      else
        lockfree_note="cortex-m4-lockfree: the claim compiles to LDREX/STREX (no library call)"
      fi
    fi
    # Berkeley totals: text data bss over every object.
    read -r text data bss export_text < <(awk 'NR > 1 { t += $1; d += $2; b += $3 }
        NR > 1 && $6 ~ /trx_export\.o$/ { e += $1 } END { print t, d, b, e + 0 }' "$dir/size.txt")
    table+=("$(printf '%-18s %-4s %8s %8s %8s %12s %12s' "$name" "$opt" "$text" "$data" "$bss" \
               "$((text - export_text))" "$export_text")")
  done
done

echo
echo "Recorder (recorder/*.c: ${#SOURCES[@]} files, TX_ENABLE_EVENT_TRACE, with the port of recorder/port/ named in the target) sizes in bytes"
printf '%-18s %-4s %8s %8s %8s %12s %12s\n' target opt .text .data .bss "text:tracing" "text:export"
for row in "${table[@]}"; do echo "$row"; done
echo "(text:tracing = all but trx_export.o, the part ThreadX's tx_trace_*.o compare with;"
echo " text:export = the Intel HEX/S-record export helpers; per file: $OUT/<target>-<opt>/size.txt)"
[ -n "${lockfree_note:-}" ] && echo "$lockfree_note"

# --- Zero code when tracing is compiled out ------------------------------
# tests/cross/hooks_disabled.c three ways (Cortex-M4 -O2): hook lines removed,
# tracing compiled out (no TX_ENABLE_EVENT_TRACE), tracing on.
probe="$ROOT/tests/cross/hooks_disabled.c"
if [ $m4_built -eq 1 ] && [ -f "$probe" ]; then
  dir="$OUT/hooks-probe"
  mkdir -p "$dir"
  declare -A probe_text=()
  for variant in no-hooks disabled enabled uia-disabled uia-enabled; do
    defs=()
    [ $variant = no-hooks ] && defs=(-DTRX_PROBE_NO_HOOKS=1)
    [ $variant = enabled ] && defs=(-DTX_ENABLE_EVENT_TRACE=1)
    [ $variant = uia-disabled ] && defs=(-DTRX_RECORDER_FORMAT_UIA=1)
    [ $variant = uia-enabled ] && defs=(-DTRX_RECORDER_FORMAT_UIA=1 -DTX_ENABLE_EVENT_TRACE=1)
    if compile "$probe" "$dir/$variant.o" arm-none-eabi-gcc "${COMMON_FLAGS[@]}" -mthumb \
        -mcpu=cortex-m4 -O2 "${M4_PORT[@]}" "${defs[@]}"; then
      probe_text[$variant]=$(arm-none-eabi-size "$dir/$variant.o" | awk 'NR == 2 { print $1 }')
    else
      failed=1
      probe_text[$variant]=?
    fi
  done
  echo
  echo "Hooks probe (tests/cross/hooks_disabled.c, cortex-m4 -O2, 3 hooks) .text bytes:"
  echo "  without hook lines: ${probe_text[no-hooks]}   tracing compiled out: ${probe_text[disabled]}   tracing on: ${probe_text[enabled]}"
  echo "  UIA build (TRX_RECORDER_FORMAT_UIA=1): tracing compiled out: ${probe_text[uia-disabled]}   tracing on: ${probe_text[uia-enabled]}"
  if [ "${probe_text[disabled]}" != "${probe_text[no-hooks]}" ] ||
     [ "${probe_text[uia-disabled]}" != "${probe_text[no-hooks]}" ]; then
    echo "cross_build: FAILED: hooks add code when TX_ENABLE_EVENT_TRACE is not defined" >&2
    failed=1
  elif [ -n "$(arm-none-eabi-nm -u "$dir/uia-disabled.o")" ]; then
    echo "cross_build: FAILED: UIA build, tracing compiled out, but the probe still refers to:" >&2
    arm-none-eabi-nm -u "$dir/uia-disabled.o" >&2
    failed=1
  elif [ -n "$(arm-none-eabi-nm -u "$dir/disabled.o")" ]; then
    echo "cross_build: FAILED: tracing compiled out but the probe still refers to:" >&2
    arm-none-eabi-nm -u "$dir/disabled.o" >&2
    failed=1
  else
    echo "  => the hooks add 0 bytes when tracing is compiled out"
  fi
fi

# --- Insert hot path (Cortex-M4 -O2) -------------------------------------
# The insert is inline (include/trx/recorder.h), so it is measured inside
# tests/cross/insert_probe.c, a function that records one internal RESUME event
# like a kernel hook; HOT_SYMBOL selects another function of the recorder.
m4="$OUT/cortex-m4-O2"
hot_probe="$ROOT/tests/cross/insert_probe.c"
if [ $m4_built -eq 1 ]; then
  obj=""
  if [ -z "${HOT_SYMBOL_SET:-}" ] && [ -f "$hot_probe" ]; then
    if compile "$hot_probe" "$m4/insert_probe.o" arm-none-eabi-gcc "${COMMON_FLAGS[@]}" -mthumb \
        -mcpu=cortex-m4 -O2 "${M4_PORT[@]}"; then
      obj="$m4/insert_probe.o"
    else
      failed=1
    fi
  else
    obj=$(for o in "$m4"/*.o; do
            if arm-none-eabi-nm "$o" 2>/dev/null | grep -q " T $HOT_SYMBOL\$"; then echo "$o"; fi
          done | head -n 1)
  fi
  if [ -z "$obj" ]; then
    echo "cross_build: FAILED: hot-path function $HOT_SYMBOL not found in $m4" >&2
    failed=1
  else
    arm-none-eabi-objdump -dr --no-show-raw-insn "$obj" >"$m4/disassembly.txt"
    echo
    echo "Hot path of $HOT_SYMBOL (cortex-m4 -O2, $(basename "$obj")); full listing: $m4/disassembly.txt"
    # Walks every loop-free path from the entry to a return. The hot path is
    # the one that writes an entry (most store instructions) by the shortest
    # way: on the wrap path the same stores come with extra instructions, and
    # the early exits (tracing off, event filtered) store less.
    if ! python3 - "$m4/disassembly.txt" "$HOT_SYMBOL" <<'PY' | tee "$m4/hot_path.txt"; then failed=1; fi
import re, sys

listing, symbol = sys.argv[1], sys.argv[2]
lines = open(listing).read().splitlines()
insns, inside = [], False
for ln in lines:
    if re.match(r'^[0-9a-f]+ <%s>:$' % re.escape(symbol), ln):
        inside = True
        continue
    if inside:
        if not ln.strip() or re.match(r'^[0-9a-f]+ <', ln):
            break
        if re.search(r'\bR_(ARM|RISCV)_', ln):
            if insns:  # relocation: the previous instruction refers outside
                a, mn, ops = insns[-1]
                insns[-1] = (a, mn, ops + ' @reloc')
            continue
        m = re.match(r'^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$', ln)
        if m and not m.group(2).startswith('.'):  # skip literal pools
            insns.append((int(m.group(1), 16), m.group(2), m.group(3)))
if not insns:
    sys.exit('hot path: %s not found in the listing' % symbol)
index = {a: i for i, (a, _, _) in enumerate(insns)}
CONDS = 'eq|ne|cs|cc|hs|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le'

def kind(mn, ops):
    base = mn.split('.')[0]
    target = None
    t = re.search(r'\b([0-9a-f]+) <', ops)
    if t and '@reloc' not in ops:
        target = int(t.group(1), 16)
        if target not in index:
            target = None
    if base in ('bl', 'blx'):
        return 'call', None
    if base == 'b':
        return ('jump', target) if target is not None else ('exit', None)
    if base in ('cbz', 'cbnz') or re.fullmatch('b(%s)' % CONDS, base):
        return 'cond', target
    ret = (base.startswith('bx') and 'lr' in ops) or \
          (base.startswith('pop') and 'pc' in ops) or \
          (base.startswith('ldm') and 'pc' in ops) or (base.startswith('ldr') and ops.startswith('pc'))
    if ret:
        cond = re.fullmatch(r'(bx|pop|ldm\w*|ldr)(%s)' % CONDS, base)
        return ('condret', None) if cond else ('ret', None)
    return 'plain', None

paths = []
def walk(i, path, seen):
    if len(paths) > 200000:
        return
    while True:
        a, mn, ops = insns[i]
        if i in seen:
            return  # a loop: not part of a straight hot path
        seen = seen | {i}
        k, target = kind(mn, ops)
        if k in ('ret', 'exit'):
            paths.append(path + [(i, True)])  # a return transfers control: taken
            return
        if k == 'jump':
            path = path + [(i, True)]
            i = index[target]
            continue
        if k == 'cond':
            if target is not None:
                walk(index[target], path + [(i, True)], seen)
            path = path + [(i, False)]
        elif k == 'condret':
            paths.append(path + [(i, True)])
            path = path + [(i, False)]
        else:
            path = path + [(i, False)]
        i += 1
        if i >= len(insns):
            return

walk(0, [], frozenset())
if not paths:
    sys.exit('hot path: no path from entry to return')

def stats(p):
    stores = sum(1 for i, _ in p if re.match(r'^(str|stm|vstr|sw|sh|sb)', insns[i][1])
                 and not insns[i][1].startswith('stmdb'))
    branches = sum(1 for i, _ in p if kind(insns[i][1], insns[i][2])[0] in
                   ('jump', 'cond', 'condret', 'ret', 'exit', 'call'))
    taken = sum(1 for _, tk in p if tk)
    calls = sum(1 for i, _ in p if kind(insns[i][1], insns[i][2])[0] == 'call')
    return stores, len(p), branches, taken, calls

hot = sorted(paths, key=lambda p: (-stats(p)[0], stats(p)[1]))[0]
s = stats(hot)
print('  %d entry-to-return paths; %d instructions in the function' % (len(paths), len(insns)))
print('  shortest: %d instructions (an early exit)' % min(stats(p)[1] for p in paths))
print('  HOT PATH (entry written, no wrap): %d instructions, %d branch instructions '
      '(%d taken, the return included), %d calls, %d stores' % (s[1], s[2], s[3], s[4], s[0]))
for i, tk in hot:
    a, mn, ops = insns[i]
    print('    %4x: %-8s %s%s' % (a, mn, ops.split('@')[0].rstrip(), '   <- taken' if tk else ''))
PY
    # the measured TXTB insert (31 instructions, 2026-11-24): a change of more
    # than a few instructions is a failure, not a printed number
    n=$(sed -n 's/.*HOT PATH (entry written, no wrap): \([0-9]*\) instructions.*/\1/p' "$m4/hot_path.txt")
    if [ -z "${HOT_SYMBOL_SET:-}" ] && { [ -z "$n" ] || [ "$n" -lt "${TXTB_HOT_MIN:-29}" ] || [ "$n" -gt "${TXTB_HOT_MAX:-33}" ]; }; then
      echo "cross_build: FAILED: TXTB insert hot path ${n:-?} instructions (measured 31; bounds ${TXTB_HOT_MIN:-29}-${TXTB_HOT_MAX:-33})" >&2
      failed=1
    fi
  fi
fi

# --- UIA record hot path (Cortex-M4 -O2) ---------------------------------
# tests/cross/uia_insert_probe.c writes a 2-argument UIA record with a 64-bit
# timestamp (PrevLen type 10) through the inline writer of uia_recorder.h,
# twice: the port's 32-bit DWT counter extended to 64 bits by the recorder,
# and a 64-bit time source. Same path walker as above; a count outside
# UIA_HOT_MAX (default 40; UIA_HOT_MAX64 34 for the 64-bit source) minus 6 to
# that is a failure.
uia_probe="$ROOT/tests/cross/uia_insert_probe.c"
if [ $m4_built -eq 1 ] && [ -z "${HOT_SYMBOL_SET:-}" ] && [ -f "$uia_probe" ]; then
  walker=$(sed -n "/<<'PY' | tee .*; then failed=1; fi\$/,/^PY\$/p" "$0" | sed '1d;$d')
  for variant in time32 time64; do
    defs=()
    label="32-bit DWT counter extended to 64 bits"
    [ $variant = time64 ] && defs=(-DTRX_UIA_PROBE_TIME64=1) && label="64-bit time source"
    obj="$m4/uia_insert_probe_$variant.o"
    if ! compile "$uia_probe" "$obj" arm-none-eabi-gcc "${COMMON_FLAGS[@]}" -mthumb \
        -mcpu=cortex-m4 -O2 "${M4_PORT[@]}" "${defs[@]}"; then
      failed=1
      continue
    fi
    arm-none-eabi-objdump -dr --no-show-raw-insn "$obj" >"$m4/uia_disassembly_$variant.txt"
    echo
    echo "UIA write2 hot path, $label (cortex-m4 -O2); listing: $m4/uia_disassembly_$variant.txt"
    if ! out=$(python3 -c "$walker" "$m4/uia_disassembly_$variant.txt" trx_probe_uia_write2); then
      failed=1
      continue
    fi
    echo "$out"
    n=$(sed -n 's/.*HOT PATH (entry written, no wrap): \([0-9]*\) instructions.*/\1/p' <<<"$out")
    # measured 2026-11-24: 38 (extended 32-bit counter), 32 (64-bit source)
    max=${UIA_HOT_MAX:-40}
    [ $variant = time64 ] && max=${UIA_HOT_MAX64:-34}
    if [ -z "$n" ] || [ "$n" -gt "$max" ] || [ "$n" -lt $((max - 6)) ]; then
      echo "cross_build: FAILED: UIA write2 hot path ${n:-?} instructions (bounds $((max - 6))-$max)" >&2
      failed=1
    fi
  done
fi

echo
if [ $failed -ne 0 ]; then
  echo "cross_build: FAILED"
  exit 1
fi
[ $skipped -ne 0 ] && echo "cross_build: OK (some targets SKIPPED: compilers missing)" ||
  echo "cross_build: OK"
exit 0
