/*
 * conformance/generate/gen_rng.c: the generator's random source and its
 * value distributions (docs/generative.md has them in prose).
 *
 * xoshiro256** over a state seeded by splitmix64 from (seed, case index):
 * every case has its own stream, so `--case K` makes exactly the case K of a
 * whole run, on any machine (no libc rand(), no floating point).
 */
#include "gen_int.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

void ntsim_gen_rng_seed(ntsim_gen_rng_t *r, uint64_t seed, uint64_t index)
{
    /* Two splitmix rounds mix the index in, so that neighbouring seeds and
     * indices give unrelated streams. */
    uint64_t x = seed;
    uint64_t k = splitmix64(&x) ^ (index * UINT64_C(0xd1b54a32d192ed03));
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&k);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t ntsim_gen_next(ntsim_gen_rng_t *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t ntsim_gen_below(ntsim_gen_rng_t *r, uint64_t n)
{
    if (n == 0)
        return 0;
    /* Rejection: no modulo bias, and the same draws on every machine. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t v;
    do
        v = ntsim_gen_next(r);
    while (v >= limit);
    return v % n;
}

uint64_t ntsim_gen_range(ntsim_gen_rng_t *r, uint64_t lo, uint64_t hi)
{
    if (hi <= lo)
        return lo;
    if (lo == 0 && hi == UINT64_MAX)
        return ntsim_gen_next(r);
    return lo + ntsim_gen_below(r, hi - lo + 1);
}

bool ntsim_gen_chance(ntsim_gen_rng_t *r, unsigned percent)
{
    return ntsim_gen_below(r, 100) < percent;
}

uint64_t ntsim_gen_value(ntsim_gen_rng_t *r, unsigned bytes)
{
    uint64_t max = bytes >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * bytes)) - 1;
    uint64_t pick = ntsim_gen_below(r, 12);
    if (pick < 3) {
        /* boundaries */
        static const int which_count = 7;
        switch (ntsim_gen_below(r, (uint64_t)which_count)) {
        case 0: return 0;
        case 1: return 1;
        case 2: return max;
        case 3: return max - 1;
        case 4: return (max >> 1) + 1; /* the top bit alone */
        case 5: return max >> 1;       /* every bit below it */
        default: return UINT64_C(1) << ntsim_gen_below(r, 8 * (uint64_t)bytes);
        }
    }
    if (pick < 5)
        return ntsim_gen_below(r, 256) & max;
    return ntsim_gen_next(r) & max;
}

int32_t ntsim_gen_int(ntsim_gen_rng_t *r)
{
    static const int32_t edges[] = {INT32_MIN, INT32_MIN + 1, -1, 0, 1, INT32_MAX - 1, INT32_MAX};
    uint64_t pick = ntsim_gen_below(r, 12);
    if (pick < 4)
        return edges[ntsim_gen_below(r, sizeof edges / sizeof edges[0])];
    if (pick < 6)
        return (int32_t)ntsim_gen_range(r, 0, 512) - 256;
    return (int32_t)(uint32_t)ntsim_gen_next(r);
}

/* A number made smaller, as Hypothesis shrinks integers: step i of a
 * ladder tries v - v/2, v - v/4, ... v - 1 (the big cuts first, then ever
 * closer to v, so that a failure that needs "at least N" is found near N).
 * False when the step changes nothing. */
bool ntsim_gen_ladder(uint64_t *v, uint64_t floor, size_t i)
{
    if (*v <= floor || i >= 64)
        return false;
    uint64_t d = (*v - floor) >> (i + 1);
    if (d == 0)
        d = i == 0 ? *v - floor : 0;
    if (d == 0)
        return false;
    *v -= d;
    return true;
}
