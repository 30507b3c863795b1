#!/usr/bin/env python3
"""why_chains.py - `trx why --json` against hand-worked scenarios on real
ThreadX traces (issue 31 item 6):

1. A lock chain two deep (tests/latency/chains/lockchain.trx, recorded by
   chain_scenarios.c with the ThreadX Linux port; its truth beside it): each
   high_prio instance, in order, is one round of the truth. Its top level
   must be running / blocked on the outer lock held by link / running; the
   blocked segment's split running (link) / blocked on the inner lock held
   by low_prio / running (link); that one's split running (low_prio) /
   preempted by medium_prio, unbounded / running (low_prio) without
   inheritance, and running (low_prio) alone with it (medium stays ready).
   Every boundary lies between the program's own clock readings (the trace's
   ticks: CLOCK_REALTIME nanoseconds, minus the first event's time stamp).
2. A waker chain three deep (wakerchain.trx): stage_d's instance of each
   round, with --depth 3: released by stage_c naming flags_cd; its waker
   stage_c's instance (ending at that release) released by stage_b naming
   sem_bc; stage_b's released by stage_a naming q_ab (round 1: preempted by
   intruder between the program's readings, other rounds never preempted);
   stage_a's released by the System Timer Thread naming tick_sem (the
   application timer's put), and no fourth waker. Every release lies between
   the poster's reading before its post and the woken thread's after.
3. Nested ISRs (the corpus's d_interrupts_nested.trx, TraceX's own dump
   d_interrupts_nested.tml.txt beside it): hand-worked from the dump's lines
   34-56 (relative ticks):
     34 3812520621 ISR ENTER I2=5      (isr_worker sleeps on isr_sem: idle)
     35 3812522411 SEMAPHORE PUT isr_sem (by ISR 5)
     36 3812523360 INTERNAL RESUME isr_worker (by ISR 5): its release
     37 3812524865 ISR ENTER I2=7      (nested inside ISR 5)
     38 3812525518 EVENT FLAG SET isr_flags (by ISR 7)
     39 3812527080 INTERNAL RESUME flag_waiter (by ISR 7): its release
     40 3812528086 ISR EXIT I2=7       (back in ISR 5)
     41 3812529155 ISR EXIT I2=5       (isr_worker, priority 5, runs)
     43 3959225731 ISR ENTER I2=0      (the timer)
     45 3959229402 ISR EXIT I2=0       (the System Timer Thread, 0, runs)
     47 3959278205 ISR ENTER I2=5 ... 49 3959280082 ISR EXIT I2=5
     51 3959302747 INTERNAL SUSPEND of the timer thread: isr_worker runs
     54 3959331495 INTERNAL SUSPEND isr_worker (isr_sem): its end
     56 3959377664 INTERNAL SUSPEND flag_waiter (isr_flags): its end
   isr_worker, ready from 36, is interrupted by ISR 5 until 37, by the
   innermost ISR 7 (not the outer 5) until 40, by ISR 5 again until 41, runs
   until 43, is interrupted by ISR 0 until 45, preempted by the timer thread
   until 51 except 47-49 (ISR 5, which interrupts the timer thread), runs
   until 54. flag_waiter, released inside ISR 7 (priority 6 < isr_worker's
   5), is interrupted by 7 then 5, preempted by isr_worker, and so on, and
   runs 54-56. The segments below are those figures, every one; they add up
   to the responses (146,808,135 and 146,850,584 ticks).

usage: why_chains.py TRX CHAINS_DIR CORPUS_DIR
"""
import json
import os
import sys

TRX, CHAINS, CORPUS = sys.argv[1:4]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from why_support import fail, failures, trx_of  # noqa: E402

trx = trx_of(TRX)


def records(path, kind):
    """The truth file's lines of `kind`, as dicts (numbers as ints)."""
    out = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if w and w[0] == kind:
                if len(w) % 2:  # "post round 0 waker ...": the kind, then pairs
                    w = w[1:]
                d = dict(zip(w[0::2], w[1::2]))
                out.append({k: int(v) if v.isdigit() else v for k, v in d.items()})
    return out


