/*
 * engine/ring.h: one NeuronCore's bounded ring of 112-byte records.
 *
 * Many producers, one consumer at a time, overwrite-oldest, no locks. The
 * protocol is described at the top of ring.c. Internal: not installed.
 */
#ifndef NTSIM_ENGINE_RING_H
#define NTSIM_ENGINE_RING_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nrt/nrt_status.h"
#include "nrt/nrt_sys_trace_event.h"

typedef struct ntsim_ring ntsim_ring_t;

/* The ring's layout is here, not in ring.c, because the producer's path
 * (reserve, commit) is inline in the emit path; the protocol it follows is
 * written out at the top of ring.c. */
/* Bounded spin before a push is refused as busy: covers a consumer copying a
 * 64-record batch (about a microsecond) with a wide margin. */
#define NTSIM_RING_SPIN_LIMIT 4096u

typedef struct ntsim_ring_slot {
    _Atomic uint64_t stamp_rel;  /* stamp minus slot index; see the protocol */
    nrt_sys_trace_event_t rec;
    uint64_t pad_;               /* 128 bytes: a slot is exactly two cache lines */
} ntsim_ring_slot_t;
_Static_assert(sizeof(ntsim_ring_slot_t) == 128, "ring slot must be 128 bytes");

struct ntsim_ring { /* the protocol: ring.c */
    _Alignas(64) _Atomic uint64_t enqueue;   /* written by producers */
    _Alignas(64) _Atomic uint64_t dequeue;   /* written by the consumer and evictors */
    _Atomic uint64_t drained;                /* written by the consumer only */
    _Alignas(64) _Atomic uint64_t busy;      /* rare: refused pushes */
    _Atomic uint64_t first_overwrite_ns;
    _Atomic uint64_t last_overwrite_ns;
    _Alignas(64) uint64_t capacity;          /* C: read-only after create */
    uint64_t slots_count;                    /* S = next_pow2(C) */
    uint64_t mask;                           /* S - 1 */
    size_t map_bytes;
    ntsim_ring_slot_t *slots;
};

static inline void ntsim__cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__ __volatile__("pause" ::: "memory");
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#endif
}

static inline ntsim_ring_slot_t *ntsim__ring_slot(const ntsim_ring_t *r, uint64_t pos)
{
    return &r->slots[pos & r->mask];
}

static inline uint64_t ntsim__ring_stamp_load(const ntsim_ring_t *r, ntsim_ring_slot_t *s)
{
    /* acquire: pairs with the release that handed the slot to us, so the
     * record bytes (or the previous reader's reads) happen before ours. */
    uint64_t index = (uint64_t)(s - r->slots);
    return atomic_load_explicit(&s->stamp_rel, memory_order_acquire) + index;
}

static inline void ntsim__ring_stamp_store(const ntsim_ring_t *r, ntsim_ring_slot_t *s, uint64_t stamp)
{
    /* release: our record writes (commit) or record reads (consumer) happen
     * before the next owner's acquire of this stamp. */
    uint64_t index = (uint64_t)(s - r->slots);
    atomic_store_explicit(&s->stamp_rel, stamp - index, memory_order_release);
}


/* A claimed slot: the producer fills *rec, then commits. */
typedef struct ntsim_ring_reservation {
    nrt_sys_trace_event_t *rec;  /* the slot's record; owned by the producer until commit */
    uint64_t pos;                /* the record's position: 0 for the ring's first record */
    _Atomic uint64_t *stamp_;    /* internal: the slot's stamp word */
    uint64_t published_;         /* internal: the stamp value that publishes the record */
} ntsim_ring_reservation_t;

/* Counters of one ring; every value is exact once producers are quiet. */
typedef struct ntsim__ring_counts {
    uint64_t pushed;            /* records ever admitted (= next position) */
    uint64_t consumed;          /* records ever removed, drained or evicted */
    uint64_t drained;           /* records removed by ntsim__ring_pop */
    uint64_t overwritten;       /* records evicted by newer ones: consumed - drained */
    uint64_t busy;              /* pushes refused because a stalled thread held the slot */
    uint64_t first_overwrite_ns; /* clock at the first eviction, 0 if none */
    uint64_t last_overwrite_ns;  /* clock at the latest eviction, 0 if none */
} ntsim_ring_counts_t;

/* Creates a ring that holds `capacity` records (1 <= capacity <= 2^40).
 * Storage is anonymous zero pages; with `prefault` they are all mapped now
 * (so that no push pays a page fault), otherwise on first touch.
 * NRT_INVALID for a bad capacity, NRT_RESOURCE when the mapping fails. */
NRT_STATUS ntsim__ring_create(uint64_t capacity, bool prefault, ntsim_ring_t **out);
/* Unmaps the ring. No producer or consumer may still be using it. */
void ntsim__ring_destroy(ntsim_ring_t *ring);

uint64_t ntsim__ring_capacity(const ntsim_ring_t *ring);

