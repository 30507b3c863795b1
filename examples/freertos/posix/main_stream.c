/*
 * main_stream.c - FreeRTOS on its POSIX port streaming its kernel events
 * to a TCP client while it runs (the stream recorder, docs/streaming.md):
 * FreeRTOS's trace macros (trx_freertos.h) write the integration's TXTB
 * buffer as in a dump-based trace (tasks, priorities, the FreeRTOS profile
 * in its header), and a TXTB drain forwards its new entries, whole, into a
 * stream logger, with the registry of names whenever objects were created;
 * the logger's packets go through a 16 KiB ring that a drain task empties
 * into the socket without waiting, and every 16th round the task sleeps
 * 2 ms. A producer and a consumer pass numbers through a queue as fast as
 * they can, so the trace buffer is written over before the drain reads it
 * and the ring overflows while the task sleeps: both losses are counted
 * exactly (the drain's overwritten entries and the logger's drops), and
 * `trx` reads the capture as the FreeRTOS trace it is.
 *
 *   freertos_posix_stream PORT_FILE SECONDS COUNTS_FILE
 *
 * Listens on 127.0.0.1 (any free port, written to PORT_FILE), takes one
 * client (trx capture tcp://127.0.0.1:PORT), streams for SECONDS, sends
 * everything left, closes, and writes COUNTS_FILE: "recorded N" (events
 * the kernel recorded), "dropped N" (of them, lost: overwritten before the
 * drain read them, or dropped with the ring full), "overwritten N",
 * "rss_kib_at_10s N", "rss_kib_at_end N".
 */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "FreeRTOS.h"
#include "queue.h"
#include "task.h"
#include "trx/stream_recorder.h"

static int client = -1;
static double seconds, started;
static const char *counts_path;
static trx_stream_ring ring;
static ULONG ring_words[16384 / 4];
static ULONG staging_words[2048 / 4];
static trx_uia_logger logger;                /* the stream's packets */
static trx_txtb_drain drain;                 /* the trace buffer -> the logger */
static TRX_TRACE_BUFFER(trace_buffer, 8192); /* the integration's TXTB buffer */
#define REGISTRY_ENTRIES 16
static QueueHandle_t queue;
static long rss_at_10s = -1;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Resident memory in KiB (Linux /proc). */
static long rss_kib(void)
{
    char line[256];
    long kib = -1;
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0)
            kib = strtol(line + 6, NULL, 10);
    if (f)
        fclose(f);
    return kib;
}

/* The byte sink: what the socket takes now. */
static ULONG socket_sink(VOID *context, const UCHAR *bytes, ULONG length)
{
    (void)context;
    ssize_t n = send(client, bytes, length, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
        perror("freertos_posix_stream: send");
        exit(2);
    }
    return n > 0 ? (ULONG)n : 0UL;
}

static void producer_task(void *arg)
{
    (void)arg;
    for (uint32_t i = 0;; i++)
        xQueueSend(queue, &i, portMAX_DELAY);
}

static void consumer_task(void *arg)
{
    (void)arg;
    uint32_t v;
    for (;;)
        xQueueReceive(queue, &v, portMAX_DELAY);
}

static VOID on_full(VOID *buffer)
{
    (void)buffer;
    trx_txtb_drain_lap(&drain);
}

/* Forwards the trace buffer's new entries and empties the ring into the
 * socket; at the end sends what is left and writes the counts. */
static void drain_task(void *arg)
{
    (void)arg;
    /* the idle and timer tasks were created after the drain started */
    trx_txtb_drain_registry(&drain);
    for (uint32_t round = 1;; round++) {
        trx_txtb_drain_poll(&drain);
        trx_stream_flush(&logger);
        trx_stream_drain(&ring, socket_sink, NULL);
        double t = now() - started;
        if (rss_at_10s < 0 && t >= 10.0)
            rss_at_10s = rss_kib();
        if (t >= seconds)
            break;
        if (round % 16 == 0)
            vTaskDelay(2); /* a drain that falls behind: entries are written over */
        else
            taskYIELD();
    }
    vTaskSuspendAll(); /* nothing records any more */
    tx_trace_disable();
    trx_txtb_drain_poll(&drain);
    trx_uia_disable(&logger);
    while (ring.read_offset != ring.write_offset) {
        if (trx_stream_drain(&ring, socket_sink, NULL) == 0)
            usleep(1000);
    }
    /* the logger numbers every entry the kernel wrote: forwarded, written
     * over (trx_stream_skip) or dropped with the ring full; the last two
     * are its drops */
    unsigned long recorded = (unsigned long)trx_stream_recorded(&logger);
    unsigned long dropped = (unsigned long)trx_uia_dropped(&logger);
    FILE *f = fopen(counts_path, "w");
    if (!f)
        exit(2);
    fprintf(f,
            "recorded %lu\ndropped %lu\noverwritten %lu\nrss_kib_at_10s %ld\nrss_kib_at_end %ld\n",
            recorded, dropped, (unsigned long)drain.overwritten, rss_at_10s, rss_kib());
    if (fclose(f) != 0)
        exit(2);
    shutdown(client, SHUT_RDWR);
    close(client);
    exit(0);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s PORT_FILE SECONDS COUNTS_FILE\n", argv[0]);
        return 2;
    }
    seconds = atof(argv[2]);
    counts_path = argv[3];
    int srv = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    socklen_t al = sizeof a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (srv < 0 || bind(srv, (struct sockaddr *)&a, sizeof a) != 0 || listen(srv, 1) != 0 ||
        getsockname(srv, (struct sockaddr *)&a, &al) != 0) {
        perror("freertos_posix_stream: listen");
        return 2;
    }
    FILE *pf = fopen(argv[1], "w");
    if (!pf || fprintf(pf, "%u\n", (unsigned)ntohs(a.sin_port)) < 0 || fclose(pf) != 0)
        return 2;
    do
        client = accept(srv, NULL, NULL);
    while (client < 0 && errno == EINTR);
    if (client < 0) {
        perror("freertos_posix_stream: accept");
        return 2;
    }
    close(srv);
    if (trx_stream_ring_init(&ring, ring_words, sizeof ring_words, "trx") != TX_SUCCESS ||
        trx_stream_enable(&logger, staging_words, sizeof staging_words, &ring, 0,
                          (ULONG)getpid()) != TX_SUCCESS ||
        trx_freertos_enable(trace_buffer, sizeof trace_buffer, REGISTRY_ENTRIES) != TX_SUCCESS ||
        tx_trace_buffer_full_notify(on_full) != TX_SUCCESS)
        return 2;
    queue = xQueueCreate(64, sizeof(uint32_t));
    xTaskCreate(producer_task, "producer", configMINIMAL_STACK_SIZE * 2, NULL, 2, NULL);
    xTaskCreate(consumer_task, "consumer", configMINIMAL_STACK_SIZE * 2, NULL, 2, NULL);
    xTaskCreate(drain_task, "drain", configMINIMAL_STACK_SIZE * 2, NULL, 2, NULL);
    if (trx_txtb_drain_start(&drain, trace_buffer, &logger) != TX_SUCCESS)
        return 2;
    started = now();
    vTaskStartScheduler();
    return 1;
}
