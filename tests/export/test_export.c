/*
 * test_export.c - checks the recorder's Intel HEX / S-record export helpers:
 * exact text for known records, a checksum and record-shape check of every
 * line, a read-back through the host loaders (byte identity and base
 * address), a cross-check with binutils' objcopy when it is installed, and
 * (when the recorder is built) the export of a real recorder trace buffer.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "trx/export.h"
#include "trx/trx.h"

/* ------------------------------------------------------------ helpers */

/* A growing text buffer the put-char callback appends to. */
typedef struct text_sink {
    char *text;
    size_t len, cap;
} text_sink;

static void sink_put(void *ctx, char c)
{
    text_sink *s = ctx;
    if (s->len + 2 > s->cap) {
        s->cap = s->cap ? s->cap * 2 : 4096;
        s->text = realloc(s->text, s->cap);
        assert_non_null(s->text);
    }
    s->text[s->len++] = c;
    s->text[s->len] = '\0';
}

static void sink_free(text_sink *s)
{
    free(s->text);
    memset(s, 0, sizeof *s);
}

/* Deterministic test bytes (not a ramp, so swapped records would show). */
static uint8_t *make_pattern(size_t n, uint32_t seed)
{
    uint8_t *b = malloc(n ? n : 1);
    uint32_t x = seed;
    assert_non_null(b);
    for (size_t i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        b[i] = (uint8_t)(x >> 16);
    }
    return b;
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1; /* the exporter writes upper case only */
}

/* Decodes `n` hex pairs at `p` into `out`; fails the test on a bad digit. */
static void decode_pairs(const char *p, size_t n, uint8_t *out)
{
    for (size_t i = 0; i < n; i++) {
        int hi = hex_value(p[2 * i]), lo = hex_value(p[2 * i + 1]);
        assert_true(hi >= 0 && lo >= 0);
        out[i] = (uint8_t)(hi << 4 | lo);
    }
}

/* Statistics of a checked text. */
typedef struct text_shape {
    unsigned lines;
    unsigned data_records;
    unsigned ela_records;  /* Intel HEX type 04 */
    unsigned max_data_len; /* largest data payload of a record */
    char srec_data_type;   /* '1', '2' or '3' */
    char srec_end_type;    /* '7', '8' or '9' */
    int ends_with_eof;     /* last record is the terminator */
    uint32_t srec_end_address;
} text_shape;

/* Splits the text into lines ending as `crlf` says and verifies every
 * record's length and checksum (Intel HEX: two's complement of the byte sum;
 * S-record: ones' complement of the sum of count, address and data). */
static text_shape check_text(const char *text, int srec, int crlf)
{
    text_shape shape;
    const char *p = text;
    memset(&shape, 0, sizeof shape);
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len;
        uint8_t rec[300];
        assert_non_null(eol);
        len = (size_t)(eol - p);
        if (crlf) {
            assert_true(len > 0 && p[len - 1] == '\r');
            len--;
        } else {
            assert_true(len == 0 || p[len - 1] != '\r');
        }
        shape.lines++;
        shape.ends_with_eof = 0;
        if (!srec) {
            unsigned sum = 0, n;
            assert_int_equal(p[0], ':');
            assert_true(len >= 11 && (len - 1) % 2 == 0);
            n = (unsigned)(len - 1) / 2;
            decode_pairs(p + 1, n, rec);
            assert_int_equal(rec[0] + 5u, n); /* length byte matches */
            for (unsigned i = 0; i < n; i++)
                sum += rec[i];
            assert_int_equal(sum & 0xFFu, 0u);
            if (rec[3] == 0x00) {
                shape.data_records++;
                if (rec[0] > shape.max_data_len)
                    shape.max_data_len = rec[0];
                /* a record never crosses a 64 KiB boundary */
                assert_true(((rec[1] << 8 | rec[2]) + rec[0]) <= 0x10000);
            } else if (rec[3] == 0x04) {
                shape.ela_records++;
                assert_int_equal(rec[0], 2);
            } else {
                assert_int_equal(rec[3], 0x01);
                assert_int_equal(rec[0], 0);
                shape.ends_with_eof = 1;
            }
        } else {
            unsigned sum = 0, n, abytes;
            char type;
            assert_int_equal(p[0], 'S');
            type = p[1];
            assert_true(len >= 10 && (len - 2) % 2 == 0);
            n = (unsigned)(len - 2) / 2;
            decode_pairs(p + 2, n, rec);
            assert_int_equal(rec[0] + 1u, n); /* count byte matches */
            for (unsigned i = 0; i + 1 < n; i++)
                sum += rec[i];
            assert_int_equal((~sum) & 0xFFu, rec[n - 1]);
            abytes = (type == '2' || type == '8') ? 3 : (type == '3' || type == '7') ? 4 : 2;
            if (type == '1' || type == '2' || type == '3') {
                assert_true(shape.srec_data_type == 0 || shape.srec_data_type == type);
                shape.srec_data_type = type;
                shape.data_records++;
                if (rec[0] - abytes - 1 > shape.max_data_len)
                    shape.max_data_len = rec[0] - abytes - 1;
            } else if (type == '7' || type == '8' || type == '9') {
                shape.srec_end_type = type;
                shape.srec_end_address = 0;
                for (unsigned i = 0; i < abytes; i++)
                    shape.srec_end_address = shape.srec_end_address << 8 | rec[1 + i];
                shape.ends_with_eof = 1;
            } else {
                assert_int_equal(type, '0');
                assert_int_equal(shape.lines, 1); /* the header comes first */
            }
        }
        p = eol + 1;
    }
    assert_true(shape.ends_with_eof);
    return shape;
}

