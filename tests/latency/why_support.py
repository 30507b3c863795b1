"""why_support.py - what the Python tests of trx latency / trx why (and the
inheritance truth) share: running trx, and failures collected to the end."""
import subprocess
import sys

failures = []


def fail(msg):
    """Records a failure (the test goes on, and exits 1 at the end)."""
    failures.append(msg)
    print("FAIL " + msg, file=sys.stderr)


def trx_of(path):
    """A function running the trx at `path` with arguments: its stdout (exit 0 required)."""
    def trx(*args):
        return subprocess.run([path] + list(args), check=True, capture_output=True,
                              text=True).stdout
    return trx
