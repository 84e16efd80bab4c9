/*
 * sim/rng.c: one random stream per purpose and entity (rng.h, D-SIM-RNG).
 */
#include "rng.h"

#include <string.h>

#include "sim.h"

#define GOLDEN UINT64_C(0x9E3779B97F4A7C15)

static const char *const purpose_names[NTSIM_RNG_PURPOSE_COUNT] = {
#define NTSIM_RNG_PURPOSE_NAME_(id, name, what) name,
    NTSIM_RNG_PURPOSE_MAP(NTSIM_RNG_PURPOSE_NAME_)
#undef NTSIM_RNG_PURPOSE_NAME_
};

const char *ntsim_rng_purpose_name(ntsim_rng_purpose_t purpose)
{
    return purpose < NTSIM_RNG_PURPOSE_COUNT ? purpose_names[purpose] : "?";
}

uint64_t ntsim_rng_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

ntsim_rng_t ntsim_rng_stream(uint64_t seed, ntsim_rng_purpose_t purpose, uint64_t entity)
{
    const char *name = ntsim_rng_purpose_name(purpose);
    uint64_t h = ntsim_sim_digest(name, strlen(name));
    uint64_t key = ntsim_rng_mix(ntsim_rng_mix(seed ^ h) ^ ntsim_rng_mix(entity + GOLDEN));
    return (ntsim_rng_t){key, 0};
}

uint64_t ntsim_rng_next(ntsim_rng_t *r)
{
    r->drawn++;
    return ntsim_rng_mix(r->key + r->drawn * GOLDEN);
}

uint64_t ntsim_rng_below(ntsim_rng_t *r, uint64_t n)
{
    uint64_t x = ntsim_rng_next(r);
    return n == 0 ? 0 : x % n;
}
