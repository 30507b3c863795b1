/* overview_check.h - for the tests of trx serve's overview: CHECK
 * (check_count.h) and a summary as text. */
#ifndef TRX_TESTS_OVERVIEW_CHECK_H
#define TRX_TESTS_OVERVIEW_CHECK_H

#include <stdbool.h>
#include <stdio.h>

#include "overview/trace_overview.h"
#include "../check_count.h"

/* The summary JSON of [from, to] (ticks, or by_index event numbers) in `cols` columns. */
static inline char *summary_text(const trx_overview *o, bool by_index, uint64_t from, uint64_t to,
                                 uint32_t cols)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f)
        return NULL;
    trx_out w;
    trx_out_init(&w, f, false);
    if (by_index)
        trx_overview_summary_index_json(o, from, to, cols, &w);
    else
        trx_overview_summary_json(o, from, to, cols, &w);
    trx_out_flush(&w);
    fclose(f);
    return text;
}

#endif
