/* engine/intern.h: SipHash-1-3 and libnrt's interned-string id (intern.c). */
#ifndef NTSIM_ENGINE_INTERN_H
#define NTSIM_ENGINE_INTERN_H

#include <stddef.h>
#include <stdint.h>

/* SipHash-1-3 (one compression round, three finalization rounds). */
uint64_t ntsim__siphash13(uint64_t k0, uint64_t k1, const void *data, size_t len);

/* libnrt's get_id of a name shorter than 255 bytes; 0 (never a valid id)
 * for longer ones. */
uint64_t ntsim__intern_id(const char *name, size_t len);

#endif /* NTSIM_ENGINE_INTERN_H */
