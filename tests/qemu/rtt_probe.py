# rtt_probe.py - GDB plays a debug probe's RTT server (what OpenOCD's `rtt`
# does between its polls): at each stop in the firmware's rtt_poll_point it
# reads up-buffer 0 of the RTT control block, appends the new bytes to the
# file or FIFO named by $TRX_RTT_OUT and writes the read offset back, then
# lets the firmware run on. The control block is found and read exactly as
# OpenOCD reads it (src/target/rtt.c, src/rtt/rtt.h, 32-bit target): the
# id "SEGGER RTT" searched in RAM; then the number of up-buffers at 16,
# down-buffers at 20, up-buffer descriptors from 24, each 24 bytes: name
# pointer 0, buffer 4, size 8, write offset 12, read offset 16, flags 20;
# a buffer of size 0 is inactive; bytes [read, write) circularly; the
# reader writes read = (read + n) % size.
import os
import struct

import gdb

ID = b"SEGGER RTT"
CB_ID_LENGTH, CHANNEL_SIZE = 16, 24
OFF_BUFFER, OFF_SIZE, OFF_WRITE, OFF_READ = 4, 8, 12, 16


class RttProbe(gdb.Breakpoint):
    def __init__(self, ram_start, ram_size, out):
        super().__init__("rtt_poll_point", internal=True)
        self.ram = (ram_start, ram_size)
        self.out = open(out, "wb", buffering=0)
        self.block = None
        self.bytes = 0
        self.polls = 0

    def find_block(self, inf):
        at = inf.search_memory(self.ram[0], self.ram[1], ID)
        if at is None:
            raise gdb.GdbError("rtt_probe: no RTT control block in RAM")
        num_up = struct.unpack("<I", bytes(inf.read_memory(at + CB_ID_LENGTH, 4)))[0]
        if num_up < 1:
            raise gdb.GdbError("rtt_probe: the control block has no up-buffer")
        self.block = at

    def stop(self):
        inf = gdb.selected_inferior()
        if self.block is None:
            self.find_block(inf)
        ch = self.block + CB_ID_LENGTH + 8  # up-buffer 0
        desc = bytes(inf.read_memory(ch, CHANNEL_SIZE))
        buf, size, write, read = struct.unpack_from("<IIII", desc, OFF_BUFFER)
        self.polls += 1
        if size == 0 or write == read:
            return False
        if write > read:
            data = bytes(inf.read_memory(buf + read, write - read))
        else:
            data = bytes(inf.read_memory(buf + read, size - read))
            data += bytes(inf.read_memory(buf, write))
        self.out.write(data)
        self.bytes += len(data)
        inf.write_memory(ch + OFF_READ, struct.pack("<I", (read + len(data)) % size))
        return False  # run on: the firmware only paused


class RttProbeCommand(gdb.Command):
    """rtt-probe START SIZE OUT: read RTT up-buffer 0 at every rtt_poll_point."""

    def __init__(self):
        super().__init__("rtt-probe", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        start, size, out = gdb.string_to_argv(arg)
        global probe
        probe = RttProbe(int(start, 0), int(size, 0), out)


class RttProbeSummary(gdb.Command):
    """rtt-probe-summary: bytes read and polls."""

    def __init__(self):
        super().__init__("rtt-probe-summary", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        gdb.write("rtt-probe %d bytes %d polls block 0x%x\n" % (probe.bytes, probe.polls,
                                                                probe.block or 0))
        probe.out.close()


RttProbeCommand()
RttProbeSummary()
