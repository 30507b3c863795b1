/*
 * elf.h - the symbols of the firmware's ELF file (`--elf FIRMWARE`): a small
 * strict reader of ELF32/ELF64, either byte order (GNU and TI toolchains),
 * that keeps the functions and data objects of its symbol table and its
 * allocated sections, to show addresses in a trace as names and to tell
 * whether the ELF is the firmware that wrote the trace.
 */
#ifndef TRX_ELF_H
#define TRX_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trx/trx.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One symbol: a function or a data object (or an untyped global label). */
typedef struct trx_elf_symbol {
    uint64_t address; /* its value (a Thumb function's without bit 0) */
    uint64_t size;    /* 0 when the table gives none */
    const char *name;
    uint8_t kind; /* TRX_ELF_FUNCTION, TRX_ELF_OBJECT, TRX_ELF_LABEL */
} trx_elf_symbol;

enum { TRX_ELF_FUNCTION = 1, TRX_ELF_OBJECT = 2, TRX_ELF_LABEL = 3 };

/* One allocated section (occupies target memory). */
typedef struct trx_elf_section {
    uint64_t address, size;
    bool writable, executable;
    const uint8_t *data; /* read-only sections with contents: their bytes (else NULL) */
} trx_elf_section;

typedef struct trx_elf {
    const char *path;
    bool is64, big_endian;
    uint16_t machine;        /* e_machine: 40 ARM, 243 RISC-V ... */
    trx_elf_symbol *symbols; /* by address, then larger size first */
    uint32_t symbol_count;
    trx_elf_section *sections;
    uint32_t section_count;
    char *names;        /* the symbol names, one block */
    uint8_t *read_only; /* the contents of the read-only sections, one block */
    /* ARM Cortex-M: the vector table's handler addresses by exception
     * number (an object named vectors, __isr_vector, __Vectors,
     * g_pfnVectors, _vectors or isr_vector); NULL when there is none */
    uint32_t *vectors;
    uint32_t vector_count;
} trx_elf;

/* Reads the ELF at `path` (at most 1 GiB). 0, or -1 with `err` naming the
 * offset and what was expected there. Local labels ($C$L12, .L5, $t, $d)
 * are not symbols. */
int trx_elf_load(trx_elf *e, const char *path, trx_error *err);

/* The same from `size` bytes in memory (copied what is kept). */
int trx_elf_parse(trx_elf *e, const uint8_t *data, size_t size, trx_error *err);

void trx_elf_free(trx_elf *e);

/* The symbol that starts at `address` (an odd address: also the Thumb
 * function at address - 1), or NULL. */
const trx_elf_symbol *trx_elf_at(const trx_elf *e, uint64_t address);

/* The symbol at or around `address`, or NULL: a symbol that starts there
 * (an odd address: also the Thumb function at address - 1), else the one
 * whose [address, address + size) holds it. *offset gets address - start. */
const trx_elf_symbol *trx_elf_lookup(const trx_elf *e, uint64_t address, uint64_t *offset);

/* `address` as "name" or "name+0x10" into buf; NULL when no symbol holds it. */
const char *trx_elf_describe(const trx_elf *e, uint64_t address, char *buf, size_t size);

/* The data object that starts exactly at `address` (a `static TX_THREAD
 * sensor_thread`), or NULL. */
const trx_elf_symbol *trx_elf_object_at(const trx_elf *e, uint64_t address);

/* The name of the handler of ISR `number` (Cortex-M: the exception number,
 * 15 SysTick, 16 + n IRQ n) from the ELF's vector table, or NULL. */
const char *trx_elf_isr_name(const trx_elf *e, uint32_t number);

/* The string at `address` in the ELF's read-only data (a format's %s
 * argument): printable characters up to a NUL within `size` - 1 bytes, into
 * buf; NULL when the address is not in such data or no such string is there. */
const char *trx_elf_string_at(const trx_elf *e, uint64_t address, char *buf, size_t size);

/* True when `address` lies in a writable allocated section (RAM). */
bool trx_elf_in_ram(const trx_elf *e, uint64_t address);

/* Names the objects of t (t->elf set) that have none from the registry or
 * the trace: the data object that starts at the object's address (a `static
 * TX_THREAD sensor_thread`), else for a thread whose entry function the
 * trace names (SYS/BIOS's tasks) that function's symbol. Un-named Threads
 * found later are named by their object as they are added. */
void trx_trace_name_from_elf(trx_trace *t);

/* The ELF's name for an object at `address` (trx_elf_object_at, at most
 * TRX_NAME_MAX bytes), or NULL. */
const char *trx_elf_object_name(const trx_elf *e, uint32_t address);

typedef enum trx_elf_verdict { TRX_ELF_UNKNOWN, TRX_ELF_MATCH, TRX_ELF_MISMATCH } trx_elf_verdict;

/* Whether t->elf is the firmware that wrote t, and why. */
typedef struct trx_elf_match {
    trx_elf_verdict verdict;
    char reason[240];
} trx_elf_match;

/* Checks t->elf against t: the TXTB buffer (header base address) and the
 * registered objects must lie in the ELF's RAM sections. */
void trx_elf_check(const trx_trace *t, trx_elf_match *m);

#ifdef __cplusplus
}
#endif
#endif /* TRX_ELF_H */
