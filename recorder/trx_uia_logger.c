/*
 * trx_uia_logger.c - the UIA logger's life cycle: trx_uia_enable (packet
 * header, first terminator), disable, the group filter, and the out-of-line
 * end of a record that passed the limit (wrap to the start, or stop and
 * count what is dropped). Layout: docs/uia-format.md.
 */
#include "trx/stream_recorder.h"
#include "trx/uia_recorder.h"
#include "trx_stream_internal.h"
#include "trx_uia_internal.h"

trx_uia_logger trx_uia_default_logger;
ULONG trx_uia_simulated_time;

#define TRX_UIA_MAX_PACKET_BYTES 0x07FFFFFFUL /* 27-bit packet length */

#if defined(TX_ENABLE_EVENT_TRACE)

/* Stores `value` big-endian at `word` (the packet header's byte order). */
static VOID trx_uia_put_be32(ULONG *word, ULONG value)
{
    UCHAR *b = (UCHAR *)word;
    b[0] = (UCHAR)(value >> 24);
    b[1] = (UCHAR)(value >> 16);
    b[2] = (UCHAR)(value >> 8);
    b[3] = (UCHAR)value;
}

/* Packet header word 1: EventPkt, payload byte order, length in bytes. */
VOID trx_uia_set_length_(trx_uia_logger *lg, ULONG bytes)
{
    trx_uia_put_be32(&lg->buffer[0], (TRX_UIA_PACKET_EVENTPKT << 28) | (lg->big_endian << 27) |
                                         (bytes & TRX_UIA_MAX_PACKET_BYTES));
}

/* Packet header word 2: packet sequence number, first record's sequence
 * number (`seq16`, its low 14 bits). */
VOID trx_uia_set_sequences_(trx_uia_logger *lg, ULONG seq16)
{
    trx_uia_put_be32(&lg->buffer[1],
                     ((lg->packet_seq & 0xFFFFUL) << 16) | ((seq16 & 0x3FFFUL) << 2));
}

/* Words kept free past the limit: the largest record with its terminator,
 * and for the stop policy the dropped-count record with its terminator. */
static ULONG trx_uia_reserve_words(UINT policy)
{
    return TRX_UIA_SLACK_WORDS + (policy == TRX_UIA_POLICY_STOP ? TRX_UIA_MARKER_WORDS + 1UL : 0UL);
}

#endif

ULONG trx_uia_min_size(UINT policy)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    return 4UL * (4UL + TRX_UIA_SLACK_WORDS + trx_uia_reserve_words(policy));
#else
    (void)policy;
    return 0UL;
#endif
}

UINT trx_uia_enable(trx_uia_logger *logger, VOID *buffer, ULONG size, UINT policy, ULONG sender)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    trx_uia_logger *lg = logger;
    ULONG *words = (ULONG *)buffer;
    ULONG count, i, instance;
    union {
        ULONG w;
        UCHAR b[4];
    } probe;
    TRX_INTERRUPT_SAVE_AREA

    if (lg == NULL || words == NULL || (TRX_ADDRESS_WORD(words) & 3UL) != 0UL) {
        return TX_PTR_ERROR;
    }
    if (policy > TRX_UIA_POLICY_STOP || size < trx_uia_min_size(policy) ||
        size > TRX_UIA_MAX_PACKET_BYTES) {
        return TX_SIZE_ERROR;
    }
    if (lg->enabled != 0UL) {
        return TX_NOT_DONE;
    }
    count = size / 4UL;
    for (i = 4; i < count; i++) {
        words[i] = 0UL;
    }
    probe.w = 1UL;

    TRX_DISABLE
    lg->buffer = words;
    lg->start = words + 4;
    lg->end = words + count;
    lg->limit = lg->end - trx_uia_reserve_words(policy);
    lg->write = lg->start;
    lg->next_hdr = (ULONG)TRX_UIA_TYPE_EVENT << 27;
    lg->pass_seq16 = 0UL;
    lg->time = 0U;
    lg->policy = policy;
    lg->dropped = 0UL;
    lg->packet_seq = 0UL;
    lg->marker = NULL;
    lg->isr_nesting = 0UL;
    lg->sender = sender & 0x7FFFUL;
    lg->ring = NULL;
    lg->session = 0UL;
    /* the logger instance: TRX_UIA_SENDER's, else the source address */
    instance = (sender >> 16) != 0UL ? ((sender >> 16) - 1UL) & 0x7FFFUL : lg->sender;
    lg->big_endian = probe.b[0] == 1U ? 0UL : 1UL;
    trx_uia_set_length_(lg, count * 4UL);
    trx_uia_set_sequences_(lg, 0UL);
    trx_uia_put_be32(&words[2], (instance << 16) | TRX_UIA_MODULE_RECORDER);
    trx_uia_put_be32(&words[3], (TRX_UIA_PACKET_HOST << 16) | lg->sender);
    lg->start[0] = TRX_UIA_FIRST_TERMINATOR;
    lg->filter_bits = 0xFFFFFFFFUL;
    lg->enabled = 1UL;
    lg->active_bits = lg->filter_bits;
    TRX_RESTORE
    return TX_SUCCESS;
