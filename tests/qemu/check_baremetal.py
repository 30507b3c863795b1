#!/usr/bin/env python3
"""check_baremetal.py ARCH TRX GDB_LOG - checks one run of the bare-metal
example (run in its work directory by run_baremetal.sh):
  - the five copies of the buffer (GDB bin/ihex/srec dumps; the UART capture
    read as Intel HEX and as S-record among the console lines) give identical
    `trx events --format jsonl`;
  - every event kind forms a gap-free sequence that ends at the firmware's
    own counter read through GDB, the buffer is full and wrapped twice, ISR
    enter/exit events match the ISR events, the one probe event is there;
  - time stamps increase strictly (the composed SysTick counter across
    reloads of 3000 counts, mcycle on RISC-V), and on Cortex-M the span
    agrees with the independent dual timer within 1%; nested interrupts are
    recorded with nesting level 2 and counted as the firmware counted them.
"""
import json
import re
import subprocess
import sys

arch, trx, gdb_log = sys.argv[1:4]
log = open(gdb_log).read()
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL: " + what)


def run(*args):
    return subprocess.run([trx] + list(args), check=True, capture_output=True, text=True).stdout


m = re.search(r"^counters (\d+) (\d+) (\d+) (\d+) (\d+)$", log, re.M)
if not m:
    sys.exit("FAIL: no counters in the GDB log:\n" + log)
main_n, tick_n, timer_n, nested_n, wraps = map(int, m.groups())
if arch == "cortex-m":
    probe = re.search(r"^insert-instructions (\d+)$", log, re.M)
    how = "GDB stepi, entry to return"
else:
    probe = re.search(r"^mcycle-instructions (\d+)$", log, re.M)
    how = "mcycle around the call under -icount shift=0"
check(probe is not None, "no instruction count for the insert")

copies = {
    "gdb bin": ["gdb.bin"],
    "gdb ihex": ["gdb.hex"],
    "gdb srec": ["gdb.srec"],
    "uart ihex": ["--input-format", "ihex", "uart.txt"],
    "uart srec": ["--input-format", "srec", "uart.txt"],
}
listings = {name: run("events", "--format", "jsonl", *args) for name, args in copies.items()}
reference = listings["gdb bin"]
for name, text in listings.items():
    check(text == reference, "events of %s differ from the GDB binary dump" % name)

info = json.loads(run("info", "--json", "gdb.bin"))
uart_info = json.loads(run("info", "--json", "--input-format", "srec", "uart.txt"))
check(uart_info["skipped_lines"] >= 4,
      "UART capture: %d skipped lines, expected the console lines" % uart_info["skipped_lines"])
check(info["time_source"] == "ok", "trx info says the time source is %s" % info["time_source"])

events = [json.loads(line) for line in reference.splitlines()]
real = [e for e in events if not e["synthetic"]]
check(wraps >= 2, "the firmware saw %d wraps, expected at least 2" % wraps)
check(info["wrapped"] and len(real) == info["capacity"],
      "%d entries decoded, capacity %d" % (len(real), info["capacity"]))


def kind(event_id):
    return [e for e in real if e["id"] == event_id]


for event_id, name, counter in ((4096, "main loop", main_n), (4097, "tick ISR", tick_n),
                                (4098, "second ISR", timer_n)):
    seq = [e["info"][0] for e in kind(event_id)]
    check(len(seq) > 0, "no %s events" % name)
    if seq:
        check(seq == list(range(seq[0], seq[0] + len(seq))), "%s events have gaps" % name)
        check(seq[-1] == counter - 1,
              "newest %s event is number %d, the firmware counted %d" % (name, seq[-1], counter))
probes = kind(4099)
check(len(probes) == 1 and probes[0]["info"][0] == main_n, "probe event missing or wrong")

tick_isr, timer_isr = (15, 24) if arch == "cortex-m" else (7, 3)
for isr, user_id in ((tick_isr, 4097), (timer_isr, 4098)):
    enters = [e for e in real if e["id"] == 3 and e["info"][1] == isr]
    exits = [e for e in real if e["id"] == 4 and e["info"][1] == isr]
    n = len(kind(user_id))
    check(abs(len(enters) - n) <= 1 and abs(len(exits) - n) <= 1,
          "ISR %d: %d enters, %d exits for %d events" % (isr, len(enters), len(exits), n))

stamps = [e["timestamp"] for e in real]
steps = [(b - a) & 0xFFFFFFFF for a, b in zip(stamps, stamps[1:])]
check(all(0 < s < 0x80000000 for s in steps), "time stamps do not increase strictly")
ticks = [e["ticks"] for e in events]
check(all(b >= a for a, b in zip(ticks, ticks[1:])), "relative ticks go backwards")

