#!/usr/bin/env python3
"""check_stream_guide.py TRX CAPTURE COUNTS [GUIDE_LOG] - the capture that
examples/freertos/README.md's "Streaming by hand" made, against the
example's own counts (counts.txt: recorded, dropped): trx reads it whole,
its lost events are exactly the recorder's drop counter and the events it
holds plus the lost ones exactly the recorded ones; the block printed the
counts and trx info's summary. One function per fact: add checks (tasks,
priorities...) as functions taking the same Run."""
import json, os, re, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "uia"))
from test_support import check, finish  # noqa: E402


class Run:
    """What the block left: the capture, the example's counts, the log."""

    def __init__(self, trx, capture, counts, log=None):
        self.trx, self.capture = trx, capture
        self.counts = dict((k, int(v)) for k, v in (l.split() for l in open(counts) if l.strip()))
        self.log = open(log).read() if log else ""
        self.info = json.loads(self.run("info", "--json", capture))

    def run(self, *args):
        return subprocess.run([self.trx] + list(args), check=True, capture_output=True,
                              text=True).stdout


def check_read_whole(r):
    i = r.info
    check(i["records"] > 0, "the capture holds events (%d)" % i["records"])
    check(i["garbage_bytes"] == 0 and i["corrupt_packets"] == 0 and
          i["stream_packets"] == i["packets"], "every packet whole and checked (%s)" %
          {k: i[k] for k in ("garbage_bytes", "corrupt_packets", "stream_packets", "packets")})


def check_lost_is_dropped(r):
    c, i = r.counts, r.info
    check(i["lost_events"] == c["dropped"],
          "lost events %d = the example's dropped %d" % (i["lost_events"], c["dropped"]))
    check(i["records"] + i["lost_events"] == c["recorded"],
          "held %d + lost %d = recorded %d" % (i["records"], i["lost_events"], c["recorded"]))


def check_block_printed(r):
    if not r.log:
        return
    check("recorded %d\n" % r.counts["recorded"] in r.log, "the block printed counts.txt")
    check(re.search(r"^Records: +%d$" % r.info["records"], r.log, re.M) is not None and
          re.search(r"^Lost events: +%d events lost" % r.counts["dropped"], r.log, re.M) is not None,
          "the block printed trx info's records and lost events (the dropped count)")


CHECKS = [check_read_whole, check_lost_is_dropped, check_block_printed]

if __name__ == "__main__":
    run = Run(*sys.argv[1:5])
    print("recorded %d, held %d, lost %d (dropped %d)" % (run.counts["recorded"], run.info["records"],
                                                       run.info["lost_events"], run.counts["dropped"]))
    for c in CHECKS:
        c(run)
    finish("freertos_stream_guide")
