#!/usr/bin/env python3
"""check_exports.py - `trx export` read back by real consumers, for one trace.

usage: check_exports.py TRX SHARED_DIR TRACE WORK_DIR [--flows-truth TRUTH]

  Chrome JSON  parses as JSON; the X slices of each thread add up to that
               thread's execution-profile ticks (`trx stats --json`), those of
               the Interrupt and Idle lanes to execution_profile's Interrupt / Idle.
  Perfetto     decodes with `protoc --decode=perfetto.protos.Trace` against
               Perfetto's own schema (SHARED_DIR/perfetto); one thread track per
               thread address plus Interrupt, Initialization and Idle; slices
               per thread track add up to the execution ticks and are as many as
               the Chrome export's; every terminating flow id was started once
               before, no flow ends twice.
  Flows        (issue 9) against `trx stats --json`, per thread: the runs of a
               thread that end a flow started by TX INTERNAL RESUME on the
               Interrupt track are as many as its latency.interrupt_to_thread
               count (both: an ISR resumed it, then it ran), and such flows are
               at least that many (several resumes before one run); flows
               started by a thread's queue sends / semaphore puts and ended by
               its queue receives / semaphore gets are at most its counts of
               those events (services), and in all at most popular_services'.
               With --flows-truth (the demo's truth file): exactly as many flows
               of each kind (ISR -> thread, queue send -> receive, semaphore
               put -> get) as the simulated kernel caused.
  CTF          babeltrace2 reads it; it prints as many events as
               `trx events --no-synthetic`, with the same timestamps (clock
               cycles, and nanoseconds at --ticks-per-second 3000000).
  CSV          one row per event of `trx events`, same ticks.
  Every event  (issue 17) each format's own record of each event against
               `trx events --format jsonl`, field by field: CSV (index, ticks,
               id, name, context, priority, info1-4, synthetic, the args text),
               Chrome JSON instants (ts, name, index, id, ticks, every arg),
               Perfetto instants (timestamp, name, index, priority, every arg
               annotation), CTF as babeltrace2 prints it (timestamp, name,
               index, context, priority, the four info words).
  Cores        (issue 14) Chrome: a "CPU n" process per core whose X slices add
               up to `trx stats --json`'s per-core ticks of each thread and of
               interrupts (smp);
               Perfetto: ftrace sched_switch bundles, cpu = core, one CPU per
               core that ran a thread, each cpu's switches chained (prev = the
               previous next); CTF: babeltrace2 prints the cpu_id of every
               event, equal to its core in `trx events`.
Exit status 0 when every check holds; prints what differs otherwise.
"""
import csv
import io
import json
import os
import re
import subprocess
import sys

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def run(args, **kw):
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    if r.returncode != 0:
        sys.exit("FAIL: %s exited %d: %s" % (" ".join(args), r.returncode,
                                              r.stderr.decode(errors="replace")[:500]))
    return r.stdout


def parse_textproto(text):
    """protoc's text format -> nested dicts of lists (every field repeated)."""
    root = {}
    stack = [root]
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if line == "}":
            stack.pop()
        elif line.endswith("{"):
            node = {}
            stack[-1].setdefault(line[:-1].strip(), []).append(node)
            stack.append(node)
        else:
            key, _, value = line.partition(": ")
            if value.startswith('"'):
                value = value[1:-1]
            elif re.fullmatch(r"-?\d+", value):
                value = int(value)
            stack[-1].setdefault(key, []).append(value)
    return root


PATH_FLOW_BASE = 1 << 62  # the worst instances' critical paths (tests/latency/why_perfetto.py)


def drop_path_flows(packets):
    """Leaves out the critical-path flows: the checks here are of cause -> effect flows."""
    for p in packets:
        for te in p.get("track_event", []):
            for key in ("flow_ids", "terminating_flow_ids"):
                if key in te:
                    te[key] = [f for f in te[key] if f < PATH_FLOW_BASE]


def first(d, key, default=None):
    v = d.get(key)
    return v[0] if v else default


