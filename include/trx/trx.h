/*
 * trx.h - the trx host library: load a trace dump (binary, Intel HEX,
 * S-record, ASCII hex), decode its TXTB buffer, and walk its events in the
 * order and with the context rules TraceX uses, so that analyses and outputs
 * never parse bytes themselves.
 *
 * Memory: a binary dump is mapped, not copied; text dumps are converted once
 * into a heap image. Iteration keeps O(threads) state, never O(events).
 */
#ifndef TRX_TRX_H
#define TRX_TRX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TRX_VERSION_STRING "0.1.0"

/* ------------------------------------------------------------------ errors */

/* What went wrong and where: `offset` is a byte offset in the input file. */
typedef struct trx_error {
    uint64_t offset;
    char message[240];
} trx_error;

/* Fills `err` (if not NULL) with printf-style text; always returns -1. */
int trx_error_set(trx_error *err, uint64_t offset, const char *fmt, ...)
#if defined(__MINGW32__) /* the library is built with MinGW's C99 printf */
    __attribute__((format(gnu_printf, 3, 4)))
#elif defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* ----------------------------------------------------------------- loading */

typedef enum trx_input_format {
    TRX_FORMAT_AUTO = 0, /* decide by content */
    TRX_FORMAT_BIN,      /* raw memory image */
    TRX_FORMAT_IHEX,     /* Intel HEX */
    TRX_FORMAT_SREC,     /* Motorola S-record */
    TRX_FORMAT_ASCII     /* hex byte pairs separated by white space */
} trx_input_format;

/* A memory image: data[0] is the byte at target address `base` (the dump's
 * lowest address; 0 for raw binary). Read-only for users. */
typedef struct trx_image {
    const uint8_t *data;
    size_t size;
    uint64_t base;
    trx_input_format format; /* the format actually read */
    uint64_t skipped_lines;  /* Intel HEX / S-record: lines that are not records, skipped */
    /* private */
    void *mapping_;
    size_t mapping_size_;
    uint8_t *owned_;
} trx_image;

/* Loads `path` as `format` (TRX_FORMAT_AUTO: detect). 0 on success, -1 with
 * `err` set (offset = where in the file the problem is). Same as
 * trx_image_load_file_limit with TRX_DEFAULT_MAX_INPUT. */
int trx_image_load_file(trx_image *img, const char *path, trx_input_format format, trx_error *err);

/* The largest input the loaders read by default: 4 GiB. */
#define TRX_DEFAULT_MAX_INPUT ((uint64_t)4 << 30)

/* Loads `path` refusing inputs larger than `max_input_size` bytes (0: the
 * default). A regular file is mapped (its size checked first); anything else
 * (a pipe, a device, standard input) is read into memory, never more than the
 * limit, and its first MiB must look like a trace (TXTB id, Intel HEX,
 * S-record, ASCII hex; the forced `format` if given) or reading stops there
 * with an error: `trx info /dev/zero` fails at once. */
int trx_image_load_file_limit(trx_image *img, const char *path, trx_input_format format,
                              uint64_t max_input_size, trx_error *err);

/* Same from an open descriptor (e.g. 0, standard input), left open. */
int trx_image_load_fd(trx_image *img, int fd, trx_input_format format, uint64_t max_input_size,
                      trx_error *err);

/* Same from bytes in memory (copied or converted; `bytes` may be freed after). */
int trx_image_load_memory(trx_image *img, const uint8_t *bytes, size_t size,
                          trx_input_format format, trx_error *err);

/* Releases what a load acquired; safe on a zeroed image. */
void trx_image_free(trx_image *img);

/* Guesses the format of a file's first bytes (never returns AUTO). */
trx_input_format trx_detect_format(const uint8_t *bytes, size_t size);

/* "bin", "ihex", "srec", "ascii" (or "auto"); parse with trx_input_format_parse. */
const char *trx_input_format_name(trx_input_format format);
int trx_input_format_parse(const char *name, trx_input_format *out);

/* ------------------------------------------------------------ TXTB buffer */

#define TRX_TXTB_ID 0x54585442u      /* "TXTB" */
#define TRX_CONTEXT_ISR 0xFFFFFFFFu  /* event recorded inside an ISR */
#define TRX_CONTEXT_INIT 0xF0F0F0F0u /* event recorded during initialization */
#define TRX_CONTEXT_IDLE 0x00000000u /* as a next context: nothing runs */
#define TRX_UNKNOWN 0xFFFFFFFFu      /* priority / preemption-threshold not known */
#define TRX_HEADER_SIZE 48u
#define TRX_ENTRY_SIZE 32u
#define TRX_REGISTRY_FIXED_SIZE 16u
#define TRX_NAME_MAX 255u    /* longest object name kept */
#define TRX_EVENT_RUNNING 6u /* TX_TRACE_RUNNING */
#define TRX_USER_EVENT_START 4096u