def first_timestamp(trace):
    """The raw time stamp of event 0: the program's clock minus it is ticks."""
    line = trx("events", "--format", "jsonl", trace).splitlines()[0]
    return json.loads(line)["timestamp"]


def instances(trace, thread):
    lat = json.loads(trx("latency", trace, "--thread", thread, "--worst", "1024", "--json"))
    t = lat["threads"][0]
    if t["incomplete"] != 0 or len(t["worst"]) != t["instances"]:
        fail("%s %s: %d instances listed of %d, %d incomplete"
             % (trace, thread, len(t["worst"]), t["instances"], t["incomplete"]))
    return sorted(t["worst"], key=lambda w: w["number"])


def why(trace, thread, number, depth=None):
    args = ["why", trace, "--thread", thread, "--instance", str(number), "--json"]
    if depth is not None:
        args += ["--depth", str(depth)]
    return json.loads(trx(*args))


def shape(segs):
    return [(s["state"], s["context"], s["object"], s["holder"], s["unbounded"]) for s in segs]


def check_sums(where, segs, start, ticks):
    """Contiguous from start, each one's ticks = end - start, adding up to ticks."""
    at = start
    for s in segs:
        if s["start_ticks"] != at or s["end_ticks"] - s["start_ticks"] != s["ticks"]:
            fail("%s: segment %s..%s (%s) not contiguous from %s"
                 % (where, s["start_ticks"], s["end_ticks"], s["ticks"], at))
        at = s["end_ticks"]
        if s["segments"]:
            check_sums(where + " > " + s["state"], s["segments"], s["start_ticks"], s["ticks"])
    if at != start + ticks:
        fail("%s: segments end at %s, expected %s" % (where, at, start + ticks))


def within(where, what, value, low, high):
    if not low <= value <= high:
        fail("%s: %s %d not within [%d, %d] (the program's readings)" % (where, what, value, low, high))


def check_lock_chain():
    trace = CHAINS + "/lockchain.trx"
    truth = records(CHAINS + "/lockchain.truth", "chain")
    base = first_timestamp(trace)
    found = instances(trace, "high_prio")
    if len(found) != len(truth) or len(truth) != records(CHAINS + "/lockchain.truth", "chains")[0]["chains"]:
        fail("lock chain: %d high_prio instances, the truth has %d rounds" % (len(found), len(truth)))
    unbounded_rounds = 0
    for r, inst in zip(truth, found):
        t = {k[2:]: v - base for k, v in r.items() if k.startswith("t_")}
        where = "lock chain round %d (inherit %d, high_prio #%d)" % (r["chain"], r["inherit"], inst["number"])
        p = why(trace, "high_prio", inst["number"])
        i = p["instance"]
        if i["released_by"]["context"] != "link" or i["released_by"]["object"] != r["outer"]:
            fail("%s: released by %s" % (where, i["released_by"]))
        within(where, "release", i["release_ticks"], 0, t["high_get"])
        within(where, "end", i["end_ticks"], t["high_got"], 1 << 62)
        check_sums(where, p["segments"], i["release_ticks"], i["response_ticks"])
        top = p["segments"]
        want = [("running", "high_prio", None, None, False),
                ("blocked", "high_prio", r["outer"], r["outer_holder"], False),
                ("running", "high_prio", None, None, False)]
        if shape(top) != want:
            fail("%s: top level %s, expected %s" % (where, shape(top), want))
            continue
        outer = top[1]
        within(where, "outer wait start", outer["start_ticks"], t["high_get"], t["link_get"])
        within(where, "outer wait end", outer["end_ticks"], t["link_put_outer"], t["high_got"])
        want = [("running", "link", None, None, False),
                ("blocked", "link", r["inner"], r["inner_holder"], False),
                ("running", "link", None, None, False)]
        if shape(outer["segments"]) != want:
            fail("%s: the outer holder's split %s, expected %s" % (where, shape(outer["segments"]), want))
            continue
        inner = outer["segments"][1]
        within(where, "inner wait start", inner["start_ticks"], t["link_get"], t["low_resume_medium"])
        within(where, "inner wait end", inner["end_ticks"], t["low_put_inner"], t["link_got"])
        if r["ran_inside"] == "medium_prio":
            unbounded_rounds += 1
            want = [("running", "low_prio", None, None, False),
                    ("preempted", "medium_prio", None, None, True),
                    ("running", "low_prio", None, None, False)]
        else:
            want = [("running", "low_prio", None, None, False)]
        if shape(inner["segments"]) != want:
            fail("%s: the inner holder's split %s, expected %s" % (where, shape(inner["segments"]), want))
            continue
        if len(want) == 3:
            m = inner["segments"][1]
            within(where, "medium's preemption start", m["start_ticks"], t["low_resume_medium"], t["medium_start"])
            within(where, "medium's preemption end", m["end_ticks"], t["medium_end"], t["low_resumed_back"])
        elif not t["medium_start"] > outer["end_ticks"]:
            fail("%s: with inheritance medium ran at %d, inside the wait" % (where, t["medium_start"]))
    if unbounded_rounds != sum(1 for r in truth if not r["inherit"]) or unbounded_rounds == 0:
        fail("lock chain: %d rounds with medium inside, expected every round without inheritance"
             % unbounded_rounds)
    story = trx("why", trace, "--thread", "high_prio", "--instance", str(found[0]["number"])).splitlines()[0]
    if "blocked on lock_outer held by link" not in story or "blocked on lock_inner held by low_prio" not in story:
        fail("lock chain: the story does not follow the chain: " + story)
    print("lock chain: %d rounds, %d with medium preempting low two locks deep" % (len(truth), unbounded_rounds))


