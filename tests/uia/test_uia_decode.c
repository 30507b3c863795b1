/* test_uia_decode.c - the UIA decoder on bytes built from the header
 * definitions (uia_builder.c, independent of the recorder): known-answer
 * header words, every HdrType, byte orders, sequence wrap and gaps, reserved
 * types rejected with their offset, wrapped PrevLen buffers read backwards,
 * snapshots, and the System Analyzer file shapes (research/uia.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "trx/uia.h"
#include "trx/uia_names.h"
#include "uia_builder.h"

#define MAX_EV 70000

/* Decoded events of a test buffer. */
typedef struct decoded {
    trx_trace t;
    trx_event *ev;
    size_t n;
} decoded;

/* Names the next open_buf passes to the decoder (sync points), or NULL. */
static const trx_uia_names *open_names;

static int open_buf(decoded *d, const ub *b, trx_endian endian, trx_error *err)
{
    trx_image img;
    memset(d, 0, sizeof *d);
    if (trx_image_load_memory(&img, b->buf, b->len, TRX_FORMAT_BIN, err) != 0)
        return -1;
    trx_open_options o = {.input_format = TRX_FORMAT_BIN,
                          .trace_format = TRX_TRACE_TXTB,
                          .endian = endian,
                          .uia_names = open_names};
    if (trx_trace_open_image_with(&d->t, &img, "test", &o, err) != 0)
        return -1;
    d->ev = calloc(MAX_EV, sizeof *d->ev);
    trx_cursor c;
    assert_int_equal(trx_cursor_init(&c, &d->t), 0);
    while (d->n < MAX_EV && trx_cursor_next(&c, &d->ev[d->n]))
        d->n++;
    trx_cursor_free(&c);
    return 0;
}

static void decode_ok(decoded *d, const ub *b)
{
    trx_error err;
    memset(&err, 0, sizeof err);
    if (open_buf(d, b, TRX_ENDIAN_AUTO, &err) != 0)
        fail_msg("decode failed at %llu: %s", (unsigned long long)err.offset, err.message);
    assert_int_equal(d->t.format, TRX_TRACE_UIA);
}

static void done(decoded *d)
{
    free(d->ev);
    trx_trace_close(&d->t);
}

static void test_known_answers(void **state)
{
    (void)state;
    /* write0 with a 64-bit timestamp (type 1), 16 bytes, sequence 5 */
    assert_int_equal(ub_hdr(1, 16, 5), 0x08100005u);
    /* PrevLen record (type 10) of 20 bytes after a 16-byte one, sequence 3 */
    assert_int_equal(ub_hdr_prevlen(10, 20, 16, 3), 0x50140203u);
    /* its terminator: type 8, length 0, previous 20, sequence 4 */
    assert_int_equal(ub_hdr_prevlen(8, 0, 20, 4), 0x40000284u);
    /* and the decoder reads exactly those words back */
    ub b;
    ub_init(&b, false);
    uint32_t arg = 7;
    ub_event(&b, 1, 5, 0x100, 0x1234, 0x8005, NULL, 0);
    assert_memory_equal(b.buf, "\x05\x00\x10\x08", 4);
    b.prev_len = 16;
    ub_event(&b, 10, 3, 0x200, 0x1234, 0x8005, &arg, 1);
    ub_terminator(&b, 4);
    assert_memory_equal(b.buf + 16, "\x03\x02\x14\x50", 4);
    assert_memory_equal(b.buf + 36, "\x84\x02\x00\x40", 4);
    decoded d;
    decode_ok(&d, &b);
    assert_int_equal(d.n, 2);
    trx_uia_record r;
    assert_true(trx_uia_record_get(&d.t, 1, &r));
    assert_int_equal(r.hdr_type, 10);
    assert_int_equal(r.length, 20);
    assert_int_equal(r.prev_len, 16);
    assert_int_equal(r.seq_raw, 3);
    assert_int_equal(r.event, 0x1234);
    assert_int_equal(r.module, 0x8005);
    assert_int_equal(trx_uia_record_arg(&r, 0), 7);
    assert_int_equal(d.ev[0].time, 0x100);
    assert_int_equal(d.ev[1].ticks, 0x100);
    done(&d);
    ub_free(&b);
}

