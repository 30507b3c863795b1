#!/usr/bin/env python3
"""check_stream_fw.py MODE TRX GDB_LOG CAPTURE - a capture of the streaming
firmware (fw_stream.c) against the firmware's own counters, read by GDB at
its end: lost events = the recorder's drop counter; events received + lost
= every event the firmware recorded; every event received is the firmware's
(module FW, its id, its sequence number within its source's count, the
argument the firmware derives from it), each source's sequence numbers
going up; UART and TXTB modes: the capture holds exactly the bytes the
firmware sent; TXTB mode: every entry carried whole (the kernel's ISR
entries too), entries overwritten before the drain counted in the drop
counter and lost exactly, and `trx convert --to txtb` gives every entry
and one marker per gap."""
import json, os, re, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "uia"))
from test_support import check, finish  # noqa: E402

MODE, TRX, LOG, CAPTURE = sys.argv[1:5]
log = open(LOG).read()
main, tick, timer, nested, dropped, sent = map(int, re.search(r"^counters (.*)$", log, re.M)
                                               .group(1).split())
# the records as they arrived (a TXTB drain's capture otherwise opens as the
# TXTB trace it carries: checked below)
RAW = ["--trace-format", "uia"]
info = json.loads(subprocess.run([TRX, "info", "--json", *RAW, CAPTURE], check=True,
                                 capture_output=True, text=True).stdout)
events = [json.loads(l) for l in subprocess.run([TRX, "events", "--format", "jsonl", *RAW,
                                                 CAPTURE], check=True, capture_output=True,
                                                text=True).stdout.splitlines()]
total = main + tick + timer
if MODE == "txtb":  # the kernel's own ISR enter / exit entries (ids 3, 4) travel too,
    total += 2 * (tick + timer) + 1  # and the registry snapshot (one record)
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
    if MODE == "txtb":  # a TXTB entry carried whole: id 4096 + source, "TXTB" last
        if e["module"] == 0x5452 and e["id"] == 5:  # the registry snapshot
            bad += "snapshot" not in e
            continue
        src = e["id"] - 4096
        whole = (e["module"] == 0 and len(e["args"]) == 8 and e["args"][6] == e["id"] and
                 e["args"][7] == 0x54585442)
        if whole and e["id"] in (3, 4):  # ISR enter / exit: the ISR id (15 SysTick, 24 TIMER0)
            bad += e["args"][1] not in (15, 24)
            continue
        ok = whole and src in counts
    else:
        src = e["id"]
        ok = e["module"] == 0x4657 and e["id"] in counts and len(e["args"]) >= 2
    if ok:
        seq = e["args"][0]
        ok = (seq < counts[src] and seq > last[src] and
              e["args"][1] == seq * 2654435761 & 0xFFFFFFFF and
              (src != 3 or e["args"][2] in (0, 1)))
        last[src] = seq
    bad += not ok
check(bad == 0, "every event received is one the firmware recorded (%d are not)" % bad)
check(len(events) == info["records"], "events listed = records")
if MODE == "txtb":
    over = int(re.search(r"^overwritten (\d+)$", log, re.M).group(1))
    check(over > 0, "the interrupts and bursts overwrote TXTB entries before the drain (%d)" % over)
    # opened directly: the TXTB trace, every entry, the gaps as lost events
    adopted = json.loads(subprocess.run([TRX, "info", "--json", CAPTURE], check=True,
                                        capture_output=True, text=True).stdout)
    check(adopted.get("format") == "txtb" and adopted.get("entries_used") == info["records"] - 1
          and adopted.get("lost_events") == dropped and adopted.get("registry_used") == 1,
          "read as TXTB: %s entries of %d records - 1, %s lost = %d" %
          (adopted.get("entries_used"), info["records"], adopted.get("lost_events"), dropped))
    tev = [json.loads(l) for l in subprocess.run([TRX, "events", "--format", "jsonl", CAPTURE],
                                                 check=True, capture_output=True,
                                                 text=True).stdout.splitlines()]
    check(sum(e.get("lost_before", 0) for e in tev) == dropped,
          "read as TXTB: the events' lost_before add up to the drop counter")
    trx_file = CAPTURE + ".trx"
    subprocess.run([TRX, "convert", "--to", "txtb", CAPTURE, "-o", trx_file], check=True)
    ti = json.loads(subprocess.run([TRX, "info", "--json", trx_file], check=True,
                                   capture_output=True, text=True).stdout)
    check(ti.get("format") == "txtb" and
          ti.get("entries_used") == info["records"] - 1 + len(info["gaps"]) and
          ti.get("registry_used") == 1,
          "converted to TXTB: every entry, one marker per gap, the registry (%s of %d - 1 + %d)" %
          (ti.get("entries_used"), info["records"], len(info["gaps"])))
if MODE in ("uart", "txtb"):
    check(os.path.getsize(CAPTURE) == sent,
          "the capture holds the %d bytes the firmware sent (%d)" % (sent, os.path.getsize(CAPTURE)))
else:
    m = re.search(r"^rtt-probe (\d+) bytes", log, re.M)
    check(m and int(m.group(1)) == os.path.getsize(CAPTURE), "the capture holds what the probe read")
finish("stream_fw_" + MODE)
