#!/usr/bin/env python3
"""serve_security.py TRX TRACE - trx serve as an attacker meets it: raw HTTP
requests over sockets against a served trace.

- It listens on 127.0.0.1 only: this machine's other addresses are refused
  (unless --bind asks for them: then they answer, with the token still needed).
- Every answer without the token (none, wrong, another length) is 403; a Host
  other than the server's own (DNS rebinding: evil.example, another port, the
  server's own with more after it) 421;
  methods other than GET 405; paths outside its own 404, never a file.
- Malformed heads are refused (no Host, two, a folded line, a bare LF,
  Transfer-Encoding, a body, HTTP/2.0), an oversized head 431, a long target
  414, bad API parameters 400.
- Idle connections that never send a request do not keep others waiting.
- The page carries its CSP (connect-src 'self'), no-store, nosniff, no
  referrer, no framing; Ctrl-C ends it with status 0.
"""
import os, re, signal, socket, subprocess, sys, time

trx, trace = sys.argv[1], sys.argv[2]
failures = []
checks = 0


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        failures.append(what)


def start(*extra):
    p = subprocess.Popen([trx, "serve", trace, "--port", "0", *extra],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    url = p.stdout.readline().strip()
    m = re.match(r"^http://(\[[^\]]+\]|[^:/]+):(\d+)/\?token=([0-9a-f]{32})$", url)
    if not m:
        p.kill()
        sys.exit("FAIL: first line is not the URL: %r %s" % (url, p.stderr.read()))
    return p, int(m.group(2)), m.group(3)


def raw(port, data, host="127.0.0.1", timeout=10):
    s = socket.create_connection((host, port), timeout=timeout)
    s.sendall(data)
    out = b""
    while True:
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            break
        if not chunk:
            break
        out += chunk
    s.close()
    head, _, body = out.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1]) if lines and lines[0].startswith("HTTP/1.1 ") else 0
    headers = {l.split(":", 1)[0].lower(): l.split(":", 1)[1].strip() for l in lines[1:] if ":" in l}
    return status, headers, body


def get(port, target, host=None, extra="", method="GET", version="HTTP/1.1"):
    h = "Host: %s\r\n" % (host if host is not None else "127.0.0.1:%d" % port)
    return raw(port, ("%s %s %s\r\n%s%s\r\n" % (method, target, version, h, extra)).encode())


def other_address():
    """An address of this machine that is not loopback, or None."""
    try:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.connect(("10.255.255.255", 1))  # no packet is sent
        a = s.getsockname()[0]
        s.close()
        return None if a.startswith("127.") else a
    except OSError:
        return None


p, port, token = start()
T = "token=" + token

# the page, with the headers of a careful server
st, h, body = get(port, "/?" + T)
check(st == 200 and b"<canvas id=\"timeline\">" in body, "page: %d" % st)
csp = h.get("content-security-policy", "")
check("default-src 'none'" in csp and "connect-src 'self'" in csp and "frame-ancestors 'none'" in csp,
      "CSP header: " + csp)
check(b"connect-src 'self'" in body, "the page's own CSP does not allow its fetches")
for k, v in (("cache-control", "no-store"), ("x-content-type-options", "nosniff"),
             ("referrer-policy", "no-referrer"), ("x-frame-options", "DENY"), ("connection", "close")):
    check(h.get(k) == v, "header %s: %r" % (k, h.get(k)))
st, _, body = get(port, "/api/status?" + T)
check(st == 200 and b'"total":' in body, "status: %d %r" % (st, body[:80]))

# the token: none, wrong, shorter, longer, in another parameter
for target in ["/", "/api/status", "/api/stats", "/?token=", "/?token=" + "0" * 32,
               "/?token=" + token[:-1], "/?token=" + token + "0", "/?tok=" + token,
               "/api/view?from=0&to=9&cols=5&token=" + token.upper()]:
    st, _, body = get(port, target)
    check(st == 403 and b"trx serve" in body, "%s: %d, expected 403" % (target, st))

# the Host: DNS rebinding and other ports
for host in ["evil.example:%d" % port, "evil.example", "127.0.0.1", "127.0.0.1:%d" % (port + 1),
             "127.0.0.2:%d" % port, "localhost.evil.example:%d" % port, "0.0.0.0:%d" % port,
             # the allowed host and more after it: the whole header must match
             "127.0.0.1:%d0" % port, "localhost:%d.evil.example" % port, "[::1]:%d]" % port]:
    st, _, _ = get(port, "/?" + T, host=host)
    check(st == 421, "Host %s: %d, expected 421" % (host, st))
for host in ["localhost:%d" % port, "LOCALHOST:%d" % port, "[::1]:%d" % port]:
    st, _, _ = get(port, "/api/status?" + T, host=host)
    check(st == 200, "Host %s: %d, expected 200" % (host, st))

