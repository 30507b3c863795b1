/* record_common.c - record checks and error wording shared by the Intel HEX and S-record loaders.
 */
#include "load/hex_digits.h"
#include "load/text_loaders.h"

/* Skips a line that does not start like a record (see text_loaders.h). */
size_t trx_record_skip_line(const trx_record_syntax *s, const uint8_t *in, size_t size, size_t pos,
                            uint64_t *skipped)
{
    if (in[pos] == s->start &&
        (!s->type_digit || (pos + 1 < size && in[pos + 1] >= '0' && in[pos + 1] <= '9')))
        return pos;
    while (pos < size && in[pos] != '\n')
        pos++;
    (*skipped)++;
    return pos;
}

/* "<format>: no data records (N lines that are not records skipped)"; -1. */
int trx_record_none(const trx_record_syntax *s, size_t end, uint64_t skipped, trx_error *err)
{
    return trx_error_set(err, end, "%s: no data records (%llu line%s that %s skipped)", s->name,
                         (unsigned long long)skipped, skipped == 1 ? "" : "s",
                         skipped == 1 ? "is not a record" : "are not records");
}

/* 0 when the record at `pos` starts with the format's start character. */
int trx_record_start(const trx_record_syntax *s, const uint8_t *in, size_t pos, trx_error *err)
{
    char what[16];
    if (in[pos] == s->start)
        return 0;
    return trx_error_set(err, pos, "%s: expected '%c' at the start of a record, found %s", s->name,
                         s->start, trx_describe_byte(in[pos], what));
}

/* "<format> <field>: expected hex digit, found ..." at `i`; always -1. */
int trx_record_digit_error(const trx_record_syntax *s, const uint8_t *in, size_t size, size_t i,
                           const char *field, trx_error *err)
{
    char what[16];
    if (i >= size)
        return trx_error_set(err, size, "%s %s: expected hex digit, found end of file", s->name,
                             field);
    return trx_error_set(err, i, "%s %s: expected hex digit, found %s", s->name, field,
                         trx_describe_byte(in[i], what));
}

/* 0 when the record's checksum digits at `cs_at` say `computed`. */
int trx_record_checksum(const trx_record_syntax *s, const uint8_t *in, size_t cs_at,
                        unsigned computed, trx_error *err)
{
    unsigned says = (unsigned)trx_hex_value[in[cs_at]] << 4 | trx_hex_value[in[cs_at + 1]];
    if (says == computed)
        return 0;
    return trx_error_set(err, cs_at, "%s checksum mismatch: record says 0x%02X, computed 0x%02X",
                         s->name, says, computed);
}

/* 0 when the checksum is followed by end of input, white space or the next record. */
int trx_record_end(const trx_record_syntax *s, const uint8_t *in, size_t size, size_t pos,
                   unsigned length, trx_error *err)
{
    char what[16];
    if (pos >= size || trx_hex_space[in[pos]] || in[pos] == s->start)
        return 0;
    if (trx_hex_value[in[pos]] != TRX_HEX_BAD)
        return trx_error_set(err, pos,
                             "%s: record longer than its length byte says (%u %s): expected end "
                             "of line after the checksum, found %s",
                             s->name, length, s->length_unit, trx_describe_byte(in[pos], what));
    return trx_error_set(err, pos, "%s: expected end of line after the checksum, found %s", s->name,
                         trx_describe_byte(in[pos], what));
}
