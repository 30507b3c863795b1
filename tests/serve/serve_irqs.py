#!/usr/bin/env python3
"""serve_irqs.py - the Hwi / Swi lanes of a served SYS/BIOS capture: the
events of /api/events read in pages (decoded as the page decodes them) put
on each lane exactly the events the whole-span summary counts on it, the Hwi
/ Swi lanes among them with run time; a window starting inside an interrupt
(events I.. where event I-1 and I lie on one Hwi / Swi lane) gives its first
events the lanes the walk from the start gave them; a search for a Hwi / Swi
lane's name finds that lane's first events.

usage: serve_irqs.py TRX CAPTURE.uia META.uia.xml [CAPTURE META ...]"""
import base64, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from served import Served

failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL: " + what)


def varints(data):
    """The varints of a report's event records, one at a time."""
    v = shift = 0
    for b in data:
        v |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            yield v
            v = shift = 0


def lanes_of(events_b64, threads, cores):
    """Each event's lane (report_events.c: delta, id, lane*4+flags, next,
    [core], [priority on a thread lane], 4 fields, [flows])."""
    it, out = varints(base64.b64decode(events_b64)), []
    for delta in it:
        next(it)  # id
        word = next(it)
        lane = word >> 2
        next(it)  # next lane
        if cores > 1:
            next(it)
        if lane < threads:
            next(it)
        for _ in range(4):
            next(it)
        if word & 2:
            for _ in range(next(it)):
                next(it)
        out.append(lane)
    return out


def check_capture(trx, capture, meta):
    s = Served(trx, "--uia-meta", meta, capture)
    try:
        st = s.wait_done()
        total = st["total"]
        m = s.get("api/meta")
        lanes = m["lanes"]
        threads = sum(1 for l in lanes if l["kind"] == "thread")
        cores = m.get("context_cores", 1)
        irq_lanes = [k for k, l in enumerate(lanes) if l["kind"] in ("isr", "swi") and l["used"]
                     and (l["name"].startswith(("Hwi ", "Swi ")) or "/Hwi " in l["name"] or "/Swi " in l["name"])]
        check(irq_lanes, "%s: no Hwi / Swi lanes in the meta" % capture)
        # every event's lane, read in pages of 100,000 from event 0
        lane = []
        while len(lane) < total:
            r = s.get("api/events?first=%d&count=100000" % len(lane))
            check(r["first"] == len(lane) and r["count"] > 0, "%s: events from %d: %r" % (capture, len(lane), r.get("first")))
            if r["count"] == 0:
                break
            lane += lanes_of(r["events"], threads, cores)
        check(len(lane) == total, "%s: %d events read, %d in the capture" % (capture, len(lane), total))
        # the whole span in one column: each lane's events; in 50: run time on the Hwi / Swi lanes
        span = st["ready_ticks"] + 1
        one = s.get("api/view?from=0&to=%d&cols=1" % span)
        if one["mode"] != "summary":  # a small capture: its whole span is a window of events
            one = None
        counts = {}
        for l in lane:
            counts[l] = counts.get(l, 0) + 1
        if one:
            summary = {ln[0]: ln[2][0] for ln in one["summary"]["lanes"] if ln[2][0]}
            check(summary == counts, "%s: events per lane in the summary %r, in the events %r" % (capture, summary, counts))
            cols = s.get("api/view?from=0&to=%d&cols=50" % span)["summary"]
            busy = {ln[0]: sum(ln[1]) for ln in cols["lanes"]}
            for k in irq_lanes:
                check(busy.get(k, 0) > 0 and counts.get(k, 0) > 0,
                      "%s: lane %s zoomed out: busy %r, %r events" % (capture, lanes[k]["name"], busy.get(k), counts.get(k)))
            hidden = [k for k, l in enumerate(lanes) if not l["used"]]
            check(not [k for k in hidden if k in busy], "%s: summary columns on hidden lanes %r" %
                  (capture, [lanes[k]["name"] for k in hidden if k in busy]))
        irq = set(irq_lanes)
        # windows starting inside an interrupt
        inside = [i for i in range(1, total) if lane[i] in irq and lane[i - 1] == lane[i]]
        check(inside, "%s: no event inside an interrupt" % capture)
        picks = inside[:: max(1, len(inside) // 40)]
        for i in picks:
            r = s.get("api/events?first=%d&count=4" % i)
            got = lanes_of(r["events"], threads, cores)
            check(got == lane[i:i + 4], "%s: the window from event %d (inside %s) puts its events on lanes %r, "
                  "the walk from the start on %r" % (capture, i, lanes[lane[i]]["name"], got, lane[i:i + 4]))
        # search by a Hwi / Swi lane's name: that lane's first events
        for k in irq_lanes[:3]:
            name = lanes[k]["name"]
            want = [i for i, l in enumerate(lane) if l == k][:3]
            got, at, inclusive = [], 0, "&inclusive=1"
            while len(got) < len(want):
                r = s.get("api/search?q=%s&from=%d&dir=1%s" % (name.replace(" ", "%20").replace("/", "%2F"), at, inclusive))
                inclusive = ""
                if "next" in r:
                    at = r["next"]
                    continue
                if "found" not in r:
                    break
                got.append(r["found"])
                at = r["found"]
            check(got == want, "%s: search %r finds %r, its lane's first events are %r" % (capture, name, got, want))
        print("%s: %d events, %d Hwi / Swi lanes, %d windows from inside an interrupt, %s" %
              (capture, total, len(irq_lanes), len(picks),
               "summary per lane = events" if one else "one window"))
    finally:
        s.stop()


def main():
    if len(sys.argv) < 4 or len(sys.argv) % 2:
        raise SystemExit(__doc__)
    for k in range(2, len(sys.argv), 2):
        check_capture(sys.argv[1], sys.argv[k], sys.argv[k + 1])
    if failures:
        raise SystemExit("%d failures" % failures)
    print("serve_irqs: ok")


main()