/* Every event HdrType in both byte orders (auto-detected and forced). */
static void test_types_and_byte_orders(void **state)
{
    (void)state;
    static const uint32_t types[] = {0, 1, 4, 5};
    for (int be = 0; be < 2; be++) {
        ub b;
        ub_init(&b, be);
        uint32_t args[8] = {1, 2, 3, 4, 5, 6, 7, 8};
        uint32_t seq = 0;
        for (int k = 0; k < 4; k++)
            for (uint32_t na = 0; na <= 8; na = na ? na * 2 : 1) {
                ub_event(&b, types[k], seq, 1000 + seq, 11 + seq, 0x8000u + na, args, na);
                seq++;
            }
        decoded d;
        decode_ok(&d, &b);
        const trx_uia_info *u = trx_uia_info_of(&d.t);
        assert_non_null(u);
        assert_false(u->packet_file);
        assert_int_equal(u->big_endian, be);
        assert_true(u->endian_detected);
        assert_int_equal(d.n, seq);
        assert_int_equal(d.t.lost_events, 0);
        for (size_t i = 0; i < d.n; i++) {
            assert_int_equal(d.ev[i].seq, i);
            assert_int_equal(d.ev[i].id, 10 + i + 1);
            assert_int_equal(d.ev[i].thread, -1);
            assert_int_equal(d.ev[i].context, TRX_CONTEXT_INIT);
            trx_uia_record r;
            assert_true(trx_uia_record_get(&d.t, (uint32_t)i, &r));
            assert_int_equal(r.nargs, d.ev[i].module - 0x8000u);
            for (uint32_t k = 0; k < r.nargs; k++)
                assert_int_equal(trx_uia_record_arg(&r, k), k + 1);
        }
        done(&d);
        /* the wrong byte order forced: an error, not a silent misreading */
        trx_error err;
        assert_int_equal(open_buf(&d, &b, be ? TRX_ENDIAN_LITTLE : TRX_ENDIAN_BIG, &err), -1);
        ub_free(&b);
    }
}

/* 16-bit sequence numbers wrap past 65535 seamlessly; gaps are counted exactly. */
static void test_sequence_wrap_and_gaps(void **state)
{
    (void)state;
    ub b;
    ub_init(&b, false);
    uint64_t seq = 65530;
    for (int i = 0; i < 12; i++) {
        if (i == 8)
            seq += 3; /* three records dropped */
        ub_event(&b, 1, (uint32_t)seq, (uint64_t)i * 10, 1, 0, NULL, 0);
        seq++;
    }
    decoded d;
    decode_ok(&d, &b);
    assert_int_equal(d.n, 12);
    assert_int_equal(d.t.lost_events, 3);
    assert_int_equal(d.t.gap_count, 1);
    assert_int_equal(d.t.gaps[0].index, 8);
    assert_int_equal(d.t.gaps[0].lost, 3);
    assert_int_equal(d.t.gaps[0].from_ticks, 70);
    assert_int_equal(d.t.gaps[0].to_ticks, 80);
    assert_int_equal(d.ev[5].seq, 65535);
    assert_int_equal(d.ev[6].seq, 65536); /* no false gap at the wrap */
    assert_int_equal(d.ev[8].lost_before, 3);
    assert_int_equal(d.ev[11].seq, 65530 + 11 + 3);
    done(&d);
    ub_free(&b);

    /* 5-bit PrevLen sequences wrap past 31 */
    ub_init(&b, true);
    for (uint32_t s = 25; s < 25 + 40; s++)
        if (s != 40 && s != 41)
            ub_event(&b, 10, s, s, 2, 0, NULL, 0);
    ub_terminator(&b, 25 + 40);
    decode_ok(&d, &b);
    assert_int_equal(d.n, 38);
    assert_int_equal(d.t.lost_events, 2);
    assert_int_equal(d.t.gaps[0].index, 40 - 25);
    assert_int_equal(d.ev[37].seq, 25 + 39);
    done(&d);
    ub_free(&b);
}

/* HdrType 13..31 are rejected naming the offset. */
static void test_reserved_type(void **state)
{
    (void)state;
    for (uint32_t type = 13; type < 32; type++) {
        ub b;
        ub_init(&b, false);
        ub_event(&b, 1, 0, 0, 1, 0, NULL, 0);
        ub_event(&b, 1, 1, 0, 1, 0, NULL, 0);
        ub_word(&b, ub_hdr(type, 8, 2));
        ub_word(&b, 0);
        decoded d;
        trx_error err;
        assert_int_equal(open_buf(&d, &b, TRX_ENDIAN_LITTLE, &err), -1);
        assert_int_equal(err.offset, 32);
        assert_non_null(strstr(err.message, "reserved"));
        ub_free(&b);
    }
}

/* A halted PrevLen buffer that wrapped: header, newer records up to the
 * terminator at the write position, then the surviving older records up to
 * the terminator at the packet length. Decoded backwards: exactly the
 * records still present, oldest first. */
