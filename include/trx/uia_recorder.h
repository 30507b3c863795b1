/*
 * uia_recorder.h - the trx recorder's second output format: TI UIA event
 * records (variable length, 8 bytes and up) in a buffer that starts with a
 * 16-byte big-endian UIAPacket EventPkt header. Freestanding C99, same
 * configuration style as the TXTB recorder (recorder.h): macros with
 * defaults, a port header, the same critical section.
 *
 * A logger (trx_uia_logger) owns one buffer. Records carry 0, 1, 2, 4 or 8
 * argument words (trx_uia_write0..8), or a memory range / string split over
 * snapshot records (trx_uia_snapshot*). After every record the writer stores
 * a zero-length type-8 terminator at the write position (not advancing), so
 * a halted buffer can be walked back along the PrevLen chain. Two policies:
 * wrap (overwrite the oldest) and stop when full (count dropped records).
 * The exact byte layout is in docs/uia-format.md.
 *
 * RTOS hooks: build the firmware with TRX_RECORDER_FORMAT_UIA=1 and the
 * hooks of rtos_hooks.h (TRX_TRACE_EVENT, TRX_HOOK_*) record the same events
 * as UIA records: event id = the TXTB event id, module TRX_UIA_MODULE_TX,
 * arguments = the four info words without trailing zero words.
 *
 * Several cores: one logger per core (TRX_UIA_HOOK_LOGGER() picks the
 * inserting core's), each written under that core's own interrupt mask, so
 * no state is shared between cores and no lock is taken.
 */
#ifndef TRX_UIA_RECORDER_H
#define TRX_UIA_RECORDER_H

#include <stddef.h>
#include <stdint.h>

#include "trx/recorder.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ============================================================ configuration */

/* Timestamp of each record: 64 (two words, low first), 32 (one word; PrevLen
 * records only, HdrType 9) or 0 (none). */
#ifndef TRX_UIA_TIMESTAMP_BITS
#define TRX_UIA_TIMESTAMP_BITS 64
#endif

/* 1: PrevLen records (HdrType 8/9/10, snapshots 11/12; 5-bit sequence, the
 * previous record's length in each header). 0: standard records (HdrType
 * 0/1, snapshots 2/3; 16-bit sequence). */
#ifndef TRX_UIA_PREVLEN
#define TRX_UIA_PREVLEN 1
#endif

/* Largest snapshot record in bytes (header words included): a multiple of 4
 * from 64 to 2044. TI's loggers default to 512 (maxEventSize). */
#ifndef TRX_UIA_MAX_RECORD_BYTES
#define TRX_UIA_MAX_RECORD_BYTES 512
#endif

/* Time source. TRX_UIA_TIME_SOURCE64 (if defined): a 64-bit counter, used
 * as it is. Otherwise the 32-bit TRX_UIA_TIME_SOURCE (default: the TXTB
 * recorder's TX_TRACE_TIME_SOURCE) with TRX_UIA_TIME_MASK valid bits
 * (default: TX_TRACE_TIME_MASK, else 0xFFFFFFFF; 2^n - 1), which the writer
 * extends to 64 bits, counting the wraps seen between records (at least one
 * record per counter period). A counter narrower than 32 bits (the raw 24-bit
 * SysTick, TX_TRACE_TIME_MASK 0x00FFFFFF) is extended the same way, so 32-bit
 * timestamps also wrap at 2^32 as the decoder expects. */
#ifndef TRX_UIA_TIME_SOURCE
#if defined(TX_TRACE_TIME_SOURCE)
#define TRX_UIA_TIME_SOURCE (TX_TRACE_TIME_SOURCE)
#else
#define TRX_UIA_TIME_SOURCE (++trx_uia_simulated_time)
#endif
#endif

#ifndef TRX_UIA_TIME_MASK
#if defined(TX_TRACE_TIME_MASK)
#define TRX_UIA_TIME_MASK (TX_TRACE_TIME_MASK)
#else
#define TRX_UIA_TIME_MASK 0xFFFFFFFFUL
#endif
#endif

/* The logger the RTOS hooks write to (one per core on SMP: e.g.
 * (&my_loggers[core_id()])). */
#ifndef TRX_UIA_HOOK_LOGGER
#define TRX_UIA_HOOK_LOGGER() (&trx_uia_default_logger)
#endif

