/*
 * main_posix.c - runs the FreeRTOS example (app/trace_app.c) on FreeRTOS's
 * POSIX port and writes, when tracing has stopped, the trace buffer to
 * argv[1] and the application's counters to argv[2] ("name value" lines).
 */
#include <stdio.h>
#include <stdlib.h>

#include "FreeRTOS.h"
#include "task.h"
#include "trace_app.h"

static const char *trace_path, *counts_path;

uint32_t app_platform_reference(void)
{
    return 0; /* the host clock is not compared with the trace */
}

void app_platform_done(const void *buffer, unsigned long size)
{
    FILE *f = fopen(trace_path, "wb");
    if (!f || fwrite(buffer, 1, size, f) != size || fclose(f) != 0)
        exit(2);
    f = fopen(counts_path, "w");
    if (!f)
        exit(2);
    fprintf(f,
            "queue_sends %u\nqueue_receives %u\nsemaphore_gives %u\nsemaphore_takes %u\n"
            "mutex_takes %u\nmutex_gives %u\nbuffer_wraps %u\n",
            app_counts.queue_sends, app_counts.queue_receives, app_counts.semaphore_gives,
            app_counts.semaphore_takes, app_counts.mutex_takes, app_counts.mutex_gives,
            app_counts.buffer_wraps);
    if (fclose(f) != 0)
        exit(2);
    exit(0);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s TRACE.trx COUNTS.txt\n", argv[0]);
        return 2;
    }
    trace_path = argv[1];
    counts_path = argv[2];
    app_create();
    vTaskStartScheduler();
    return 1;
}