static void test_wrapped_prevlen(void **state)
{
    (void)state;
    ub b;
    ub_init(&b, false);
    size_t pkt = ub_packet_begin(&b, 1, 0, 0, 0);
    /* first lap: records 0..29 of 24 bytes (write2 with 64-bit ts) fill to P */
    uint32_t args[2] = {0, 0};
    for (uint32_t s = 0; s < 30; s++) {
        args[0] = s;
        ub_event(&b, 10, s, 1000 + s, 5, 0, args, 2);
    }
    ub_terminator(&b, 30);
    size_t p_end = b.len - 4; /* P: where the first lap's terminator is */
    ub_packet_end(&b, pkt);
    ub_put32(&b, 0, 10u << 28 | (uint32_t)p_end, true); /* packet length = P */
    /* second lap from the start: records 30..36 overwrite 0..6 and a part of 7 */
    ub nb;
    ub_init(&nb, false);
    nb.prev_len = 24;
    for (uint32_t s = 30; s < 37; s++) {
        args[0] = s;
        ub_event(&nb, 10, s, 1000 + s, 5, 0, args, 2);
    }
    ub_terminator(&nb, 37);
    memcpy(b.buf + 16, nb.buf, nb.len);
    /* the write position is at 16 + 7 * 24; record 7 (at 16 + 168) is cut by the terminator */
    decoded d;
    decode_ok(&d, &b);
    const trx_uia_info *u = trx_uia_info_of(&d.t);
    assert_true(u->wrapped);
    /* present: 8..29 (older pass) and 30..36 (newer pass) */
    assert_int_equal(d.n, 22 + 7);
    for (size_t i = 0; i < d.n; i++) {
        trx_uia_record r;
        assert_true(trx_uia_record_get(&d.t, (uint32_t)i, &r));
        assert_int_equal(trx_uia_record_arg(&r, 0), 8 + i);
        assert_int_equal(d.ev[i].seq % 32, (8 + i) % 32);
    }
    assert_int_equal(d.t.lost_events, 0);
    done(&d);
    ub_free(&nb);
    ub_free(&b);
}

/* Snapshots from 1 byte to 65535 bytes, split into records of at most 480
 * data bytes as the loggers split them, reassembled byte for byte; lengths
 * word in either order; a missing record makes it incomplete. */
static void test_snapshots(void **state)
{
    (void)state;
    static const uint32_t sizes[] = {1, 3, 4, 480, 481, 4096, 65535};
    uint8_t *data = malloc(65535);
    for (uint32_t i = 0; i < 65535; i++)
        data[i] = (uint8_t)(i * 7 + (i >> 8));
    for (int doc = 0; doc < 2; doc++) {
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            for (int drop = 0; drop < 2; drop++) {
                uint32_t total = sizes[k];
                ub b;
                ub_init(&b, doc);
                uint32_t seq = 0, parts = 0;
                for (uint32_t off = 0; off < total; off += 480, parts++) {
                    uint32_t n = total - off < 480 ? total - off : 480;
                    if (drop && parts == 1) {
                        seq++;
                        continue;
                    }
                    ub_snapshot(&b, doc ? 12 : 3, seq++, 100 + off, 9, 0x20000000u + off,
                                data + off, n, total, doc);
                }
                if (doc)
                    ub_terminator(&b, seq);
                decoded d;
                decode_ok(&d, &b);
                const trx_uia_info *u = trx_uia_info_of(&d.t);
                assert_int_equal(u->snapshot_count, 1);
                const trx_uia_snapshot *s = trx_uia_snapshot_at(&d.t, 0);
                assert_non_null(s);
                assert_int_equal(s->address, 0x20000000u);
                assert_int_equal(s->total_length, total);
                bool lost_part = drop && parts > 1;
                if (s->incomplete != lost_part)
                    fail_msg("doc %d size %u drop %d: incomplete %d", doc, total, drop,
                             s->incomplete);
                assert_int_equal(s->length, lost_part ? 480 : total);
                assert_memory_equal(s->data, data, s->length);
                /* the sequence shows the drop only when a record follows it */
                if (d.t.lost_events != (lost_part && parts > 2 ? 1u : 0u))
                    fail_msg("doc %d size %u drop %d: lost %llu", doc, total, drop,
                             (unsigned long long)d.t.lost_events);
                done(&d);
                ub_free(&b);
            }
        }
    }
    free(data);
}

/* One core (sender 7), three loggers sharing its clock, as a SYS/BIOS target
 * writes them (kernel, load and application loggers): each logger's packets
 * cover overlapping time windows, so the file order is not the time order.
 * Logger 2 starts 99 ticks after the others and loses 2 records; then the
 * target restarts (lower timestamps, sequences from 0) for a second session.
 * Truth: every record in timestamp order, ticks = timestamp - the core's first
 * (not the logger's), the gap on that axis, the second session after the
 * first on the same axis. */