/* The control header, fields decoded in the buffer's byte order. */
typedef struct trx_header {
    uint32_t id_as_read; /* first 4 bytes read big-endian (TraceX's "Trace ID") */
    bool big_endian;
    uint32_t timer_mask;
    uint32_t base_address;
    uint32_t registry_start;
    uint16_t reserved1;
    uint16_t name_size;
    uint32_t registry_end;
    uint32_t buffer_start;
    uint32_t buffer_end;
    uint32_t buffer_current; /* the oldest entry */
    uint32_t reserved2, reserved3, reserved4;
} trx_header;

/* Object types in the registry. */
enum trx_object_type {
    TRX_OBJ_NONE = 0,
    TRX_OBJ_THREAD = 1,
    TRX_OBJ_TIMER = 2,
    TRX_OBJ_QUEUE = 3,
    TRX_OBJ_SEMAPHORE = 4,
    TRX_OBJ_MUTEX = 5,
    TRX_OBJ_EVENT_FLAGS = 6,
    TRX_OBJ_BLOCK_POOL = 7,
    TRX_OBJ_BYTE_POOL = 8,
    TRX_OBJ_MEDIA = 9,
    TRX_OBJ_FILE = 10,
    TRX_OBJ_IP = 11,
    TRX_OBJ_PACKET_POOL = 12,
    TRX_OBJ_TCP_SOCKET = 13,
    TRX_OBJ_UDP_SOCKET = 14
};

/* One object: a registry entry with type != 0, or an "Un-named Thread" that
 * TraceX's rules add for a context address that is not a registered thread. */
typedef struct trx_object {
    uint32_t address;
    uint32_t param1, param2;
    uint8_t available, type, reserved1, reserved2;
    bool unnamed;           /* added for an unregistered context */
    uint32_t registry_slot; /* registry entry index (UINT32_MAX if unnamed) */
    const char *name;       /* NUL-terminated, at most TRX_NAME_MAX bytes: in the trace's
                               name pool (registry names) or a constant ("Un-named Thread");
                               valid while the trace is open */
} trx_object;

/* A thread as TraceX lists it (registry order, then Un-named Threads). */
typedef struct trx_thread {
    uint32_t address;
    uint32_t object_index; /* into trx_trace.objects */
    uint32_t stack_start, stack_size;
    uint32_t prio_lowest, prio_highest; /* numerically largest / smallest; TRX_UNKNOWN */
    uint32_t pt_lowest, pt_highest;     /* preemption-threshold range; TRX_UNKNOWN */
    bool next_context_only; /* Un-named Thread known only as a next context (correct mode) */
    uint32_t entry;         /* its entry function when the trace names it (SYS/BIOS), else 0 */
    bool idle;              /* the RTOS's idle task (SYS/BIOS: its function is the Idle loop) */
    /* the RTOS's handle of the thread: `address`, except for the tasks of an
     * AMP SYS/BIOS capture, one thread per (core, handle), whose `address` is
     * a context key of their own (odd: no handle) and `core` their one core */
    uint32_t handle;
    uint32_t core; /* TRX_UNKNOWN: any core (one RTOS instance) */
    /* SYS/BIOS: the one core the task was switched to (its name gets that
     * core's prefix when another thread shows the same name); TRX_UNKNOWN:
     * not known, or several cores (SMP) */
    uint32_t ran_core;
} trx_thread;

/* One trace entry as stored, fields in host order (nothing interpreted). */
typedef struct trx_entry {
    uint32_t context, priority, id, timestamp;
    uint32_t info[4];
} trx_entry;

/* The RTOS that made a TXTB trace: ThreadX (or an unmarked integration), or
 * FreeRTOS, whose integration marks the header's reserved3 with
 * TRX_RTOS_MARK_FREERTOS << 16 | configMAX_PRIORITIES (TraceX ignores it). */
typedef enum trx_rtos { TRX_RTOS_THREADX = 0, TRX_RTOS_FREERTOS = 1 } trx_rtos;
#define TRX_RTOS_MARK_FREERTOS 0x4652u /* "FR" */

/* Which rules the analyses follow. CORRECT (the default) reports what really
 * happened; TRACEX reproduces TraceX 6.2.1's numbers and quirks exactly
 * (`trx dump` always uses it; `--compat tracex` selects it elsewhere). Set
 * trx_trace.mode before trx_trace_prepare. */
typedef enum trx_mode { TRX_MODE_CORRECT = 0, TRX_MODE_TRACEX = 1 } trx_mode;

/* The trace format a decoder read. */
typedef enum trx_trace_format { TRX_TRACE_TXTB = 0, TRX_TRACE_UIA = 1 } trx_trace_format;

