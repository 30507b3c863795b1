#!/usr/bin/env bash
# build.sh ARCH OUT_DIR [MAIN] - builds the bare-metal example for QEMU:
#   cortex-m  mps2-an386 (Cortex-M4), recorder port trx_port_cortex_m.h with
#             the composed SysTick time source (QEMU has no DWT)
#   riscv32   virt (RV32IMAC), recorder port trx_port_riscv32.h (mcycle)
# MAIN: the example (main: fw_main.c, a trace buffer exported at the end;
# stream: fw_stream.c, streaming while it runs; stream-txtb: the same with
# the events in a TXTB buffer drained into the stream). Output: OUT_DIR/fw.elf.
# Needs arm-none-eabi-gcc / riscv64-unknown-elf-gcc.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
ARCH=$1
OUT=$2
MAIN=${3:-main}
mkdir -p "$OUT"
COMMON=(-std=c99 -O2 -g -ffreestanding -nostdlib -Wall -Wextra -Werror -ffunction-sections
        -I"$ROOT/include" -I"$ROOT/recorder" -I"$ROOT/recorder/port" -I"$HERE/common"
        -DTX_ENABLE_EVENT_TRACE)
case "$MAIN" in
  main) SOURCES=("$HERE/common/fw_main.c" "$ROOT"/recorder/*.c) ;;
  stream) SOURCES=("$HERE/common/fw_stream.c" "$ROOT"/recorder/*.c) ;;
  stream-txtb) SOURCES=("$HERE/common/fw_stream.c" "$ROOT"/recorder/*.c) COMMON+=(-DFW_TXTB=1) ;;
  *) echo "build.sh: unknown MAIN '$MAIN' (main, stream or stream-txtb)" >&2; exit 2 ;;
esac
case "$ARCH" in
  cortex-m)
    CC=arm-none-eabi-gcc
    FLAGS=(-mthumb -mcpu=cortex-m4 -DTRX_RECORDER_PORT_HEADER='"trx_port_cortex_m.h"'
           -DTRX_PORT_TIME_SYSTICK=1 -T "$HERE/cortex-m/mps2_an386.ld")
    SOURCES+=("$HERE/cortex-m/board_mps2.c")
    ;;
  riscv32)
    CC=riscv64-unknown-elf-gcc
    MARCH=rv32imac_zicsr
    echo 'int x;' | $CC -march=$MARCH -mabi=ilp32 -x c -c - -o /dev/null 2>/dev/null || MARCH=rv32imac
    FLAGS=(-march=$MARCH -mabi=ilp32 -mcmodel=medany -Wl,--no-warn-rwx-segments -DTRX_RECORDER_PORT_HEADER='"trx_port_riscv32.h"'
           -T "$HERE/riscv32/virt.ld")
    SOURCES+=("$HERE/riscv32/board_virt.c" "$HERE/riscv32/start.S")
    ;;
  *)
    echo "build.sh: unknown ARCH '$ARCH' (cortex-m or riscv32)" >&2
    exit 2
    ;;
esac
"$CC" "${COMMON[@]}" "${FLAGS[@]}" -Wl,--gc-sections "${SOURCES[@]}" -lgcc -o "$OUT/fw.elf"