static void test_one_core_three_loggers(void **state)
{
    (void)state;
    ub b;
    ub_init(&b, false);
    /* (session, logger, k): timestamp base + 3k + logger (+99 for logger 2: no ties) */
    const uint64_t base[2] = {5000, 1000};
    uint32_t pktno = 0;
    for (uint32_t session = 0; session < 2; session++) {
        uint32_t seq[3] = {0, 0, 0};
        for (uint32_t half = 0; half < 2; half++)
            for (uint32_t logger = 0; logger < 3; logger++) {
                size_t p = ub_packet_begin(&b, pktno++, 0, logger, 7);
                for (uint32_t k = half * 50; k < half * 50 + 50; k++) {
                    uint64_t ts = base[session] + 3 * k + logger + (logger == 2 ? 99 : 0);
                    if (logger == 2 && session == 0 && (k == 60 || k == 61)) {
                        seq[logger]++; /* lost on the way */
                        continue;
                    }
                    uint32_t arg = session << 16 | logger << 8 | k;
                    ub_event(&b, 1, seq[logger]++, ts, 0x10 + logger, 0x8005, &arg, 1);
                }
                ub_packet_end(&b, p);
            }
        pktno = 0; /* the restart: packet numbers from 0 too */
    }
    decoded d;
    decode_ok(&d, &b);
    const trx_uia_info *u = trx_uia_info_of(&d.t);
    assert_int_equal(u->cores, 1);
    assert_int_equal(u->stream_count, 3);
    assert_int_equal(d.n, 598);
    /* the truth, built from the writer's own rule */
    typedef struct truth {
        uint64_t time;
        uint32_t arg;
    } truth;
    truth want[598];
    size_t n = 0;
    for (uint32_t session = 0; session < 2; session++) {
        size_t first = n;
        for (uint32_t k = 0; k < 100; k++)
            for (uint32_t logger = 0; logger < 3; logger++)
                if (!(logger == 2 && session == 0 && (k == 60 || k == 61)))
                    want[n++] = (truth){base[session] + 3 * k + logger + (logger == 2 ? 99 : 0),
                                        session << 16 | logger << 8 | k};
        for (size_t i = first + 1; i < n; i++) /* time order (insertion sort: stable) */
            for (size_t j = i; j > first && want[j].time < want[j - 1].time; j--) {
                truth x = want[j];
                want[j] = want[j - 1];
                want[j - 1] = x;
            }
    }
    assert_int_equal(n, 598);
    uint64_t span0 = want[297].time - base[0]; /* the first session's last record */
    for (size_t i = 0; i < n; i++) {
        uint64_t ticks = i < 298 ? want[i].time - base[0] : span0 + 1 + want[i].time - base[1];
        if (d.ev[i].info[0] != want[i].arg || d.ev[i].time != want[i].time ||
            d.ev[i].ticks != ticks || d.ev[i].core != 0 || d.ev[i].index != i)
            fail_msg("event %zu: arg 0x%x time %llu ticks %llu, want 0x%x %llu %llu", i,
                     d.ev[i].info[0], (unsigned long long)d.ev[i].time,
                     (unsigned long long)d.ev[i].ticks, want[i].arg,
                     (unsigned long long)want[i].time, (unsigned long long)ticks);
    }
    /* each record's stream is its logger's (streams in order of appearance) */
    for (size_t i = 0; i < n; i++) {
        trx_uia_record r;
        assert_true(trx_uia_record_get(&d.t, d.ev[i].entry, &r));
        assert_int_equal(r.stream, (d.ev[i].info[0] >> 8) & 0xFFu);
        assert_int_equal(u->streams[r.stream].logger, r.stream);
    }
    /* the gap: before logger 2's k = 62, from its k = 59 on the core's axis */
    assert_int_equal(d.t.gap_count, 1);
    assert_int_equal(d.t.lost_events, 2);
    const trx_gap *g = &d.t.gaps[0];
    assert_int_equal(g->lost, 2);
    assert_int_equal(g->from_ticks, 3 * 59 + 2 + 99);
    assert_int_equal(g->to_ticks, 3 * 62 + 2 + 99);
    assert_int_equal(d.ev[g->index].info[0], 2u << 8 | 62);
    assert_int_equal(d.ev[g->index].lost_before, 2);
    assert_int_equal(u->streams[2].sessions, 2);
    done(&d);
    ub_free(&b);
}

/* Four cores with unrelated clocks (core c: cpu = offset_c + rate_c * global,
 * rates 1, 2, 3 and 5 cpu ticks per global tick), each writing records at
 * known global times and two UIASync sync points (named by TI metadata, as
 * System Analyzer needs them). Truth: after alignment every record's ticks
 * are its global time minus the earliest record's, within one tick; all
 * cores on one axis, the events in that order. Without the names: per-core
 * axes, each from 0. */
