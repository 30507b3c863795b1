"""test_support.py - what the UIA test scripts share: check() notes a failure
with its description, finish() prints the count and exits 1 if any failed;
uia_packets() builds a UIAPacket file with a known gap."""
import struct, sys

REC = 24  # HdrType 1 (EventWithTimestamp), 64-bit time stamp, event word, 2 arguments


def uia_packets(count, per_packet=3, gap_at=(3, 1), gap=5, start_seq=0, first_packet=0):
    """`count` packets of `per_packet` records (args: packet, record) of one
    logger; `gap` records lost before record gap_at = (packet, record).
    Packets are numbered from first_packet. Returns the list (bytes)."""
    packets, seq, t = [], start_seq, 1000 + 10 * start_seq
    for p in range(count):
        body, first = b"", seq
        for r in range(per_packet):
            if (p, r) == gap_at:
                seq += gap
            body += struct.pack("<IIIIII", 1 << 27 | REC << 16 | seq & 0xFFFF, t & 0xFFFFFFFF,
                                t >> 32, 7 << 16 | 0x8001, p, r)
            seq += 1
            t += 10
        packets.append(struct.pack(">IIII", 10 << 28 | (16 + len(body)),
                                   ((first_packet + p) & 0xFFFF) << 16 | (first & 0x3FFF) << 2,
                                   0x0001 << 16 | 0x8003, 0xFFFF << 16 | 2) + body)
    return packets

failures = 0


def check(cond, what):
    global failures
    if not cond:
        print("FAIL " + what)
        failures += 1


def finish(name):
    print("%s: %d failure(s)" % (name, failures))
    sys.exit(1 if failures else 0)