/* A run of lost events, first-class in the model: `lost` events are missing
 * right before the event numbered `index` (the first one after the gap),
 * between ticks `from_ticks` (the event before) and `to_ticks` (that event).
 * UIA traces know them from sequence numbers; TXTB traces have none. */
typedef struct trx_gap {
    uint64_t index;
    uint64_t lost;
    uint64_t from_ticks, to_ticks;
    uint32_t stream; /* UIA stream (= core); 0 for TXTB */
} trx_gap;

/* Decoder state of a UIA trace (trx/uia.h); NULL for TXTB. */
struct trx_uia;
/* Why an entry is not trusted (see trx_trace.damaged and docs/salvage.md). */
typedef enum trx_damage {
    TRX_DAMAGE_NONE = 0,
    TRX_DAMAGE_EMPTY = 1,        /* thread word 0 and nothing else, where an entry must be */
    TRX_DAMAGE_HALF_WRITTEN = 2, /* thread word 0 with other data, id 0 with data, or an
                                    insert still in progress at the write position */
    TRX_DAMAGE_STALE = 3,        /* older than the oldest entry (at the newest position), or
                                    written past the write position of an unwrapped buffer */
    TRX_DAMAGE_TORN = 4          /* its check value (TRX_RECORDER_ENTRY_CHECK) does not
                                    match: the halves of two writers' entries */
} trx_damage;
#define TRX_DAMAGE_KINDS 5

/* "empty", "half-written", "stale", "torn" ("intact" for TRX_DAMAGE_NONE). */
const char *trx_damage_name(trx_damage reason);

/* One entry skipped: its physical index in the buffer and why. */
typedef struct trx_damaged_entry {
    uint32_t index;
    trx_damage reason;
} trx_damaged_entry;

/* How the entries are read: count, first, wrap state, timer vote. */
typedef struct trx_trace_view {
    uint32_t used, oldest;
    bool wrapped, counts_up;
    uint32_t votes_up, votes_down;
} trx_trace_view;

/* An opened trace: image + header + registry + the entry order. Fields are
 * read-only for users (set `mode` with trx_trace_set_mode); set by
 * trx_trace_open.
 *
 * Two views of the entries: TraceX's (TRX_MODE_TRACEX: every entry up to the
 * first zero thread word, as TraceX reads them) and the salvaging one (the
 * default: wrap state and order from the header's oldest pointer and the
 * content; damaged entries skipped and listed in `damaged`). They are the
 * same for an intact buffer. `used`, `oldest`, `wrapped`, `counts_up` and
 * the votes describe the view of the current mode. */