#else
    (void)logger;
    (void)buffer;
    (void)size;
    (void)policy;
    (void)sender;
    return TX_FEATURE_NOT_ENABLED;
#endif
}

UINT trx_uia_disable(trx_uia_logger *logger)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    UINT status = TX_NOT_DONE;
    TRX_INTERRUPT_SAVE_AREA
    TRX_DISABLE
    if (logger != NULL && logger->enabled != 0UL) {
        if (logger->policy == TRX_UIA_POLICY_STREAM) {
            trx_stream_close_pending_(logger); /* the last events leave too */
        }
        logger->active_bits = 0UL;
        logger->enabled = 0UL;
        status = TX_SUCCESS;
    }
    TRX_RESTORE
    return status;
#else
    (void)logger;
    return TX_FEATURE_NOT_ENABLED;
#endif
}

UINT trx_uia_event_filter(trx_uia_logger *logger, ULONG event_filter_bits)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    TRX_INTERRUPT_SAVE_AREA
    TRX_DISABLE
    logger->filter_bits &= ~event_filter_bits;
    if (logger->enabled != 0UL) {
        logger->active_bits = logger->filter_bits;
    }
    TRX_RESTORE
    return TX_SUCCESS;
#else
    (void)logger;
    (void)event_filter_bits;
    return TX_FEATURE_NOT_ENABLED;
#endif
}

UINT trx_uia_event_unfilter(trx_uia_logger *logger, ULONG event_unfilter_bits)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    TRX_INTERRUPT_SAVE_AREA
    TRX_DISABLE
    logger->filter_bits |= event_unfilter_bits;
    if (logger->enabled != 0UL) {
        logger->active_bits = logger->filter_bits;
    }
    TRX_RESTORE
    return TX_SUCCESS;
#else
    (void)logger;
    (void)event_unfilter_bits;
    return TX_FEATURE_NOT_ENABLED;
#endif
}

ULONG trx_uia_dropped(const trx_uia_logger *logger)
{
    return logger->dropped;
}

ULONG trx_uia_used_bytes(const trx_uia_logger *logger)
{
    const ULONG *end;
    if (logger->buffer == NULL) {
        return 0UL;
    }
    if (logger->packet_seq != 0UL) {
        return (ULONG)(logger->end - logger->buffer) * 4UL;
    }
    /* not wrapped: up to the terminator (stopped: the end of the packet) */
    end = logger->limit == logger->scratch ? logger->marker + 1 : logger->write;
    return (ULONG)(end - logger->buffer) * 4UL + 4UL;
}

#if defined(TX_ENABLE_EVENT_TRACE)

VOID trx_uia_wrap_(trx_uia_logger *lg, ULONG *next)
{
#if TRX_UIA_PREVLEN
    /* the recorder keeps only the 5 bits the records carry (counting the
     * pass's records here would mask interrupts for a walk of the buffer) */
    lg->pass_seq16 = lg->next_hdr & 0x1FUL;
#else
    lg->pass_seq16 = lg->next_hdr & 0xFFFFUL;
#endif
    trx_uia_set_length_(lg, (ULONG)(next - lg->buffer) * 4UL);
    lg->packet_seq++;
    trx_uia_set_sequences_(lg, lg->pass_seq16);
    lg->start[0] = *next; /* the terminator: the newest record is at the old end */
    lg->write = lg->start;
}

VOID trx_uia_stop_(trx_uia_logger *lg, ULONG *next)
{
    ULONG hdr, *a;
    lg->write = next;
    a = trx_uia_open_(lg, TRX_UIA_TYPE_EVENT, 4UL * TRX_UIA_MARKER_WORDS,
                      (TRX_UIA_EVENT_DROPPED << 16) | TRX_UIA_MODULE_RECORDER, &hdr);
    a[0] = lg->dropped;
    lg->marker = a;
    lg->next_hdr = trx_uia_advance_(hdr, 4UL * TRX_UIA_MARKER_WORDS, &a[1]);
    trx_uia_set_length_(lg, (ULONG)(a + 1 - lg->buffer) * 4UL);
    lg->write = lg->scratch;
    lg->limit = lg->scratch;
}

VOID trx_uia_count_drop_(trx_uia_logger *lg)
{
    lg->dropped++;
    if (lg->marker != NULL) {
        *lg->marker = lg->dropped;
    }
}

#endif

VOID trx_uia_finish_(trx_uia_logger *lg, ULONG *next)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    if (lg->limit == lg->scratch) { /* stopped: this record went to the scratch area */
        lg->write = lg->scratch;
        trx_uia_count_drop_(lg);
    } else if (lg->policy == TRX_UIA_POLICY_WRAP) {
        trx_uia_wrap_(lg, next);
    } else if (lg->policy == TRX_UIA_POLICY_STREAM) {
        trx_stream_commit_(lg, next);
    } else {
        trx_uia_stop_(lg, next); /* the record that filled the buffer is kept */
    }
#else
    (void)lg;
    (void)next;
#endif
}
