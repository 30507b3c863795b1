# trx.py - GDB commands for the trx recorder: `trx dump` writes the trace
# buffer the recorder is filling (found through its control symbol,
# trx_recorder_state_, or at an address given) to a file as binary, Intel HEX
# or S-record; `trx info` hands the buffer's bytes to the host `trx info`, so
# GDB and the host say the same things in the same words.
#
# Load it with `source <prefix>/share/trx/gdb/trx.py` (or `-x` on the gdb
# command line). Works with any GDB that has Python: with OpenOCD, J-Link GDB
# server, pyOCD or QEMU's gdbstub (target extended-remote / remote), and on
# a host process. Reads target memory only; the target stays halted.
#
#   trx dump [--format bin|ihex|srec] [--address ADDR] FILE
#   trx info [--json] [--address ADDR]
#   set trx-program PATH       (the host trx; default: beside this script or on PATH)
#
# The header (48 bytes at the buffer start) says where the registry and the
# entries are; the dump is the whole buffer from the header to buffer_end.
import os
import shutil
import struct
import subprocess
import sys
import tempfile

import gdb

TXTB_ID = 0x54585442
HEADER_SIZE = 48
ENTRY_SIZE = 32
MAX_BUFFER = 256 * 1024 * 1024  # refuse to read more than this from a target
# where this script is (gdb -x / source define no __file__): the code's own file name
_SCRIPT_DIR = os.path.dirname(os.path.abspath(sys._getframe(0).f_code.co_filename))


class TrxError(Exception):
    """A problem to report to the user (one line)."""


def _parse_int(text):
    try:
        return int(gdb.parse_and_eval(text)) & 0xFFFFFFFFFFFFFFFF
    except gdb.error as e:
        raise TrxError("cannot evaluate address %r: %s" % (text, e))


def _header_address():
    """Address of the header of the buffer last enabled, from the recorder's state."""
    try:
        state = gdb.parse_and_eval("trx_recorder_state_")
    except gdb.error:
        raise TrxError("no symbol trx_recorder_state_ (is the recorder linked in, with symbols?); "
                       "give the buffer's address with --address")
    try:
        header = int(state["header"])
    except gdb.error:
        # No debug information: the field follows active_bits and two pointers.
        ptr = gdb.lookup_type("void").pointer().sizeof
        base = int(state.address)
        offset = ptr if ptr > 4 else 4  # active_bits, padded to the pointer size
        offset += 2 * ptr
        raw = bytes(gdb.selected_inferior().read_memory(base + offset, ptr))
        order = "<" if "little" in gdb.execute("show endian", to_string=True) else ">"
        header = struct.unpack(order + ("I" if ptr == 4 else "Q"), raw)[0]
    if header == 0:
        raise TrxError("tracing was never enabled (trx_recorder_state_.header is NULL)")
    return header


class Buffer:
    """The trace buffer as read from the target, validated."""

    def __init__(self, address):
        inferior = gdb.selected_inferior()
        try:
            head = bytes(inferior.read_memory(address, HEADER_SIZE))
        except gdb.MemoryError as e:
            raise TrxError("cannot read the header at 0x%x: %s" % (address, e))
        if head[:4] == b"BTXT":
            self.order = "<"
        elif head[:4] == b"TXTB":
            self.order = ">"
        else:
            raise TrxError("no TXTB buffer at 0x%x: id bytes %s" % (address, head[:4].hex(" ")))
        f = struct.unpack(self.order + "IIIIHHIIIIIII", head)
        (_, self.mask, self.base, self.registry_start, _, self.name_size, self.registry_end,
         self.buffer_start, self.buffer_end, self.current) = f[:10]
        self.address = address
        checks = [
            (self.registry_start == (self.base + HEADER_SIZE) & 0xFFFFFFFF,
             "registry start 0x%x is not base + 48" % self.registry_start),
            (self.registry_start <= self.registry_end <= self.buffer_start,
             "registry 0x%x-0x%x not before the entries at 0x%x" %
             (self.registry_start, self.registry_end, self.buffer_start)),
            (self.buffer_start < self.buffer_end and
             (self.buffer_end - self.buffer_start) % ENTRY_SIZE == 0,
             "entries 0x%x-0x%x are not whole 32-byte entries" %
             (self.buffer_start, self.buffer_end)),
            (self.buffer_start <= self.current < self.buffer_end and
             (self.current - self.buffer_start) % ENTRY_SIZE == 0,
             "oldest pointer 0x%x outside the entries" % self.current),
            (self.buffer_end - self.base <= MAX_BUFFER,
             "buffer of %d bytes is implausibly large" % (self.buffer_end - self.base)),
        ]
        for ok, why in checks:
            if not ok:
                raise TrxError("bad TXTB header at 0x%x: %s" % (address, why))
        self.size = self.buffer_end - self.base
        try:
            self.image = bytes(inferior.read_memory(address, self.size))
        except gdb.MemoryError as e:
            raise TrxError("cannot read %d bytes at 0x%x: %s" % (self.size, address, e))
        self.capacity = (self.buffer_end - self.buffer_start) // ENTRY_SIZE
        self.entries_offset = self.buffer_start - self.base
        self.oldest = (self.current - self.buffer_start) // ENTRY_SIZE


