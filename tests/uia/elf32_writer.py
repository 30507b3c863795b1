"""elf32_writer.py - a small ELF32 ARM file for tests that need --elf: a
read-only data section at `rodata_addr` holding `rodata`, optionally a RAM
section (writable, no contents) `ram` = (address, size), and a symbol table
of (name, value, size, st_info) entries (0x12: global function, 0x11: global
object)."""
import struct


def elf32(symbols, rodata_addr, rodata, ram=None):
    strtab = b"\0" + b"".join(n.encode() + b"\0" for n, _, _, _ in symbols)
    syms, at = b"\0" * 16, 1
    for n, value, size, info in symbols:
        syms += struct.pack("<IIIBBH", at, value, size, info, 0, 1)
        at += len(n) + 1
    body = {0x100: rodata, 0x200: syms, 0x400: strtab}
    shdr = lambda typ, flags, addr, off, size, link=0, ent=0: struct.pack(
        "<IIIIIIIIII", 0, typ, flags, addr, off, size, link, 0, 4, ent)
    shdrs = (b"\0" * 40 + shdr(1, 2, rodata_addr, 0x100, len(rodata)) +
             shdr(2, 0, 0, 0x200, len(syms), 3, 16) + shdr(3, 0, 0, 0x400, len(strtab)))
    if ram:  # SHT_NOBITS, SHF_WRITE | SHF_ALLOC
        shdrs += shdr(8, 3, ram[0], 0x600, ram[1])
    head = (b"\x7fELF\x01\x01\x01" + b"\0" * 9 +
            struct.pack("<HHIIIIIHHHHHH", 2, 40, 1, 0, 0, 0x600, 0, 52, 0, 0, 40,
                        len(shdrs) // 40, 0))
    out = bytearray(0x600 + len(shdrs))
    out[:len(head)] = head
    for off, b in body.items():
        out[off:off + len(b)] = b
    out[0x600:] = shdrs
    return bytes(out)
