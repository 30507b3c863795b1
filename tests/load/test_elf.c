/* test_elf.c - the ELF symbol reader on ELF files written here from the
 * ELF specification (32/64-bit, little/big-endian, ARM Thumb): symbols
 * kept and dropped, look-ups (neighbours at odd addresses, aliases at one
 * address), RAM sections, and every malformed layout refused with its
 * offset. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "trx/elf.h"

typedef struct elf_writer {
    uint8_t d[4096];
    bool is64, be;
} elf_writer;

static void put(elf_writer *w, size_t off, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        w->d[off + (size_t)i] = (uint8_t)(v >> (8 * (w->be ? bytes - 1 - i : i)));
}

enum { STRTAB = 0x200, SYMTAB = 0x300, SHDRS = 0x800 };

/* A symbol: name offset in the string table, value, size, info, section. */
static void symbol(elf_writer *w, int i, uint32_t name, uint64_t value, uint64_t size, uint8_t info,
                   uint16_t shndx)
{
    size_t at = SYMTAB + (size_t)i * (w->is64 ? 24 : 16);
    put(w, at, name, 4);
    if (w->is64) {
        put(w, at + 4, info, 1);
        put(w, at + 6, shndx, 2);
        put(w, at + 8, value, 8);
        put(w, at + 16, size, 8);
    } else {
        put(w, at + 4, value, 4);
        put(w, at + 8, size, 4);
        put(w, at + 12, info, 1);
        put(w, at + 14, shndx, 2);
    }
}

static void section(elf_writer *w, int i, uint32_t type, uint64_t flags, uint64_t addr,
                    uint64_t off, uint64_t size, uint32_t link, uint64_t entsize)
{
    size_t at = SHDRS + (size_t)i * (w->is64 ? 64 : 40);
    put(w, at + 4, type, 4);
    if (w->is64) {
        put(w, at + 8, flags, 8);
        put(w, at + 16, addr, 8);
        put(w, at + 24, off, 8);
        put(w, at + 32, size, 8);
        put(w, at + 40, link, 4);
        put(w, at + 56, entsize, 8);
    } else {
        put(w, at + 8, flags, 4);
        put(w, at + 12, addr, 4);
        put(w, at + 16, off, 4);
        put(w, at + 20, size, 4);
        put(w, at + 24, link, 4);
        put(w, at + 36, entsize, 4);
    }
}

/* Sections: null, .text (code at text), .data (RAM at data), .symtab, .strtab. */
static void build(elf_writer *w, bool is64, bool be, uint16_t machine, uint64_t text, uint64_t data)
{
    memset(w, 0, sizeof *w);
    w->is64 = is64;
    w->be = be;
    memcpy(w->d,
           "\x7F"
           "ELF",
           4);
    w->d[4] = is64 ? 2 : 1;
    w->d[5] = be ? 2 : 1;
    w->d[6] = 1;
    put(w, 16, 2, 2); /* ET_EXEC */
    put(w, 18, machine, 2);
    put(w, 20, 1, 4);
    put(w, is64 ? 40 : 32, SHDRS, is64 ? 8 : 4);
    put(w, is64 ? 58 : 46, is64 ? 64 : 40, 2);
    put(w, is64 ? 60 : 48, 6, 2);
    static const char names[] = "\0sensor_task\0sensor_thread\0$t\0$C$L12\0.L5\0edata\0undef\0"
                                "local_obj";
    memcpy(w->d + STRTAB, names, sizeof names);
    int n = 0;
    symbol(w, n++, 0, 0, 0, 0, 0);                    /* the null symbol */
    symbol(w, n++, 1, text + 0x21, 0x40, 0x12, 1);    /* FUNC GLOBAL, Thumb bit on ARM */
    symbol(w, n++, 13, data + 0x10, 0x20, 0x11, 2);   /* OBJECT GLOBAL */
    symbol(w, n++, 27, text + 0x20, 0, 0x00, 1);      /* $t: ARM mapping symbol */
    symbol(w, n++, 30, text + 0x30, 0, 0x00, 1);      /* $C$L12: TI local label */
    symbol(w, n++, 37, text + 0x34, 0, 0x00, 1);      /* .L5 */
    symbol(w, n++, 41, data + 0x100, 0, 0x10, 2);     /* NOTYPE GLOBAL: a label */
    symbol(w, n++, 47, 0, 0, 0x12, 0);                /* undefined */
    symbol(w, n++, 53, data + 0x40, 8, 0x01, 2);      /* OBJECT LOCAL */
    section(w, 1, 1, 0x6, text, 0x100, 0x1000, 0, 0); /* PROGBITS alloc+exec */
    section(w, 2, 8, 0x3, data, 0, 0x200, 0, 0);      /* NOBITS alloc+write */
    section(w, 3, 2, 0, 0, SYMTAB, (uint64_t)n * (is64 ? 24 : 16), 4, is64 ? 24 : 16);
    section(w, 4, 3, 0, 0, STRTAB, sizeof names, 0, 0);
    static const char rodata[] = "sensor ok\0\x01\x02bin\0no end";
    memcpy(w->d + 0x600, rodata, sizeof rodata - 1);
    section(w, 5, 1, 0x2, text + 0x2000, 0x600, sizeof rodata - 1, 0, 0); /* .rodata */
}

