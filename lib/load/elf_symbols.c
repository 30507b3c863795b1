/*
 * elf_symbols.c - the firmware's ELF symbols (see trx/elf.h): header,
 * section headers, the symbol table (SHT_SYMTAB, else SHT_DYNSYM) and its
 * string table, every offset and size checked against the file before it is
 * read. What is kept is bounded by the file's own size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trx/elf.h"

#define ELF_MAX_FILE (1ull << 30)
#define SHT_SYMTAB 2u
#define SHT_DYNSYM 11u
#define SHF_WRITE 1u
#define SHF_ALLOC 2u
#define SHF_EXECINSTR 4u
#define STT_NOTYPE 0u
#define STT_OBJECT 1u
#define STT_FUNC 2u
#define SHN_UNDEF 0u
#define SHN_LORESERVE 0xFF00u
#define EM_ARM 40u

typedef struct reader {
    const uint8_t *d;
    size_t n;
    bool be, is64;
    trx_error *err;
} reader;

static uint64_t rd(const reader *r, uint64_t off, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) {
        uint8_t b = r->d[off + (uint64_t)(r->be ? i : bytes - 1 - i)];
        v = v << 8 | b;
    }
    return v;
}

/* True when [off, off + len) lies inside the file. */
static bool inside(const reader *r, uint64_t off, uint64_t len)
{
    return off <= r->n && len <= r->n - off;
}

typedef struct section {
    uint32_t type, link;
    uint64_t flags, addr, off, size, entsize;
} section;

static int read_section(const reader *r, uint64_t at, section *s);

#define SHT_NOBITS 8u
#define VECTORS_MAX 512u /* 16 exceptions and up to 496 interrupts */

/* Cortex-M's vector table: an object (or label) of a known name inside an
 * allocated section with contents; its words are the handlers. */
static int read_vectors(trx_elf *e, const reader *r, uint64_t shoff, uint64_t shnum)
{
    static const char *const names[] = {"vectors",      "__isr_vector", "__Vectors",
                                        "g_pfnVectors", "_vectors",     "isr_vector"};
    if (e->machine != EM_ARM || e->is64)
        return 0;
    for (uint32_t i = 0; i < e->symbol_count; i++) {
        const trx_elf_symbol *s = &e->symbols[i];
        bool known = false;
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
            known |= strcmp(s->name, names[k]) == 0;
        if (!known || s->kind == TRX_ELF_FUNCTION)
            continue;
        for (uint64_t j = 0; j < shnum; j++) {
            section c;
            if (read_section(r, shoff + j * 40, &c) < 0)
                return -1;
            if (!(c.flags & SHF_ALLOC) || c.type == SHT_NOBITS || s->address < c.addr ||
                s->address - c.addr >= c.size)
                continue;
            uint64_t at = c.off + (s->address - c.addr);
            uint64_t room = (c.size - (s->address - c.addr)) / 4;
            uint64_t n = s->size ? s->size / 4 : room;
            n = n < room ? n : room;
            n = n < VECTORS_MAX ? n : VECTORS_MAX;
            if (n < 16 || !inside(r, at, n * 4))
                continue;
            e->vectors = malloc(n * sizeof *e->vectors);
            if (!e->vectors)
                return trx_error_set(r->err, at, "out of memory");
            for (uint64_t k = 0; k < n; k++)
                e->vectors[k] = (uint32_t)rd(r, at + 4 * k, 4);
            e->vector_count = (uint32_t)n;
            return 0;
        }
    }
    return 0;
}

static int read_section(const reader *r, uint64_t at, section *s)
{
    if (!inside(r, at, r->is64 ? 64 : 40))
        return trx_error_set(r->err, r->is64 ? 40 : 32,
                             "ELF section header at offset %llu runs past the end of the file",
                             (unsigned long long)at);
    s->type = (uint32_t)rd(r, at + 4, 4);
    if (r->is64) {
        s->flags = rd(r, at + 8, 8);
        s->addr = rd(r, at + 16, 8);
        s->off = rd(r, at + 24, 8);
        s->size = rd(r, at + 32, 8);
        s->link = (uint32_t)rd(r, at + 40, 4);
        s->entsize = rd(r, at + 56, 8);
    } else {
        s->flags = rd(r, at + 8, 4);
        s->addr = rd(r, at + 12, 4);
        s->off = rd(r, at + 16, 4);
        s->size = rd(r, at + 20, 4);
        s->link = (uint32_t)rd(r, at + 24, 4);
        s->entsize = rd(r, at + 36, 4);
    }
    return 0;
}

