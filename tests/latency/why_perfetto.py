#!/usr/bin/env python3
"""why_perfetto.py - the worst instances' critical paths in the Perfetto export.

usage: why_perfetto.py TRX SHARED_DIR WORK_DIR

On the corpus's c_prio_inversion_mutex_noinherit.trx, decoded by protoc
against Perfetto's schema: high_prio's worst instance (`trx why --worst
--json`) is a slice on the "high_prio: worst responses" track (under
high_prio's thread track) over [release, end], named "high_prio #N (R
ticks)", its story as the "story" annotation; a path flow starts at the
releasing event (its index and ticks, on the waker's track) and ends at
high_prio's next running slice; a path flow starts on the holder's
(low_prio's) track at the blocked segment's end and ends on high_prio's
track at its next run. Path flows have ids >= 2**62.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "interop"))
from check_exports import first, parse_textproto  # noqa: E402

PATH_FLOW_BASE = 1 << 62


def run(args, **kw):
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    if r.returncode != 0:
        sys.exit("FAIL: %s exited %d: %s" % (" ".join(args), r.returncode, r.stderr.decode()[:400]))
    return r.stdout.decode()


def main():
    trx, shared, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    trace = os.path.join(shared, "corpus", "c_prio_inversion_mutex_noinherit.trx")
    why = json.loads(run([trx, "why", trace, "--thread", "high_prio", "--worst", "--json"]))
    inst = why["instance"]
    events = [json.loads(line) for line in run([trx, "events", "--format", "jsonl", trace]).splitlines()
              if '"index"' in line]
    ticks_of = {e["index"]: e["ticks"] for e in events}
    out = os.path.join(work, "t.pftrace")
    run([trx, "export", "--to", "perfetto", trace, "-o", out])
    with open(out, "rb") as f:
        text = run(["protoc", "--proto_path=" + os.path.join(shared, "perfetto"),
                    "--decode=perfetto.protos.Trace", "perfetto_trace.proto"], stdin=f)
    packets = parse_textproto(text)["packet"]
    fails = []

    def check(cond, what):
        if not cond:
            fails.append(what)

    track_name, parent = {}, {}
    for p in packets:
        td = first(p, "track_descriptor")
        if td:
            th = first(td, "thread")
            track_name[first(td, "uuid")] = first(th, "thread_name") if th else first(td, "name")
            parent[first(td, "uuid")] = first(td, "parent_uuid")
    starts, ends, slices, open_at = {}, {}, [], {}
    for p in packets:
        te = first(p, "track_event")
        if not te:
            continue
        ts, track, typ = first(p, "timestamp"), first(te, "track_uuid"), first(te, "type")
        index = None
        for a in te.get("debug_annotations", []):
            if first(a, "name_iid") == 1:  # "index"
                index = first(a, "uint_value")
        where = (ts, track_name.get(track), typ, index)
        for fid in te.get("flow_ids", []):
            if fid >= PATH_FLOW_BASE:
                check(fid not in starts, "flow %d starts twice" % fid)
                starts[fid] = where
        for fid in te.get("terminating_flow_ids", []):
            if fid >= PATH_FLOW_BASE:
                check(fid in starts and fid not in ends, "flow %d ends before it starts or twice" % fid)
                ends[fid] = where
        if typ == "TYPE_SLICE_BEGIN" and first(te, "name"):
            story = [first(a, "string_value") for a in te.get("debug_annotations", [])
                     if first(a, "name") == "story"]
            open_at[track] = (ts, first(te, "name"), story)
        elif typ == "TYPE_SLICE_END" and track in open_at and open_at[track][1] is not None:
            b = open_at.pop(track)
            slices.append((track, b[0], ts, b[1], b[2]))

    # the instance's slice
    want_name = "high_prio #%d (%s ticks)" % (inst["number"], format(inst["response_ticks"], ","))
    mine = [s for s in slices if s[3] == want_name]
    check(len(mine) == 1, "no single slice named %r: %s" % (want_name, [s[3] for s in slices][:8]))
    if mine:
        track, b, e, _, story = mine[0]
        check(track_name.get(track) == "high_prio: worst responses",
              "the slice is on track %r" % track_name.get(track))
        check(track_name.get(parent.get(track)) == "high_prio", "its track's parent is %r"
              % track_name.get(parent.get(track)))
        check((b, e) == (inst["release_ticks"] * 1000, inst["end_ticks"] * 1000),
              "slice [%d, %d] ns, why says [%d, %d] ticks" % (b, e, inst["release_ticks"],
                                                              inst["end_ticks"]))
        check(story == [why["story"]], "story %r, why says %r" % (story, why["story"]))

    complete = {fid: (starts[fid], ends[fid]) for fid in ends}
    check(len(complete) == len(starts), "%d path flows never end" % (len(starts) - len(complete)))

    # the wake-up: the releasing event -> high_prio's next run
    rel = inst["released_by"]
    wake_ticks = ticks_of[rel["event_index"]] * 1000
    wake = [(s, e) for s, e in complete.values()
            if s[3] == rel["event_index"] and s[1] == rel["context"] and s[0] == wake_ticks
            and e[1] == "high_prio" and e[2] == "TYPE_SLICE_BEGIN"
            and e[0] >= inst["release_ticks"] * 1000]
    check(len(wake) == 1, "no wake-up flow from %s event %d at %d ns to high_prio: %s"
          % (rel["context"], rel["event_index"], wake_ticks,
             sorted(complete.values())[:6]))

    # each lock handoff of a blocked segment: holder at the wait's end -> high_prio
    blocked = [s for s in why["segments"] if s["state"] == "blocked"]
    check(blocked, "why names no blocked segment")
    for seg in blocked:
        at = seg["end_ticks"] * 1000
        hand = [(s, e) for s, e in complete.values()
                if s[1] == seg["holder"] and s[0] == at and s[2] == "TYPE_INSTANT"
                and e[1] == "high_prio" and e[2] == "TYPE_SLICE_BEGIN" and e[0] >= at]
        check(len(hand) == 1, "no handoff flow from %s at %d ns to high_prio: %s"
              % (seg["holder"], at, sorted(complete.values())[:6]))
    if fails:
        print("\n".join("FAIL: " + f for f in fails))
        sys.exit(1)
    print("ok: %s, wake-up from %s, %d handoff(s), %d path flows in all"
          % (want_name, rel["context"], len(blocked), len(complete)))


if __name__ == "__main__":
    main()
