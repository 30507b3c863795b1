/* json_string.h - writing text as a JSON string literal (shared by the JSON outputs). */
#ifndef TRX_JSON_STRING_H
#define TRX_JSON_STRING_H

#include "output/out_buffer.h"

/* Writes `s` quoted and escaped; valid UTF-8 passes through, other bytes
 * become \u00XX (read as Latin-1), so the output is always valid JSON. */
void trx_out_json_string(trx_out *o, const char *s);

/* The most bytes one character of a string becomes escaped ("\u00XX"). */
#define TRX_JSON_ESCAPE_MAX 6

/* Escapes the string at *s (no quotes) into `d`, as trx_out_json_string
 * does, while at least TRX_JSON_ESCAPE_MAX of `room` bytes are left and the
 * string has not ended; advances *s past what it wrote, returns the bytes
 * written. Room for TRX_JSON_ESCAPE_MAX * strlen(*s) bytes: all of it. */
size_t trx_json_escape_some(char *d, size_t room, const char **s);

/* Length of the valid multi-byte UTF-8 sequence at `p` (2..4), or 0 when
 * `p` does not start one (ASCII included). */
int trx_utf8_sequence(const unsigned char *p);

#endif
