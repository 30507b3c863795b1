#!/usr/bin/env python3
"""check_stream_guide.py TRX CAPTURE COUNTS [GUIDE_LOG] - the capture that
examples/freertos/README.md's "Streaming by hand" made, against the
example's own counts (counts.txt: recorded, dropped): trx reads it whole as
the FreeRTOS trace it carries, its lost events are exactly the recorder's
drop counter and the events it holds plus the lost ones exactly the
recorded ones; the block printed the counts, trx info's summary, the
statistics with the tasks at their xTaskCreate priorities, and wrote the
report; and the capture through every trx command (check_stream_commands.py:
tasks, priorities, lanes, no ThreadX word). One function per fact."""
import json, os, re, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "uia"))
from test_support import check, finish  # noqa: E402


class Run:
    """What the block left: the capture, the example's counts, the log."""

    def __init__(self, trx, capture, counts, log=None):
        self.trx, self.capture, self.counts_path = trx, capture, counts
        self.counts = dict((k, int(v)) for k, v in (l.split() for l in open(counts) if l.strip()))
        self.log = open(log).read() if log else ""
        self.info = json.loads(self.run("info", "--json", capture))
        self.stream = self.info.get("stream", {})  # read as the TXTB trace it carries

    def run(self, *args):
        return subprocess.run([self.trx] + list(args), check=True, capture_output=True,
                              text=True).stdout


def check_read_whole(r):
    i, s = r.info, r.stream
    check(i.get("format") == "txtb" and i.get("rtos") == "freertos",
          "read as a FreeRTOS trace (%s, %s)" % (i.get("format"), i.get("rtos")))
    check(s.get("records", 0) > 0, "the capture holds events (%s)" % s.get("records"))
    check(s.get("garbage_bytes") == 0 and s.get("corrupt_packets") == 0 and
          s.get("stream_packets") == s.get("packets"), "every packet whole and checked (%s)" % s)


def check_lost_is_dropped(r):
    c, i, s = r.counts, r.info, r.stream
    check(i["lost_events"] == c["dropped"] and s["lost_events"] == c["dropped"],
          "lost events %d = the example's dropped %d" % (i["lost_events"], c["dropped"]))
    check(s["records"] + i["lost_events"] == c["recorded"],
          "held %d + lost %d = recorded %d" % (s["records"], i["lost_events"], c["recorded"]))


def check_block_printed(r):
    if not r.log:
        return
    check("recorded %d\n" % r.counts["recorded"] in r.log, "the block printed counts.txt")
    check(re.search(r"^RTOS: +FreeRTOS", r.log, re.M) is not None and
          re.search(r"^Stream: .* %d records" % r.stream["records"], r.log, re.M) is not None and
          re.search(r"^Lost events: +%d events lost" % r.counts["dropped"], r.log, re.M) is not None,
          "the block printed trx info's RTOS, records and lost events (the dropped count)")
    check(re.search(r"^Lost: +%d events" % r.counts["dropped"], r.log, re.M) is not None and
          re.search(r"^  producer +\d+", r.log, re.M) is not None,
          "the block printed trx stats: the lost events and the tasks")
    check(os.path.getsize(os.path.join(os.path.dirname(r.capture), "freertos.html")) > 0,
          "the block wrote the report")


def check_every_command(r):
    """The capture through every command as FreeRTOS: main_stream.c creates
    producer, consumer and drain at priority 2; FreeRTOSConfig.h puts the
    timer task at configTIMER_TASK_PRIORITY 5."""
    here = os.path.dirname(os.path.abspath(__file__))
    work = os.path.join(os.path.dirname(os.path.abspath(r.capture)), "commands")
    p = subprocess.run([sys.executable, os.path.join(here, "check_stream_commands.py"), r.trx,
                        r.capture, r.counts_path, work, "--task", "producer=2", "--task",
                        "consumer=2", "--task", "drain=2", "--task", "Tmr Svc=5"])
    check(p.returncode == 0, "the capture through every trx command (check_stream_commands.py)")


CHECKS = [check_read_whole, check_lost_is_dropped, check_block_printed, check_every_command]

if __name__ == "__main__":
    run = Run(*sys.argv[1:5])
    print("recorded %d, held %d, lost %d (dropped %d)" % (
        run.counts["recorded"], run.stream.get("records", -1), run.info.get("lost_events", -1),
        run.counts["dropped"]))
    for c in CHECKS:
        c(run)
    finish("freertos_stream_guide")
