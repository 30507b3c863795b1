/*
 * test_cli_output.c - where `-o OUT` writes: through a symbolic link to its
 * target (the link stays), directly into a FIFO and into the file behind
 * /dev/stdout (the link stays a link; `>>` still appends), a new file with
 * the umask's mode (022 and 077), an existing file keeping its mode, and no
 * temporary left behind when SIGTERM, SIGINT, SIGHUP or SIGPIPE ends trx
 * while the temporary exists.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_run.h"

#define DEMO TRX_SHARED_DIR "/corpus/demo_threadx.trx"

extern char **environ;

static char dir[64];
static cli_result reference; /* `trx info DEMO` on standard output */

static int setup(void **state)
{
    (void)state;
    if (cli_tmpdir_make(dir, sizeof dir, "output") != 0)
        return -1;
    cli_run(&reference, (const char *const[]){"info", DEMO, NULL});
    return reference.status == 0 && reference.out_len > 100 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    cli_result_free(&reference);
    return cli_tmpdir_remove(dir);
}

static const char *tmp_path(char *buf, size_t cap, const char *name)
{
    return cli_path_in(buf, cap, dir, name);
}

/* Asserts that `path` holds exactly `prefix` followed by the reference output. */
static void expect_content(const char *path, const char *prefix)
{
    size_t n, p = strlen(prefix);
    char *text = cli_read_file(path, &n);
    assert_non_null(text);
    assert_int_equal(n, p + reference.out_len);
    assert_memory_equal(text, prefix, p);
    assert_memory_equal(text + p, reference.out, reference.out_len);
    free(text);
}

/* Runs `trx info -o OUT DEMO`, expecting success and nothing on stdout/stderr. */
static void run_info_to(const char *out)
{
    cli_result r;
    cli_run(&r, (const char *const[]){"info", "-o", out, DEMO, NULL});
    if (r.status != 0)
        fail_msg("trx info -o %s: exit %d: %s", out, r.status, r.err);
    assert_int_equal(r.out_len, 0);
    assert_int_equal(r.err_len, 0);
    cli_result_free(&r);
}

/* Names in the test directory that start with `prefix` (temporaries too). */
static int count_names(const char *prefix)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return n;
}

static mode_t mode_of(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return st.st_mode & 07777;
}

/* -------------------------------------------------------------- symlinks */

