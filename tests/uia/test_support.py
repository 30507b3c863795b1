"""test_support.py - what the UIA test scripts share: check() notes a failure
with its description, finish() prints the count and exits 1 if any failed."""
import sys

failures = 0


def check(cond, what):
    global failures
    if not cond:
        print("FAIL " + what)
        failures += 1


def finish(name):
    print("%s: %d failure(s)" % (name, failures))
    sys.exit(1 if failures else 0)
