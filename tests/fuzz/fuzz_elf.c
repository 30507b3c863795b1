/* fuzz_elf.c - libFuzzer target: the ELF symbol reader (--elf) on arbitrary
 * bytes; a failure must keep nothing and give a one-line error whose offset
 * lies inside the input; what it reads must answer look-ups in order. */
#include <string.h>

#include "fuzz_check.h"
#include "trx/elf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    trx_elf e = {0};
    trx_error err;
    memset(&err, 0, sizeof err);
    if (trx_elf_parse(&e, data, size, &err) != 0) {
        if (err.offset > size || err.message[0] == '\0' || strchr(err.message, '\n'))
            __builtin_trap();
        trx_elf_free(&e);
        return 0;
    }
    char buf[96];
    for (uint32_t i = 0; i < e.symbol_count; i++) {
        const trx_elf_symbol *s = &e.symbols[i];
        if (i > 0 && s->address < e.symbols[i - 1].address)
            __builtin_trap(); /* sorted */
        uint64_t off = 1;
        const trx_elf_symbol *f = trx_elf_lookup(&e, s->address, &off);
        if (!f || off != 0 || f->address != s->address)
            __builtin_trap(); /* every symbol found at its own address */
        trx_elf_describe(&e, s->address + 3, buf, sizeof buf);
        trx_elf_object_at(&e, s->address);
        trx_elf_in_ram(&e, s->address);
    }
    trx_elf_free(&e);
    return 0;
}
