/* vocabulary.h - an RTOS's own names for the events its integration records
 * (tables generated at build time from the integration's CSV, e.g.
 * recorder/integrations/freertos/trx_freertos_events.csv). */
#ifndef TRX_VOCABULARY_H
#define TRX_VOCABULARY_H

#include <stdint.h>

typedef struct trx_vocabulary_row {
    uint32_t id;
    const char *name;
    const char *label[4]; /* "" = no such field */
} trx_vocabulary_row;

extern const trx_vocabulary_row trx_vocabulary_freertos_[];
extern const uint32_t trx_vocabulary_freertos_count_;

/* The row of `id` in FreeRTOS's vocabulary, or NULL. */
const trx_vocabulary_row *trx_vocabulary_freertos_find(uint32_t id);

#endif
