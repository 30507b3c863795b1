/* json_check.c - test helper: strict recursive-descent JSON validation (RFC 8259 grammar). */
#include "json_check.h"

#include <string.h>

typedef struct parser {
    const char *p, *end;
    int depth;
} parser;

static void ws(parser *s)
{
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
        s->p++;
}

/* Consumes the character `c` when it is next; false (nothing consumed) otherwise. */
static bool eat(parser *s, char c)
{
    if (s->p >= s->end || *s->p != c)
        return false;
    s->p++;
    return true;
}

static bool lit(parser *s, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n) != 0)
        return false;
    s->p += n;
    return true;
}

static bool hexdigit(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* A string; its content (unescaped only for plain ASCII) goes to `out` when given. */
static bool string(parser *s, char *out, size_t cap)
{
    size_t k = 0;
    if (!eat(s, '"'))
        return false;
    while (s->p < s->end && *s->p != '"') {
        unsigned char c = (unsigned char)*s->p;
        if (c < 0x20)
            return false;
        if (c == '\\') {
            s->p++;
            if (s->p >= s->end)
                return false;
            c = (unsigned char)*s->p;
            if (c == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (s->p + i >= s->end || !hexdigit(s->p[i]))
                        return false;
                s->p += 4;
                c = '?';
            } else if (!strchr("\"\\/bfnrt", c)) {
                return false;
            }
        }
        if (out && k + 1 < cap)
            out[k++] = (char)c;
        s->p++;
    }
    if (!eat(s, '"'))
        return false;
    if (out && cap)
        out[k] = '\0';
    return true;
}

static bool number(parser *s)
{
    const char *q = s->p;
    if (q < s->end && *q == '-')
        q++;
    if (q >= s->end || *q < '0' || *q > '9')
        return false;
    if (*q == '0')
        q++;
    else
        while (q < s->end && *q >= '0' && *q <= '9')
            q++;
    if (q < s->end && *q == '.') {
        q++;
        if (q >= s->end || *q < '0' || *q > '9')
            return false;
        while (q < s->end && *q >= '0' && *q <= '9')
            q++;
    }
    if (q < s->end && (*q == 'e' || *q == 'E')) {
        q++;
        if (q < s->end && (*q == '+' || *q == '-'))
            q++;
        if (q >= s->end || *q < '0' || *q > '9')
            return false;
        while (q < s->end && *q >= '0' && *q <= '9')
            q++;
    }
    s->p = q;
    return true;
}

static bool value(parser *s, char (*keys)[64], size_t max_keys, size_t *key_count);

static bool object(parser *s, char (*keys)[64], size_t max_keys, size_t *key_count)
{
    s->p++;
    ws(s);
    if (eat(s, '}'))
        return true;
    for (;;) {
        ws(s);
        char name[64];
        if (!string(s, name, sizeof name))
            return false;
        if (keys && *key_count < max_keys)
            memcpy(keys[(*key_count)++], name, sizeof name);
        ws(s);
        if (!eat(s, ':'))
            return false;
        if (!value(s, NULL, 0, NULL))
            return false;
        ws(s);
        if (eat(s, '}'))
            return true;
        if (!eat(s, ','))
            return false;
    }
}

static bool array(parser *s)
{
    s->p++;
    ws(s);
    if (eat(s, ']'))
        return true;
    for (;;) {
        if (!value(s, NULL, 0, NULL))
            return false;
        ws(s);
        if (eat(s, ']'))
            return true;
        if (!eat(s, ','))
            return false;
    }
}

static bool value(parser *s, char (*keys)[64], size_t max_keys, size_t *key_count)
{
    ws(s);
    if (s->p >= s->end || ++s->depth > 64)
        return false;
    bool ok;
    switch (*s->p) {
    case '{':
        ok = object(s, keys, max_keys, key_count);
        break;
    case '[':
        ok = array(s);
        break;
    case '"':
        ok = string(s, NULL, 0);
        break;
    case 't':
        ok = lit(s, "true");
        break;
    case 'f':
        ok = lit(s, "false");
        break;
    case 'n':
        ok = lit(s, "null");
        break;
    default:
        ok = number(s);
        break;
    }
    s->depth--;
    return ok;
}

bool json_valid(const char *text, size_t n, char (*keys)[64], size_t max_keys, size_t *key_count)
{
    parser s = {text, text + n, 0};
    size_t dummy = 0;
    if (!key_count)
        key_count = &dummy;
    *key_count = 0;
    if (!value(&s, keys, max_keys, key_count))
        return false;
    ws(&s);
    return s.p == s.end;
}

bool json_member(const char *text, const char *key, char *out, size_t cap)
{
    char pattern[80];
    size_t n = strlen(key);
    if (n + 4 > sizeof pattern)
        return false;
    pattern[0] = '"';
    memcpy(pattern + 1, key, n);
    memcpy(pattern + 1 + n, "\":", 3);
    const char *p = strstr(text, pattern);
    if (!p)
        return false;
    p += n + 3;
    const char *q = p;
    if (*q == '"') {
        q++;
        while (*q && *q != '"')
            q += *q == '\\' ? 2 : 1;
        q++;
    } else {
        while (*q && *q != ',' && *q != '}' && *q != ']')
            q++;
    }
    size_t len = (size_t)(q - p);
    if (len + 1 > cap)
        return false;
    memcpy(out, p, len);
    out[len] = '\0';
    return true;
}
