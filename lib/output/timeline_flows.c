/*
 * timeline_flows.c - cause and effect between events, matched as they come:
 *   ISR -> thread: an INTERNAL RESUME inside an interrupt starts a flow that
 *     ends where the resumed thread next starts running;
 *   queue send -> receive, semaphore put -> get: a send/put starts a flow; a
 *     receive/get that finds something (enqueued / current count > 0) ends
 *     the pending one it takes (FIFO, counted with the recorded enqueued /
 *     current count); a send/put that finds a waiter
 *     (a receive/get that found nothing and chose to wait) ends where that
 *     waiter next runs.
 *   post -> pend (kinds POST / PEND: SYS/BIOS's Semaphore and Event; a Swi's
 *     post -> its begin): a post starts a flow; a pend or Swi begin takes
 *     the oldest pending post of its object; a pend that finds none waits,
 *     and the next post ends where that waiter next runs.
 * Only registered queues and semaphores are followed, and at most
 * POSTED_OBJECTS posted objects, each with small bounded rings (oldest
 * dropped when full), so memory stays O(threads + registry objects)
 * whatever the trace holds.
 */
#include "output/timeline.h"

#include <stdlib.h>
#include <string.h>

#include "util/address_map.h"

#define RING 64 /* pending sends / waiters kept per object (deeper queues lose flows) */
#define POSTED_OBJECTS 1024u /* objects followed by POST / PEND (their handles) */

typedef struct flow_ring {
    trx_flow item[RING];
    uint8_t head, count;
} flow_ring;

typedef struct lane_ring {
    uint32_t lane[RING];
    uint8_t head, count;
} lane_ring;

typedef struct object_state {
    flow_ring pending; /* sends / puts not yet taken */
    lane_ring waiters; /* lanes waiting for a send / put */
} object_state;

typedef struct lane_pending {
    trx_flow item[TRX_FLOWS_PER_LANE];
    uint8_t count;
} lane_pending;

struct trx_flow_matcher {
    const trx_trace *trace;
    uint64_t next_id;
    object_state *objects;     /* by object index */
    trx_address_map posted_at; /* POST / PEND objects: handle -> index into posted */
    object_state *posted;
    lane_pending *lanes; /* by lane */
    uint32_t lane_count;
};

trx_flow_matcher *trx_flows_new(const trx_trace *t)
{
    trx_flow_matcher *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->trace = t;
    m->next_id = 1;
    m->lane_count = trx_lane_count(t);
    m->objects = calloc(t->object_count ? t->object_count : 1, sizeof *m->objects);
    m->lanes = calloc(m->lane_count, sizeof *m->lanes);
    if (!m->objects || !m->lanes) {
        trx_flows_free(m);
        return NULL;
    }
    return m;
}

void trx_flows_free(trx_flow_matcher *m)
{
    if (!m)
        return;
    free(m->objects);
    free(m->lanes);
    trx_address_map_free(&m->posted_at);
    free(m->posted);
    free(m);
}

static void flow_push(flow_ring *r, trx_flow f)
{
    if (r->count == RING) { /* drop the oldest */
        r->head = (uint8_t)((r->head + 1) % RING);
        r->count--;
    }
    r->item[(r->head + r->count) % RING] = f;
    r->count++;
}

static bool flow_pop(flow_ring *r, trx_flow *f)
{
    if (r->count == 0)
        return false;
    *f = r->item[r->head];
    r->head = (uint8_t)((r->head + 1) % RING);
    r->count--;
    return true;
}

static void lane_push(lane_ring *r, uint32_t lane)
{
    if (r->count == RING) {
        r->head = (uint8_t)((r->head + 1) % RING);
        r->count--;
    }
    r->lane[(r->head + r->count) % RING] = lane;
    r->count++;
}

static bool lane_pop(lane_ring *r, uint32_t *lane)
{
    if (r->count == 0)
        return false;
    *lane = r->lane[r->head];
    r->head = (uint8_t)((r->head + 1) % RING);
    r->count--;
    return true;
}

/* Queues the flow `f` to end where `lane` next starts running. */
static void wait_for_run(trx_flow_matcher *m, uint32_t lane, trx_flow f)
{
    lane_pending *p = &m->lanes[lane];
    if (p->count == TRX_FLOWS_PER_LANE) { /* drop the oldest */
        memmove(p->item, p->item + 1, sizeof p->item[0] * (TRX_FLOWS_PER_LANE - 1));
        p->count--;
    }
    p->item[p->count++] = f;
}

/* The state of the registered object of `type` at `address`, or NULL. */
static object_state *object_of(trx_flow_matcher *m, uint32_t address, uint8_t type)
{
    int32_t o = trx_trace_find_object(m->trace, address);
    if (o < 0 || m->trace->objects[o].type != type)
        return NULL;
    return &m->objects[o];
}

