/* fuzz_gate.c - libFuzzer target: the CI-gate paths on arbitrary input (TXTB
 * or UIA): `trx stats --json` in both modes, every `trx check` rule (windows
 * and limits taken from the input, so tiny and huge ones are tried) and `trx
 * diff` of the input against itself in the other mode. Run with
 * -malloc_limit_mb / -rss_limit_mb (run_fuzzers.sh): an allocation sized by
 * a value in the input instead of by its size is a finding. Invariants: no
 * share outside 0-100 %, a check rule on a trace without thread context is
 * unavailable, every figure a trace has is below 2^62. */
#include <stdio.h>
#include <string.h>

#include "check_rules.h"
#include "diff_rows.h"
#include "output/stats_json.h"
#include "trx/stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t word_at(const uint8_t *data, size_t size, size_t at)
{
    uint64_t v = 0;
    for (size_t k = 0; k < 8 && at + k < size; k++)
        v |= (uint64_t)data[at + k] << (8 * k);
    return v;
}

static void check_all_rules(trx_trace *t, const trx_stats *s, const trx_latency *l,
                            const uint8_t *data, size_t size)
{
    static const check_kind kinds[] = {
        CHECK_MAX_ISR_TICKS,  CHECK_MAX_ISR_RATE,   CHECK_NO_INVERSION,
        CHECK_MIN_STACK_FREE, CHECK_MAX_CPU_LOAD,   CHECK_MAX_LATENCY,
        CHECK_MAX_RESPONSE,   CHECK_NO_LOST_EVENTS, CHECK_REGISTRY_ROOM};
    check_ctx ctx = {t, s, word_at(data, size, 4) % 2 ? 1000000u : 0u, /* a tick rate or none */
                     l};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        static check_rule r;
        static check_result out;
        memset(&r, 0, sizeof r);
        r.kind = kinds[k];
        snprintf(r.text, sizeof r.text, "rule %zu", k);
        r.limit = word_at(data, size, 8 * k) % 101; /* a percent for max-cpu-load */
        r.has_unit = kinds[k] == CHECK_MAX_RESPONSE && (word_at(data, size, 8 * k + 4) & 1);
        r.limit_ns = word_at(data, size, 8 * k + 4); /* max-response in time */
        r.window = word_at(data, size, 64 + 8 * k);
        if (r.kind == CHECK_MAX_ISR_RATE && r.window == 0)
            r.window = 1;
        if (check_evaluate(&ctx, &r, &out) != 0)
            continue; /* out of memory */
        /* without thread context only the rules that need none have a verdict */
        bool needs_context = r.kind != CHECK_NO_LOST_EVENTS && r.kind != CHECK_REGISTRY_ROOM;
        if (trx_trace_context_missing(t) && needs_context && out.status != CHECK_UNAVAILABLE)
            __builtin_trap();
        if (out.status == CHECK_UNAVAILABLE && out.evidence[0] == '\0')
            __builtin_trap(); /* unavailable says why */
        if (out.has_value && out.percent && out.value > 10000)
            __builtin_trap(); /* hundredths of a percent: at most 100.00 */
    }
}

static void stats_invariants(const trx_stats *s)
{
    for (uint64_t i = 0; i < s->load_count; i++) {
        uint64_t start = i * s->load_window;
        uint64_t len = s->load_span > start && s->load_span - start < s->load_window
                           ? s->load_span - start
                           : s->load_window;
        if (s->load_busy[i] > len && len > 0)
            __builtin_trap(); /* busier than the window is long */
    }
    if (s->load_count > TRX_LOAD_WINDOWS_MAX)
        __builtin_trap();
    const uint64_t huge = (uint64_t)1 << 62;
    if (s->context_switches > huge || s->interrupts > huge || s->idle_ticks > huge ||
        s->interrupt_ticks > huge)
        __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *null_out;
    static trx_out out;
    if (!null_out)
        null_out = fopen("/dev/null", "w");
    trx_trace a, b;
    trx_image ia, ib;
    trx_error err;
    memset(&err, 0, sizeof err);
    if (trx_image_load_memory(&ia, data, size, TRX_FORMAT_AUTO, &err) != 0)
        return 0;
    if (trx_trace_open_image(&a, &ia, "fuzz-a", &err) != 0)
        return 0; /* the trace released the image */
    if (trx_image_load_memory(&ib, data, size, TRX_FORMAT_AUTO, &err) != 0 ||
        trx_trace_open_image(&b, &ib, "fuzz-b", &err) != 0) {
        trx_trace_close(&a);
        return 0;
    }
    trx_trace_set_mode(&b, TRX_MODE_TRACEX);
    trx_stats sa, sb;
    trx_latency check_l; /* with the statistics, as trx check computes them */
    trx_latency_options check_o;
    check_latency_options(&check_o);
    int ra = trx_stats_latency_compute(&a, &sa, &check_o, &check_l),
        rb = trx_stats_compute(&b, &sb);
    if (ra == 0) {
        stats_invariants(&sa);
        if (null_out) {
            trx_out_init(&out, null_out, false);
            trx_stats_write_json(&a, &sa, NULL, &out);
            trx_out_flush(&out);
        }
        check_all_rules(&a, &sa, &check_l, data, size);
        trx_latency_free(&check_l);
    }
    if (rb == 0 && null_out) {
        stats_invariants(&sb);
        trx_out_init(&out, null_out, false);
        trx_stats_write_json(&b, &sb, NULL, &out);
        trx_out_flush(&out);
    }
    if (ra == 0 && rb == 0) {
        diff_rows d;
        trx_latency la, lb;
        int lra = trx_latency_compute(&a, NULL, &la), lrb = trx_latency_compute(&b, NULL, &lb);
        diff_side da = {&a, &sa, lra == 0 ? &la : NULL}, db = {&b, &sb, lrb == 0 ? &lb : NULL};
        if (diff_rows_build(&d, &da, &db) == 0 && trx_trace_context_missing(&a) &&
            d.unavailable_reason == NULL)
            __builtin_trap();
        diff_rows_free(&d);
        if (lra == 0)
            trx_latency_free(&la);
        if (lrb == 0)
            trx_latency_free(&lb);
    }
    if (ra == 0)
        trx_stats_free(&sa);
    if (rb == 0)
        trx_stats_free(&sb);
    trx_trace_close(&a);
    trx_trace_close(&b);
    return 0;
}
