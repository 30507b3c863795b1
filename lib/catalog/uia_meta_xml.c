/*
 * uia_meta_xml.c - a small strict XML reader for TI's <app>.uia.xml: it
 * checks well-formedness (matching tags, quoted attributes, known entities)
 * and takes from it only the evtMap elements (id, moduleId, shortName or
 * longName, msg) and the modIdMap elements (id, moduleName), given either as
 * attributes or as child elements, and the timestamp frequencies TI writes
 * (UIAMetaData / LogSync): cpuClock (maxClockFreqMSW/LSW), cpuTimestamp and
 * globalTimestamp (maxTimerFreqMSW/LSW, cyclesPerTick), wherever they are
 * nested (eventCorrelation); everything else is ignored. The msg format
 * string is URL-encoded ('+' = space, %XX escapes).
 */
#include <stdlib.h>
#include <string.h>

#include "catalog/uia_names_internal.h"

#define FIELD_MAX 1024
#define DEPTH_MAX 64

enum {
    F_ID,
    F_MODULE_ID,
    F_SHORT,
    F_LONG,
    F_MSG,
    F_MODULE_NAME,
    F_CLOCK_MSW,
    F_CLOCK_LSW,
    F_TIMER_MSW,
    F_TIMER_LSW,
    F_CYCLES_PER_TICK,
    F_COUNT
};
static const char *const field_names[F_COUNT] = {
    "id",           "moduleId",        "shortName",       "longName",        "msg",
    "moduleName",   "maxClockFreqMSW", "maxClockFreqLSW", "maxTimerFreqMSW", "maxTimerFreqLSW",
    "cyclesPerTick"};

/* What is being collected: nothing, an event, a module, or a clock. */
enum { K_NONE, K_EVENT, K_MODULE, K_CPU_CLOCK, K_CPU_TIMESTAMP, K_GLOBAL_TIMESTAMP };
static const char *const kind_names[] = {"",         "evtMap",       "modIdMap",
                                         "cpuClock", "cpuTimestamp", "globalTimestamp"};

/* The element being collected. */
typedef struct collect {
    int kind; /* K_... */
    int depth;
    int child; /* field of the open child element, or -1 */
    char value[F_COUNT][FIELD_MAX];
    bool have[F_COUNT];
} collect;

typedef struct xml {
    const char *s;
    size_t n, i;
    trx_error *err;
} xml;

static int field_index(const char *name, size_t len)
{
    for (int k = 0; k < F_COUNT; k++)
        if (strlen(field_names[k]) == len && memcmp(field_names[k], name, len) == 0)
            return k;
    return -1;
}

/* Appends decoded text [a, b) (entities resolved) to `dst` (bounded). */
static int append_text(xml *x, char *dst, const char *a, const char *b)
{
    size_t len = strlen(dst);
    while (a < b) {
        char c = *a;
        if (c == '&') {
            const char *semi = memchr(a, ';', (size_t)(b - a));
            if (!semi)
                return trx_error_set(x->err, (uint64_t)(a - x->s), "'&' without ';'");
            size_t el = (size_t)(semi - a - 1);
            const char *e = a + 1;
            if (el == 2 && memcmp(e, "lt", 2) == 0)
                c = '<';
            else if (el == 2 && memcmp(e, "gt", 2) == 0)
                c = '>';
            else if (el == 3 && memcmp(e, "amp", 3) == 0)
                c = '&';
            else if (el == 4 && memcmp(e, "quot", 4) == 0)
                c = '"';
            else if (el == 4 && memcmp(e, "apos", 4) == 0)
                c = '\'';
            else if (el >= 2 && e[0] == '#') {
                unsigned long v = e[1] == 'x' ? strtoul(e + 2, NULL, 16) : strtoul(e + 1, NULL, 10);
                c = v >= 1 && v < 128 ? (char)v : '?';
            } else
                return trx_error_set(x->err, (uint64_t)(a - x->s), "unknown entity '&%.*s;'",
                                     (int)(el > 20 ? 20 : el), e);
            a = semi + 1;
        } else {
            a++;
        }
        if (len + 1 < FIELD_MAX)
            dst[len++] = c;
    }
    dst[len] = 0;
    return 0;
}

