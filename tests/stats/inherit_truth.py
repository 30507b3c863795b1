#!/usr/bin/env python3
"""inherit_truth.py - priority inversions on traces recorded by the real
ThreadX kernel (Linux port) with a mutex created with TX_INHERIT and with
TX_NO_INHERIT (tests/stats/inherit/: the traces, the program that recorded
them and its truth: one line per wait).

For every wait of the truth, in order, `trx stats --json` (correct mode) must
list one inversion with the same waiter, holder, holder priority, bounded or
unbounded and ran_inside; and its interval must be the wait as the events
show it, found here by a walk of `trx events --format jsonl` independent of
the analysis: it starts at the waiter's MUTEX GET (id 52) naming the holder
as owner and ends at the waiter's first own event after its own INTERNAL
SUSPEND (id 2, info1 = the waiter). Under TX_INHERIT the holder's raised
priority must show in its own events inside the window (read from the
trace). `--compat tracex` counts every wait (TraceX's total).

The `ready` waits are the trap of docs/analyses.md ("Contradicted RUNNING
events"): under TX_INHERIT the holder's put restores its priority by an
INTERNAL SUSPEND / RESUME pair of the holder (state 14) whose next-thread
word names medium, and the next stored event is the holder's own. This
checks that every such wait shows that pair, that TraceX's mode inserts a
RUNNING of medium after it and that the correct mode's RUNNING there names
the holder (medium did not run).

Four traces: inherit / noinherit (every scenario) and inherit_correct /
noinherit_correct (the same program without `inside`, whose holder sleeps
with the mutex held).

usage: inherit_truth.py TRX DIR
"""
import json
import os
import sys

TRX, DIR = sys.argv[1:3]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "latency"))
from why_support import fail, failures, trx_of  # noqa: E402

trx = trx_of(TRX)


