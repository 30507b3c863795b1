#!/usr/bin/env bash
# install_test.sh SOURCE_DIR TRACE - `cmake --install` into a temporary
# prefix from a fresh build (only the installable parts, -DTRX_PACKAGE_ONLY=ON),
# then the build tree is deleted and everything is checked against the
# prefix alone: the installed files (soname, man page, headers, recorder and
# ports, GDB script, pkg-config, CMake package), `trx info`, a host program
# built with pkg-config, a CMake project using find_package(trx) (trx::trx and
# trx_add_recorder), and a Cortex-M firmware compiled from the installed
# recorder and port (when arm-none-eabi-gcc is installed).
set -euo pipefail
SRC=$1 TRACE=$2
HERE=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P="$tmp/prefix"
cmake -S "$SRC" -B "$tmp/build" -DCMAKE_BUILD_TYPE=Release -DTRX_PACKAGE_ONLY=ON >/dev/null
cmake --build "$tmp/build" -j 2 >/dev/null
cmake --install "$tmp/build" --prefix "$P" >/dev/null
rm -rf "$tmp/build"
fail=0
libdir=$(cd "$P" && ls -d lib*/ | head -n 1)
libdir=${libdir%/}
[ -f "$P/$libdir/libtrx.a" ] || libdir=$(dirname "$(cd "$P" && find . -name libtrx.a | head -n 1)")
for f in bin/trx share/man/man1/trx.1 include/trx/trx.h include/trx/recorder.h \
         include/trx/export.h "$libdir/libtrx.a" "$libdir/libtrx.so.0" \
         share/trx/recorder/trx_trace_insert.c share/trx/recorder/port/trx_port_cortex_m.h \
         share/trx/recorder/port/trx_port_cortex_m0.h share/trx/recorder/port/trx_port_riscv32.h \
         share/trx/recorder/integrations/freertos/trx_freertos.h share/trx/gdb/trx.py \
         "$libdir/pkgconfig/trx.pc" "$libdir/cmake/trx/trxConfig.cmake"; do
  [ -e "$P/$f" ] || { echo "FAIL: not installed: $f"; fail=1; }
done
soname=$(readelf -d "$P/$libdir/libtrx.so.0" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = libtrx.so.0 ] || { echo "FAIL: soname '$soname', expected libtrx.so.0"; fail=1; }
if grep -rIl -- "$SRC" "$P" >/dev/null 2>&1; then
  echo "FAIL: installed files refer to the source tree:"; grep -rIl -- "$SRC" "$P"; fail=1
fi

expected=$("$P/bin/trx" info --json "$TRACE" | python3 -c \
  'import json,sys; d=json.load(sys.stdin); print("capacity %d used %d" % (d["capacity"], d["entries_used"]))')

# host program through pkg-config (shared library); .ci/run installs pkg-config
if ! command -v pkg-config >/dev/null 2>&1; then
  echo "FAIL: pkg-config not installed (apt-get install pkg-config)"
  exit 1
fi
export PKG_CONFIG_PATH="$P/$libdir/pkgconfig"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Werror "$HERE/consumer/host_info.c" $(pkg-config --cflags --libs trx) -o "$tmp/host_pc"
got=$(LD_LIBRARY_PATH="$P/$libdir" "$tmp/host_pc" "$TRACE")
[ "$got" = "$expected" ] || { echo "FAIL: pkg-config program says '$got', trx info '$expected'"; fail=1; }
# (ldd's output is read whole: with pipefail, grep -q quitting early could
# fail the pipeline through SIGPIPE)
libs=$(LD_LIBRARY_PATH="$P/$libdir" ldd "$tmp/host_pc")
case $libs in
*"libtrx.so.0 => $P/"*) ;;
*) echo "FAIL: the pkg-config program does not use the installed libtrx.so.0"; fail=1 ;;
esac

# CMake project through find_package(trx)
cmake -S "$HERE/consumer" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$P" >/dev/null
cmake --build "$tmp/consumer" >/dev/null
got=$(LD_LIBRARY_PATH="$P/$libdir" "$tmp/consumer/host_info" "$TRACE")
[ "$got" = "$expected" ] || { echo "FAIL: find_package program says '$got'"; fail=1; }
[ -f "$tmp/consumer/libfirmware.a" ] || { echo "FAIL: no firmware library"; fail=1; }

# a Cortex-M firmware from the installed recorder and port
if command -v arm-none-eabi-gcc >/dev/null 2>&1; then
  R="$P/share/trx/recorder"
  for src in "$HERE/consumer/firmware.c" "$R"/*.c; do
    arm-none-eabi-gcc -std=c99 -O2 -Wall -Wextra -Werror -mthumb -mcpu=cortex-m4 -ffreestanding \
      -I"$P/include" -I"$R" -I"$R/port" -DTX_ENABLE_EVENT_TRACE \
      -DTRX_RECORDER_PORT_HEADER='"trx_port_cortex_m.h"' -c "$src" \
      -o "$tmp/$(basename "$src" .c).o" || { echo "FAIL: firmware build: $src"; fail=1; }
  done
else
  echo "note: arm-none-eabi-gcc not installed; Cortex-M firmware build not tried"
fi
[ $fail -eq 0 ] && echo "ok: installed into a temporary prefix; trx, pkg-config, find_package and firmware builds work from it alone"
exit $fail
