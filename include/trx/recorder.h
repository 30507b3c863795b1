/*
 * recorder.h - the trx target recorder beyond the seed tx_trace_* API:
 * configuration macros (ThreadX style, with defaults), the TXTB layout
 * structs, the hot-path insert used by RTOS hooks, the object registry and
 * the running-context hooks. Freestanding C99: no libc, no malloc.
 *
 * Configuration: define the macros below with -D, or put them in a header
 * named by TRX_RECORDER_PORT_HEADER (like ThreadX's tx_port.h). The recorder
 * library and every file that includes this header must see the same values.
 *
 * Host builds (tests, benchmarks) store the low 32 bits of every address in
 * the buffer, because the TXTB format holds 32-bit target pointers.
 *
 * A halt inside an insert (a debugger stops the target at any instruction,
 * or a core dies) leaves a buffer the host still reads right; the host
 * (`trx`, the salvaging view; see docs/salvage.md) skips and reports the one
 * unfinished entry and lists every complete one, oldest first. Slot k is the
 * entry being written, H the header's oldest pointer (k before the insert).
 *
 * Critical-section mode, stores in order (trx_recorder_put_ below):
 *   before 1     nothing changed.
 *   1 thread word of k = 0
 *                wrapped: k (the oldest entry) loses its meaning: "half-written"
 *                (or "empty" if its other words are 0); the rest is listed from
 *                k+1. Not wrapped: k was empty already; nothing to report.
 *   2 H = k+1 (0 after the last entry)
 *                k is now the newest position with thread word 0: "half-written"
 *                ("empty" before the first lap); H names the right oldest entry.
 *   3-9 priority, id, time stamp, info 1-4
 *                same: thread word still 0, "half-written".
 *   10 thread word = context
 *                the entry is complete and listed as the newest.
 *   then the full-notify callback when k was the last entry.
 * A halt in the last entry of a buffer that had never wrapped, between
 * stores 1 and 2, reads as "not wrapped" (both states are the same bytes);
 * the entries and their order are right either way.
 *
 * Lock-free mode (trx_trace_insert_lockfree.c):
 *   1 compare-and-swap H: k -> k+1 (the claim)
 *                wrapped: k still holds the previous lap's entry, now at the
 *                newest position and older than the oldest: "stale" when the
 *                timer decides (the other entries span less than half its
 *                range and its time stamp fits before the oldest entry's),
 *                else listed as the newest entry. Not wrapped: k is "empty".
 *   2 thread word of k = 0      "half-written"
 *   3-9 the other seven words   "half-written"
 *   10 thread word = context (release)   complete.
 *   then the full-notify callback when k was the last entry.
 * Several cores halted mid-insert leave one such entry each. A writer stalled
 * for a whole lap (a core stopped, an NMI) while another claims the same slot
 * again mixes the two entries: TRX_RECORDER_ENTRY_CHECK (on by default in
 * this mode) makes the host report it as "torn". If the stalled writer's
 * stores all land after the other's, the slot holds its complete, older
 * entry: listed in its place, its time stamp out of order.
 *
 * The full-notify callback (tx_trace_buffer_full_notify) runs once per wrap,
 * on the writer that filled the last entry, after its entry is complete. In
 * critical-section mode it runs inside that insert's critical section, so
 * never twice at once. In lock-free mode it runs with only that core's
 * interrupts masked while other cores keep inserting: if the buffer wraps
 * again before it returns (a small buffer, a slow callback), the next wrap's
 * callback runs at the same time on another core. Make it reentrant (e.g.
 * count wraps with an atomic increment) and do not assume the buffer is
 * still full when it runs.
 */
#ifndef TRX_RECORDER_H
#define TRX_RECORDER_H

#include <stddef.h>
#include <stdint.h>

/* The port: TRX_RECORDER_PORT_HEADER names a header (with its quotes:
 * '-DTRX_RECORDER_PORT_HEADER="trx_port_cortex_m.h"'), or one of
 * TRX_PORT_CORTEX_M, TRX_PORT_CORTEX_M0, TRX_PORT_RISCV32 set to 1 picks a
 * ready port with no quotes to lose in a Makefile or shell. Either way the
 * compiler needs -I recorder/port. */