static void check_symbols(bool is64, bool be, uint16_t machine, uint64_t text, uint64_t data)
{
    elf_writer w;
    build(&w, is64, be, machine, text, data);
    trx_elf e = {0};
    trx_error err;
    if (trx_elf_parse(&e, w.d, sizeof w.d, &err) != 0)
        fail_msg("parse: offset %llu: %s", (unsigned long long)err.offset, err.message);
    assert_int_equal(e.is64, is64);
    assert_int_equal(e.big_endian, be);
    assert_int_equal(e.symbol_count, 4); /* sensor_task, sensor_thread, edata, local_obj */
    bool arm = machine == 40;
    uint64_t fn = arm ? text + 0x20 : text + 0x21; /* the Thumb bit cleared on ARM only */
    char buf[64];
    uint64_t off;
    const trx_elf_symbol *s = trx_elf_lookup(&e, fn, &off);
    assert_non_null(s);
    assert_string_equal(s->name, "sensor_task");
    assert_int_equal(off, 0);
    if (arm) { /* a code address with the Thumb bit names the function */
        assert_string_equal(trx_elf_describe(&e, text + 0x21, buf, sizeof buf), "sensor_task");
        assert_string_equal(trx_elf_describe(&e, text + 0x30, buf, sizeof buf), "sensor_task+0x10");
    }
    assert_null(trx_elf_describe(&e, fn + 0x40, buf, sizeof buf)); /* past its size */
    assert_string_equal(trx_elf_describe(&e, data + 0x18, buf, sizeof buf), "sensor_thread+0x8");
    assert_string_equal(trx_elf_object_at(&e, data + 0x10)->name, "sensor_thread");
    assert_null(trx_elf_object_at(&e, data + 0x11));
    assert_null(trx_elf_object_at(&e, fn)); /* a function is not an object */
    assert_string_equal(trx_elf_describe(&e, data + 0x100, buf, sizeof buf), "edata");
    assert_string_equal(trx_elf_describe(&e, data + 0x44, buf, sizeof buf), "local_obj+0x4");
    assert_true(trx_elf_in_ram(&e, data + 0x1FF));
    assert_false(trx_elf_in_ram(&e, data + 0x200));
    assert_false(trx_elf_in_ram(&e, text));
    /* %s arguments: strings in read-only data */
    assert_string_equal(trx_elf_string_at(&e, text + 0x2000, buf, sizeof buf), "sensor ok");
    assert_string_equal(trx_elf_string_at(&e, text + 0x2007, buf, sizeof buf), "ok");
    assert_null(trx_elf_string_at(&e, text + 0x200A, buf, sizeof buf)); /* not text */
    assert_null(trx_elf_string_at(&e, text + 0x2012, buf, sizeof buf)); /* no NUL before the end */
    assert_null(trx_elf_string_at(&e, data, buf, sizeof buf));          /* RAM */
    assert_null(trx_elf_string_at(&e, text + 0x2000, buf, 4));          /* longer than buf */
    trx_elf_free(&e);
}