static void test_four_cores_sync_points(void **state)
{
    (void)state;
    static const uint64_t offset[4] = {1000, 7777777, 123, 1ull << 33};
    static const uint64_t rate[4] = {1, 2, 3, 5};
    enum { SYNC_EVENT = 0x31, SYNC_MODULE = 0x8011, REC_EVENT = 0x20, REC_MODULE = 0x8012 };
    ub b;
    ub_init(&b, false);
    uint64_t truth_min = UINT64_MAX;
    for (uint32_t core = 0; core < 4; core++) {
        size_t p = ub_packet_begin(&b, 0, 0, 0, 10 + core);
        uint32_t seq = 0;
        for (uint32_t k = 0; k < 40; k++) {
            uint64_t global = 5000 + 17 * k + 5 * core; /* the truth */
            uint64_t cpu = offset[core] + rate[core] * global;
            if (k == 0 || k == 39) { /* a sync point at this moment */
                uint32_t args[8] = {k,
                                    (uint32_t)cpu,
                                    (uint32_t)(cpu >> 32),
                                    (uint32_t)global,
                                    (uint32_t)(global >> 32),
                                    (uint32_t)rate[core],
                                    0,
                                    0};
                ub_event(&b, 1, seq++, cpu, SYNC_EVENT, SYNC_MODULE, args, 8);
            }
            uint32_t arg = core << 16 | k;
            ub_event(&b, 1, seq++, cpu, REC_EVENT, REC_MODULE, &arg, 1);
            if (global < truth_min)
                truth_min = global;
        }
        ub_packet_end(&b, p);
    }
    trx_uia_names names;
    trx_error err;
    const char *xml = "<uia><evtMap id=\"49\" moduleId=\"32785\" shortName=\"UIASync_syncPoint\" "
                      "longName=\"ti.uia.events.UIASync.syncPoint\"/></uia>";
    assert_int_equal(trx_uia_names_parse(&names, xml, strlen(xml), &err), 0);
    assert_true(trx_uia_name_is(&names.events[0], "UIASync.syncPoint"));
    for (int with_names = 0; with_names < 2; with_names++) {
        open_names = with_names ? &names : NULL;
        decoded d;
        decode_ok(&d, &b);
        open_names = NULL;
        const trx_uia_info *u = trx_uia_info_of(&d.t);
        assert_int_equal(u->cores, 4);
        assert_int_equal(d.n, 4 * 42);
        assert_int_equal(u->sync_points, with_names ? 8 : 0);
        assert_int_equal(u->aligned, with_names);
        uint32_t seen = 0;
        for (size_t i = 0; i < d.n; i++) {
            const trx_event *e = &d.ev[i];
            if (i > 0)
                assert_true(e->ticks >= d.ev[i - 1].ticks);
            if (e->id != REC_EVENT)
                continue;
            uint32_t core = e->info[0] >> 16, k = e->info[0] & 0xFFFFu;
            assert_int_equal(e->core, core);
            uint64_t global = 5000 + 17 * k + 5 * core;
            /* else: its own axis from 0, in its own clock ticks */
            uint64_t want = with_names ? global - truth_min : rate[core] * 17 * k;
            uint64_t got = e->ticks;
            if (got + 1 < want || got > want + 1)
                fail_msg("core %u record %u: ticks %llu, truth %llu", core, k,
                         (unsigned long long)got, (unsigned long long)want);
            seen++;
        }
        assert_int_equal(seen, 160);
        done(&d);
    }
    trx_uia_names_free(&names);
    ub_free(&b);
}

/* UIA 1.x LoggerCircBuf: HdrType 1 records from two cores, one packet
 * counter per sender shared by its loggers (it jumps inside a stream),
 * first-event bits zero; a seq-0/ts-0 first record; timestamps crossing
 * 2^32; unrelated time bases per core; an InvalidData filler tail. */
