/* smp_test_port.h - recorder port for the SMP test: every host thread plays
 * one core. The core number and the running thread are thread-local, set by
 * each writer; the recorder reads them on every insert through the port hooks
 * (TRX_PORT_CORE_ID and the running-context hooks). */
#ifndef TRX_SMP_TEST_PORT_H
#define TRX_SMP_TEST_PORT_H

extern _Thread_local unsigned long smp_test_core;    /* this "core"'s number */
extern _Thread_local void *smp_test_thread;          /* thread running on it, NULL: init */
extern _Thread_local unsigned long smp_test_inserts; /* inserts this writer made */

#define TRX_PORT_CORE_ID() (smp_test_inserts++, smp_test_core)
#define TRX_PORT_SYSTEM_STATE() (smp_test_thread != 0 ? 0UL : 0xF0F0F0F0UL)
#define TRX_PORT_CURRENT_THREAD() smp_test_thread
#define TRX_PORT_THREAD_PRIORITY(t) ((void)(t), 10U)
#define TRX_PORT_THREAD_PREEMPT_THRESHOLD(t) ((void)(t), 10U)

#endif
