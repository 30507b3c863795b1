/* json_check.h - test helper: a strict JSON validator plus lookups of top-level members. */
#ifndef TRX_TEST_JSON_CHECK_H
#define TRX_TEST_JSON_CHECK_H

#include <stdbool.h>
#include <stddef.h>

/* True when text[0..n) is exactly one JSON value (white space around allowed).
 * When `keys` is given and the value is an object, its member names are
 * copied there (up to `max_keys`, each up to 63 chars) and `*key_count` set. */
bool json_valid(const char *text, size_t n, char (*keys)[64], size_t max_keys, size_t *key_count);

/* Raw text of the top-level member `key` of a flat object, copied to `out`; false if absent. */
bool json_member(const char *text, const char *key, char *out, size_t cap);

#endif
