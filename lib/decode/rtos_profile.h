/* rtos_profile.h - which RTOS made a TXTB trace (an integration's header
 * mark) and what that changes in how trx shows it. */
#ifndef TRX_RTOS_PROFILE_H
#define TRX_RTOS_PROFILE_H

#include "trx/trx.h"

/* Sets t->rtos and t->rtos_priorities from the header. */
void trx_rtos_profile_detect(trx_trace *t);

#endif