#if TRX_UIA_TIMESTAMP_BITS != 0 && TRX_UIA_TIMESTAMP_BITS != 32 && TRX_UIA_TIMESTAMP_BITS != 64
#error "trx uia recorder: TRX_UIA_TIMESTAMP_BITS must be 0, 32 or 64"
#endif
#if TRX_UIA_TIMESTAMP_BITS == 32 && !TRX_UIA_PREVLEN
#error "trx uia recorder: 32-bit timestamps exist only for PrevLen records (TRX_UIA_PREVLEN 1)"
#endif
#if (TRX_UIA_MAX_RECORD_BYTES % 4) != 0 || TRX_UIA_MAX_RECORD_BYTES < 64 ||                        \
    TRX_UIA_MAX_RECORD_BYTES > 2044
#error "trx uia recorder: TRX_UIA_MAX_RECORD_BYTES must be a multiple of 4 from 64 to 2044"
#endif
#if ((TRX_UIA_TIME_MASK) & ((TRX_UIA_TIME_MASK) + 1UL)) != 0UL || (TRX_UIA_TIME_MASK) == 0UL
#error "trx uia recorder: TRX_UIA_TIME_MASK (default TX_TRACE_TIME_MASK) must be 2^n - 1, n = 1..32"
#endif

/* ================================================================ layout */

/* Record header types (EventHdr HdrType, bits 31..27 of word 0). */
#define TRX_UIA_HDR_EVENT 0U               /* std, no timestamp */
#define TRX_UIA_HDR_EVENT_TS64 1U          /* std, 64-bit timestamp */
#define TRX_UIA_HDR_SNAPSHOT 2U            /* std snapshot, no timestamp */
#define TRX_UIA_HDR_SNAPSHOT_TS64 3U       /* std snapshot, 64-bit timestamp */
#define TRX_UIA_HDR_PREVLEN 8U             /* PrevLen, no timestamp; length 0 = terminator */
#define TRX_UIA_HDR_PREVLEN_TS32 9U        /* PrevLen, 32-bit timestamp */
#define TRX_UIA_HDR_PREVLEN_TS64 10U       /* PrevLen, 64-bit timestamp */
#define TRX_UIA_HDR_PREVLEN_SNAPSHOT 11U   /* PrevLen snapshot, no timestamp */
#define TRX_UIA_HDR_PREVLEN_SNAPSHOT64 12U /* PrevLen snapshot, 64-bit timestamp */

/* Header word 0 from its fields (the EventHdr definition). */
#define TRX_UIA_STD_WORD(type, bytes, seq16)                                                       \
    ((((ULONG)(type)&0x1FUL) << 27) | (((ULONG)(bytes)&0x7FFUL) << 16) | ((ULONG)(seq16)&0xFFFFUL))
#define TRX_UIA_PREVLEN_WORD(type, bytes, prev_bytes, seq5)                                        \
    ((((ULONG)(type)&0x1FUL) << 27) | (((ULONG)(bytes)&0x7FFUL) << 16) |                           \
     (((ULONG)(prev_bytes)&0x7FFUL) << 5) | ((ULONG)(seq5)&0x1FUL))

/* UIAPacket header (16 bytes, big-endian): EventPkt type in word 1. */
#define TRX_UIA_PACKET_BYTES 16UL
#define TRX_UIA_PACKET_EVENTPKT 10UL
#define TRX_UIA_PACKET_HOST 0xFFFFUL /* destination address: the host */

/* Module ids (event word = event id << 16 | module id). */
#define TRX_UIA_MODULE_TX 0x5458UL       /* "TX": TXTB event ids (kernel hooks, user events) */
#define TRX_UIA_MODULE_RECORDER 0x5452UL /* "TR": the recorder's own records (below) */
/* Event ids of module TRX_UIA_MODULE_RECORDER. */
#define TRX_UIA_EVENT_DROPPED 1UL         /* stop policy: arg 0 = records dropped since full */
#define TRX_UIA_EVENT_SNAPSHOT_MEMORY 2UL /* trx_uia_snapshot_memory */
#define TRX_UIA_EVENT_SNAPSHOT_STRING 3UL /* trx_uia_snapshot_string */

