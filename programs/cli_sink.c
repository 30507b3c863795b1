/*
 * cli_sink.c - where a command's output goes: standard output, or `-o OUT`
 * written to a temporary file in OUT's directory and renamed over OUT only
 * when the command succeeded, so OUT is never left half-written.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef _WIN32
#include <io.h>
#include <windows.h>
#endif

#include "cli.h"

trx_out cli_out;

#ifdef _WIN32
/* rename() cannot replace an existing file on Windows; MoveFileEx can. */
static int replace_file(const char *from, const char *to)
{
    if (MoveFileExA(from, to, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
        return 0;
    switch (GetLastError()) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
        errno = ENOENT;
        break;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION:
        errno = EACCES;
        break;
    case ERROR_NOT_SAME_DEVICE:
        errno = EXDEV;
        break;
    case ERROR_DISK_FULL:
        errno = ENOSPC;
        break;
    default:
        errno = EIO;
        break;
    }
    return -1;
}
#else
static int replace_file(const char *from, const char *to)
{
    return rename(from, to);
}
#endif

/* Whether a failed write to stdout means its reader stopped (e.g. `| head`);
 * Windows' CRT reports a closed pipe as EINVAL or EPIPE. */
static bool stdout_reader_gone(int error)
{
#ifdef _WIN32
    if (error == EINVAL && GetFileType((HANDLE)_get_osfhandle(_fileno(stdout))) == FILE_TYPE_PIPE)
        return true;
#endif
    return error == EPIPE;
}

int cli_sink_open(cli_sink *s, const char *path)
{
    s->path = path;
    s->tmp = NULL;
    s->f = stdout;
    if (!path)
        return 0;
    size_t n = strlen(path);
    s->tmp = malloc(n + 8);
    if (!s->tmp) {
        fprintf(stderr, "trx: out of memory\n");
        return EXIT_OUTPUT;
    }
    memcpy(s->tmp, path, n);
    memcpy(s->tmp + n, ".XXXXXX", 8);
    int fd = mkstemp(s->tmp);
    if (fd < 0 || !(s->f = fdopen(fd, "wb"))) {
        fprintf(stderr, "trx: %s: cannot create: %s\n", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(s->tmp);
        }
        free(s->tmp);
        s->tmp = NULL;
        return EXIT_OUTPUT;
    }
    return 0;
}

int cli_sink_close(cli_sink *s, trx_out *o, int status)
{
    int rc = trx_out_flush(o);
    int error = o->error;
    if (s->tmp) {
        if (fclose(s->f) != 0 && rc == 0) {
            rc = -1;
            error = errno;
        }
        if (rc == 0 && status == EXIT_OK && replace_file(s->tmp, s->path) != 0) {
            rc = -1;
            error = errno;
        }
        if (rc != 0 || status != EXIT_OK)
            unlink(s->tmp);
        free(s->tmp);
        s->tmp = NULL;
    }
    if (rc == 0)
        return status;
    if (!s->path && stdout_reader_gone(error))
        return status; /* the reader stopped early (e.g. `| head`): not an error */
    fprintf(stderr, "trx: %s: write error: %s\n", s->path ? s->path : "standard output",
            strerror(error));
    return EXIT_OUTPUT;
}
