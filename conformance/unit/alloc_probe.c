/* conformance/unit/alloc_probe.c: the counting, failing allocator of alloc_probe.h. */
#include "alloc_probe.h"

#include <stdlib.h>
#include <string.h>

#include "ntsim/capture.h"

ntsim_alloc_probe_t ntsim_probe;

/* The blocks handed out and not yet freed, unordered, with their sizes. */
#define LIVE_MAX 65536
static void *g_live[LIVE_MAX];
static size_t g_size[LIVE_MAX];
static uint64_t g_allow;
static int g_fill = -1; /* the byte new memory reads as; -1: as the heap left it */

static void remember(void *p, size_t size)
{
    if (p != NULL && ntsim_probe.live < LIVE_MAX) {
        g_size[ntsim_probe.live] = size;
        g_live[ntsim_probe.live++] = p;
    }
}

/* Forgets p; returns 1 and its size in *size when it was remembered. */
static int forget(void *p, size_t *size)
{
    for (size_t i = 0; i < ntsim_probe.live; i++)
        if (g_live[i] == p) {
            if (size != NULL)
                *size = g_size[i];
            ntsim_probe.live--;
            g_live[i] = g_live[ntsim_probe.live];
            g_size[i] = g_size[ntsim_probe.live];
            return 1;
        }
    return 0;
}

static int admit(ntsim_probe_kind_t kind, size_t count, size_t size)
{
    if (ntsim_probe.ncalls < NTSIM_PROBE_CALLS_MAX)
        ntsim_probe.calls[ntsim_probe.ncalls++] = (ntsim_probe_call_t){kind, count, size};
    if (g_allow == 0) {
        ntsim_probe.refused++;
        return 0;
    }
    if (g_allow != UINT64_MAX)
        g_allow--;
    return 1;
}

static void *probe_malloc(size_t size)
{
    if (!admit(NTSIM_PROBE_MALLOC, 1, size))
        return NULL;
    void *p = malloc(size);
    ntsim_probe.allocs += p != NULL;
    if (p != NULL && g_fill >= 0)
        memset(p, g_fill, size);
    remember(p, size);
    return p;
}

static void *probe_calloc(size_t count, size_t size)
{
    if (!admit(NTSIM_PROBE_CALLOC, count, size))
        return NULL;
    void *p = calloc(count, size);
    ntsim_probe.allocs += p != NULL;
    remember(p, count * size);
    return p;
}

static void *probe_realloc(void *ptr, size_t size)
{
    if (!admit(NTSIM_PROBE_REALLOC, 1, size))
        return NULL;
    size_t old = 0;
    int known = ptr != NULL && forget(ptr, &old);
    void *p = realloc(ptr, size);
    if (p == NULL) {
        if (known)
            remember(ptr, old); /* still the caller's block */
        return NULL;
    }
    if (ptr == NULL)
        ntsim_probe.allocs++;
    /* A block from before the probe: its size is unknown, so its new part is
     * not filled. */
    if (g_fill >= 0 && (ptr == NULL || known) && size > old)
        memset((unsigned char *)p + old, g_fill, size - old);
    remember(p, size);
    return p;
}

static void probe_free(void *ptr)
{
    if (ptr != NULL && forget(ptr, NULL))
        ntsim_probe.frees++;
    free(ptr);
}

void ntsim_probe_begin_filled(uint64_t allow, unsigned char fill)
{
    ntsim_probe_begin(allow);
    g_fill = fill;
}

void ntsim_probe_begin(uint64_t allow)
{
    memset(&ntsim_probe, 0, sizeof ntsim_probe);
    g_fill = -1;
    g_allow = allow;
    (void)ntsim_replace_allocator(probe_malloc, probe_realloc, probe_calloc, probe_free);
}

void ntsim_probe_end(void)
{
    (void)ntsim_replace_allocator(NULL, NULL, NULL, NULL);
    g_fill = -1;
}