/* Buffer policies. */
#define TRX_UIA_POLICY_WRAP 0U   /* overwrite the oldest records */
#define TRX_UIA_POLICY_STOP 1U   /* keep the first records, count the dropped ones */
#define TRX_UIA_POLICY_STREAM 2U /* packets out through a ring (stream_recorder.h) */

/* Derived sizes (words). */
#define TRX_UIA_TS_WORDS (TRX_UIA_TIMESTAMP_BITS / 32)
#define TRX_UIA_HEAD_WORDS (2 + TRX_UIA_TS_WORDS)        /* header, timestamp, event word */
#define TRX_UIA_SLACK_WORDS (TRX_UIA_HEAD_WORDS + 8 + 1) /* largest record + terminator */
#define TRX_UIA_SNAP_TS_WORDS (TRX_UIA_TIMESTAMP_BITS ? 2 : 0)
#define TRX_UIA_SNAP_HEAD_WORDS (8 + TRX_UIA_SNAP_TS_WORDS) /* header..format pointer */

#if TRX_UIA_PREVLEN
#define TRX_UIA_TYPE_EVENT                                                                         \
    (TRX_UIA_TIMESTAMP_BITS == 64   ? TRX_UIA_HDR_PREVLEN_TS64                                     \
     : TRX_UIA_TIMESTAMP_BITS == 32 ? TRX_UIA_HDR_PREVLEN_TS32                                     \
                                    : TRX_UIA_HDR_PREVLEN)
#define TRX_UIA_TYPE_SNAPSHOT                                                                      \
    (TRX_UIA_TIMESTAMP_BITS ? TRX_UIA_HDR_PREVLEN_SNAPSHOT64 : TRX_UIA_HDR_PREVLEN_SNAPSHOT)
#else
#define TRX_UIA_TYPE_EVENT (TRX_UIA_TIMESTAMP_BITS ? TRX_UIA_HDR_EVENT_TS64 : TRX_UIA_HDR_EVENT)
#define TRX_UIA_TYPE_SNAPSHOT                                                                      \
    (TRX_UIA_TIMESTAMP_BITS ? TRX_UIA_HDR_SNAPSHOT_TS64 : TRX_UIA_HDR_SNAPSHOT)
#endif

/* ========================================================= logger state */

/* One UIA buffer and its writer. Public only so that the inline writers can
 * reach it; set it up with trx_uia_enable, never write it from outside. */
typedef struct trx_uia_logger {
    ULONG *write;      /* next record (holds the terminator) */
    ULONG next_hdr;    /* header word of the next event record, length 0 (see advance_) */
    ULONG *limit;      /* a record starting at or below it fits, with its terminator */
    ULONG active_bits; /* event groups recorded now (filter bits), 0 when off */
    ULONG pad_;        /* keeps `time` 8-byte aligned on 32-bit targets (one ldrd/strd) */
    uint64_t time;     /* 64-bit extension of a 32-bit time source: the last timestamp */
    ULONG *buffer;     /* the packet header */
    ULONG *start;      /* first record */
    ULONG *end;        /* just past the buffer */
    ULONG policy;
    ULONG filter_bits;
    ULONG enabled;
    ULONG dropped;     /* records dropped (stop policy full, or too big for the buffer) */
    ULONG packet_seq;  /* wraps so far (packet header word 2, high half) */
    ULONG pass_seq16;  /* sequence number of the current pass's first record (seq5 / seq16) */
    ULONG *marker;     /* stop policy when full: the dropped count in the buffer */
    ULONG isr_nesting; /* ISR hooks without TRX_PORT_SYSTEM_STATE */
    ULONG sender;      /* packet header: source address (the core) */
    ULONG big_endian;  /* payload byte order, found at enable */
    ULONG scratch[TRX_UIA_SLACK_WORDS]; /* stop policy when full: records land here */
    VOID *ring;                         /* stream policy: the trx_stream_ring its packets go to */
    ULONG session;                      /* stream policy: the session value of its packets */
    ULONG reported; /* stream policy: `dropped` as the last packet in the ring said */
} trx_uia_logger;

extern trx_uia_logger trx_uia_default_logger;
extern ULONG trx_uia_simulated_time; /* default time source without TX_TRACE_TIME_SOURCE */

/* ============================================================ the calls */

