/*
 * conformance/unit/alloc_probe.h: an allocator for tests that counts, remembers
 * and can fail (ntsim_replace_allocator). It wraps libc's, so a block from
 * before it was installed, or one a caller frees with free() (facts §4: the
 * type-name lists), stays valid.
 *
 * Every block handed out while it is installed is remembered until it is
 * freed through the engine: `live` counts those still held, so a call that
 * returned an error (or a buffer that was freed) must leave it at 0 — the
 * out-of-memory unwinding of facts §4 and D-FETCH ("nothing lost, nothing
 * leaked") measured rather than left to valgrind.
 */
#ifndef NTSIM_CONFORMANCE_ALLOC_PROBE_H
#define NTSIM_CONFORMANCE_ALLOC_PROBE_H

#include <stddef.h>
#include <stdint.h>

#define NTSIM_PROBE_CALLS_MAX 256

typedef enum { NTSIM_PROBE_MALLOC, NTSIM_PROBE_CALLOC, NTSIM_PROBE_REALLOC } ntsim_probe_kind_t;

typedef struct ntsim_probe_call {
    ntsim_probe_kind_t kind;
    size_t count; /* calloc's count; 1 otherwise */
    size_t size;  /* bytes (calloc: of one element) */
} ntsim_probe_call_t;

typedef struct ntsim_alloc_probe {
    uint64_t allocs;      /* successful malloc, calloc and realloc(NULL, n) calls */
    uint64_t refused;     /* allocations failed on purpose */
    uint64_t frees;       /* ntsim__free of a remembered block */
    size_t live;          /* remembered blocks not freed yet */
    size_t ncalls;        /* the first NTSIM_PROBE_CALLS_MAX allocation requests */
    ntsim_probe_call_t calls[NTSIM_PROBE_CALLS_MAX];
} ntsim_alloc_probe_t;

extern ntsim_alloc_probe_t ntsim_probe;

/* Installs the probe with its counters at 0; the first `allow` allocations
 * succeed and the rest fail (UINT64_MAX: none fails). */
void ntsim_probe_begin(uint64_t allow);
/* The same, and every byte an allocation hands out that the caller has not
 * written (a new block; the part a realloc adds) reads as `fill`, instead of
 * whatever the heap held: a read past what the engine wrote shows in its
 * output, the same way every run. */
void ntsim_probe_begin_filled(uint64_t allow, unsigned char fill);
/* Restores libc's allocator; the counters keep their values. */
void ntsim_probe_end(void);

#endif /* NTSIM_CONFORMANCE_ALLOC_PROBE_H */
