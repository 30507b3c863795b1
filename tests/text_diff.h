/* text_diff.h - the tests that compare two outputs byte for byte (one walk
 * against segments, with and without a shortcut) say where they part: the
 * first differing byte and the text around it in each. */
#ifndef TRX_TESTS_TEXT_DIFF_H
#define TRX_TESTS_TEXT_DIFF_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* True when `got` differs from `want`, after printing to stderr (under the
 * caller's own line naming the case) the first differing byte's offset and
 * 160 characters of each from 40 before it, labelled. */
static inline bool text_differs(const char *want_label, const char *want, const char *got_label,
                                const char *got)
{
    if (strcmp(want, got) == 0)
        return false;
    size_t at = 0;
    while (got[at] && got[at] == want[at])
        at++;
    size_t from = at > 40 ? at - 40 : 0;
    fprintf(stderr, "  differs at byte %zu:\n  %-9s %.160s\n  %-9s %.160s\n", at, want_label,
            want + from, got_label, got + from);
    return true;
}

#endif