static void test_circbuf_multicore(void **state)
{
    (void)state;
    ub b;
    ub_init(&b, false);
    uint32_t pktno[2] = {0, 0};
    uint32_t seq[2][2] = {{0, 0}, {0, 0}};
    uint64_t base[2] = {0, 0xFFFFFF00ull}; /* core 1 crosses 2^32 */
    for (int round = 0; round < 4; round++) {
        for (uint32_t core = 0; core < 2; core++) {
            for (uint32_t logger = 0; logger < 2; logger++) {
                size_t p = ub_packet_begin(&b, pktno[core]++, 0, logger, core);
                for (int i = 0; i < 5; i++) {
                    uint64_t ts = base[core] + (uint64_t)(round * 5 + i) * 64;
                    ub_event(&b, 1, seq[core][logger]++, ts, 100 + logger, 0x8010, NULL, 0);
                }
                if (round == 1)
                    ub_filler(&b, 12);
                ub_packet_end(&b, p);
            }
        }
    }
    decoded d;
    decode_ok(&d, &b);
    const trx_uia_info *u = trx_uia_info_of(&d.t);
    assert_true(u->packet_file);
    assert_int_equal(u->packet_count, 16);
    assert_int_equal(u->stream_count, 4);
    assert_int_equal(d.n, 80);
    assert_int_equal(d.t.lost_events, 0);
    for (uint32_t s = 0; s < 4; s++) {
        assert_int_equal(u->streams[s].records, 20);
        assert_int_equal(u->streams[s].sessions, 1);
        assert_int_equal(u->streams[s].span_ticks, 19 * 64);
    }
    /* the first record: seq 0, timestamp 0, ticks 0 */
    assert_int_equal(d.ev[0].seq, 0);
    assert_int_equal(d.ev[0].time, 0);
    /* core 1 crossed 2^32 without a jump in ticks */
    bool crossed = false;
    for (size_t i = 0; i < d.n; i++)
        if (d.ev[i].core == 1 && d.ev[i].time >= (1ull << 32))
            crossed = true;
    assert_true(crossed);
    /* two senders = two cores (each logger pair on its core's clock): the
     * events in tick order, the two loggers of a core interleaved by time */
    assert_int_equal(u->cores, 2);
    uint32_t per_core[2] = {0, 0};
    for (size_t i = 0; i < d.n; i++) {
        assert_true(d.ev[i].core < 2);
        per_core[d.ev[i].core]++;
        assert_int_equal(d.ev[i].index, i);
        if (i > 0)
            assert_true(d.ev[i].ticks >= d.ev[i - 1].ticks);
        /* each timestamp k * 64 on core c is written by both loggers: they alternate */
        uint64_t k = (d.ev[i].time - base[d.ev[i].core]) / 64;
        assert_int_equal(d.ev[i].ticks, k * 64);
        assert_int_equal(d.ev[i].ticks, (i / 4) * 64); /* four records per tick */
        assert_int_equal(d.ev[i].core, (i / 2) % 2);   /* ties: file order, core 0 first */
        assert_int_equal(d.ev[i].id, 100 + i % 2);     /* logger 0, then logger 1 */
    }
    assert_int_equal(per_core[0], 40);
    assert_int_equal(per_core[1], 40);
    assert_int_equal(u->time_backwards, 0);
    done(&d);
    ub_free(&b);
}

/* UIA 2.x LoggerStopMode packets (HdrType 10, no terminator, first-event
 * number in word2), a byte-identical duplicate packet, a lost packet, a
 * second target run (lower seq, same packet number, smaller timestamps),
 * and a packet whose timestamps go backwards (warned, kept in order). */
static void test_stopmode_sessions_duplicates(void **state)
{
    (void)state;
    ub b;
    ub_init(&b, true);
    uint32_t seq = 0;
    size_t first_pkt_start = 0, first_pkt_len = 0;
    for (uint32_t pk = 0; pk < 4; pk++) {
        if (pk == 2)
            seq += 40; /* a whole packet of 40 records lost: 5 bits cannot tell, word2 can */
        size_t p = ub_packet_begin(&b, pk, seq, 3, 1);
        b.prev_len = 0;
        for (int i = 0; i < 10; i++, seq++)
            ub_event(&b, 10, seq, 5000 + (uint64_t)seq * 10, 7, 0x8020, NULL, 0);
        ub_packet_end(&b, p);
        if (pk == 0) {
            first_pkt_start = p;
            first_pkt_len = b.len - p;
        }
    }
    /* the first packet saved again */
    size_t at = b.len;
    b.len += first_pkt_len;
    if (b.len > b.cap) {
        b.buf = realloc(b.buf, b.len);
        b.cap = b.len;
    }
    memcpy(b.buf + at, b.buf + first_pkt_start, first_pkt_len);
    /* a second run: packet 0 again, seq from 0, time from 0 */
    size_t p = ub_packet_begin(&b, 0, 0, 3, 1);
    for (uint32_t s = 0; s < 10; s++)
        ub_event(&b, 10, s, 100 + s, 7, 0x8020, NULL, 0);
    ub_packet_end(&b, p);
    /* a broken time source: timestamps step back inside a packet */
    p = ub_packet_begin(&b, 1, 10, 3, 1);
    for (uint32_t s = 10; s < 15; s++)
        ub_event(&b, 10, s, s == 12 ? 50 : 100 + s, 7, 0x8020, NULL, 0);
    ub_packet_end(&b, p);

    decoded d;
    decode_ok(&d, &b);
    const trx_uia_info *u = trx_uia_info_of(&d.t);
    assert_int_equal(u->packet_count, 7);
    assert_int_equal(u->duplicate_packets, 1);
    assert_int_equal(u->stream_count, 1);
    assert_int_equal(u->streams[0].sessions, 2);
    assert_int_equal(d.n, 40 + 10 + 5);
    assert_int_equal(d.t.lost_events, 40);
    assert_int_equal(d.t.gap_count, 1);
    assert_int_equal(d.t.gaps[0].index, 20);
    assert_int_equal(u->time_backwards, 1);
    /* stored order kept: the backwards record is where it was */
    assert_int_equal(d.ev[40 + 10 + 2].time, 50);
    assert_int_equal(d.ev[40 + 10 + 2].seq, 12);
    done(&d);
    ub_free(&b);
}