/* Lays out `buffer` (4-byte aligned, `size` bytes, at most 2^27 - 1) as one
 * UIAPacket and starts recording every group: `policy` TRX_UIA_POLICY_WRAP
 * or _STOP, `sender` the packet's source address, which is also the logger
 * instance id (the core number), or TRX_UIA_SENDER(core, instance) for one
 * of several loggers of a core (they share the core's clock and time axis). TX_SUCCESS;
 * TX_PTR_ERROR for a NULL or misaligned buffer; TX_SIZE_ERROR when too small (trx_uia_min_size) or
 * too large or the policy is unknown; TX_NOT_DONE when already enabled; TX_FEATURE_NOT_ENABLED
 * without TX_ENABLE_EVENT_TRACE. */
UINT trx_uia_enable(trx_uia_logger *logger, VOID *buffer, ULONG size, UINT policy, ULONG sender);

/* The `sender` of trx_uia_enable for logger instance `instance` (0-32766)
 * of core `core` (source address 0-32767). */
#define TRX_UIA_SENDER(core, instance)                                                             \
    (((((ULONG)(instance)) + 1UL) << 16) | ((ULONG)(core)&0x7FFFUL))

/* Smallest buffer trx_uia_enable accepts for `policy`, in bytes. */
ULONG trx_uia_min_size(UINT policy);

/* Stops recording (the buffer keeps its contents). TX_NOT_DONE when off. */
UINT trx_uia_disable(trx_uia_logger *logger);

/* Clears / sets event groups (TX_TRACE_*_EVENTS bits) of the hook records. */
UINT trx_uia_event_filter(trx_uia_logger *logger, ULONG event_filter_bits);
UINT trx_uia_event_unfilter(trx_uia_logger *logger, ULONG event_unfilter_bits);

/* Records dropped so far (stop policy after the buffer filled, or snapshot
 * records larger than the buffer). */
ULONG trx_uia_dropped(const trx_uia_logger *logger);

/* Bytes of the buffer in use: packet header + records + terminator (the
 * whole buffer once it wrapped). */
ULONG trx_uia_used_bytes(const trx_uia_logger *logger);

/* A snapshot: `length` bytes (at most 65535) at `data` as records of
 * TRX_UIA_TYPE_SNAPSHOT with the given event word, snapshot id, file name
 * pointer, line and format pointer, split into records of at most
 * TRX_UIA_MAX_RECORD_BYTES (this record's length in the high half of the
 * lengths word, the total in the low half, the address advancing). Each
 * record is written under the critical section on its own. TX_SUCCESS;
 * TX_NOT_DONE when off or a record was dropped; TX_SIZE_ERROR when
 * length > 65535. */
UINT trx_uia_snapshot_write(trx_uia_logger *logger, ULONG event_word, ULONG snapshot_id,
                            ULONG file_ptr, ULONG line, ULONG fmt_ptr, const VOID *data,
                            ULONG length);

/* Memory range / string snapshot with the recorder's own event ids. A
 * string's length is counted up to its NUL when `length` is 0. */
UINT trx_uia_snapshot_memory(trx_uia_logger *logger, ULONG snapshot_id, const VOID *data,
                             ULONG length);
UINT trx_uia_snapshot_string(trx_uia_logger *logger, ULONG snapshot_id, const CHAR *string,
                             ULONG length);

/* The RTOS hooks in UIA builds (TRX_RECORDER_FORMAT_UIA=1): ISR ENTER / EXIT
 * (info words as the TXTB recorder: stack pointer, ISR id, nesting level,
 * preempt-disable) and user events, into TRX_UIA_HOOK_LOGGER(). The user
 * event returns TX_SUCCESS, or TX_NOT_DONE when the logger is off. */
VOID trx_uia_isr_enter_insert(ULONG isr_id);
VOID trx_uia_isr_exit_insert(ULONG isr_id);
UINT trx_uia_user_event_insert(ULONG event_id, ULONG info_1, ULONG info_2, ULONG info_3,
                               ULONG info_4);

/* Out-of-line end of a record that passed the limit: wrap or stop. */
VOID trx_uia_finish_(trx_uia_logger *logger, ULONG *next);

/* ------------------------------------------------------ the hot path */

/* After a record of `bytes`: returns the next event record's header word
 * (length 0: type, and PrevLen = bytes with the next seq5, or the next
 * seq16) and sets *terminator: type 8, length 0, PrevLen = bytes, next seq5. */
