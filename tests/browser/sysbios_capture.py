#!/usr/bin/env python3
"""sysbios_capture.py SYSBIOS_SHAPED DIR - the captures of sysbios_shaped.c in
DIR, and DIR/fw.elf: an ELF32 ARM file naming the simulation's task, Swi and
Hwi functions, with the RAM its handles lie in (for the report's symbols)."""
import os, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "uia"))
from elf32_writer import elf32

sim, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
subprocess.run([sim, out], check=True)
functions = ([("task%d_fxn" % k, 0x1000 + 0x40 * k, 0x40, 0x12) for k in range(4)] +
             [("swi%d_fxn" % k, 0x2000 + 0x20 * k, 0x20, 0x12) for k in range(2)] +
             [("hwi%d_fxn" % k, 0x3000 + 0x20 * k, 0x20, 0x12) for k in range(3)])
open(os.path.join(out, "fw.elf"), "wb").write(elf32(functions, 0x10000, b"x\0", ram=(0x20000000, 0x10000)))