typedef struct trx_trace {
    const char *path; /* as given to open (for messages) */
    trx_trace_format format;
    trx_mode mode; /* analysis rules; set before trx_trace_prepare */
    trx_image image;
    trx_header header;
    const uint8_t *entries;    /* first entry in the image */
    uint32_t registry_entries; /* registry capacity */
    uint32_t registry_used;    /* entries whose type != 0 */
    uint32_t registry_free;    /* entries marked available (1): room for a registration */
    uint32_t capacity;         /* trace entries the buffer holds */
    uint32_t used;             /* entries read (intact ones in the salvaging view) */
    uint32_t oldest;           /* physical index of the chronologically first entry */
    bool wrapped;              /* the buffer has been written round at least once */
    bool counts_up;            /* timer direction (TraceX's vote) */
    uint32_t votes_up, votes_down;
    bool entry_check;         /* entries carry a check value (header mark TRX_ENTRY_CHECK_MARK) */
    trx_rtos rtos;            /* which RTOS made the trace (an integration's header mark) */
    uint32_t rtos_priorities; /* FreeRTOS: configMAX_PRIORITIES (recorded p = max - 1 - app p) */
    uint32_t idle_task;       /* FreeRTOS: its idle task's address (header reserved4), 0 = none */
    uint32_t idle_threads;    /* threads marked idle (trx_thread.idle: SYS/BIOS's Idle tasks) */
    uint32_t damaged_count;   /* entries skipped by the salvaging view */
    uint32_t damaged_by_reason[TRX_DAMAGE_KINDS];
    trx_damaged_entry *damaged; /* damaged_count entries, by physical index */
    /* objects and threads (grow when Un-named Threads are added) */
    trx_object *objects;
    uint32_t object_count, object_cap;
    trx_thread *threads;
    uint32_t thread_count, thread_cap;
    /* private: address -> first object index (open addressing), object -> thread */
    uint64_t *obj_hash_; /* address << 32 | object index; index UINT32_MAX: empty */
    uint32_t obj_hash_size_;
    uint32_t shared_thread_addresses_; /* threads added at an address that had one */
    int32_t *obj_thread_;
    struct trx_address_map *unnamed_map_; /* Un-named Threads hidden behind a non-thread object */
    struct trx_address_map *first_thread_map_; /* address -> first thread there, where the
                                                  first object there is no thread */
    /* private: the two views; chronological -> physical index of the
     * intact entries when the salvaging view skips some */
    trx_trace_view view_tracex_, view_salvage_;
    bool view_is_tracex_;
    uint32_t *order_;
    struct trx_open_counts *open_counts_; /* trx_open_options.core_counts' figures, or NULL */
    char *names_;       /* the registry's names, NUL-terminated (objects[].name points here) */
    char **made_names_; /* names made by the decoder ("Task 0x20001000"): chunks of slots */
    uint32_t made_chunks_, made_in_last_;
    /* filled by trx_trace_prepare */
    bool prepared;
    uint64_t total_events; /* entries + synthetic RUNNING events */
    uint64_t synthetic_events;
    uint64_t max_ticks; /* relative ticks of the last event */
    /* lost events (every format; set by the decoder at open) */
    trx_gap *gaps; /* in event order */
    uint64_t gap_count;
    uint64_t lost_events; /* sum of gaps[].lost */
    struct trx_uia *uia;  /* UIA decoder state (format == TRX_TRACE_UIA), else NULL */
    /* a trx stream of TXTB entries (a TXTB drain: ThreadX's kernel buffer, the
     * FreeRTOS integration's) is opened as the TXTB trace it carries; this is
     * the UIA trace it was read from (packets, sessions, what was skipped),
     * owned by this trace; NULL for any other trace. Its gaps are this
     * trace's, numbered as this trace numbers its events. */
    struct trx_trace *stream_source;
    uint32_t *gap_entry_; /* private: entry number each gap comes right before */
    /* names of UIA events (TI metadata or a names file; trx/uia_names.h), owned
     * by the caller and kept alive while the trace is used; NULL: the event
     * catalogue only. Each trace has its own: nothing is shared between traces. */
    const struct trx_uia_names *uia_names;
    /* the firmware's ELF symbols (trx/elf.h), owned by the caller like
     * uia_names; NULL: addresses stay numbers */
    const struct trx_elf *elf;
    /* threads an analysis may use (`--jobs`): 0, as many as the machine
     * has; 1, one walk on the calling thread (trx_trace_jobs) */
    uint32_t jobs;
} trx_trace;

/* How to open a trace: the encoding (bin, ihex ... or AUTO), the trace format
 * (detected by content unless `force_format`), and for UIA the byte order of
 * the records (TRX_ENDIAN_AUTO: the packet header's bit, else detected). */
typedef enum trx_endian { TRX_ENDIAN_AUTO = 0, TRX_ENDIAN_LITTLE, TRX_ENDIAN_BIG } trx_endian;
typedef struct trx_open_options {
    trx_input_format input_format;
    bool force_format;
    trx_trace_format trace_format; /* used when force_format */
    trx_endian endian;
    /* UIA: event names (TI metadata or a names file) that mark the sync
     * points (UIASync.syncPoint) that put every core on one time axis; NULL:
     * none known, each core keeps its own axis */
    const struct trx_uia_names *uia_names;
    /* TXTB: threads the open's pass over the entries may use (0: as many as
     * the machine has; 1: one pass on the calling thread) */
    uint32_t jobs;
    /* TXTB: the pass also counts what trx_core_summary_compute_checked
     * needs (per-core events, threads, the time check), so that `trx info`
     * reads each entry once */
    bool core_counts;
    /* TXTB: the pass also keeps what the statistics would otherwise read
     * every entry for, serially: the time check's figures, whether any entry
     * names a core other than 0, and the relative ticks every 1024 entries
     * (trx_trace_time_check, trx_trace_ticks_at); core_counts keeps them too */
    bool time_counts;
} trx_open_options;

/* Opens and validates a dump: header, registry, entry order and timer
 * direction (one full scan). 0 or -1 with `err`. */
int trx_trace_open(trx_trace *t, const char *path, trx_input_format format, trx_error *err);

/* Same over an already loaded image (ownership passes to the trace). */
int trx_trace_open_image(trx_trace *t, trx_image *img, const char *name, trx_error *err);

/* trx_trace_open / trx_trace_open_image with options (NULL: all automatic). */
int trx_trace_open_with(trx_trace *t, const char *path, const trx_open_options *o, trx_error *err);
int trx_trace_open_image_with(trx_trace *t, trx_image *img, const char *name,
                              const trx_open_options *o, trx_error *err);

