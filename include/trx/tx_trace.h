/*
 * tx_trace.h - the ThreadX event-trace API (tx_trace_*) as the trx recorder
 * provides it: status codes, event-filter groups, object types, ThreadX
 * event ids and the eight seed calls. Freestanding C99; safe to include
 * after a real tx_api.h (its types and status codes are then reused).
 * The recorder's own calls (RTOS hooks, registry, context) are in recorder.h.
 */
#ifndef TRX_TX_TRACE_H
#define TRX_TX_TRACE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------ ThreadX basic types */
#ifndef TX_API_H
#define VOID void
typedef char CHAR;
typedef unsigned char UCHAR;
typedef unsigned int UINT;
typedef uint16_t USHORT;
typedef uint32_t ULONG; /* 32 bits on every host, like on the target */
#endif

/* ------------------------------------------------------------ status codes */
#ifndef TX_SUCCESS
#define TX_SUCCESS 0x00U
#endif
#ifndef TX_PTR_ERROR
#define TX_PTR_ERROR 0x03U /* trx extension: NULL or misaligned trace buffer */
#endif
#ifndef TX_SIZE_ERROR
#define TX_SIZE_ERROR 0x05U
#endif
#ifndef TX_NOT_DONE
#define TX_NOT_DONE 0x20U
#endif
#ifndef TX_FEATURE_NOT_ENABLED
#define TX_FEATURE_NOT_ENABLED 0xFFU
#endif

/* ------------------------------------------------ event filter groups (bits) */
#define TX_TRACE_ALL_EVENTS 0x000007FFUL
#define TX_TRACE_INTERNAL_EVENTS 0x00000001UL
#define TX_TRACE_BLOCK_POOL_EVENTS 0x00000002UL
#define TX_TRACE_BYTE_POOL_EVENTS 0x00000004UL
#define TX_TRACE_EVENT_FLAGS_EVENTS 0x00000008UL
#define TX_TRACE_INTERRUPT_CONTROL_EVENT 0x00000010UL
#define TX_TRACE_MUTEX_EVENTS 0x00000020UL
#define TX_TRACE_QUEUE_EVENTS 0x00000040UL
#define TX_TRACE_SEMAPHORE_EVENTS 0x00000080UL
#define TX_TRACE_THREAD_EVENTS 0x00000100UL
#define TX_TRACE_TIME_EVENTS 0x00000200UL
#define TX_TRACE_TIMER_EVENTS 0x00000400UL
#define FX_TRACE_ALL_EVENTS 0x00007800UL
#define FX_TRACE_INTERNAL_EVENTS 0x00000800UL
#define FX_TRACE_MEDIA_EVENTS 0x00001000UL
#define FX_TRACE_DIRECTORY_EVENTS 0x00002000UL
#define FX_TRACE_FILE_EVENTS 0x00004000UL
#define NX_TRACE_ALL_EVENTS 0x00FF8000UL
#define NX_TRACE_INTERNAL_EVENTS 0x00008000UL
#define NX_TRACE_ARP_EVENTS 0x00010000UL
#define NX_TRACE_ICMP_EVENTS 0x00020000UL
#define NX_TRACE_IGMP_EVENTS 0x00040000UL
#define NX_TRACE_IP_EVENTS 0x00080000UL
#define NX_TRACE_PACKET_EVENTS 0x00100000UL
#define NX_TRACE_RARP_EVENTS 0x00200000UL
#define NX_TRACE_TCP_EVENTS 0x00400000UL
#define NX_TRACE_UDP_EVENTS 0x00800000UL
#define UX_TRACE_ALL_EVENTS 0x7F000000UL
#define UX_TRACE_ERRORS 0x01000000UL
#define UX_TRACE_HOST_STACK_EVENTS 0x02000000UL
#define UX_TRACE_DEVICE_STACK_EVENTS 0x04000000UL
#define UX_TRACE_HOST_CONTROLLER_EVENTS 0x08000000UL
#define UX_TRACE_DEVICE_CONTROLLER_EVENTS 0x10000000UL
#define UX_TRACE_HOST_CLASS_EVENTS 0x20000000UL
#define UX_TRACE_DEVICE_CLASS_EVENTS 0x40000000UL
#define TX_TRACE_USER_EVENTS 0x80000000UL

/* User event ids (ThreadX does not range-check them, nor does trx). */
#define TX_TRACE_USER_EVENT_START 4096UL
#define TX_TRACE_USER_EVENT_END 65535UL

