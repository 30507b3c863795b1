#!/usr/bin/env python3
"""check_freertos_stream.py TRX COUNTS CAPTURE SECONDS - the FreeRTOS
streaming run (run_freertos_stream.sh) against the example's own counts:
lost = the recorder's drop counter, received + lost = recorded, at least
10 M events recorded when it ran 60 s, resident memory flat (growth under
1 MiB from 10 s to the end; runs of 15 s and more) in the example and in
trx capture; the capture read as the FreeRTOS trace it carries."""
import json, os, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "uia"))
from test_support import check, finish  # noqa: E402

TRX, COUNTS, CAPTURE, SECONDS = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
c = dict((k, int(v)) for k, v in (l.split() for l in open(COUNTS)))
info = json.loads(subprocess.run([TRX, "info", "--json", CAPTURE], check=True,
                                 capture_output=True, text=True).stdout)
stream = info.get("stream", {})  # the capture reads as the FreeRTOS trace it carries
print("recorded %d, received %d, lost %d (dropped %d), %d packets" %
      (c["recorded"], stream.get("records", -1), info.get("lost_events", -1), c["dropped"],
       stream.get("packets", -1)))
check(info.get("format") == "txtb" and info.get("rtos") == "freertos",
      "read as a FreeRTOS trace (%s, %s)" % (info.get("format"), info.get("rtos")))
check(c["dropped"] > 0, "the drain fell behind: events dropped (%d)" % c["dropped"])
check(info["lost_events"] == c["dropped"],
      "lost %d = the recorder's drop counter %d" % (info["lost_events"], c["dropped"]))
check(stream["records"] + info["lost_events"] == c["recorded"],
      "received %d + lost %d = recorded %d" % (stream["records"], info["lost_events"],
                                               c["recorded"]))
check(stream["garbage_bytes"] == 0 and stream["corrupt_packets"] == 0 and
      stream["stream_packets"] == stream["packets"], "every packet whole and checked")
if SECONDS >= 60:
    check(c["recorded"] >= 10_000_000, "at least 10 M events in %g s (%d)" % (SECONDS, c["recorded"]))
for who in ("rss_kib", "capture_rss_kib") if SECONDS >= 15 else ():  # after 10 s
    start, end = c[who + "_at_10s"], c.get(who + "_at_end", c.get(who + "_max"))
    check(start > 0 and end - start < 1024,
          "%s memory flat: %d KiB after 10 s, %d KiB at most later" % (who, start, end))
finish("freertos_stream")