def _ihex(data, load):
    """Intel HEX: 04 records at each 64 KiB step, 16-byte 00 records, 01 end."""
    out, upper = [], None

    def record(rtype, addr, payload):
        body = bytes([len(payload), addr >> 8 & 0xFF, addr & 0xFF, rtype]) + payload
        out.append(":%s%02X\n" % (body.hex().upper(), -sum(body) & 0xFF))

    pos = 0
    while pos < len(data):
        addr = (load + pos) & 0xFFFFFFFF
        if addr >> 16 != upper:
            upper = addr >> 16
            record(4, 0, struct.pack(">H", upper))
        n = min(16, len(data) - pos, 0x10000 - (addr & 0xFFFF))
        record(0, addr & 0xFFFF, data[pos:pos + n])
        pos += n
    record(1, 0, b"")
    return "".join(out)


def _srec(data, load):
    """S-record: S0 header, S3 data records of 16 bytes, S7 end."""
    out = []

    def record(rtype, addr, alen, payload):
        body = bytes([alen + len(payload) + 1]) + addr.to_bytes(alen, "big") + payload
        out.append("S%d%s%02X\n" % (rtype, body.hex().upper(), ~sum(body) & 0xFF))

    record(0, 0, 2, b"trx")
    for pos in range(0, len(data), 16):
        record(3, (load + pos) & 0xFFFFFFFF, 4, data[pos:pos + 16])
    record(7, load & 0xFFFFFFFF, 4, b"")
    return "".join(out)


def _options(arg, allowed, flags=()):
    """Splits `--name value` options, `--flag` flags (value True) and positional words."""
    words = gdb.string_to_argv(arg)
    opts, rest = {}, []
    i = 0
    while i < len(words):
        w = words[i]
        if w.startswith("--"):
            name = w[2:]
            if name in flags:
                value = True
            elif "=" in name:
                name, value = name.split("=", 1)
            else:
                if i + 1 >= len(words):
                    raise TrxError("option --%s needs a value" % name)
                i += 1
                value = words[i]
            if name not in allowed and name not in flags:
                raise TrxError("unknown option --%s (expected %s)" %
                               (name, ", ".join("--" + a for a in tuple(allowed) + tuple(flags))))
            opts[name] = value
        else:
            rest.append(w)
        i += 1
    return opts, rest


def _buffer(opts):
    address = _parse_int(opts["address"]) if "address" in opts else _header_address()
    return Buffer(address)


class TrxCommand(gdb.Command):
    """trx recorder commands: trx dump, trx info."""

    def __init__(self):
        super().__init__("trx", gdb.COMMAND_DATA, gdb.COMPLETE_NONE, True)


