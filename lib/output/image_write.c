/* image_write.c - a loaded image re-encoded as Intel HEX (16-byte data
 * records, 04 records for the upper address half, 01 end) or Motorola
 * S-records (S0 "trx", S3 data with 32-bit addresses, S7 end). */
#include <inttypes.h>

#include "output/convert.h"

static void hexbyte(trx_out *o, uint8_t b, uint8_t *sum)
{
    static const char d[] = "0123456789ABCDEF";
    trx_out_char(o, d[b >> 4]);
    trx_out_char(o, d[b & 15]);
    *sum = (uint8_t)(*sum + b);
}

static void ihex_record(trx_out *o, uint8_t type, uint16_t addr, const uint8_t *p, uint8_t n)
{
    uint8_t sum = 0;
    trx_out_char(o, ':');
    hexbyte(o, n, &sum);
    hexbyte(o, (uint8_t)(addr >> 8), &sum);
    hexbyte(o, (uint8_t)addr, &sum);
    hexbyte(o, type, &sum);
    for (uint8_t k = 0; k < n; k++)
        hexbyte(o, p[k], &sum);
    uint8_t dummy = 0;
    hexbyte(o, (uint8_t)(0x100 - sum), &dummy);
    trx_out_char(o, '\n');
}

void trx_write_ihex(const trx_image *img, trx_out *o)
{
    uint32_t upper = 0;
    for (size_t off = 0; off < img->size;) {
        uint64_t a = img->base + off;
        if ((uint32_t)(a >> 16) != upper) {
            upper = (uint32_t)(a >> 16);
            uint8_t ext[2] = {(uint8_t)(upper >> 8), (uint8_t)upper};
            ihex_record(o, 4, 0, ext, 2);
        }
        size_t n = img->size - off < 16 ? img->size - off : 16;
        size_t to_boundary = 0x10000u - (a & 0xFFFFu);
        if (n > to_boundary)
            n = to_boundary;
        ihex_record(o, 0, (uint16_t)a, img->data + off, (uint8_t)n);
        off += n;
    }
    ihex_record(o, 1, 0, NULL, 0);
}

static void srec_record(trx_out *o, char type, uint32_t addr, const uint8_t *p, uint8_t n)
{
    uint8_t sum = 0;
    trx_out_char(o, 'S');
    trx_out_char(o, type);
    int aw = type == '0' ? 2 : 4;
    hexbyte(o, (uint8_t)(n + aw + 1), &sum);
    for (int k = aw - 1; k >= 0; k--)
        hexbyte(o, (uint8_t)(addr >> (8 * k)), &sum);
    for (uint8_t k = 0; k < n; k++)
        hexbyte(o, p[k], &sum);
    uint8_t dummy = 0;
    hexbyte(o, (uint8_t)~sum, &dummy);
    trx_out_char(o, '\n');
}

void trx_write_srec(const trx_image *img, trx_out *o)
{
    srec_record(o, '0', 0, (const uint8_t *)"trx", 3);
    for (size_t off = 0; off < img->size; off += 16) {
        size_t n = img->size - off < 16 ? img->size - off : 16;
        srec_record(o, '3', (uint32_t)(img->base + off), img->data + off, (uint8_t)n);
    }
    srec_record(o, '7', (uint32_t)img->base, NULL, 0);
}