def check_cores(trx, trace, stats, chrome_events, packets, listing, ctf_dir):
    """The per-core parts of the exports (issue 14)."""
    smp = stats["smp"]
    want = {}  # (core, thread name) -> ticks
    for lane in smp["per_core"]:
        for t in lane["threads"]:
            if t["ticks"]:
                want[(lane["core"], t["name"])] = t["ticks"]
        if lane["interrupt_ticks"]:
            want[(lane["core"], "Interrupt")] = lane["interrupt_ticks"]
    got = {}
    cpu_names = {e["pid"]: e["args"]["name"] for e in chrome_events
                 if e["ph"] == "M" and e["name"] == "process_name" and e["pid"] >= 1000}
    for e in chrome_events:
        if e["ph"] == "X" and e["pid"] >= 1000:
            key = (e["pid"] - 1000, e["name"])
            got[key] = got.get(key, 0) + e["args"]["ticks"]
    check(got == want, "chrome: CPU slices %s, stats per core %s" % (sorted(got.items())[:6],
                                                                     sorted(want.items())[:6]))
    for core in {c for c, _ in want}:
        check(cpu_names.get(1000 + core) == "CPU %d" % core, "chrome: no process 'CPU %d'" % core)
    last_next = {}
    for p in packets:
        fb = first(p, "ftrace_events")
        if not fb:
            continue
        cpu = first(fb, "cpu")
        sw = first(first(fb, "event"), "sched_switch")
        if cpu in last_next:
            check(first(sw, "prev_pid") == last_next[cpu],
                  "perfetto: cpu %d switches from pid %s, last switched to %s"
                  % (cpu, first(sw, "prev_pid"), last_next[cpu]))
        last_next[cpu] = first(sw, "next_pid")
    check(set(last_next) == {c for c, _ in want},
          "perfetto: CPUs %s, cores that ran threads %s" % (sorted(last_next),
                                                            sorted({c for c, _ in want})))
    rows = list(csv.DictReader(io.StringIO(listing)))
    cores = [int(r["core"]) for r in rows]
    lines = ctf_lines_by_index(run(["babeltrace2", ctf_dir]).decode().splitlines(),
                               [int(r["index"]) for r in rows])
    seen = [int(m.group(1)) if m else None
            for m in (re.search(r"\{ cpu_id = (\d+) \}", line) for line in lines)]
    check(seen == cores, "ctf: cpu_id of the events %s..., trx events cores %s..."
          % (seen[:8], cores[:8]))
    # one stream file per core, as LTTng: stream_N holds core N's events, every packet cpu_id N;
    # past the first 64 cores (in event order) the others share stream_more
    order = list(dict.fromkeys(cores))
    own, more = order[:64], set(order[64:])
    files = sorted(f for f in os.listdir(ctf_dir) if f.startswith("stream"))
    want_files = sorted(["stream_%d" % k for k in own] + (["stream_more"] if more else []))
    check(files == want_files, "ctf: stream files %s for cores %s" % (files[:8], order[:8]))
    for f in files:
        ids = ctf_packet_cpu_ids(os.path.join(ctf_dir, f))
        want_ids = more if f == "stream_more" else {int(f[len("stream_"):])}
        check(ids == want_ids, "ctf: %s has packets of cores %s" % (f, sorted(ids)[:8]))


def ctf_packet_cpu_ids(path):
    """The cpu_id of every packet of a trx CTF stream file (header: magic, stream id, 5 x u64
    context with the packet size in bits at byte 32, then u32 cpu_id at byte 48)."""
    with open(path, "rb") as f:
        data = f.read()
    ids, at = set(), 0
    while at + 52 <= len(data):
        size = int.from_bytes(data[at + 32:at + 40], "little") // 8
        ids.add(int.from_bytes(data[at + 48:at + 52], "little"))
        if size <= 0:
            break
        at += size
    return ids


