/*
 * trx_stream_logger.c - a UIA logger that streams: its staging buffer holds
 * one packet; a full packet is closed (length, sequences, the first
 * record's check / number / dropped count / session) and copied whole into
 * the ring, or dropped and counted when the ring has no room for it. Layout:
 * docs/streaming.md.
 */
#include "trx/stream_recorder.h"
#include "trx_stream_internal.h"
#include "trx_uia_internal.h"

#if defined(TX_ENABLE_EVENT_TRACE)

/* The packet check: a = sum of the words, b = sum of the a's (mod 2^32),
 * over words [from, to) as the target stores them (the check word itself
 * 0), folded to a ^ (b rotated by 16). */
static ULONG trx_stream_check(const ULONG *from, const ULONG *to)
{
    ULONG a = 0UL, b = 0UL;
    while (from < to) {
        a += *from++;
        b += a;
    }
    return a ^ ((b << 16) | (b >> 16));
}

/* Writes the packet's first record at the staging start: the stream packet
 * record numbering `number` (`first`: no packet of this session reached the
 * ring yet), its check
 * still 0. Its header takes the next record's sequence without advancing it
 * (it is not an event). */
static VOID trx_stream_open_packet(trx_uia_logger *lg, ULONG number, ULONG first)
{
    ULONG hdr, *a;
    lg->write = lg->start;
    a = trx_uia_open_(lg, TRX_UIA_TYPE_EVENT, 4UL * TRX_STREAM_FRAME_WORDS,
                      (TRX_UIA_EVENT_STREAM_PACKET << 16) | TRX_UIA_MODULE_RECORDER, &hdr);
    a[0] = 0UL;
    a[1] = number;
    a[2] = lg->dropped;
    a[3] = lg->session;
    a[4] = first;
    lg->write = a + 5;
    lg->write[0] = TRX_UIA_FIRST_TERMINATOR;
}

/* Events in the packet being filled, which ends at `next` (lengths from
 * their headers). */
static ULONG trx_stream_staged(const trx_uia_logger *lg, const ULONG *next)
{
    const ULONG *p = lg->start + TRX_STREAM_FRAME_WORDS;
    ULONG records = 0UL;
    while (p < next) {
        records++;
        p += ((*p >> 16) & 0x7FFUL) / 4UL;
    }
    return records;
}

#endif

ULONG trx_stream_recorded(trx_uia_logger *logger)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    ULONG n;
    TRX_INTERRUPT_SAVE_AREA
    TRX_DISABLE
    n = logger->policy == TRX_UIA_POLICY_STREAM && logger->start != NULL
            ? logger->start[TRX_UIA_HEAD_WORDS + 1] + trx_stream_staged(logger, logger->write)
            : 0UL;
    TRX_RESTORE
    return n;
#else
    (void)logger;
    return 0UL;
#endif
}

ULONG trx_stream_min_size(void)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    return 4UL * (4UL + TRX_STREAM_FRAME_WORDS + 2UL * TRX_UIA_SLACK_WORDS);
#else
    return 0UL;
#endif
}

UINT trx_stream_enable(trx_uia_logger *logger, VOID *staging, ULONG staging_size,
                       trx_stream_ring *ring, ULONG sender, ULONG session)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    UINT status;
    TRX_INTERRUPT_SAVE_AREA
    if (ring == NULL || ring->buffer == NULL) {
        return TX_PTR_ERROR;
    }
    if (staging_size < trx_stream_min_size() || staging_size > 16UL + 2044UL ||
        staging_size + 4UL > ring->size) {
        return TX_SIZE_ERROR;
    }
    status = trx_uia_enable(logger, staging, staging_size, TRX_UIA_POLICY_WRAP, sender);
    if (status != TX_SUCCESS) {
        return status;
    }
    TRX_DISABLE
    logger->policy = TRX_UIA_POLICY_STREAM;
    logger->ring = ring;
    logger->session = session;
    logger->reported = 0UL;
    trx_stream_open_packet(logger, 0UL, 1UL);
    TRX_RESTORE
    return TX_SUCCESS;
#else
    (void)logger;
    (void)staging;
    (void)staging_size;
    (void)ring;
    (void)sender;
    (void)session;
    return TX_FEATURE_NOT_ENABLED;
#endif
}

VOID trx_stream_commit_(trx_uia_logger *lg, ULONG *next)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    ULONG *args = lg->start + TRX_UIA_HEAD_WORDS;
    const ULONG number = args[1];
    const ULONG records = trx_stream_staged(lg, next);
    ULONG first = args[4];
    ULONG bytes;
    if (records != 0UL || lg->dropped != lg->reported) { /* events, or news of dropped ones */
        bytes = (ULONG)(next - lg->buffer) * 4UL;
        trx_uia_set_length_(lg, bytes);
        trx_uia_set_sequences_(lg, number);
        args[2] = lg->dropped;
        args[0] = trx_stream_check(lg->buffer, next);
        if (trx_stream_ring_put_((trx_stream_ring *)lg->ring, lg->buffer, bytes)) {
            lg->packet_seq++;
            lg->reported = lg->dropped;
            first = 0UL; /* the session's first packet reached the ring */
        } else {
            lg->dropped += records;
        }
    }
    trx_stream_open_packet(lg, number + records, first);
#else
    (void)lg;
    (void)next;
#endif
}

VOID trx_stream_close_pending_(trx_uia_logger *lg)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    if (lg->write > lg->start + TRX_STREAM_FRAME_WORDS || lg->dropped != lg->reported) {
        trx_stream_commit_(lg, lg->write);
    }
#else
    (void)lg;
#endif
}

UINT trx_stream_flush(trx_uia_logger *logger)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    UINT status = TX_NOT_DONE;
    TRX_INTERRUPT_SAVE_AREA
    TRX_DISABLE
    if (logger->enabled != 0UL && logger->policy == TRX_UIA_POLICY_STREAM) {
        trx_stream_close_pending_(logger);
        status = TX_SUCCESS;
    }
    TRX_RESTORE
    return status;
#else
    (void)logger;
    return TX_FEATURE_NOT_ENABLED;
#endif
}

UINT trx_stream_skip(trx_uia_logger *logger, ULONG n)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    UINT status = TX_NOT_DONE;
    TRX_INTERRUPT_SAVE_AREA
    TRX_DISABLE
    if (logger->enabled != 0UL && logger->policy == TRX_UIA_POLICY_STREAM) {
        if (logger->write > logger->start + TRX_STREAM_FRAME_WORDS) {
            trx_stream_commit_(logger, logger->write); /* the events before the gap */
        }
        logger->start[TRX_UIA_HEAD_WORDS + 1] += n; /* the next packet's first number */
        logger->dropped += n;
#if TRX_UIA_PREVLEN
        logger->next_hdr = (logger->next_hdr & ~0x1FUL) | ((logger->next_hdr + n) & 0x1FUL);
#else
        logger->next_hdr = (logger->next_hdr & ~0xFFFFUL) | ((logger->next_hdr + n) & 0xFFFFUL);
#endif
        status = TX_SUCCESS;
    }
    TRX_RESTORE
    return status;
#else
    (void)logger;
    (void)n;
    return TX_FEATURE_NOT_ENABLED;
#endif
}
