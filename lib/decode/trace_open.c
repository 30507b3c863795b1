/*
 * trace_open.c - opening a trace of any format: load the image (bin, Intel
 * HEX, S-record, ASCII hex), then decode it as TXTB (the "TXTB" id) or UIA
 * (a UIAPacket header or valid records), or as --trace-format says.
 * Content that is neither gets the TXTB decoder's error. A trx stream of
 * TXTB entries opens as the TXTB trace it carries (stream_txtb.h).
 */
#include <string.h>

#include "decode/stream_txtb.h"
#include "decode/trace_open.h"
#include "decode/uia_internal.h"

const char *trx_trace_format_name(trx_trace_format f)
{
    return f == TRX_TRACE_UIA ? "uia" : "txtb";
}

int trx_trace_format_parse(const char *name, trx_trace_format *out)
{
    if (strcmp(name, "txtb") == 0)
        *out = TRX_TRACE_TXTB;
    else if (strcmp(name, "uia") == 0)
        *out = TRX_TRACE_UIA;
    else
        return -1;
    return 0;
}

/* True when the image starts with the TXTB id in either byte order. */
static bool has_txtb_id(const trx_image *img)
{
    return img->size >= 4 &&
           (memcmp(img->data, "TXTB", 4) == 0 || memcmp(img->data, "BTXT", 4) == 0);
}

int trx_trace_open_image_with(trx_trace *t, trx_image *img, const char *name,
                              const trx_open_options *o, trx_error *err)
{
    memset(t, 0, sizeof *t);
    t->image = *img;
    memset(img, 0, sizeof *img);
    t->path = name;
    bool uia;
    if (o && o->force_format)
        uia = o->trace_format == TRX_TRACE_UIA;
    else
        uia = !has_txtb_id(&t->image) && trx_uia_probe(t->image.data, t->image.size);
    int rc = uia ? trx_uia_open(t, o, err) : trx_txtb_open(t, o, err);
    /* a stream of TXTB entries reads as the TXTB trace it carries, unless
     * the UIA decoder was asked for (its records as they are) */
    if (rc == 0 && uia && !(o && o->force_format))
        rc = trx_stream_txtb_adopt(t, err);
    if (rc != 0)
        trx_trace_close(t);
    return rc;
}

int trx_trace_open_image(trx_trace *t, trx_image *img, const char *name, trx_error *err)
{
    return trx_trace_open_image_with(t, img, name, NULL, err);
}

int trx_trace_open_with(trx_trace *t, const char *path, const trx_open_options *o, trx_error *err)
{
    trx_image img;
    memset(t, 0, sizeof *t);
    if (trx_image_load_file(&img, path, o ? o->input_format : TRX_FORMAT_AUTO, err) < 0)
        return -1;
    return trx_trace_open_image_with(t, &img, path, o, err);
}

int trx_trace_open(trx_trace *t, const char *path, trx_input_format format, trx_error *err)
{
    trx_open_options o;
    memset(&o, 0, sizeof o);
    o.input_format = format;
    return trx_trace_open_with(t, path, &o, err);
}
