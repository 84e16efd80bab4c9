/* engine/intern.h: SipHash-1-3 and libnrt's interned-string id (intern.c). */
#ifndef NTSIM_ENGINE_INTERN_H
#define NTSIM_ENGINE_INTERN_H

#include <stddef.h>
#include <stdint.h>

/* SipHash-1-3 (one compression round, three finalization rounds). */
uint64_t ntsim__siphash13(uint64_t k0, uint64_t k1, const void *data, size_t len);

/* The same over bytes that arrive in pieces: init, update as often as
 * needed, final (which leaves the state usable for more updates). */
typedef struct ntsim_siphash {
    uint64_t v0, v1, v2, v3;
    uint64_t len;             /* bytes so far */
    unsigned char tail[8];    /* the partial last word */
    unsigned tail_len;
} ntsim_siphash_t;
void ntsim__siphash13_init(ntsim_siphash_t *h, uint64_t k0, uint64_t k1);
void ntsim__siphash13_update(ntsim_siphash_t *h, const void *data, size_t len);
uint64_t ntsim__siphash13_final(const ntsim_siphash_t *h);

/* libnrt's get_id of a name of any length: never 0 (D-NTFF-INTERN). */
uint64_t ntsim__intern_id(const char *name, size_t len);

#endif /* NTSIM_ENGINE_INTERN_H */
