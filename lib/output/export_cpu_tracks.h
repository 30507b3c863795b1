/* export_cpu_tracks.h - per-core pictures for the exporters: the running
 * thread of every core (the core tracker, trx/cores.h) as Perfetto CPU
 * tracks (ftrace sched_switch events, one bundle per switch, cpu = core) and
 * as Chrome JSON slices on a "CPU n" process per core. */
#ifndef TRX_EXPORT_CPU_TRACKS_H
#define TRX_EXPORT_CPU_TRACKS_H

#include "output/export_formats.h"

typedef struct trx_cpu_tracks trx_cpu_tracks;

/* What a CPU-track writer produces. */
typedef enum { TRX_CPU_TRACKS_PERFETTO, TRX_CPU_TRACKS_CHROME } trx_cpu_tracks_kind;

/* A writer for prepared trace `t` into `w`, or NULL when out of memory. */
trx_cpu_tracks *trx_cpu_tracks_new(trx_trace *t, trx_out *w, const trx_export_options *o,
                                   trx_cpu_tracks_kind kind);

/* Feeds the next event (in cursor order); writes the switches it causes. */
void trx_cpu_tracks_feed(trx_cpu_tracks *c, const trx_event *ev);

/* Ends every core's last slice at the last event (Chrome) and frees the writer. */
void trx_cpu_tracks_finish(trx_cpu_tracks *c);

#endif