/* A local label, not a name: $t $d $a (ARM mapping symbols), $C$L12 (TI),
 * .L5 (GNU). */
static bool is_label(const char *s)
{
    return s[0] == '\0' || s[0] == '$' || (s[0] == '.' && s[1] == 'L');
}

static int by_address(const void *a, const void *b)
{
    const trx_elf_symbol *x = a, *y = b;
    if (x->address != y->address)
        return x->address < y->address ? -1 : 1;
    if (x->kind != y->kind) /* a function or an object before a bare label */
        return x->kind < y->kind ? -1 : 1;
    if (x->size != y->size)
        return x->size > y->size ? -1 : 1;
    return strcmp(x->name, y->name);
}

static int read_symbols(trx_elf *e, const reader *r, const section *tab, const section *str,
                        uint64_t header)
{
    uint64_t ent = r->is64 ? 24 : 16;
    if (tab->entsize != ent)
        return trx_error_set(r->err, header,
                             "ELF symbol table entries of %llu bytes, %llu expected",
                             (unsigned long long)tab->entsize, (unsigned long long)ent);
    if (!inside(r, tab->off, tab->size) || !inside(r, str->off, str->size))
        return trx_error_set(r->err, header,
                             "ELF symbol or string table runs past the end of the file");
    uint64_t count = tab->size / ent;
    e->symbols = calloc(count ? count : 1, sizeof *e->symbols);
    e->names = malloc(str->size + 1);
    if (!e->symbols || !e->names)
        return trx_error_set(r->err, header, "out of memory for %llu ELF symbols",
                             (unsigned long long)count);
    memcpy(e->names, r->d + str->off, str->size);
    e->names[str->size] = '\0';            /* a name without its NUL ends here */
    for (uint64_t i = 1; i < count; i++) { /* entry 0 is the null symbol */
        uint64_t at = tab->off + i * ent;
        uint64_t name = rd(r, at, 4), value, size;
        uint8_t info;
        uint16_t shndx;
        if (r->is64) {
            info = (uint8_t)rd(r, at + 4, 1);
            shndx = (uint16_t)rd(r, at + 6, 2);
            value = rd(r, at + 8, 8);
            size = rd(r, at + 16, 8);
        } else {
            value = rd(r, at + 4, 4);
            size = rd(r, at + 8, 4);
            info = (uint8_t)rd(r, at + 12, 1);
            shndx = (uint16_t)rd(r, at + 14, 2);
        }
        uint32_t type = info & 0xFu, bind = info >> 4;
        if (name >= str->size || shndx == SHN_UNDEF || shndx >= SHN_LORESERVE)
            continue;
        const char *s = e->names + name;
        uint8_t kind = type == STT_FUNC                                 ? TRX_ELF_FUNCTION
                       : type == STT_OBJECT                             ? TRX_ELF_OBJECT
                       : type == STT_NOTYPE && (bind == 1 || bind == 2) ? TRX_ELF_LABEL
                                                                        : 0;
        if (!kind || is_label(s))
            continue;
        if (kind == TRX_ELF_FUNCTION && e->machine == EM_ARM)
            value &= ~(uint64_t)1; /* the Thumb bit */
        e->symbols[e->symbol_count++] = (trx_elf_symbol){value, size, s, kind};
    }
    if (e->symbol_count)
        qsort(e->symbols, e->symbol_count, sizeof *e->symbols, by_address);
    return 0;
}

