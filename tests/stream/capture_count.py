#!/usr/bin/env python3
"""capture_count.py TRX STREAM_WRITER WORKDIR - the running count of `trx
capture` (lib/stream/uia_live.c) against streams whose truth is known, by
its summary line (events, lost, gaps, bytes skipped: every figure compared)
and by `trx info --json` of what it wrote:
  - whole packets missing between numbered packets: each gap's events lost
    exactly, one gap each;
  - a packet whose check differs in its high 16 bits only: refused, its
    bytes skipped and its events counted lost;
  - --max-events N where N is exactly the events up to a packet's end: the
    capture stops at that packet (the file is the stream up to it);
  - raw UIA records with words that are no record between them: each word
    skipped, no record after it; told apart from packets in auto mode though
    their sequence numbers make words that look like a packet header."""
import json, os, re, struct, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "uia"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_support import check, finish, uia_packets  # noqa: E402
from stream_support import events_in, packets  # noqa: E402

TRX, WRITER, WORK = sys.argv[1:4]
os.makedirs(WORK, exist_ok=True)
stream_path = os.path.join(WORK, "stream.bin")
truth = json.loads(subprocess.run([WRITER, stream_path, "20000", "65536", "512", "1048576", "8",
                                   "0"], check=True, capture_output=True, text=True).stdout)
data = open(stream_path, "rb").read()
PK = packets(data)
TIME_WORDS = (0, 2, 0, 2, 1, 2, 1, 2, 0, 1, 2, 0, 2)  # per HdrType


def records_in(off, n):
    """Records of the packet at `off` that a reader counts (its events and
    snapshots, not the stream-packet record)."""
    return events_in(data, off, n)


TOTAL = sum(records_in(o, n) for o, n in PK)
check(truth["sessions"][0]["dropped"] == 0 and len(PK) > 120,
      "the stream: %d packets, %s" % (len(PK), truth))
SUMMARY = re.compile(r"^trx capture: (\d+) bytes in [0-9.]+ s \([0-9.]+ MB/s\) to (.*?); (.*)\n$")


def capture(source, name, *args):
    """Runs `trx capture SOURCE -o WORK/NAME ARGS`: (exit, bytes said, what it
    holds as said, the file's bytes, trx info --json of the file)."""
    out = os.path.join(WORK, name)
    r = subprocess.run([TRX, "capture", source, "-o", out, *args], capture_output=True, text=True,
                       timeout=60)
    m = SUMMARY.match(r.stderr)
    check(m is not None and m.group(2) == out, "%s: one summary line: %r" % (name, r.stderr))
    i = subprocess.run([TRX, "info", "--json", out], capture_output=True, text=True)
    info = json.loads(i.stdout) if i.returncode == 0 else {"error": i.stderr.strip()}
    return (r.returncode, int(m.group(1)) if m else -1, m.group(3) if m else r.stderr,
            open(out, "rb").read(), info)


def holds(events, lost, gaps, skipped):
    """What the summary says a capture holds."""
    s = "%d events, %d lost in %d gap%s" % (events, lost, gaps, "" if gaps == 1 else "s")
    return s + (", %d bytes that are no packet skipped" % skipped if skipped else "")


def same_as_info(name, info, events, lost, gaps, skipped):
    """trx info --json of the capture says what the summary says."""
    got = (info.get("records"), info.get("lost_events"), len(info.get("gaps", [])),
           info.get("garbage_bytes"))
    check(got == (events, lost, gaps, skipped),
          "%s: trx info says (records, lost, gaps, garbage) %s, expected %s" %
          (name, got, (events, lost, gaps, skipped)))


def spliced(parts):
    path = os.path.join(WORK, "in.bin")
    blob = b"".join(parts)
    open(path, "wb").write(blob)
    return path, blob


# the whole stream: every record, nothing lost
rc, nbytes, said, got, info = capture(stream_path, "whole.bin")
check(rc == 0 and nbytes == len(data) and got == data and said == holds(TOTAL, 0, 0, 0),
      "whole stream: exit %d, %d bytes, %r; expected %r" % (rc, nbytes, said,
                                                            holds(TOTAL, 0, 0, 0)))
same_as_info("whole stream", info, TOTAL, 0, 0, 0)

