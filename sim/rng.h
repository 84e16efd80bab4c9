/*
 * sim/rng.h: the simulator's random draws, one stream per purpose
 * (D-SIM-RNG).
 *
 * Every draw a run makes belongs to a purpose, listed once in
 * NTSIM_RNG_PURPOSE_MAP, and serves an entity (an exec id, a physical
 * core). Its stream is keyed by (seed, purpose, entity):
 *
 *   key    = mix(mix(seed ^ H(purpose name)) ^ mix(entity + G))
 *   draw i = mix(key + (i + 1) G)         (SplitMix64 from state key)
 *
 * where mix is SplitMix64's finalizer, G = 0x9E3779B97F4A7C15 (its
 * increment) and H the SipHash-1-3 digest of the purpose's name
 * (ntsim_sim_digest). So a stream is a pure function of its key: a draw
 * added for one purpose, or for one entity, changes nothing any other
 * stream gives, and a purpose's key does not depend on its place in the
 * list (adding a purpose renumbers nothing). A new knob that draws adds a
 * purpose; the digests of the runs that do not use it stay as they were.
 */
#ifndef NTSIM_SIM_RNG_H
#define NTSIM_SIM_RNG_H

#include <stdint.h>

/* XX(ID, name (hashed into the key: never rename one), what it draws, for whom). */
#define NTSIM_RNG_PURPOSE_MAP(XX)                                                          \
    XX(EXEC_JITTER, "exec_jitter", "an execute's device time around its model's (exec id)") \
    XX(CORE_STOP, "core_stop",                                                             \
       "how early each core j > 0 of a logical NC ends its DEVICE_EXEC (exec id; draw j - 1)") \
    XX(NOTIFY_DMA, "notify_dma", "whether each core's TPB queue posts DMA (exec id; draw j)")  \
    XX(NOTIFY_THROTTLE, "notify_throttle",                                                 \
       "whether each core's TPB queue posts THROTTLE (exec id; draw j)")                   \
    XX(NOTIFY_TOPSP_ERROR, "notify_topsp_error",                                           \
       "whether a collectives execute's TopSP posts TOPSP_ERROR (exec id)")                \
    XX(CLOCK_SPREAD, "clock_spread",                                                       \
       "a physical core's clock offset, then drift, within clock_spread (the core)")

typedef enum ntsim_rng_purpose {
#define NTSIM_RNG_PURPOSE_ENUM_(id, name, what) NTSIM_RNG_##id,
    NTSIM_RNG_PURPOSE_MAP(NTSIM_RNG_PURPOSE_ENUM_)
#undef NTSIM_RNG_PURPOSE_ENUM_
        NTSIM_RNG_PURPOSE_COUNT
} ntsim_rng_purpose_t;

/* One stream: its key and how many draws it gave. */
typedef struct ntsim_rng {
    uint64_t key;
    uint64_t drawn;
} ntsim_rng_t;

/* The stream of (seed, purpose, entity), at its first draw. */
ntsim_rng_t ntsim_rng_stream(uint64_t seed, ntsim_rng_purpose_t purpose, uint64_t entity);
/* Its next 64 bits. */
uint64_t ntsim_rng_next(ntsim_rng_t *r);
/* Its next draw in [0, n) (the 64 bits modulo n: the bias is below n / 2^64);
 * 0 when n is 0 (and a draw is still used). */
uint64_t ntsim_rng_below(ntsim_rng_t *r, uint64_t n);
/* SplitMix64's finalizer (Stafford's variant 13): the mix above. */
uint64_t ntsim_rng_mix(uint64_t z);
/* The purpose's name ("exec_jitter"). */
const char *ntsim_rng_purpose_name(ntsim_rng_purpose_t purpose);

#endif /* NTSIM_SIM_RNG_H */