static void test_elf32_le_arm(void **state)
{
    (void)state;
    check_symbols(false, false, 40, 0x08000400, 0x20000000);
}

static void test_elf32_be_arm(void **state)
{
    (void)state;
    check_symbols(false, true, 40, 0x00010000, 0x00400000);
}

static void test_elf64_le(void **state)
{
    (void)state;
    check_symbols(true, false, 183, 0xFFFF000000100000ull, 0xFFFF000000800000ull);
}

static void test_elf64_be(void **state)
{
    (void)state;
    check_symbols(true, true, 43, 0x100000, 0x200000);
}

/* The name of symbol `s`, "(none)" for none. */
static const char *name_of(const trx_elf_symbol *s)
{
    return s ? s->name : "(none)";
}

/* Objects next to each other at an even and an odd address (the Thumb bit is
 * a code address's, never an object's), and two symbols at one address (a
 * struct and its first member, a function and a shorter alias): the larger
 * one names the address, the smaller one is never chosen for it. */
static void test_neighbours_and_aliases(void **state)
{
    (void)state;
    const uint64_t text = 0x08000400, data = 0x20000000;
    elf_writer w;
    build(&w, false, false, 40, text, data);
    static const char more[] = "flag_pair\0odd_flag\0state\0state_head\0isr_body\0isr_entry";
    enum { MORE = 0x80 }; /* their names' place in the string table */
    memcpy(w.d + STRTAB + MORE, more, sizeof more);
    int n = 9;                                               /* after build()'s symbols */
    symbol(&w, n++, MORE + 0, data + 0x80, 1, 0x11, 2);      /* flag_pair: OBJECT, even */
    symbol(&w, n++, MORE + 10, data + 0x81, 1, 0x11, 2);     /* odd_flag: OBJECT, odd */
    symbol(&w, n++, MORE + 25, data + 0xA0, 4, 0x11, 2);     /* state_head: its first word */
    symbol(&w, n++, MORE + 19, data + 0xA0, 0x20, 0x11, 2);  /* state: the struct */
    symbol(&w, n++, MORE + 45, text + 0x201, 8, 0x12, 1);    /* isr_entry: an alias, 8 bytes */
    symbol(&w, n++, MORE + 36, text + 0x201, 0x40, 0x12, 1); /* isr_body: the function */
    section(&w, 3, 2, 0, 0, SYMTAB, (uint64_t)n * 16, 4, 16);
    section(&w, 4, 3, 0, 0, STRTAB, MORE + sizeof more, 0, 0);
    trx_elf e = {0};
    trx_error err;
    if (trx_elf_parse(&e, w.d, sizeof w.d, &err) != 0)
        fail_msg("parse: offset %llu: %s", (unsigned long long)err.offset, err.message);
    assert_int_equal(e.symbol_count, 10);
    char buf[64];
    /* neighbours: each address its own object */
    assert_string_equal(name_of(trx_elf_object_at(&e, data + 0x80)), "flag_pair");
    assert_string_equal(name_of(trx_elf_object_at(&e, data + 0x81)), "odd_flag");
    assert_string_equal(trx_elf_object_name(&e, data + 0x81), "odd_flag");
    assert_string_equal(trx_elf_describe(&e, data + 0x81, buf, sizeof buf), "odd_flag");
    assert_string_equal(name_of(trx_elf_at(&e, data + 0x81)), "odd_flag");
    /* one address, two objects: the struct, whose members are offsets in it */
    assert_string_equal(name_of(trx_elf_object_at(&e, data + 0xA0)), "state");
    assert_string_equal(trx_elf_object_name(&e, data + 0xA0), "state");
    assert_string_equal(trx_elf_describe(&e, data + 0xA0, buf, sizeof buf), "state");
    assert_string_equal(trx_elf_describe(&e, data + 0xA8, buf, sizeof buf), "state+0x8");
    /* one address, two functions: the whole function, with or without the Thumb bit */
    assert_string_equal(name_of(trx_elf_at(&e, text + 0x200)), "isr_body");
    assert_string_equal(name_of(trx_elf_at(&e, text + 0x201)), "isr_body");
    assert_string_equal(trx_elf_describe(&e, text + 0x210, buf, sizeof buf), "isr_body+0x10");
    assert_null(trx_elf_object_at(&e, text + 0x200)); /* functions are no objects */
    trx_elf_free(&e);
}

