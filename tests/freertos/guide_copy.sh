# guide_copy.sh - sourced by the tests that run a guide's blocks literally
# (guide_literal.sh, stream_guide_literal.sh): `guide_copy WORK DOC COUNT
# TOOL...` checks the tools (exit 77 only with TRX_ALLOW_MISSING_TOOLS=1),
# copies the tree's files into WORK/trx with ../shared beside it, and writes
# the DOC's COUNT "<!-- guide-run -->" blocks, in order, to WORK/trx/guide.sh.
guide_copy() {
  local work=$1 doc=$2 count=$3 root tool
  shift 3
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || {
      [ "${TRX_ALLOW_MISSING_TOOLS:-0}" = 1 ] && { echo "SKIP: $tool not installed (TRX_ALLOW_MISSING_TOOLS=1)"; exit 77; }
      echo "FAIL: $tool not installed (tools/check_test_deps.sh installs it)" >&2
      exit 1
    }
  done
  rm -rf "$work"
  mkdir -p "$work/trx"
  (cd "$root" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$work/trx")
  ln -s "$(cd "$root/../shared" && pwd)" "$work/shared"
  python3 - "$doc" "$work/trx/guide.sh" "$count" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
blocks = re.findall(r"<!-- guide-run -->\n```[a-z]*\n(.*?)```", text, re.S)
if len(blocks) != int(sys.argv[3]):
    sys.exit("%s: expected %s guide-run blocks, found %d" % (sys.argv[1], sys.argv[3], len(blocks)))
open(sys.argv[2], "w").write("".join(blocks))
PY
}
