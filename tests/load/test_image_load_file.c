/* test_image_load_file.c - loading from a path: binary files are mapped (not
 * copied), text files converted; directories, missing and empty files are
 * refused with a clear message; error offsets are offsets in the file. */
#include <sys/stat.h>
#include <sys/wait.h>

#include "load_test_helpers.h"

static void test_binary_is_mapped(void **state)
{
    (void)state;
    char *dir = make_temp_dir();
    uint8_t bytes[5000];
    memcpy(bytes, "TXTB", 4);
    for (size_t i = 4; i < sizeof bytes; i++)
        bytes[i] = (uint8_t)(i * 31);
    char *path = write_file(dir, "t.trx", bytes, sizeof bytes);
    trx_image img;
    trx_error err;
    assert_int_equal(trx_image_load_file(&img, path, TRX_FORMAT_AUTO, &err), 0);
    assert_int_equal(img.format, TRX_FORMAT_BIN);
    assert_int_equal(img.base, 0);
    assert_int_equal(img.size, sizeof bytes);
    assert_memory_equal(img.data, bytes, sizeof bytes);
    assert_non_null(img.mapping_);
    assert_ptr_equal(img.data, img.mapping_);
    assert_null(img.owned_);
    trx_image_free(&img);
    assert_null(img.data);
    trx_image_free(&img); /* twice is harmless */

    /* forced binary on a text-looking file is mapped too */
    char *hex = write_file(dir, "t.hex", ":0100000011EE\n", 14);
    assert_int_equal(trx_image_load_file(&img, hex, TRX_FORMAT_BIN, &err), 0);
    assert_int_equal(img.size, 14);
    assert_non_null(img.mapping_);
    trx_image_free(&img);
    free(hex);
    free(path);
    remove_tree(dir);
}

static void test_text_files(void **state)
{
    (void)state;
    char *dir = make_temp_dir();
    const char *hex = ":020000040800F2\n:0400100001020304E2\n:00000001FF\n";
    char *path = write_file(dir, "t.hex", hex, strlen(hex));
    trx_image img;
    trx_error err;
    assert_int_equal(trx_image_load_file(&img, path, TRX_FORMAT_AUTO, &err), 0);
    assert_int_equal(img.format, TRX_FORMAT_IHEX);
    assert_int_equal(img.base, 0x08000010);
    assert_int_equal(img.size, 4);
    assert_memory_equal(img.data, "\1\2\3\4", 4);
    assert_null(img.mapping_);
    assert_non_null(img.owned_);
    trx_image_free(&img);
    free(path);

    /* an error deep in the file reports the offset in the file */
    const char *bad = "\r\n11 22\r\n33 4x\r\n";
    path = write_file(dir, "bad.txt", bad, strlen(bad));
    assert_int_equal(trx_image_load_file(&img, path, TRX_FORMAT_AUTO, &err), -1);
    assert_int_equal(err.offset, 13);
    assert_non_null(strstr(err.message, "found 'x'"));
    assert_null(img.data);
    free(path);

    /* forcing S-record on an Intel HEX file */
    path = write_file(dir, "t2.hex", hex, strlen(hex));
    /* (its lines do not start like S-records: skipped as console text) */
    assert_int_equal(trx_image_load_file(&img, path, TRX_FORMAT_SREC, &err), -1);
    assert_int_equal(err.offset, strlen(hex));
    assert_non_null(strstr(err.message, "S-record: no data records"));
    free(path);
    remove_tree(dir);
}

static void test_bad_paths(void **state)
{
    (void)state;
    char *dir = make_temp_dir();
    trx_image img;
    trx_error err;

    assert_int_equal(trx_image_load_file(&img, dir, TRX_FORMAT_AUTO, &err), -1);
    assert_non_null(strstr(err.message, "is a directory"));
    assert_int_equal(err.offset, 0);

    char *missing = malloc(strlen(dir) + 16);
    sprintf(missing, "%s/missing.trx", dir);
    assert_int_equal(trx_image_load_file(&img, missing, TRX_FORMAT_AUTO, &err), -1);
    assert_non_null(strstr(err.message, "cannot open"));
    assert_non_null(strstr(err.message, "No such file"));
    free(missing);

    char *empty = write_file(dir, "empty.trx", "", 0);
    assert_int_equal(trx_image_load_file(&img, empty, TRX_FORMAT_AUTO, &err), -1);
    assert_string_equal(err.message, "empty file");
    assert_int_equal(trx_image_load_file(&img, empty, TRX_FORMAT_IHEX, &err), -1);
    assert_string_equal(err.message, "empty file");
    assert_null(img.data);

    if (geteuid() != 0) { /* root reads anything */
        char *locked = write_file(dir, "locked.trx", "TXTB", 4);
        assert_int_equal(chmod(locked, 0), 0);
        assert_int_equal(trx_image_load_file(&img, locked, TRX_FORMAT_AUTO, &err), -1);
        assert_non_null(strstr(err.message, "Permission denied"));
        free(locked);
    }
    free(empty);
    remove_tree(dir);
}

/* A non-regular file (a character device) is read, not mapped. */
static void test_stream_input(void **state)
{
    (void)state;
    trx_image img;
    trx_error err;
    assert_int_equal(trx_image_load_file(&img, "/dev/null", TRX_FORMAT_AUTO, &err), -1);
    assert_string_equal(err.message, "empty file");

    /* a named pipe fed by a child process */
    char *dir = make_temp_dir();
    char fifo[512];
    snprintf(fifo, sizeof fifo, "%s/pipe", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        FILE *f = fopen(fifo, "w");
        int ok = f && fputs("S104000011EA\nS9030000FC\n", f) >= 0 && fclose(f) == 0;
        _exit(ok ? 0 : 1);
    }
    assert_int_equal(trx_image_load_file(&img, fifo, TRX_FORMAT_AUTO, &err), 0);
    int status = 0;
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_int_equal(status, 0);
    assert_int_equal(img.format, TRX_FORMAT_SREC);
    assert_int_equal(img.size, 1);
    assert_int_equal(img.data[0], 0x11);
    assert_null(img.mapping_);
    trx_image_free(&img);
    remove_tree(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_binary_is_mapped),
        cmocka_unit_test(test_text_files),
        cmocka_unit_test(test_bad_paths),
        cmocka_unit_test(test_stream_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
