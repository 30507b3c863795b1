/*
 * http_server.c - the poll() loop of trx serve's HTTP server (see
 * http_server.h): non-blocking sockets, bounded request heads, deadlines
 * for reading and writing, answers built whole in memory then written out.
 */
#include "http_server.h"

#include <stdio.h>
#include <string.h>

static bool same_text_any_case(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;
        char y = *b >= 'A' && *b <= 'Z' ? (char)(*b - 'A' + 'a') : *b;
        if (x != y)
            return false;
    }
    return *a == *b;
}

static bool host_is(const char *host, const char *name, uint16_t port)
{
    char want[TRX_HTTP_HOST_MAX + 16];
    bool v6 = strchr(name, ':') != NULL && name[0] != '[';
    snprintf(want, sizeof want, v6 ? "[%s]:%u" : "%s:%u", name, (unsigned)port);
    return same_text_any_case(host, want);
}

/* True when `host` is an IP literal (a.b.c.d or [v6]) followed by ":port": a name
 * an attacker's DNS could point here is never one. */
static bool ip_literal_with_port(const char *host, uint16_t port)
{
    const char *colon = strrchr(host, ':');
    if (!colon)
        return false;
    char want[16];
    snprintf(want, sizeof want, ":%u", (unsigned)port);
    if (strcmp(colon, want) != 0)
        return false;
    size_t n = (size_t)(colon - host);
    if (n >= 2 && host[0] == '[' && host[n - 1] == ']') {
        for (size_t i = 1; i + 1 < n; i++)
            if (!strchr("0123456789abcdefABCDEF:.", host[i]))
                return false;
        return true;
    }
    int dots = 0, digits = 0;
    for (size_t i = 0; i < n; i++) {
        if (host[i] == '.') {
            if (!digits)
                return false;
            dots++;
            digits = 0;
        } else if (host[i] >= '0' && host[i] <= '9' && digits < 3) {
            digits++;
        } else {
            return false;
        }
    }
    return dots == 3 && digits > 0;
}

bool trx_http_host_allowed(const char *host, const char *bind, uint16_t port)
{
    bool any = bind && (strcmp(bind, "0.0.0.0") == 0 || strcmp(bind, "::") == 0);
    bool loopback = !bind || strcmp(bind, "127.0.0.1") == 0 || strcmp(bind, "::1") == 0 ||
                    strcmp(bind, "localhost") == 0;
    if ((loopback || any) && (host_is(host, "127.0.0.1", port) ||
                              host_is(host, "localhost", port) || host_is(host, "::1", port)))
        return true;
    if (any) /* every address of this machine: any IP literal, never a name */
        return ip_literal_with_port(host, port) && !host_is(host, "0.0.0.0", port);
    return !loopback && host_is(host, bind, port);
}

#ifdef _WIN32
int trx_http_run(const trx_http_config *c, char *err, size_t err_size)
{
    (void)c;
    snprintf(err, err_size, "trx serve is not available on Windows yet");
    return -1;
}
#else

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct http_conn {
    int fd;
    char in[TRX_HTTP_HEAD_MAX];
    size_t in_len;
    char *out; /* the whole answer, once made */
    size_t out_len, out_at;
    int64_t deadline_ms;
} http_conn;

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static const char *reason(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 408:
        return "Request Timeout";
    case 409:
        return "Conflict";
    case 414:
        return "URI Too Long";
    case 421:
        return "Misdirected Request";
    case 431:
        return "Request Header Fields Too Large";
    case 503:
        return "Service Unavailable";
    case 505:
        return "HTTP Version Not Supported";
    default:
        return "Internal Server Error";
    }
}

/* The answer, head and body, in one buffer for the connection. */
static void make_answer(http_conn *k, int status, const char *type, const char *body,
                        size_t body_len)
{
    char head[1024];
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
                     "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n"
                     "Referrer-Policy: no-referrer\r\nX-Frame-Options: DENY\r\n"
                     "Cross-Origin-Resource-Policy: same-origin\r\n"
                     "Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'; "
                     "script-src 'unsafe-inline'; img-src data:; connect-src 'self'; "
                     "frame-ancestors 'none'\r\n%sConnection: close\r\n\r\n",
                     status, reason(status), type, body_len, status == 405 ? "Allow: GET\r\n" : "");
    k->out = malloc((size_t)n + body_len);
    if (!k->out) {
        k->out_len = 0;
        return;
    }
    memcpy(k->out, head, (size_t)n);
    memcpy(k->out + n, body, body_len);
    k->out_len = (size_t)n + body_len;
    k->out_at = 0;
    k->deadline_ms = now_ms() + TRX_HTTP_WRITE_TIMEOUT_MS;
}

static void answer_text(http_conn *k, int status, const char *text)
{
    make_answer(k, status, "text/plain; charset=utf-8", text, strlen(text));
}

/* Checks the request and runs the handler. */
static void answer(const trx_http_config *c, uint16_t port, http_conn *k, const trx_http_request *r)
{
    char token[128];
    if (!trx_http_host_allowed(r->host, c->bind, port)) {
        answer_text(k, 421, "trx serve: this server answers only requests for its own address\n");
        return;
    }
    if (!trx_http_query_get(r->query, "token", token, sizeof token) ||
        !trx_http_secret_equal(token, c->token)) {
        answer_text(k, 403, "trx serve: open the URL trx printed (it carries the token)\n");
        return;
    }
    char *body = NULL;
    size_t body_len = 0;
    FILE *f = open_memstream(&body, &body_len);
    if (!f) {
        answer_text(k, 503, "trx serve: out of memory\n");
        return;
    }
    trx_out *w = malloc(sizeof *w);
    int status = 503;
    const char *type = "text/plain; charset=utf-8";
    if (w) {
        trx_out_init(w, f, false);
        status = c->handle(c->ctx, r, w, &type);
        if (trx_out_flush(w) != 0)
            status = 503;
        free(w);
    }
    fclose(f);
    if (status == 503 && !body_len)
        answer_text(k, 503, "trx serve: out of memory\n");
    else
        make_answer(k, status, type, body, body_len);
    free(body);
}

