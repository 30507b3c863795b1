#!/usr/bin/env python3
"""capture_live.py TRX STREAM_WRITER WORKDIR - `trx capture` of the stream
recorder's packets (stream_writer.c) with the options that count the stream
while it arrives:
  - --max-events N: exit 0, the capture is the stream up to the end of the
    packet that brings the events to N;
  - --rotate SIZE: numbered files, each a trace of its own (no byte skipped,
    none cut), together the stream byte for byte and every event;
  - --reconnect: the server drops the connection in the middle of a packet
    and takes a new one: the capture holds both parts, the cut packet's
    events are counted lost exactly, its bytes reported skipped;
  - --reconnect started before the target listens: it says it waits, tries
    again, connects when the target listens and captures every event;
    --connect-wait 1 with nobody listening gives up after 1 s (exit 2, no
    OUT); without --reconnect one try (exit 2 at once, the reason);
  - serial:DEVICE@BAUD on a pseudo-terminal: every event;
  - a full disk: exit 3, the capture up to there read up to its last whole
    packet;
  - a status line on a terminal (elapsed, rates, events, lost, each core's
    CPU load as the target reports it with --uia-meta), none on a pipe;
  - raw UIA records (no packets) found and counted, --stream-format;
  - bad options: exit 1, the option named."""
import json, os, pty, re, socket, struct, subprocess, sys, threading, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "uia"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_support import check, finish  # noqa: E402
from stream_support import events_in, packets  # noqa: E402

TRX, WRITER, WORK = sys.argv[1:4]
os.makedirs(WORK, exist_ok=True)
stream_path = os.path.join(WORK, "live.bin")
subprocess.run([WRITER, stream_path, "20000", "65536", "512", "1048576", "8", "0"], check=True,
               capture_output=True)
data = open(stream_path, "rb").read()


PK = packets(data)


def info(path):
    r = subprocess.run([TRX, "info", "--json", path], capture_output=True, text=True)
    return json.loads(r.stdout) if r.returncode == 0 else {"error": r.stderr.strip()}


def serve(parts, pause=0.0, connections=1, port=0):
    """A TCP server on `port` (0: a free one): connection k gets parts[k] in
    pieces of 1000 bytes, `pause` s apart, then is closed."""
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", port))
    srv.listen(1)

    def run():
        for k in range(connections):
            conn, _ = srv.accept()
            try:
                for i in range(0, len(parts[k]), 1000):
                    conn.sendall(parts[k][i:i + 1000])
                    time.sleep(pause)
            except OSError:
                pass
            conn.close()
        srv.close()

    threading.Thread(target=run, daemon=True).start()
    return srv.getsockname()[1]