# whole packets missing between numbered packets: packets 40-44 (a gap of
# five) and packet 100 (a gap of one)
missing = list(range(40, 45)) + [100]
lost = sum(records_in(*PK[k]) for k in missing)
path, blob = spliced(data[o:o + n] for k, (o, n) in enumerate(PK) if k not in missing)
rc, nbytes, said, got, info = capture(path, "gaps.bin")
want = holds(TOTAL - lost, lost, 2, 0)
check(rc == 0 and nbytes == len(blob) and got == blob and said == want,
      "packets missing: exit %d, %d bytes, %r; expected %r" % (rc, nbytes, said, want))
same_as_info("packets missing", info, TOTAL - lost, lost, 2, 0)

# a packet whose check word differs in its high 16 bits only (the check
# word is summed as 0: only the comparison can see it)
o, n = PK[60]
head = struct.unpack("<I", data[o + 16:o + 20])[0]
at = o + 16 + 4 * (1 + TIME_WORDS[head >> 27]) + 4  # the stream-packet record's first argument
word = struct.unpack("<I", data[at:at + 4])[0] ^ 0x5A5A0000
bad = data[:at] + struct.pack("<I", word) + data[at + 4:]
path = os.path.join(WORK, "badcheck_in.bin")
open(path, "wb").write(bad)
lost = records_in(o, n)
rc, nbytes, said, got, info = capture(path, "badcheck.bin")
want = holds(TOTAL - lost, lost, 1, n)
check(rc == 0 and got == bad and said == want,
      "check wrong in its high half: exit %d, %r; expected %r" % (rc, said, want))
same_as_info("check wrong in its high half", info, TOTAL - lost, lost, 1, n)

# --max-events exactly at a packet's end: the capture ends with that packet
for k in (0, 1, 30, 77):
    upto = sum(records_in(*PK[j]) for j in range(k + 1))
    end = PK[k][0] + PK[k][1]
    rc, nbytes, said, got, info = capture(stream_path, "max.bin", "--max-events", str(upto))
    check(rc == 0 and nbytes == end and got == data[:end] and said == holds(upto, 0, 0, 0),
          "--max-events %d (packet %d's end): exit %d, %d bytes of %d, %r" %
          (upto, k, rc, nbytes, end, said))
    same_as_info("--max-events %d" % upto, info, upto, 0, 0, 0)
    # one more: the next packet too
    rc, nbytes, said, got, info = capture(stream_path, "max.bin", "--max-events", str(upto + 1))
    nxt = PK[k + 1][0] + PK[k + 1][1]
    more = upto + records_in(*PK[k + 1])
    check(rc == 0 and nbytes == nxt and got == data[:nxt] and said == holds(more, 0, 0, 0),
          "--max-events %d: exit %d, %d bytes of %d, %r" % (upto + 1, rc, nbytes, nxt, said))

# raw UIA records (no packets; 90 records, 4 lost in one gap; --stream-format
# records: in auto mode a stream this short is never told apart and the
# summary decodes the file) with words that are no record: one after record
# 40, three after record 60
recs = b"".join(p[16:] for p in uia_packets(30, 3, (5, 1), 4))
size = 24  # each record (test_support.REC)
junk = struct.pack("<I", 0xFFFFFFFF)
raw = recs[:40 * size] + junk + recs[40 * size:60 * size] + junk * 3 + recs[60 * size:]
path = os.path.join(WORK, "raw_in.bin")
open(path, "wb").write(raw)
rc, nbytes, said, got, info = capture(path, "raw.bin", "--stream-format", "records")
want = holds(90, 4, 1, 16)
check(rc == 0 and got == raw and said == want,
      "raw records with 4 words of junk: exit %d, %r; expected %r" % (rc, said, want))
# raw records told apart in auto mode, though their bytes hold what looks like
# a packet header (sequence numbers 0xA0..0xAF before a record length of 24:
# 0xA0001808 read big-endian): 300 records, 4 lost in one gap, a word of junk
# after record 200 (past the 4096 bytes the count decides from)
recs = b"".join(p[16:] for p in uia_packets(100, 3, (5, 1), 4))
raw = recs[:200 * size] + junk + recs[200 * size:]
open(path, "wb").write(raw)
rc, nbytes, said, got, info = capture(path, "raw_auto.bin")
want = holds(300, 4, 1, 4)
check(rc == 0 and got == raw and said == want,
      "raw records, auto: exit %d, %r; expected %r" % (rc, said, want))
finish("capture_count")
