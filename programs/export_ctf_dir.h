/* export_ctf_dir.h - the CTF trace directory of `trx export --to ctf`. */
#ifndef TRX_EXPORT_CTF_DIR_H
#define TRX_EXPORT_CTF_DIR_H

#include <stdint.h>

#include "cli.h"
#include "output/export_formats.h"

/* Exports c->args[0] into the directory c->output (created when missing):
 * metadata and a stream file per core. Returns the exit status. */
int export_ctf_directory(const cli_common *c, uint64_t ticks_per_second);

#endif
