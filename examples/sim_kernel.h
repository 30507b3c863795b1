/*
 * sim_kernel.h - a tiny deterministic RTOS simulated in one process: a
 * priority scheduler over cooperative "threads" (step functions), ISRs fired
 * from a simulated cycle counter (nested when a higher-priority one comes due
 * inside another), mutexes with or without priority inheritance, counting
 * semaphores and message queues. Every kernel service records the trace
 * events ThreadX records, through the trx recorder's hooks, and the kernel
 * counts what really happened (the demo's ground truth).
 *
 * Addresses are simulated 32-bit target addresses (never dereferenced), so
 * the trace is the same on every run and every host.
 */
#ifndef SIM_KERNEL_H
#define SIM_KERNEL_H

#include <stdint.h>

#include "sim_timing.h"
#include "trx/recorder.h"

#define SIM_MAX_THREADS 8
#define SIM_MAX_ISRS 4
#define SIM_MAX_INVERSIONS 256 /* listed in the truth (more are counted only) */
#define SIM_WAIT_FOREVER 0xFFFFFFFFUL
#define SIM_NO_WAIT 0UL

/* ThreadX thread states (the values TraceX decodes). */
enum sim_state {
    SIM_READY = 0,
    SIM_SUSPENDED = 3,
    SIM_SLEEP = 4,
    SIM_QUEUE_SUSP = 5,
    SIM_SEMAPHORE_SUSP = 6,
    SIM_MUTEX_SUSP = 13
};

struct sim_thread;
/* One step of a thread: performs one kernel call or one slice of work. */
typedef void (*sim_body_fn)(struct sim_thread *self);

typedef struct sim_thread {
    const char *name;
    ULONG address; /* simulated control-block address */
    ULONG stack_start, stack_size;
    UINT base_priority, priority; /* priority = effective (inheritance) */
    enum sim_state state;
    sim_body_fn body;
    int pc;             /* where the body resumes */
    ULONG work_left;    /* cycles of plain computation still to do */
    ULONG wake_tick;    /* SIM_SLEEP: the tick it wakes at */
    ULONG message;      /* last message received */
    void *wait_object;  /* what it is blocked on */
    ULONG base_depth;   /* typical stack depth of its code, bytes */
    uint64_t ready_seq; /* FIFO order among equal priorities */
    ULONG counter;      /* free for the body */
    /* ground truth (sim_kernel.c): the deepest stack the trace recorded for
     * it, and how long it waited for the CPU after a resume */
    ULONG min_stack_pointer; /* 0: no stack pointer of it recorded */
    int resume_pending, irq_pending;
    ULONG irq_resumes;              /* RESUMEs of it from ISRs since it last ran (flows) */
    ULONG run_cycles;               /* trace time it ran (sim_truth's rules) */
    ULONG handed_queue, handed_sem; /* sends / puts handed to it while it waited (flows) */
    ULONG resumed_at;               /* cycle of the resume that started the wait */
    ULONG irq_entered_at;           /* an ISR resumed it: cycle the outermost ISR entered */
    sim_durations response, latency;
} sim_thread;

typedef struct sim_isr {
    const char *name;
    ULONG id;       /* ISR number in the trace */
    UINT priority;  /* lower = more urgent; only a more urgent one nests */
    ULONG period;   /* cycles between requests */
    ULONG next_due; /* cycle of the next request */
    ULONG cost;     /* cycles the handler body takes */
    void (*handler)(void);
    int active;
    /* ground truth: ENTER to EXIT of each run, nested ISRs included; and the
     * extremes without them */
    sim_durations runs;
    ULONG min_exclusive, max_exclusive;
} sim_isr;

typedef struct sim_mutex {
    const char *name;
    ULONG address;
    int inherit;
    sim_thread *owner;
    ULONG count;
} sim_mutex;

typedef struct sim_semaphore {
    const char *name;
    ULONG address;
    ULONG count;
    ULONG puts_pending; /* of the count: puts no get has taken yet (flow truth) */
} sim_semaphore;