static inline ULONG trx_uia_advance_(ULONG hdr, ULONG bytes, ULONG *terminator)
{
#if TRX_UIA_PREVLEN
    /* seq5 + 1 may carry into the PrevLen field, which is replaced anyway */
    ULONG next = ((hdr + 1UL) & ~0xFFE0UL) | (bytes << 5);
    *terminator = next - (((ULONG)TRX_UIA_TYPE_EVENT - TRX_UIA_HDR_PREVLEN) << 27);
    return next;
#else
    ULONG seq = (hdr + 1UL) & 0xFFFFUL;
    *terminator = (TRX_UIA_HDR_PREVLEN << 27) | (bytes << 5) | (seq & 0x1FUL);
    return ((ULONG)TRX_UIA_TYPE_EVENT << 27) | seq;
#endif
}

/* Header word 0 of a record of `type` and `bytes`, from the logger's
 * next_hdr value `hdr`. */
static inline ULONG trx_uia_header_(ULONG hdr, ULONG type, ULONG bytes)
{
    if (type == (ULONG)TRX_UIA_TYPE_EVENT) {
        return hdr | (bytes << 16);
    }
    return (type << 27) | (bytes << 16) | (hdr & 0xFFFFUL);
}

#if (TRX_UIA_TIME_MASK) != 0xFFFFFFFFUL
/* A counter narrower than 32 bits, extended: the last timestamp's bits
 * above the mask, plus one counter period when the counter went backwards. */
static inline uint64_t trx_uia_time_narrow_(trx_uia_logger *lg)
{
    const uint64_t mask = (uint64_t)(TRX_UIA_TIME_MASK);
    uint64_t last = lg->time;
    uint64_t t = (uint64_t)((ULONG)(TRX_UIA_TIME_SOURCE) & (ULONG)(TRX_UIA_TIME_MASK));
    uint64_t ext = (last & ~mask) | t;
    if (t < (last & mask)) {
        ext += mask + 1U;
    }
    lg->time = ext;
    return ext;
}
#endif

/* Reads the time source: *lo, and *hi for 64-bit timestamps (0 otherwise). */
static inline VOID trx_uia_time_(trx_uia_logger *lg, ULONG *lo, ULONG *hi)
{
#if TRX_UIA_TIMESTAMP_BITS == 64
#if defined(TRX_UIA_TIME_SOURCE64)
    uint64_t t = (uint64_t)(TRX_UIA_TIME_SOURCE64);
    (void)lg;
    *lo = (ULONG)t;
    *hi = (ULONG)(t >> 32);
#elif (TRX_UIA_TIME_MASK) == 0xFFFFFFFFUL
    ULONG t = (ULONG)(TRX_UIA_TIME_SOURCE);
    uint64_t last = lg->time;
    ULONG h = (ULONG)(last >> 32) + (t < (ULONG)last ? 1UL : 0UL);
    lg->time = ((uint64_t)h << 32) | t;
    *lo = t;
    *hi = h;
#else
    uint64_t t = trx_uia_time_narrow_(lg);
    *lo = (ULONG)t;
    *hi = (ULONG)(t >> 32);
#endif
#elif TRX_UIA_TIMESTAMP_BITS == 32
#if (TRX_UIA_TIME_MASK) == 0xFFFFFFFFUL
    (void)lg;
    *lo = (ULONG)(TRX_UIA_TIME_SOURCE);
#else
    *lo = (ULONG)trx_uia_time_narrow_(lg);
#endif
    *hi = 0UL;
#else
    (void)lg;
    *lo = 0UL;
    *hi = 0UL;
#endif
}

/* Writes header word, timestamp (lo, hi: as trx_uia_time_ gives them) and
 * event word of a record of `bytes` at the write position; *hdr = the
 * next_hdr value it used. Returns where its first argument goes. (State is
 * read before the buffer is written, so the compiler need not reload it.) */
