/*
 * trx_trace_control.c - turning tracing on and off: tx_trace_enable (buffer
 * layout), tx_trace_disable, the event filter and the full-notify callback.
 */
#include "trx_recorder_internal.h"

#define TRX_HEADER_BYTES 48UL
#define TRX_ENTRY_BYTES 32UL

#if defined(TX_ENABLE_EVENT_TRACE)

/* Writes the control header for the given layout. */
static VOID trx_header_write(trx_txtb_header *h, const trx_txtb_object *registry,
                             const trx_txtb_object *registry_end, const trx_txtb_entry *first,
                             const trx_txtb_entry *end)
{
    h->id = TRX_RECORDER_TXTB_ID;
    h->timer_valid_mask = (ULONG)(TX_TRACE_TIME_MASK);
    h->trace_base_address = TRX_ADDRESS_WORD(h);
    h->registry_start = TRX_ADDRESS_WORD(registry);
    h->reserved1 = TRX_RECORDER_ENTRY_CHECK ? (USHORT)TRX_ENTRY_CHECK_MARK : (USHORT)0;
    h->registry_name_size = (USHORT)TX_TRACE_OBJECT_REGISTRY_NAME;
    h->registry_end = TRX_ADDRESS_WORD(registry_end);
    h->buffer_start = TRX_ADDRESS_WORD(first);
    h->buffer_end = TRX_ADDRESS_WORD(end);
    h->buffer_current = TRX_ADDRESS_WORD(first);
    h->reserved2 = TRX_RECORDER_TXTB_RESERVED2;
    h->reserved3 = TRX_RECORDER_TXTB_RESERVED3;
    h->reserved4 = TRX_RECORDER_TXTB_RESERVED4;
}

#endif

/* Lays out the buffer, enables every event group, calls the enable callback
 * and inserts the two RUNNING events. */
UINT tx_trace_enable(VOID *trace_buffer_start, ULONG trace_buffer_size, ULONG registry_entries)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    trx_recorder_state *r = &trx_recorder_state_;
    UCHAR *base = (UCHAR *)trace_buffer_start;
    const ULONG object_bytes = (ULONG)sizeof(trx_txtb_object);
    trx_txtb_object *registry;
    trx_txtb_entry *first, *end;
    ULONG registry_bytes, capacity, i;
    TRX_INTERRUPT_SAVE_AREA

    if (trx_recorder_load_(&r->enabled) != 0UL) {
        return TX_NOT_DONE;
    }
    if (base == NULL || (TRX_ADDRESS_WORD(base) & 3UL) != 0UL) {
        return TX_PTR_ERROR;
    }
    if (trace_buffer_size < TRX_HEADER_BYTES + TRX_ENTRY_BYTES ||
        registry_entries >
            (trace_buffer_size - TRX_HEADER_BYTES - TRX_ENTRY_BYTES) / object_bytes) {
        return TX_SIZE_ERROR;
    }
    registry_bytes = registry_entries * object_bytes;
    capacity = (trace_buffer_size - TRX_HEADER_BYTES - registry_bytes) / TRX_ENTRY_BYTES;
    registry = (trx_txtb_object *)(void *)(base + TRX_HEADER_BYTES);
    first = (trx_txtb_entry *)(void *)(base + TRX_HEADER_BYTES + registry_bytes);
    end = first + capacity;

    trx_header_write((trx_txtb_header *)(void *)base, registry, registry + registry_entries, first,
                     end);
    for (i = 0; i < registry_entries; i++) {
        trx_recorder_fill_((UCHAR *)&registry[i], object_bytes, 0);
        registry[i].available = 1;
    }
    for (i = 0; i < capacity; i++) {
        first[i].thread_pointer = 0UL;
    }

    TRX_DISABLE
    r->header = (trx_txtb_header *)(void *)base;
    r->start = first;
    r->current = first;
    r->end = end;
    r->capacity = capacity;
    r->registry = registry;
    r->registry_entries = registry_entries;
    r->filter_bits = 0xFFFFFFFFUL;
    trx_recorder_store_(&r->enabled, 1UL);
    trx_recorder_store_(&r->active_bits, r->filter_bits); /* release: layout first */
    TRX_RESTORE

    if (r->enable_callback != NULL) {
        r->enable_callback();
    }
    trx_trace_insert(TX_TRACE_RUNNING, 0UL, 0UL, 0UL, 0UL, TX_TRACE_INTERNAL_EVENTS);
    trx_trace_insert(TX_TRACE_RUNNING, 0UL, 0UL, 0UL, 0UL, TX_TRACE_INTERNAL_EVENTS);
    return TX_SUCCESS;
#else
    (void)trace_buffer_start;
    (void)trace_buffer_size;
    (void)registry_entries;
    return TX_FEATURE_NOT_ENABLED;
#endif
}

/* Stops recording; the buffer keeps its contents. */
UINT tx_trace_disable(VOID)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    trx_recorder_state *r = &trx_recorder_state_;
    UINT status = TX_NOT_DONE;
    TRX_INTERRUPT_SAVE_AREA
    TRX_DISABLE
    if (trx_recorder_load_(&r->enabled) != 0UL) {
        trx_recorder_store_(&r->active_bits, 0UL);
        trx_recorder_store_(&r->enabled, 0UL);
        status = TX_SUCCESS;
    }
    TRX_RESTORE
    return status;
#else
    return TX_FEATURE_NOT_ENABLED;
#endif
}

/* Clears the given groups from the recorded ones. */
UINT tx_trace_event_filter(ULONG event_filter_bits)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    trx_recorder_state *r = &trx_recorder_state_;
    TRX_INTERRUPT_SAVE_AREA
    TRX_DISABLE
    r->filter_bits &= ~event_filter_bits;
    if (trx_recorder_load_(&r->enabled) != 0UL) {
        trx_recorder_store_(&r->active_bits, r->filter_bits);
    }
    TRX_RESTORE
    return TX_SUCCESS;
#else
    (void)event_filter_bits;
    return TX_FEATURE_NOT_ENABLED;
#endif
}

/* Adds the given groups back to the recorded ones. */
UINT tx_trace_event_unfilter(ULONG event_unfilter_bits)
{
#if defined(TX_ENABLE_EVENT_TRACE)
    trx_recorder_state *r = &trx_recorder_state_;
    TRX_INTERRUPT_SAVE_AREA
    TRX_DISABLE
    r->filter_bits |= event_unfilter_bits;
    if (trx_recorder_load_(&r->enabled) != 0UL) {
        trx_recorder_store_(&r->active_bits, r->filter_bits);
    }
    TRX_RESTORE
    return TX_SUCCESS;
#else
    (void)event_unfilter_bits;
    return TX_FEATURE_NOT_ENABLED;
#endif
}

/* Sets (or with NULL clears) the function called on every wrap. */
UINT tx_trace_buffer_full_notify(VOID (*full_buffer_callback)(VOID *buffer))
{
#if defined(TX_ENABLE_EVENT_TRACE)
    TRX_INTERRUPT_SAVE_AREA
    TRX_DISABLE
    trx_recorder_state_.full_notify = full_buffer_callback;
    TRX_RESTORE
    return TX_SUCCESS;
#else
    (void)full_buffer_callback;
    return TX_FEATURE_NOT_ENABLED;
#endif
}