def check_waker_chain():
    trace = CHAINS + "/wakerchain.trx"
    path = CHAINS + "/wakerchain.truth"
    base = first_timestamp(trace)
    rounds = records(path, "rounds")[0]["rounds"]
    posts = {(p["round"], p["woken"]): p for p in records(path, "post")}
    got = {(w["round"], w["thread"]): w["t_got"] - base for w in records(path, "woken")}
    preempted = {(p["round"], p["thread"]): p for p in records(path, "preempted")}
    found = instances(trace, "stage_d")
    chain = [("stage_d", "stage_c"), ("stage_c", "stage_b"), ("stage_b", "stage_a"),
             ("stage_a", "System_Timer_Thread")]
    for rnd in range(rounds):
        lo, hi = posts[(rnd, "stage_d")]["t_post"] - base, got[(rnd, "stage_d")]
        mine = [w for w in found if lo <= w["release_ticks"] <= hi]
        if len(mine) != 1:
            fail("waker chain round %d: %d stage_d instances released in [%d, %d]" % (rnd, len(mine), lo, hi))
            continue
        p = why(trace, "stage_d", mine[0]["number"], depth=3)
        level, after = 0, None
        while p is not None:
            thread, waker = chain[level]
            post = posts[(rnd, thread)]
            where = "waker chain round %d level %d (%s #%d)" % (rnd, level, thread, p["instance"]["number"])
            i = p["instance"]
            if p["thread"] != thread:
                fail("%s: the waker is %s" % (where, p["thread"]))
            rb = i["released_by"]
            if (rb["context"].replace(" ", "_"), rb["object"]) != (post["waker"], post["object"]):
                fail("%s: released by %s naming %s, the truth: %s posting %s"
                     % (where, rb["context"], rb["object"], post["waker"], post["object"]))
            if rb["event_index"] != i["release_index"]:
                fail("%s: released by event %d, released at %d" % (where, rb["event_index"], i["release_index"]))
            within(where, "release", i["release_ticks"], post["t_post"] - base, got[(rnd, thread)])
            if after is not None and (i["end_index"], i["end_ticks"]) != after:
                fail("%s: the waker's instance ends at %s, the woken's release is %s"
                     % (where, (i["end_index"], i["end_ticks"]), after))
            check_sums(where, p["segments"], i["release_ticks"], i["response_ticks"])
            pre = [s for s in p["segments"] if s["state"] == "preempted" and s["context"] != "System Timer Thread"]
            if (rnd, thread) in preempted:
                q = preempted[(rnd, thread)]
                if [s["context"] for s in pre] != [q["by"]]:
                    fail("%s: preempted by %s, the truth: %s" % (where, [s["context"] for s in pre], q["by"]))
                else:
                    within(where, "preemption start", pre[0]["start_ticks"], q["t_before"] - base, q["t_after"] - base)
                    within(where, "preemption end", pre[0]["end_ticks"], q["t_before"] - base, q["t_after"] - base)
            elif pre or any(s["state"] not in ("running", "preempted") for s in p["segments"]):
                fail("%s: segments %s, the truth: it ran (the timer thread aside)" % (where, shape(p["segments"])))
            after = (i["release_index"], i["release_ticks"])
            p = p.get("waker")
            level += 1
        if level != 4:
            fail("waker chain round %d: %d levels with --depth 3, expected 4 (the instance and 3 wakers)"
                 % (rnd, level))
    print("waker chain: %d rounds, 3 wakers each" % rounds)