/* One byte wrong at a time: each refused with the offset of the fault. */
static void test_malformed(void **state)
{
    (void)state;
    static const struct {
        size_t at;
        uint64_t value;
        int bytes;
        uint64_t offset;
        const char *message;
    } cases[] = {
        {0, 0x7E, 1, 0, "not an ELF file"},
        {4, 3, 1, 4, "ELF class 3"},
        {46, 44, 2, 46, "ELF section headers of 44 bytes"},
        {48, 200, 2, 32, "run past the end of the file"},
        {32, 0, 4, 32, "without section headers"},
        {SHDRS + 3 * 40 + 36, 12, 4, SHDRS + 3 * 40, "entries of 12 bytes"},
        {SHDRS + 3 * 40 + 24, 9, 4, SHDRS + 3 * 40, "links to section 9"},
        {SHDRS + 4 * 40 + 16, 4090, 4, SHDRS + 3 * 40, "runs past the end of the file"},
        {SHDRS + 3 * 40 + 4, 1, 4, 32, "without a symbol table"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        elf_writer w;
        build(&w, false, false, 40, 0x08000000, 0x20000000);
        put(&w, cases[i].at, cases[i].value, cases[i].bytes);
        trx_elf e = {0};
        trx_error err;
        memset(&err, 0, sizeof err);
        if (trx_elf_parse(&e, w.d, sizeof w.d, &err) != -1)
            fail_msg("case %zu: accepted", i);
        if (!strstr(err.message, cases[i].message) || err.offset != cases[i].offset)
            fail_msg("case %zu: offset %llu \"%s\", want %llu \"%s\"", i,
                     (unsigned long long)err.offset, err.message,
                     (unsigned long long)cases[i].offset, cases[i].message);
        trx_elf_free(&e);
    }
    /* too short for a header; no file */
    trx_elf e = {0};
    trx_error err;
    assert_int_equal(trx_elf_parse(&e,
                                   (const uint8_t *)"\x7F"
                                                    "ELF",
                                   4, &err),
                     -1);
    assert_int_equal(trx_elf_load(&e, "/nonexistent/fw.elf", &err), -1);
    assert_non_null(strstr(err.message, "cannot open"));
}

/* Objects the toolchains wrote (tests/fuzz/seeds/fuzz_elf: arm-none-eabi-gcc
 * -mthumb [-mbig-endian] -c, gcc -c on x86-64): their functions and data as
 * nm lists them (relocatable: addresses are section offsets). */
static void test_toolchain_objects(void **state)
{
    (void)state;
    static const char *const files[] = {"arm_le.elf", "arm_be.elf", "x86_64.elf", "rv32.elf"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/tests/fuzz/seeds/fuzz_elf/%s", TRX_SOURCE_DIR, files[i]);
        trx_elf e = {0};
        trx_error err;
        if (trx_elf_load(&e, path, &err) != 0)
            fail_msg("%s: %s", path, err.message);
        assert_int_equal(e.big_endian, i == 1);
        assert_int_equal(e.is64, i == 2);
        bool task = false, main_fn = false, counter = false;
        for (uint32_t k = 0; k < e.symbol_count; k++) {
            const trx_elf_symbol *s = &e.symbols[k];
            task |= strcmp(s->name, "task") == 0 && s->kind == TRX_ELF_FUNCTION && s->size > 0;
            main_fn |= strcmp(s->name, "main") == 0 && s->kind == TRX_ELF_FUNCTION;
            counter |= strcmp(s->name, "counter") == 0;
            assert_true(s->name[0] != '$' && strncmp(s->name, ".L", 2) != 0);
        }
        if (!task || !main_fn)
            fail_msg("%s: task %d main %d counter %d", files[i], task, main_fn, counter);
        trx_elf_free(&e);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elf32_le_arm),
        cmocka_unit_test(test_elf32_be_arm),
        cmocka_unit_test(test_elf64_le),
        cmocka_unit_test(test_elf64_be),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_toolchain_objects),
        cmocka_unit_test(test_neighbours_and_aliases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