static inline ULONG *trx_uia_open_at_(trx_uia_logger *lg, ULONG type, ULONG bytes, ULONG event_word,
                                      ULONG lo, ULONG hi, ULONG *hdr)
{
    ULONG *p = lg->write;
    ULONG h = lg->next_hdr;
    p[0] = trx_uia_header_(h, type, bytes);
#if TRX_UIA_TIMESTAMP_BITS == 64
    p[1] = lo;
    p[2] = hi;
#elif TRX_UIA_TIMESTAMP_BITS == 32
    p[1] = lo;
    (void)hi;
#else
    (void)lo;
    (void)hi;
#endif
    p[1 + TRX_UIA_TS_WORDS] = event_word;
    *hdr = h;
    return p + TRX_UIA_HEAD_WORDS;
}

/* trx_uia_open_at_ with the time source's time now. */
static inline ULONG *trx_uia_open_(trx_uia_logger *lg, ULONG type, ULONG bytes, ULONG event_word,
                                   ULONG *hdr)
{
    ULONG lo, hi;
    trx_uia_time_(lg, &lo, &hi);
    return trx_uia_open_at_(lg, type, bytes, event_word, lo, hi, hdr);
}

/* Ends a record of `bytes` (header value `hdr` from open_) whose last word
 * is just before `next`: stores the terminator at `next`, advances the
 * sequence, moves the write position, and wraps / stops out of line when it
 * passed the limit. */
static inline VOID trx_uia_close_(trx_uia_logger *lg, ULONG *next, ULONG bytes, ULONG hdr)
{
    ULONG terminator;
    lg->next_hdr = trx_uia_advance_(hdr, bytes, &terminator);
    *next = terminator;
    lg->write = next;
    if (TRX_UNLIKELY(next > lg->limit)) {
        trx_uia_finish_(lg, next);
    }
}

/* trx_uia_writeN_locked: one record with N argument words; the caller holds
 * the critical section and has checked that the logger records. */
static inline VOID trx_uia_write0_locked(trx_uia_logger *lg, ULONG event_word)
{
    ULONG hdr;
    ULONG *a = trx_uia_open_(lg, TRX_UIA_TYPE_EVENT, 4UL * TRX_UIA_HEAD_WORDS, event_word, &hdr);
    trx_uia_close_(lg, a, 4UL * TRX_UIA_HEAD_WORDS, hdr);
}

static inline VOID trx_uia_write1_locked(trx_uia_logger *lg, ULONG event_word, ULONG a1)
{
    ULONG hdr;
    ULONG *a =
        trx_uia_open_(lg, TRX_UIA_TYPE_EVENT, 4UL * (TRX_UIA_HEAD_WORDS + 1), event_word, &hdr);
    a[0] = a1;
    trx_uia_close_(lg, a + 1, 4UL * (TRX_UIA_HEAD_WORDS + 1), hdr);
}

static inline VOID trx_uia_write2_locked(trx_uia_logger *lg, ULONG event_word, ULONG a1, ULONG a2)
{
    ULONG hdr;
    ULONG *a =
        trx_uia_open_(lg, TRX_UIA_TYPE_EVENT, 4UL * (TRX_UIA_HEAD_WORDS + 2), event_word, &hdr);
    a[0] = a1;
    a[1] = a2;
    trx_uia_close_(lg, a + 2, 4UL * (TRX_UIA_HEAD_WORDS + 2), hdr);
}

static inline VOID trx_uia_write4_locked(trx_uia_logger *lg, ULONG event_word, ULONG a1, ULONG a2,
                                         ULONG a3, ULONG a4)
{
    ULONG hdr;
    ULONG *a =
        trx_uia_open_(lg, TRX_UIA_TYPE_EVENT, 4UL * (TRX_UIA_HEAD_WORDS + 4), event_word, &hdr);
    a[0] = a1;
    a[1] = a2;
    a[2] = a3;
    a[3] = a4;
    trx_uia_close_(lg, a + 4, 4UL * (TRX_UIA_HEAD_WORDS + 4), hdr);
}

static inline VOID trx_uia_write8_locked(trx_uia_logger *lg, ULONG event_word, ULONG a1, ULONG a2,
                                         ULONG a3, ULONG a4, ULONG a5, ULONG a6, ULONG a7, ULONG a8)
{
    ULONG hdr;
    ULONG *a =
        trx_uia_open_(lg, TRX_UIA_TYPE_EVENT, 4UL * (TRX_UIA_HEAD_WORDS + 8), event_word, &hdr);
    a[0] = a1;
    a[1] = a2;
    a[2] = a3;
    a[3] = a4;
    a[4] = a5;
    a[5] = a6;
    a[6] = a7;
    a[7] = a8;
    trx_uia_close_(lg, a + 8, 4UL * (TRX_UIA_HEAD_WORDS + 8), hdr);
}

