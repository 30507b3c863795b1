/* object_table.h - the trace's object and thread tables: adding registry
 * objects and Un-named Threads, and finding them by address. */
#ifndef TRX_OBJECT_TABLE_H
#define TRX_OBJECT_TABLE_H

#include "trx/trx.h"

/* Appends an object (and a thread entry when it is a thread). Returns its
 * index, or -1 when out of memory. */
int32_t trx_objects_add(trx_trace *t, const trx_object *o);

/* Appends an "Un-named Thread" for `address` with both priority bounds set to
 * `priority`, as TraceX does for an unregistered context. Returns the thread
 * index or -1. */
int32_t trx_objects_add_unnamed_thread(trx_trace *t, uint32_t address, uint32_t priority);

/* trx_thread_for_context, adding an Un-named Thread (as
 * trx_objects_add_unnamed_thread) when there is none, with one look-up;
 * *added says which. -1 when out of memory. */
int32_t trx_objects_thread_or_unnamed(trx_trace *t, uint32_t address, uint32_t priority,
                                      bool *added);

/* The thread an event context belongs to, as TraceX resolves it: the first
 * object with that address if it is a thread, else an Un-named Thread already
 * added for the address; -1 if neither exists. */
int32_t trx_thread_for_context(const trx_trace *t, uint32_t address);

/* A name made of `prefix` and `address` ("Task 0x20001000") that lives as
 * long as the trace (for objects that have no other); NULL when out of
 * memory. `prefix`: at most 12 characters. */
const char *trx_objects_made_name(trx_trace *t, const char *prefix, uint32_t address);

/* A copy of `name` (at most TRX_NAME_MAX bytes kept) that lives as long as
 * the trace; NULL when out of memory. */
const char *trx_objects_kept_name(trx_trace *t, const char *name);

/* Frees the tables. */
void trx_objects_free(trx_trace *t);

#endif
