#!/usr/bin/env bash
# build.sh OUT_DIR [FREERTOS_KERNEL_PATH] - builds the FreeRTOS example for
# QEMU's mps2-an385 (Cortex-M3, FreeRTOS's GCC/ARM_CM3 port) with the trx
# recorder (port trx_port_cortex_m.h, composed SysTick time source) and the
# FreeRTOS integration. The kernel is compiled from FREERTOS_KERNEL_PATH
# (default ../shared/third_party/FreeRTOS-Kernel), never copied. OUT_DIR/fw.elf.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
OUT=$1
K=${2:-${FREERTOS_KERNEL_PATH:-$ROOT/../shared/third_party/FreeRTOS-Kernel}}
mkdir -p "$OUT"
ARCH=(-mthumb -mcpu=cortex-m3 -O2 -g -ffreestanding -ffunction-sections -fdata-sections)
DEFS=(-DTX_ENABLE_EVENT_TRACE -DTRX_RECORDER_PORT_HEADER='"trx_port_cortex_m.h"'
      -DTRX_PORT_TIME_SYSTICK=1)
INC=(-I"$HERE" -I"$HERE/../app" -I"$ROOT/include" -I"$ROOT/recorder" -I"$ROOT/recorder/port"
     -I"$ROOT/recorder/integrations/freertos" -I"$K/include" -I"$K/portable/GCC/ARM_CM3")
objs=()
# ours: warnings are errors
for src in "$HERE/main_mps2.c" "$HERE/../app/trace_app.c" \
           "$ROOT/recorder/integrations/freertos/trx_freertos.c" "$ROOT"/recorder/*.c; do
  obj="$OUT/$(basename "$src" .c).o"
  arm-none-eabi-gcc -std=c99 -Wall -Wextra -Werror "${ARCH[@]}" "${DEFS[@]}" "${INC[@]}" \
    -c "$src" -o "$obj"
  objs+=("$obj")
done
# the kernel: not ours, its warnings are not errors here
for src in "$K/tasks.c" "$K/queue.c" "$K/list.c" "$K/timers.c" "$K/portable/GCC/ARM_CM3/port.c" \
           "$K/portable/MemMang/heap_4.c"; do
  obj="$OUT/kernel_$(basename "$src" .c).o"
  arm-none-eabi-gcc -w "${ARCH[@]}" "${DEFS[@]}" "${INC[@]}" -c "$src" -o "$obj"
  objs+=("$obj")
done
arm-none-eabi-gcc "${ARCH[@]}" -nostdlib -Wl,--gc-sections \
  -T "$ROOT/examples/baremetal/cortex-m/mps2_an386.ld" "${objs[@]}" -lc -lgcc -o "$OUT/fw.elf" # newlib: memcpy/memset for the kernel
