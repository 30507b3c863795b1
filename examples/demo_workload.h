/*
 * demo_workload.h - the demo application that runs on the simulated kernel:
 * its threads, interrupts and kernel objects, and the user-event ids it logs.
 */
#ifndef DEMO_WORKLOAD_H
#define DEMO_WORKLOAD_H

/* User events the application records (TraceX shows them as USER EVENT). */
enum demo_user_event {
    DEMO_EV_SAMPLE = 4100,      /* sensor: sample number, value */
    DEMO_EV_CONSUMED = 4101,    /* consumer: sample number, running sum */
    DEMO_EV_HEARTBEAT = 4102,   /* background: beat number */
    DEMO_EV_UART_RX = 4103,     /* uart ISR: byte received, nesting level */
    DEMO_EV_HIGH_DONE = 4104,   /* high: round, inheritance on/off */
    DEMO_EV_MEDIUM_WORK = 4105, /* medium: activation number */
    DEMO_EV_ROUND_DONE = 4106   /* low: round, inheritance on/off */
};

/* Creates every object, thread and interrupt source (initialization
 * context: tracing must be enabled already). */
void demo_workload_create(void);

/* Adds the variant's extra interrupt source: ISR number 4, one entry per
 * timer period (trx_demo --extra-isr; call right after demo_workload_create). */
void demo_workload_add_extra_isr(void);

/* How often the extra ISR ran. */
unsigned long demo_workload_extra_isr_entries(void);

/* Inversion rounds completed so far (the low thread counts them). */
unsigned demo_workload_rounds(void);

#endif /* DEMO_WORKLOAD_H */