static void test_symlinks(void **state)
{
    (void)state;
    char real[128], link[128], chain[128], abs_link[128], dangling[128], created[128];
    tmp_path(real, sizeof real, "real.txt");
    tmp_path(link, sizeof link, "link.txt");
    tmp_path(chain, sizeof chain, "chain.txt");
    tmp_path(abs_link, sizeof abs_link, "abs.txt");
    tmp_path(dangling, sizeof dangling, "dangling.txt");
    tmp_path(created, sizeof created, "created.txt");
    assert_int_equal(cli_write_file(real, "old\n", 4), 0);
    assert_int_equal(symlink("real.txt", link), 0);        /* relative */
    assert_int_equal(symlink("link.txt", chain), 0);       /* link to a link */
    assert_int_equal(symlink(real, abs_link), 0);          /* absolute */
    assert_int_equal(symlink("created.txt", dangling), 0); /* target missing */
    const char *links[] = {link, chain, abs_link};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(cli_write_file(real, "old\n", 4), 0);
        run_info_to(links[i]);
        struct stat st;
        assert_int_equal(lstat(links[i], &st), 0);
        assert_true(S_ISLNK(st.st_mode)); /* still a link */
        expect_content(real, "");
    }
    char target[128];
    ssize_t n = readlink(chain, target, sizeof target - 1);
    assert_true(n > 0);
    target[n] = '\0';
    assert_string_equal(target, "link.txt");
    run_info_to(dangling); /* creates the target */
    struct stat st;
    assert_int_equal(lstat(dangling, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    expect_content(created, "");
    assert_int_equal(count_names("real.txt."), 0); /* no temporaries */
    assert_int_equal(count_names("created.txt."), 0);
    /* a loop of links is an error, not a hang */
    char loop_a[128], loop_b[128];
    tmp_path(loop_a, sizeof loop_a, "loop_a");
    tmp_path(loop_b, sizeof loop_b, "loop_b");
    assert_int_equal(symlink("loop_b", loop_a), 0);
    assert_int_equal(symlink("loop_a", loop_b), 0);
    cli_result r;
    cli_run(&r, (const char *const[]){"info", "-o", loop_a, DEMO, NULL});
    assert_int_equal(r.status, 3);
    assert_non_null(strstr(r.err, "cannot create"));
    cli_result_free(&r);
}

/* ------------------------------------------------------- FIFO, /dev/stdout */

/* Spawns trx with `args`; stdin/stdout/stderr from the given descriptors
 * (-1: /dev/null), every signal at its default. */
static pid_t spawn_trx(const char *const *args, int in, int out, int err)
{
    const char *argv[16];
    int argc = 0;
    argv[argc++] = TRX_CLI_PATH;
    for (; args[argc - 1] && argc < 15; argc++)
        argv[argc] = args[argc - 1];
    argv[argc] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    int null = open("/dev/null", O_RDWR);
    posix_spawn_file_actions_adddup2(&fa, in >= 0 ? in : null, 0);
    posix_spawn_file_actions_adddup2(&fa, out >= 0 ? out : null, 1);
    posix_spawn_file_actions_adddup2(&fa, err >= 0 ? err : null, 2);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t all, none;
    sigfillset(&all);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    pid_t pid;
    int rc = posix_spawn(&pid, TRX_CLI_PATH, &fa, &attr, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    close(null);
    assert_int_equal(rc, 0);
    return pid;
}

static void test_fifo(void **state)
{
    (void)state;
    char fifo[128];
    tmp_path(fifo, sizeof fifo, "out.fifo");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    pid_t pid = spawn_trx((const char *const[]){"info", "-o", fifo, DEMO, NULL}, -1, -1, -1);
    /* Read without blocking, so that a trx that never opens the FIFO fails
     * the test instead of hanging it: EOF counts once trx has exited. */
    int fd = open(fifo, O_RDONLY | O_NONBLOCK);
    assert_true(fd >= 0);
    char buf[8192];
    size_t n = 0;
    int st = 0;
    bool exited = false;
    struct timespec tick = {0, 2 * 1000 * 1000};
    for (int polls = 0; polls < 5000; polls++) {
        ssize_t got = read(fd, buf + n, sizeof buf - n);
        if (got > 0) {
            n += (size_t)got;
            continue;
        }
        if (got == 0 && exited)
            break;
        if (!exited && waitpid(pid, &st, WNOHANG) == pid)
            exited = true; /* read once more: what it wrote before exiting */
        else
            nanosleep(&tick, NULL);
    }
    close(fd);
    if (!exited)
        assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_int_equal(n, reference.out_len);
    assert_memory_equal(buf, reference.out, n);
    struct stat sb;
    assert_int_equal(lstat(fifo, &sb), 0);
    assert_true(S_ISFIFO(sb.st_mode)); /* still a FIFO */
    assert_int_equal(count_names("out.fifo"), 1);
}

/* Puts /dev/stdout back if a broken trx replaced it (only root can), so
 * that a failing test does not break the machine. */
static void restore_dev_stdout(void)
{
    struct stat st;
    if (lstat("/dev/stdout", &st) == 0 && !S_ISLNK(st.st_mode) && S_ISREG(st.st_mode) &&
        unlink("/dev/stdout") == 0)
        assert_int_equal(symlink("/proc/self/fd/1", "/dev/stdout"), 0);
}

static void test_dev_stdout(void **state)
{
    (void)state;
    struct stat before, after;
    if (lstat("/dev/stdout", &before) != 0 || !S_ISLNK(before.st_mode)) {
#ifdef __linux__
        fail_msg("/dev/stdout is not a symbolic link"); /* it is on every Linux */
#else
        skip(); /* not a link on this system */
#endif
    }
    char out[128];
    tmp_path(out, sizeof out, "stdout.txt");
    /* standard output a file, a pipe-like FIFO, and a file opened to append */
    cli_result r;
    assert_int_equal(cli_write_file(out, "", 0), 0);
    cli_run_options o = {NULL, out, 0};
    cli_run_with(&r, (const char *const[]){"info", "-o", "/dev/stdout", DEMO, NULL}, &o);
    bool still_link = lstat("/dev/stdout", &after) == 0 && S_ISLNK(after.st_mode);
    restore_dev_stdout();
    assert_true(still_link);
    assert_int_equal(r.status, 0);
    cli_result_free(&r);
    expect_content(out, "");

    assert_int_equal(cli_write_file(out, "before\n", 7), 0);
    int fd = open(out, O_WRONLY | O_APPEND);
    assert_true(fd >= 0);
    pid_t pid =
        spawn_trx((const char *const[]){"info", "-o", "/dev/stdout", DEMO, NULL}, -1, fd, -1);
    close(fd);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    still_link = lstat("/dev/stdout", &after) == 0 && S_ISLNK(after.st_mode);
    restore_dev_stdout();
    assert_true(still_link);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    expect_content(out, "before\n"); /* appended, not replaced */

    /* /dev/null is written, not replaced */
    cli_run(&r, (const char *const[]){"info", "-o", "/dev/null", DEMO, NULL});
    assert_int_equal(r.status, 0);
    assert_int_equal(r.out_len, 0);
    cli_result_free(&r);
    assert_int_equal(stat("/dev/null", &after), 0);
    assert_true(S_ISCHR(after.st_mode));
}

/* ------------------------------------------------------------------ modes */

static void test_modes(void **state)
{
    (void)state;
    char path[128];
    mode_t old = umask(022);
    run_info_to(tmp_path(path, sizeof path, "m022.txt"));
    assert_int_equal(mode_of(path), 0644);
    umask(077);
    run_info_to(tmp_path(path, sizeof path, "m077.txt"));
    assert_int_equal(mode_of(path), 0600);
    umask(002);
    run_info_to(tmp_path(path, sizeof path, "m002.txt"));
    assert_int_equal(mode_of(path), 0664);
    /* an existing file keeps its mode, whatever the umask */
    umask(022);
    tmp_path(path, sizeof path, "kept.txt");
    static const mode_t modes[] = {0640, 0755, 0600, 0666};
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(cli_write_file(path, "old\n", 4), 0);
        assert_int_equal(chmod(path, modes[i]), 0);
        run_info_to(path);
        assert_int_equal(mode_of(path), modes[i]);
        expect_content(path, "");
    }
    /* through a link: the target's mode */
    char link[128];
    assert_int_equal(chmod(path, 0604), 0);
    assert_int_equal(symlink("kept.txt", tmp_path(link, sizeof link, "kept.link")), 0);
    run_info_to(link);
    assert_int_equal(mode_of(path), 0604);
    umask(old);
}

/* ---------------------------------------------------------------- signals */

/* trx reading standard input from a pipe that stays open holds its
 * temporary; the signal must end it and remove the temporary. */
static void test_signals_remove_temporary(void **state)
{
    (void)state;
    static const int signals[] = {SIGTERM, SIGINT, SIGHUP, SIGPIPE};
    static const char *const names[] = {"sigterm.txt", "sigint.txt", "sighup.txt", "sigpipe.txt"};
    for (int i = 0; i < 4; i++) {
        char out[128], prefix[64];
        tmp_path(out, sizeof out, names[i]);
        snprintf(prefix, sizeof prefix, "%s.", names[i]);
        int p[2];
        assert_int_equal(pipe(p), 0);
        pid_t pid = spawn_trx((const char *const[]){"info", "-o", out, "-", NULL}, p[0], -1, -1);
        close(p[0]);
        /* wait (up to 10 s) until the temporary OUT.XXXXXX exists */
        struct timespec tick = {0, 5 * 1000 * 1000};
        int waited = 0;
        while (count_names(prefix) == 0 && waited++ < 2000)
            nanosleep(&tick, NULL);
        assert_int_equal(count_names(prefix), 1);
        assert_int_equal(kill(pid, signals[i]), 0);
        int st;
        assert_int_equal(waitpid(pid, &st, 0), pid);
        close(p[1]);
        assert_true(WIFSIGNALED(st));
        assert_int_equal(WTERMSIG(st), signals[i]);
        assert_int_equal(count_names(prefix), 0);   /* temporary removed */
        assert_int_equal(count_names(names[i]), 0); /* and no OUT */
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_symlinks),
        cmocka_unit_test(test_fifo),
        cmocka_unit_test(test_dev_stdout),
        cmocka_unit_test(test_modes),
        cmocka_unit_test(test_signals_remove_temporary),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
