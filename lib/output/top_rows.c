/* top_rows.c - the rows a long report table keeps (see top_rows.h): a
 * min-heap of the `limit` best rows seen, then those rows in table order. */
#include "output/top_rows.h"

#include <stdlib.h>

typedef struct ranked {
    uint64_t key;
    uint32_t row;
} ranked;

/* a ranks below b: a smaller key, or the same key and a later row */
static bool below(ranked a, ranked b)
{
    return a.key < b.key || (a.key == b.key && a.row > b.row);
}

static void sift_down(ranked *h, uint32_t n, uint32_t i)
{
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && below(h[l], h[m]))
            m = l;
        if (r < n && below(h[r], h[m]))
            m = r;
        if (m == i)
            return;
        ranked x = h[i];
        h[i] = h[m];
        h[m] = x;
        i = m;
    }
}

static int ascending(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int trx_top_rows(uint32_t n, uint32_t limit, trx_row_key_fn key, const void *ctx, uint32_t **rows,
                 uint32_t *count)
{
    *rows = NULL;
    *count = n;
    if (limit == 0 || limit >= n)
        return 0;
    ranked *h = malloc((size_t)limit * sizeof *h);
    uint32_t *out = malloc((size_t)limit * sizeof *out);
    if (!h || !out) {
        free(h);
        free(out);
        return -1;
    }
    for (uint32_t i = 0; i < limit; i++)
        h[i] = (ranked){key(ctx, i), i};
    for (uint32_t i = limit / 2; i-- > 0;)
        sift_down(h, limit, i);
    for (uint32_t i = limit; i < n; i++) {
        ranked r = {key(ctx, i), i};
        if (below(h[0], r)) {
            h[0] = r;
            sift_down(h, limit, 0);
        }
    }
    for (uint32_t i = 0; i < limit; i++)
        out[i] = h[i].row;
    free(h);
    qsort(out, limit, sizeof *out, ascending);
    *rows = out;
    *count = limit;
    return 0;
}

void trx_write_top_rows(trx_out *o, uint32_t n, uint32_t limit, trx_row_key_fn key,
                        trx_row_write_fn row, const void *ctx, const char *thing)
{
    uint32_t *rows, count;
    if (trx_top_rows(n, limit, key, ctx, &rows, &count) < 0)
        count = n; /* out of memory: every row */
    for (uint32_t k = 0; k < count; k++)
        row(o, ctx, rows ? rows[k] : k);
    free(rows);
    if (count < n)
        trx_out_printf(o, "  ... and %llu more %s (--all lists every one)\n",
                       (unsigned long long)(n - count), thing);
}
