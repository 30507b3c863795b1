/*
 * load_test_helpers.h - shared by the loader tests: loading a C string,
 * generating Intel HEX / S-record lines with correct checksums (written
 * independently of the loaders), temporary files, and asserting an error's
 * offset and message.
 */
#ifndef TRX_TESTS_LOAD_TEST_HELPERS_H
#define TRX_TESTS_LOAD_TEST_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "trx/trx.h"

/* Loads `text` (without its NUL) as `format`. */
static inline int load_text(trx_image *img, const char *text, trx_input_format format,
                            trx_error *err)
{
    return trx_image_load_memory(img, (const uint8_t *)text, strlen(text), format, err);
}

/* Asserts that loading `text` as `format` fails at `offset` with a message
 * containing `part` (and no newline). */
static inline void expect_load_error(const char *text, trx_input_format format, uint64_t offset,
                                     const char *part)
{
    trx_image img;
    trx_error err = {0};
    int rc = load_text(&img, text, format, &err);
    if (rc == 0 || err.offset != offset || !strstr(err.message, part))
        print_error(
            "input \"%s\": rc %d, offset %llu, message \"%s\"; wanted offset %llu, \"%s\"\n", text,
            rc, (unsigned long long)err.offset, err.message, (unsigned long long)offset, part);
    assert_int_equal(rc, -1);
    assert_int_equal(err.offset, offset);
    assert_non_null(strstr(err.message, part));
    assert_null(strchr(err.message, '\n'));
    assert_null(img.data);
    trx_image_free(&img);
}

/* Appends one Intel HEX record ":LLAAAATT<data>CC\n" to `out`. */
static inline void ihex_line(char *out, unsigned type, unsigned addr16, const uint8_t *data,
                             unsigned len)
{
    char *p = out + strlen(out);
    unsigned sum = len + (addr16 >> 8) + (addr16 & 0xFF) + type;
    p += sprintf(p, ":%02X%04X%02X", len, addr16 & 0xFFFF, type);
    for (unsigned i = 0; i < len; i++) {
        p += sprintf(p, "%02X", data[i]);
        sum += data[i];
    }
    sprintf(p, "%02X\n", (256 - (sum % 256)) % 256);
}

/* Appends one S-record "Stcc<addr><data>ss\n" with `addr_len` address bytes. */
static inline void srec_line(char *out, unsigned type, unsigned addr_len, uint32_t addr,
                             const uint8_t *data, unsigned len)
{
    char *p = out + strlen(out);
    unsigned count = addr_len + len + 1, sum = count;
    p += sprintf(p, "S%u%02X", type, count);
    for (unsigned i = addr_len; i-- > 0;) {
        unsigned b = (addr >> (8 * i)) & 0xFF;
        p += sprintf(p, "%02X", b);
        sum += b;
    }
    for (unsigned i = 0; i < len; i++) {
        p += sprintf(p, "%02X", data[i]);
        sum += data[i];
    }
    sprintf(p, "%02X\n", ~sum & 0xFF);
}

/* A fresh temporary directory (caller removes it with remove_tree). */
static inline char *make_temp_dir(void)
{
    const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char *dir = malloc(strlen(base) + 32);
    assert_non_null(dir);
    sprintf(dir, "%s/trx-load-XXXXXX", base);
    assert_non_null(mkdtemp(dir));
    return dir;
}

/* Writes `len` bytes to DIR/NAME and returns the path (malloc'ed). */
static inline char *write_file(const char *dir, const char *name, const void *bytes, size_t len)
{
    char *path = malloc(strlen(dir) + strlen(name) + 2);
    assert_non_null(path);
    sprintf(path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
    return path;
}

/* Removes a directory made by make_temp_dir and everything in it. */
static inline void remove_tree(char *dir)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

#endif /* TRX_TESTS_LOAD_TEST_HELPERS_H */