mains = kind(4096)
trace_span = mains[-1]["ticks"] - mains[0]["ticks"]
ref_span = (mains[-1]["info"][1] - mains[0]["info"][1]) & 0xFFFFFFFF
ratio = trace_span / ref_span if ref_span else 0.0
if arch == "cortex-m":
    # SysTick and the dual timer both count the 25 MHz system clock.
    check(trace_span > 10 * 3000, "the trace spans only %d SysTick counts" % trace_span)
    check(abs(ratio - 1.0) <= 0.01,
          "trace span %d vs dual timer %d: off by %.3f%%" % (trace_span, ref_span,
                                                             100 * (ratio - 1)))
    nested_enters = [e for e in real if e["id"] == 3 and e["info"][1] == timer_isr
                     and e["info"][2] == 2]
    timers = kind(4098)
    flagged = sum(e["info"][1] for e in timers)
    check(len(nested_enters) > 0, "no nested interrupt recorded (nesting level 2)")
    check(len(nested_enters) == flagged, "%d nested ISR entries, %d nested timer events" %
          (len(nested_enters), flagged))
    check(timers[-1]["info"][2] == nested_n, "nested count %d, the firmware counted %d" %
          (timers[-1]["info"][2], nested_n))

# --elf: this firmware's ELF is recognised as the one that wrote the trace;
# every symbol trx shows is the one nm gives for that address (start, size);
# another firmware's ELF is refused with a warning in every command.
import shutil
nm = shutil.which("arm-none-eabi-nm" if arch == "cortex-m" else "riscv64-unknown-elf-nm") or \
    shutil.which("nm")
info = json.loads(run("info", "--json", "--elf", "fw.elf", "gdb.bin"))
check(info.get("elf", {}).get("matches") is True, "--elf fw.elf: %s" % info.get("elf"))
syms = []
for line in subprocess.run([nm, "-S", "--defined-only", "fw.elf"], check=True, capture_output=True,
                           text=True).stdout.splitlines():
    f = line.split()
    if len(f) == 4 and f[2].lower() in "tdbr" and not f[3].startswith("$"):
        syms.append((int(f[0], 16), int(f[1], 16), f[3]))
named = 0
by_name = {n: start for start, size, n in syms}
for line in run("events", "--format", "jsonl", "--elf", "fw.elf", "gdb.bin").splitlines():
    e = json.loads(line)
    if e["id"] == 4100:  # the firmware's own addresses: two functions, a buffer, a counter
        want = ["trace_done", "insert_probe", "trace_buffer", "main_events"]
        check(e["info_symbols"] == want and
              [v & ~1 if arch == "cortex-m" else v for v in e["info"]] == [by_name.get(n) for n in want],
              "the address event: %s %s" % (e["info"], e["info_symbols"]))
        named += 4
    for v, s in zip(e["info"], e.get("info_symbols", [None] * 4)):
        if s is None:
            continue
        name, _, off = s.partition("+0x")
        a = v & ~1 if arch == "cortex-m" else v
        ok = any(n == name and start <= a < start + max(size, 1) and a - start == int(off or "0", 16)
                 for start, size, n in syms)
        check(ok, "info word 0x%x shown as %s, nm says otherwise" % (v, s))
        named += ok
check(named > 0, "no info word named by the ELF")
if arch == "cortex-m":  # interrupts named by the ELF's vector table (exception numbers)
    isr = {i["id"]: i.get("name") for i in
           json.loads(run("stats", "--json", "--elf", "fw.elf", "gdb.bin"))["isr"]}
    check(isr == {15: "SysTick_Handler", 24: "TIMER0_Handler"}, "ISR names: %s" % isr)
other = "../baremetal-%s/fw.elf" % ("riscv32" if arch == "cortex-m" else "cortex-m")
import os
if os.path.exists(other):
    r = subprocess.run([trx, "stats", "--elf", other, "gdb.bin"], capture_output=True, text=True)
    check(r.returncode == 0 and "is not the firmware that wrote this trace" in r.stderr,
          "the other firmware's ELF: %s" % r.stderr)
    wrong = json.loads(run("info", "--json", "--elf", other, "gdb.bin"))
    check(wrong["elf"]["matches"] is False, "other ELF: %s" % wrong["elf"])

print("%s: %d events decoded identically from 5 copies; firmware counted main %d, tick %d, "
      "second %d (nested %d), %d wraps; trace span %d ticks, reference %d (ratio %.5f); "
      "one insert = %s instructions (%s)" %
      (arch, len(real), main_n, tick_n, timer_n, nested_n, wraps, trace_span, ref_span, ratio,
       probe.group(1) if probe else "?", how))
sys.exit(1 if failures else 0)
