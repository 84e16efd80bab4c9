/*
 * engine/capture/ring.h: one NeuronCore's bounded ring of 112-byte records.
 *
 * Many producers, one consumer at a time, overwrite-oldest, no locks; one
 * producer that owns the ring claims without a locked instruction. The
 * protocol is written out at the top of ring.c (steps P1-P4, C1-C5 and
 * Ownership, cited below). Internal: not installed.
 */
#ifndef NTSIM_ENGINE_RING_H
#define NTSIM_ENGINE_RING_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grace.h"
#include "nrt/nrt_status.h"
#include "nrt/nrt_sys_trace_event.h"

typedef struct ntsim_ring ntsim_ring_t;

/* Bounded spin before a push is refused as busy: covers a consumer copying
 * one batch (NTSIM_RING_POP_BATCH records, a few microseconds) with a wide
 * margin. */
#define NTSIM_RING_SPIN_LIMIT 4096u
/* M of the protocol: with membarrier, the owner's claim of every M-th
 * position is seq_cst, the others plain stores. */
#define NTSIM_RING_FENCE_PERIOD UINT64_C(64)
/* How many slots ahead the owner prefetches (the next pushes' lines): far
 * enough that a miss to memory (~100 ns here) ends before the push that
 * needs it, at ~20 ns per push. */
#ifndef NTSIM_RING_PREFETCH_AHEAD
#define NTSIM_RING_PREFETCH_AHEAD 2
#endif

/* Stamp states (ring.c, "Storage"): stamp = 4 * position + state. */
enum { NTSIM_STAMP_FREE = 0, NTSIM_STAMP_PUBLISHED = 1, NTSIM_STAMP_YIELDED = 2 };

/* owner values besides a thread pointer (ntsim_thread_t is 64-byte aligned,
 * so its low bits are free). */
#define NTSIM_RING_OWNER_NONE ((uintptr_t)0)
#define NTSIM_RING_OWNER_SHARED ((uintptr_t)1)
#define NTSIM_RING_OWNER_REVOKING ((uintptr_t)2) /* or'ed with the owner */

/* One slot: a record and the stamp of its position, 128 bytes, so that a
 * push writes exactly two cache lines that no other push shares. */
typedef struct ntsim_ring_slot {
    nrt_sys_trace_event_t rec;
    _Atomic uint64_t stamp;      /* stamp minus 4 * slot index; see the protocol */
    uint64_t pad_;
} ntsim_ring_slot_t;
_Static_assert(sizeof(ntsim_ring_slot_t) == 128, "ring slot must be 128 bytes");

/* The ring's layout is here, not in ring.c, because the producer's path
 * (reserve, commit) is inline in the emit path. */
struct ntsim_ring {
    /* Producers' line: written by the claiming producer. */
    _Alignas(64) _Atomic uint64_t head;         /* H: next position to claim */
    _Atomic uint64_t oseq;                      /* odd while the owner claims; only the owner writes */
    _Atomic uint64_t busy;                      /* refused pushes */
    _Atomic uint64_t first_overwrite_ns;        /* clock at the first eviction, 0 if none */
    _Atomic uint64_t last_overwrite_ns;         /* clock at the latest eviction */
    /* Consumer's line: written by the consumer only. */
    _Alignas(64) _Atomic uint64_t claim;        /* K */
    _Atomic uint64_t release;                   /* R */
    _Atomic uint64_t drained;                   /* records handed out by ntsim__ring_pop */
    /* Read-mostly: owner changes at most three times a session. */
    _Alignas(64) _Atomic uintptr_t owner;       /* Ownership: NONE, thread, REVOKING|thread, SHARED */
    uint64_t capacity;                          /* C: records, and slots; read-only */
    uint64_t mask;                              /* C - 1 */
    bool pow2;                                  /* C is a power of two: slot = pos & mask */
    ntsim_ring_slot_t *slots;                   /* C slots */
    size_t map_bytes;
};

static inline void ntsim__cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__ __volatile__("pause" ::: "memory");
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#endif
}

