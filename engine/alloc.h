/*
 * engine/alloc.h: the engine's heap, through the allocator
 * ntsim_replace_allocator installs (libc's by default). Internal.
 */
#ifndef NTSIM_ENGINE_ALLOC_H
#define NTSIM_ENGINE_ALLOC_H

#ifndef NTSIM_ENGINE_INTERNAL
#error "engine-private header: only engine/ and conformance/unit/ may include it (make layers)"
#endif

#include <stdbool.h>
#include <stddef.h>

void *ntsim__malloc(size_t size);
void *ntsim__realloc(void *ptr, size_t size);
void *ntsim__calloc(size_t count, size_t size);
void ntsim__free(void *ptr);

/* Grows the array *arrp of elements of `elem` bytes to hold `need`,
 * doubling its capacity *cap from 64; false when the size would overflow or
 * the allocator refuses (the array is kept): grow(&arr, &cap, n + 1,
 * sizeof *arr). */
bool ntsim__array_grow(void *arrp, size_t *cap, size_t need, size_t elem);

/* A block of `size` bytes at a multiple of `align` (a power of two, at most
 * 4096), from the replaceable malloc: posix_memalign would bypass it, and
 * with it the failure a replacement injects. NULL when out of memory. Freed
 * with ntsim__aligned_free only. */
void *ntsim__aligned_malloc(size_t align, size_t size);
void ntsim__aligned_free(void *ptr);
/* How many aligned blocks are live (allocated, not freed): each is also held
 * by its start, so that valgrind counts the ones a process exits with as
 * reachable (alloc.c). The tests count leaks with it. */
size_t ntsim__aligned_live(void);

/* Around fork (capture.c's pthread_atfork handlers, D-FORK): the list of
 * aligned blocks is held across it, so that the child's copy is whole, and
 * released on both sides. */
void ntsim__alloc_fork_prepare(void);
void ntsim__alloc_fork_release(void);

#endif /* NTSIM_ENGINE_ALLOC_H */
