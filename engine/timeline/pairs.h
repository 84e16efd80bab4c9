/*
 * engine/timeline/pairs.h: START and STOP paired as D-TIMELINE pairs them,
 * one record at a time: a START opens a span under its key (trace_type,
 * nc_idx, tracking_id); a STOP closes the innermost span still open under
 * its key (so a key reused while nested pairs inside out), or is unmatched
 * when none is. The timeline's model (timeline.c) and `ntsim stats`
 * (engine/analyze/stats.c) pair through this one piece, so that a span is
 * the same span in both. Internal.
 *
 * Memory: the keys with an open span and, per open span, `elem` bytes the
 * caller stores with it (a STOP hands them back). A key whose spans are all
 * closed keeps its slot until the table is next rebuilt, which drops it:
 * the table is at most 4 slots per open key plus the keys closed since the
 * last rebuild, and a rebuild happens after as many new keys as the table
 * had free, so the work stays constant per record on average.
 */
#ifndef NTSIM_ENGINE_TIMELINE_PAIRS_H
#define NTSIM_ENGINE_TIMELINE_PAIRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nrt/nrt_status.h"

typedef struct ntsim__pair_slot {
    uint64_t tracking;
    uint32_t type, nc;
    size_t head;              /* innermost open span's node + 1; 0: none open */
    bool used;
} ntsim__pair_slot_t;

typedef struct ntsim__pairs {
    ntsim__pair_slot_t *slots; /* open addressing, linear probing; a power of two */
    size_t cap, used;          /* slots, and slots holding a key (open or not) */
    unsigned char *nodes;      /* per open span: the node below it + 1, then elem bytes */
    size_t elem, node_size, node_cap, node_count;
    size_t free_node;          /* a freed node + 1, the next one in its link; 0: none */
    size_t open;               /* spans open now */
} ntsim__pairs_t;

/* An empty pairing whose spans carry `elem` bytes each (0 allowed). */
void ntsim__pairs_init(ntsim__pairs_t *p, size_t elem);
/* Frees what p holds; p may be reused after ntsim__pairs_init. */
void ntsim__pairs_free(ntsim__pairs_t *p);
/* A START: opens a span under the key, carrying elem bytes from val.
 * NRT_RESOURCE when memory runs out (p unchanged). */
NRT_STATUS ntsim__pairs_start(ntsim__pairs_t *p, uint32_t type, uint32_t nc, uint64_t tracking,
                              const void *val);
/* A STOP: closes the innermost span open under the key and copies its elem
 * bytes to val; false when none is open (an unmatched STOP). */
bool ntsim__pairs_stop(ntsim__pairs_t *p, uint32_t type, uint32_t nc, uint64_t tracking,
                       void *val);

#endif /* NTSIM_ENGINE_TIMELINE_PAIRS_H */