# methods
for method in ["POST", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE", "CONNECT"]:
    st, h, _ = get(port, "/?" + T, method=method)
    check(st == 405 and h.get("allow") == "GET", "%s: %d, expected 405 with Allow: GET" % (method, st))

# paths outside its own: nothing but 404, never a file
for path in ["/../../../../etc/passwd", "/etc/passwd", "/api/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd",
             "/..%2f..%2fetc%2fpasswd", "/" + os.path.basename(trace), os.path.abspath(trace), "/api", "/api/",
             "/api/status/", "/index.html", "//etc/passwd", "/favicon.ico"]:
    st, _, body = get(port, path + "?" + T)
    check(st == 404 and b"root:" not in body and len(body) < 100, "%s: %d" % (path, st))

# malformed heads
cases = [
    (b"GET /?%s HTTP/1.1\r\n\r\n" % T.encode(), 400, "no Host"),
    (b"GET /?%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nHost: 127.0.0.1:%d\r\n\r\n" % (T.encode(), port, port), 400, "two Hosts"),
    (b"GET /?%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n folded\r\n\r\n" % (T.encode(), port), 400, "folded line"),
    (b"GET /?%s HTTP/1.1\nHost: 127.0.0.1:%d\n\n" % (T.encode(), port), 400, "bare LF"),
    (b"GET /?%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nTransfer-Encoding: chunked\r\n\r\n" % (T.encode(), port), 400, "chunked"),
    (b"GET /?%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Length: 5\r\n\r\nhello" % (T.encode(), port), 400, "a body"),
    (b"GET /?%s HTTP/2.0\r\nHost: 127.0.0.1:%d\r\n\r\n" % (T.encode(), port), 505, "HTTP/2.0"),
    (b"GET /?%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX: " % (T.encode(), port) + b"a" * 9000 + b"\r\n\r\n", 431, "9 KB head"),
    (b"GET /?" + b"a" * 2000 + b"&%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % (T.encode(), port), 414, "long target"),
    (b"GET /?%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nBad Name: x\r\n\r\n" % (T.encode(), port), 400, "space in a name"),
    (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\0" * 64 + b"\r\n\r\n", 400, "TLS hello"),
]
for data, want, what in cases:
    st, _, _ = raw(port, data)
    check(st == want, "%s: %d, expected %d" % (what, st, want))
for q in ["from=9&to=0&cols=5", "from=x&to=9&cols=5", "from=0&to=9&cols=0", "from=-1&to=9&cols=5",
          "from=0&to=99999999999999999999999&cols=5"]:
    st, _, _ = get(port, "/api/view?%s&%s" % (q, T))
    check(st == 400, "view %s: %d, expected 400" % (q, st))
st, _, body = get(port, "/api/view?from=0&to=100&cols=100000000&" + T)
check(st == 200 and len(body) < 4 << 20, "view with 10^8 columns: %d, %d bytes" % (st, len(body)))
st, _, _ = get(port, "/api/events?first=99999999999&count=99999999999&" + T)
check(st == 200, "events far past the end: %d" % st)
st, _, _ = get(port, "/api/search?q=%%ZZ&from=0&dir=1&" + T)
check(st == 400, "search with a broken escape: %d" % st)

# idle connections that never finish a request do not keep others waiting
idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(8)]
for s in idle[:4]:
    s.sendall(b"GET /?" + T.encode())  # half a request line
t0 = time.time()
st, _, _ = get(port, "/api/status?" + T)
check(st == 200 and time.time() - t0 < 1.0, "a request beside 8 idle connections: %d after %.2f s" % (st, time.time() - t0))
for s in idle:
    s.close()

# only loopback listens
addr = other_address()
if addr:
    try:
        socket.create_connection((addr, port), timeout=2).close()
        check(False, "the server accepts connections on %s (not loopback)" % addr)
    except OSError:
        pass
p.send_signal(signal.SIGINT)
check(p.wait(timeout=10) == 0, "Ctrl-C: exit %s" % p.returncode)

# --bind asks for the network: then it answers there, the token still required
if addr:
    q, port2, token2 = start("--bind", "0.0.0.0")
    st, _, _ = raw(port2, b"GET /api/status?token=%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % (token2.encode(), port2), host=addr)
    check(st == 200, "--bind 0.0.0.0: %s answers %d" % (addr, st))
    st, _, _ = raw(port2, b"GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port2, host=addr)
    check(st == 403, "--bind 0.0.0.0 without the token: %d" % st)
    st, _, _ = raw(port2, b"GET /api/status?token=%s HTTP/1.1\r\nHost: %s:%d\r\n\r\n" % (token2.encode(), addr.encode(), port2), host=addr)
    check(st == 200, "--bind 0.0.0.0: Host %s answers %d" % (addr, st))
    st, _, _ = raw(port2, b"GET /api/status?token=%s HTTP/1.1\r\nHost: evil.example:%d\r\n\r\n" % (token2.encode(), port2), host=addr)
    check(st == 421, "--bind 0.0.0.0: Host evil.example answers %d" % st)
    q.send_signal(signal.SIGINT)
    q.wait(timeout=10)
else:
    print("serve_security: no non-loopback address here: the listen-address checks were skipped")

# a port in use is a clear error
blocker = socket.socket()
blocker.bind(("127.0.0.1", 0))
blocker.listen(1)
r = subprocess.run([trx, "serve", trace, "--port", str(blocker.getsockname()[1])], capture_output=True, text=True, timeout=30)
check(r.returncode != 0 and "cannot listen" in r.stderr, "port in use: %d %r" % (r.returncode, r.stderr))
blocker.close()

if failures:
    for f in failures:
        print("FAIL: " + f)
    sys.exit(1)
print("serve_security: OK (%d checks)" % checks)
