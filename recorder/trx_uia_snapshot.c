/*
 * trx_uia_snapshot.c - snapshot records (HdrType 2/3 or 11/12): a memory
 * range or a string split over records of at most TRX_UIA_MAX_RECORD_BYTES,
 * as TI's loggers split them: one snapshot id for all, the address of each
 * record's own data, the lengths word = this record's bytes << 16 | total.
 */
#include "trx/stream_recorder.h"
#include "trx/uia_recorder.h"
#include "trx_uia_internal.h"

#if defined(TX_ENABLE_EVENT_TRACE)

/* Data bytes one snapshot record carries at most. */
#define TRX_UIA_SNAP_CHUNK (TRX_UIA_MAX_RECORD_BYTES - 4UL * TRX_UIA_SNAP_HEAD_WORDS)

/* What one snapshot record holds besides its data. */
typedef struct trx_uia_snap_fields {
    ULONG event_word, snapshot_id, file_ptr, line, fmt_ptr, total;
} trx_uia_snap_fields;

/* Writes one snapshot record of `n` data bytes at `data` (target address
 * `address`); the caller holds the critical section. 1 when written, 0 when
 * dropped (stopped, or the record is larger than the buffer). */
static int trx_uia_snap_record(trx_uia_logger *lg, const trx_uia_snap_fields *f, const UCHAR *data,
                               ULONG address, ULONG n)
{
    const ULONG words = TRX_UIA_SNAP_HEAD_WORDS + (n + 3UL) / 4UL;
    ULONG *p = lg->write;
    UCHAR *bytes;
    ULONG i, hdr, lo, hi;

    if (lg->limit == lg->scratch) { /* stopped */
        trx_uia_count_drop_(lg);
        return 0;
    }
    if ((ULONG)(lg->limit - p) < words) {
        if (lg->policy == TRX_UIA_POLICY_STOP) {
            trx_uia_stop_(lg, p);
            trx_uia_count_drop_(lg);
            return 0;
        }
        if ((ULONG)(lg->limit - lg->start) <
            words + (lg->policy == TRX_UIA_POLICY_STREAM ? TRX_STREAM_FRAME_WORDS : 0UL)) {
            trx_uia_count_drop_(lg);
            return 0;
        }
        if (lg->policy == TRX_UIA_POLICY_STREAM) {
            trx_stream_commit_(lg, p); /* the record opens the next packet */
        } else {
            trx_uia_wrap_(lg, p);
        }
        p = lg->write;
    }
    hdr = lg->next_hdr;
    trx_uia_time_(lg, &lo, &hi);
    p[0] = trx_uia_header_(hdr, TRX_UIA_TYPE_SNAPSHOT, 4UL * words);
#if TRX_UIA_TIMESTAMP_BITS != 0
    p[1] = lo; /* 32-bit timestamps: the same clock, high word 0 */
    p[2] = hi;
#else
    (void)lo;
    (void)hi;
#endif
    p[1 + TRX_UIA_SNAP_TS_WORDS] = f->event_word;
    p[2 + TRX_UIA_SNAP_TS_WORDS] = f->file_ptr;
    p[3 + TRX_UIA_SNAP_TS_WORDS] = f->line;
    p[4 + TRX_UIA_SNAP_TS_WORDS] = f->snapshot_id;
    p[5 + TRX_UIA_SNAP_TS_WORDS] = address;
    p[6 + TRX_UIA_SNAP_TS_WORDS] = (n << 16) | f->total;
    p[7 + TRX_UIA_SNAP_TS_WORDS] = f->fmt_ptr;
    bytes = (UCHAR *)(p + TRX_UIA_SNAP_HEAD_WORDS);
    for (i = 0; i < n; i++) {
        bytes[i] = data[i];
    }
    for (; (i & 3UL) != 0UL; i++) {
        bytes[i] = 0U;
    }
    trx_uia_close_(lg, p + words, 4UL * words, hdr);
    return 1;
}

#endif

UINT trx_uia_snapshot_write(trx_uia_logger *logger, ULONG event_word, ULONG snapshot_id,
                            ULONG file_ptr, ULONG line, ULONG fmt_ptr, const VOID *data,
                            ULONG length)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    trx_uia_snap_fields f;
    const UCHAR *src = (const UCHAR *)data;
    ULONG done = 0UL;
    UINT status = TX_SUCCESS;

    if (length > 0xFFFFUL) {
        return TX_SIZE_ERROR;
    }
    f.event_word = event_word;
    f.snapshot_id = snapshot_id;
    f.file_ptr = file_ptr;
    f.line = line;
    f.fmt_ptr = fmt_ptr;
    f.total = length;
    do { /* a 0-byte snapshot is one record without data */
        ULONG n = length - done < TRX_UIA_SNAP_CHUNK ? length - done : TRX_UIA_SNAP_CHUNK;
        TRX_INTERRUPT_SAVE_AREA
        TRX_DISABLE
        if (logger->enabled == 0UL) {
            status = TX_NOT_DONE;
        } else if (!trx_uia_snap_record(logger, &f, src + done, TRX_ADDRESS_WORD(src) + done, n)) {
            status = TX_NOT_DONE;
        }
        TRX_RESTORE
        if (logger->enabled == 0UL) {
            return TX_NOT_DONE;
        }
        done += n;
    } while (done < length);
    return status;
#else
    (void)logger;
    (void)event_word;
    (void)snapshot_id;
    (void)file_ptr;
    (void)line;
    (void)fmt_ptr;
    (void)data;
    (void)length;
    return TX_FEATURE_NOT_ENABLED;
#endif
}

UINT trx_uia_snapshot_memory(trx_uia_logger *logger, ULONG snapshot_id, const VOID *data,
                             ULONG length)
{
    return trx_uia_snapshot_write(logger,
                                  (TRX_UIA_EVENT_SNAPSHOT_MEMORY << 16) | TRX_UIA_MODULE_RECORDER,
                                  snapshot_id, 0UL, 0UL, 0UL, data, length);
}

UINT trx_uia_snapshot_string(trx_uia_logger *logger, ULONG snapshot_id, const CHAR *string,
                             ULONG length)
{
    if (length == 0UL && string != NULL) {
        while (length < 0xFFFFUL && string[length] != '\0') {
            length++;
        }
    }
    return trx_uia_snapshot_write(logger,
                                  (TRX_UIA_EVENT_SNAPSHOT_STRING << 16) | TRX_UIA_MODULE_RECORDER,
                                  snapshot_id, 0UL, 0UL, 0UL, string, length);
}
