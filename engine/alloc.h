/*
 * engine/alloc.h: the engine's heap, through the allocator
 * ntsim_replace_allocator installs (libc's by default). Internal.
 */
#ifndef NTSIM_ENGINE_ALLOC_H
#define NTSIM_ENGINE_ALLOC_H

#include <stddef.h>

void *ntsim__malloc(size_t size);
void *ntsim__realloc(void *ptr, size_t size);
void *ntsim__calloc(size_t count, size_t size);
void ntsim__free(void *ptr);

#endif /* NTSIM_ENGINE_ALLOC_H */
