"""served.py - what the trx serve tests in Python share: a served trace
(trx serve on a free port, its URL read from stdout's first line), its API
asked with the token, and waiting until the overview and the statistics are
done."""
import json, re, subprocess, time, urllib.request


class Served:
    def __init__(self, trx, *args):
        self.proc = subprocess.Popen([trx, "serve", *args, "--port", "0"], stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True)
        url = self.proc.stdout.readline().strip()
        m = re.match(r"^(http://127\.0\.0\.1:\d+/)\?token=([0-9a-f]{32})$", url)
        if not m:
            self.proc.kill()
            raise SystemExit("FAIL: trx serve's first line is not its URL: %r" % url)
        self.base, self.token = m.group(1), m.group(2)

    def get(self, path):
        sep = "&" if "?" in path else "?"
        with urllib.request.urlopen("%s%s%stoken=%s" % (self.base, path, sep, self.token), timeout=60) as r:
            return json.loads(r.read())

    def wait_done(self, seconds=60):
        """/api/status once the overview, the statistics and the Responses data are done."""
        for _ in range(int(seconds * 10)):
            st = self.get("api/status")
            if st.get("done") and st.get("stats") and st.get("latency", True):
                return st
            time.sleep(0.1)
        raise SystemExit("FAIL: trx serve not done after %d s" % seconds)

    def stop(self):
        self.proc.terminate()
        self.proc.wait()
