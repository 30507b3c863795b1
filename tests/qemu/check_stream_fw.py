#!/usr/bin/env python3
"""check_stream_fw.py MODE TRX GDB_LOG CAPTURE - a capture of the streaming
firmware (fw_stream.c) against the firmware's own counters, read by GDB at
its end: lost events = the recorder's drop counter; events received + lost
= every event the firmware recorded; every event received is the firmware's
(module FW, its id, its sequence number within its source's count, the
argument the firmware derives from it), each source's sequence numbers
going up; UART mode: the capture holds exactly the bytes the firmware sent."""
import json, os, re, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "uia"))
from test_support import check, finish  # noqa: E402

MODE, TRX, LOG, CAPTURE = sys.argv[1:5]
log = open(LOG).read()
main, tick, timer, nested, dropped, sent = map(int, re.search(r"^counters (.*)$", log, re.M)
                                               .group(1).split())
info = json.loads(subprocess.run([TRX, "info", "--json", CAPTURE], check=True,
                                 capture_output=True, text=True).stdout)
events = [json.loads(l) for l in subprocess.run([TRX, "events", "--format", "jsonl", CAPTURE],
                                                check=True, capture_output=True,
                                                text=True).stdout.splitlines()]
total = main + tick + timer
check(dropped > 0, "the ring was too small for the bursts: the recorder dropped events (%d)" % dropped)
check(info["lost_events"] == dropped,
      "lost events %d = the firmware's drop counter %d" % (info["lost_events"], dropped))
check(info["records"] + info["lost_events"] == total,
      "received %d + lost %d = recorded %d" % (info["records"], info["lost_events"], total))
check(info["garbage_bytes"] == 0 and info["corrupt_packets"] == 0, "no damage on the link")
check(info["stream_packets"] == info["packets"], "every packet checked")
counts = {1: main, 2: tick, 3: timer}
last = {1: -1, 2: -1, 3: -1}
bad = 0
for e in events:
    ok = e["module"] == 0x4657 and e["id"] in counts and len(e["args"]) >= 2
    if ok:
        seq = e["args"][0]
        ok = (seq < counts[e["id"]] and seq > last[e["id"]] and
              e["args"][1] == seq * 2654435761 & 0xFFFFFFFF and
              (e["id"] != 3 or e["args"][2] in (0, 1)))
        last[e["id"]] = seq
    bad += not ok
check(bad == 0, "every event received is one the firmware recorded (%d are not)" % bad)
check(len(events) == info["records"], "events listed = records")
if MODE == "uart":
    check(os.path.getsize(CAPTURE) == sent,
          "the capture holds the %d bytes the firmware sent (%d)" % (sent, os.path.getsize(CAPTURE)))
else:
    m = re.search(r"^rtt-probe (\d+) bytes", log, re.M)
    check(m and int(m.group(1)) == os.path.getsize(CAPTURE), "the capture holds what the probe read")
finish("stream_fw_" + MODE)