static void drop(http_conn *k)
{
    close(k->fd);
    free(k->out);
    k->fd = -1;
    k->out = NULL;
}

/* Reads what arrived; answers once the head is whole (or refused). */
static void on_readable(const trx_http_config *c, uint16_t port, http_conn *k)
{
    ssize_t got = recv(k->fd, k->in + k->in_len, sizeof k->in - k->in_len, 0);
    if (got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
        drop(k);
        return;
    }
    if (got < 0)
        return;
    k->in_len += (size_t)got;
    trx_http_request r;
    int rc = trx_http_parse(k->in, k->in_len, &r);
    if (rc == 0)
        return;
    if (rc < 0)
        answer_text(k, -rc, "trx serve: request refused\n");
    else
        answer(c, port, k, &r);
    if (!k->out)
        drop(k);
}

static void on_writable(http_conn *k)
{
    ssize_t n = send(k->fd, k->out + k->out_at, k->out_len - k->out_at, MSG_NOSIGNAL);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return;
    if (n <= 0) {
        drop(k);
        return;
    }
    k->out_at += (size_t)n;
    if (k->out_at == k->out_len) {
        shutdown(k->fd, SHUT_WR);
        drop(k);
    }
}

static int listen_on(const char *address, uint16_t port, uint16_t *got, char *err, size_t err_size)
{
    struct addrinfo hints = {0}, *res = NULL;
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    char service[8];
    snprintf(service, sizeof service, "%u", (unsigned)port);
    int rc = getaddrinfo(address, service, &hints, &res);
    if (rc != 0) {
        snprintf(err, err_size, "cannot listen on %s: %s", address, gai_strerror(rc));
        return -1;
    }
    int fd = socket(res->ai_family, SOCK_STREAM, 0);
    int one = 1;
    if (fd >= 0)
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (fd < 0 || bind(fd, res->ai_addr, res->ai_addrlen) < 0 || listen(fd, 64) < 0) {
        snprintf(err, err_size, "cannot listen on %s port %u: %s", address, (unsigned)port,
                 strerror(errno));
        if (fd >= 0)
            close(fd);
        freeaddrinfo(res);
        return -1;
    }
    freeaddrinfo(res);
    struct sockaddr_storage sa;
    socklen_t len = sizeof sa;
    getsockname(fd, (struct sockaddr *)&sa, &len);
    *got = ntohs(sa.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&sa)->sin6_port
                                          : ((struct sockaddr_in *)&sa)->sin_port);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    return fd;
}

int trx_http_run(const trx_http_config *c, char *err, size_t err_size)
{
    uint16_t port = 0;
    int lfd = listen_on(c->bind ? c->bind : "127.0.0.1", c->port, &port, err, err_size);
    if (lfd < 0)
        return -1;
    http_conn *conns = calloc(TRX_HTTP_MAX_CLIENTS, sizeof *conns);
    if (!conns) {
        close(lfd);
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    for (unsigned i = 0; i < TRX_HTTP_MAX_CLIENTS; i++)
        conns[i].fd = -1;
    if (c->on_listening)
        c->on_listening(c->ctx, port);
    struct pollfd pfd[TRX_HTTP_MAX_CLIENTS + 1];
    while (!atomic_load(c->stop)) {
        if (c->idle)
            c->idle(c->ctx);
        unsigned n = 0, free_slots = 0, map[TRX_HTTP_MAX_CLIENTS];
        int64_t now = now_ms();
        for (unsigned i = 0; i < TRX_HTTP_MAX_CLIENTS; i++) {
            http_conn *k = &conns[i];
            if (k->fd >= 0 && now > k->deadline_ms) { /* too slow: a head never finished */
                if (!k->out) {
                    answer_text(k, 408, "trx serve: request too slow\n");
                    if (k->out)
                        continue;
                }
                drop(k);
            }
            if (k->fd < 0) {
                free_slots++;
                continue;
            }
            pfd[n] = (struct pollfd){k->fd, (short)(k->out ? POLLOUT : POLLIN), 0};
            map[n++] = i;
        }
        unsigned listen_at = n;
        if (free_slots)
            pfd[n++] = (struct pollfd){lfd, POLLIN, 0};
        if (poll(pfd, n, 200) <= 0)
            continue;
        for (unsigned j = 0; j < listen_at; j++) {
            http_conn *k = &conns[map[j]];
            if (pfd[j].revents & (POLLERR | POLLNVAL))
                drop(k);
            else if (pfd[j].revents & POLLOUT)
                on_writable(k);
            else if (pfd[j].revents & (POLLIN | POLLHUP))
                on_readable(c, port, k);
        }
        if (free_slots && (pfd[listen_at].revents & POLLIN)) {
            for (unsigned i = 0; i < TRX_HTTP_MAX_CLIENTS; i++) {
                if (conns[i].fd >= 0)
                    continue;
                int fd = accept(lfd, NULL, NULL);
                if (fd < 0)
                    break;
                fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
                conns[i] =
                    (http_conn){.fd = fd, .deadline_ms = now_ms() + TRX_HTTP_READ_TIMEOUT_MS};
            }
        }
    }
    for (unsigned i = 0; i < TRX_HTTP_MAX_CLIENTS; i++)
        if (conns[i].fd >= 0)
            drop(&conns[i]);
    free(conns);
    close(lfd);
    return 0;
}
#endif