/* Producer step 1-3 of the protocol (ring.c). */
static inline void ntsim__ring_note_overwrite(ntsim_ring_t *r, uint64_t now_ns)
{
    /* Statistics only: relaxed, and a racing first writer is harmless. */
    uint64_t zero = 0;
    atomic_compare_exchange_strong_explicit(&r->first_overwrite_ns, &zero, now_ns,
                                            memory_order_relaxed, memory_order_relaxed);
    atomic_store_explicit(&r->last_overwrite_ns, now_ns, memory_order_relaxed);
}

/* Claims the next position, evicting the oldest record when the ring is
 * full (its time `now_ns` is kept as the overwrite time). Never blocks: if a
 * stalled thread still holds the slot after a bounded spin, returns
 * NRT_QUEUE_FULL and counts the refusal in `busy`. */
static inline NRT_STATUS ntsim__ring_reserve(ntsim_ring_t *r, uint64_t now_ns,
                                            ntsim_ring_reservation_t *res)
{
    unsigned spins = 0;
    for (;;) {
        /* Index loads are relaxed: a stale value only makes a CAS fail or a
         * stamp check miss, and the loop retries. */
        uint64_t w = atomic_load_explicit(&r->enqueue, memory_order_relaxed);
        uint64_t d = atomic_load_explicit(&r->dequeue, memory_order_relaxed);
        int64_t used = (int64_t)(w - d);
        if (used < 0)
            continue; /* w is older than d: reload both */
        if ((uint64_t)used >= r->capacity) {
            /* Full: evict the oldest record, d. */
            ntsim_ring_slot_t *sd = ntsim__ring_slot(r, d);
            uint64_t st = ntsim__ring_stamp_load(r, sd);
            if (st == d + 1) {
                if (atomic_compare_exchange_strong_explicit(&r->dequeue, &d, d + 1,
                                                            memory_order_relaxed,
                                                            memory_order_relaxed)) {
                    ntsim__ring_stamp_store(r, sd, d + r->slots_count);
                    ntsim__ring_note_overwrite(r, now_ns);
                }
                continue;
            }
            if (atomic_load_explicit(&r->dequeue, memory_order_relaxed) != d)
                continue;
            /* Record d is claimed but not committed: its producer stalls. */
        } else {
            ntsim_ring_slot_t *sw = ntsim__ring_slot(r, w);
            if (ntsim__ring_stamp_load(r, sw) == w) {
                if (atomic_compare_exchange_weak_explicit(&r->enqueue, &w, w + 1,
                                                          memory_order_relaxed,
                                                          memory_order_relaxed)) {
                    /* The next pushes walk the ring in order: ask for the
                     * slot two ahead (both lines) now, so that a large ring
                     * streaming through memory does not stall each push on
                     * a cache miss. A hint only; no ordering. */
                    ntsim_ring_slot_t *ahead = ntsim__ring_slot(r, w + 2);
                    __builtin_prefetch(ahead, 1);
                    __builtin_prefetch((char *)ahead + 64, 1);
                    res->rec = &sw->rec;
                    res->pos = w;
                    res->stamp_ = &sw->stamp_rel;
                    /* stamp w + 1, stored minus the slot index (see stamp_store) */
                    res->published_ = w + 1 - (uint64_t)(sw - r->slots);
                    return NRT_SUCCESS;
                }
                continue;
            }
            if (atomic_load_explicit(&r->enqueue, memory_order_relaxed) != w)
                continue;
            /* Slot w's previous record was consumed but is not released yet. */
        }
        if (++spins < NTSIM_RING_SPIN_LIMIT) {
            ntsim__cpu_relax();
            continue;
        }
        atomic_fetch_add_explicit(&r->busy, 1, memory_order_relaxed);
        return NRT_QUEUE_FULL;
    }
}


/* Publishes a reserved record to consumers. Inline: it is one store on the
 * emit path. */
static inline void ntsim__ring_commit(const ntsim_ring_reservation_t *res)
{
    /* release: the record's bytes happen before a consumer's acquire of
     * this stamp (ring.c, "Ordering"). */
    atomic_store_explicit(res->stamp_, res->published_, memory_order_release);
}

/* Copies up to `max` records, oldest first, into out[] (112-byte stride) and
 * removes them. Returns how many. Stops early at a record whose producer has
 * not committed yet. Callers serialize pops on one ring (any producers may
 * run concurrently). */
size_t ntsim__ring_pop(ntsim_ring_t *ring, nrt_sys_trace_event_t *out, size_t max);

void ntsim__ring_counts(const ntsim_ring_t *ring, ntsim_ring_counts_t *counts);

/* Consistency check for tests, valid only while no thread uses the ring:
 * indices ordered, occupancy within capacity, every stamp what the indices
 * say it must be. */
bool ntsim__ring_valid(const ntsim_ring_t *ring);

#endif /* NTSIM_ENGINE_RING_H */
