#!/usr/bin/env python3
"""live_meta.py SERVE_STDOUT OUT_JSON [SECONDS=60] - while `trx capture
--serve` records, asks its page's /api/meta (the generation it serves of
the growing file) until the lanes name tasks, and writes that answer to
OUT_JSON (an empty object when the capture ended first): what
check_stream_commands.py --live-meta checks."""
import json, re, sys, time, urllib.request

out_path, seconds = sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else 60
found, url, end = {}, None, time.time() + seconds
while time.time() < end and not found:
    if url is None:
        try:
            m = re.match(r"^(http://127\.0\.0\.1:\d+/)\?token=([0-9a-f]{32})$",
                         open(sys.argv[1]).readline().strip())
            url = m and (m.group(1) + "api/meta?token=" + m.group(2))
        except OSError:
            pass
    if url:
        try:
            with urllib.request.urlopen(url, timeout=10) as r:
                meta = json.loads(r.read())
            if any(l.get("kind") == "thread" for l in meta.get("lanes", [])):
                found = meta
        except (OSError, ValueError):
            pass
    time.sleep(0.2)
json.dump(found, open(out_path, "w"))
