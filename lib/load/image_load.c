/*
 * image_load.c - loading a dump into a trx_image: from a file (a binary dump
 * is mapped read-only, never copied; text dumps are mapped, converted into a
 * heap image, and unmapped) or from memory, the format given or detected.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "load/text_loaders.h"
#include "trx/trx.h"

/* Converts text or copies binary `bytes` into an owned image. */
static int convert(trx_image *img, const uint8_t *bytes, size_t size, trx_input_format format,
                   trx_error *err)
{
    switch (format) {
    case TRX_FORMAT_IHEX:
        return trx_load_ihex(img, bytes, size, err);
    case TRX_FORMAT_SREC:
        return trx_load_srec(img, bytes, size, err);
    case TRX_FORMAT_ASCII:
        return trx_load_ascii(img, bytes, size, err);
    case TRX_FORMAT_BIN: {
        uint8_t *copy = malloc(size);
        if (!copy)
            return trx_error_set(err, 0, "out of memory copying %zu bytes", size);
        memcpy(copy, bytes, size);
        img->data = img->owned_ = copy;
        img->size = size;
        img->base = 0;
        img->format = TRX_FORMAT_BIN;
        return 0;
    }
    case TRX_FORMAT_AUTO:
    default:
        return trx_error_set(err, 0, "unknown input format %d", (int)format);
    }
}

int trx_image_load_memory(trx_image *img, const uint8_t *bytes, size_t size,
                          trx_input_format format, trx_error *err)
{
    memset(img, 0, sizeof *img);
    if (size == 0 || !bytes)
        return trx_error_set(err, 0, "empty file");
    if (format == TRX_FORMAT_AUTO)
        format = trx_detect_format(bytes, size);
    if (convert(img, bytes, size, format, err) < 0) {
        trx_image_free(img);
        return -1;
    }
    return 0;
}

/* Reads a file that cannot be mapped (pipe, character device) into the heap. */
static int read_stream(int fd, uint8_t **out, size_t *out_size, trx_error *err)
{
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    if (!buf)
        return trx_error_set(err, 0, "out of memory");
    for (;;) {
        if (n == cap) {
            uint8_t *bigger = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
            if (!bigger) {
                free(buf);
                return trx_error_set(err, n, "out of memory reading the input");
            }
            buf = bigger;
            cap *= 2;
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int e = errno;
            free(buf);
            return trx_error_set(err, n, "read error: %s", strerror(e));
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    *out = buf;
    *out_size = n;
    return 0;
}

int trx_image_load_file(trx_image *img, const char *path, trx_input_format format, trx_error *err)
{
    memset(img, 0, sizeof *img);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return trx_error_set(err, 0, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) < 0) {
        int e = errno;
        close(fd);
        return trx_error_set(err, 0, "cannot read file status: %s", strerror(e));
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return trx_error_set(err, 0, "is a directory, not a trace file");
    }
    uint8_t *bytes = NULL;
    size_t size = 0;
    void *map = MAP_FAILED;
    if (S_ISREG(st.st_mode)) {
        if (st.st_size == 0) {
            close(fd);
            return trx_error_set(err, 0, "empty file");
        }
        if ((uint64_t)st.st_size > SIZE_MAX) {
            close(fd);
            return trx_error_set(err, 0, "file too large for this machine");
        }
        size = (size_t)st.st_size;
        map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    }
    if (map != MAP_FAILED) {
        bytes = map;
    } else if (read_stream(fd, &bytes, &size, err) < 0) {
        close(fd);
        return -1;
    }
    close(fd);
    if (size == 0) {
        free(bytes);
        return trx_error_set(err, 0, "empty file");
    }
    if (format == TRX_FORMAT_AUTO)
        format = trx_detect_format(bytes, size);
    if (format == TRX_FORMAT_BIN) { /* keep the mapping (or the bytes read) as the image */
        img->data = bytes;
        img->size = size;
        img->format = TRX_FORMAT_BIN;
        if (map != MAP_FAILED) {
            img->mapping_ = map;
            img->mapping_size_ = size;
        } else {
            img->owned_ = bytes;
        }
        return 0;
    }
    if (map != MAP_FAILED)
        posix_madvise(map, size, POSIX_MADV_SEQUENTIAL);
    int rc = convert(img, bytes, size, format, err);
    if (map != MAP_FAILED)
        munmap(map, size);
    else
        free(bytes);
    if (rc < 0)
        trx_image_free(img);
    return rc;
}

void trx_image_free(trx_image *img)
{
    if (!img)
        return;
    if (img->mapping_)
        munmap(img->mapping_, img->mapping_size_);
    free(img->owned_);
    memset(img, 0, sizeof *img);
}