def on_terminal(args):
    """What `trx capture ARGS` writes to a terminal (its stderr on a pty)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([TRX, "capture"] + args, stderr=slave, stdout=subprocess.DEVNULL)
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    proc.wait(timeout=30)
    os.close(master)
    return seen.decode(errors="replace")


def capture(args, **kw):
    return subprocess.run([TRX, "capture"] + args, capture_output=True, text=True, timeout=60, **kw)


total = info(stream_path)["records"]

def info_prefix(nbytes):
    path = os.path.join(WORK, "prefix.bin")
    open(path, "wb").write(data[:nbytes])
    return info(path).get("records", 0)


# --max-events
for n in (1, 1000, 7777):
    port = serve([data])
    out = os.path.join(WORK, "max.bin")
    r = capture(["tcp://127.0.0.1:%d" % port, "-o", out, "--max-events", str(n)])
    got = open(out, "rb").read()
    i = info(out)
    ends = [o + l for o, l in PK]
    check(r.returncode == 0, "--max-events %d: exit 0 (%s)" % (n, r.stderr.strip()))
    check(data.startswith(got) and len(got) in ends, "--max-events %d: a prefix ending at a packet" % n)
    last = max(k for k, e in enumerate(ends) if e <= len(got)) if got else -1
    before = info_prefix(ends[last - 1]) if last > 0 else 0
    check(i.get("records", 0) >= n > before and i.get("garbage_bytes") == 0,
          "--max-events %d: %s records, %d without the last packet" % (n, i.get("records"), before))

# --rotate
port = serve([data])
base = os.path.join(WORK, "rot.bin")
for f in os.listdir(WORK):
    if f.startswith("rot.bin."):
        os.remove(os.path.join(WORK, f))
r = capture(["tcp://127.0.0.1:%d" % port, "-o", base, "--rotate", "20K"])
files = sorted(f for f in os.listdir(WORK) if f.startswith("rot.bin."))
joined = b"".join(open(os.path.join(WORK, f), "rb").read() for f in files)
check(r.returncode == 0 and len(files) >= len(data) // (20 * 1024 + 65536 + 1024),
      "--rotate: exit 0, %d files" % len(files))
check(files and files[0] == "rot.bin.000", "--rotate: numbered from .000")
check(joined == data, "--rotate: the files together are the stream")
recs = 0
for f in files:
    i = info(os.path.join(WORK, f))
    recs += i.get("records", 0)
    check(i.get("garbage_bytes") == 0 and i.get("skipped_front_bytes") == 0 and
          i.get("cut_tail_bytes") == 0, "--rotate: %s starts and ends at packets (%s)" % (f, i))
    check(os.path.getsize(os.path.join(WORK, f)) <= 20 * 1024 + 65536, "--rotate: %s size" % f)
check(recs == total, "--rotate: every event in one file (%d of %d)" % (recs, total))

# --rotate from a file (64 KiB reads: the last one ends where the stream does,
# at a packet boundary): no empty file after it
for f in os.listdir(WORK):
    if f.startswith("rotf.bin."):
        os.remove(os.path.join(WORK, f))
r = capture([stream_path, "-o", os.path.join(WORK, "rotf.bin"), "--rotate", "10K"])
files = sorted(f for f in os.listdir(WORK) if f.startswith("rotf.bin."))
sizes = [os.path.getsize(os.path.join(WORK, f)) for f in files]
check(r.returncode == 0 and files and min(sizes) > 0 and sum(sizes) == len(data),
      "--rotate from a file: no empty file, the stream whole (%s)" % sizes)

# --reconnect: the first connection ends inside packet 40, the second starts at packet 45
cut = PK[40][0] + 100
lost = sum(events_in(data, o, l) for o, l in PK[40:45])
port = serve([data[:cut], data[PK[45][0]:]], connections=2)
out = os.path.join(WORK, "reconnect.bin")
r = capture(["tcp://127.0.0.1:%d" % port, "-o", out, "--reconnect", "--duration", "3"])
i = info(out)
check(r.returncode == 0 and "connecting again" in r.stderr, "--reconnect: exit 0, said (%s)" % r.stderr)
check(i.get("records") == total - lost and i.get("lost_events") == lost,
      "--reconnect: records %s = %d, lost %s = %d" % (i.get("records"), total - lost,
                                                     i.get("lost_events"), lost))
check(i.get("garbage_bytes") == 100, "--reconnect: the cut packet's 100 bytes skipped")
r = capture(["-", "-o", out, "--reconnect"])
check(r.returncode == 1 and r.stderr.startswith("trx capture: --reconnect"),
      "--reconnect needs tcp: exit 1 (%s)" % r.stderr)


def closed_port():
    """A port nobody listens on (bound, then closed)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


# --reconnect before the target listens: the first connection is tried again
port = closed_port()
out = os.path.join(WORK, "late.bin")
t0 = time.time()
proc = subprocess.Popen([TRX, "capture", "tcp://127.0.0.1:%d" % port, "-o", out, "--reconnect",
                         "--duration", "2"], stderr=subprocess.PIPE, text=True)
