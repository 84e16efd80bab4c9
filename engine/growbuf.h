/*
 * engine/growbuf.h: the growable byte buffer the writers build their
 * output in (json.c's text, ntff.c's protobuf stream, notify.c's EXPLICIT
 * payloads per TopSP). Internal.
 *
 * Writers reserve before they write, never while writing: json.c reserves
 * the whole document's bound before draining anything (so running out of
 * memory loses no captured event), ntff.c an event's bound per event.
 */
#ifndef NTSIM_ENGINE_GROWBUF_H
#define NTSIM_ENGINE_GROWBUF_H

#ifndef NTSIM_ENGINE_INTERNAL
#error "engine-private header: only engine/ and conformance/unit/ may include it (make layers)"
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "alloc.h"
#include "nrt/nrt_status.h"

typedef struct ntsim_growbuf {
    unsigned char *data; /* malloc'd; the caller owns it (free or hand it out) */
    size_t len;          /* bytes written */
    size_t cap;          /* bytes allocated */
} ntsim_growbuf_t;

/* Makes room for `more` bytes past len, doubling from 4 KiB; NRT_RESOURCE
 * (the buffer unchanged) when the size would overflow or realloc fails. */
static inline NRT_STATUS ntsim__growbuf_reserve(ntsim_growbuf_t *b, size_t more)
{
    if (more > SIZE_MAX - b->len)
        return NRT_RESOURCE;
    size_t need = b->len + more;
    if (need <= b->cap)
        return NRT_SUCCESS;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < need) {
        if (cap > SIZE_MAX / 2)
            return NRT_RESOURCE;
        cap *= 2;
    }
    unsigned char *d = ntsim__realloc(b->data, cap);
    if (d == NULL)
        return NRT_RESOURCE;
    b->data = d;
    b->cap = cap;
    return NRT_SUCCESS;
}

#endif /* NTSIM_ENGINE_GROWBUF_H */
