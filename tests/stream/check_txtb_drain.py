#!/usr/bin/env python3
"""check_txtb_drain.py TRX WRITER WORKDIR - a TXTB buffer written by the
kernel and drained into a stream (txtb_drain_writer.c), against the
writer's truth: the capture opens as the TXTB trace it carries (trx info:
the stream's records = the forwarded entries and the registry snapshot,
lost = the overwritten ones, exactly), and both read directly and
converted to TXTB (trx convert --to txtb) every forwarded entry comes back
whole (its id, info words, its thread "main" named by the registry
streamed at the start, its priority) and each run of overwritten entries is
one gap (lost_before of the event after it; in the converted file a
lost-events marker) whose count is exactly the run of sequence numbers
missing there."""
import json, os, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "uia"))
from test_support import check, finish  # noqa: E402

TRX, WRITER, WORK = sys.argv[1:4]
os.makedirs(WORK, exist_ok=True)
cap, trx_file = os.path.join(WORK, "drain.uia"), os.path.join(WORK, "drain.trx")
truth = json.loads(subprocess.run([WRITER, cap, "20000"], check=True, capture_output=True,
                                  text=True).stdout)
print(truth)
info = json.loads(subprocess.run([TRX, "info", "--json", cap], check=True, capture_output=True,
                                 text=True).stdout)
check(truth["overwritten"] > 0 and truth["dropped"] == truth["overwritten"],
      "the kernel overwrote entries before the drain read them: %s" % truth)
check(truth["forwarded"] + truth["overwritten"] == truth["inserted"], "every entry accounted for")
stream = info.get("stream", {})
check(info.get("format") == "txtb" and stream.get("records") == truth["forwarded"] + 1 and
      info.get("lost_events") == truth["overwritten"] and
      stream.get("lost_events") == truth["overwritten"],
      "capture read as TXTB: %s records (the registry snapshot and the entries), %s lost = "
      "forwarded %d, overwritten %d" %
      (stream.get("records"), info.get("lost_events"), truth["forwarded"], truth["overwritten"]))
check(info.get("registry_used") == 1 and info.get("entries_used") == truth["forwarded"],
      "the capture's registry and entries: %s used, %s entries" %
      (info.get("registry_used"), info.get("entries_used")))
r = subprocess.run([TRX, "convert", "--to", "txtb", cap, "-o", trx_file], capture_output=True,
                   text=True)
check(r.returncode == 0, "convert --to txtb: %s" % r.stderr.strip())


def check_events(path, what):
    """Every entry whole, each gap exactly the missing sequence numbers."""
    events = [json.loads(l) for l in subprocess.run(
        [TRX, "events", "--format", "jsonl", path], check=True, capture_output=True,
        text=True).stdout.splitlines()]
    last, pending, lost_total, bad = -1, 0, 0, 0
    for e in events:
        info_words = e.get("info") or e.get("args")
        if e["id"] == 0xFFF0:  # a lost-events marker
            pending += info_words[0]
            lost_total += info_words[0]
            continue
        pending += e.get("lost_before", 0)
        lost_total += e.get("lost_before", 0)
        i = info_words[0]
        ok = (e["id"] == 4096 + i % 8 and info_words[1] == i * 2654435761 & 0xFFFFFFFF and
              e.get("thread_name") == "main" and e.get("priority") == 5 and
              info_words[2] == ~i & 0xFFFFFFFF and info_words[3] == 0x5A5A0000 and
              i - last - 1 == pending)
        bad += not ok
        if not ok and bad < 5:
            print("unexpected:", e, "after", last, "pending", pending)
        last, pending = i, 0
    check(bad == 0, "%s: every entry whole, each gap exactly the missing sequence numbers "
          "(%d bad)" % (what, bad))
    check(lost_total + pending == truth["overwritten"] and last + 1 + pending == truth["inserted"],
          "%s: gaps count %d = overwritten %d" % (what, lost_total, truth["overwritten"]))


check_events(cap, "the capture")
check_events(trx_file, "converted")
tinfo = json.loads(subprocess.run([TRX, "info", "--json", trx_file], check=True,
                                  capture_output=True, text=True).stdout)
check(tinfo.get("registry_used") == 1 and tinfo.get("object_name_size") == 32,
      "the registry streamed at the start is the converted buffer's (%s used)" %
      tinfo.get("registry_used"))
finish("txtb_drain")