/* trx_uia_writeN: the same under the critical section, skipped when the
 * logger is off or `group` is filtered out (pass 0xFFFFFFFF for "always").
 * Event word = event id << 16 | module id. */
static inline VOID trx_uia_write0(trx_uia_logger *lg, ULONG event_word, ULONG group)
{
    TRX_INTERRUPT_SAVE_AREA
    TRX_DISABLE
    if (TRX_LIKELY(lg->active_bits & group)) {
        trx_uia_write0_locked(lg, event_word);
    }
    TRX_RESTORE
}

static inline VOID trx_uia_write1(trx_uia_logger *lg, ULONG event_word, ULONG a1, ULONG group)
{
    TRX_INTERRUPT_SAVE_AREA
    TRX_DISABLE
    if (TRX_LIKELY(lg->active_bits & group)) {
        trx_uia_write1_locked(lg, event_word, a1);
    }
    TRX_RESTORE
}

static inline VOID trx_uia_write2(trx_uia_logger *lg, ULONG event_word, ULONG a1, ULONG a2,
                                  ULONG group)
{
    TRX_INTERRUPT_SAVE_AREA
    TRX_DISABLE
    if (TRX_LIKELY(lg->active_bits & group)) {
        trx_uia_write2_locked(lg, event_word, a1, a2);
    }
    TRX_RESTORE
}

static inline VOID trx_uia_write4(trx_uia_logger *lg, ULONG event_word, ULONG a1, ULONG a2,
                                  ULONG a3, ULONG a4, ULONG group)
{
    TRX_INTERRUPT_SAVE_AREA
    TRX_DISABLE
    if (TRX_LIKELY(lg->active_bits & group)) {
        trx_uia_write4_locked(lg, event_word, a1, a2, a3, a4);
    }
    TRX_RESTORE
}

static inline VOID trx_uia_write8(trx_uia_logger *lg, ULONG event_word, ULONG a1, ULONG a2,
                                  ULONG a3, ULONG a4, ULONG a5, ULONG a6, ULONG a7, ULONG a8,
                                  ULONG group)
{
    TRX_INTERRUPT_SAVE_AREA
    TRX_DISABLE
    if (TRX_LIKELY(lg->active_bits & group)) {
        trx_uia_write8_locked(lg, event_word, a1, a2, a3, a4, a5, a6, a7, a8);
    }
    TRX_RESTORE
}

/* A hook event as a UIA record (critical section held, group checked):
 * event word = id << 16 | TRX_UIA_MODULE_TX, arguments = the info words up
 * to the last non-zero one (a reader pads the missing ones with zeros). */
static inline VOID trx_uia_hook_locked(trx_uia_logger *lg, ULONG id, ULONG i1, ULONG i2, ULONG i3,
                                       ULONG i4)
{
    const ULONG evt = (id << 16) | TRX_UIA_MODULE_TX;
    ULONG n = i4 ? 4UL : i3 ? 3UL : i2 ? 2UL : i1 ? 1UL : 0UL;
    ULONG bytes = 4UL * (TRX_UIA_HEAD_WORDS + n);
    ULONG hdr;
    ULONG *a = trx_uia_open_(lg, TRX_UIA_TYPE_EVENT, bytes, evt, &hdr);
    a[0] = i1; /* always room: the slack holds 8 argument words */
    a[1] = i2;
    a[2] = i3;
    a[3] = i4;
    trx_uia_close_(lg, a + n, bytes, hdr);
}

/* The hook for RTOS code in UIA builds (what TRX_TRACE_EVENT expands to). */
static inline VOID trx_uia_hook_event(trx_uia_logger *lg, ULONG id, ULONG i1, ULONG i2, ULONG i3,
                                      ULONG i4, ULONG group)
{
    TRX_INTERRUPT_SAVE_AREA
    TRX_DISABLE
    if (TRX_LIKELY(lg->active_bits & group)) {
        trx_uia_hook_locked(lg, id, i1, i2, i3, i4);
    }
    TRX_RESTORE
}

#ifdef __cplusplus
}
#endif
#endif /* TRX_UIA_RECORDER_H */
