/*
 * cli_sink.c - where a command's output goes: standard output, or `-o OUT`.
 * OUT is written the way a user means it:
 * - a regular file (or a new name) is written to a temporary file in its
 *   directory and renamed over it only when the command succeeded, so OUT
 *   is never left half-written; a new file gets the umask's mode (0666 &
 *   ~umask), an existing one keeps its mode; the temporary is removed when
 *   SIGINT, SIGTERM, SIGHUP or SIGPIPE ends the process;
 * - a symbolic link is followed: its target is replaced, the link stays;
 * - anything else (a FIFO, a terminal, /dev/null) is opened and written
 *   directly, and so is the file behind standard output or standard error
 *   (-o /dev/stdout, /dev/fd/1 ...), through the shell's own descriptor, so
 *   `>>` still appends and no device node is ever replaced by a file.
 * Windows has no symbolic links or modes to keep here: OUT is replaced.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef _WIN32
#include <io.h>
#include <windows.h>
#else
#include <fcntl.h>
#endif

#include "cli.h"

trx_out cli_out;

/* ------------------------------------------------ the temporary on signals */

/* The temporaries to remove if a signal ends the process (a command may
 * write several outputs at once), and how many sinks hold one. */
#define MAX_PENDING 80 /* a CTF export: metadata and up to 65 stream files */
static char *volatile pending_tmp[MAX_PENDING];
static int sinks_with_tmp;

static const int cleanup_signals[] = {
    SIGINT,
    SIGTERM,
#ifdef SIGHUP
    SIGHUP,
#endif
#ifdef SIGPIPE
    SIGPIPE,
#endif
};
#define CLEANUP_SIGNALS (sizeof cleanup_signals / sizeof cleanup_signals[0])

/* Removes the temporaries, then lets the signal do what it does by default. */
static void remove_tmp_and_raise(int sig)
{
    for (int i = 0; i < MAX_PENDING; i++) {
        char *tmp = pending_tmp[i];
        if (tmp)
            unlink(tmp); /* async-signal-safe */
    }
#ifdef _WIN32
    signal(sig, SIG_DFL);
#endif
    raise(sig); /* the handler was reset: this ends the process */
}

#ifdef _WIN32
static void (*previous_handler[CLEANUP_SIGNALS])(int);

static void catch_signals(void)
{
    for (size_t i = 0; i < CLEANUP_SIGNALS; i++) {
        previous_handler[i] = signal(cleanup_signals[i], remove_tmp_and_raise);
        if (previous_handler[i] == SIG_IGN) /* e.g. started ignoring Ctrl-C: keep */
            signal(cleanup_signals[i], SIG_IGN);
    }
}

static void release_signals(void)
{
    for (size_t i = 0; i < CLEANUP_SIGNALS; i++)
        signal(cleanup_signals[i], previous_handler[i]);
}
#else
static struct sigaction previous_action[CLEANUP_SIGNALS];

/* Catches the signals while a temporary exists. A signal the process was
 * started ignoring (nohup, a background job's SIGINT) stays ignored; SIGPIPE
 * is ignored by main itself, for standard output, and is caught anyway. */
static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = remove_tmp_and_raise;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < CLEANUP_SIGNALS; i++)
        sigaddset(&sa.sa_mask, cleanup_signals[i]);
    for (size_t i = 0; i < CLEANUP_SIGNALS; i++) {
        sigaction(cleanup_signals[i], NULL, &previous_action[i]);
        bool ignored = previous_action[i].sa_handler == SIG_IGN;
#ifdef SIGPIPE
        if (cleanup_signals[i] == SIGPIPE)
            ignored = false;
#endif
        if (!ignored)
            sigaction(cleanup_signals[i], &sa, NULL);
    }
}

static void release_signals(void)
{
    for (size_t i = 0; i < CLEANUP_SIGNALS; i++)
        sigaction(cleanup_signals[i], &previous_action[i], NULL);
}
#endif

/* ------------------------------------------------------- replacing a file */

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

