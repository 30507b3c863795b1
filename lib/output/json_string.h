/* json_string.h - writing text as a JSON string literal (shared by the JSON outputs). */
#ifndef TRX_JSON_STRING_H
#define TRX_JSON_STRING_H

#include "output/out_buffer.h"

/* Writes `s` quoted and escaped; valid UTF-8 passes through, other bytes
 * become \u00XX (read as Latin-1), so the output is always valid JSON. */
void trx_out_json_string(trx_out *o, const char *s);

/* Length of the valid multi-byte UTF-8 sequence at `p` (2..4), or 0 when
 * `p` does not start one (ASCII included). */
int trx_utf8_sequence(const unsigned char *p);

#endif