# The hand-worked nested-ISR instances (see the docstring): (start, end, state, context).
ISR_WORKER = [
    (3812523360, 3812524865, "interrupted", "ISR 5"),
    (3812524865, 3812528086, "interrupted", "ISR 7"),
    (3812528086, 3812529155, "interrupted", "ISR 5"),
    (3812529155, 3959225731, "running", "isr_worker"),
    (3959225731, 3959229402, "interrupted", "ISR 0"),
    (3959229402, 3959278205, "preempted", "System Timer Thread"),
    (3959278205, 3959280082, "interrupted", "ISR 5"),
    (3959280082, 3959302747, "preempted", "System Timer Thread"),
    (3959302747, 3959331495, "running", "isr_worker"),
]
FLAG_WAITER = [
    (3812527080, 3812528086, "interrupted", "ISR 7"),
    (3812528086, 3812529155, "interrupted", "ISR 5"),
    (3812529155, 3959225731, "preempted", "isr_worker"),
    (3959225731, 3959229402, "interrupted", "ISR 0"),
    (3959229402, 3959278205, "preempted", "System Timer Thread"),
    (3959278205, 3959280082, "interrupted", "ISR 5"),
    (3959280082, 3959302747, "preempted", "System Timer Thread"),
    (3959302747, 3959331495, "preempted", "isr_worker"),
    (3959331495, 3959377664, "running", "flag_waiter"),
]


def check_nested_isrs():
    trace = CORPUS + "/d_interrupts_nested.trx"
    cases = [("isr_worker", 3812523360, 36, 54, 3959331495, "ISR 5", "isr_sem", ISR_WORKER),
             ("flag_waiter", 3812527080, 39, 56, 3959377664, "ISR 7", "isr_flags", FLAG_WAITER)]
    for thread, release, rel_index, end_index, end, by, obj, segs in cases:
        where = "nested ISRs %s released at %d" % (thread, release)
        p = json.loads(trx("why", trace, "--thread", thread, "--at", str(release), "--json"))
        i = p["instance"]
        got = (i["release_index"], i["release_ticks"], i["end_index"], i["end_ticks"], i["response_ticks"],
               i["released_by"]["context"], i["released_by"]["event_index"], i["released_by"]["object"])
        want = (rel_index, release, end_index, end, end - release, by, rel_index, obj)
        if got != want:
            fail("%s: instance %s, hand-worked %s" % (where, got, want))
        mine = [(s["start_ticks"], s["end_ticks"], s["state"], s["context"]) for s in p["segments"]]
        if mine != segs:
            fail("%s: segments\n  %s\nhand-worked\n  %s" % (where, mine, segs))
        if sum(e - s for s, e, _, _ in segs) != end - release:
            fail("%s: the hand-worked split does not add up" % where)
        check_sums(where, p["segments"], i["release_ticks"], i["response_ticks"])
    print("nested ISRs: isr_worker and flag_waiter as hand-worked")


check_lock_chain()
check_waker_chain()
check_nested_isrs()
if failures:
    sys.exit("%d failure(s)" % len(failures))
print("ok")
