#!/usr/bin/env python3
"""why_cli.py - `trx why` as a command: the JSON schema of docs/latency.md
key for key (with *_us beside every tick figure given --ticks-per-us, and a
waker of the same shape with --depth), --at finding the instance --instance
names, the text's story line, and the errors: an unknown thread, an
instance that does not exist, an incomplete one, a missing or doubled
choice (exit 1, one line naming what is wrong).

usage: why_cli.py TRX INHERIT_DIR FREERTOS_TRACE
"""
import json
import subprocess
import sys

TRX, DIR, FREERTOS = sys.argv[1:4]
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL " + msg, file=sys.stderr)


def run(*args):
    return subprocess.run([TRX, "why"] + list(args), capture_output=True, text=True)


TRACE = DIR + "/noinherit_correct.trx"
TICKS = {"start_ticks", "end_ticks", "ticks"}
SEGMENT = TICKS | {"state", "context", "object", "holder", "unbounded", "segments"}
INSTANCE = {"number", "release_index", "end_index", "release_ticks", "end_ticks",
            "response_ticks", "execution_ticks", "released_by"}
INSTANCE_TICKS = {"release_ticks", "end_ticks", "response_ticks", "execution_ticks"}


def with_us(keys, ticks, us):
    return keys | ({k + "_us" for k in ticks} if us else set())


def check_segments(where, segments, us):
    for s in segments:
        if set(s) != with_us(SEGMENT, TICKS, us):
            fail("%s: segment keys %s" % (where, sorted(set(s) ^ with_us(SEGMENT, TICKS, us))))
        if s["state"] not in ("running", "preempted", "interrupted", "blocked", "ready",
                              "waiting"):
            fail("%s: state %s" % (where, s["state"]))
        if s["ticks"] != s["end_ticks"] - s["start_ticks"]:
            fail("%s: ticks != end - start" % where)
        if us and abs(s["ticks_us"] - s["ticks"] / 1000.0) > 0.001:
            fail("%s: ticks_us %s for %d ticks at 1000 ticks/us" % (where, s["ticks_us"], s["ticks"]))
        if (s["state"] == "blocked") != (s["object"] is not None):
            fail("%s: object %s on a %s segment" % (where, s["object"], s["state"]))
        check_segments(where + " > " + s["state"], s["segments"], us)


def check_path(where, d, us):
    keys = {"thread", "story", "instance", "segments"} | ({"waker"} if "waker" in d else set())
    if set(d) != keys:
        fail("%s: keys %s" % (where, sorted(d)))
    if set(d["instance"]) != with_us(INSTANCE, INSTANCE_TICKS, us):
        fail("%s: instance keys %s" % (where, sorted(d["instance"])))
    if set(d["instance"]["released_by"]) != {"context", "event_index", "object"}:
        fail("%s: released_by keys %s" % (where, sorted(d["instance"]["released_by"])))
    check_segments(where, d["segments"], us)
    if "waker" in d:
        check_path(where + " waker", d["waker"], us)


worst = run(TRACE, "--thread", "high_prio", "--worst", "--json", "--depth", "2",
            "--ticks-per-us", "1000")
if worst.returncode != 0:
    fail("--worst: exit %d %s" % (worst.returncode, worst.stderr))
d = json.loads(worst.stdout)
check_path("worst", d, True)
if d["thread"] != "high_prio" or d["instance"]["number"] != 4:
    fail("worst: %s #%s (trx latency's worst is #4)" % (d["thread"], d["instance"]["number"]))
rb = d["instance"]["released_by"]
if rb != {"context": "low_prio", "event_index": 68, "object": "inv_lock"}:
    fail("released_by %s" % rb)
if d.get("waker", {}).get("thread") != "low_prio" or \
        d["waker"]["instance"]["end_index"] != rb["event_index"]:
    fail("the waker is not low_prio up to event 68: %s" % d.get("waker", {}).get("instance"))
if d["waker"].get("waker", {}).get("thread") != "System Timer Thread":
    fail("the waker's waker is not the timer thread")

plain = json.loads(run(TRACE, "--thread", "high_prio", "--instance", "4", "--json").stdout)
check_path("instance 4", plain, False)
if "waker" in plain:
    fail("a waker without --depth")
mid = plain["instance"]["release_ticks"] + plain["instance"]["response_ticks"] // 2
at = json.loads(run(TRACE, "--thread", "high_prio", "--at", str(mid), "--json").stdout)
if at != plain:
    fail("--at %d differs from --instance 4" % mid)
text = run(TRACE, "--thread", "high_prio", "--instance", "4").stdout.splitlines()
if not text or text[0] != plain["story"]:
    fail("the text's first line is not the story: %s" % text[:1])
if not text[0].startswith("high_prio #4 took 166,996 ticks (1.8x its median): 60 % blocked on "
                          "inv_lock held by low_prio, of which 38 % low_prio was preempted by "
                          "medium_prio - an unbounded priority inversion"):
    fail("story: " + text[0])

ERRORS = [
    ((TRACE, "--thread", "nope", "--worst"), "no thread 'nope'"),
    ((TRACE, "--thread", "high_prio", "--instance", "99"), "does not exist"),
    ((TRACE, "--thread", "high_prio", "--at", "1"), "does not exist"),
    ((FREERTOS, "--thread", "control", "--instance", "141"), "is incomplete"),
    ((TRACE, "--thread", "high_prio"), "one of --worst, --instance N, --at TICKS"),
    ((TRACE, "--thread", "high_prio", "--worst", "--instance", "2"), "one of --worst"),
    ((TRACE, "--worst"), "exactly one thread"),
    ((TRACE, "--thread", "writer", "--worst"), "no complete instance"),
]
for args, words in ERRORS:
    r = run(*args)
    if r.returncode != 1 or words not in r.stderr or r.stdout:
        fail("%s: exit %d, stderr %r (expected 1 and %r)" % (args[1:], r.returncode, r.stderr,
                                                              words))
if failures:
    sys.exit("%d failure(s)" % len(failures))
print("ok")
