/* format_names.c - the names of the input formats (as the CLI's
 * --input-format spells them) and parsing them back. */
#include <string.h>

#include "trx/trx.h"

/* Accepted spellings; the first one per format is its canonical name. */
static const struct {
    const char *name;
    trx_input_format format;
} format_names[] = {
    {"auto", TRX_FORMAT_AUTO},   {"bin", TRX_FORMAT_BIN},   {"binary", TRX_FORMAT_BIN},
    {"raw", TRX_FORMAT_BIN},     {"ihex", TRX_FORMAT_IHEX}, {"hex", TRX_FORMAT_IHEX},
    {"srec", TRX_FORMAT_SREC},   {"s19", TRX_FORMAT_SREC},  {"mot", TRX_FORMAT_SREC},
    {"ascii", TRX_FORMAT_ASCII},
};

const char *trx_input_format_name(trx_input_format format)
{
    for (size_t i = 0; i < sizeof format_names / sizeof format_names[0]; i++)
        if (format_names[i].format == format)
            return format_names[i].name;
    return "unknown";
}

int trx_input_format_parse(const char *name, trx_input_format *out)
{
    if (!name)
        return -1;
    for (size_t i = 0; i < sizeof format_names / sizeof format_names[0]; i++)
        if (strcmp(format_names[i].name, name) == 0) {
            if (out)
                *out = format_names[i].format;
            return 0;
        }
    return -1;
}