time.sleep(1.6)
check(proc.poll() is None, "--reconnect: still waiting for the target after 1.6 s")
serve([data], port=port)
err = proc.communicate(timeout=60)[1]
i = info(out)
lines = err.splitlines()
check(proc.returncode == 0 and len(lines) >= 2 and
      lines[0] == "trx capture: tcp://127.0.0.1:%d: cannot connect: Connection refused; "
                  "trying again every 0.5 s for up to 30 s" % port and
      re.fullmatch(r"trx capture: tcp://127\.0\.0\.1:%d: connected after [0-9.]+ s" % port, lines[1]) and
      1.5 <= float(lines[1].split()[-2]) <= 3,
      "--reconnect, target late: exit 0, waiting and connection said (%r)" % err)
check(i.get("records") == total and i.get("lost_events") == 0 and i.get("garbage_bytes") == 0,
      "--reconnect, target late: every event (%s of %d)" % (i.get("records"), total))
# the give-up path: nobody listens for --connect-wait 1
if os.path.exists(out):
    os.remove(out)
t0 = time.time()
r = capture(["tcp://127.0.0.1:%d" % port, "-o", out, "--reconnect", "--connect-wait", "1"])
took = time.time() - t0
lines = r.stderr.splitlines()
check(r.returncode == 2 and len(lines) == 2 and 1.0 <= took < 3 and
      re.fullmatch(r"trx capture: tcp://127\.0\.0\.1:%d: cannot connect: Connection refused after "
                   r"[2-4] tries in 1\.[0-2] s; giving up \(--connect-wait\)" % port, lines[1]) and
      not os.path.exists(out),
      "--connect-wait 1, nobody listening: exit 2 after 1 s, said, no OUT (%.1f s, %r)" % (took, r.stderr))
# without --reconnect: one try, today's message
t0 = time.time()
r = capture(["tcp://127.0.0.1:%d" % port, "-o", out])
check(r.returncode == 2 and time.time() - t0 < 1 and
      r.stderr == "trx capture: tcp://127.0.0.1:%d: cannot connect: Connection refused\n" % port,
      "no --reconnect, nobody listening: exit 2 at once (%r)" % r.stderr)
r = capture(["-", "-o", out, "--connect-wait", "5"])
check(r.returncode == 1 and r.stderr.startswith("trx capture: --connect-wait"),
      "--connect-wait needs tcp: exit 1 (%s)" % r.stderr)
r = capture(["tcp://nocolon", "-o", out, "--reconnect"])
check(r.returncode == 2 and r.stderr == "trx capture: tcp://nocolon: expected tcp://HOST:PORT\n",
      "--reconnect, malformed source: exit 2 at once, said once (%r)" % r.stderr)

# serial: a pseudo-terminal
master, slave = os.openpty()
name = os.ttyname(slave)
out = os.path.join(WORK, "serial.bin")
proc = subprocess.Popen([TRX, "capture", "serial:%s@115200" % name, "-o", out, "--duration", "3"],
                        stderr=subprocess.PIPE, text=True)
time.sleep(0.5)
for i in range(0, len(data), 4096):
    os.write(master, data[i:i + 4096])
proc.wait(timeout=30)
os.close(master)
os.close(slave)
i = info(out)
check(proc.returncode == 0 and i.get("records") == total,
      "serial: exit 0, every event (%s of %d; %s)" % (i.get("records"), total, proc.stderr.read()))
for bad in ("serial:%s@12345" % name, "serial:/nonexistent/tty@115200"):
    r = capture([bad, "-o", out])
    check(r.returncode == 2 and r.stderr.count("\n") == 1, "%s: exit 2, one line (%s)" % (bad, r.stderr))

# the status line: on a terminal, not on a pipe
port = serve([data[:200000]], pause=0.01)
text = on_terminal(["tcp://127.0.0.1:%d" % port, "-o", os.path.join(WORK, "tty.bin")])
check("\r" in text and "events/s" in text and " lost" in text and "MB/s" in text,
      "status line on a terminal: %r" % text[:200])
# the status line shows each core's CPU load as the target reports it
# (SYS/BIOS's Load.LS_cpuLoad, named by --uia-meta): two senders, 100
# packets each, core 0 reporting 40..59 %, core 1 60..79 %
meta = os.path.join(WORK, "load.uia.xml")
open(meta, "w").write('<uia><evtMap id="5" moduleId="16" '
                      'longName="ti.sysbios.utils.Load.LS_cpuLoad"/></uia>')
