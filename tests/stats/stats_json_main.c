/* stats_json_main.c - test helper: prints trx's statistics of a trace as JSON
 * so that tests can compare them with TraceX's own (corpus *.tml-stats.json). */
#include <stdio.h>

#include "output/stats_json.h"

int main(int argc, char **argv)
{
    trx_trace t;
    trx_stats s;
    trx_error err;
    if (argc != 2) {
        fprintf(stderr, "usage: stats_json TRACE\n");
        return 1;
    }
    if (trx_trace_open(&t, argv[1], TRX_FORMAT_AUTO, &err) < 0) {
        fprintf(stderr, "%s: offset %llu: %s\n", argv[1], (unsigned long long)err.offset,
                err.message);
        return 2;
    }
    t.mode = TRX_MODE_TRACEX; /* compared with TraceX's own numbers */
    if (trx_stats_compute(&t, &s) < 0)
        return 3;
    static trx_out out;
    trx_out_init(&out, stdout, false);
    trx_stats_write_json(&t, &s, &out);
    int r = trx_out_flush(&out);
    trx_stats_free(&s);
    trx_trace_close(&t);
    return r < 0 ? 3 : 0;
}
