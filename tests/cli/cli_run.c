/* cli_run.c - test helper: spawn the trx program with stdout/stderr going to temporary files. */
#include "cli_run.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

char *cli_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0, k;
    char *buf = malloc(cap + 1);
    while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            char *p = realloc(buf, 2 * cap + 1);
            if (!p) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = p;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf) {
        buf[n] = '\0';
        if (len)
            *len = n;
    }
    return buf;
}

int cli_write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(data, 1, n, f);
    return fclose(f) == 0 && w == n ? 0 : -1;
}

size_t cli_count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

int cli_tmpdir_make(char *dir, size_t cap, const char *tag)
{
    int n = snprintf(dir, cap, "/tmp/trx-%s-test-XXXXXX", tag);
    if (n < 0 || (size_t)n >= cap)
        return -1;
    return mkdtemp(dir) ? 0 : -1;
}

int cli_tmpdir_remove(const char *dir)
{
    char cmd[128];
    int n = snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (n < 0 || (size_t)n >= sizeof cmd)
        return -1;
    return system(cmd) == 0 ? 0 : -1;
}

const char *cli_path_in(char *buf, size_t cap, const char *dir, const char *name)
{
    snprintf(buf, cap, "%s/%s", dir, name);
    return buf;
}

void cli_run(cli_result *r, const char *const *args)
{
    cli_run_stdout(r, args, NULL);
}

void cli_run_stdout(cli_result *r, const char *const *args, const char *stdout_path)
{
    cli_run_options o = {NULL, stdout_path, 0};
    cli_run_with(r, args, &o);
}

void cli_run_with(cli_result *r, const char *const *args, cli_run_options *o)
{
    const char *stdout_path = o->stdout_path;
    int in_fd = o->stdin_path ? open(o->stdin_path, O_RDONLY) : -1;
    char out_path[] = "/tmp/trx-cli-out-XXXXXX", err_path[] = "/tmp/trx-cli-err-XXXXXX";
    int out_fd = stdout_path ? open(stdout_path, O_WRONLY) : mkstemp(out_path);
    int err_fd = mkstemp(err_path);
    const char *argv[64];
    int argc = 0;
    argv[argc++] = TRX_CLI_PATH;
    while (args[argc - 1] && argc < 63) {
        argv[argc] = args[argc - 1];
        argc++;
    }
    argv[argc] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
    posix_spawn_file_actions_adddup2(&fa, err_fd, 2);
    if (in_fd >= 0)
        posix_spawn_file_actions_adddup2(&fa, in_fd, 0);
    pid_t pid;
    int wst = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    memset(r, 0, sizeof *r);
    r->status = -2;
    if (out_fd >= 0 && err_fd >= 0 && (in_fd >= 0 || !o->stdin_path) &&
        posix_spawn(&pid, TRX_CLI_PATH, &fa, NULL, (char *const *)argv, environ) == 0 &&
        wait4(pid, &wst, 0, &ru) == pid)
        r->status = WIFEXITED(wst) ? WEXITSTATUS(wst) : -1;
    o->max_rss_kb = ru.ru_maxrss;
    posix_spawn_file_actions_destroy(&fa);
    if (in_fd >= 0)
        close(in_fd);
    if (out_fd >= 0)
        close(out_fd);
    if (err_fd >= 0)
        close(err_fd);
    if (stdout_path) {
        r->out = calloc(1, 1);
    } else {
        r->out = cli_read_file(out_path, &r->out_len);
        unlink(out_path);
    }
    r->err = cli_read_file(err_path, &r->err_len);
    unlink(err_path);
}

void cli_result_free(cli_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}