static inline uint64_t ntsim__ring_slot(const ntsim_ring_t *r, uint64_t pos)
{
    return r->pow2 ? pos & r->mask : pos % r->capacity;
}

static inline uint64_t ntsim__stamp(uint64_t pos, unsigned state)
{
    return pos << 2 | state;
}

/* The logical stamp of slot j (acquire: pairs with the release that wrote
 * it, so the record it describes is visible to us). */
static inline uint64_t ntsim__ring_stamp_load(const ntsim_ring_t *r, uint64_t j)
{
    return atomic_load_explicit(&r->slots[j].stamp, memory_order_acquire) + (j << 2);
}

/* A claimed slot: the producer fills *rec, then commits. */
typedef struct ntsim_ring_reservation {
    nrt_sys_trace_event_t *rec;  /* the slot's record; owned by the producer until commit */
    uint64_t pos;                /* the record's position: 0 for the ring's first record */
    _Atomic uint64_t *stamp_;    /* internal: the slot's stamp word */
    uint64_t published_;         /* internal: the stored stamp that publishes the record */
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
 * Storage is anonymous zero pages; with `prefault` they are all mapped and
 * touched now (so that no push pays a page fault), otherwise on first touch.
 * NRT_INVALID for a bad capacity, NRT_RESOURCE when the mapping fails. */
NRT_STATUS ntsim__ring_create(uint64_t capacity, bool prefault, ntsim_ring_t **out);
/* Unmaps the ring. No producer or consumer may still be using it. */
void ntsim__ring_destroy(ntsim_ring_t *ring);

uint64_t ntsim__ring_capacity(const ntsim_ring_t *ring);

/* The ways P1 can end. */
typedef enum { NTSIM__PRE_OK, NTSIM__PRE_WAIT, NTSIM__PRE_STALE } ntsim__ring_pre_t;

/* P1 for position w: may slot j be claimed for w? WAIT: the previous record
 * is not committed, or the consumer is copying it; STALE: w is already
 * claimed by someone else (a shared producer read an old H). */
static inline ntsim__ring_pre_t ntsim__ring_precheck(ntsim_ring_t *r, uint64_t w, uint64_t j)
{
    uint64_t st = ntsim__ring_stamp_load(r, j);
    if (w < r->capacity)
        return st == ntsim__stamp(w, NTSIM_STAMP_FREE) ? NTSIM__PRE_OK
               : st > ntsim__stamp(w, NTSIM_STAMP_FREE) ? NTSIM__PRE_STALE
                                                        : NTSIM__PRE_WAIT;
    uint64_t p = w - r->capacity;
    if (st < ntsim__stamp(p, NTSIM_STAMP_PUBLISHED))
        return NTSIM__PRE_WAIT; /* record p is claimed but not committed */
    if (st >= ntsim__stamp(w, NTSIM_STAMP_FREE))
        return NTSIM__PRE_STALE;
    /* Relaxed K is enough here: P3 decides with a seq_cst read; this only
     * avoids claiming a slot we would have to give back. Acquire R: pairs
     * with the consumer's release, its reads of p before our writes. */
    if (p < atomic_load_explicit(&r->claim, memory_order_relaxed) &&
        p >= atomic_load_explicit(&r->release, memory_order_acquire))
        return NTSIM__PRE_WAIT; /* the consumer is copying p */
    return NTSIM__PRE_OK;
}

/* P3's eviction: the times live on the producers' line, which the claim
 * just wrote. `owned`: only this thread writes them (plain stores). */
static inline void ntsim__ring_note_overwrite(ntsim_ring_t *r, uint64_t now_ns, bool owned)
{
    /* Statistics only: relaxed. Racing shared evictors may store last out
     * of order; first is written once, and read before any CAS. */
    atomic_store_explicit(&r->last_overwrite_ns, now_ns, memory_order_relaxed);
    if (atomic_load_explicit(&r->first_overwrite_ns, memory_order_relaxed) != 0)
        return;
    if (owned) {
        atomic_store_explicit(&r->first_overwrite_ns, now_ns, memory_order_relaxed);
    } else {
        uint64_t zero = 0;
        atomic_compare_exchange_strong_explicit(&r->first_overwrite_ns, &zero, now_ns,
                                                memory_order_relaxed, memory_order_relaxed);
    }
}

static inline void ntsim__ring_fill(ntsim_ring_t *r, uint64_t w, uint64_t j,
                                    ntsim_ring_reservation_t *res)
{
    res->rec = &r->slots[j].rec;
    res->pos = w;
    res->stamp_ = &r->slots[j].stamp;
    res->published_ = ntsim__stamp(w, NTSIM_STAMP_PUBLISHED) - (j << 2);
}

/* P1-P3 for the owner (oseq is odd around this call). Plain claims; every
 * M-th one, and every one without membarrier, is a seq_cst store. */
static inline NRT_STATUS ntsim__ring_claim_owned(ntsim_ring_t *r, uint64_t now_ns,
                                                 ntsim_ring_reservation_t *res)
{
    uint64_t fence_every = atomic_load_explicit(&ntsim__grace_fence_mode, memory_order_relaxed)
                               ? 1 : NTSIM_RING_FENCE_PERIOD;
    unsigned spins = 0;
    for (;;) {
        /* Only this thread writes H while it owns the ring. */
        uint64_t w = atomic_load_explicit(&r->head, memory_order_relaxed);
        uint64_t j = ntsim__ring_slot(r, w);
        if (ntsim__ring_precheck(r, w, j) == NTSIM__PRE_OK) {
            /* P2. seq_cst every M-th claim: the consumer's C4 relies on it
             * to know which pushes will read its K. */
            if ((w & (fence_every - 1)) == 0)
                atomic_store_explicit(&r->head, w + 1, memory_order_seq_cst);
            else
                atomic_store_explicit(&r->head, w + 1, memory_order_relaxed);
            /* The owner's next pushes walk the ring in order: ask for the
             * slot two ahead (both lines) now, so that a large ring
             * streaming through memory does not stall each push on a cache
             * miss. A hint only; no ordering. (Shared producers do the
             * same in ring.c: the slot ahead may be another producer's
             * next, which then takes the line from this CPU's cache,
             * still sooner than from memory.) */
            uint64_t ahead = j + NTSIM_RING_PREFETCH_AHEAD;
            if (ahead >= r->capacity)
                ahead -= r->capacity;
            if (ahead >= r->capacity) /* a ring smaller than the distance */
                ahead = 0;
            __builtin_prefetch(&r->slots[ahead], 1);
            __builtin_prefetch((char *)&r->slots[ahead] + 64, 1);
            if (w < r->capacity) {
                ntsim__ring_fill(r, w, j, res);
                return NRT_SUCCESS;
            }
            /* P3. seq_cst: the consumer's K store and H load are seq_cst. */
            uint64_t p = w - r->capacity;
            if (p >= atomic_load_explicit(&r->claim, memory_order_seq_cst)) {
                ntsim__ring_note_overwrite(r, now_ns, true);
                ntsim__ring_fill(r, w, j, res);
                return NRT_SUCCESS;
            }
            /* acquire: the consumer's reads of p happen before our writes. */
            if (p < atomic_load_explicit(&r->release, memory_order_acquire)) {
                ntsim__ring_fill(r, w, j, res);
                return NRT_SUCCESS;
            }
            /* The consumer took p after P1: tell it we yield (it need not
             * wait for us), give w back, and wait in P1 for its release. */
            atomic_store_explicit(&r->slots[j].stamp, ntsim__stamp(p, NTSIM_STAMP_YIELDED) - (j << 2),
                                  memory_order_release);
            atomic_store_explicit(&r->head, w, memory_order_relaxed);
        }
        if (++spins < NTSIM_RING_SPIN_LIMIT) {
            ntsim__cpu_relax();
            continue;
        }
        /* Only this thread writes busy while it owns the ring. */
        atomic_store_explicit(&r->busy, atomic_load_explicit(&r->busy, memory_order_relaxed) + 1,
                              memory_order_relaxed);
        return NRT_QUEUE_FULL;
    }
}

/* Everything but the owner's fast path: taking ownership, revoking it, and
 * the shared (CAS) claim. In ring.c. */
NRT_STATUS ntsim__ring_reserve_slow(ntsim_ring_t *r, uint64_t now_ns, ntsim_thread_t *self,
                                    ntsim_ring_reservation_t *res);

/* Claims the next position for `self`, evicting the oldest record when the
 * ring is full (its time `now_ns` is kept as the overwrite time). Never
 * blocks on another producer: if the slot is still held after a bounded
 * spin, returns NRT_QUEUE_FULL and counts the refusal in `busy`. */
static inline NRT_STATUS ntsim__ring_reserve(ntsim_ring_t *r, uint64_t now_ns,
                                            ntsim_thread_t *self,
                                            ntsim_ring_reservation_t *res)
{
    uintptr_t me = (uintptr_t)self;
    if (atomic_load_explicit(&r->owner, memory_order_relaxed) == me) {
        uint64_t s = atomic_load_explicit(&r->oseq, memory_order_relaxed);
        if (atomic_load_explicit(&ntsim__grace_fence_mode, memory_order_relaxed)) {
            /* seq_cst RMW: with the revoker's seq_cst CAS of owner and
             * load of oseq, one of us sees the other (Dekker). */
            atomic_exchange_explicit(&r->oseq, s + 1, memory_order_seq_cst);
        } else {
            /* membarrier: the revoker forces the hardware barrier on this
             * thread; only the compiler must keep the order. */
            atomic_store_explicit(&r->oseq, s + 1, memory_order_relaxed);
            atomic_signal_fence(memory_order_seq_cst);
        }
        if (atomic_load_explicit(&r->owner, memory_order_seq_cst) == me) {
            NRT_STATUS st = ntsim__ring_claim_owned(r, now_ns, res);
            /* release: our plain writes of H, busy and the overwrite times
             * happen before a revoker's acquire of oseq. */
            atomic_store_explicit(&r->oseq, s + 2, memory_order_release);
            return st;
        }
        atomic_store_explicit(&r->oseq, s + 2, memory_order_release);
    }
    return ntsim__ring_reserve_slow(r, now_ns, self, res);
}

/* P4: publishes a reserved record to the consumer. */
static inline void ntsim__ring_commit(const ntsim_ring_reservation_t *res)
{
    /* release: the record's bytes happen before the consumer's acquire of
     * this stamp (C2). */
    atomic_store_explicit(res->stamp_, res->published_, memory_order_release);
}

/* Copies up to `max` records, oldest first, into out[] (112-byte stride) and
 * removes them. Returns how many. Stops early at a record whose producer has
 * not committed yet. Callers serialize pops on one ring (any producers may
 * run concurrently). */
size_t ntsim__ring_pop(ntsim_ring_t *ring, nrt_sys_trace_event_t *out, size_t max);

void ntsim__ring_counts(const ntsim_ring_t *ring, ntsim_ring_counts_t *counts);

/* Consistency check for tests, valid only while no thread uses the ring:
 * positions ordered, occupancy within capacity, every stamp what the
 * positions say it must be. */
bool ntsim__ring_valid(const ntsim_ring_t *ring);

/* Test hooks (conformance/unit/engine/capture/), never on the emit path: make a
 * ring nothing was pushed into read as if pos >= C records had been pushed
 * and drained, so that a test reaches positions near 2^50 (F5.emit.seq).
 * Only while no thread uses the ring; false, nothing changed, if it was
 * used or pos < C. ntsim__capture_skip_to (capture.c) does it to the ring
 * of a capturing NC; false if the NC has none. */
bool ntsim__ring_skip_to(ntsim_ring_t *ring, uint64_t pos);
bool ntsim__capture_skip_to(uint32_t nc_idx, uint64_t pos);

#endif /* NTSIM_ENGINE_RING_H */