/* The recorder's stop policy: its drop-count record (module "TR", event 1)
 * becomes a gap after the last record; "TX" events are named by the catalogue. */
static void test_target_dropped(void **state)
{
    (void)state;
    ub b;
    ub_init(&b, false);
    uint32_t info = 0x20001000u, dropped = 17;
    ub_event(&b, 10, 0, 10, 3, TRX_UIA_TX_MODULE, &info, 1); /* ISR ENTER */
    ub_event(&b, 10, 1, 20, TRX_UIA_DROPPED_EVENT, TRX_UIA_RECORDER_MODULE, &dropped, 1);
    ub_terminator(&b, 2);
    decoded d;
    decode_ok(&d, &b);
    const trx_uia_info *u = trx_uia_info_of(&d.t);
    assert_int_equal(d.n, 2);
    assert_int_equal(u->target_dropped, 17);
    assert_int_equal(d.t.lost_events, 17);
    assert_int_equal(d.t.gap_count, 1);
    assert_int_equal(d.t.gaps[0].index, 2);
    assert_int_equal(d.ev[0].module, TRX_UIA_TX_MODULE);
    assert_int_equal(d.ev[0].id, 3);
    done(&d);
    ub_free(&b);
}

/* Names: a names file and a .uia.xml (attributes, child elements, URL-encoded msg). */
static void test_names(void **state)
{
    (void)state;
    trx_uia_names n;
    trx_error err;
    const char *file = "# names\ndefault-module 0x8000\nmodule 0x8005 Sensor\n"
                       "event 0x8005 0x10 Sensor_read value %d at %x\n";
    assert_int_equal(trx_uia_names_parse(&n, file, strlen(file), &err), 0);
    assert_int_equal(n.default_module, 0x8000);
    const trx_uia_name *e = trx_uia_names_find(&n, 0x8005, 0x10);
    assert_non_null(e);
    assert_string_equal(e->name, "Sensor_read");
    assert_string_equal(e->format, "value %d at %x");
    assert_string_equal(trx_uia_module_name(&n, 0x8005), "Sensor");
    assert_null(trx_uia_names_find(&n, 0x8005, 0x11));
    trx_uia_names_free(&n);

    const char *xml =
        "<?xml version=\"1.0\"?>\n<!-- generated -->\n<uiaEventData><hdr><x a='1'/></hdr>\n"
        "<evtMap id=\"12\" moduleId=\"32773\" shortName=\"Mod_evt\" "
        "msg=\"count%3D%25d+at+%25s\"/>\n"
        "<evtMap id=\"13\"><moduleId>32773</moduleId><longName>a.b.Mod.other</longName>"
        "<msg>x+%26+y+%25x</msg></evtMap>\n"
        "<modIdMap id=\"32773\"><moduleName>a.b.Mod</moduleName></modIdMap>\n"
        "<unknown>ignored &amp; fine</unknown></uiaEventData>\n";
    assert_int_equal(trx_uia_names_parse(&n, xml, strlen(xml), &err), 0);
    e = trx_uia_names_find(&n, 32773, 12);
    assert_non_null(e);
    assert_string_equal(e->name, "Mod_evt");
    assert_string_equal(e->format, "count=%d at %s");
    e = trx_uia_names_find(&n, 32773, 13);
    assert_non_null(e);
    assert_string_equal(e->name, "a.b.Mod.other");
    assert_string_equal(e->format, "x & y %x");
    assert_string_equal(trx_uia_module_name(&n, 32773), "a.b.Mod");
    trx_uia_names_free(&n);

    const char *bad[] = {"<a><b></a></b>", "<a x=1/>",    "<a>&nope;</a>",  "<a>",
                         "<a/><b/>",       "event 1 2\n", "module x Name\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (trx_uia_names_parse(&n, bad[i], strlen(bad[i]), &err) != -1)
            fail_msg("accepted: %s", bad[i]);
}

/* Names by event id: a record logged through another module (LogSync logging
 * UIASync's syncPoint) is named by the one entry with its event id; an id two
 * modules declare names only their own records; the exact entry wins; and
 * the timestamp frequencies TI writes (cpuClock, cpuTimestamp / cyclesPerTick,
 * globalTimestamp, MSW x 2^32 + LSW). */
static void test_names_by_event_id(void **state)
{
    (void)state;
    trx_uia_names n;
    trx_error err;
    const char *xml =
        "<uiaEventData>\n"
        "<evtMap id=\"14\"><longName>ti.uia.events.UIASync.syncPoint</longName>"
        "<shortName>UIASync_syncPoint</shortName><moduleId>32822</moduleId>"
        "<msg>Sync+%25d</msg></evtMap>\n"
        "<evtMap id=\"7\" moduleId=\"32816\" shortName=\"Task_seven\"/>\n"
        "<evtMap id=\"7\" moduleId=\"32817\" shortName=\"Hwi_seven\"/>\n"
        "<cpuClock><maxClockFreqMSW>1</maxClockFreqMSW><maxClockFreqLSW>5</maxClockFreqLSW>"
        "</cpuClock>\n<eventCorrelation><isEnabled>true</isEnabled>\n"
        "<cpuTimestamp><moduleName>x.T</moduleName><maxTimerFreqMSW>0</maxTimerFreqMSW>"
        "<maxTimerFreqLSW>96000000</maxTimerFreqLSW><cyclesPerTick>4</cyclesPerTick>"
        "</cpuTimestamp>\n<globalTimestamp><maxTimerFreqMSW>0</maxTimerFreqMSW>"
        "<maxTimerFreqLSW>3.3333333333333332E7</maxTimerFreqLSW><cyclesPerTick>3</cyclesPerTick>"
        "</globalTimestamp></eventCorrelation></uiaEventData>\n";
    assert_int_equal(trx_uia_names_parse(&n, xml, strlen(xml), &err), 0);
    const trx_uia_name *e = trx_uia_names_find(&n, 32832, 14); /* LogSync's module id */
    assert_non_null(e);
    assert_string_equal(e->name, "UIASync_syncPoint");
    assert_string_equal(e->format, "Sync %d");
    assert_int_equal(e->module, 32822);
    assert_null(trx_uia_names_find_exact(&n, 32832, 14));
    assert_null(trx_uia_names_find(&n, 32832, 15));
    assert_null(trx_uia_names_find(&n, 32832, 7)); /* two declare id 7: neither */
    e = trx_uia_names_find(&n, 32817, 7);          /* the exact one */
    assert_non_null(e);
    assert_string_equal(e->name, "Hwi_seven");
    e = trx_uia_names_find(&n, 32816, 7);
    assert_non_null(e);
    assert_string_equal(e->name, "Task_seven");
    assert_true(n.cpu_clock_hz == 4294967296.0 + 5);
    assert_true(n.cpu_timestamp_hz == 24000000.0);
    assert_true(n.global_timestamp_hz > 33333333.3 && n.global_timestamp_hz < 33333333.4);
    trx_uia_names_free(&n);

    /* a names file: the same by-id rule; no frequencies */
    const char *file = "event 0x8005 0x10 Sensor_read\nevent 0x8006 0x11 Other\n"
                       "event 0x8007 0x11 Other2\n";
    assert_int_equal(trx_uia_names_parse(&n, file, strlen(file), &err), 0);
    e = trx_uia_names_find(&n, 0x8040, 0x10);
    assert_non_null(e);
    assert_string_equal(e->name, "Sensor_read");
    assert_null(trx_uia_names_find(&n, 0x8040, 0x11));
    assert_true(n.cpu_timestamp_hz == 0 && n.global_timestamp_hz == 0 && n.cpu_clock_hz == 0);
    trx_uia_names_free(&n);

    const char *bad[] = {
        "<u><cpuTimestamp><maxTimerFreqLSW>fast</maxTimerFreqLSW></cpuTimestamp></u>",
        "<u><cpuTimestamp><maxTimerFreqLSW>5</maxTimerFreqLSW><cyclesPerTick>0</cyclesPerTick>"
        "</cpuTimestamp></u>",
        "<u><globalTimestamp><maxTimerFreqMSW>x</maxTimerFreqMSW><maxTimerFreqLSW>1"
        "</maxTimerFreqLSW></globalTimestamp></u>"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (trx_uia_names_parse(&n, bad[i], strlen(bad[i]), &err) != -1)
            fail_msg("accepted: %s", bad[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_answers),
        cmocka_unit_test(test_types_and_byte_orders),
        cmocka_unit_test(test_sequence_wrap_and_gaps),
        cmocka_unit_test(test_reserved_type),
        cmocka_unit_test(test_wrapped_prevlen),
        cmocka_unit_test(test_snapshots),
        cmocka_unit_test(test_circbuf_multicore),
        cmocka_unit_test(test_one_core_three_loggers),
        cmocka_unit_test(test_four_cores_sync_points),
        cmocka_unit_test(test_stopmode_sessions_duplicates),
        cmocka_unit_test(test_target_dropped),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_names_by_event_id),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
