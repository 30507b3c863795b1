/* info_elf.h - `trx info`'s verdict on --elf (is it the firmware that wrote
 * the trace?), as a text line and as a JSON value, for every format. */
#ifndef TRX_INFO_ELF_H
#define TRX_INFO_ELF_H

#include "output/out_buffer.h"
#include "trx/trx.h"

/* "FILE: the firmware that wrote this trace (why)" (t->elf must be set). */
void trx_info_elf_text(const trx_trace *t, trx_out *o);

/* {"file": ..., "matches": true|false|null, "reason": ...} (t->elf must be set). */
void trx_info_elf_json(const trx_trace *t, trx_out *o);

#endif
