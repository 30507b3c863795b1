#!/usr/bin/env python3
"""demo_uia_counts.py - the demo workload recorded both ways through the real
decoder: trx_demo (TXTB) and trx_demo_uia / trx_demo_uia32 (UIA, built with
TRX_RECORDER_FORMAT_UIA=1) must give the same event counts per event id in
`trx stats --json` (UIA: module 0x5458), no lost events, and the UIA
recording must be smaller. TXTB's popular services leave out RUNNING (id 6,
as TraceX does), so id 6 is compared with the two RUNNING records of enable.

usage: demo_uia_counts.py TRX TRX_DEMO TRX_DEMO_UIA [TRX_DEMO_UIA32 ...]
"""
import json
import os
import subprocess
import sys
import tempfile

MODULE_TX = 0x5458
RUNNING = 6


def stats(trx, path):
    out = subprocess.run([trx, "stats", "--json", path], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def main():
    trx, demo, uia_demos = sys.argv[1], sys.argv[2], sys.argv[3:]
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([demo, tmp], check=True, capture_output=True)
        txtb = stats(trx, os.path.join(tmp, "demo.trx"))
        expect = {s["id"]: s["count"] for s in txtb["popular_services"]}
        expect[RUNNING] = 2
        txtb_bytes = os.path.getsize(os.path.join(tmp, "demo.trx"))
        failures = []
        for uia_demo in uia_demos:
            sub = os.path.join(tmp, os.path.basename(uia_demo))
            os.mkdir(sub)
            subprocess.run([uia_demo, sub], check=True, capture_output=True)
            uia = stats(trx, os.path.join(sub, "demo.uia"))
            name = os.path.basename(uia_demo)
            if uia.get("format") != "uia":
                failures.append(f"{name}: format {uia.get('format')!r}, 'uia' expected")
            if uia.get("lost_events") != 0:
                failures.append(f"{name}: {uia.get('lost_events')} lost events, 0 expected")
            got = {}
            for s in uia["popular_services"]:
                if s.get("module") != MODULE_TX:
                    failures.append(f"{name}: record of module {s.get('module')}")
                got[s["id"]] = got.get(s["id"], 0) + s["count"]
            for i in sorted(set(expect) | set(got)):
                if expect.get(i, 0) != got.get(i, 0):
                    failures.append(f"{name}: event id {i}: {got.get(i, 0)} records, TXTB {expect.get(i, 0)}")
            truth = dict(line.strip().split("=", 1) for line in open(os.path.join(sub, "demo_uia.truth"))
                         if "=" in line and not line.startswith("#"))
            used = int(truth["bytes_used"])
            events = sum(got.values())
            print(f"{name}: {events} records, {used} bytes used ({used / events:.2f} per event), "
                  f"TXTB used {48 + 16 * 48 + 32 * events} of its {txtb_bytes}-byte buffer")
            if used >= 48 + 16 * 48 + 32 * events:
                failures.append(f"{name}: {used} bytes, not smaller than TXTB")
        if sum(expect.values()) < 1000:
            failures.append(f"TXTB recording has only {sum(expect.values())} events")
        for f in failures:
            print("FAIL: " + f, file=sys.stderr)
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
