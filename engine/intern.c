/*
 * engine/intern.c: libnrt's interned-string ids (facts §5).
 *
 *   get_id(name) = (SipHash-1-3(k0 = 0, k1 = 0, name bytes followed by 0xFF)
 *                   & (2^50 - 1)) + 1
 *
 * which is what Rust's std DefaultHasher computes for a &str (its Hash impl
 * writes the bytes, then 0xFF). The zero keys are the facts' inference
 * ("the quoted fixed key is SipHash's IV text"). The `data` ids and the
 * interned_data maps of the ntff vectors (vectors/ntff_events.yaml,
 * ntff_smoke.yaml, decode.yaml) were computed independently with Rust's
 * DefaultHasher (D-NTFF-INTERN).
 */
#include <string.h>

#include "intern.h"

static inline uint64_t rotl(uint64_t x, int b)
{
    return (x << b) | (x >> (64 - b));
}

#define SIPROUND                                                               \
    do {                                                                       \
        v0 += v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32);              \
        v2 += v3; v3 = rotl(v3, 16); v3 ^= v2;                                 \
        v0 += v3; v3 = rotl(v3, 21); v3 ^= v0;                                 \
        v2 += v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32);              \
    } while (0)

static inline uint64_t load_le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

/* --- streaming: the same function over bytes that arrive in pieces --------------- */

void ntsim__siphash13_init(ntsim_siphash_t *h, uint64_t k0, uint64_t k1)
{
    h->v0 = k0 ^ UINT64_C(0x736f6d6570736575);
    h->v1 = k1 ^ UINT64_C(0x646f72616e646f6d);
    h->v2 = k0 ^ UINT64_C(0x6c7967656e657261);
    h->v3 = k1 ^ UINT64_C(0x7465646279746573);
    h->len = 0;
    h->tail_len = 0;
}

static inline void compress(ntsim_siphash_t *h, uint64_t m)
{
    uint64_t v0 = h->v0, v1 = h->v1, v2 = h->v2, v3 = h->v3;
    v3 ^= m;
    SIPROUND; /* one compression round: SipHash-1-3 */
    v0 ^= m;
    h->v0 = v0;
    h->v1 = v1;
    h->v2 = v2;
    h->v3 = v3;
}

void ntsim__siphash13_update(ntsim_siphash_t *h, const void *data, size_t len)
{
    const unsigned char *in = data;
    h->len += len;
    while (len > 0 && (h->tail_len > 0 || len < 8)) { /* fill the partial word first */
        h->tail[h->tail_len++] = *in++;
        len--;
        if (h->tail_len == 8) {
            compress(h, load_le64(h->tail));
            h->tail_len = 0;
        }
    }
    /* The bulk in locals: through h, every store to the state would have to
     * be redone after each byte load (a char pointer may alias it). */
    uint64_t v0 = h->v0, v1 = h->v1, v2 = h->v2, v3 = h->v3;
    for (; len >= 8; in += 8, len -= 8) {
        uint64_t m = load_le64(in);
        v3 ^= m;
        SIPROUND;
        v0 ^= m;
    }
    h->v0 = v0;
    h->v1 = v1;
    h->v2 = v2;
    h->v3 = v3;
    while (len > 0) {
        h->tail[h->tail_len++] = *in++;
        len--;
    }
}

uint64_t ntsim__siphash13_final(const ntsim_siphash_t *h)
{
    ntsim_siphash_t c = *h;
    uint64_t b = c.len << 56;
    for (unsigned i = 0; i < c.tail_len; i++)
        b |= (uint64_t)c.tail[i] << (8 * i);
    compress(&c, b);
    uint64_t v0 = c.v0, v1 = c.v1, v2 = c.v2 ^ 0xff, v3 = c.v3;
    SIPROUND; /* three finalization rounds */
    SIPROUND;
    SIPROUND;
    return v0 ^ v1 ^ v2 ^ v3;
}

uint64_t ntsim__siphash13(uint64_t k0, uint64_t k1, const void *data, size_t len)
{
    ntsim_siphash_t h;
    ntsim__siphash13_init(&h, k0, k1);
    ntsim__siphash13_update(&h, data, len);
    return ntsim__siphash13_final(&h);
}

uint64_t ntsim__intern_id(const char *name, size_t len)
{
    /* Rust's str Hash: the bytes, then 0xFF, streamed (a name of any length
     * has its id, facts §5's formula: never 0). */
    static const unsigned char terminator = 0xff;
    ntsim_siphash_t h;
    ntsim__siphash13_init(&h, 0, 0);
    ntsim__siphash13_update(&h, name, len);
    ntsim__siphash13_update(&h, &terminator, 1);
    return (ntsim__siphash13_final(&h) & ((UINT64_C(1) << 50) - 1)) + 1;
}
