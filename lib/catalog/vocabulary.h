/* vocabulary.h - an RTOS's own names for the events its integration records
 * (tables tools/gen_catalog.c generates at build time from the integration's
 * event description, e.g. recorder/integrations/freertos/trx_freertos_events.csv). */
#ifndef TRX_VOCABULARY_H
#define TRX_VOCABULARY_H

#include <stdint.h>

typedef struct trx_vocabulary_row {
    uint32_t id;
    const char *name;
    const char *label[4]; /* "" = no such field */
    uint8_t meaning;      /* trx_event_meaning */
    uint8_t type[4];      /* trx_field_type */
    uint8_t role[4];      /* trx_field_role */
} trx_vocabulary_row;

extern const trx_vocabulary_row trx_vocabulary_freertos_[];
extern const uint32_t trx_vocabulary_freertos_count_;

/* The row of `id` in FreeRTOS's vocabulary, or NULL. */
const trx_vocabulary_row *trx_vocabulary_freertos_find(uint32_t id);

#endif
