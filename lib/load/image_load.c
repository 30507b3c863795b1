/*
 * image_load.c - loading a dump into a trx_image: from a file (a binary dump
 * is mapped read-only, never copied; text dumps are mapped, converted into a
 * heap image, and unmapped), from a stream (pipe, device, standard input:
 * read up to a size limit, its first MiB probed so that a stream that is no
 * trace stops at once) or from memory, the format given or detected.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef _WIN32
#include <io.h>
#include <windows.h>
#else
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "load/format_probe.h"
#include "load/text_loaders.h"
#include "trx/trx.h"

/* ------------------------------------------ platform: open, status, map, read */
#ifdef _WIN32
/* Windows: the CRT's descriptors (binary mode, 64-bit sizes) and a read-only
 * file mapping; a view stays valid after its mapping handle is closed. */
typedef struct _stat64 file_status;
#define file_status_get _fstat64
#define OPEN_FLAGS (O_RDONLY | O_BINARY | O_NOINHERIT)
#define NO_MAPPING NULL

static void *map_file(int fd, size_t size)
{
    HANDLE file = (HANDLE)_get_osfhandle(fd);
    if (file == INVALID_HANDLE_VALUE)
        return NO_MAPPING;
    HANDLE mapping = CreateFileMappingA(file, NULL, PAGE_READONLY, 0, 0, NULL);
    if (!mapping)
        return NO_MAPPING;
    void *view = MapViewOfFile(mapping, FILE_MAP_READ, 0, 0, size);
    CloseHandle(mapping);
    return view ? view : NO_MAPPING;
}

static void unmap_file(void *map, size_t size)
{
    (void)size;
    UnmapViewOfFile(map);
}

static void advise_sequential(void *map, size_t size)
{
    (void)map;
    (void)size;
}

static ssize_t read_some(int fd, void *buf, size_t n)
{
    return _read(fd, buf, n > INT_MAX ? INT_MAX : (unsigned)n);
}

/* Windows cannot open a directory as a file: tell that case apart from others. */
static int open_error(const char *path, int e, trx_error *err)
{
    struct _stat64 st;
    if (e == EACCES && _stat64(path, &st) == 0 && S_ISDIR(st.st_mode))
        return trx_error_set(err, 0, "is a directory, not a trace file");
    return trx_error_set(err, 0, "cannot open: %s", strerror(e));
}
#else
typedef struct stat file_status;
#define file_status_get fstat
#define OPEN_FLAGS (O_RDONLY | O_CLOEXEC)
#define NO_MAPPING MAP_FAILED

static void *map_file(int fd, size_t size)
{
    return mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
}

static void unmap_file(void *map, size_t size)
{
    munmap(map, size);
}

static void advise_sequential(void *map, size_t size)
{
    posix_madvise(map, size, POSIX_MADV_SEQUENTIAL);
}

static ssize_t read_some(int fd, void *buf, size_t n)
{
    return read(fd, buf, n);
}

static int open_error(const char *path, int e, trx_error *err)
{
    (void)path;
    return trx_error_set(err, 0, "cannot open: %s", strerror(e));
}
#endif

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

/* The error for an input larger than `max` bytes. */
static int too_large(uint64_t max, trx_error *err)
{
    return trx_error_set(err, max,
                         "input larger than the limit of %llu bytes (trx --max-input-size)",
                         (unsigned long long)max);
}

/* Reads a file that cannot be mapped (pipe, character device) into the heap:
 * at most `max` bytes (one more proves it too large), the first
 * TRX_PROBE_WINDOW bytes probed before reading on. */
static int read_stream(int fd, trx_input_format format, uint64_t max, uint8_t **out,
                       size_t *out_size, trx_error *err)
{
    size_t most = max < SIZE_MAX - 1 ? (size_t)max + 1 : SIZE_MAX; /* bytes ever held */
    size_t cap = most < ((size_t)1 << 16) ? most : (size_t)1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    bool probed = false;
    if (!buf)
        return trx_error_set(err, 0, "out of memory");
    for (;;) {
        if (n == cap) {
            size_t want = cap <= SIZE_MAX / 2 ? cap * 2 : SIZE_MAX;
            if (want > most)
                want = most;
            uint8_t *bigger = want > cap ? realloc(buf, want) : NULL;
            if (!bigger) {
                free(buf);
                if (want <= cap)
                    return too_large(max, err);
                return trx_error_set(err, n, "out of memory reading the input");
            }
            buf = bigger;
            cap = want;
        }
        ssize_t got = read_some(fd, buf + n, cap - n);
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
        if (n > max) {
            free(buf);
            return too_large(max, err);
        }
        if (!probed && n >= TRX_PROBE_WINDOW) {
            probed = true;
            if (trx_probe_format(buf, n, format, err) < 0) {
                free(buf);
                return -1;
            }
        }
    }
    *out = buf;
    *out_size = n;
    return 0;
}

int trx_image_load_fd(trx_image *img, int fd, trx_input_format format, uint64_t max_input_size,
                      trx_error *err)
{
    memset(img, 0, sizeof *img);
    uint64_t max = max_input_size ? max_input_size : TRX_DEFAULT_MAX_INPUT;
    file_status st;
    if (file_status_get(fd, &st) < 0)
        return trx_error_set(err, 0, "cannot read file status: %s", strerror(errno));
    if (S_ISDIR(st.st_mode))
        return trx_error_set(err, 0, "is a directory, not a trace file");
    uint8_t *bytes = NULL;
    size_t size = 0;
    void *map = NO_MAPPING;
    if (S_ISREG(st.st_mode)) {
        if ((uint64_t)st.st_size > max)
            return trx_error_set(err, 0,
                                 "input is %llu bytes, more than the limit of %llu bytes (trx "
                                 "--max-input-size)",
                                 (unsigned long long)st.st_size, (unsigned long long)max);
        if (st.st_size == 0)
            return trx_error_set(err, 0, "empty file");
        if ((uint64_t)st.st_size > SIZE_MAX)
            return trx_error_set(err, 0, "file too large for this machine");
        size = (size_t)st.st_size;
        map = map_file(fd, size);
    }
    if (map != NO_MAPPING)
        bytes = map;
    else if (read_stream(fd, format, max, &bytes, &size, err) < 0)
        return -1;
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
        if (map != NO_MAPPING) {
            img->mapping_ = map;
            img->mapping_size_ = size;
        } else {
            img->owned_ = bytes;
        }
        return 0;
    }
    if (map != NO_MAPPING)
        advise_sequential(map, size);
    int rc = convert(img, bytes, size, format, err);
    if (map != NO_MAPPING)
        unmap_file(map, size);
    else
        free(bytes);
    if (rc < 0)
        trx_image_free(img);
    return rc;
}

int trx_image_load_file_limit(trx_image *img, const char *path, trx_input_format format,
                              uint64_t max_input_size, trx_error *err)
{
    memset(img, 0, sizeof *img);
    int fd = open(path, OPEN_FLAGS);
    if (fd < 0)
        return open_error(path, errno, err);
    int rc = trx_image_load_fd(img, fd, format, max_input_size, err);
    close(fd);
    return rc;
}

int trx_image_load_file(trx_image *img, const char *path, trx_input_format format, trx_error *err)
{
    return trx_image_load_file_limit(img, path, format, 0, err);
}

void trx_image_free(trx_image *img)
{
    if (!img)
        return;
    if (img->mapping_)
        unmap_file(img->mapping_, img->mapping_size_);
    free(img->owned_);
    memset(img, 0, sizeof *img);
}
