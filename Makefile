# Thin wrapper around CMake. `make run`: build and analyse the bundled demo.
# `make run` needs only a C compiler, CMake and make.
# `make test`: build and run every test (unit, golden, round-trip, firmware
# under QEMU, browser, fuzzers); it first checks what the tests need
# (tools/check_test_deps.sh): run as root (or with password-less sudo) on
# Debian it installs what is missing, otherwise it stops with the command
# that installs it (TRX_NO_INSTALL=1: only check).
# `make windows`: cross-compile build-windows/trx.exe with MinGW-w64.
BUILD      ?= build
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
FUZZ_SECONDS ?= 20
FUZZ_LONG_SECONDS ?= 600
LEAN_FUZZERS = fuzz_txtb fuzz_uia fuzz_uia_meta fuzz_live fuzz_ihex fuzz_srec fuzz_ascii fuzz_trxc fuzz_elf fuzz_http

.PHONY: build install run test test-deps test-unit test-sanitize test-tsan fuzz fuzz-long fuzzers format format-check clean windows

build:
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# `make install PREFIX=/usr/local`: the CLI, man page, headers, libtrx (static
# and shared), the recorder sources and ports, the GDB script, pkg-config and
# CMake package files (cmake/trx_install.cmake).
PREFIX ?= /usr/local
install: build
	@cmake --install $(BUILD) --prefix "$(PREFIX)"

run: build
	@./examples/run_demo.sh $(BUILD)

test-deps:
	@./tools/check_test_deps.sh --install

test-unit: test-deps build
	@cd $(BUILD) && ctest --output-on-failure --no-tests=error -j $(JOBS)

# Left out of the sanitizer run: tests of packaging and cross compilers whose
# programs are not the sanitized build's (MinGW's trx.exe under Wine, the
# cross-compiled recorder, the installed tree); `make test` runs them.
NOT_SANITIZED = ^(windows_wine|cross_build|install_prefix)$$
test-sanitize: test-deps
	@cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Debug -DTRX_SANITIZE=ON >/dev/null
	@cmake --build build-sanitize -j $(JOBS)
	@cd build-sanitize && TRX_TEST_SPARSE=8 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS) -E '$(NOT_SANITIZED)'

# The tests that run threads (two traces in one process, the stats helper
# thread, lock-free and per-core recorders) under ThreadSanitizer.
TSAN_TESTS = test_two_traces|stats_parallel_same|overview_halves|test_uia_per_core|test_recorder_smp|test_recorder_lockfree|test_core_summary_split|test_open_counts|test_jobs|stats_segments|cinv_segments|timing_segments|tracex_marks_segments|latency_segments|uia_segments_same
test-tsan: test-deps
	@cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=Debug -DTRX_TSAN=ON >/dev/null
	@cmake --build build-tsan -j $(JOBS)
	@cd build-tsan && TRX_TEST_SPARSE=8 TSAN_OPTIONS=halt_on_error=1 ctest --output-on-failure --no-tests=error -j $(JOBS) -R '$(TSAN_TESTS)'

fuzzers:
	@CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DTRX_FUZZ=ON >/dev/null
	@cmake --build build-fuzz -j $(JOBS) --target fuzzers

# The lean targets (decoder alone, each loader) and the full paths, FUZZ_SECONDS each.
fuzz: fuzzers
	@./tests/fuzz/run_fuzzers.sh build-fuzz $(FUZZ_SECONDS) $(LEAN_FUZZERS) fuzz_decode fuzz_export fuzz_gate fuzz_segments

# Longer: FUZZ_LONG_SECONDS each, six times that (an hour by default) for the full paths.
fuzz-long: fuzzers
	@./tests/fuzz/run_fuzzers.sh build-fuzz $(FUZZ_LONG_SECONDS) $(LEAN_FUZZERS) \
	  fuzz_decode=$$(( $(FUZZ_LONG_SECONDS) * 6 )) fuzz_export=$$(( $(FUZZ_LONG_SECONDS) * 6 )) \
	  fuzz_gate=$$(( $(FUZZ_LONG_SECONDS) * 6 )) fuzz_segments=$$(( $(FUZZ_LONG_SECONDS) * 6 ))

windows:
	@cmake -S . -B build-windows -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64.cmake -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build build-windows -j $(JOBS) --target trx_cli

format-check:
	@./tools/format_check.sh

format:
	@clang-format -i $$(git ls-files '*.c' '*.h')

test: test-deps
	@$(MAKE) --no-print-directory format-check test-unit fuzz

clean:
	rm -rf build build-sanitize build-tsan build-fuzz build-windows build-bare
