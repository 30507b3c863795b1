#!/usr/bin/env python3
"""capture_stream.py TRX TMPDIR - `trx capture` of TI UIAPackets streamed
over TCP by a server here (records dropped in gaps), from standard input and
from a file:
  - the whole stream: `info --json` of the capture gives records = records
    sent and lost_events = records dropped, and its bytes are the stream's;
  - the stream joined in the middle of a packet: no error, no invented
    record (exactly the whole packets after the join);
  - an endless stream stopped by SIGINT, by --duration, and killed with
    SIGKILL: exit 0 (SIGINT, --duration) and a capture every command reads
    (the killed one up to its last whole record);
  - a refused connection and a missing file: exit 2 with one line."""
import json, os, signal, socket, subprocess, sys, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_support import check, finish, uia_packets

trx, tmp = sys.argv[1], sys.argv[2]
os.makedirs(tmp, exist_ok=True)
PER = 3


def serve(chunks, endless=False, delay=0.0):
    """A one-connection TCP server on a free port sending `chunks` (then,
    endless, more packets every `delay` s until the client goes). Returns
    the port and the thread."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    port = srv.getsockname()[1]

    def run():
        conn, _ = srv.accept()
        try:
            for c in chunks:
                conn.sendall(c)
            seq, n = 0, 0
            while endless:
                conn.sendall(b"".join(uia_packets(4, PER, None, 0, seq, n)))
                seq += 4 * PER
                n += 4
                time.sleep(delay)
        except OSError:
            pass
        conn.close()
        srv.close()

    th = threading.Thread(target=run, daemon=True)
    th.start()
    return port, th


def info(path):
    r = subprocess.run([trx, "info", "--json", path], capture_output=True, text=True)
    return json.loads(r.stdout) if r.returncode == 0 else {"error": r.stderr.strip()}


def events(path):
    r = subprocess.run([trx, "events", "--format", "jsonl", path], capture_output=True, text=True)
    return [tuple(json.loads(l)["args"][:2]) for l in r.stdout.splitlines()] if r.returncode == 0 else None


packets = uia_packets(40, per_packet=PER, gap_at=(17, 1), gap=9)
data = b"".join(packets)

# the whole stream, sent in odd-sized pieces
port, th = serve([data[i:i + 777] for i in range(0, len(data), 777)])
out = os.path.join(tmp, "whole.uia")
r = subprocess.run([trx, "capture", "tcp://127.0.0.1:%d" % port, "-o", out], capture_output=True, text=True,
                   timeout=30)
check(r.returncode == 0, "whole: exit %d: %s" % (r.returncode, r.stderr))
check(open(out, "rb").read() == data, "whole: the capture is not the stream's bytes")
i = info(out)
check(i.get("records") == 40 * PER and i.get("lost_events") == 9,
      "whole: records %s lost %s, sent %d dropped 9" % (i.get("records"), i.get("lost_events"), 40 * PER))
check("120 events, 9 lost in 1 gap\n" in r.stderr, "whole: summary " + r.stderr)

# joined in the middle of packet 5
join = sum(len(p) for p in packets[:5]) + 41
port, th = serve([data[join:]])
out = os.path.join(tmp, "joined.uia")
r = subprocess.run([trx, "capture", "tcp://127.0.0.1:%d" % port, "-o", out], capture_output=True, text=True,
                   timeout=30)
i = info(out)
want = [(p, k) for p in range(6, 40) for k in range(PER)]
check(r.returncode == 0 and "error" not in i, "joined: %s %s" % (r.stderr, i))
check(events(out) == want and i.get("skipped_front_bytes") == len(packets[5]) - 41,
      "joined: events %s..., skipped %s" % ((events(out) or [])[:3], i.get("skipped_front_bytes")))

# an endless stream: SIGINT, --duration, SIGKILL
for how in ("sigint", "duration", "sigkill"):
    port, th = serve([], endless=True, delay=0.01)
    out = os.path.join(tmp, how + ".uia")
    args = [trx, "capture", "tcp://127.0.0.1:%d" % port, "-o", out]
    if how == "duration":
        args += ["--duration", "1"]
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if how != "duration":
        time.sleep(1.0)
        p.send_signal(signal.SIGINT if how == "sigint" else signal.SIGKILL)
    try:
        p.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        check(False, how + ": did not stop")
    want_rc = -signal.SIGKILL if how == "sigkill" else 0
    check(p.returncode == want_rc, "%s: exit %s" % (how, p.returncode))
    i = info(out)
    ev = events(out)
    check("error" not in i and i.get("records", 0) > 0 and ev is not None and len(ev) == i["records"],
          "%s: the capture reads as %s" % (how, i))
    check(i.get("lost_events") == 0, "%s: lost %s in a stream without gaps" % (how, i.get("lost_events")))

# standard input and a file give the same bytes
src = os.path.join(tmp, "stream.bin")
open(src, "wb").write(data)
for source in ("-", src):
    out = os.path.join(tmp, "again.uia")
    r = subprocess.run([trx, "capture", source, "-o", out, "--quiet"], stdin=open(src, "rb"),
                       capture_output=True, text=True, timeout=30)
    check(r.returncode == 0 and r.stderr == "" and open(out, "rb").read() == data,
          "capture %s: exit %d %r" % (source, r.returncode, r.stderr))

# sources that cannot be read
for source in ("tcp://127.0.0.1:1", os.path.join(tmp, "missing.uia")):
    r = subprocess.run([trx, "capture", source, "-o", os.path.join(tmp, "x.uia")], capture_output=True,
                       text=True, timeout=30)
    check(r.returncode == 2 and r.stderr.count("\n") == 1 and source in r.stderr,
          "%s: exit %d %r" % (source, r.returncode, r.stderr))
finish("capture_stream")