/* Decodes URL encoding in place: '+' -> space, %XX -> byte. */
static void url_decode(char *s)
{
    char *o = s;
    for (char *p = s; *p; p++) {
        if (*p == '+') {
            *o++ = ' ';
        } else if (*p == '%' && p[1] && p[2] && strchr("0123456789abcdefABCDEF", p[1]) &&
                   strchr("0123456789abcdefABCDEF", p[2])) {
            char hex[3] = {p[1], p[2], 0};
            *o++ = (char)strtoul(hex, NULL, 16);
            p += 2;
        } else {
            *o++ = *p;
        }
    }
    *o = 0;
}

static bool parse_u32(const char *s, uint32_t *out)
{
    char *end;
    if (!*s)
        return false;
    unsigned long long v = strtoull(s, &end, 0);
    if (*end || v > UINT32_MAX)
        return false;
    *out = (uint32_t)v;
    return true;
}

/* A frequency word ("200000000", "3.3333333333333332E7": JavaScript's
 * numbers as TI's scripts print them); false when it is no number >= 0. */
static bool parse_frequency(const char *s, double *out)
{
    char *end;
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        s++;
    if (!*s)
        return false;
    double v = strtod(s, &end);
    while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
        end++;
    if (*end || !(v >= 0 && v < 1e19))
        return false;
    *out = v;
    return true;
}

/* Hz from an MSW / LSW pair of fields (MSW missing: 0); false when the LSW
 * is missing or either is no number. */
static bool frequency_of(const collect *c, int msw, int lsw, double *hz)
{
    double hi = 0, lo;
    if (!c->have[lsw] || !parse_frequency(c->value[lsw], &lo) ||
        (c->have[msw] && !parse_frequency(c->value[msw], &hi)))
        return false;
    *hz = hi * 4294967296.0 + lo;
    return true;
}

/* Stores the frequency a closed cpuClock / cpuTimestamp / globalTimestamp
 * element gives (a missing one: nothing; a malformed one: an error). A CPU
 * timestamp's maxTimerFreq is the clock that drives it, each tick taking
 * cyclesPerTick cycles; the global timer's maxTimerFreq is its tick rate. */
static int commit_clock(xml *x, trx_uia_names *n, const collect *c, uint64_t off)
{
    bool cpu_clock = c->kind == K_CPU_CLOCK;
    int msw = cpu_clock ? F_CLOCK_MSW : F_TIMER_MSW, lsw = cpu_clock ? F_CLOCK_LSW : F_TIMER_LSW;
    double hz = 0, cycles = 1;
    if (!c->have[lsw] && !c->have[msw])
        return 0; /* "Frequency unknown": only the timestamp module's name */
    if (!frequency_of(c, msw, lsw, &hz))
        return trx_error_set(x->err, off, "%s: %s / %s is not a frequency", kind_names[c->kind],
                             field_names[msw], field_names[lsw]);
    if (c->kind == K_CPU_TIMESTAMP && c->have[F_CYCLES_PER_TICK] &&
        (!parse_frequency(c->value[F_CYCLES_PER_TICK], &cycles) || cycles < 1))
        return trx_error_set(x->err, off, "cpuTimestamp: cyclesPerTick '%s' is not a count >= 1",
                             c->value[F_CYCLES_PER_TICK]);
    if (c->kind == K_CPU_CLOCK)
        n->cpu_clock_hz = hz;
    else if (c->kind == K_CPU_TIMESTAMP)
        n->cpu_timestamp_hz = hz / cycles;
    else
        n->global_timestamp_hz = hz;
    return 0;
}