def ctf_lines_by_index(lines, indexes):
    """babeltrace2's lines in trx's event order: it merges the per-core streams by time, so events
    of two cores with the same timestamp may come in either order; the payload's index says which
    trx event each line is. Lines whose index trx did not list are kept at the end."""
    by_index = {}
    rest = []
    for line in lines:
        m = re.search(r"\{ index = (\d+),", line)
        if m and int(m.group(1)) not in by_index:
            by_index[int(m.group(1))] = line
        else:
            rest.append(line)
    return [by_index[i] for i in indexes if i in by_index] + rest


FLOW_KINDS = {  # event name -> the service ids (`trx stats --json`) it counts under
    "TX QUEUE SEND": (69,), "TX QUEUE FRONT SEND": (63,), "TX QUEUE RECEIVE": (68,),
    "TX SEMAPHORE PUT": (88,), "TX SEMAPHORE GET": (83,),
}


def track_events(packets, thread_tracks, names):
    """Each track event of the Perfetto export: (event, its name, its lane's tid)."""
    for p in packets:
        te = first(p, "track_event")
        if te:
            yield te, names.get(first(te, "name_iid")), thread_tracks.get(first(te, "track_uuid"))


def flow_kinds(packets, thread_tracks, names, isr_tid):
    """Flows of the Perfetto export that ended, by what started them:
    isr_thread (an ISR's RESUME), queue (a send), semaphore (a put)."""
    started, out = {}, {"isr_thread": 0, "queue": 0, "semaphore": 0, "other": 0}
    for te, name, tid in track_events(packets, thread_tracks, names):
        for fid in te.get("terminating_flow_ids", []):
            sname, stid = started.get(fid, (None, None))
            kind = ("isr_thread" if sname == "TX INTERNAL RESUME" and stid == isr_tid else
                    "queue" if sname in ("TX QUEUE SEND", "TX QUEUE FRONT SEND") else
                    "semaphore" if sname == "TX SEMAPHORE PUT" else "other")
            out[kind] += 1
        for fid in te.get("flow_ids", []):
            started[fid] = (name, tid)
    return out


def check_flows(stats, packets, thread_tracks, names):
    """Cause->effect flows of the Perfetto export against `trx stats --json`."""
    threads = stats["threads"]
    n = len(threads)
    started = {}  # flow id -> (event name, tid)
    isr_flows, isr_runs = {}, {}  # address -> flows from ISR resumes / runs ending them
    by_thread, total = {}, {}  # (tid, name) / name -> flows started or ended there
    for te, name, tid in track_events(packets, thread_tracks, names):
        for fid in te.get("flow_ids", []):
            started[fid] = (name, tid)
            by_thread[(tid, name)] = by_thread.get((tid, name), 0) + 1
            total[name] = total.get(name, 0) + 1
        from_isr = 0
        for fid in te.get("terminating_flow_ids", []):
            if started.get(fid) == ("TX INTERNAL RESUME", n + 1) and \
                    first(te, "type") == "TYPE_SLICE_BEGIN":
                from_isr += 1
            elif name in FLOW_KINDS:
                by_thread[(tid, name)] = by_thread.get((tid, name), 0) + 1
                total[name] = total.get(name, 0) + 1
        if from_isr and tid is not None and tid <= n:
            a = threads[tid - 1]["address"]
            isr_flows[a] = isr_flows.get(a, 0) + from_isr
            isr_runs[a] = isr_runs.get(a, 0) + 1
    latency = {}
    for e in stats["latency"]["interrupt_to_thread"]:
        latency[e["address"]] = latency.get(e["address"], 0) + e["count"]
    check(isr_runs == latency, "perfetto: runs ending ISR->thread flows %s, "
          "latency.interrupt_to_thread counts %s" % (sorted(isr_runs.items())[:6],
                                                     sorted(latency.items())[:6]))
    for a, runs in isr_runs.items():
        check(isr_flows[a] >= runs, "perfetto: %d ISR->thread flows into 0x%x over %d runs"
              % (isr_flows[a], a, runs))
    popular = {s["id"]: s["count"] for s in stats["popular_services"]}
    for (tid, name), count in by_thread.items():
        if name not in FLOW_KINDS:
            continue
        want = sum(popular.get(i, 0) for i in FLOW_KINDS[name])
        if tid is not None and tid <= n:
            services = {s["id"]: s["count"] for s in threads[tid - 1].get("services", [])}
            want = sum(services.get(i, 0) for i in FLOW_KINDS[name])
        check(count <= want, "perfetto: %d %s flows on tid %s, stats count %d such events"
              % (count, name, tid, want))
    for name, count in total.items():
        if name in FLOW_KINDS:
            want = sum(popular.get(i, 0) for i in FLOW_KINDS[name])
            check(count <= want, "perfetto: %d %s flows, popular_services %d" % (count, name, want))
        else:
            check(name == "TX INTERNAL RESUME", "perfetto: a flow starts at a %s" % name)
    return sum(isr_flows.values())