/* --------------------------------------------- object types in the registry */
#define TX_TRACE_OBJECT_TYPE_NOT_VALID 0U
#define TX_TRACE_OBJECT_TYPE_THREAD 1U
#define TX_TRACE_OBJECT_TYPE_TIMER 2U
#define TX_TRACE_OBJECT_TYPE_QUEUE 3U
#define TX_TRACE_OBJECT_TYPE_SEMAPHORE 4U
#define TX_TRACE_OBJECT_TYPE_MUTEX 5U
#define TX_TRACE_OBJECT_TYPE_EVENT_FLAGS 6U
#define TX_TRACE_OBJECT_TYPE_BLOCK_POOL 7U
#define TX_TRACE_OBJECT_TYPE_BYTE_POOL 8U
#define FX_TRACE_OBJECT_TYPE_MEDIA 9U
#define FX_TRACE_OBJECT_TYPE_FILE 10U
#define NX_TRACE_OBJECT_TYPE_IP 11U
#define NX_TRACE_OBJECT_TYPE_PACKET_POOL 12U
#define NX_TRACE_OBJECT_TYPE_TCP_SOCKET 13U
#define NX_TRACE_OBJECT_TYPE_UDP_SOCKET 14U
#define UX_TRACE_HOST_OBJECT_TYPE_DEVICE 21U
#define UX_TRACE_HOST_OBJECT_TYPE_INTERFACE 22U
#define UX_TRACE_HOST_OBJECT_TYPE_ENDPOINT 23U
#define UX_TRACE_HOST_OBJECT_TYPE_CLASS_INSTANCE 24U
#define UX_TRACE_DEVICE_OBJECT_TYPE_DEVICE 25U
#define UX_TRACE_DEVICE_OBJECT_TYPE_INTERFACE 26U
#define UX_TRACE_DEVICE_OBJECT_TYPE_ENDPOINT 27U
#define UX_TRACE_DEVICE_OBJECT_TYPE_CLASS_INSTANCE 28U

/* ------------------------- context markers written in an entry's thread word */
#define TX_TRACE_CONTEXT_NONE 0x00000000UL /* entry never written */
#define TX_TRACE_CONTEXT_INITIALIZE 0xF0F0F0F0UL
#define TX_TRACE_CONTEXT_ISR 0xFFFFFFFFUL