/* Stores what a closed evtMap / modIdMap element said. */
static int commit(xml *x, trx_uia_names *n, collect *c, uint64_t off)
{
    uint32_t id, mod = 0;
    if (c->kind >= K_CPU_CLOCK)
        return commit_clock(x, n, c, off);
    if (!c->have[F_ID] || !parse_u32(c->value[F_ID], &id))
        return trx_error_set(x->err, off, "%s without a numeric id", kind_names[c->kind]);
    if (c->kind == K_MODULE) {
        const char *nm = c->have[F_MODULE_NAME] ? c->value[F_MODULE_NAME] : "";
        return trx_uia_names_add_module(n, id, nm, strlen(nm)) < 0
                   ? trx_error_set(x->err, off, "out of memory")
                   : 0;
    }
    if (c->have[F_MODULE_ID] && !parse_u32(c->value[F_MODULE_ID], &mod))
        return trx_error_set(x->err, off, "evtMap %u: moduleId '%s' is not a number", id,
                             c->value[F_MODULE_ID]);
    const char *nm = c->have[F_SHORT] ? c->value[F_SHORT] : c->have[F_LONG] ? c->value[F_LONG] : "";
    const char *msg = NULL;
    if (c->have[F_MSG]) {
        url_decode(c->value[F_MSG]);
        msg = c->value[F_MSG];
    }
    if (trx_uia_names_add_event(n, mod, id, nm, strlen(nm), msg, msg ? strlen(msg) : 0) < 0)
        return trx_error_set(x->err, off, "out of memory");
    if (c->have[F_LONG]) { /* kept for matching by module and event (trx_uia_name_is) */
        trx_uia_name *e = &n->events[n->event_count - 1];
        size_t len = strlen(c->value[F_LONG]);
        if (!(e->long_name = malloc(len + 1)))
            return trx_error_set(x->err, off, "out of memory");
        memcpy(e->long_name, c->value[F_LONG], len + 1);
    }
    return 0;
}

static bool name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.' || c == ':';
}

static void skip_space(xml *x)
{
    while (x->i < x->n &&
           (x->s[x->i] == ' ' || x->s[x->i] == '\t' || x->s[x->i] == '\r' || x->s[x->i] == '\n'))
        x->i++;
}

/* Skips past `end` (e.g. "-->"); error when missing. */
static int skip_past(xml *x, const char *end, const char *what)
{
    size_t el = strlen(end);
    for (size_t j = x->i; j + el <= x->n; j++)
        if (memcmp(x->s + j, end, el) == 0) {
            x->i = j + el;
            return 0;
        }
    return trx_error_set(x->err, x->i, "unterminated %s", what);
}

