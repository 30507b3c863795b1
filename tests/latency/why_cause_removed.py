#!/usr/bin/env python3
"""why_cause_removed.py - one cause taken out of a real trace changes the
critical path accordingly, and nothing else.

In noinherit_correct.trx (tests/stats/inherit/) high_prio's worst instance
waits for inv_lock while low_prio holds it, and medium_prio preempts low_prio
inside that wait (`trx why` names it: an unbounded inversion). A copy of the
trace is rewritten so that medium's run disappears: the RESUME that made
medium run names low_prio as the next thread, and medium's own events
inside that run are logged by low_prio instead (medium still becomes ready
and suspends, but never runs). On the copy the same instance must have the
same release, end, response and top-level segments, while the holder's
split of the wait has no medium_prio and no unbounded segment: low_prio ran
the whole wait.

usage: why_cause_removed.py TRX DIR WORKDIR
"""
import json
import os
import struct
import sys

TRX, DIR, WORK = sys.argv[1:4]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from why_support import fail, failures, trx_of  # noqa: E402

trx = trx_of(TRX)


def why(trace, *args):
    return json.loads(trx("why", trace, "--thread", "high_prio", "--json", *args))


def blocked(path):
    return [s for s in path["segments"] if s["state"] == "blocked"]


src = os.path.join(DIR, "noinherit_correct.trx")
before = why(src, "--worst")
number = before["instance"]["number"]
preempted = [k for s in blocked(before) for k in s["segments"]
             if k["state"] == "preempted" and k["context"] == "medium_prio"]
if len(preempted) != 1 or not preempted[0]["unbounded"]:
    sys.exit("FAIL the original path has no one unbounded preemption by medium_prio: %s"
             % json.dumps(blocked(before)))
start, end = preempted[0]["start_ticks"], preempted[0]["end_ticks"]

events = [json.loads(line) for line in trx("events", "--format", "jsonl", src).splitlines()]
medium = next(e["thread"] for e in events if e["thread_name"] == "medium_prio")
low = next(e["thread"] for e in events if e["thread_name"] == "low_prio")
resume = [e for e in events if e["ticks"] == start and e["name"] == "TX INTERNAL RESUME"
          and e["info"][0] == medium and e["info"][3] == medium]
own = [e for e in events if start <= e["ticks"] <= end and e["thread"] == medium
       and not e["synthetic"]]
if len(resume) != 1 or not own:
    sys.exit("FAIL the trace is not as this test expects (resume %d, medium's events %d)"
             % (len(resume), len(own)))

data = bytearray(open(src, "rb").read())


def entry_of(e):
    """The offset of event e's 32-byte entry: its id and time stamp words, once."""
    key = struct.pack("<II", e["id"], e["timestamp"])
    at = data.find(key)
    if at < 8 or data.find(key, at + 1) != -1:
        sys.exit("FAIL event %d: no single entry with its id and time stamp" % e["index"])
    return at - 8


r = entry_of(resume[0])
low_priority_word = data[r + 4:r + 8]  # the resume is logged by low_prio
data[r + 28:r + 32] = struct.pack("<I", low)  # next thread: low_prio goes on
for e in own:
    at = entry_of(e)
    data[at:at + 4] = struct.pack("<I", low)
    data[at + 4:at + 8] = low_priority_word
os.makedirs(WORK, exist_ok=True)
copy = os.path.join(WORK, "medium_never_runs.trx")
open(copy, "wb").write(bytes(data))

after = why(copy, "--instance", str(number))
for key in ("number", "release_ticks", "end_ticks", "response_ticks", "release_index",
            "end_index"):
    if before["instance"][key] != after["instance"][key]:
        fail("instance %s: %s before, %s after" % (key, before["instance"][key],
                                                    after["instance"][key]))


def top(path):
    return [(s["start_ticks"], s["end_ticks"], s["state"], s["context"], s["object"], s["holder"])
            for s in path["segments"]]


if top(before) != top(after):
    fail("the top-level segments changed:\n%s\n%s" % (top(before), top(after)))
for s_before, s_after in zip(blocked(before), blocked(after)):
    kids = s_after["segments"]
    if any(k["context"] == "medium_prio" or k["unbounded"] for k in kids):
        fail("medium_prio still in the holder's split: %s" % kids)
    if [(k["state"], k["context"], k["ticks"]) for k in kids] != \
            [("running", "low_prio", s_after["ticks"])]:
        fail("the holder's split is not low_prio running the whole wait: %s"
             % [(k["state"], k["context"], k["ticks"]) for k in kids])
story = trx("why", copy, "--thread", "high_prio", "--instance", str(number)).splitlines()[0]
if "medium_prio" in story or "unbounded" in story:
    fail("the story still names medium: " + story)
if failures:
    sys.exit("%d failure(s)" % len(failures))
print("ok: medium's run taken out of #%d; the wait is now low_prio running %d ticks"
      % (number, blocked(after)[0]["ticks"]))