#define SIM_QUEUE_CAPACITY 8
typedef struct sim_queue {
    const char *name;
    ULONG address, storage;
    ULONG size; /* messages it holds (<= SIM_QUEUE_CAPACITY) */
    ULONG slots[SIM_QUEUE_CAPACITY];
    ULONG head, used;
} sim_queue;

/* What the simulation knows happened (key=value in demo.truth). */
typedef struct sim_truth {
    ULONG events;                  /* trace events the kernel and the app recorded */
    ULONG context_switches;        /* one thread to another (not the first dispatch) */
    ULONG interrupts;              /* ISR entries */
    ULONG nested_interrupts;       /* ISR entries while another ISR ran */
    ULONG user_events;             /* tx_trace_user_event_insert calls that recorded */
    ULONG suspensions;             /* internal SUSPEND events */
    ULONG resumptions;             /* internal RESUME events */
    ULONG inversions;              /* a thread blocked on a mutex held by a lower-priority one */
    ULONG inversions_unbounded;    /* ...and a third, lower-priority thread ran meanwhile */
    ULONG inversions_per_mutex[2]; /* [0] without inheritance, [1] with */
    /* cause -> effect, as trx draws them: an ISR's RESUME of a thread to that
     * thread's next run; a queue send to the receive that takes its message,
     * or to the waiting receiver's next run; a semaphore put likewise */
    ULONG flows_isr_thread, flows_queue, flows_semaphore;
    /* where the trace's time went, switching where the trace shows it (at
     * ISR ENTER / EXIT records and dispatches): interrupts, initialization */
    ULONG interrupt_cycles, init_cycles;
} sim_truth;

/* The simulated machine. */
typedef struct sim_kernel {
    ULONG tick;          /* timer ticks so far */
    sim_thread *current; /* running thread, NULL before the scheduler starts */
    int started;         /* the scheduler runs (initialization is over) */
    sim_thread *threads[SIM_MAX_THREADS];
    int thread_count;
    sim_isr *isrs[SIM_MAX_ISRS];
    int isr_count;
    int isr_nesting;
    int isr_recorded;          /* ISRs between their ENTER and EXIT records (time truth) */
    UINT isr_running_priority; /* priority of the innermost active ISR */
    ULONG isr_outer_enter;     /* cycle the outermost active ISR entered */
    ULONG isr_nested_cycles[SIM_MAX_ISRS + 1]; /* per nesting level: its nested ISRs' run time */
    uint64_t ready_counter;
    /* inversion windows being watched: one per mutex */
    struct {
        sim_mutex *mutex;
        sim_thread *blocked, *owner;
        int open;
        int counted; /* found unbounded already */
        int record;  /* its entry in inversion_ran, -1: none */
    } windows[2];
    /* per inversion, in the order they began: the threads (indexes into
     * threads[]) of lower priority than the blocked one, other than the
     * owner, that got the CPU inside it, in the order they first did */
    struct {
        unsigned char thread[SIM_MAX_THREADS];
        int count;
    } inversion_ran[SIM_MAX_INVERSIONS];
    sim_truth truth;
} sim_kernel;

extern sim_kernel sim;

/* ------------------------------------------------------------ the clock */

/* Cycles since reset: the trace time source (trx_trace_simulated_time). */
ULONG sim_now(void);
/* Lets `cycles` pass without ISRs being checked (inside a kernel service). */
void sim_spend(ULONG cycles);

/* ------------------------------------------------- setup (initialization) */

/* Creates a thread (records THREAD_CREATE, registers it); start = 1 resumes it.
 * `base_depth`: stack bytes its code typically uses (for stack-usage traces). */
void sim_thread_create(sim_thread *t, const char *name, ULONG address, ULONG stack_start,
                       ULONG stack_size, UINT priority, ULONG base_depth, sim_body_fn body,
                       int start);