/* A copy of `s` (strdup is not in C11); NULL when out of memory. */
static char *copy_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    return p ? memcpy(p, s, n) : NULL;
}

/* ------------------------------------------- what OUT is (POSIX systems) */

#ifndef _WIN32
/* Where the data for OUT goes. */
typedef enum { OUT_REPLACE, OUT_DIRECT, OUT_STDOUT, OUT_STDERR } out_kind;

/* The standard stream (fd 1 or 2) that is the same open file as `st`, or -1. */
static int standard_stream_of(const struct stat *st)
{
    for (int fd = 1; fd <= 2; fd++) {
        struct stat s;
        if (fstat(fd, &s) == 0 && s.st_dev == st->st_dev && s.st_ino == st->st_ino)
            return fd;
    }
    return -1;
}

/* Follows the symbolic links of `path` (at most 40) to the name that will be
 * replaced; malloc'ed, NULL when out of memory or looping (errno set). */
static char *resolve_links(const char *path)
{
    char *cur = copy_string(path);
    for (int hops = 0; cur && hops < 40; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return cur; /* a file, or a name still to be created */
        size_t cap = (size_t)st.st_size + 1 > 256 ? (size_t)st.st_size + 1 : 256;
        char *link = malloc(cap);
        ssize_t n = link ? readlink(cur, link, cap) : -1;
        if (n < 0 || (size_t)n >= cap) {
            free(link);
            free(cur);
            if (n >= 0)
                errno = ENAMETOOLONG;
            return NULL;
        }
        link[n] = '\0';
        char *next = link;
        const char *slash = strrchr(cur, '/');
        if (link[0] != '/' && slash) { /* relative to the link's directory */
            size_t dir = (size_t)(slash - cur) + 1;
            next = malloc(dir + (size_t)n + 1);
            if (next) {
                memcpy(next, cur, dir);
                memcpy(next + dir, link, (size_t)n + 1);
            }
            free(link);
        }
        free(cur);
        cur = next;
    }
    if (cur) {
        free(cur);
        errno = ELOOP;
    }
    return NULL;
}

/* Decides how to write OUT; for OUT_REPLACE, `*target` is the file to
 * replace (links followed) and `*keep_mode` its mode, or -1 when new. */
static int classify(const char *path, out_kind *kind, char **target, int *keep_mode)
{
    struct stat st;
    *target = NULL;
    *keep_mode = -1;
    if (stat(path, &st) == 0) {
        int fd = standard_stream_of(&st);
        if (fd >= 0) {
            *kind = fd == 1 ? OUT_STDOUT : OUT_STDERR;
            return 0;
        }
        if (S_ISDIR(st.st_mode)) {
            errno = EISDIR;
            return -1;
        }
        if (!S_ISREG(st.st_mode)) {
            *kind = OUT_DIRECT;
            return 0;
        }
    }
    *kind = OUT_REPLACE;
    if (!(*target = resolve_links(path)))
        return -1;
    if (lstat(*target, &st) == 0) {
        if (!S_ISREG(st.st_mode)) { /* replaced since stat(): write it directly */
            free(*target);
            *target = NULL;
            *kind = OUT_DIRECT;
            return 0;
        }
        *keep_mode = (int)(st.st_mode & 07777);
    }
    return 0;
}
#endif

/* ---------------------------------------------------------------- the sink */

/* Starts catching the signals for one more sink with a temporary. */
static void hold_signals(void)
{
    if (sinks_with_tmp++ == 0)
        catch_signals();
}

/* Undoes hold_signals (and forgets `tmp` if registered). */
static void drop_signals(const char *tmp)
{
    for (int i = 0; i < MAX_PENDING; i++)
        if (pending_tmp[i] == tmp)
            pending_tmp[i] = NULL;
    if (--sinks_with_tmp == 0)
        release_signals();
}

/* Registers `tmp` for removal on a signal; -1 when too many at once. */
static int register_tmp(char *tmp)
{
    for (int i = 0; i < MAX_PENDING; i++)
        if (!pending_tmp[i]) {
            pending_tmp[i] = tmp;
            return 0;
        }
    return -1;
}