#if defined(TRX_RECORDER_PORT_HEADER)
#include TRX_RECORDER_PORT_HEADER
#elif defined(TRX_PORT_CORTEX_M) && TRX_PORT_CORTEX_M
#include "trx_port_cortex_m.h"
#elif defined(TRX_PORT_CORTEX_M0) && TRX_PORT_CORTEX_M0
#include "trx_port_cortex_m0.h"
#elif defined(TRX_PORT_RISCV32) && TRX_PORT_RISCV32
#include "trx_port_riscv32.h"
#endif

#include "entry_check.h"
#include "tx_trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ============================================================ configuration */

/* 1: concurrent inserts from several cores without a critical section
 * (needs C11 <stdatomic.h> when building the recorder). 0: ThreadX-style
 * inserts inside TRX_DISABLE / TRX_RESTORE. */
#ifndef TRX_RECORDER_LOCKFREE
#define TRX_RECORDER_LOCKFREE 0
#endif

/* 1: every entry carries an 8-bit check value (entry_check.h) in bits
 * 16-23 of its event-id word, and the header's reserved1 says so
 * (TRX_ENTRY_CHECK_MARK), so that the host tells a torn entry - the halves of
 * two writers' entries in one slot - from an intact one. TraceX masks ids
 * with 0xFFFF: it opens such buffers and shows the same events; only its
 * dump's "Raw Event" column shows the check bits. Costs a few instructions
 * per insert (8 multiplications). Default: on in lock-free mode (the only
 * mode where two writers can share a slot), off otherwise. An event id's
 * own bits 16-23 are replaced (ThreadX ids are 16-bit; SMP cores use 24-31). */
#ifndef TRX_RECORDER_ENTRY_CHECK
#define TRX_RECORDER_ENTRY_CHECK TRX_RECORDER_LOCKFREE
#endif

/* Test hook: TRX_HALT_POINTS=1 calls trx_test_halt_point() after every
 * store of an insert, so that tests can see what a debugger halt at that
 * point leaves in memory. Never set in firmware. */
#if defined(TRX_HALT_POINTS) && TRX_HALT_POINTS
void trx_test_halt_point(void);
#define TRX_HALT_POINT_() trx_test_halt_point()
#else
#define TRX_HALT_POINT_() ((void)0)
#endif

/* Time stamp of each entry. Default: a counter that ticks once per event. A
 * port points it at a hardware timer, e.g. (*(volatile ULONG *)0xE0001004). */
#if !defined(TX_TRACE_TIME_SOURCE) && !TRX_RECORDER_LOCKFREE
#define TX_TRACE_TIME_SOURCE (++trx_trace_simulated_time)
#endif
/* (lock-free mode: the default counter is an atomic one, in the recorder.) */

/* Valid bits of TX_TRACE_TIME_SOURCE (0xFFFF for a 16-bit timer). */
#ifndef TX_TRACE_TIME_MASK
#define TX_TRACE_TIME_MASK 0xFFFFFFFFUL
#endif

/* Bytes per object name in the registry (a multiple of 4, at least 4). */
#ifndef TX_TRACE_OBJECT_REGISTRY_NAME
#define TX_TRACE_OBJECT_REGISTRY_NAME 32
#endif

/* Critical section around an insert (critical-section mode): a save area
 * and a disable/restore pair that must nest (RTOS hooks may already hold it).
 * A port header (recorder/port/) defines them, e.g. Cortex-M's PRIMASK.
 * What runs inside: one insert (eight stores, the time source, the end test)
 * and, when that insert fills the last entry, the full-notify callback of
 * tx_trace_buffer_full_notify - possibly from an ISR, with interrupts masked.
 * Keep that callback short and do not call the recorder from it.
 * Safe by construction: with tracing on in critical-section mode, one of
 * these must be stated, else the build stops:
 *   - TRX_DISABLE (and TRX_RESTORE, TRX_INTERRUPT_SAVE_AREA) defined, or
 *   - TRX_SINGLE_CONTEXT 1: only one context ever records (no ISR or second
 *     thread calls the recorder), so no critical section is needed. */