/* Loads `text` with the host loader as `format` and checks the image. */
static void assert_loads_back(const text_sink *s, trx_input_format format, const uint8_t *data,
                              size_t size, uint32_t base)
{
    trx_image img;
    trx_error err;
    memset(&img, 0, sizeof img);
    memset(&err, 0, sizeof err);
    int rc = trx_image_load_memory(&img, (const uint8_t *)s->text, s->len, format, &err);
    if (rc != 0)
        fail_msg("loader rejected exported text: %s (offset %llu)", err.message,
                 (unsigned long long)err.offset);
    assert_int_equal(img.size, size);
    assert_int_equal(img.base, base);
    assert_memory_equal(img.data, data, size);
    trx_image_free(&img);

    /* auto-detection picks the same format */
    memset(&img, 0, sizeof img);
    assert_int_equal(
        trx_image_load_memory(&img, (const uint8_t *)s->text, s->len, TRX_FORMAT_AUTO, &err), 0);
    assert_int_equal(img.format, format);
    assert_int_equal(img.size, size);
    assert_int_equal(img.base, base);
    trx_image_free(&img);
}

/* When objcopy exists: converts the text to binary and compares bytes.
 * Returns 1 when it checked, 0 when objcopy is not installed. */
static int objcopy_agrees(const text_sink *s, const char *format, const uint8_t *data, size_t size)
{
    char in_path[] = "/tmp/trx_export_inXXXXXX";
    char out_path[sizeof in_path + 4];
    char cmd[256];
    FILE *f;
    uint8_t *back;
    long got;
    int fd;

    if (system("objcopy --version >/dev/null 2>&1") != 0)
        return 0;
    fd = mkstemp(in_path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, s->text, s->len), (ssize_t)s->len);
    close(fd);
    snprintf(out_path, sizeof out_path, "%s.bin", in_path);
    snprintf(cmd, sizeof cmd, "objcopy -I %s -O binary %s %s", format, in_path, out_path);
    assert_int_equal(system(cmd), 0);
    f = fopen(out_path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    got = ftell(f);
    fseek(f, 0, SEEK_SET);
    assert_int_equal(got, (long)size);
    back = malloc(size ? size : 1);
    assert_non_null(back);
    assert_int_equal(fread(back, 1, size, f), size);
    fclose(f);
    assert_memory_equal(back, data, size);
    free(back);
    unlink(in_path);
    unlink(out_path);
    return 1;
}

