/* convert_txtb.c - a UIA trace, or a stream read as the TXTB trace it
 * carries, written as a TXTB buffer file in the records' byte order (rules
 * in convert.h; the buffer is stream_txtb.c's, each gap a lost-events user
 * event, so that TraceX and every trx command open it). */
#include <stdlib.h>

#include "decode/stream_txtb.h"
#include "output/convert.h"

int trx_convert_to_txtb(trx_trace *t, trx_out *o)
{
    trx_trace *uia = t->stream_source ? t->stream_source : t;
    trx_stream_txtb_image b;
    if (uia->format != TRX_TRACE_UIA || trx_stream_txtb_build(uia, true, &b) < 0)
        return -1;
    trx_out_mem(o, b.image, b.size);
    free(b.image);
    free(b.gap_entry);
    return 0;
}
