/* info_elf.c - `trx info`'s verdict on --elf (see info_elf.h). */
#include "output/info_elf.h"

#include "output/json_string.h"
#include "trx/elf.h"

void trx_info_elf_text(const trx_trace *t, trx_out *o)
{
    trx_elf_match m;
    trx_elf_check(t, &m);
    trx_out_str(o, t->elf->path ? t->elf->path : "-");
    trx_out_str(o, m.verdict == TRX_ELF_MATCH      ? ": the firmware that wrote this trace ("
                   : m.verdict == TRX_ELF_MISMATCH ? ": NOT the firmware that wrote this trace ("
                                                   : ": not checked (");
    trx_out_str(o, m.reason);
    trx_out_char(o, ')');
}

void trx_info_elf_json(const trx_trace *t, trx_out *o)
{
    trx_elf_match m;
    trx_elf_check(t, &m);
    trx_out_str(o, "{\"file\":");
    trx_out_json_string(o, t->elf->path ? t->elf->path : "");
    trx_out_str(o, m.verdict == TRX_ELF_MATCH      ? ",\"matches\":true,\"reason\":"
                   : m.verdict == TRX_ELF_MISMATCH ? ",\"matches\":false,\"reason\":"
                                                   : ",\"matches\":null,\"reason\":");
    trx_out_json_string(o, m.reason);
    trx_out_char(o, '}');
}