/* Exports, checks the text's shape, reads it back both ways. */
static text_shape round_trip(int srec, const uint8_t *data, uint32_t size, uint32_t base,
                             unsigned flags)
{
    text_sink s = {0};
    int rc = srec ? trx_export_srec(data, size, base, flags, sink_put, &s)
                  : trx_export_ihex(data, size, base, flags, sink_put, &s);
    assert_int_equal(rc, TRX_EXPORT_OK);
    text_shape shape = check_text(s.text, srec, (flags & TRX_EXPORT_CRLF) != 0);
    assert_int_equal(shape.max_data_len, size == 0 ? 0
                                         : (flags & TRX_EXPORT_RECORD_32)
                                             ? (size < 32 ? size : 32)
                                             : (size < 16 ? size : 16));
    if (size > 0)
        assert_loads_back(&s, srec ? TRX_FORMAT_SREC : TRX_FORMAT_IHEX, data, size, base);
    objcopy_agrees(&s, srec ? "srec" : "ihex", data, size);
    sink_free(&s);
    return shape;
}

/* ------------------------------------------------------------ tests */

/* Known records (textbook examples, checksums worked out by hand). */
static void test_exact_text(void **state)
{
    (void)state;
    text_sink s = {0};
    const char *gap = "address gap";
    static const uint8_t ppc[28] = {0x7C, 0x08, 0x02, 0xA6, 0x90, 0x01, 0x00, 0x04, 0x94, 0x21,
                                    0xFF, 0xF0, 0x7C, 0x6C, 0x1B, 0x78, 0x7C, 0x8C, 0x23, 0x78,
                                    0x3C, 0x60, 0x00, 0x00, 0x38, 0x63, 0x00, 0x00};

    assert_int_equal(trx_export_ihex(gap, 11, 0x0010, 0, sink_put, &s), 0);
    assert_string_equal(s.text, ":0B0010006164647265737320676170A7\n:00000001FF\n");
    sink_free(&s);

    assert_int_equal(trx_export_ihex(gap, 11, 0x12340010, TRX_EXPORT_CRLF, sink_put, &s), 0);
    assert_string_equal(s.text, ":020000041234B4\r\n"
                                ":0B0010006164647265737320676170A7\r\n"
                                ":00000001FF\r\n");
    sink_free(&s);

    assert_int_equal(trx_export_srec(ppc, 28, 0, TRX_EXPORT_RECORD_32, sink_put, &s), 0);
    assert_string_equal(s.text,
                        "S00600007472789B\n"
                        "S11F00007C0802A6900100049421FFF07C6C1B787C8C23783C6000003863000026\n"
                        "S9030000FC\n");
    sink_free(&s);

    /* empty region: only the framing records */
    assert_int_equal(trx_export_ihex(NULL, 0, 0, 0, sink_put, &s), 0);
    assert_string_equal(s.text, ":00000001FF\n");
    sink_free(&s);
    assert_int_equal(trx_export_srec(NULL, 0, 0x20000000, 0, sink_put, &s), 0);
    assert_string_equal(s.text, "S00600007472789B\nS70520000000DA\n");
    sink_free(&s);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    uint8_t b[4] = {1, 2, 3, 4};
    text_sink s = {0};
    assert_int_equal(trx_export_ihex(b, 4, 0, 0, NULL, NULL), TRX_EXPORT_BAD_ARGUMENT);
    assert_int_equal(trx_export_srec(NULL, 4, 0, 0, sink_put, &s), TRX_EXPORT_BAD_ARGUMENT);
    /* the last byte would land at 0x1_0000_0000 */
    assert_int_equal(trx_export_ihex(b, 4, 0xFFFFFFFDu, 0, sink_put, &s), TRX_EXPORT_ADDRESS_RANGE);
    assert_int_equal(trx_export_srec(b, 4, 0xFFFFFFFDu, 0, sink_put, &s), TRX_EXPORT_ADDRESS_RANGE);
    assert_int_equal(s.len, 0); /* nothing written on error */
    /* ...but ending exactly at the top of the address space is fine */
    assert_int_equal(trx_export_ihex(b, 4, 0xFFFFFFFCu, 0, sink_put, &s), TRX_EXPORT_OK);
    sink_free(&s);
}

