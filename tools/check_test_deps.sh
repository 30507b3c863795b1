#!/usr/bin/env bash
# check_test_deps.sh - before `make test`: checks that everything the tests
# need is installed (the build tools, cmocka, Python 3, clang with its fuzzer
# runtime, the ARM and RISC-V cross compilers, QEMU, GDB, MinGW + Wine,
# protoc, babeltrace2, node + chromium and the browser test's npm driver).
# This is the one list of what the tests need; .ci/run uses it too.
# `make run` needs none of this: only a C compiler, CMake and make.
#
# usage: tools/check_test_deps.sh [--packages | --install]
#   (none)      report what is missing and the one command that installs it; exit 1 if anything is
#   --packages  print only the missing Debian packages' names, one a line (exit 1 if any)
#   --install   install what is missing: the Debian packages with apt-get when running as root
#               or with password-less sudo, and tests/browser's npm driver with `npm ci`;
#               otherwise (or with TRX_NO_INSTALL=1) the same as no option
set -u
cd "$(dirname "$0")/.."

missing=() # Debian package names
what=()    # what each is for

need() { # need PACKAGE REASON: record a missing package once
  local p
  for p in "${missing[@]+"${missing[@]}"}"; do [ "$p" = "$1" ] && return; done
  missing+=("$1")
  what+=("$1 ($2)")
}
have() { command -v "$1" >/dev/null 2>&1; }
pkg() { # pkg PACKAGE: installed as a Debian package (true where there is no dpkg to ask)
  have dpkg-query || return 0
  [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() {
  missing=()
  what=()
  have cmake || need cmake "the build"
  have make || need make "the build"
  have cc || have gcc || need gcc "the C compiler"
  have clang-format || need clang-format "make format-check"
  have git || need git "make format-check lists the tracked files"
  have python3 || need python3 "statistics and CLI tests"
  have objcopy || need binutils "HEX / S-record conversion tests"
  have xxd || need xxd "ASCII-hex conversion tests"
  have pkg-config || need pkg-config "make install test"
  have bc || need bc "cost-per-insert figures of the firmware tests"
  have protoc || need protobuf-compiler "Perfetto export tests"
  have babeltrace2 || need babeltrace2 "CTF export tests"
  have arm-none-eabi-gcc || need gcc-arm-none-eabi "Cortex-M firmware tests"
  pkg libnewlib-arm-none-eabi || need libnewlib-arm-none-eabi "Cortex-M firmware tests (C library)"
  have riscv64-unknown-elf-gcc || need gcc-riscv64-unknown-elf "RV32 firmware test"
  have qemu-system-arm || need qemu-system-arm "Cortex-M firmware under QEMU"
  have qemu-system-riscv32 || need qemu-system-misc "RV32 firmware under QEMU"
  have gdb-multiarch || need gdb-multiarch "GDB dump command tests"
  have x86_64-w64-mingw32-gcc || need gcc-mingw-w64-x86-64 "Windows build test"
  have wine || need wine "Windows build test (runs trx.exe)"
  pkg wine64 || need wine64 "Windows build test (64-bit trx.exe)"
  have node || need nodejs "report browser test"
  have npm || need npm "report browser test (installs its driver)"
  have chromium || have chromium-browser || need chromium "report browser test"

  # cmocka: the header and the library, where the compiler finds them.
  local cc_cmd
  cc_cmd=$(command -v cc || command -v gcc || true)
  if [ -n "$cc_cmd" ]; then
    printf '#include <stdarg.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <setjmp.h>\n#include <cmocka.h>\nint main(void){return 0;}\n' \
      >"$tmp/c.c"
    "$cc_cmd" "$tmp/c.c" -o "$tmp/c" -lcmocka >/dev/null 2>&1 || need libcmocka-dev "unit tests"
  fi
  # The fuzzers (make fuzz): clang with libFuzzer and the sanitizers.
  if have clang; then
    printf '#include <stdint.h>\n#include <stddef.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n){(void)d;(void)n;return 0;}\n' \
      >"$tmp/f.c"
    if ! clang -fsanitize=fuzzer,address,undefined "$tmp/f.c" -o "$tmp/f" >/dev/null 2>&1; then
      local ver
      ver=$(clang -dumpversion 2>/dev/null | cut -d. -f1)
      need "libclang-rt-${ver:-14}-dev" "fuzzer runtime"
    fi
  else
    need clang "fuzzers"
  fi
}

browser_driver_missing() { [ ! -d tests/browser/node_modules/playwright-core ]; }

# Root, or sudo without a password: the prefix that runs apt-get (empty for root).
as_root() {
  if [ "$(id -u)" = 0 ]; then
    echo ""
  elif have sudo && sudo -n true 2>/dev/null; then
    echo "sudo -n"
  else
    return 1
  fi
}

mode=${1:-}
check
if [ "$mode" = --install ] && [ "${TRX_NO_INSTALL:-0}" != 1 ]; then
  # Twice: some checks (cmocka, the fuzzer runtime) need the compilers of the first round.
  for round in 1 2; do
    [ ${#missing[@]} -gt 0 ] && have apt-get && prefix=$(as_root) || break
    echo "make test: installing ${missing[*]} (apt-get; TRX_NO_INSTALL=1 to only check)"
    export DEBIAN_FRONTEND=noninteractive
    [ "$round" = 1 ] && { $prefix apt-get update -qq || break; }
    $prefix apt-get install -y -qq "${missing[@]}" >/dev/null || break
    check
  done
  if [ ${#missing[@]} -eq 0 ] && browser_driver_missing; then
    echo "make test: installing the browser test's driver (npm ci in tests/browser; no browser download)"
    (cd tests/browser && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund >/dev/null) ||
      { echo "make test: npm ci in tests/browser failed" >&2; exit 1; }
  fi
fi

if [ "$mode" = --packages ]; then
  [ ${#missing[@]} -eq 0 ] && exit 0
  printf '%s\n' "${missing[@]}"
  exit 1
fi
if [ ${#missing[@]} -gt 0 ]; then
  {
    echo "make test needs what is not installed here:"
    printf '  %s\n' "${what[@]}"
    echo "Install it with (or run make test as root on Debian, which installs it):"
    echo "  sudo apt-get install -y ${missing[*]}"
  } >&2
  exit 1
fi
# Source trees the tests build against (not Debian packages): the FreeRTOS kernel.
kernel=${FREERTOS_KERNEL_PATH:-../shared/third_party/FreeRTOS-Kernel}
if [ ! -f "$kernel/tasks.c" ] && [ "${TRX_ALLOW_MISSING_TOOLS:-0}" != 1 ]; then
  {
    echo "make test needs the FreeRTOS kernel sources at $kernel (tasks.c): the FreeRTOS"
    echo "integration tests build against them. Put them there (../shared/third_party is"
    echo "beside the trx checkout), or set FREERTOS_KERNEL_PATH (and configure with"
    echo "-DFREERTOS_KERNEL_PATH=...); TRX_ALLOW_MISSING_TOOLS=1 lets those tests skip."
  } >&2
  exit 1
fi
if browser_driver_missing; then
  {
    echo "make test needs the browser test's driver (playwright-core, no browser download):"
    echo "  (cd tests/browser && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci)"
  } >&2
  exit 1
fi
exit 0
