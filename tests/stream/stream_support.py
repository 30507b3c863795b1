"""stream_support.py - what the stream test scripts share: the packets of a
stream the stream recorder wrote, and the events in one of them."""
import struct


def packets(data):
    """(offset, length) of each UIAPacket of `data`, back to back."""
    out, off = [], 0
    while off + 16 <= len(data):
        n = struct.unpack(">I", data[off:off + 4])[0] & 0x07FFFFFF
        if n < 16:
            break
        out.append((off, n))
        off += n
    return out


def events_in(data, off, n):
    """Events in the trx stream packet at `off` (`n` bytes, little-endian
    records): its records after the stream-packet record."""
    p, k = off + 16, 0
    while p < off + n:
        k += 1
        p += (struct.unpack("<I", data[p:p + 4])[0] >> 16) & 0x7FF
    return k - 1