int trx_elf_parse(trx_elf *e, const uint8_t *data, size_t size, trx_error *err)
{
    const char *path = e->path;
    memset(e, 0, sizeof *e);
    e->path = path;
    reader r = {data, size, false, false, err};
    if (size < 52 || memcmp(data,
                            "\x7F"
                            "ELF",
                            4) != 0)
        return trx_error_set(err, 0, "not an ELF file (\\x7FELF and a header expected)");
    if ((data[4] != 1 && data[4] != 2) || (data[5] != 1 && data[5] != 2) || data[6] != 1)
        return trx_error_set(err, 4, "ELF class %u / data %u / version %u: 1-2 / 1-2 / 1 expected",
                             data[4], data[5], data[6]);
    r.is64 = e->is64 = data[4] == 2;
    r.be = e->big_endian = data[5] == 2;
    if (r.is64 && size < 64)
        return trx_error_set(err, 0, "ELF64 header of 64 bytes expected, the file has %zu", size);
    e->machine = (uint16_t)rd(&r, 18, 2);
    uint64_t shoff = r.is64 ? rd(&r, 40, 8) : rd(&r, 32, 4);
    uint64_t shentsize = rd(&r, r.is64 ? 58 : 46, 2);
    uint64_t shnum = rd(&r, r.is64 ? 60 : 48, 2);
    uint64_t hsize = r.is64 ? 64 : 40;
    if (shoff == 0)
        return trx_error_set(err, r.is64 ? 40 : 32,
                             "ELF file without section headers (no symbols)");
    if (shentsize != hsize)
        return trx_error_set(err, r.is64 ? 58 : 46,
                             "ELF section headers of %llu bytes, %llu expected",
                             (unsigned long long)shentsize, (unsigned long long)hsize);
    section s;
    if (shnum == 0) { /* extended numbering: the count is section 0's size */
        if (read_section(&r, shoff, &s) < 0)
            return -1;
        shnum = s.size;
    }
    if (!inside(&r, shoff, shnum * hsize) || shnum > size / hsize)
        return trx_error_set(
            err, r.is64 ? 40 : 32,
            "ELF section headers (%llu at offset %llu) run past the end of the file",
            (unsigned long long)shnum, (unsigned long long)shoff);
    e->sections = calloc(shnum ? shnum : 1, sizeof *e->sections);
    if (!e->sections)
        return trx_error_set(err, shoff, "out of memory");
    section symtab = {0}, strtab = {0};
    uint64_t symtab_header = 0, read_only = 0;
    bool have = false;
    for (uint64_t i = 0; i < shnum; i++) {
        if (read_section(&r, shoff + i * hsize, &s) < 0)
            return -1;
        if (s.flags & SHF_ALLOC && s.size) {
            e->sections[e->section_count++] = (trx_elf_section){
                s.addr, s.size, (s.flags & SHF_WRITE) != 0, (s.flags & SHF_EXECINSTR) != 0, NULL};
            if (!(s.flags & (SHF_WRITE | SHF_EXECINSTR)) && s.type != SHT_NOBITS &&
                inside(&r, s.off, s.size))
                read_only += s.size; /* kept below: strings of %s arguments */
        }
        if ((s.type == SHT_SYMTAB || (s.type == SHT_DYNSYM && !have)) &&
            (!have || symtab.type != SHT_SYMTAB)) {
            if (s.link >= shnum)
                return trx_error_set(err, shoff + i * hsize,
                                     "ELF symbol table links to section %u of %llu", s.link,
                                     (unsigned long long)shnum);
            section t;
            if (read_section(&r, shoff + s.link * hsize, &t) < 0)
                return -1;
            symtab = s;
            strtab = t;
            symtab_header = shoff + i * hsize;
            have = true;
        }
    }
    if (!have)
        return trx_error_set(err, r.is64 ? 40 : 32, "ELF file without a symbol table (stripped?)");
    if (read_only && !(e->read_only = malloc(read_only)))
        return trx_error_set(err, shoff, "out of memory for the ELF's read-only data");
    for (uint64_t i = 0, at = 0, k = 0; read_only && i < shnum; i++) {
        if (read_section(&r, shoff + i * hsize, &s) < 0)
            return -1;
        if (!(s.flags & SHF_ALLOC) || !s.size)
            continue;
        trx_elf_section *x = &e->sections[k++];
        if (!(s.flags & (SHF_WRITE | SHF_EXECINSTR)) && s.type != SHT_NOBITS &&
            inside(&r, s.off, s.size)) {
            memcpy(e->read_only + at, data + s.off, s.size);
            x->data = e->read_only + at;
            at += s.size;
        }
    }
    if (read_symbols(e, &r, &symtab, &strtab, symtab_header) < 0)
        return -1;
    return read_vectors(e, &r, shoff, shnum);
}

int trx_elf_load(trx_elf *e, const char *path, trx_error *err)
{
    memset(e, 0, sizeof *e);
    e->path = path;
    trx_image img; /* the file's bytes, as the trace loader reads files (mapped, size limit) */
    if (trx_image_load_file_limit(&img, path, TRX_FORMAT_BIN, ELF_MAX_FILE, err) != 0)
        return -1;
    int rc = trx_elf_parse(e, img.data, img.size, err);
    trx_image_free(&img);
    if (rc != 0)
        trx_elf_free(e);
    return rc;
}