static void test_ihex_round_trips(void **state)
{
    (void)state;
    uint8_t *d = make_pattern(70000, 1);
    text_shape sh;

    sh = round_trip(0, d, 1000, 0x00000000, 0);
    assert_int_equal(sh.ela_records, 0);
    assert_int_equal(sh.data_records, 63); /* 62 full + 1 of 8 bytes */

    sh = round_trip(0, d, 1000, 0x20000000, TRX_EXPORT_RECORD_32 | TRX_EXPORT_CRLF);
    assert_int_equal(sh.ela_records, 1);
    assert_int_equal(sh.data_records, 32); /* 31 full + 1 of 8 bytes */

    /* crosses two 64 KiB boundaries; the odd start splits records there */
    sh = round_trip(0, d, 70000, 0x2000FFF5, 0);
    assert_int_equal(sh.ela_records, 3);

    sh = round_trip(0, d, 1, 0xFFFFFFFF, 0); /* the very last byte */
    assert_int_equal(sh.data_records, 1);
    free(d);
}

static void test_srec_round_trips(void **state)
{
    (void)state;
    uint8_t *d = make_pattern(5000, 2);
    text_shape sh;

    sh = round_trip(1, d, 5000, 0x0100, 0); /* ends at 0x1487: 16-bit */
    assert_int_equal(sh.srec_data_type, '1');
    assert_int_equal(sh.srec_end_type, '9');
    assert_int_equal(sh.srec_end_address, 0x0100);
    assert_int_equal(sh.data_records, 313);

    sh = round_trip(1, d, 5000, 0xF000, TRX_EXPORT_CRLF); /* crosses 0x10000: 24-bit */
    assert_int_equal(sh.srec_data_type, '2');
    assert_int_equal(sh.srec_end_type, '8');

    sh = round_trip(1, d, 5000, 0x08000000, TRX_EXPORT_RECORD_32);
    assert_int_equal(sh.srec_data_type, '3');
    assert_int_equal(sh.srec_end_type, '7');
    assert_int_equal(sh.srec_end_address, 0x08000000);
    assert_int_equal(sh.data_records, 157);

    sh = round_trip(1, d, 100, 0x0100, TRX_EXPORT_SREC_S3); /* forced 32-bit */
    assert_int_equal(sh.srec_data_type, '3');
    assert_int_equal(sh.srec_end_type, '7');
    free(d);
}

/* A UART capture: boot banner and log lines, the export framed by its marker
 * lines, more log lines after. Both loaders skip and count the lines that are
 * not records and load the same bytes; a damaged record among the noise is
 * still an error at its offset. */
static void sink_str(text_sink *s, const char *text)
{
    while (*text)
        sink_put(s, *text++);
}

static void test_capture_among_console_noise(void **state)
{
    (void)state;
    const uint32_t size = 300, base = 0x20001000u;
    uint8_t *data = make_pattern(size, 77);
    for (int srec = 0; srec <= 1; srec++) {
        text_sink s = {0};
        /* 3 text lines before (the blank one is white space, not counted) */
        sink_str(&s, "FW: boot v1.2\r\n\r\nSysTick 1 kHz\r\n  [log] sensor=12: ok\r\n");
        int rc = srec ? trx_export_srec(data, size, base, TRX_EXPORT_MARKERS | TRX_EXPORT_CRLF,
                                        sink_put, &s)
                      : trx_export_ihex(data, size, base, TRX_EXPORT_MARKERS | TRX_EXPORT_CRLF,
                                        sink_put, &s);
        assert_int_equal(rc, TRX_EXPORT_OK);
        sink_str(&s, "Stopped.\r\n:-) done\r\n");
        assert_non_null(strstr(s.text, "\r\n" TRX_EXPORT_BEGIN "\r\n"));
        assert_non_null(strstr(s.text, "\r\n" TRX_EXPORT_END "\r\n"));

        trx_image img;
        trx_error err;
        memset(&img, 0, sizeof img);
        memset(&err, 0, sizeof err);
        rc = trx_image_load_memory(&img, (const uint8_t *)s.text, s.len, TRX_FORMAT_AUTO, &err);
        if (rc != 0)
            fail_msg("capture rejected: %s (offset %llu)", err.message,
                     (unsigned long long)err.offset);
        assert_int_equal(img.format, srec ? TRX_FORMAT_SREC : TRX_FORMAT_IHEX);
        assert_int_equal(img.base, base);
        assert_int_equal(img.size, size);
        assert_memory_equal(img.data, data, size);
        /* 3 text lines + the BEGIN marker; the end record stops the reading */
        assert_int_equal(img.skipped_lines, 4);
        trx_image_free(&img);

        /* damage the first data record's last checksum digit: an error at its offset */
        char *first = strstr(s.text, srec ? "\nS3" : "\n:10");
        assert_non_null(first);
        char *eol = strchr(first + 1, '\r');
        assert_non_null(eol);
        eol[-1] = eol[-1] == '0' ? '1' : '0';
        rc = trx_image_load_memory(&img, (const uint8_t *)s.text, s.len, TRX_FORMAT_AUTO, &err);
        assert_int_equal(rc, -1);
        assert_int_equal(err.offset, (uint64_t)(eol - 2 - s.text));
        assert_non_null(strstr(err.message, "checksum mismatch"));
        sink_free(&s);
    }
    free(data);
}

