/* export_args.h - an event's decoded arguments as the exporters write them:
 * each information field with its caption (or "infoN"), and the registry name
 * of the object a field points at. */
#ifndef TRX_EXPORT_ARGS_H
#define TRX_EXPORT_ARGS_H

#include "trx/catalog.h"
#include "trx/trx.h"

/* One argument: caption, value and (when the value is a registered object's
 * address) that object's name, else NULL. */
typedef struct trx_export_arg {
    const char *label;
    uint32_t value;
    bool is_signed;     /* the description declares it i32: show (int32_t)value */
    const char *object; /* name of the object at `value`, or NULL */
} trx_export_arg;

/* The fields' trx_field_type for an event class, as its description says
 * (TRX_FIELD_U32 for UIA events the catalogue does not describe). */
void trx_export_field_types(const trx_trace *t, uint32_t id, uint16_t module,
                            const trx_custom_events *ce, uint8_t types[4]);

/* Fills up to four arguments of `ev` (fields whose caption is blank are
 * left out, except for events the catalogue does not know: info1..info4);
 * returns how many. A caption used twice keeps its first field only. */
int trx_export_args(const trx_trace *t, const trx_event *ev, const trx_custom_events *ce,
                    trx_export_arg out[4]);

/* Name of one event: for UIA traces the names table, module-aware
 * (trx_uia_event_name: "Event 0xMMMM:0xEEEE" when unknown), else the
 * catalogue / custom events. `buf` may hold the text. */
const char *trx_export_event_name(const trx_trace *t, const trx_event *ev,
                                  const trx_custom_events *ce, char buf[32]);

/* The same for outputs keyed by event id alone (CTF classes, report types):
 * `module` is the module of the first event seen with that id (UIA). */
const char *trx_export_type_name(const trx_trace *t, uint32_t id, uint16_t module,
                                 const trx_custom_events *ce, char buf[32]);

/* Field captions of `id` (of `module`): the catalogue's / custom events' when
 * they describe it ("" for unused fields), else "info1".."info4" (TXTB) or
 * "arg1".."arg4" (UIA events outside the default module). */
void trx_export_labels(const trx_trace *t, uint32_t id, uint16_t module,
                       const trx_custom_events *ce, const char *labels[4]);

/* The component of an event id: "threadx", "filex", "netx", "usbx" or "user". */
const char *trx_export_category(uint32_t id);

/* The category of an event with id `id` and kind `kind` (trx_event_kind) in
 * trace t: TXTB the component of its id (trx_export_category), the kernel's
 * named by the trace's RTOS (trx_vocab_category: "threadx", "freertos"); UIA by what
 * the event is to the scheduler: "task" (switches, ready, block, yield),
 * "interrupt" (Hwi / Swi begin and end), "sync" (semaphore / event post and
 * pend) or "uia" (everything else). */
const char *trx_export_category_of(const trx_trace *t, uint32_t id, uint8_t kind);

#endif
