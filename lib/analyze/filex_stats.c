/* filex_stats.c - TraceX's FileX statistics: each event feeds at most one
 * line (tracex.md 2.13). */
#include "analyze/analyses.h"

void trx_filex_feed(trx_filex_stats *f, const trx_event *ev)
{
    switch (ev->id) {
    case 261:
        f->media_opens++;
        break;
    case 258:
        f->media_closes++;
        break;
    case 255:
        f->media_aborts++;
        break;
    case 203:
        f->media_flushes++;
        break;
    case 204:
        f->directory_reads++;
        break;
    case 205:
        f->directory_writes++;
        break;
    case 202:
        f->directory_cache_misses++;
        break;
    case 247:
        f->file_opens++;
        break;
    case 243:
        f->file_closes++;
        break;
    case 248:
        f->file_bytes_read += ev->info[3];
        break;
    case 254:
        f->file_bytes_written += ev->info[3];
        break;
    case 206:
        f->sector_reads += ev->info[2];
        break;
    case 207:
        f->sector_writes += ev->info[2];
        break;
    case 201:
        f->sector_cache_misses++;
        break;
    default:
        break;
    }
}