class TrxDump(gdb.Command):
    """Writes the trx trace buffer to a file.
Usage: trx dump [--format bin|ihex|srec] [--address ADDR] FILE
The buffer is the one the recorder last enabled (trx_recorder_state_.header),
or the TXTB header at ADDR. Its header is validated and the whole buffer,
header to buffer_end, is written: raw bytes (bin, the default), or Intel HEX
or S-record text loading at the buffer's target address."""

    def __init__(self):
        super().__init__("trx dump", gdb.COMMAND_DATA, gdb.COMPLETE_FILENAME)

    def invoke(self, arg, from_tty):
        try:
            opts, rest = _options(arg, ("format", "address"))
            fmt = opts.get("format", "bin")
            if fmt not in ("bin", "ihex", "srec"):
                raise TrxError("unknown format %r (expected bin, ihex or srec)" % fmt)
            if len(rest) != 1:
                raise TrxError("usage: trx dump [--format bin|ihex|srec] [--address ADDR] FILE")
            buf = _buffer(opts)
            if fmt == "bin":
                with open(rest[0], "wb") as f:
                    f.write(buf.image)
            else:
                text = (_ihex if fmt == "ihex" else _srec)(buf.image, buf.base)
                with open(rest[0], "w") as f:
                    f.write(text)
            gdb.write("trx: wrote %d bytes of trace buffer at 0x%x (target 0x%08x) to %s as %s\n" %
                      (buf.size, buf.address, buf.base, rest[0], fmt))
        except (TrxError, OSError) as e:
            raise gdb.GdbError("trx dump: %s" % e)


def _host_trx():
    """The host `trx` program that reads dumps: `set trx-program PATH`, else
    $TRX_PROGRAM, else beside this script (installed: <prefix>/bin/trx; in the
    source tree: build/trx), else `trx` on PATH; None if there is none."""
    candidates = []
    if _trx_program.value:
        candidates.append(_trx_program.value)
    if os.environ.get("TRX_PROGRAM"):
        candidates.append(os.environ["TRX_PROGRAM"])
    here = _SCRIPT_DIR
    candidates += [os.path.join(here, "..", "..", "..", "bin", "trx"),
                   os.path.join(here, "..", "..", "build", "trx")]
    on_path = shutil.which("trx")
    if on_path:
        candidates.append(on_path)
    for c in candidates:
        if os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


class TrxProgram(gdb.Parameter):
    """The host trx program `trx info` runs on the buffer (default: found beside
this script or on PATH)."""
    set_doc = "Set the host trx program used by `trx info`."
    show_doc = "Show the host trx program used by `trx info`."

    def __init__(self):
        super().__init__("trx-program", gdb.COMMAND_DATA, gdb.PARAM_OPTIONAL_FILENAME)
        self.value = ""

    def get_show_string(self, svalue):
        return "host trx program: %s" % (svalue or _host_trx() or "(none found)")


_trx_program = TrxProgram()


class TrxInfo(gdb.Command):
    """Prints what the trx trace buffer holds, as the host's `trx info` does.
Usage: trx info [--json] [--address ADDR]
The buffer's bytes are read from the target and handed to the host trx
program (`set trx-program PATH`, $TRX_PROGRAM, beside this script or on PATH),
so GDB and the host give the same facts in the same words: header, registry,
capacity, entries used, wrap state, oldest entry, time span, time-source
warnings, cores and threads."""

    def __init__(self):
        super().__init__("trx info", gdb.COMMAND_DATA, gdb.COMPLETE_NONE)

    def invoke(self, arg, from_tty):
        try:
            opts, rest = _options(arg, ("address",), ("json",))
            if rest:
                raise TrxError("usage: trx info [--json] [--address ADDR]")
            buf = _buffer(opts)
            program = _host_trx()
            if program is None:
                raise TrxError("no host trx program found: `set trx-program PATH` (the trx "
                               "built with make build, or installed), or `trx dump FILE` and "
                               "run trx info FILE")
            fd, path = tempfile.mkstemp(prefix="trx-gdb-", suffix=".trx")
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(buf.image)
                args = [program, "info"] + (["--json"] if "json" in opts else []) + [path]
                p = subprocess.run(args, capture_output=True, text=True)
            finally:
                os.unlink(path)
            if p.returncode != 0:
                raise TrxError((p.stderr.strip() or "trx info failed").replace(path, "the buffer"))
            where = "target memory at 0x%x" % buf.address
            gdb.write(p.stdout.replace(path, where))
        except (TrxError, OSError) as e:
            raise gdb.GdbError("trx info: %s" % e)


TrxCommand()
TrxDump()
TrxInfo()