def truth_of(path):
    waits, meta = [], {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if w[0] == "wait":
                waits.append(dict(zip(w[0::2], w[1::2])))
            elif w[0] == "waits":
                meta = dict(zip(w[0::2], w[1::2]))
    return waits, meta


def waits_in_events(events, names):
    """The waits as the events show them: (start, end) per blocking GET."""
    out = []
    for i, e in enumerate(events):
        if e["id"] != 52 or e["context"] != "thread" or e["info"][2] in (0, e["thread"]):
            continue
        me = e["thread"]
        j = i + 1
        while j < len(events) and not (events[j].get("thread") == me and events[j]["id"] == 2 and
                                        events[j]["info"][0] == me):
            if events[j].get("thread") == me and not (events[j]["id"] in (1, 2) and events[j]["info"][0] != me):
                break  # the GET did not block
            j += 1
        if j >= len(events) or events[j]["id"] != 2:
            continue
        k = j + 1
        while k < len(events) and events[k].get("thread") != me:
            k += 1
        out.append({"start": e["index"], "end": events[min(k, len(events) - 1)]["index"],
                    "waiter": e["thread_name"], "holder_address": e["info"][2],
                    "holder": names.get(e["info"][2])})
    return out


def check_restore(tag, events, tx_events, s, names):
    """The holder's priority restore inside ready wait `s` (see the top)."""
    holder, medium = s["holder_address"], next(a for a, n in names.items() if n == "medium_prio")
    pairs = [k for k in range(s["start"], s["end"]) if
             events[k]["id"] == 2 and events[k]["thread"] == holder and events[k]["info"][0] == holder and
             events[k]["info"][1] == 14 and events[k + 1]["id"] == 1 and
             events[k + 1]["info"][0] == holder and events[k + 1]["info"][1] == 14]
    if len(pairs) != 1:
        fail("%s: %d priority-restore SUSPEND / RESUME pairs of the holder, want 1" % (tag, len(pairs)))
        return 0
    k = pairs[0] + 1  # the RESUME
    want = [(events[k]["info"][3], medium, "the RESUME's next thread"),
            (tx_events[k + 1].get("thread"), medium, "TraceX's RUNNING after it"),
            (tx_events[k + 1]["id"], 6, "TraceX's event after it"),
            (events[k + 1]["id"], 6, "the event after it"),
            (events[k + 1]["synthetic"], True, "the event after it is inserted"),
            (events[k + 1].get("thread"), holder, "the correct mode's RUNNING after it"),
            (events[k + 2].get("thread"), holder, "the next stored event's thread")]
    for got, exp, what in want:
        if got != exp:
            fail("%s: %s is %r, want %r" % (tag, what, got, exp))
    return len(want)


def main():
    checked = 0
    for name in ("inherit", "noinherit", "inherit_correct", "noinherit_correct"):
        trace = os.path.join(DIR, name + ".trx")
        truth, meta = truth_of(os.path.join(DIR, name + ".truth"))
        if len(truth) != int(meta["waits"]):
            fail("%s: truth file lists %d waits, says %s" % (name, len(truth), meta["waits"]))
        stats = json.loads(trx("stats", "--json", trace))
        events = [json.loads(l) for l in trx("events", "--format", "jsonl", trace).splitlines()]
        tx_events = [json.loads(l) for l in
                     trx("events", "--format", "jsonl", "--compat", "tracex", trace).splitlines()]
        if [(e["index"], e["id"]) for e in tx_events] != [(e["index"], e["id"]) for e in events]:
            fail("%s: the modes number the events differently" % name)
        names = {t["address"]: t["name"] for t in stats["threads"]}
        shown = waits_in_events(events, names)
        inv = stats["inversions"]
        pi = stats["performance"]["priority_inversions"]
        unbounded = sum(1 for w in truth if w["kind"] == "unbounded")
        if (pi["total"], pi["unbounded"], pi["bounded"]) != (len(truth), unbounded, len(truth) - unbounded):
            fail("%s: performance says %s, truth %d waits, %d unbounded" % (name, pi, len(truth), unbounded))
        if len(inv) != len(truth) or len(shown) != len(truth):
            fail("%s: %d inversions listed, %d waits in the events, %d in the truth" %
                 (name, len(inv), len(shown), len(truth)))
            continue
        for n, (w, v, s) in enumerate(zip(truth, inv, shown)):
            tag = "%s wait %d (%s)" % (name, n, w["scenario"])
            want = {"waiter": w["waiter"] + "_prio", "holder": w["holder"] + "_prio",
                    "holder_priority": int(w["holder_priority"]), "unbounded": w["kind"] == "unbounded",
                    "ran_inside": [] if w["ran_inside"] == "-" else [w["ran_inside"] + "_prio"],
                    "start_index": s["start"], "end_index": s["end"], "waiter_priority": 10,
                    "lock": "inv_lock", "lock_type": "mutex", "closed": True}
            for k, x in want.items():
                if v.get(k) != x:
                    fail("%s: %s is %r, want %r" % (tag, k, v.get(k), x))
                checked += 1
            if s["waiter"] != v["waiter"] or s["holder"] != v["holder"]:
                fail("%s: the events show %s waiting on %s" % (tag, s["waiter"], s["holder"]))
            # the start and end ticks are those of the interval's events
            for k in ("start", "end"):
                if v[k + "_ticks"] != events[s[k]]["ticks"]:
                    fail("%s: %s_ticks %d, the event at %d has %d" % (tag, k, v[k + "_ticks"], s[k],
                                                                      events[s[k]]["ticks"]))
            if meta["mutex"] == "TX_INHERIT":
                raised = [e["priority"] for e in events[s["start"]:s["end"] + 1]
                          if e.get("thread") == s["holder_address"]]
                if raised and min(raised) != 10:
                    fail("%s: the holder's own events inside the wait show priority %s, not raised to 10" %
                         (tag, raised))
            if meta["mutex"] == "TX_INHERIT" and w["scenario"] == "ready":
                checked += check_restore(tag, events, tx_events, s, names)
        tx = json.loads(trx("stats", "--json", "--compat", "tracex", trace))["performance"]["priority_inversions"]
        if tx["total"] != len(truth):
            fail("%s: --compat tracex counts %d inversions, %d waits" % (name, tx["total"], len(truth)))
    print("inherit_truth: %d fields checked, %d failures" % (checked, len(failures)))
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
