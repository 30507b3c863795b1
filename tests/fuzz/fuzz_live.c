/* fuzz_live.c - lean libFuzzer target: trx capture's running count of a
 * stream (stream/uia_live.h) on arbitrary bytes, fed in pieces whose sizes
 * and the stream format (auto, packets, raw records) come from the input's
 * first byte. Checks after every piece: the kept
 * bytes stay under one packet's bound; the count's offsets add up to the
 * bytes fed; the last packet boundary lies within them; no more events than
 * 8-byte records fit in the bytes; no more garbage than bytes. */
#include <stdint.h>
#include <stdlib.h>

#include "stream/uia_live.h"

#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c))                                                                                  \
            abort();                                                                               \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    size_t piece = 1 + (size_t)data[0] * 37;
    trx_uia_live l;
    trx_uia_live_init(&l);
    l.format = data[0] % 3; /* auto, packets, records */
    size_t fed = 0;
    for (size_t at = 1; at < size; at += piece) {
        size_t n = size - at < piece ? size - at : piece;
        if (trx_uia_live_feed(&l, data + at, n) != 0)
            break;
        fed += n;
        CHECK(l.len <= TRX_LIVE_MAX_PACKET);
        CHECK(l.offset + l.len == fed);
        CHECK(l.boundary <= l.offset);
        CHECK(l.events * 8 <= fed);
        CHECK(l.garbage_bytes <= fed);
        CHECK(l.packets * 16 <= fed);
    }
    trx_uia_live_free(&l);
    return 0;
}