/* The state of POST / PEND object `handle`, added on first use; NULL past
 * POSTED_OBJECTS or out of memory. */
static object_state *posted_object(trx_flow_matcher *m, uint32_t handle)
{
    uint32_t *at = trx_address_map_find(&m->posted_at, handle);
    if (at)
        return &m->posted[*at];
    uint32_t n = m->posted_at.count;
    if (n >= POSTED_OBJECTS)
        return NULL;
    if (!m->posted && !(m->posted = calloc(POSTED_OBJECTS, sizeof *m->posted)))
        return NULL;
    if (trx_address_map_put(&m->posted_at, handle, n) < 0)
        return NULL;
    return &m->posted[n];
}

static trx_flow new_flow(trx_flow_matcher *m, const trx_event *ev, uint32_t lane)
{
    trx_flow f = {m->next_id++, ev->ticks, ev->index, lane};
    return f;
}

/* A send / put: hand it to a waiter (ends where the waiter runs), else keep it pending. */
static void on_give(trx_flow_matcher *m, object_state *s, const trx_event *ev, uint32_t lane,
                    bool waiters_exist, trx_flow_step *step)
{
    step->starts = true;
    step->start = new_flow(m, ev, lane);
    uint32_t waiter;
    if (waiters_exist && lane_pop(&s->waiters, &waiter))
        wait_for_run(m, waiter, step->start);
    else
        flow_push(&s->pending, step->start);
}

/* A receive / get that found `available` messages (tokens) takes the oldest
 * one. The pending gives we know are the newest: with more available than
 * pending, the one taken is older than anything seen (no flow); with fewer,
 * the excess pending were taken unseen and are dropped. Nothing available:
 * the taker waits (when it asked to). */
static void on_take(object_state *s, uint32_t available, uint32_t wait_option, uint32_t lane,
                    const trx_trace *t, trx_flow_step *step)
{
    if (available > 0) {
        trx_flow dropped;
        while (s->pending.count > available)
            flow_pop(&s->pending, &dropped);
        if (s->pending.count == available && flow_pop(&s->pending, &step->end))
            step->ends = true;
    } else if (wait_option != 0 && lane < t->thread_count) {
        lane_push(&s->waiters, lane);
    }
}

void trx_flows_on_event(trx_flow_matcher *m, const trx_event *ev, uint32_t lane,
                        trx_flow_step *step)
{
    memset(step, 0, sizeof *step);
    if (ev->synthetic)
        return;
    const trx_trace *t = m->trace;
    object_state *s;
    switch (ev->kind) {
    case TRX_KIND_RESUME:
        if (ev->context == TRX_CONTEXT_ISR) {
            int32_t th = trx_trace_first_thread_at(t, ev->subject);
            if (th >= 0) {
                step->starts = true;
                step->start = new_flow(m, ev, lane);
                wait_for_run(m, (uint32_t)th, step->start);
            }
        }
        break;
    case TRX_KIND_QUEUE_SEND:
        if ((s = object_of(m, ev->info[0], TRX_OBJ_QUEUE)) != NULL)
            on_give(m, s, ev, lane, true, step);
        break;
    case TRX_KIND_QUEUE_RECEIVE: /* queue, destination, wait option, enqueued */
        if ((s = object_of(m, ev->info[0], TRX_OBJ_QUEUE)) != NULL)
            on_take(s, ev->info[3], ev->info[2], lane, t, step);
        break;
    case TRX_KIND_SEM_PUT: /* semaphore, current count, suspended count */
        if ((s = object_of(m, ev->info[0], TRX_OBJ_SEMAPHORE)) != NULL)
            on_give(m, s, ev, lane, ev->info[2] > 0, step);
        break;
    case TRX_KIND_SEM_GET: /* semaphore, wait option, current count */
        if ((s = object_of(m, ev->info[0], TRX_OBJ_SEMAPHORE)) != NULL)
            on_take(s, ev->info[2], ev->info[1], lane, t, step);
        break;
    case TRX_KIND_POST: /* a waiter takes it, else it waits for a pend */
        if ((s = posted_object(m, ev->subject)) != NULL)
            on_give(m, s, ev, lane, true, step);
        break;
    case TRX_KIND_PEND: /* the oldest post, else wait for the next */
    case TRX_KIND_SWI_BEGIN:
        if ((s = posted_object(m, ev->subject)) != NULL)
            on_take(s, s->pending.count, ev->kind == TRX_KIND_PEND, lane, t, step);
        break;
    default:
        break;
    }
}

int trx_flows_on_run(trx_flow_matcher *m, uint32_t lane, trx_flow *out, int max)
{
    if (lane >= m->lane_count)
        return 0;
    lane_pending *p = &m->lanes[lane];
    int n = p->count < max ? p->count : max;
    memcpy(out, p->item, sizeof out[0] * (size_t)n);
    p->count = 0;
    return n;
}
