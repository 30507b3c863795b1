/* fuzz_http.c - lean libFuzzer target: trx serve's request-head parser
 * (server/http_request.c) on arbitrary bytes, whole and cut at every tenth
 * length, then the query decoder and the Host check on what it accepted.
 * Checks: an answer is "more bytes", a refusal with one of the statuses the
 * server answers, or a head length within the input; an accepted request has
 * a path starting with '/', no control bytes in path, query or Host, and a
 * Host; decoded query values fit their buffer; a cut input is never accepted
 * with a head longer than the cut. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "http_request.h"
#include "http_server.h"

#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c))                                                                                  \
            abort();                                                                               \
    } while (0)

static void check_text(const char *s, size_t cap)
{
    size_t n = strnlen(s, cap);
    CHECK(n < cap);
    for (size_t i = 0; i < n; i++)
        CHECK((unsigned char)s[i] >= 0x20 || s[i] == '\t');
}

static void one(const char *buf, size_t len)
{
    trx_http_request r;
    int rc = trx_http_parse(buf, len, &r);
    if (rc == 0) {
        CHECK(len < TRX_HTTP_HEAD_MAX);
        return;
    }
    if (rc < 0) {
        int s = -rc;
        CHECK(s == 400 || s == 405 || s == 414 || s == 431 || s == 505);
        return;
    }
    CHECK((size_t)rc <= len && rc >= 18);
    CHECK(r.path[0] == '/');
    check_text(r.path, sizeof r.path);
    check_text(r.query, sizeof r.query);
    check_text(r.host, sizeof r.host);
    CHECK(r.host[0] != '\0');
    char value[64];
    const char *names[] = {"token", "q", "from", "to", "cols", ""};
    for (int k = 0; k < 6; k++)
        if (trx_http_query_get(r.query, names[k], value, sizeof value))
            CHECK(strnlen(value, sizeof value) < sizeof value);
    (void)trx_http_host_allowed(r.host, "127.0.0.1", 8080);
    (void)trx_http_host_allowed(r.host, "::1", 1);
    (void)trx_http_secret_equal(r.query, "0123456789abcdef0123456789abcdef");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size ? size : 1); /* exact size: ASan sees any read past it */
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    one(copy, size);
    for (size_t cut = size / 10; cut < size; cut += size / 10 ? size / 10 : 1) {
        trx_http_request r;
        int whole = trx_http_parse(copy, size, &r), part = trx_http_parse(copy, cut, &r);
        CHECK(part <= 0 || (size_t)part <= cut);
        (void)whole;
    }
    free(copy);
    return 0;
}
