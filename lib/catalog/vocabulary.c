/* vocabulary.c - look-ups in the RTOS vocabularies (see vocabulary.h). */
#include "catalog/vocabulary.h"

#include <stddef.h>

const trx_vocabulary_row *trx_vocabulary_freertos_find(uint32_t id)
{
    uint32_t lo = 0, hi = trx_vocabulary_freertos_count_; /* rows ascending by id */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (trx_vocabulary_freertos_[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < trx_vocabulary_freertos_count_ && trx_vocabulary_freertos_[lo].id == id
               ? &trx_vocabulary_freertos_[lo]
               : NULL;
}