/* Creates the temporary beside `s->target` with the final mode; 0 or -1. */
static int open_temporary(cli_sink *s, int keep_mode)
{
    size_t n = strlen(s->target);
    if (!(s->tmp = malloc(n + 8)))
        return -1;
    memcpy(s->tmp, s->target, n);
    memcpy(s->tmp + n, ".XXXXXX", 8);
    hold_signals(); /* before the file exists: no moment without cleanup */
    int fd = -1;
    if (register_tmp(s->tmp) != 0) {
        errno = EMFILE;
    } else {
#ifndef _WIN32
        /* The name is registered before the file exists; the signals wait
         * while mkstemp fills it in, so a handler never sees half a name. */
        sigset_t block, old;
        sigemptyset(&block);
        for (size_t i = 0; i < CLEANUP_SIGNALS; i++)
            sigaddset(&block, cleanup_signals[i]);
        sigprocmask(SIG_BLOCK, &block, &old);
        fd = mkstemp(s->tmp);
        sigprocmask(SIG_SETMASK, &old, NULL);
#else
        fd = mkstemp(s->tmp);
#endif
    }
    if (fd >= 0) {
#ifndef _WIN32
        mode_t mask = umask(0);
        umask(mask);
        fchmod(fd, keep_mode >= 0 ? (mode_t)keep_mode : 0666 & ~mask);
#else
        (void)keep_mode;
#endif
        if ((s->f = fdopen(fd, "wb")))
            return 0;
        int e = errno;
        close(fd);
        unlink(s->tmp);
        errno = e;
    }
    int e = errno;
    drop_signals(s->tmp);
    free(s->tmp);
    s->tmp = NULL;
    errno = e;
    return -1;
}

int cli_sink_open(cli_sink *s, const char *path)
{
    memset(s, 0, sizeof *s);
    s->path = path;
    s->f = stdout;
    if (!path)
        return 0;
    int rc = -1, keep_mode = -1;
#ifdef _WIN32
    s->target = copy_string(path);
    rc = s->target ? open_temporary(s, keep_mode) : -1;
#else
    out_kind kind;
    if (classify(path, &kind, &s->target, &keep_mode) == 0) {
        int fd = -1;
        if (kind == OUT_STDOUT || kind == OUT_STDERR) {
            fflush(kind == OUT_STDOUT ? stdout : stderr);
            fd = dup(kind == OUT_STDOUT ? 1 : 2);
        } else if (kind == OUT_DIRECT) {
            fd = open(path, O_WRONLY | O_CLOEXEC);
        }
        if (kind != OUT_REPLACE) {
            s->direct = true;
            if (fd >= 0 && !(s->f = fdopen(fd, "wb"))) {
                close(fd);
                fd = -1;
            }
            rc = fd >= 0 ? 0 : -1;
        } else {
            rc = open_temporary(s, keep_mode);
        }
    }
#endif
    if (rc == 0)
        return 0;
    fprintf(stderr, "trx: %s: cannot create: %s\n", path, strerror(errno));
    free(s->target);
    s->target = NULL;
    s->f = NULL;
    return EXIT_OUTPUT;
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
        if (rc == 0 && status == EXIT_OK && replace_file(s->tmp, s->target) != 0) {
            rc = -1;
            error = errno;
        }
        if (rc != 0 || status != EXIT_OK)
            unlink(s->tmp);
        drop_signals(s->tmp);
        free(s->tmp);
        s->tmp = NULL;
    } else if (s->direct) {
        if (fclose(s->f) != 0 && rc == 0) {
            rc = -1;
            error = errno;
        }
    }
    free(s->target);
    s->target = NULL;
    if (rc == 0)
        return status;
    if ((!s->path || s->direct) && stdout_reader_gone(error))
        return status; /* the reader stopped early (e.g. `| head`): not an error */
    fprintf(stderr, "trx: %s: write error: %s\n", s->path ? s->path : "standard output",
            strerror(error));
    return EXIT_OUTPUT;
}
