/*
 * recorder_buffer.h - a real recorder trace buffer for the export test.
 */
#ifndef RECORDER_BUFFER_H
#define RECORDER_BUFFER_H

/* User events recorded after the two RUNNING events of tx_trace_enable. */
#define RECORDER_BUFFER_USER_EVENTS 40UL

/* Records a known sequence into `buffer`; 0 on success, entries written in *entries. */
int recorder_buffer_fill(void *buffer, unsigned long size, unsigned long *entries);

#endif /* RECORDER_BUFFER_H */
