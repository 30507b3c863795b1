/* segment_merge.c - the state fingerprints of segment_merge.h: each entry is
 * hashed on its own (tag and words, two independent 64-bit hashes) and the
 * hashes are summed, so that a table's entries may come in any order. */
#include "analyze/segment_merge.h"

#include <stdatomic.h>

/* One round of a 64-bit finaliser (splitmix64's). */
static inline uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9u;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBu;
    x ^= x >> 31;
    return x;
}

void trx_fp_add(trx_fingerprint *f, uint64_t tag, const uint64_t *words, size_t n)
{
    uint64_t h1 = mix64(tag ^ 0x243F6A8885A308D3u), h2 = mix64(tag + 0x13198A2E03707344u);
    for (size_t i = 0; i < n; i++) {
        h1 = mix64(h1 ^ words[i]) + 0x9E3779B97F4A7C15u;
        h2 = mix64(h2 + words[i] * 0xA4093822299F31D1u) ^ 0x082EFA98EC4E6C89u;
    }
    f->a += mix64(h1 + n);
    f->b += mix64(h2 ^ (n << 32));
}

void trx_fp_unmergeable(trx_fingerprint *f)
{
    static atomic_uint_fast64_t nonce;
    trx_fp_word(f, 0x554E4D45u, atomic_fetch_add(&nonce, 1) + 1);
}