#if !defined(TRX_DISABLE) && !TRX_RECORDER_LOCKFREE && defined(TX_ENABLE_EVENT_TRACE)
#if !defined(TRX_SINGLE_CONTEXT) || !(TRX_SINGLE_CONTEXT + 0)
#if defined(TRX_RECORDER_PORT_HEADER)
#error                                                                                             \
    "trx recorder: TRX_RECORDER_PORT_HEADER is set, but no critical section came with it. If the compiler also said '#include expects \"FILENAME\"', the header name lost its quotes on the way (a Makefile or shell ate them): write '-DTRX_RECORDER_PORT_HEADER=\"trx_port_cortex_m.h\"' (single quotes around it), or use -DTRX_PORT_CORTEX_M=1 (or TRX_PORT_CORTEX_M0, TRX_PORT_RISCV32), which has no quotes to lose. Your own port header must define TRX_INTERRUPT_SAVE_AREA, TRX_DISABLE and TRX_RESTORE (see docs/recorder.md)"
#else
#error                                                                                             \
    "trx recorder: no critical section. Use a port: -I recorder/port -DTRX_RECORDER_PORT_HEADER=\"trx_port_cortex_m.h\" (or trx_port_cortex_m0.h, trx_port_riscv32.h), or define TRX_INTERRUPT_SAVE_AREA, TRX_DISABLE and TRX_RESTORE, or define TRX_SINGLE_CONTEXT=1 if no ISR or second thread ever records (see docs/recorder.md)"
#endif
#endif
#endif
#ifndef TRX_INTERRUPT_SAVE_AREA
#define TRX_INTERRUPT_SAVE_AREA
#endif
#ifndef TRX_DISABLE
#define TRX_DISABLE
#endif
#ifndef TRX_RESTORE
#define TRX_RESTORE
#endif

/* Running-context hooks. Default (none of them defined): the recorder keeps
 * the context itself - the RTOS calls trx_recorder_thread_set() on every
 * context switch and ISR nesting is counted by tx_trace_isr_enter_insert /
 * tx_trace_isr_exit_insert. A port that already has these values defines
 * all four (evaluated on every insert):
 *   TRX_PORT_SYSTEM_STATE()       0 = thread, 1..0xF0F0F0EF = ISR nesting,
 *                                 0xF0F0F0F0 = initialization
 *   TRX_PORT_CURRENT_THREAD()     the running thread (TRX_PORT_THREAD_TYPE)
 *   TRX_PORT_THREAD_PRIORITY(t), TRX_PORT_THREAD_PREEMPT_THRESHOLD(t)
 * With them, tx_trace_isr_*_insert do not count nesting (the RTOS does). */
#ifndef TRX_PORT_THREAD_TYPE
#define TRX_PORT_THREAD_TYPE VOID *
#endif

/* Multi-core (SMP): TRX_PORT_CORE_ID() gives the number (0..255) of the core
 * running the insert. It is evaluated inside every insert (under TRX_DISABLE,
 * so the writer cannot change cores) and written in bits 24-31 of the entry's
 * event-id word, as ThreadX SMP does: (core << 24) | id. The 16-bit id that
 * TraceX reads stays the same. Default: not defined, bits 24-31 stay 0. An SMP
 * port also defines the running-context hooks above per core (the default
 * hooks keep one context for the whole system) and uses lock-free mode, or a
 * critical section that excludes the other cores too. */
#if defined(TRX_PORT_CORE_ID)
#define TRX_EVENT_ID_WORD_(id) ((ULONG)(id) | ((ULONG)(TRX_PORT_CORE_ID()) & 0xFFUL) << 24)
#else
#define TRX_EVENT_ID_WORD_(id) ((ULONG)(id))
#endif

/* Stack pointer in ISR enter/exit events (info 1). Default: frame address. */
#ifndef TRX_PORT_STACK_POINTER
#if defined(__GNUC__)
#define TRX_PORT_STACK_POINTER() TRX_ADDRESS_WORD(__builtin_frame_address(0))
#else
#define TRX_PORT_STACK_POINTER() 0UL
#endif
#endif

