"""What the Python tests share for saying what failed: `expect` records a
failure (and prints it), `finish` prints the summary line and exits 1 when
anything failed."""
import sys

failures = []


def expect(cond, what):
    """Records `what` as a failure when `cond` is false."""
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def finish(name):
    """Prints "NAME: K failures" and exits with 1 when there were any."""
    print("%s: %d failures" % (name, len(failures)))
    sys.exit(1 if failures else 0)
