/* stats_json_text.c - the segment tests' helpers (stats_json_text.h). */
#include "stats_json_text.h"

#include <stdio.h>
#include <stdlib.h>

#include "output/stats_json.h"

char *stats_json_text(const trx_trace *t, const trx_stats *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    trx_out o;
    trx_out_init(&o, f, false);
    trx_stats_write_json(t, s, NULL, &o);
    trx_out_flush(&o);
    fclose(f);
    return buf;
}