/* Preempt-disable count in ISR enter/exit events (info 4). Default 0. */
#ifndef TRX_PORT_PREEMPT_DISABLE
#define TRX_PORT_PREEMPT_DISABLE() 0UL
#endif

/* ================================================================ layout */

/* A target address as stored in the buffer: the low 32 bits. */
#define TRX_ADDRESS_WORD(p) ((ULONG)(uintptr_t)(p))

#define TRX_RECORDER_TXTB_ID 0x54585442UL /* "TXTB" written as a native word */
#define TRX_RECORDER_TXTB_RESERVED2 0xAAAAAAAAUL
#define TRX_RECORDER_TXTB_RESERVED3 0xBBBBBBBBUL
#define TRX_RECORDER_TXTB_RESERVED4 0xCCCCCCCCUL
/* An RTOS integration marks the trace as its own in reserved3 (TraceX reads
 * the word and uses it for nothing): FreeRTOS writes
 * TRX_RECORDER_RTOS_FREERTOS << 16 | configMAX_PRIORITIES, so that trx shows
 * FreeRTOS's priorities and names (trx.h: trx_rtos). */
#define TRX_RECORDER_RTOS_FREERTOS 0x4652UL /* "FR" */
/* ... and names its idle task in reserved4 (the TCB's address word; the
 * default TRX_RECORDER_TXTB_RESERVED4 = none), so that trx counts the time
 * that task runs as idle time. */
#define TRX_THREAD_PRIORITY_FLAG 0x80000000UL /* set in a thread's priority word */

/* Control header (48 bytes). */
typedef struct trx_txtb_header {
    ULONG id;
    ULONG timer_valid_mask;
    ULONG trace_base_address;
    ULONG registry_start;
    USHORT reserved1;
    USHORT registry_name_size;
    ULONG registry_end;
    ULONG buffer_start;
    ULONG buffer_end;
    ULONG buffer_current; /* oldest entry = next to be written */
    ULONG reserved2;
    ULONG reserved3;
    ULONG reserved4;
} trx_txtb_header;

/* Object registry entry (16 + TX_TRACE_OBJECT_REGISTRY_NAME bytes). */
typedef struct trx_txtb_object {
    UCHAR available; /* 1 = free */
    UCHAR type;
    UCHAR reserved1; /* threads: 0x80 | priority >> 8 */
    UCHAR reserved2; /* threads: priority & 0xFF */
    ULONG object_pointer;
    ULONG parameter_1;
    ULONG parameter_2;
    UCHAR name[TX_TRACE_OBJECT_REGISTRY_NAME];
} trx_txtb_object;

/* Trace entry (32 bytes). */
typedef struct trx_txtb_entry {
    ULONG thread_pointer; /* context; 0 = never written */
    ULONG thread_priority;
    ULONG event_id;
    ULONG time_stamp;
    ULONG info_1;
    ULONG info_2;
    ULONG info_3;
    ULONG info_4;
} trx_txtb_entry;

/* Compile-time checks (C99: a negative array size is an error). */
typedef char trx_check_header_size_[sizeof(trx_txtb_header) == 48 ? 1 : -1];
typedef char trx_check_entry_size_[sizeof(trx_txtb_entry) == 32 ? 1 : -1];
typedef char trx_check_name_size_[(TX_TRACE_OBJECT_REGISTRY_NAME % 4 == 0 &&
                                   TX_TRACE_OBJECT_REGISTRY_NAME >= 4 &&
                                   TX_TRACE_OBJECT_REGISTRY_NAME <= 0xFFFF)
                                      ? 1
                                      : -1];
typedef char
    trx_check_object_size_[sizeof(trx_txtb_object) == 16 + TX_TRACE_OBJECT_REGISTRY_NAME ? 1 : -1];

/* Declares a trace buffer for tx_trace_enable: `bytes` bytes (a multiple of
 * 4), 32-byte aligned, in the linker section TRX_TRACE_BUFFER_SECTION when it
 * is defined (e.g. ".trx_trace", for a linker script to place the buffer in
 * a given RAM region or keep it out of zero-initialisation with NOLOAD).
 * Usage: static TRX_TRACE_BUFFER(trace_buffer, 16384); then
 * tx_trace_enable(trace_buffer, sizeof trace_buffer, registry_entries). */