/* ----------------------------------------------- ThreadX event ids (1..1024) */
/* Groups: 1..6 TX_TRACE_INTERNAL_EVENTS; the others by name (see events.csv). */
#define TX_TRACE_THREAD_RESUME 1UL                            /* TX INTERNAL RESUME */
#define TX_TRACE_THREAD_SUSPEND 2UL                           /* TX INTERNAL SUSPEND */
#define TX_TRACE_ISR_ENTER 3UL                                /* ISR ENTER */
#define TX_TRACE_ISR_EXIT 4UL                                 /* ISR EXIT */
#define TX_TRACE_TIME_SLICE 5UL                               /* TX TIME SLICE */
#define TX_TRACE_RUNNING 6UL                                  /* TX RUNNING */
#define TX_TRACE_BLOCK_ALLOCATE 10UL                          /* TX BLOCK ALLOCATE */
#define TX_TRACE_BLOCK_POOL_CREATE 11UL                       /* TX BLOCK POOL CREATE */
#define TX_TRACE_BLOCK_POOL_DELETE 12UL                       /* TX BLOCK POOL DELETE */
#define TX_TRACE_BLOCK_POOL_INFO_GET 13UL                     /* TX BLOCK INFO GET */
#define TX_TRACE_BLOCK_POOL_PERFORMANCE_INFO_GET 14UL         /* TX BLOCK PERF GET */
#define TX_TRACE_BLOCK_POOL_PERFORMANCE_SYSTEM_INFO_GET 15UL  /* TX BLOCK SYS PERF GET */
#define TX_TRACE_BLOCK_POOL_PRIORITIZE 16UL                   /* TX BLOCK PRIORITIZE */
#define TX_TRACE_BLOCK_RELEASE 17UL                           /* TX BLOCK RELEASE */
#define TX_TRACE_BYTE_ALLOCATE 20UL                           /* TX BYTE ALLOCATE */
#define TX_TRACE_BYTE_POOL_CREATE 21UL                        /* TX BYTE POOL CREATE */
#define TX_TRACE_BYTE_POOL_DELETE 22UL                        /* TX BYTE POOL DELETE */
#define TX_TRACE_BYTE_POOL_INFO_GET 23UL                      /* TX BYTE INFO GET */
#define TX_TRACE_BYTE_POOL_PERFORMANCE_INFO_GET 24UL          /* TX BYTE PERF GET */
#define TX_TRACE_BYTE_POOL_PERFORMANCE_SYSTEM_INFO_GET 25UL   /* TX BYTE SYS PERF GET */
#define TX_TRACE_BYTE_POOL_PRIORITIZE 26UL                    /* TX BYTE PRIORITIZE */
#define TX_TRACE_BYTE_RELEASE 27UL                            /* TX BYTE RELEASE */
#define TX_TRACE_EVENT_FLAGS_CREATE 30UL                      /* TX EVENT FLAG CREATE */
#define TX_TRACE_EVENT_FLAGS_DELETE 31UL                      /* TX EVENT FLAG DELETE */
#define TX_TRACE_EVENT_FLAGS_GET 32UL                         /* TX EVENT FLAG GET */
#define TX_TRACE_EVENT_FLAGS_INFO_GET 33UL                    /* TX EVENT FLAG INFO GET */
#define TX_TRACE_EVENT_FLAGS_PERFORMANCE_INFO_GET 34UL        /* TX EVENT FLAG PERF GET */
#define TX_TRACE_EVENT_FLAGS_PERFORMANCE_SYSTEM_INFO_GET 35UL /* TX EVENT FLAG SYSP GET */
#define TX_TRACE_EVENT_FLAGS_SET 36UL                         /* TX EVENT FLAG SET */
#define TX_TRACE_EVENT_FLAGS_SET_NOTIFY 37UL                  /* TX EVENT FLAG NOTIFY */
#define TX_TRACE_INTERRUPT_CONTROL 40UL                       /* INT CNTRL */
#define TX_TRACE_MUTEX_CREATE 50UL                            /* TX MUTEX CREATE */
#define TX_TRACE_MUTEX_DELETE 51UL                            /* TX MUTEX DELETE */
#define TX_TRACE_MUTEX_GET 52UL                               /* TX MUTEX GET */
#define TX_TRACE_MUTEX_INFO_GET 53UL                          /* TX MUTEX INFO GET */
#define TX_TRACE_MUTEX_PERFORMANCE_INFO_GET 54UL              /* TX MUTEX PERF GET */
#define TX_TRACE_MUTEX_PERFORMANCE_SYSTEM_INFO_GET 55UL       /* TX MUTEX SYS PERF GET */
#define TX_TRACE_MUTEX_PRIORITIZE 56UL                        /* TX MUTEX PRIORITIZE */
#define TX_TRACE_MUTEX_PUT 57UL                               /* TX MUTEX PUT */
#define TX_TRACE_QUEUE_CREATE 60UL                            /* TX QUEUE CREATE */
#define TX_TRACE_QUEUE_DELETE 61UL                            /* TX QUEUE DELETE */
#define TX_TRACE_QUEUE_FLUSH 62UL                             /* TX QUEUE FLUSH */
#define TX_TRACE_QUEUE_FRONT_SEND 63UL                        /* TX QUEUE FRONT SEND */
#define TX_TRACE_QUEUE_INFO_GET 64UL                          /* TX QUEUE INFO GET */
#define TX_TRACE_QUEUE_PERFORMANCE_INFO_GET 65UL              /* TX QUEUE PERF GET */
#define TX_TRACE_QUEUE_PERFORMANCE_SYSTEM_INFO_GET 66UL       /* TX QUEUE SYS PERF GET */
#define TX_TRACE_QUEUE_PRIORITIZE 67UL                        /* TX QUEUE PRIORITIZE */
#define TX_TRACE_QUEUE_RECEIVE 68UL                           /* TX QUEUE RECEIVE */
#define TX_TRACE_QUEUE_SEND 69UL                              /* TX QUEUE SEND */
#define TX_TRACE_QUEUE_SEND_NOTIFY 70UL                       /* TX QUEUE NOTIFY */
#define TX_TRACE_SEMAPHORE_CEILING_PUT 80UL                   /* TX SEMAPHORE CEIL PUT */
#define TX_TRACE_SEMAPHORE_CREATE 81UL                        /* TX SEMAPHORE CREATE */
#define TX_TRACE_SEMAPHORE_DELETE 82UL                        /* TX SEMAPHORE DELETE */
#define TX_TRACE_SEMAPHORE_GET 83UL                           /* TX SEMAPHORE GET */
#define TX_TRACE_SEMAPHORE_INFO_GET 84UL                      /* TX SEMAPHORE INFO GET */
#define TX_TRACE_SEMAPHORE_PERFORMANCE_INFO_GET 85UL          /* TX SEMAPHORE PERF GET */
#define TX_TRACE_SEMAPHORE_PERFORMANCE_SYSTEM_INFO_GET 86UL   /* TX SEMAPHORE SYS PERF */
#define TX_TRACE_SEMAPHORE_PRIORITIZE 87UL                    /* TX SEMAPHORE PRIORITIZE */
#define TX_TRACE_SEMAPHORE_PUT 88UL                           /* TX SEMAPHORE PUT */
#define TX_TRACE_SEMAPHORE_PUT_NOTIFY 89UL                    /* TX SEMAPHORE NOTIFY */
#define TX_TRACE_THREAD_CREATE 100UL                          /* TX THREAD CREATE */
#define TX_TRACE_THREAD_DELETE 101UL                          /* TX THREAD DELETE */
#define TX_TRACE_THREAD_ENTRY_EXIT_NOTIFY 102UL               /* TX THREAD NOTIFY */
#define TX_TRACE_THREAD_IDENTIFY 103UL                        /* TX THREAD IDENTIFY */
#define TX_TRACE_THREAD_INFO_GET 104UL                        /* TX THREAD INFO GET */
#define TX_TRACE_THREAD_PERFORMANCE_INFO_GET 105UL            /* TX THREAD PERF GET */
#define TX_TRACE_THREAD_PERFORMANCE_SYSTEM_INFO_GET 106UL     /* TX THREAD SYS PERF GET */
#define TX_TRACE_THREAD_PREEMPTION_CHANGE 107UL               /* TX THREAD PREEMPT CHNG */
#define TX_TRACE_THREAD_PRIORITY_CHANGE 108UL                 /* TX THREAD PRIORITY CHNG */
#define TX_TRACE_THREAD_RELINQUISH 109UL                      /* TX THREAD RELINQUISH */
#define TX_TRACE_THREAD_RESET 110UL                           /* TX THREAD RESET */
#define TX_TRACE_THREAD_RESUME_API 111UL                      /* TX THREAD RESUME */
#define TX_TRACE_THREAD_SLEEP 112UL                           /* TX THREAD SLEEP */
#define TX_TRACE_THREAD_STACK_ERROR_NOTIFY 113UL              /* TX THREAD STACK NOTIFY */
#define TX_TRACE_THREAD_SUSPEND_API 114UL                     /* TX THREAD SUSPEND */
#define TX_TRACE_THREAD_TERMINATE 115UL                       /* TX THREAD TERMINATE */
#define TX_TRACE_THREAD_TIME_SLICE_CHANGE 116UL               /* TX THREAD TIMESLICE CHN */
#define TX_TRACE_THREAD_WAIT_ABORT 117UL                      /* TX THREAD WAIT ABORT */
#define TX_TRACE_TIME_GET 120UL                               /* TX TIME GET */
#define TX_TRACE_TIME_SET 121UL                               /* TX TIME SET */
#define TX_TRACE_TIMER_ACTIVATE 122UL                         /* TX TIMER ACTIVATE */
#define TX_TRACE_TIMER_CHANGE 123UL                           /* TX TIMER CHANGE */
#define TX_TRACE_TIMER_CREATE 124UL                           /* TX TIMER CREATE */
#define TX_TRACE_TIMER_DEACTIVATE 125UL                       /* TX TIMER DEACTIVATE */
#define TX_TRACE_TIMER_DELETE 126UL                           /* TX TIMER DELETE */
#define TX_TRACE_TIMER_INFO_GET 127UL                         /* TX TIMER INFO GET */
#define TX_TRACE_TIMER_PERFORMANCE_INFO_GET 128UL             /* TX TIMER PERF GET */
#define TX_TRACE_TIMER_PERFORMANCE_SYSTEM_INFO_GET 129UL      /* TX TIMER SYS PERF GET */