/* "txtb" / "uia"; trx_trace_format_parse accepts the same. */
const char *trx_trace_format_name(trx_trace_format f);
int trx_trace_format_parse(const char *name, trx_trace_format *out);
/* Writes "N damaged entries (a half-written, b stale)" for the trace into
 * buf (always NUL-terminated); "" when nothing is damaged. */
void trx_trace_damage_summary(const trx_trace *t, char *buf, size_t size);

/* Sets the analysis mode and with it the view of the entries (TraceX's for
 * TRX_MODE_TRACEX, the salvaging one otherwise). Call before
 * trx_trace_prepare; trx_trace_prepare and trx_cursor_init also apply a mode
 * assigned directly. */
void trx_trace_set_mode(trx_trace *t, trx_mode mode);

/* Runs TraceX's model once over all events to complete the thread table
 * (Un-named Threads, priority ranges) and the totals. Idempotent. */
void trx_trace_prepare(trx_trace *t);

/* Releases everything; safe on a zeroed trace. */
void trx_trace_close(trx_trace *t);

/* Reads entry number `chrono` (0 = oldest) in chronological order. */
void trx_trace_entry(const trx_trace *t, uint32_t chrono, trx_entry *out);

/* Physical index in the buffer of entry number `chrono`. */
uint32_t trx_trace_entry_index(const trx_trace *t, uint32_t chrono);

/* A thread priority as the application wrote it: a FreeRTOS trace records
 * configMAX_PRIORITIES - 1 - p (TraceX's order, 0 most urgent) and shows p
 * in the default mode; ThreadX's, TraceX's mode (--compat tracex, dump) and
 * values out of range are shown as recorded. */
uint32_t trx_shown_priority(const trx_trace *t, uint32_t recorded);

/* True when `context` is the RTOS's own idle task and the mode shows it as
 * idle time (the default mode; FreeRTOS's IDLE): the event model then gives
 * its events and the switches to it the context TRX_CONTEXT_IDLE, and it has
 * no row of its own in the execution profile. */
bool trx_context_is_idle_task(const trx_trace *t, uint32_t context);

/* The RTOS's name for the trace's maker: "ThreadX" or "FreeRTOS". */
const char *trx_rtos_name(const trx_trace *t);

/* Whose words a trace's outputs speak: the RTOS that made it, so that every
 * output names events, categories, priorities and warnings as that RTOS's
 * users know them. */
typedef enum trx_vocab {
    TRX_VOCAB_THREADX,  /* a TXTB trace without an integration's mark */
    TRX_VOCAB_FREERTOS, /* trx_trace.rtos == TRX_RTOS_FREERTOS, whatever the format */
    TRX_VOCAB_SYSBIOS,  /* a UIA trace whose event names are SYS/BIOS's (--uia-meta) */
    TRX_VOCAB_NONE      /* a UIA trace of no known RTOS */
} trx_vocab;

/* The vocabulary of trace t (asked once by each output). */
trx_vocab trx_trace_vocab(const trx_trace *t);

/* The vocabulary's word for the RTOS's own events, as a category (Perfetto,
 * Chrome JSON, CSV): "threadx", "freertos", "sysbios" or "rtos". */
const char *trx_vocab_category(trx_vocab v);

/* The threads an analysis of `t` may use: t->jobs, or when that is 0 the
 * processors online (1 where that cannot be known). The results never
 * depend on it; 1 walks each trace once on the calling thread. */
uint32_t trx_trace_jobs(const trx_trace *t);

/* The RTOS's word for a hardware interrupt's handler: "Hwi" for SYS/BIOS,
 * else "ISR" (rows "Hwi 15" / "ISR 15", headings "Hwi durations"). */
const char *trx_interrupt_word(const trx_trace *t);

/* The row and lane of idle time: "Idle" (TraceX's "Idle System" in TraceX's
 * mode, where trx reproduces TraceX's tables). */
const char *trx_idle_name(const trx_trace *t);

/* The execution profile's row for the span's rest (time no thread, interrupt
 * or idle had): "Initialization" where the kernel logs that state (ThreadX,
 * TraceX's mode), "Unknown" for a UIA capture (before a core's first task
 * switch nothing says what ran). */
const char *trx_profile_rest_name(const trx_trace *t);

/* True when a TXTB trace's object registry has no free entry: an object
 * created after it filled was not registered (no name; a thread shows as
 * an Un-named Thread). A registry of 0 entries is a choice, not full. */
static inline bool trx_registry_full(const trx_trace *t)
{
    return t->format == TRX_TRACE_TXTB && t->registry_entries > 0 && t->registry_free == 0;
}

/* How many threads of a prepared trace are Un-named Threads (contexts that
 * no registry entry names). */
uint32_t trx_trace_unnamed_threads(const trx_trace *t);

