/* export_ctf_dir.c - `trx export --to ctf -o DIR`: the CTF trace directory.
 * DIR/metadata and one DIR/stream_N per core (each written to a temporary
 * and renamed into place when complete, as every -o output is); stream files
 * of an earlier export into DIR that this one did not write are removed, so
 * DIR holds exactly one trace. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef _WIN32
#include <direct.h>
#endif

#include "cli.h"
#include "export_ctf_dir.h"

#define MAX_FILES (TRX_CTF_MAX_CORE_STREAMS + 1u)

/* The stream files opened so far. */
typedef struct ctf_dir {
    const char *dir;
    unsigned n;
    cli_sink sink[MAX_FILES];
    trx_out *out[MAX_FILES];
    char *path[MAX_FILES];
} ctf_dir;

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", dir, name);
    return p;
}

/* trx_ctf_sink.open: DIR/NAME through a cli_sink. */
static trx_out *open_stream_file(void *ctx, const char *name)
{
    ctf_dir *d = ctx;
    if (d->n == MAX_FILES)
        return NULL;
    unsigned k = d->n;
    d->path[k] = join(d->dir, name);
    d->out[k] = malloc(sizeof *d->out[k]);
    if (!d->path[k] || !d->out[k]) {
        fprintf(stderr, "trx: %s: out of memory\n", d->dir);
        free(d->path[k]);
        free(d->out[k]);
        return NULL;
    }
    if (cli_sink_open(&d->sink[k], d->path[k]) != 0) {
        free(d->path[k]);
        free(d->out[k]);
        return NULL;
    }
    trx_out_init(d->out[k], d->sink[k].f, false);
    d->n++;
    return d->out[k];
}

/* "stream", "stream_more" or "stream_" and digits: a stream file trx writes. */
static bool is_stream_file_name(const char *name)
{
    if (strcmp(name, "stream") == 0 || strcmp(name, "stream_more") == 0)
        return true;
    if (strncmp(name, "stream_", 7) != 0 || !name[7])
        return false;
    for (const char *p = name + 7; *p; p++)
        if (*p < '0' || *p > '9')
            return false;
    return true;
}

/* Removes the stream files in DIR that this export did not write. */
static int remove_stale_streams(const ctf_dir *d)
{
    DIR *dir = opendir(d->dir);
    if (!dir)
        return 0;
    int rc = EXIT_OK;
    size_t dir_len = strlen(d->dir);
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        if (!is_stream_file_name(e->d_name))
            continue;
        bool written = false;
        for (unsigned k = 0; k < d->n && !written; k++)
            written = strcmp(d->path[k] + dir_len + 1, e->d_name) == 0;
        char *p = written ? NULL : join(d->dir, e->d_name);
        if (p && remove(p) != 0) {
            fprintf(stderr, "trx: %s: cannot remove the stream of an earlier export: %s\n", p,
                    strerror(errno));
            rc = EXIT_OUTPUT;
        }
        free(p);
    }
    closedir(dir);
    return rc;
}

/* Creates DIR when it is missing; 0 or EXIT_OUTPUT. */
static int make_directory(const char *path)
{
#ifdef _WIN32
    int made = _mkdir(path);
#else
    int made = mkdir(path, 0777);
#endif
    struct stat st;
    if (made != 0 && (errno != EEXIST || stat(path, &st) != 0 || !S_ISDIR(st.st_mode))) {
        fprintf(stderr, "trx: %s: cannot create the directory: %s\n", path,
                errno == EEXIST ? "a file has that name" : strerror(errno));
        return EXIT_OUTPUT;
    }
    return 0;
}

int export_ctf_directory(const cli_common *c, uint64_t ticks_per_second)
{
    int rc = make_directory(c->output);
    if (rc != 0)
        return rc;
    char *metadata_path = join(c->output, "metadata");
    if (!metadata_path)
        return cli_out_of_memory(c->output);
    cli_input in;
    if ((rc = cli_input_open(&in, c, c->args[0])) != 0) {
        free(metadata_path);
        return rc;
    }
    cli_warn_damaged(&in, c->args[0], CLI_DAMAGED_SKIPPED(c));
    cli_sink meta;
    if ((rc = cli_sink_open(&meta, metadata_path)) != 0) {
        cli_input_close(&in);
        free(metadata_path);
        return rc;
    }
    static ctf_dir d;
    memset(&d, 0, sizeof d);
    d.dir = c->output;
    trx_out_init(&cli_out, meta.f, false);
    trx_ctf_sink files = {open_stream_file, &d};
    trx_export_options o = {cli_ticks_per_second(&in, ticks_per_second), &in.custom};
    int e = trx_export_ctf(&in.trace, &files, &cli_out, &o);
    if (e == -1)
        fprintf(stderr, "trx: %s: out of memory\n", c->args[0]);
    rc = e == 0 ? EXIT_OK : e == -1 ? EXIT_INPUT : EXIT_OUTPUT;
    for (unsigned k = 0; k < d.n; k++)
        rc = cli_sink_close(&d.sink[k], d.out[k], rc);
    rc = cli_sink_close(&meta, &cli_out, rc);
    if (rc == EXIT_OK)
        rc = remove_stale_streams(&d);
    for (unsigned k = 0; k < d.n; k++) {
        free(d.path[k]);
        free(d.out[k]);
    }
    cli_input_close(&in);
    free(metadata_path);
    return rc;
}