#if defined(__GNUC__) && defined(TRX_TRACE_BUFFER_SECTION)
#define TRX_TRACE_BUFFER(name, bytes)                                                              \
    ULONG name[(bytes) / 4] __attribute__((section(TRX_TRACE_BUFFER_SECTION), aligned(32)))
#elif defined(__GNUC__)
#define TRX_TRACE_BUFFER(name, bytes) ULONG name[(bytes) / 4] __attribute__((aligned(32)))
#else
#define TRX_TRACE_BUFFER(name, bytes) ULONG name[(bytes) / 4]
#endif

/* ========================================================= recorder state */

/* Private: the recorder's state, public only so that the inline insert can
 * read it. Hot fields first. Do not write it from outside the recorder. */
typedef struct trx_recorder_state {
    ULONG active_bits;          /* groups recorded now: filter bits, 0 when disabled */
    trx_txtb_entry *current;    /* next entry to write (critical-section mode) */
    trx_txtb_entry *end;        /* just past the last entry */
    trx_txtb_header *header;    /* the buffer last enabled (kept after disable) */
    ULONG context_word;         /* default hooks: the entry's thread word */
    ULONG priority_word;        /* default hooks: the entry's priority word */
    trx_txtb_entry *start;      /* entry 0 */
    ULONG thread_word;          /* default hooks: running thread, 0 = none */
    ULONG thread_priority_word; /* priority | 0x80000000 | threshold << 16 */
    ULONG isr_nesting;          /* default hooks: ISR nesting level */
    ULONG filter_bits;          /* groups not filtered out */
    ULONG enabled;              /* 1 between tx_trace_enable and tx_trace_disable */
    ULONG capacity;             /* number of trace entries */
    trx_txtb_object *registry;
    ULONG registry_entries;
    VOID (*full_notify)(VOID *buffer);
    VOID (*enable_callback)(VOID);
} trx_recorder_state;

extern trx_recorder_state trx_recorder_state_;
extern ULONG trx_trace_simulated_time; /* the default time source */

/* Out-of-line part of an insert that filled the last entry: the full-notify
 * callback (critical-section mode). */
VOID trx_recorder_wrap_(VOID);

/* The id word as stored: with the check value when TRX_RECORDER_ENTRY_CHECK. */
#if TRX_RECORDER_ENTRY_CHECK
#define TRX_ID_WORD_(ctx, prio, id, ts, i1, i2, i3, i4)                                            \
    (((ULONG)(id)&TRX_ENTRY_CHECK_ID_MASK) |                                                       \
     ((ULONG)trx_entry_check((uint32_t)(ctx), (uint32_t)(prio),                                    \
                             (uint32_t)((ULONG)(id)&TRX_ENTRY_CHECK_ID_MASK), (uint32_t)(ts),      \
                             (uint32_t)(i1), (uint32_t)(i2), (uint32_t)(i3), (uint32_t)(i4))       \
      << TRX_ENTRY_CHECK_SHIFT))
#else
#define TRX_ID_WORD_(ctx, prio, id, ts, i1, i2, i3, i4) ((ULONG)(id))
#endif

/* ============================================================ the calls */

/* Default context hook: the RTOS calls this on every context switch with the
 * thread now running (NULL: none = initialization context). */
VOID trx_recorder_thread_set(VOID *thread_ptr, UINT priority, UINT preemption_threshold);

/* The system state as the entry rules see it: 0 thread, 1..0xF0F0F0EF ISR
 * nesting level, 0xF0F0F0F0 initialization. */
ULONG trx_recorder_system_state(VOID);

/* Called inside tx_trace_enable, after the layout and before the two
 * RUNNING events: the place to register the objects that already exist. */
VOID trx_recorder_enable_callback(VOID (*callback)(VOID));

/* Registers an object (no thread priority). Reuses the entry that already
 * holds object_ptr, else takes the first free one. TX_SUCCESS; TX_NOT_DONE
 * when tracing is off or the registry is full (object not registered). */
UINT trx_trace_object_register(UCHAR object_type, VOID *object_ptr, const CHAR *name,
                               ULONG parameter_1, ULONG parameter_2);