/* Object / thread lookup by address: first match, or -1. */
int32_t trx_trace_find_object(const trx_trace *t, uint32_t address);
int32_t trx_trace_find_thread(const trx_trace *t, uint32_t address);

/* The first thread (in thread order) with this address, or -1. */
int32_t trx_trace_first_thread_at(const trx_trace *t, uint32_t address);

/* The RTOS's handle of event context `context`: its thread's handle (an AMP
 * SYS/BIOS task's context is a key of its own), else the context itself. */
uint32_t trx_context_handle(const trx_trace *t, uint32_t context);

/* The first thread at the address of thread `thread` (itself when it is the
 * first); O(1) without a look-up unless threads share addresses. */
uint32_t trx_thread_first_at_its_address(const trx_trace *t, uint32_t thread);

/* Name for a context value: thread name, "Interrupt", "Initialization",
 * "Idle" or NULL when unknown. */
const char *trx_context_name(const trx_trace *t, uint32_t context);

/* --------------------------------------------------------------- events */

typedef enum trx_context_kind {
    TRX_CTX_THREAD,
    TRX_CTX_ISR,
    TRX_CTX_INIT,
    TRX_CTX_IDLE
} trx_context_kind;

/* Classifies a context value. */
trx_context_kind trx_context_kind_of(uint32_t context);

/* Which optional fields of a trx_event the format provides. TXTB events
 * have context, priority and timestamp; UIA events have a sequence number and
 * (by record type) a timestamp, but no context: their `context` is
 * TRX_CONTEXT_INIT, `thread` -1, so thread analyses simply see no threads. */
enum {
    TRX_EV_CONTEXT = 1u << 0,
    TRX_EV_PRIORITY = 1u << 1,
    TRX_EV_TIMESTAMP = 1u << 2,
    TRX_EV_SEQ = 1u << 3
};

/* ThreadX's thread state "priority change" (a RESUME or SUSPEND logging it
 * only changes a priority). */
#define TRX_STATE_PRIORITY_CHANGE 14u

/* What an event is to the analyses, whatever its format: the decoder that
 * knows the format sets it (TXTB: the catalogue's meaning of its id; UIA:
 * SYS/BIOS's events by name, sysbios_model.c), and the analyses read kinds,
 * never a format's ids. `subject` is the word the kind is about; the other
 * words stay where the format put them (the TXTB-only kinds name theirs). */
typedef enum trx_event_kind {
    TRX_KIND_NONE,
    TRX_KIND_RESUME,          /* subject: the thread made ready */
    TRX_KIND_SUSPEND,         /* subject: the thread that stopped being ready */
    TRX_KIND_ISR_ENTER,       /* subject: the interrupt's number */
    TRX_KIND_ISR_EXIT,        /* subject: the interrupt's number */
    TRX_KIND_TIME_SLICE,      /* subject: the next thread */
    TRX_KIND_RUNNING,         /* a thread runs from here (TraceX's synthetic event) */
    TRX_KIND_YIELD,           /* the running thread gives way (TXTB: info[1] next thread) */
    TRX_KIND_SLEEP,           /* subject: the thread going to sleep */
    TRX_KIND_PRIORITY_CHANGE, /* subject: the thread (TXTB: info[1] its new priority) */
    TRX_KIND_LOCK_GET,        /* mutex get (TXTB: info[0] mutex, info[1] wait, info[2] owner) */
    TRX_KIND_LOCK_PUT,        /* mutex put (TXTB: info[0] mutex, info[2] own count) */
    TRX_KIND_SEM_GET,    /* semaphore get (TXTB: info[0] semaphore, info[1] wait, info[2] count) */
    TRX_KIND_SEM_PUT,    /* semaphore put (TXTB: info[0] semaphore, info[2] suspended count) */
    TRX_KIND_QUEUE_SEND, /* TXTB: info[0] queue */
    TRX_KIND_QUEUE_RECEIVE, /* TXTB: info[0] queue, info[2] wait, info[3] enqueued */
    TRX_KIND_SWITCH,        /* the kernel switched its core to next_context; subject: that task */
    TRX_KIND_SWI_BEGIN,     /* a software interrupt starts; subject: its handle */
    TRX_KIND_SWI_END,       /* subject: the software interrupt's handle */
    TRX_KIND_POST,          /* a semaphore or event posted; subject: the object */
    TRX_KIND_PEND,          /* a semaphore or event pended on; subject: the object */
    TRX_KINDS
} trx_event_kind;

