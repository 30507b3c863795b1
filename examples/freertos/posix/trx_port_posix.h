/* trx_port_posix.h - recorder port for FreeRTOS's POSIX port: its
 * "interrupts" are signals, so the critical section blocks all signals in
 * the calling thread (saved and restored: nests). Host example only. */
#ifndef TRX_PORT_POSIX_H
#define TRX_PORT_POSIX_H

#include <signal.h>
#include <stddef.h>

#define TRX_INTERRUPT_SAVE_AREA sigset_t trx_sigs_, trx_all_;
#define TRX_DISABLE                                                                                \
    sigfillset(&trx_all_);                                                                         \
    pthread_sigmask(SIG_BLOCK, &trx_all_, &trx_sigs_);
#define TRX_RESTORE pthread_sigmask(SIG_SETMASK, &trx_sigs_, NULL);

#endif
