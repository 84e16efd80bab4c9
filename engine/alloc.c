/*
 * engine/alloc.c: the replaceable allocator (include/ntsim/capture.h).
 *
 * Plain globals, not atomics: ntsim_replace_allocator is documented as a
 * call made while no other thread is inside ntsim, so no read races with
 * the write.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "ntsim/capture.h"

static ntsim_malloc_fn g_malloc = malloc;
static ntsim_realloc_fn g_realloc = realloc;
static ntsim_calloc_fn g_calloc = calloc;
static ntsim_free_fn g_free = free;

NRT_STATUS ntsim_replace_allocator(ntsim_malloc_fn malloc_fn, ntsim_realloc_fn realloc_fn,
                                   ntsim_calloc_fn calloc_fn, ntsim_free_fn free_fn)
{
    int given = (malloc_fn != NULL) + (realloc_fn != NULL) + (calloc_fn != NULL) +
                (free_fn != NULL);
    if (given != 0 && given != 4)
        return NRT_INVALID;
    g_malloc = malloc_fn != NULL ? malloc_fn : malloc;
    g_realloc = realloc_fn != NULL ? realloc_fn : realloc;
    g_calloc = calloc_fn != NULL ? calloc_fn : calloc;
    g_free = free_fn != NULL ? free_fn : free;
    return NRT_SUCCESS;
}

void *ntsim__malloc(size_t size)
{
    return g_malloc(size);
}

void *ntsim__realloc(void *ptr, size_t size)
{
    return g_realloc(ptr, size);
}

void *ntsim__calloc(size_t count, size_t size)
{
    return g_calloc(count, size);
}

void ntsim__free(void *ptr)
{
    g_free(ptr);
}

/* The start of every live aligned block, so that the process holds each one
 * by its start: a block the engine keeps when the process exits (a running
 * capture's rings, the records of the threads that emitted) is then
 * "still reachable" to valgrind, where the aligned pointer alone, inside the
 * block, made it "possibly lost" in every program that exits without
 * shutting the engine down. The list's own memory is libc's, not the
 * replaceable allocator's: it must not change how many blocks a call takes
 * from a replacement (which the failing-allocator tests count). If it cannot
 * grow, the block is simply not listed: only valgrind's report changes.
 * Taken by aligned allocations alone (ring create, thread register, stop). */
static pthread_mutex_t g_kept_lock = PTHREAD_MUTEX_INITIALIZER;
static void **g_kept;
static size_t g_kept_count, g_kept_cap;

static void keep(void *base)
{
    pthread_mutex_lock(&g_kept_lock);
    if (g_kept_count == g_kept_cap) {
        size_t cap = g_kept_cap ? 2 * g_kept_cap : 512;
        void **grown = realloc(g_kept, cap * sizeof *grown);
        if (grown != NULL) {
            g_kept = grown;
            g_kept_cap = cap;
        }
    }
    if (g_kept_count < g_kept_cap)
        g_kept[g_kept_count++] = base;
    pthread_mutex_unlock(&g_kept_lock);
}

void ntsim__alloc_fork_prepare(void)
{
    pthread_mutex_lock(&g_kept_lock);
}

void ntsim__alloc_fork_release(void)
{
    pthread_mutex_unlock(&g_kept_lock);
}

static void unkeep(void *base)
{
    pthread_mutex_lock(&g_kept_lock);
    for (size_t i = g_kept_count; i-- > 0;) /* the newest first: stop frees in reverse */
        if (g_kept[i] == base) {
            g_kept[i] = g_kept[--g_kept_count];
            break;
        }
    pthread_mutex_unlock(&g_kept_lock);
}

size_t ntsim__aligned_live(void)
{
    pthread_mutex_lock(&g_kept_lock);
    size_t n = g_kept_count;
    pthread_mutex_unlock(&g_kept_lock);
    return n;
}

/* Over-allocates by align - 1 bytes plus one pointer, and keeps the block's
 * start in the pointer-sized word just below the aligned address (that word
 * is inside the block, and aligned, since align >= sizeof(void *) is
 * enforced by rounding align up). */
void *ntsim__aligned_malloc(size_t align, size_t size)
{
    if (align < sizeof(void *))
        align = sizeof(void *);
    if (size > SIZE_MAX - align - sizeof(void *))
        return NULL;
    char *base = g_malloc(size + align - 1 + sizeof(void *));
    if (base == NULL)
        return NULL;
    uintptr_t first = (uintptr_t)(base + sizeof(void *));
    size_t pad = (size_t)(((first + align - 1) & ~(uintptr_t)(align - 1)) - first);
    char *p = base + sizeof(void *) + pad;
    memcpy(p - sizeof(void *), &base, sizeof base);
    keep(base);
    return p;
}

void ntsim__aligned_free(void *ptr)
{
    if (ptr == NULL)
        return;
    void *base;
    memcpy(&base, (char *)ptr - sizeof(void *), sizeof base);
    unkeep(base);
    g_free(base);
}

bool ntsim__array_grow(void *arrp, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    size_t c = *cap ? *cap : 64;
    while (c < need) {
        if (c > SIZE_MAX / 2 / elem)
            return false;
        c *= 2;
    }
    void **arr = arrp;
    void *p = ntsim__realloc(*arr, c * elem);
    if (p == NULL)
        return false;
    *arr = p;
    *cap = c;
    return true;
}
