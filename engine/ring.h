/*
 * engine/ring.h: one NeuronCore's bounded ring of 112-byte records.
 *
 * Many producers, one consumer at a time, overwrite-oldest, no locks. The
 * protocol is described at the top of ring.c. Internal: not installed.
 */
#ifndef NTSIM_ENGINE_RING_H
#define NTSIM_ENGINE_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nrt/nrt_status.h"
#include "nrt/nrt_sys_trace_event.h"

typedef struct ntsim_ring ntsim_ring_t;

/* A claimed slot: the producer fills *rec, then commits. */
typedef struct ntsim_ring_reservation {
    nrt_sys_trace_event_t *rec; /* the slot's record; owned by the producer until commit */
    uint64_t pos;               /* the record's position: 0 for the ring's first record */
    void *slot_;                /* internal */
} ntsim_ring_reservation_t;

/* Counters of one ring; every value is exact once producers are quiet. */
typedef struct ntsim_ring_counts {
    uint64_t pushed;            /* records ever admitted (= next position) */
    uint64_t consumed;          /* records ever removed, drained or evicted */
    uint64_t drained;           /* records removed by ntsim_ring_pop */
    uint64_t overwritten;       /* records evicted by newer ones: consumed - drained */
    uint64_t busy;              /* pushes refused because a stalled thread held the slot */
    uint64_t first_overwrite_ns; /* clock at the first eviction, 0 if none */
    uint64_t last_overwrite_ns;  /* clock at the latest eviction, 0 if none */
} ntsim_ring_counts_t;

/* Creates a ring that holds `capacity` records (1 <= capacity <= 2^40).
 * Storage is zero pages mapped on first touch. NRT_INVALID for a bad
 * capacity, NRT_RESOURCE when the mapping fails. */
NRT_STATUS ntsim_ring_create(uint64_t capacity, ntsim_ring_t **out);
/* Unmaps the ring. No producer or consumer may still be using it. */
void ntsim_ring_destroy(ntsim_ring_t *ring);

uint64_t ntsim_ring_capacity(const ntsim_ring_t *ring);

/* Claims the next position, evicting the oldest record when the ring is
 * full (its time `now_ns` is kept as the overwrite time). Never blocks: if a
 * stalled thread still holds the slot after a bounded spin, returns
 * NRT_QUEUE_FULL and counts the refusal in `busy`. */
NRT_STATUS ntsim_ring_reserve(ntsim_ring_t *ring, uint64_t now_ns, ntsim_ring_reservation_t *res);
/* Publishes a reserved record to consumers. */
void ntsim_ring_commit(ntsim_ring_t *ring, const ntsim_ring_reservation_t *res);

/* Copies up to `max` records, oldest first, into out[] (112-byte stride) and
 * removes them. Returns how many. Stops early at a record whose producer has
 * not committed yet. Callers serialize pops on one ring (any producers may
 * run concurrently). */
size_t ntsim_ring_pop(ntsim_ring_t *ring, nrt_sys_trace_event_t *out, size_t max);

void ntsim_ring_counts(const ntsim_ring_t *ring, ntsim_ring_counts_t *counts);

/* Consistency check for tests, valid only while no thread uses the ring:
 * indices ordered, occupancy within capacity, every stamp what the indices
 * say it must be. */
bool ntsim_ring_valid(const ntsim_ring_t *ring);

#endif /* NTSIM_ENGINE_RING_H */
