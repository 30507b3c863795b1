/* cli_run.h - test helper: runs the trx program and captures its exit status, stdout and stderr. */
#ifndef TRX_TEST_CLI_RUN_H
#define TRX_TEST_CLI_RUN_H

#include <stddef.h>

typedef struct cli_result {
    int status; /* exit status, or -1 when killed by a signal */
    char *out;  /* stdout, NUL-terminated */
    size_t out_len;
    char *err; /* stderr, NUL-terminated */
    size_t err_len;
} cli_result;

/* Runs TRX_CLI_PATH with arguments `args` (NULL-terminated, without argv[0]). */
void cli_run(cli_result *r, const char *const *args);

/* Same, with stdout going to `stdout_path` (e.g. /dev/full) instead of being captured. */
void cli_run_stdout(cli_result *r, const char *const *args, const char *stdout_path);

/* Where a run's standard streams come from and go to, and what it used. */
typedef struct cli_run_options {
    const char *stdin_path;  /* standard input from this file (NULL: inherited) */
    const char *stdout_path; /* standard output to this file (NULL: captured) */
    long max_rss_kb;         /* set by the run: the program's peak resident memory */
} cli_run_options;

/* Runs TRX_CLI_PATH with `args` as `o` says. */
void cli_run_with(cli_result *r, const char *const *args, cli_run_options *o);

/* Frees the captured output. */
void cli_result_free(cli_result *r);

/* Reads a whole file (NUL-terminated); NULL on failure. */
char *cli_read_file(const char *path, size_t *len);

/* Writes `n` bytes to `path`; 0 or -1. */
int cli_write_file(const char *path, const void *data, size_t n);

/* Number of '\n' in `s`. */
size_t cli_count_lines(const char *s);

/* Makes a fresh directory /tmp/trx-TAG-test-XXXXXX into `dir` (cap >= 64); 0 or -1. */
int cli_tmpdir_make(char *dir, size_t cap, const char *tag);

/* Removes `dir` and everything below it; 0 or -1. */
int cli_tmpdir_remove(const char *dir);

/* Writes "DIR/NAME" into `buf` and returns `buf`. */
const char *cli_path_in(char *buf, size_t cap, const char *dir, const char *name);

/* A NULL-terminated argument list for cli_run and friends. */
#define CLI_ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* Runs trx with the listed arguments. */
#define CLI_RUN(r, ...) cli_run((r), CLI_ARGS(__VA_ARGS__))

#endif