/* Registers a thread: type 1, parameters stack start/size, priority kept in
 * the reserved bytes. Same status codes as trx_trace_object_register. */
UINT trx_trace_thread_register(VOID *thread_ptr, const CHAR *name, VOID *stack_start,
                               ULONG stack_size, UINT priority);

/* Marks the object's entry free (its data stays for the analysis tool).
 * TX_SUCCESS, or TX_NOT_DONE when tracing is off or object not found. */
UINT trx_trace_object_unregister(VOID *object_ptr);

/* Inserts an event with an explicit context (thread word and priority word
 * as they are stored), bypassing the context hooks: for simulators and SMP
 * ports that know the context better. Skipped when `group` is filtered. */
VOID trx_trace_insert_with_context(ULONG thread_word, ULONG priority_word, ULONG event_id,
                                   ULONG info_1, ULONG info_2, ULONG info_3, ULONG info_4,
                                   ULONG group);

/* ------------------------------------------------------ the hot path */

#if defined(__GNUC__)
#define TRX_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define TRX_LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define TRX_UNLIKELY(x) (x)
#define TRX_LIKELY(x) (x)
#endif

/* TRX_CONTEXT_GET_(ctx, prio): the running context's thread and priority
 * words, from the port hooks or from the recorder's precomputed words. */
#if defined(TRX_PORT_SYSTEM_STATE)
#define TRX_CONTEXT_GET_(ctx, prio)                                                                \
    do {                                                                                           \
        ULONG trx_state_ = (ULONG)(TRX_PORT_SYSTEM_STATE());                                       \
        TRX_PORT_THREAD_TYPE trx_thread_ = TRX_PORT_CURRENT_THREAD();                              \
        if (trx_state_ == 0UL && trx_thread_ != 0) {                                               \
            (ctx) = TRX_ADDRESS_WORD(trx_thread_);                                                 \
            (prio) = (ULONG)TRX_PORT_THREAD_PRIORITY(trx_thread_) | TRX_THREAD_PRIORITY_FLAG |     \
                     ((ULONG)TRX_PORT_THREAD_PREEMPT_THRESHOLD(trx_thread_) << 16);                \
        } else if (trx_state_ != 0UL && trx_state_ < TX_TRACE_CONTEXT_INITIALIZE) {                \
            (ctx) = TX_TRACE_CONTEXT_ISR;                                                          \
            (prio) = TRX_ADDRESS_WORD(trx_thread_);                                                \
        } else {                                                                                   \
            (ctx) = TX_TRACE_CONTEXT_INITIALIZE;                                                   \
            (prio) = 0UL;                                                                          \
        }                                                                                          \
    } while (0)
#else
#define TRX_CONTEXT_GET_(ctx, prio)                                                                \
    do {                                                                                           \
        (ctx) = trx_recorder_state_.context_word;                                                  \
        (prio) = trx_recorder_state_.priority_word;                                                \
    } while (0)
#endif

#if TRX_RECORDER_LOCKFREE

/* Lock-free mode: the insert is out of line (C11 atomics live in the .c). */
VOID trx_trace_insert(ULONG event_id, ULONG info_1, ULONG info_2, ULONG info_3, ULONG info_4,
                      ULONG group);
/* Same, for callers that already hold the critical section. */
#define trx_trace_insert_locked trx_trace_insert

#else

/* Writes one entry with the given context words; the caller holds the
 * critical section and has checked the filter. Store order (what a debugger
 * halt between two stores leaves is described at the top of this file):
 * thread word 0, header pointer past the entry, the seven other words, the
 * thread word. Volatile stores keep that order in the compiler. */