def arg_pairs(text):
    """The CSV export's args text, "Name=value (object); Name=value" -> {name: int}."""
    out = {}
    for part in filter(None, text.split("; ")):
        name, _, value = part.partition("=")
        out[name] = int(value.split(" ")[0], 0)
    return out


def check_every_event(trx, trace, work, packets):
    """Each export's record of each event = trx events' fields, one by one."""
    ev = [json.loads(l) for l in run([trx, "events", "--format", "jsonl", trace]).decode().splitlines()]
    by_index = {e["index"]: e for e in ev}
    compared = 0
    # CSV
    out = os.path.join(work, "every.csv")
    run([trx, "export", "--to", "csv", trace, "-o", out])
    with open(out, encoding="utf-8", errors="replace", newline="") as f:
        rows = list(csv.DictReader(f))
    check(len(rows) == len(ev), "csv: %d rows, trx events %d" % (len(rows), len(ev)))
    for r, e in zip(rows, ev):
        got = (int(r["index"]), int(r["ticks"]), int(r["id"]), r["name"], r["context"],
               None if r["priority"] == "" else int(r["priority"]),
               [int(r["info%d" % k]) for k in range(1, 5)], r["synthetic"] == "1",
               arg_pairs(r["args"]))
        # an event with no named fields (user events): the CSV names them info1..info4
        args = e["args"] or {"info%d" % (k + 1): v for k, v in enumerate(e["info"])}
        if e["synthetic"] or got[8] == {}:
            args = e["args"]
        want = (e["index"], e["ticks"], e["id"], e["name"], e["context"], e["priority"], e["info"],
                e["synthetic"], args)
        if got != want:
            check(False, "csv: event %d is %r, trx events %r" % (e["index"], got, want))
            break
        compared += 1
    # Chrome JSON: one instant per event
    out = os.path.join(work, "every.json")
    run([trx, "export", "--to", "chrome-json", trace, "-o", out])
    with open(out, encoding="utf-8") as f:
        instants = [x for x in json.load(f)["traceEvents"] if x["ph"] == "i"]
    check(len(instants) == len(ev), "chrome: %d instants, trx events %d" % (len(instants), len(ev)))
    for x in instants:
        e = by_index.get(x["args"].get("index"))
        a = x["args"]
        ok = (e is not None and x["ts"] == e["ticks"] and x["name"] == e["name"] and a["id"] == e["id"]
              and a["ticks"] == e["ticks"] and all(a.get(k) == v for k, v in e["args"].items())
              and a.get("priority") == (e["priority"] if e["context"] == "thread" else None))
        if not ok:
            check(False, "chrome: instant %r, trx events %r" % (x, e))
            break
        compared += 1
    # Perfetto: one instant per event (timestamps in ns: 1 tick = 1 us by default)
    names, anames, seen = {}, {}, 0
    for p in packets:
        idata = first(p, "interned_data")
        if idata:
            names.update((first(x, "iid"), first(x, "name")) for x in idata.get("event_names", []))
            anames.update((first(x, "iid"), first(x, "name"))
                          for x in idata.get("debug_annotation_names", []))
        te = first(p, "track_event")
        if not te or first(te, "type") != "TYPE_INSTANT":
            continue
        ann = {}
        for d in te.get("debug_annotations", []):
            key = anames.get(first(d, "name_iid"), first(d, "name"))
            ann[key] = first(d, "uint_value", first(d, "int_value", first(d, "string_value")))
        e = by_index.get(ann.get("index"))
        ok = (e is not None and first(p, "timestamp") == e["ticks"] * 1000
              and names.get(first(te, "name_iid")) == e["name"]
              and ann.get("priority") == (e["priority"] if e["context"] == "thread" else None)
              and all(ann.get(k) == v for k, v in e["args"].items()))
        if not ok:
            check(False, "perfetto: instant at %s with %r (%s), trx events %r"
                  % (first(p, "timestamp"), ann, names.get(first(te, "name_iid")), e))
            break
        seen += 1
        compared += 1
    check(seen == len(ev), "perfetto: %d instants, trx events %d" % (seen, len(ev)))
    # CTF (stored events only), as babeltrace2 prints them
    stored = [e for e in ev if not e["synthetic"]]
    out = os.path.join(work, "every_ctf")
    run([trx, "export", "--to", "ctf", trace, "-o", out])
    lines = ctf_lines_by_index(run(["babeltrace2", "--clock-cycles", out]).decode().splitlines(),
                               [e["index"] for e in stored])
    check(len(lines) == len(stored), "ctf: %d events, trx events %d stored" % (len(lines), len(stored)))
    for line, e in zip(lines, stored):
        m = re.match(r"\[(\d+)\] \(\+[^)]*\) (.*?): \{[^}]*\}, \{ (.*) \}$", line)
        fields = [kv.split(" = ") for kv in m.group(3).split(", ")] if m else []
        # fields typed by the catalogue: hexadecimal (0x...) or signed words
        vals = [int(v, 0) for _, v in fields] if m else []
        # CTF event classes are per id: an id the catalogue does not name carries it ("(id N)")
        name_ok = m and (m.group(2) == e["name"] or m.group(2) == "%s (id %d)" % (e["name"], e["id"]))
        ok = (m and int(m.group(1)) == e["ticks"] and name_ok and len(vals) >= 4
              and vals[0] == e["index"] and vals[1] == e["thread"]
              and (e["priority"] is None or vals[2] == e["priority"])
              and [v & 0xFFFFFFFF for v in vals[4:]] == e["info"][:len(vals) - 4]
              and len(vals) - 4 >= len(e["args"]))
        if not ok:
            check(False, "ctf: %r, trx events %r" % (line[:200], e))
            break
        compared += 1
    return compared


