#!/usr/bin/env python3
"""why_inversions.py - `trx why --json` on the real ThreadX traces of mutex
waits (tests/stats/inherit/: inherit*.trx with TX_INHERIT, noinherit*.trx
with TX_NO_INHERIT, and the recording program's truth, one line per wait).

Every instance of high_prio (numbers from `trx latency --json`) is asked
for; its blocked segments, in order, must be the waits of the truth, one
for one: on inv_lock, held by low_prio, and the holder's own split under
each must tell the wait's truth:
  - a wait the truth calls unbounded, where medium ran instead of the ready
    holder (without inheritance: `ready`, `inside`): a nested `preempted`
    segment naming medium_prio, flagged unbounded;
  - `inside` with inheritance (the raised holder sleeps with the mutex
    held, medium runs meanwhile): a nested `waiting` segment of low_prio
    and no medium_prio;
  - a bounded wait: medium_prio nowhere in the nested path, nothing
    flagged unbounded (with inheritance medium never preempts the holder).
Every blocked segment's children add up to it. The text story of the worst
instance without inheritance names the unbounded priority inversion.

usage: why_inversions.py TRX DIR
"""
import json
import os
import sys

TRX, DIR = sys.argv[1:3]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from why_support import fail, failures, trx_of  # noqa: E402

trx = trx_of(TRX)


def truth_of(path):
    waits = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if w[0] == "wait":
                waits.append(dict(zip(w[0::2], w[1::2])))
    return waits


def blocked_segments(trace):
    """The top-level blocked segments of every complete high_prio instance, in order."""
    lat = json.loads(trx("latency", trace, "--thread", "high_prio", "--worst", "1024", "--json"))
    numbers = sorted(w["number"] for w in lat["threads"][0]["worst"])
    if len(numbers) != lat["threads"][0]["instances"]:
        fail("%s: %d instances listed of %d" % (trace, len(numbers), lat["threads"][0]["instances"]))
    out = []
    for n in numbers:
        path = json.loads(trx("why", trace, "--thread", "high_prio", "--instance", str(n), "--json"))
        if path["instance"]["number"] != n:
            fail("%s: asked for #%d, got #%d" % (trace, n, path["instance"]["number"]))
        for s in path["segments"]:
            if s["state"] == "blocked":
                out.append((n, s))
    return out


def check(name):
    trace = "%s/%s.trx" % (DIR, name)
    waits = truth_of("%s/%s.truth" % (DIR, name))
    inherit = not name.startswith("noinherit")
    blocked = blocked_segments(trace)
    if len(blocked) != len(waits):
        fail("%s: %d blocked segments, the truth has %d waits" % (name, len(blocked), len(waits)))
    unbounded_seen = 0
    for w, (number, s) in zip(waits, blocked):
        where = "%s wait %s (%s, high_prio #%d)" % (name, w["wait"], w["scenario"], number)
        if (s["object"], s["holder"]) != ("inv_lock", "low_prio"):
            fail("%s: blocked on %s held by %s" % (where, s["object"], s["holder"]))
        kids = s["segments"]
        if not kids or sum(k["ticks"] for k in kids) != s["ticks"]:
            fail("%s: the holder's split does not add up to the wait" % where)
        medium = [k for k in kids if k["context"] == "medium_prio"]
        unbounded = [k for k in kids if k["unbounded"]]
        if w["kind"] == "unbounded" and not (inherit and w["scenario"] == "inside"):
            unbounded_seen += 1
            if not any(k["state"] == "preempted" and k["unbounded"] for k in medium):
                fail("%s: no unbounded preemption of low_prio by medium_prio: %s"
                     % (where, [(k["state"], k["context"], k["unbounded"]) for k in kids]))
            if any(k["context"] not in ("low_prio", "medium_prio", "System Timer Thread")
                   for k in kids):
                fail("%s: a thread other than low, medium or the timer in the path" % where)
        elif w["scenario"] == "inside":
            if medium or unbounded:
                fail("%s: medium_prio preempts the sleeping holder?" % where)
            if not any(k["state"] == "waiting" and k["context"] == "low_prio" for k in kids):
                fail("%s: no waiting segment of the sleeping holder" % where)
        else:
            if medium or unbounded:
                fail("%s: a bounded wait names medium_prio or an unbounded segment: %s"
                     % (where, [(k["state"], k["context"], k["unbounded"]) for k in kids]))
    expected = sum(1 for w in waits if w["kind"] == "unbounded"
                   and not (inherit and w["scenario"] == "inside"))
    print("%s: %d waits, %d with medium preempting the holder" % (name, len(waits), unbounded_seen))
    if unbounded_seen != expected:
        fail("%s: %d unbounded waits checked, expected %d" % (name, unbounded_seen, expected))
    return expected


total = 0
for name in ("noinherit_correct", "inherit_correct", "noinherit", "inherit"):
    total += check(name)
if total == 0:
    fail("no unbounded wait in any trace: the test cannot fail the way it should")
story = trx("why", DIR + "/noinherit_correct.trx", "--thread", "high_prio", "--worst").splitlines()[0]
if "of which" not in story or "low_prio was preempted by medium_prio" not in story \
        or "unbounded priority inversion" not in story:
    fail("the story does not name the inversion: " + story)
story = trx("why", DIR + "/inherit_correct.trx", "--thread", "high_prio", "--worst").splitlines()[0]
if "medium_prio" in story or "unbounded" in story:
    fail("with inheritance the story names medium or an unbounded inversion: " + story)
if failures:
    sys.exit("%d failure(s)" % len(failures))
print("ok")