static inline VOID trx_recorder_put_(trx_recorder_state *r, ULONG ctx, ULONG prio, ULONG event_id,
                                     ULONG info_1, ULONG info_2, ULONG info_3, ULONG info_4)
{
    volatile trx_txtb_entry *e = r->current;
    trx_txtb_entry *next = r->current + 1;
    if (TRX_UNLIKELY(next >= r->end)) {
        next = r->start;
    }
    e->thread_pointer = 0UL; /* 1: incomplete */
    TRX_HALT_POINT_();
    r->current = next;
    ((volatile trx_txtb_header *)r->header)->buffer_current = TRX_ADDRESS_WORD(next); /* 2 */
    TRX_HALT_POINT_();
    e->thread_priority = prio; /* 3-9 */
    TRX_HALT_POINT_();
    {
        const ULONG ts = (ULONG)(TX_TRACE_TIME_SOURCE);
        const ULONG id_word = TRX_EVENT_ID_WORD_(event_id);
        e->event_id = TRX_ID_WORD_(ctx, prio, id_word, ts, info_1, info_2, info_3, info_4);
        TRX_HALT_POINT_();
        e->time_stamp = ts;
        TRX_HALT_POINT_();
    }
    e->info_1 = info_1;
    TRX_HALT_POINT_();
    e->info_2 = info_2;
    TRX_HALT_POINT_();
    e->info_3 = info_3;
    TRX_HALT_POINT_();
    e->info_4 = info_4;
    TRX_HALT_POINT_();
    e->thread_pointer = ctx; /* 10: complete */
    TRX_HALT_POINT_();
    if (TRX_UNLIKELY(next != (const trx_txtb_entry *)e + 1)) {
        trx_recorder_wrap_();
    }
}

/* Writes one entry; the caller holds the critical section. */
static inline VOID trx_trace_insert_locked(ULONG event_id, ULONG info_1, ULONG info_2, ULONG info_3,
                                           ULONG info_4, ULONG group)
{
    trx_recorder_state *const r = &trx_recorder_state_;
    if (TRX_LIKELY(r->active_bits & group)) {
        ULONG ctx, prio;
        TRX_CONTEXT_GET_(ctx, prio);
        trx_recorder_put_(r, ctx, prio, event_id, info_1, info_2, info_3, info_4);
    }
}

/* Writes one entry (event id, four info words, filter group bit) under the
 * critical section: the call for RTOS hooks. */
static inline VOID trx_trace_insert(ULONG event_id, ULONG info_1, ULONG info_2, ULONG info_3,
                                    ULONG info_4, ULONG group)
{
    TRX_INTERRUPT_SAVE_AREA
    TRX_DISABLE
    trx_trace_insert_locked(event_id, info_1, info_2, info_3, info_4, group);
    TRX_RESTORE
}

#endif /* TRX_RECORDER_LOCKFREE */

/* The macro RTOS code should use: no code at all unless TX_ENABLE_EVENT_TRACE
 * is defined (the ThreadX switch). With TRX_RECORDER_FORMAT_UIA=1 the same
 * hooks write UIA records instead (uia_recorder.h, docs/recorder.md). */
#if defined(TX_ENABLE_EVENT_TRACE) && defined(TRX_RECORDER_FORMAT_UIA) && TRX_RECORDER_FORMAT_UIA
#define TRX_TRACE_EVENT(id, i1, i2, i3, i4, group)                                                 \
    trx_uia_hook_event(TRX_UIA_HOOK_LOGGER(), (ULONG)(id), (ULONG)(i1), (ULONG)(i2), (ULONG)(i3),  \
                       (ULONG)(i4), (ULONG)(group))
#elif defined(TX_ENABLE_EVENT_TRACE)
#define TRX_TRACE_EVENT(id, i1, i2, i3, i4, group)                                                 \
    trx_trace_insert((ULONG)(id), (ULONG)(i1), (ULONG)(i2), (ULONG)(i3), (ULONG)(i4),              \
                     (ULONG)(group))
#else
/* Unevaluated: no code, and no "unused" warnings for values only traced. */
#define TRX_TRACE_EVENT(id, i1, i2, i3, i4, group)                                                 \
    ((void)sizeof(id), (void)sizeof(i1), (void)sizeof(i2), (void)sizeof(i3), (void)sizeof(i4),     \
     (void)sizeof(group))
#endif

#ifdef __cplusplus
}
#endif

#if defined(TRX_RECORDER_FORMAT_UIA) && TRX_RECORDER_FORMAT_UIA
#include "trx/uia_recorder.h"
#endif

#endif /* TRX_RECORDER_H */
