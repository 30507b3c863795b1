#!/usr/bin/env bash
# run.sh - proves the test suite catches wrong answers: applies each product
# change of mutations.txt, one at a time, to a scratch copy of the tree,
# builds it, runs the tests named for it and expects at least one to fail.
# Not part of `make test` (a build per change); run it after changing tests:
#   tests/mutate/run.sh [SCRATCH_DIR] [NAME...]
# Prints CAUGHT or MISSED per change; exit 1 if any was missed or did not apply.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SCRATCH=${1:-/tmp/trx-mutate}
shift || true
only=("$@")
mkdir -p "$SCRATCH"
rm -rf "$SCRATCH/src"
mkdir -p "$SCRATCH/src"
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$SCRATCH/src")
ln -sfn "$ROOT/../shared" "$SCRATCH/shared"
[ -d "$ROOT/tests/browser/node_modules" ] && ln -sfn "$ROOT/tests/browser/node_modules" "$SCRATCH/src/tests/browser/node_modules"
cmake -S "$SCRATCH/src" -B "$SCRATCH/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$SCRATCH/build" -j "$(nproc)" >/dev/null

python3 "$ROOT/tests/mutate/check_apply.py" "$ROOT" --list > "$SCRATCH/list.txt"

missed=0
while IFS=$'\x1f' read -r -a f; do  # unit separators: empty fields survive
  name=${f[0]} file=${f[1]} tests=${f[2]}
  unset 'f[${#f[@]}-1]' # the "." after the last field
  if [ ${#only[@]} -gt 0 ] && ! printf '%s\n' "${only[@]}" | grep -qx "$name"; then continue; fi
  target="$SCRATCH/src/$file"
  cp "$target" "$SCRATCH/orig"
  if ! python3 - "$target" "${f[@]:3}" <<'PY'; then
import sys
path, pairs = sys.argv[1], sys.argv[2:]
s = open(path).read()
for old, new in zip(pairs[0::2], pairs[1::2]):
    old, new = old.replace("\\n", "\n"), new.replace("\\n", "\n")
    if old not in s:
        sys.exit("does not apply: %r not in %s" % (old[:60], path))
    s = s.replace(old, new, 1)
open(path, "w").write(s)
PY
    echo "NOT APPLIED $name"
    missed=1
    continue
  fi
  if ! cmake --build "$SCRATCH/build" -j "$(nproc)" >"$SCRATCH/build.log" 2>&1; then
    echo "CAUGHT      $name (does not build)"
  elif (cd "$SCRATCH/build" && ctest -R "$tests" >"$SCRATCH/test-$name.log" 2>&1); then
    echo "MISSED      $name: tests '$tests' all pass"
    missed=1
  else
    echo "CAUGHT      $name: $(grep -c 'Failed' "$SCRATCH/test-$name.log" || true) failing in '$tests'"
  fi
  cp "$SCRATCH/orig" "$target"
  touch "$target"
done < "$SCRATCH/list.txt"
cmake --build "$SCRATCH/build" -j "$(nproc)" >/dev/null 2>&1 || true
exit $missed
