/*
 * serve_live.c - `trx capture --serve` (see serve_live.h): generations of
 * the growing capture file, made on a refresher thread and handed to the
 * server thread, which swaps them in between requests.
 */
#ifndef _WIN32
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "http_server.h"
#include "serve_live.h"
#include "serve_state.h"

struct serve_live {
    cli_common common; /* how each generation opens the file */
    char token[33];
    const char *bind;
    uint16_t port;
    serve_host host;
    atomic_bool stop, listening, failed;
    /* from the capture: the file being written (a new one after each
     * --rotate step: `file` counts them) and its bytes of whole packets */
    pthread_mutex_t news;
    char path[4096];
    uint64_t file, whole_bytes;
    pthread_t server, refresher;
    bool server_running, refresher_running;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void listening(void *ctx, uint16_t port)
{
    serve_live *l = ctx;
    serve_print_url(l->bind, port, l->token);
    atomic_store(&l->listening, true);
}

static int handle(void *ctx, const trx_http_request *req, trx_out *body, const char **type)
{
    return serve_host_handle(&((serve_live *)ctx)->host, req, body, type);
}

static void idle(void *ctx)
{
    serve_host_idle(&((serve_live *)ctx)->host);
}

static void *run_server(void *arg)
{
    serve_live *l = arg;
    trx_http_config hc = {l->bind, l->port, l->token, handle, l, listening, &l->stop, idle};
    char err[256];
    if (trx_http_run(&hc, err, sizeof err) < 0) {
        fprintf(stderr, "trx capture: --serve: %s\n", err);
        atomic_store(&l->failed, true);
    }
    return NULL;
}

/* Makes a generation whenever whole packets were added (to the file being
 * written: after a --rotate step, the new one) and its time has come. */
static void *run_refresher(void *arg)
{
    serve_live *l = arg;
    uint64_t built = 0, built_file = 0, generation = 0;
    double due = 0;
    char path[sizeof l->path];
    while (!atomic_load(&l->stop)) {
        pthread_mutex_lock(&l->news);
        uint64_t whole = l->whole_bytes, file = l->file;
        memcpy(path, l->path, sizeof path);
        pthread_mutex_unlock(&l->news);
        if ((whole == built && file == built_file) || !whole || now_s() < due) {
            struct timespec pause = {0, 50 * 1000 * 1000};
            nanosleep(&pause, NULL);
            continue;
        }
        double t0 = now_s();
        serve_state *s = serve_state_open(&l->common, path, 0, generation + 1, true);
        built = whole; /* a file not readable yet is tried again with more packets */
        built_file = file;
        if (s) {
            s->live = true;
            serve_state_build(s, &l->stop, false);
            serve_host_offer(&l->host, s);
            generation++;
        }
        double took = now_s() - t0;
        due = now_s() + (2 * took > 1.0 ? 2 * took : 1.0);
    }
    return NULL;
}

serve_live *serve_live_start(const char *path, const char *uia_meta, const char *bind,
                             uint16_t port)
{
    serve_live *l = calloc(1, sizeof *l);
    char **args = malloc(sizeof *args);
    if (!l || !args) {
        free(l);
        free(args);
        fprintf(stderr, "trx capture: --serve: out of memory\n");
        return NULL;
    }
    args[0] = (char *)path;
    l->common.command = "capture";
    l->common.input_format = TRX_FORMAT_AUTO;
    l->common.uia_meta = uia_meta;
    l->common.max_input_size = TRX_DEFAULT_MAX_INPUT;
    l->common.mode = TRX_MODE_CORRECT;
    l->common.args = args;
    l->common.arg_count = 1;
    l->bind = bind;
    l->port = port;
    l->host.waiting_for = path;
    atomic_init(&l->host.pending, NULL);
    atomic_init(&l->stop, false);
    atomic_init(&l->listening, false);
    atomic_init(&l->failed, false);
    snprintf(l->path, sizeof l->path, "%s", path);
    if (pthread_mutex_init(&l->news, NULL) != 0) {
        fprintf(stderr, "trx capture: --serve: cannot make a mutex\n");
        free(args);
        free(l);
        return NULL;
    }
    if (!serve_make_token(l->token)) {
        fprintf(stderr, "trx capture: --serve: no random source (/dev/urandom) for the token\n");
        free(args);
        free(l);
        return NULL;
    }
    l->server_running = pthread_create(&l->server, NULL, run_server, l) == 0;
    while (l->server_running && !atomic_load(&l->listening) && !atomic_load(&l->failed)) {
        struct timespec pause = {0, 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    if (l->server_running && !atomic_load(&l->failed))
        l->refresher_running = pthread_create(&l->refresher, NULL, run_refresher, l) == 0;
    if (!l->refresher_running) {
        if (l->server_running && !atomic_load(&l->failed))
            fprintf(stderr, "trx capture: --serve: cannot start a thread\n");
        serve_live_stop(l);
        return NULL;
    }
    return l;
}

void serve_live_grew(serve_live *l, const char *path, uint64_t whole_bytes)
{
    if (!l)
        return;
    pthread_mutex_lock(&l->news);
    if (strcmp(path, l->path) != 0) {
        snprintf(l->path, sizeof l->path, "%s", path);
        l->file++;
    }
    l->whole_bytes = whole_bytes;
    pthread_mutex_unlock(&l->news);
}

void serve_live_stop(serve_live *l)
{
    if (!l)
        return;
    atomic_store(&l->stop, true);
    if (l->refresher_running)
        pthread_join(l->refresher, NULL);
    if (l->server_running)
        pthread_join(l->server, NULL);
    serve_host_free(&l->host);
    pthread_mutex_destroy(&l->news);
    free(l->common.args);
    free(l);
}
#endif