/* --------------------------------------------------------------- the API */

/* Lays out header, registry and entries in the buffer and starts tracing. */
UINT tx_trace_enable(VOID *trace_buffer_start, ULONG trace_buffer_size, ULONG registry_entries);

/* Stops recording the OR-ed event groups. */
UINT tx_trace_event_filter(ULONG event_filter_bits);

/* Records the OR-ed event groups again. */
UINT tx_trace_event_unfilter(ULONG event_unfilter_bits);

/* Freezes the buffer; tx_trace_enable may be called again afterwards. */
UINT tx_trace_disable(VOID);

/* ISR-entry event; call first thing in an ISR (counts the nesting level). */
VOID tx_trace_isr_enter_insert(ULONG isr_id);

/* ISR-exit event; call last thing in an ISR. */
VOID tx_trace_isr_exit_insert(ULONG isr_id);

/* cb(trace_buffer_start) is called each time the buffer wraps; NULL: none. */
UINT tx_trace_buffer_full_notify(VOID (*full_buffer_callback)(VOID *buffer));

/* Inserts a user event (id normally TX_TRACE_USER_EVENT_START..END). */
UINT tx_trace_user_event_insert(ULONG event_id, ULONG info_field_1, ULONG info_field_2,
                                ULONG info_field_3, ULONG info_field_4);

#ifdef __cplusplus
}
#endif
#endif /* TRX_TX_TRACE_H */
