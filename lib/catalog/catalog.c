/* catalog.c - lookups in the generated event catalogue (O(1) by id). */
#include "catalog/catalog_table.h"

const trx_event_type *trx_catalog_find(uint32_t id)
{
    if (id > trx_catalog_max_id_)
        return NULL;
    uint16_t i = trx_catalog_index_[id];
    return i ? &trx_catalog_rows_[i - 1u] : NULL;
}

const char *trx_catalog_dump_name(uint32_t id)
{
    return id < TRX_CATALOG_DUMP_IDS ? trx_catalog_dump_names_[id] : "INVALID  ";
}

uint32_t trx_catalog_size(void)
{
    return trx_catalog_row_count_;
}

uint32_t trx_catalog_max_id(void)
{
    return trx_catalog_max_id_;
}

int trx_catalog_field_with_role(uint32_t id, trx_field_role role)
{
    const trx_event_type *e = trx_catalog_find(id);
    for (int k = 0; e && k < 4; k++)
        if (e->role[k] == role)
            return k;
    return -1;
}
