#!/usr/bin/env bash
# check_test_deps.sh - before `make test`: checks that what the tests need is
# installed (clang-format, cmocka, Python 3, clang with its fuzzer runtime,
# objcopy, xxd, git, protoc, babeltrace2, node, chromium) and, if anything is
# missing, stops with the one command that installs it (Debian / Ubuntu package names) and exit status 1.
# `make run` needs none of this: only a C compiler, CMake and make.
#
# usage: tools/check_test_deps.sh [--packages]
#   --packages   print only the missing packages' names (for scripts)
set -u

missing=()     # Debian package names
what=()        # what each is for

need() { # need PACKAGE REASON: record a missing package once
  local p
  for p in "${missing[@]+"${missing[@]}"}"; do [ "$p" = "$1" ] && return; done
  missing+=("$1")
  what+=("$1 ($2)")
}
have() { command -v "$1" >/dev/null 2>&1; }

have cmake || need cmake "the build"
have make || need make "the build"
have cc || have gcc || need gcc "the C compiler"
have clang-format || need clang-format "make format-check"
have git || need git "make format-check lists the tracked files"
have python3 || need python3 "statistics tests"
have objcopy || need binutils "HEX / S-record conversion tests"
have xxd || need xxd "ASCII-hex conversion tests"
have protoc || need protobuf-compiler "Perfetto export tests"
have babeltrace2 || need babeltrace2 "CTF export tests"
have node || need nodejs "report browser test"
have chromium || need chromium "report browser test"

# cmocka: the header and the library, where the compiler finds them.
cc_cmd=$(command -v cc || command -v gcc || true)
if [ -n "$cc_cmd" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  printf '#include <stdarg.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <setjmp.h>\n#include <cmocka.h>\nint main(void){return 0;}\n' \
    > "$tmp/c.c"
  "$cc_cmd" "$tmp/c.c" -o "$tmp/c" -lcmocka >/dev/null 2>&1 || need libcmocka-dev "unit tests"
  # The fuzzers (make fuzz): clang with libFuzzer and the sanitizers.
  if have clang; then
    printf '#include <stdint.h>\n#include <stddef.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n){(void)d;(void)n;return 0;}\n' \
      > "$tmp/f.c"
    if ! clang -fsanitize=fuzzer,address,undefined "$tmp/f.c" -o "$tmp/f" >/dev/null 2>&1; then
      ver=$(clang -dumpversion 2>/dev/null | cut -d. -f1)
      need "libclang-rt-${ver:-14}-dev" "fuzzer runtime"
    fi
  else
    need clang "fuzzers"
  fi
fi

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "${1:-}" = "--packages" ]; then
  printf '%s\n' "${missing[@]}"
  exit 1
fi
{
  echo "make test needs what is not installed here:"
  printf '  %s\n' "${what[@]}"
  echo "Install it with:"
  echo "  sudo apt-get install -y ${missing[*]}"
} >&2
exit 1