#ifdef TRX_TEST_WITH_RECORDER
#include "recorder_buffer.h"

/* A buffer the recorder wrote, exported both ways, decodes as a trace. */
static void test_recorder_buffer_round_trip(void **state)
{
    (void)state;
    static uint32_t words[4096]; /* 16 KiB, 32-bit aligned as enable wants */
    const uint8_t *buffer = (const uint8_t *)words;
    unsigned long entries = 0;
    const uint32_t load = 0x20000000u;

    assert_int_equal(recorder_buffer_fill(words, sizeof words, &entries), 0);
    assert_int_equal(entries, 2 + RECORDER_BUFFER_USER_EVENTS); /* RUNNING x2 + user events */

    for (int srec = 0; srec < 2; srec++) {
        text_sink s = {0};
        trx_image img;
        trx_trace t;
        trx_error err;
        trx_entry e;
        int rc =
            srec ? trx_export_srec(buffer, sizeof words, load, 0, sink_put, &s)
                 : trx_export_ihex(buffer, sizeof words, load, TRX_EXPORT_RECORD_32, sink_put, &s);
        assert_int_equal(rc, TRX_EXPORT_OK);
        check_text(s.text, srec, 0);
        assert_loads_back(&s, srec ? TRX_FORMAT_SREC : TRX_FORMAT_IHEX, buffer, sizeof words, load);
        objcopy_agrees(&s, srec ? "srec" : "ihex", buffer, sizeof words);

        memset(&img, 0, sizeof img);
        memset(&t, 0, sizeof t);
        assert_int_equal(
            trx_image_load_memory(&img, (const uint8_t *)s.text, s.len, TRX_FORMAT_AUTO, &err), 0);
        if (trx_trace_open_image(&t, &img, "exported", &err) != 0)
            fail_msg("exported trace does not open: %s", err.message);
        assert_int_equal(t.used, entries);
        assert_int_equal(t.registry_used, 1);
        assert_string_equal(t.objects[0].name, "exporter");
        assert_int_equal(t.objects[0].address, 0x20000100u);
        trx_trace_entry(&t, 2, &e); /* the first user event */
        assert_int_equal(e.context, 0x20000100u);
        assert_int_equal(e.id, 4096u);
        assert_int_equal(e.priority, 0x80070007u);
        assert_int_equal(e.info[3], 0xA5A5A5A5u);
        trx_trace_entry(&t, (uint32_t)entries - 1, &e);
        assert_int_equal(e.id, 4096u + RECORDER_BUFFER_USER_EVENTS - 1);
        assert_int_equal(e.info[2], 3u * (RECORDER_BUFFER_USER_EVENTS - 1));
        trx_trace_close(&t);
        sink_free(&s);
    }
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_text),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_ihex_round_trips),
        cmocka_unit_test(test_srec_round_trips),
        cmocka_unit_test(test_capture_among_console_noise),
#ifdef TRX_TEST_WITH_RECORDER
        cmocka_unit_test(test_recorder_buffer_round_trip),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
