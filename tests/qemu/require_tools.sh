# require_tools.sh - sourced by the QEMU test scripts: `require_tools TOOL...`
# fails (exit 1) when a tool is not installed, or skips (exit 77, ctest SKIP)
# with TRX_ALLOW_MISSING_TOOLS=1.
require_tools() {
  local tool
  for tool in "$@"; do
    if ! command -v "$tool" >/dev/null 2>&1; then
      [ "${TRX_ALLOW_MISSING_TOOLS:-0}" = 1 ] && { echo "SKIP: $tool not installed (TRX_ALLOW_MISSING_TOOLS=1)"; exit 77; }
      echo "FAIL: $tool not installed (tools/check_test_deps.sh installs it)" >&2
      exit 1
    fi
  done
}