/* Adds an interrupt source firing every `period` cycles from `first_due`. */
void sim_isr_add(sim_isr *isr, const char *name, ULONG id, UINT priority, ULONG first_due,
                 ULONG period, ULONG cost, void (*handler)(void));
/* Runs the scheduler until the clock passes `end_cycle`. */
void sim_run(ULONG end_cycle);

/* ------------------------------------------------- thread-context services */

/* Computes for `cycles`, in slices an ISR may interrupt (then returns). */
void sim_work(sim_thread *self, ULONG cycles);
/* tx_thread_sleep: suspends the caller for `ticks` timer ticks. */
void sim_thread_sleep(sim_thread *self, ULONG ticks);
/* tx_thread_suspend on the caller itself. */
void sim_thread_suspend_self(sim_thread *self);
/* tx_thread_resume of a suspended thread (may preempt the caller). */
void sim_thread_resume(sim_thread *self, sim_thread *t);
/* The timer ISR's kernel part: counts the tick and wakes sleepers. */
void sim_timer_tick(void);
/* tx_trace_user_event_insert, counted. */
void sim_user_event(ULONG id, ULONG i1, ULONG i2, ULONG i3, ULONG i4);

/* ---------------------------------------------------------- sync objects */

void sim_mutex_create(sim_mutex *m, const char *name, ULONG address, int inherit);
/* tx_mutex_get; 0 = owned now, 1 = the caller blocked (owns it when it runs again). */
int sim_mutex_get(sim_thread *self, sim_mutex *m, ULONG wait);
/* tx_mutex_put; ownership passes to the best waiter. */
void sim_mutex_put(sim_thread *self, sim_mutex *m);

void sim_semaphore_create(sim_semaphore *s, const char *name, ULONG address, ULONG initial);
/* tx_semaphore_get; 0 = got it, 1 = blocked (has it when it runs again). */
int sim_semaphore_get(sim_thread *self, sim_semaphore *s, ULONG wait);
/* tx_semaphore_put, from a thread or an ISR. */
void sim_semaphore_put(sim_semaphore *s);

void sim_queue_create(sim_queue *q, const char *name, ULONG address, ULONG storage, ULONG size);
/* tx_queue_send (no wait); 0 = queued or handed over, 1 = queue full (dropped). */
int sim_queue_send(sim_queue *q, ULONG message);
/* tx_queue_receive; 0 = got one in self->message, 1 = blocked (has it when it runs). */
int sim_queue_receive(sim_thread *self, sim_queue *q, ULONG wait);

/* ------------------------------------------ kernel internals (sim_sync.c) */

/* Stack pointer of the running context, for a trace field that holds the
 * stack pointer (the running thread's deepest is kept for the truth). */
ULONG sim_stack_pointer(void);
/* An address `offset` bytes into the running context's stack (a buffer the
 * trace records, not its stack pointer). */
ULONG sim_stack_address(ULONG offset);
/* Makes `t` ready and records RESUME; switches at once when in thread context. */
void sim_resume_internal(sim_thread *t);
/* Blocks the caller in `state` and records SUSPEND; switches to the next thread. */
void sim_suspend_internal(sim_thread *self, enum sim_state state);
/* The highest-priority ready thread (FIFO among equals). */
sim_thread *sim_pick_next(void);
/* Records one kernel event through the recorder's hook macro, counted. */
void sim_trace(ULONG id, ULONG i1, ULONG i2, ULONG i3, ULONG i4, ULONG group);
/* Sets the effective priority (inheritance); updates the trace context. */
void sim_priority_set(sim_thread *t, UINT priority);
/* Inversion bookkeeping: a thread blocked on `m` held by a lower-priority owner. */
void sim_inversion_open(sim_mutex *m, sim_thread *blocked, sim_thread *owner);
/* The owner released `m`: the window (if still open) ends. */
void sim_inversion_close(sim_mutex *m);

#endif /* SIM_KERNEL_H */
