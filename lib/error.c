/* error.c - filling a trx_error: one message and the input offset it concerns.
 * The message is one line whatever the input it quotes: control characters
 * (a newline in a quoted attribute value, say) become '?'. */
#include <stdarg.h>
#include <stdio.h>

#include "trx/trx.h"

int trx_error_set(trx_error *err, uint64_t offset, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->offset = offset;
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
        for (char *c = err->message; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7F)
                *c = '?';
    }
    return -1;
}