def main():
    trx, shared, trace, work = sys.argv[1:5]
    truth = {}  # --flows-truth FILE: the program's own count of each flow kind
    if len(sys.argv) > 6 and sys.argv[5] == "--flows-truth":
        for line in open(sys.argv[6]):
            key, _, value = line.strip().partition("=")
            if key.startswith("flows_"):
                truth[key[len("flows_"):]] = int(value)
    os.makedirs(work, exist_ok=True)
    stats = json.loads(run([trx, "stats", "--json", trace]))
    # lanes: the first thread of each address; then Interrupt, Initialization, Idle
    threads = stats["threads"]
    first_at = {}
    for i, th in enumerate(threads):
        first_at.setdefault(th["address"], i)
    n = len(threads)
    expect_ticks = {i + 1: threads[i]["execution_ticks"] for i in first_at.values()}
    # execution_profile ends with Interrupt, Idle and Initialization
    interrupt, idle, _ = stats["execution_profile"][-3:]
    assert interrupt["name"] == "Interrupt" and idle["name"] == "Idle"
    expect_ticks[n + 1] = interrupt["ticks"]
    expect_ticks[n + 3] = idle["ticks"]

    # ---- Chrome JSON
    out = os.path.join(work, "trace.json")
    run([trx, "export", "--to", "chrome-json", trace, "-o", out])
    with open(out, encoding="utf-8") as f:
        doc = json.load(f)
    events = doc["traceEvents"]
    names = {e["tid"]: e["args"] for e in events
             if e["ph"] == "M" and e["name"] == "thread_name"}
    for i in first_at.values():
        check(names.get(i + 1, {}).get("address") == threads[i]["address"],
              "chrome: thread_name of tid %d is not thread %d" % (i + 1, i))
    x_ticks, x_count, x_us = {}, {}, {}
    for e in events:
        if e["ph"] == "X" and e["pid"] == 1:
            x_ticks[e["tid"]] = x_ticks.get(e["tid"], 0) + e["args"]["ticks"]
            x_count[e["tid"]] = x_count.get(e["tid"], 0) + 1
            x_us[e["tid"]] = x_us.get(e["tid"], 0) + e["dur"]
    for tid, ticks in expect_ticks.items():
        check(x_ticks.get(tid, 0) == ticks,
              "chrome: X slices of tid %d sum to %d ticks, profile says %d"
              % (tid, x_ticks.get(tid, 0), ticks))
        # default rate: 1 tick = 1 us
        check(abs(x_us.get(tid, 0) - ticks) < 1e-6 * max(1, ticks),
              "chrome: X durations of tid %d sum to %s us, profile %d" % (tid, x_us.get(tid), ticks))
    instants = sum(1 for e in events if e["ph"] == "i")
    check(instants == stats["total_events"],
          "chrome: %d instants, %d events" % (instants, stats["total_events"]))
    flows_s = [e["id"] for e in events if e["ph"] == "s"]
    flows_f = [e["id"] for e in events if e["ph"] == "f"]
    check(sorted(flows_s) == sorted(flows_f) and len(set(flows_s)) == len(flows_s),
          "chrome: flow s/f events do not pair up")

    # ---- Perfetto
    out = os.path.join(work, "trace.pftrace")
    run([trx, "export", "--to", "perfetto", trace, "-o", out])
    with open(out, "rb") as f:
        text = run(["protoc", "--proto_path=" + os.path.join(shared, "perfetto"),
                    "--decode=perfetto.protos.Trace", "perfetto_trace.proto"], stdin=f)
    packets = parse_textproto(text.decode("utf-8"))["packet"]
    drop_path_flows(packets)
    thread_tracks = {}
    for p in packets:
        td = first(p, "track_descriptor")
        if td and "thread" in td:
            thread_tracks[first(td, "uuid")] = first(first(td, "thread"), "tid")
    lanes_used = set(thread_tracks.values())
    want_lanes = {i + 1 for i in first_at.values()} | {n + 1, n + 2, n + 3}
    check(want_lanes <= lanes_used and len(lanes_used - want_lanes) <= 1,
          "perfetto: thread tracks %s, expected %s (+ Unknown)" % (sorted(lanes_used),
                                                                 sorted(want_lanes)))
    open_at, p_ticks, p_count = {}, {}, {}
    starts, ends = [], []
    names_interned = {}
    for p in packets:
        idata = first(p, "interned_data")
        if idata:
            names_interned.update((first(e, "iid"), first(e, "name"))
                                  for e in idata.get("event_names", []))
        te = first(p, "track_event")
        if not te:
            continue
        ts, track, typ = first(p, "timestamp"), first(te, "track_uuid"), first(te, "type")
        tid = thread_tracks.get(track)
        if typ == "TYPE_SLICE_BEGIN":
            check(track not in open_at, "perfetto: nested slice on track %s" % track)
            open_at[track] = ts
            p_count[tid] = p_count.get(tid, 0) + 1
        elif typ == "TYPE_SLICE_END":
            p_ticks[tid] = p_ticks.get(tid, 0) + ts - open_at.pop(track)
        for fid in te.get("terminating_flow_ids", []):
            ends.append(fid)
            check(fid in starts, "perfetto: flow %s ends before it starts" % fid)
        starts.extend(te.get("flow_ids", []))
    check(not open_at, "perfetto: slices left open")
    for tid, ticks in expect_ticks.items():
        check(p_ticks.get(tid, 0) == ticks * 1000,
              "perfetto: slices of tid %d last %d ns, profile %d ticks"
              % (tid, p_ticks.get(tid, 0), ticks))
        check(p_count.get(tid, 0) == x_count.get(tid, 0),
              "perfetto: %d slices on tid %d, chrome %d" % (p_count.get(tid, 0), tid,
                                                            x_count.get(tid, 0)))
    check(len(set(ends)) == len(ends), "perfetto: a flow ends twice")
    check(len(set(starts)) == len(starts), "perfetto: a flow starts twice")
    check(len(ends) == len(flows_f), "perfetto: %d flows end, chrome has %d" % (len(ends),
                                                                               len(flows_f)))
    check("running" in names_interned.values(), "perfetto: no interned 'running' name")
    isr_flows = check_flows(stats, packets, thread_tracks, names_interned)
    kinds = flow_kinds(packets, thread_tracks, names_interned, n + 1)
    for kind, want in truth.items():  # pinned: exactly the flows the program caused
        check(kinds.get(kind) == want, "perfetto: %s flows %s, the program caused %d"
              % (kind, kinds.get(kind), want))
    if truth:
        check(kinds["other"] == 0 and sum(kinds.values()) == len(flows_f),
              "flows: %s in Perfetto, %d in Chrome JSON" % (kinds, len(flows_f)))

    # ---- CTF, read by babeltrace2
    listing = run([trx, "events", "--no-synthetic", "--format", "csv", trace]).decode()
    ticks = [int(r["ticks"]) for r in csv.DictReader(io.StringIO(listing))]
    indexes = [int(r["index"]) for r in csv.DictReader(io.StringIO(listing))]
    for rate in (None, 3000000):
        out = os.path.join(work, "ctf" if rate is None else "ctf_rate")
        cmd = [trx, "export", "--to", "ctf", trace, "-o", out]
        if rate:
            cmd += ["--ticks-per-second", str(rate)]
        run(cmd)
        flag = "--clock-cycles" if rate is None else "--clock-seconds"
        lines = ctf_lines_by_index(run(["babeltrace2", flag, out]).decode().splitlines(), indexes)
        check(len(lines) == len(ticks), "ctf: babeltrace2 printed %d events, trx events %d"
              % (len(lines), len(ticks)))
        for k, (line, t) in enumerate(zip(lines, ticks)):
            m = re.match(r"\[([0-9.]+)\]", line)
            if rate is None:
                ok = m and int(m.group(1)) == t
            else:
                sec, _, frac = m.group(1).partition(".")
                ns = int(sec) * 10**9 + int(frac.ljust(9, "0"))
                ok = m and abs(ns - t * 10**9 // rate) <= 1
            if not ok:
                check(False, "ctf: event %d at %s, trx says %d ticks" % (k, line[:40], t))
                break

    check_cores(trx, trace, stats, events, packets, listing, os.path.join(work, "ctf"))
    compared = check_every_event(trx, trace, work, packets)

    # ---- CSV
    out = os.path.join(work, "trace.csv")
    run([trx, "export", "--to", "csv", trace, "-o", out])
    with open(out, encoding="utf-8", errors="replace", newline="") as f:
        rows = list(csv.DictReader(f))
    check(len(rows) == stats["total_events"], "csv: %d rows, %d events" % (len(rows),
                                                                      stats["total_events"]))

    if failures:
        for f in failures[:20]:
            print("FAIL:", f)
        return 1
    print("ok: %s (%d events, %d lanes, %d flows, %d from ISRs; %d exported events compared "
          "field by field)" % (os.path.basename(trace), stats["total_events"], len(lanes_used),
                               len(ends), isr_flows, compared))
    return 0


if __name__ == "__main__":
    sys.exit(main())
