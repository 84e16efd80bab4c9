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

uint64_t ntsim__siphash13(uint64_t k0, uint64_t k1, const void *data, size_t len)
{
    const unsigned char *in = data;
    uint64_t v0 = k0 ^ UINT64_C(0x736f6d6570736575);
    uint64_t v1 = k1 ^ UINT64_C(0x646f72616e646f6d);
    uint64_t v2 = k0 ^ UINT64_C(0x6c7967656e657261);
    uint64_t v3 = k1 ^ UINT64_C(0x7465646279746573);
    size_t full = len & ~(size_t)7;
    for (size_t i = 0; i < full; i += 8) {
        uint64_t m = load_le64(in + i);
        v3 ^= m;
        SIPROUND; /* one compression round: SipHash-1-3 */
        v0 ^= m;
    }
    uint64_t b = (uint64_t)len << 56;
    for (size_t i = 0; i < (len & 7); i++)
        b |= (uint64_t)in[full + i] << (8 * i);
    v3 ^= b;
    SIPROUND;
    v0 ^= b;
    v2 ^= 0xff;
    SIPROUND; /* three finalization rounds */
    SIPROUND;
    SIPROUND;
    return v0 ^ v1 ^ v2 ^ v3;
}

uint64_t ntsim__intern_id(const char *name, size_t len)
{
    /* Rust's str Hash: the bytes, then 0xFF. Interned names are event and
     * usage names, all far shorter than the buffer. */
    unsigned char buf[256];
    if (len < sizeof buf) {
        memcpy(buf, name, len);
        buf[len] = 0xff;
        return (ntsim__siphash13(0, 0, buf, len + 1) & ((UINT64_C(1) << 50) - 1)) + 1;
    }
    return 0; /* never for the table's names; documented in intern.h */
}
