/*
 * test_load_roundtrip.c - every corpus trace converted by independent tools
 * (objcopy to Intel HEX and S-record at the trace's own base address and at
 * 0x20000000, S3 records of 32 bytes, xxd -p and od to ASCII hex) loads back
 * to exactly the bytes of the binary, at the right base.
 */
#include <dirent.h>

#include "load_test_helpers.h"

#define CORPUS_DIR TRX_SHARED_DIR "/corpus"

typedef struct variant {
    const char *name;
    const char *command; /* printf format: %s base (hex, no 0x), %s input, %s output */
    trx_input_format format;
    int own_base; /* 1: base = the trace's base address, 0: 0x20000000, -1: 0 */
} variant;

static const variant variants[] = {
    {"ihex", "objcopy -I binary -O ihex --change-addresses 0x%s '%s' '%s'", TRX_FORMAT_IHEX, 1},
    {"ihex-high", "objcopy -I binary -O ihex --change-addresses 0x%s '%s' '%s'", TRX_FORMAT_IHEX,
     0},
    {"srec", "objcopy -I binary -O srec --change-addresses 0x%s '%s' '%s'", TRX_FORMAT_SREC, 1},
    {"srec-s3-32",
     "objcopy -I binary -O srec --srec-len=32 --srec-forceS3 --change-addresses 0x%s '%s' '%s'",
     TRX_FORMAT_SREC, 0},
    {"srec-32", "objcopy -I binary -O srec --srec-len=32 --change-addresses 0x%s '%s' '%s'",
     TRX_FORMAT_SREC, 1},
    {"xxd", "true %s; xxd -p '%s' > '%s'", TRX_FORMAT_ASCII, -1},
    {"od", "true %s; od -An -v -tx1 '%s' > '%s'", TRX_FORMAT_ASCII, -1},
};

/* Reads a whole file into the heap. */
static uint8_t *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    assert_true(n > 0);
    rewind(f);
    uint8_t *buf = malloc((size_t)n);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *size = (size_t)n;
    return buf;
}

/* The trace's base address: header word at offset 8 in the buffer's byte order. */
static uint32_t trace_base(const uint8_t *b)
{
    if (memcmp(b, "TXTB", 4) == 0) /* big-endian buffer */
        return (uint32_t)b[8] << 24 | (uint32_t)b[9] << 16 | (uint32_t)b[10] << 8 | b[11];
    return (uint32_t)b[11] << 24 | (uint32_t)b[10] << 16 | (uint32_t)b[9] << 8 | b[8];
}

static void check_trace(const char *dir, const char *name, int *variants_checked)
{
    char src[1024], out[1024], cmd[4096], hexbase[16];
    snprintf(src, sizeof src, "%s/%s", CORPUS_DIR, name);
    size_t size;
    uint8_t *bin = read_all(src, &size);
    uint32_t own = trace_base(bin);

    trx_image img;
    trx_error err;
    assert_int_equal(trx_image_load_file(&img, src, TRX_FORMAT_AUTO, &err), 0);
    assert_int_equal(img.format, TRX_FORMAT_BIN);
    assert_int_equal(img.size, size);
    assert_memory_equal(img.data, bin, size);
    trx_image_free(&img);

    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        const variant *var = &variants[v];
        uint64_t base = var->own_base > 0 ? own : var->own_base == 0 ? 0x20000000u : 0;
        snprintf(hexbase, sizeof hexbase, "%llX", (unsigned long long)base);
        snprintf(out, sizeof out, "%s/%s.%s", dir, name, var->name);
        snprintf(cmd, sizeof cmd, var->command, hexbase, src, out);
        assert_int_equal(system(cmd), 0);
        memset(&err, 0, sizeof err);
        int rc = trx_image_load_file(&img, out, TRX_FORMAT_AUTO, &err);
        if (rc)
            print_error("%s: offset %llu: %s\n", out, (unsigned long long)err.offset, err.message);
        assert_int_equal(rc, 0);
        assert_int_equal(img.format, var->format);
        assert_int_equal(img.base, base);
        assert_int_equal(img.size, size);
        assert_memory_equal(img.data, bin, size);
        trx_image_free(&img);
        /* the same again, forced */
        assert_int_equal(trx_image_load_file(&img, out, var->format, &err), 0);
        assert_int_equal(img.size, size);
        trx_image_free(&img);
        ++*variants_checked;
    }
    free(bin);
}

static void test_corpus_roundtrip(void **state)
{
    (void)state;
    if (system("command -v objcopy >/dev/null && command -v xxd >/dev/null && command -v od "
               ">/dev/null") != 0) {
        const char *allow = getenv("TRX_ALLOW_MISSING_TOOLS");
        if (allow && strcmp(allow, "1") == 0)
            skip();
        fail_msg("objcopy, xxd or od is not installed (tools/check_test_deps.sh installs them; "
                 "TRX_ALLOW_MISSING_TOOLS=1 skips)");
    }
    DIR *d = opendir(CORPUS_DIR);
    assert_non_null(d);
    char *dir = make_temp_dir();
    int traces = 0, checked = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n > 4 && strcmp(e->d_name + n - 4, ".trx") == 0) {
            check_trace(dir, e->d_name, &checked);
            traces++;
        }
    }
    closedir(d);
    remove_tree(dir);
    assert_true(traces >= 9); /* the corpus README lists 9 traces */
    assert_int_equal(checked, traces * (int)(sizeof variants / sizeof variants[0]));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_roundtrip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