int trx_uia_meta_xml_parse(trx_uia_names *n, const char *text, size_t size, trx_error *err)
{
    xml x = {text, size, 0, err};
    const char *stack[DEPTH_MAX];
    size_t stack_len[DEPTH_MAX];
    int depth = 0;
    bool root_seen = false;
    collect *c = calloc(1, sizeof *c);
    if (!c)
        return trx_error_set(err, 0, "out of memory");
    int rc = 0;
    while (rc == 0 && x.i < x.n) {
        size_t lt = x.i;
        while (lt < x.n && text[lt] != '<')
            lt++;
        if (c->kind && c->child >= 0 && depth == c->depth + 2)
            rc = append_text(&x, c->value[c->child], text + x.i, text + lt);
        else if (depth > 0) {
            char scratch[FIELD_MAX];
            scratch[0] = 0;
            rc = append_text(&x, scratch, text + x.i, text + lt); /* entities checked */
        } else
            for (size_t j = x.i; j < lt && rc == 0; j++)
                if (depth == 0 && text[j] != ' ' && text[j] != '\t' && text[j] != '\r' &&
                    text[j] != '\n')
                    rc = trx_error_set(err, j, "text outside the root element");
        x.i = lt;
        if (rc || x.i >= x.n)
            break;
        uint64_t off = x.i;
        if (x.n - x.i >= 4 && memcmp(text + x.i, "<!--", 4) == 0) {
            x.i += 4;
            rc = skip_past(&x, "-->", "comment");
        } else if (x.n - x.i >= 2 && memcmp(text + x.i, "<?", 2) == 0) {
            rc = skip_past(&x, "?>", "processing instruction");
        } else if (x.n - x.i >= 9 && memcmp(text + x.i, "<![CDATA[", 9) == 0) {
            size_t start = x.i + 9;
            x.i = start;
            rc = skip_past(&x, "]]>", "CDATA section");
            if (!rc && c->kind && c->child >= 0 && depth == c->depth + 2) {
                char *dst = c->value[c->child];
                size_t len = strlen(dst), m = x.i - 3 - start;
                if (len + m >= FIELD_MAX)
                    m = FIELD_MAX - 1 - len;
                memcpy(dst + len, text + start, m);
                dst[len + m] = 0;
            }
        } else if (x.n - x.i >= 2 && memcmp(text + x.i, "<!", 2) == 0) {
            rc = skip_past(&x, ">", "declaration");
        } else if (x.n - x.i >= 2 && text[x.i + 1] == '/') {
            x.i += 2;
            size_t ns = x.i;
            while (x.i < x.n && name_char(text[x.i]))
                x.i++;
            size_t nl = x.i - ns;
            skip_space(&x);
            if (x.i >= x.n || text[x.i] != '>')
                rc = trx_error_set(err, off, "end tag without '>'");
            else if (depth == 0 || stack_len[depth - 1] != nl ||
                     memcmp(stack[depth - 1], text + ns, nl) != 0)
                rc = trx_error_set(err, off, "end tag </%.*s> does not match the open element",
                                   (int)(nl > 40 ? 40 : nl), text + ns);
            else {
                x.i++;
                depth--;
                if (c->kind && depth == c->depth + 1)
                    c->child = -1;
                if (c->kind && depth == c->depth) {
                    rc = commit(&x, n, c, off);
                    memset(c, 0, sizeof *c);
                }
            }
        } else {
            x.i++;
            size_t ns = x.i;
            while (x.i < x.n && name_char(text[x.i]))
                x.i++;
            size_t nl = x.i - ns;
            if (nl == 0) {
                rc = trx_error_set(err, off, "expected an element name after '<'");
                break;
            }
            if (depth == 0 && root_seen) {
                rc = trx_error_set(err, off, "a second root element");
                break;
            }
            if (depth == DEPTH_MAX) {
                rc = trx_error_set(err, off, "elements nested deeper than %d", DEPTH_MAX);
                break;
            }
            root_seen = true;
            int kind = K_NONE;
            for (int k = K_EVENT; !c->kind && k <= K_GLOBAL_TIMESTAMP; k++)
                if (strlen(kind_names[k]) == nl && memcmp(text + ns, kind_names[k], nl) == 0)
                    kind = k;
            bool starts = kind != K_NONE;
            if (starts) {
                memset(c, 0, sizeof *c);
                c->kind = kind;
                c->depth = depth;
                c->child = -1;
            } else if (c->kind && depth == c->depth + 1) {
                c->child = field_index(text + ns, nl);
                if (c->child >= 0) {
                    c->value[c->child][0] = 0;
                    c->have[c->child] = true;
                }
            }
            /* attributes */
            bool empty = false;
            for (;;) {
                skip_space(&x);
                if (x.i >= x.n) {
                    rc = trx_error_set(err, off, "unterminated start tag");
                    break;
                }
                if (text[x.i] == '>') {
                    x.i++;
                    break;
                }
                if (text[x.i] == '/' && x.i + 1 < x.n && text[x.i + 1] == '>') {
                    x.i += 2;
                    empty = true;
                    break;
                }
                size_t as = x.i;
                while (x.i < x.n && name_char(text[x.i]))
                    x.i++;
                size_t al = x.i - as;
                skip_space(&x);
                if (!al || x.i >= x.n || text[x.i] != '=') {
                    rc = trx_error_set(err, x.i, "expected name=\"value\" in a start tag");
                    break;
                }
                x.i++;
                skip_space(&x);
                char q = x.i < x.n ? text[x.i] : 0;
                if (q != '"' && q != '\'') {
                    rc = trx_error_set(err, x.i, "attribute value not quoted");
                    break;
                }
                size_t vs = ++x.i;
                while (x.i < x.n && text[x.i] != q && text[x.i] != '<')
                    x.i++;
                if (x.i >= x.n || text[x.i] != q) {
                    rc = trx_error_set(err, vs, "unterminated attribute value");
                    break;
                }
                if (starts) {
                    int f = field_index(text + as, al);
                    if (f >= 0) {
                        c->value[f][0] = 0;
                        c->have[f] = true;
                        rc = append_text(&x, c->value[f], text + vs, text + x.i);
                        if (rc)
                            break;
                    }
                }
                x.i++;
            }
            if (rc)
                break;
            if (empty) {
                if (starts) {
                    rc = commit(&x, n, c, off);
                    memset(c, 0, sizeof *c);
                } else if (c->kind && depth == c->depth + 1) {
                    c->child = -1;
                }
            } else {
                stack[depth] = text + ns;
                stack_len[depth] = nl;
                depth++;
            }
        }
    }
    if (rc == 0 && depth != 0)
        rc = trx_error_set(err, x.n, "end of file inside <%.*s>",
                           (int)(stack_len[depth - 1] > 40 ? 40 : stack_len[depth - 1]),
                           stack[depth - 1]);
    if (rc == 0 && !root_seen)
        rc = trx_error_set(err, 0, "no root element");
    free(c);
    return rc;
}