/* One event as TraceX sees it (and, for UIA, one record). */
typedef struct trx_event {
    uint64_t index;        /* TraceX's event number (synthetic events counted) */
    uint64_t ticks;        /* relative ticks since the first event */
    uint32_t timestamp;    /* masked raw time stamp (synthetic: +-12 as TraceX) */
    uint32_t id;           /* event id & 0xFFFF */
    uint32_t raw_id;       /* id word as stored */
    uint32_t raw_priority; /* priority word as stored */
    uint32_t context;      /* thread address, TRX_CONTEXT_ISR or TRX_CONTEXT_INIT */
    uint32_t priority;     /* thread: priority; ISR: interrupted thread; init: raw */
    uint32_t threshold;    /* preemption-threshold or TRX_UNKNOWN */
    uint32_t next_context; /* where execution goes after this event */
    uint32_t info[4];
    uint32_t core;        /* core that recorded it (TXTB: id bits 24-31; 0 single-core) */
    uint32_t entry;       /* physical entry index (UIA: record number); UINT32_MAX if synthetic */
    int32_t thread;       /* index into trace->threads for thread contexts, else -1 */
    bool synthetic;       /* a RUNNING event TraceX inserts */
    uint8_t kind;         /* trx_event_kind (in what was padding: the event stays 104 bytes) */
    uint16_t flags;       /* TRX_EV_*: which optional fields are meaningful */
    uint16_t module;      /* UIA module id (event word low half); 0 for TXTB */
    bool priority_change; /* a RESUME or SUSPEND that only changes a priority */
    uint32_t lost_before; /* events lost right before this one (its gap), 0 if none */
    uint32_t subject;     /* the word `kind` is about (see trx_event_kind), 0 if none */
    uint64_t time;        /* raw timestamp, 64-bit (TXTB: the masked 32-bit one) */
    uint64_t seq;         /* UIA: sequence number, unwrapped per stream */
} trx_event;

/* Iterator over events in TraceX order. Its state is O(threads): look-ahead
 * reads the mapped entries directly. Call trx_cursor_free when stopping
 * before the end (the end releases it by itself). */
typedef struct trx_cursor {
    trx_trace *trace;
    /* private */
    uint32_t pos_;       /* next raw chronological index to read */
    uint64_t out_index_; /* TraceX event number of the next emitted event */
    uint64_t ticks_;     /* relative ticks of the last raw event read */
    uint32_t prev_ts_;
    uint32_t cur_, nest_; /* TraceX's running-thread and ISR-nesting state */
    uint32_t idle_task_;  /* shown as idle (trx_context_is_idle_task), 0 = none */
    bool preparing_;      /* completing the thread table (trx_trace_prepare) */
    bool have_pending_;
    bool running_ready_;  /* ev_buf_[2] is emitted and not returned yet */
    trx_event *pending_;  /* in ev_buf_: the event whose next context a later one may patch */
    trx_event *spare_;    /* in ev_buf_: where the next stored event is read */
    trx_event ev_buf_[3]; /* the pending event, the one read after it, a RUNNING event */
    struct trx_cursor_scratch *scratch_;
    struct trx_uia_cursor *uia_; /* UIA traces: the record walker */
    uint64_t gap_k_;             /* TXTB traces with gaps: the next gap */
    uint64_t gap_at_;            /* its entry number (UINT64_MAX: none left) */
    /* TXTB: constants of the walk, set at the start */
    const uint32_t *order_; /* the view's chronological -> physical order, NULL: the ring's */
    uint32_t phys_;         /* physical index of raw entry pos_ (while pos_ < used) */
    uint32_t run_end_;      /* raw entries [pos_, run_end_) lie in a row (0 with order_) */
    uint32_t step_mask_;    /* timer mask when it is 2^k - 1: tick steps modulo 2^k */
    uint32_t step_flip_;    /* 0 counting up, ~0 counting down (flipped stamps count up) */
    bool step_masked_;      /* step_mask_ holds (else tick steps take the general rule) */
} trx_cursor;

/* Starts an iteration at the oldest event. 0, or -1 when out of memory. */
int trx_cursor_init(trx_cursor *c, trx_trace *t);

/* Produces the next event; false at the end. */
bool trx_cursor_next(trx_cursor *c, trx_event *ev);

/* The same without the copy: the next event, or NULL at the end. The event
 * stays valid (unchanged) until the next call on this cursor. */
const trx_event *trx_cursor_next_ref(trx_cursor *c);

/* Releases the cursor's scratch memory; safe to call twice. */
void trx_cursor_free(trx_cursor *c);

/* Makes `dst` an independent copy of `src` that goes on from where src is
 * (a checkpoint: seeking is restoring a copy and stepping forward). Free it
 * with trx_cursor_free. 0, or -1 when out of memory (dst then holds nothing). */
int trx_cursor_copy(trx_cursor *dst, const trx_cursor *src);

/* Bytes of memory a copy of `c` holds (for sizing checkpoint intervals). */
size_t trx_cursor_state_size(const trx_cursor *c);