load_stream, seq = b"", [0, 0]
for p in range(200):
    core = p % 2
    body = b""
    for r in range(8):
        evw = (5 << 16 | 16) if r == 7 else (9 << 16 | 16)
        body += struct.pack("<IIIIII", 1 << 27 | 24 << 16 | seq[core] & 0xFFFF, 1000 + p * 10 + r, 0,
                            evw, 40 + 20 * core + (p // 2) % 20, r)
        seq[core] += 1
    load_stream += struct.pack(">IIII", 10 << 28 | (16 + len(body)), (p // 2) << 16,
                               1 << 16 | 0x8003, 0xFFFF << 16 | core) + body
port = serve([load_stream], pause=0.01)
loads = re.findall(r"core (\d+) load (\d+)%",
                   on_terminal(["tcp://127.0.0.1:%d" % port, "-o", os.path.join(WORK, "load.bin"),
                                "--uia-meta", meta]))
check(loads and all((c == "0" and 40 <= int(v) < 60) or (c == "1" and 60 <= int(v) < 80)
                    for c, v in loads) and {c for c, _ in loads} == {"0", "1"},
      "status line: each core's reported load (%s)" % loads[-4:])

port = serve([data[:50000]], pause=0.01)
r = capture(["tcp://127.0.0.1:%d" % port, "-o", os.path.join(WORK, "pipe.bin")])
check("events/s" not in r.stderr and r.stderr.count("\n") == 1, "a pipe gets the summary only")

# a full disk: exit 3, the capture up to there intact (a file size limit
# stands in for the disk; /dev/full refuses the first byte)
out = os.path.join(WORK, "full.bin")
r = subprocess.run(["bash", "-c", 'trap "" XFSZ; ulimit -f 64; exec "$0" capture "$1" -o "$2"', TRX,
                    stream_path, out], capture_output=True, text=True, timeout=60)
i = info(out)
whole = sum(events_in(data, o, l) for o, l in PK if o + l <= 65536)
check(r.returncode == 3 and "intact" in r.stderr, "disk full: exit 3 (%s)" % r.stderr.strip())
check(os.path.getsize(out) == 65536 and i.get("records") == whole and i.get("garbage_bytes") == 0,
      "disk full: the 64 KiB written read up to the last whole packet (%s of %d)" %
      (i.get("records"), whole))
r = capture([stream_path, "-o", "/dev/full"])
check(r.returncode == 3 and r.stderr.startswith("trx capture: /dev/full:"),
      "/dev/full: exit 3 (%s)" % r.stderr.strip())

# raw UIA records (no packets): told apart from packets, counted as they arrive
from test_support import uia_packets  # noqa: E402
raw = b"".join(p[16:] for p in uia_packets(30, 3, (5, 1), 4))
raw_path = os.path.join(WORK, "raw.bin")
open(raw_path, "wb").write(raw)
for fmt in ([], ["--stream-format", "records"]):
    r = capture([raw_path, "-o", os.path.join(WORK, "raw_out.bin")] + fmt)
    check(r.returncode == 0 and "; 90 events, 4 lost in 1 gap" in r.stderr,
          "raw records %s: the 90 records counted (%s)" % (fmt, r.stderr.strip()))
r = capture([stream_path, "-o", os.path.join(WORK, "pk_out.bin"), "--stream-format", "packets"])
check(r.returncode == 0 and "; %d events, 0 lost" % total in r.stderr,
      "--stream-format packets: %s" % r.stderr.strip())

for args in (["--max-events", "0"], ["--stream-format", "x"], ["--max-events", "x"], ["--rotate", "1X"], ["--rotate", "0"]):
    r = capture(["-", "-o", out] + args)
    check(r.returncode == 1 and r.stderr.startswith("trx capture: " + args[0]),
          "%s: exit 1, the option named (%s)" % (args, r.stderr))
finish("capture_live")
