/*
 * trx_trace_registry.c - the object registry: maps object addresses to names
 * (and thread priorities, stack bounds ...) for the analysis tool.
 *
 * Slot choice: the entry that already holds the pointer (in use, else a
 * freed one that still names it), else the first free entry; when none is
 * free the object is not registered. Names are truncated to
 * TX_TRACE_OBJECT_REGISTRY_NAME - 1 characters and NUL-padded.
 */
#include "trx_recorder_internal.h"

#if defined(TX_ENABLE_EVENT_TRACE)

/* Index of the entry to use for `pointer`, or registry_entries if none. */
static ULONG trx_registry_slot(const trx_recorder_state *r, ULONG pointer)
{
    ULONG i, same_free = r->registry_entries, first_free = r->registry_entries;
    for (i = 0; i < r->registry_entries; i++) {
        const trx_txtb_object *o = &r->registry[i];
        if (o->available != 1U) {
            if (o->object_pointer == pointer) {
                return i;
            }
        } else if (o->object_pointer == pointer && o->type != 0U) {
            if (same_free == r->registry_entries) {
                same_free = i;
            }
        } else if (first_free == r->registry_entries) {
            first_free = i;
        }
    }
    return same_free != r->registry_entries ? same_free : first_free;
}

/* Fills a registry entry. */
static UINT trx_registry_put(UCHAR type, VOID *object_ptr, const CHAR *name, ULONG parameter_1,
                             ULONG parameter_2, UCHAR reserved1, UCHAR reserved2)
{
    trx_recorder_state *r = &trx_recorder_state_;
    UINT status = TX_NOT_DONE;
    TRX_INTERRUPT_SAVE_AREA
    TRX_DISABLE
    if (trx_recorder_load_(&r->enabled) != 0UL) {
        ULONG slot = trx_registry_slot(r, TRX_ADDRESS_WORD(object_ptr));
        if (slot < r->registry_entries) {
            trx_txtb_object *o = &r->registry[slot];
            ULONG i = 0;
            o->available = 0;
            o->type = type;
            o->reserved1 = reserved1;
            o->reserved2 = reserved2;
            o->object_pointer = TRX_ADDRESS_WORD(object_ptr);
            o->parameter_1 = parameter_1;
            o->parameter_2 = parameter_2;
            if (name != NULL) {
                while (i < (ULONG)TX_TRACE_OBJECT_REGISTRY_NAME - 1UL && name[i] != '\0') {
                    o->name[i] = (UCHAR)name[i];
                    i++;
                }
            }
            trx_recorder_fill_(&o->name[i], (ULONG)TX_TRACE_OBJECT_REGISTRY_NAME - i, 0);
            status = TX_SUCCESS;
        }
    }
    TRX_RESTORE
    return status;
}

#endif

/* Registers any object; reserved bytes 0. */
UINT trx_trace_object_register(UCHAR object_type, VOID *object_ptr, const CHAR *name,
                               ULONG parameter_1, ULONG parameter_2)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    return trx_registry_put(object_type, object_ptr, name, parameter_1, parameter_2, 0, 0);
#else
    (void)object_type;
    (void)object_ptr;
    (void)name;
    (void)parameter_1;
    (void)parameter_2;
    return TX_FEATURE_NOT_ENABLED;
#endif
}

/* Registers a thread with its stack and priority. */
UINT trx_trace_thread_register(VOID *thread_ptr, const CHAR *name, VOID *stack_start,
                               ULONG stack_size, UINT priority)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    return trx_registry_put((UCHAR)TX_TRACE_OBJECT_TYPE_THREAD, thread_ptr, name,
                            TRX_ADDRESS_WORD(stack_start), stack_size,
                            (UCHAR)(0x80U | ((priority >> 8) & 0x7FU)), (UCHAR)(priority & 0xFFU));
#else
    (void)thread_ptr;
    (void)name;
    (void)stack_start;
    (void)stack_size;
    (void)priority;
    return TX_FEATURE_NOT_ENABLED;
#endif
}

/* Frees the entry naming `object_ptr`; its data stays. */
UINT trx_trace_object_unregister(VOID *object_ptr)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    trx_recorder_state *r = &trx_recorder_state_;
    ULONG pointer = TRX_ADDRESS_WORD(object_ptr), i;
    UINT status = TX_NOT_DONE;
    TRX_INTERRUPT_SAVE_AREA
    TRX_DISABLE
    if (trx_recorder_load_(&r->enabled) != 0UL) {
        for (i = 0; i < r->registry_entries; i++) {
            trx_txtb_object *o = &r->registry[i];
            if (o->available != 1U && o->object_pointer == pointer) {
                o->available = 1;
                status = TX_SUCCESS;
                break;
            }
        }
    }
    TRX_RESTORE
    return status;
#else
    (void)object_ptr;
    return TX_FEATURE_NOT_ENABLED;
#endif
}