/* Relative ticks of the newest entry (one pass over the timestamps; does not
 * need trx_trace_prepare). */
uint64_t trx_trace_span_ticks(const trx_trace *t);

/* Ticks per second of the trace's time axis (rounded), when the trace or
 * its names tell it; 0: unknown. A UIA capture: cores aligned by sync
 * points count the global timer (TI metadata's globalTimestamp frequency,
 * else a core's CpuFreq from its sync points times its rate); otherwise each
 * core counts its own timestamps (the sync points' CpuFreq /
 * CpuCyclesPerCpuTimerTick, else the metadata's cpuTimestamp frequency), one
 * rate only when every core has the same. TXTB dumps (ThreadX, the FreeRTOS
 * integration) carry no tick rate: 0. Commands use it where no
 * --ticks-per-us / --ticks-per-second is given. */
uint64_t trx_trace_ticks_per_second(const trx_trace *t);

/* NULL when the trace's events say which thread, ISR or initialization ran
 * (TXTB); otherwise why not (UIA), for every figure that needs it: context
 * switches, execution profile, CPU load, stack usage, inversions, ISR
 * durations, latencies. Such figures are reported unavailable with this
 * reason, never as zero. */
const char *trx_trace_context_missing(const trx_trace *t);

/* NULL when idle time can be told from busy time (the CPU load, idle rows);
 * otherwise why not: trx_trace_context_missing's reason, or a SYS/BIOS
 * capture whose Idle task is not identified (no --elf naming its Idle loop,
 * no --idle). The load is then unavailable with this reason, never 100 %. */
const char *trx_trace_load_missing(const trx_trace *t);

/* Marks the thread(s) that `spec` names - a thread's name, or its handle as a
 * number (0x... or decimal); several separated by commas (one per core of
 * an AMP capture) - as the RTOS's idle task (trx_thread.idle): its
 * time is idle time (SYS/BIOS without an ELF naming the Idle loop). Call it
 * before the trace is prepared. Returns how many threads it marked. */
uint32_t trx_trace_mark_idle(trx_trace *t, const char *spec);

/* How many records' timestamps went backwards (a broken time source: a UIA
 * capture's record stamped before the one before it on its stream), 0 for
 * none; *first_offset (if not NULL) gets the byte offset of the first. Every
 * command warns of it; figures spanning a backward step are unavailable. */
uint64_t trx_trace_time_backwards(const trx_trace *t, uint64_t *first_offset);

/* How many cores' events carry contexts of their own core: the senders of a
 * UIA capture whose names (trx_open_options.uia_names) mark SYS/BIOS's
 * scheduler events (each core its own running task and interrupts,
 * trx_event.core), else 1 (TXTB: TraceX's model is one
 * stream, even on SMP). The analyses keep their "what runs now" per core of
 * these, so that interleaved cores do not mix. */
uint32_t trx_trace_context_cores(const trx_trace *t);

/* True when the cores are separate RTOS instances (an AMP SYS/BIOS capture:
 * the same handle ran on two cores at once): tasks, Hwis and Swis are then
 * per (core, handle / interrupt number). False on SMP, one core, TXTB. */
bool trx_trace_per_core_instances(const trx_trace *t);

/* How plausible the time stamps are (trx_trace_time_check). */
typedef enum trx_time_verdict {
    TRX_TIME_OK = 0,
    TRX_TIME_CONSTANT,   /* no time stamp ever changes: the time source does not run */
    TRX_TIME_IMPLAUSIBLE /* most of the span is steps of more than half the timer range */
} trx_time_verdict;

typedef struct trx_time_check {
    trx_time_verdict verdict;
    uint64_t steps;        /* pairs of consecutive entries */
    uint64_t changes;      /* steps whose time stamp changed */
    uint64_t large_steps;  /* steps longer than half the timer range (mask / 2) */
    uint64_t span;         /* relative ticks of the newest entry */
    uint64_t large_span;   /* ticks the large steps contribute */
    uint32_t first_stamp;  /* the oldest entry's time stamp (masked) */
    uint64_t leading_same; /* entries from the oldest on with that same stamp */
    bool late_start;       /* those are two or more, the stamp is 0 or all ones and a later
                              one differs: the time source started after tracing did */
} trx_time_check;

/* Checks the time stamps in one pass (no trx_trace_prepare needed): CONSTANT
 * when at least two steps and none changes; IMPLAUSIBLE when at least two
 * steps exceed half the timer range and make up more than half the span
 * (e.g. a SysTick value whose reload is below the mask); late_start when the
 * oldest entries carry the stamp of a timer that had not started yet. */
void trx_trace_time_check(const trx_trace *t, trx_time_check *out);

#ifdef __cplusplus
}
#endif
#endif /* TRX_TRX_H */