void trx_elf_free(trx_elf *e)
{
    free(e->symbols);
    free(e->sections);
    free(e->names);
    free(e->vectors);
    free(e->read_only);
    const char *path = e->path;
    memset(e, 0, sizeof *e);
    e->path = path;
}

/* Index of the last symbol whose address is <= a, or -1. */
static int64_t last_at_or_below(const trx_elf *e, uint64_t a)
{
    uint32_t lo = 0, hi = e->symbol_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (e->symbols[mid].address <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (int64_t)lo - 1;
}

/* The first (best) symbol of the run that starts exactly at a, or NULL. */
static const trx_elf_symbol *starting_at(const trx_elf *e, uint64_t a)
{
    int64_t i = last_at_or_below(e, a);
    if (i < 0 || e->symbols[i].address != a)
        return NULL;
    while (i > 0 && e->symbols[i - 1].address == a)
        i--;
    return &e->symbols[i];
}

const trx_elf_symbol *trx_elf_at(const trx_elf *e, uint64_t address)
{
    if (!e || e->symbol_count == 0)
        return NULL;
    const trx_elf_symbol *s = starting_at(e, address);
    if (!s && (address & 1u)) { /* a Thumb code address: the function at address - 1 */
        s = starting_at(e, address - 1);
        if (s && s->kind != TRX_ELF_FUNCTION)
            s = NULL;
    }
    return s;
}

const trx_elf_symbol *trx_elf_lookup(const trx_elf *e, uint64_t address, uint64_t *offset)
{
    const trx_elf_symbol *s = trx_elf_at(e, address);
    *offset = 0;
    if (s || !e)
        return s;
    int64_t i = last_at_or_below(e, address);
    for (int64_t k = i; k >= 0 && k > i - 16; k--) { /* a nearby symbol that holds it */
        const trx_elf_symbol *c = &e->symbols[k];
        if (c->size && address - c->address < c->size) {
            *offset = address - c->address;
            return c;
        }
    }
    return NULL;
}

const char *trx_elf_describe(const trx_elf *e, uint64_t address, char *buf, size_t size)
{
    uint64_t off = 0;
    const trx_elf_symbol *s = trx_elf_lookup(e, address, &off);
    if (!s)
        return NULL;
    if (off)
        snprintf(buf, size, "%s+0x%llx", s->name, (unsigned long long)off);
    else
        snprintf(buf, size, "%s", s->name);
    return buf;
}

const trx_elf_symbol *trx_elf_object_at(const trx_elf *e, uint64_t address)
{
    if (!e)
        return NULL;
    const trx_elf_symbol *s = starting_at(e, address);
    for (; s && s < e->symbols + e->symbol_count && s->address == address; s++)
        if (s->kind == TRX_ELF_OBJECT)
            return s;
    return NULL;
}

bool trx_elf_in_ram(const trx_elf *e, uint64_t address)
{
    for (uint32_t i = 0; e && i < e->section_count; i++) {
        const trx_elf_section *s = &e->sections[i];
        if (s->writable && address - s->address < s->size)
            return true;
    }
    return false;
}

const char *trx_elf_isr_name(const trx_elf *e, uint32_t number)
{
    if (!e || number >= e->vector_count || e->vectors[number] == 0)
        return NULL;
    const trx_elf_symbol *s = trx_elf_at(e, e->vectors[number]);
    return s && s->kind == TRX_ELF_FUNCTION ? s->name : NULL;
}

const char *trx_elf_string_at(const trx_elf *e, uint64_t address, char *buf, size_t size)
{
    for (uint32_t i = 0; e && size && i < e->section_count; i++) {
        const trx_elf_section *s = &e->sections[i];
        if (!s->data || address - s->address >= s->size)
            continue;
        const uint8_t *p = s->data + (address - s->address);
        uint64_t left = s->size - (address - s->address);
        for (size_t n = 0; n < left && n + 1 < size; n++) {
            if (p[n] == 0) {
                memcpy(buf, p, n);
                buf[n] = '\0';
                return buf;
            }
            if (p[n] < 0x20 || p[n] >= 0x7F) /* not text */
                return NULL;
        }
        return NULL;
    }
    return NULL;
}
