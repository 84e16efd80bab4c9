/*
 * engine/ring.c: the per-NeuronCore record ring.
 *
 * Protocol (a bounded MPMC queue in the style of Vyukov's, with the
 * producer evicting the oldest record when full):
 *
 *   Positions are free-running 64-bit counters, compared only by difference.
 *     enqueue  next position a producer will claim       (producers' line)
 *     dequeue  oldest position still in the ring         (consumer's line)
 *   The ring holds `capacity` records (C) in S = next_pow2(C) slots of 128
 *   bytes; position p lives in slot p & (S - 1). Occupancy enqueue - dequeue
 *   never exceeds C.
 *
 *   Each slot has a stamp that says who may touch it next:
 *     stamp == p        free: the producer of position p may write it
 *     stamp == p + 1    published: record p is readable
 *     stamp == p + S    released after record p was consumed: free for p + S
 *   (Stored minus the slot index, so that the zero pages of a fresh mapping
 *   read as "stamp == index": every slot free for its first lap.)
 *
 *   Producer (reserve, commit):
 *     1. w = enqueue, d = dequeue.
 *     2. If w - d >= C the ring is full: if stamp[d] == d + 1, CAS dequeue
 *        d -> d+1 (evicting record d, counted as overwritten), then release
 *        the slot with stamp[d] = d + S; retry from 1. If record d is not
 *        published yet, its producer is stalled: busy.
 *     3. If stamp[w] == w, CAS enqueue w -> w+1. The winner owns slot w
 *        exclusively: nobody else can write stamp[w] until it publishes.
 *     4. Fill the record, then stamp[w] = w + 1 (release): commit.
 *     If the slot's previous record was consumed but not yet released (a
 *     consumer or evictor between its CAS and its release), spin a bounded
 *     number of times, then refuse the push and count it as busy. A
 *     producer never waits unboundedly on another thread.
 *
 *   Consumer (pop; one at a time per ring):
 *     1. d = dequeue; count k consecutive published slots d .. d+k-1.
 *     2. CAS dequeue d -> d+k claims all k at once (an evictor may win the
 *        race for d; then retry).
 *     3. Copy the k records out, then release each slot: stamp = p + S.
 *     A slot whose producer has not committed ends the pop: records are
 *     handed out strictly oldest first and never out of order.
 *
 *   Ordering: a stamp store-release (commit, release) pairs with the
 *   stamp load-acquire of the next owner of the slot; that edge is what
 *   orders the record bytes between producer and consumer, and between a
 *   consumer's reads and the next lap's writes. The index CASes only decide
 *   ownership; they need no ordering of their own.
 *
 *   A record is therefore never torn, never delivered twice, and never lost
 *   without a count: every admitted position ends drained, overwritten or
 *   still in the ring; every refused push is counted as busy.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "ring.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Bounded spin before a push is refused as busy: covers a consumer copying a
 * 64-record batch (about a microsecond) with a wide margin. */
#define NTSIM_RING_SPIN_LIMIT 4096u
/* Records claimed by one consumer CAS. */
#define NTSIM_RING_POP_BATCH 64u

typedef struct ntsim_ring_slot {
    _Atomic uint64_t stamp_rel;  /* stamp minus slot index; see the protocol */
    nrt_sys_trace_event_t rec;
    uint64_t pad_;               /* 128 bytes: a slot is exactly two cache lines */
} ntsim_ring_slot_t;
_Static_assert(sizeof(ntsim_ring_slot_t) == 128, "ring slot must be 128 bytes");

struct ntsim_ring {
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

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__ __volatile__("pause" ::: "memory");
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#endif
}

static inline ntsim_ring_slot_t *slot_of(const ntsim_ring_t *r, uint64_t pos)
{
    return &r->slots[pos & r->mask];
}

static inline uint64_t stamp_load(const ntsim_ring_t *r, ntsim_ring_slot_t *s)
{
    /* acquire: pairs with the release that handed the slot to us, so the
     * record bytes (or the previous reader's reads) happen before ours. */
    uint64_t index = (uint64_t)(s - r->slots);
    return atomic_load_explicit(&s->stamp_rel, memory_order_acquire) + index;
}

static inline void stamp_store(const ntsim_ring_t *r, ntsim_ring_slot_t *s, uint64_t stamp)
{
    /* release: our record writes (commit) or record reads (consumer) happen
     * before the next owner's acquire of this stamp. */
    uint64_t index = (uint64_t)(s - r->slots);
    atomic_store_explicit(&s->stamp_rel, stamp - index, memory_order_release);
}

NRT_STATUS ntsim_ring_create(uint64_t capacity, ntsim_ring_t **out)
{
    *out = NULL;
    if (capacity == 0 || capacity > (UINT64_C(1) << 40))
        return NRT_INVALID;
    uint64_t s = 1;
    while (s < capacity)
        s <<= 1;
    ntsim_ring_t *r = NULL;
    if (posix_memalign((void **)&r, 64, sizeof *r) != 0)
        return NRT_RESOURCE;
    memset(r, 0, sizeof *r);
    r->capacity = capacity;
    r->slots_count = s;
    r->mask = s - 1;
    r->map_bytes = (size_t)(s * sizeof(ntsim_ring_slot_t));
    void *map = mmap(NULL, r->map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                     -1, 0);
    if (map == MAP_FAILED) {
        free(r);
        return NRT_RESOURCE;
    }
    r->slots = map;
    *out = r;
    return NRT_SUCCESS;
}

void ntsim_ring_destroy(ntsim_ring_t *ring)
{
    if (ring == NULL)
        return;
    munmap(ring->slots, ring->map_bytes);
    free(ring);
}

uint64_t ntsim_ring_capacity(const ntsim_ring_t *ring)
{
    return ring->capacity;
}

static void note_overwrite(ntsim_ring_t *r, uint64_t now_ns)
{
    /* Statistics only: relaxed, and a racing first writer is harmless. */
    uint64_t zero = 0;
    atomic_compare_exchange_strong_explicit(&r->first_overwrite_ns, &zero, now_ns,
                                            memory_order_relaxed, memory_order_relaxed);
    atomic_store_explicit(&r->last_overwrite_ns, now_ns, memory_order_relaxed);
}

NRT_STATUS ntsim_ring_reserve(ntsim_ring_t *r, uint64_t now_ns, ntsim_ring_reservation_t *res)
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
            ntsim_ring_slot_t *sd = slot_of(r, d);
            uint64_t st = stamp_load(r, sd);
            if (st == d + 1) {
                if (atomic_compare_exchange_strong_explicit(&r->dequeue, &d, d + 1,
                                                            memory_order_relaxed,
                                                            memory_order_relaxed)) {
                    stamp_store(r, sd, d + r->slots_count);
                    note_overwrite(r, now_ns);
                }
                continue;
            }
            if (atomic_load_explicit(&r->dequeue, memory_order_relaxed) != d)
                continue;
            /* Record d is claimed but not committed: its producer stalls. */
        } else {
            ntsim_ring_slot_t *sw = slot_of(r, w);
            if (stamp_load(r, sw) == w) {
                if (atomic_compare_exchange_weak_explicit(&r->enqueue, &w, w + 1,
                                                          memory_order_relaxed,
                                                          memory_order_relaxed)) {
                    res->rec = &sw->rec;
                    res->pos = w;
                    res->slot_ = sw;
                    return NRT_SUCCESS;
                }
                continue;
            }
            if (atomic_load_explicit(&r->enqueue, memory_order_relaxed) != w)
                continue;
            /* Slot w's previous record was consumed but is not released yet. */
        }
        if (++spins < NTSIM_RING_SPIN_LIMIT) {
            cpu_relax();
            continue;
        }
        atomic_fetch_add_explicit(&r->busy, 1, memory_order_relaxed);
        return NRT_QUEUE_FULL;
    }
}

void ntsim_ring_commit(ntsim_ring_t *r, const ntsim_ring_reservation_t *res)
{
    stamp_store(r, res->slot_, res->pos + 1);
}

size_t ntsim_ring_pop(ntsim_ring_t *r, nrt_sys_trace_event_t *out, size_t max)
{
    size_t n = 0;
    while (n < max) {
        uint64_t d = atomic_load_explicit(&r->dequeue, memory_order_relaxed);
        uint64_t want = max - n < NTSIM_RING_POP_BATCH ? max - n : NTSIM_RING_POP_BATCH;
        uint64_t k = 0;
        while (k < want && stamp_load(r, slot_of(r, d + k)) == d + k + 1)
            k++;
        if (k == 0) {
            if (atomic_load_explicit(&r->dequeue, memory_order_relaxed) != d)
                continue; /* an evictor moved the oldest record on: look again */
            break;        /* empty, or record d not committed yet */
        }
        if (!atomic_compare_exchange_strong_explicit(&r->dequeue, &d, d + k,
                                                     memory_order_relaxed,
                                                     memory_order_relaxed))
            continue; /* an evictor took record d first */
        for (uint64_t i = 0; i < k; i++) {
            ntsim_ring_slot_t *s = slot_of(r, d + i);
            memcpy(&out[n + i], &s->rec, sizeof(nrt_sys_trace_event_t));
            stamp_store(r, s, d + i + r->slots_count);
        }
        n += (size_t)k;
    }
    /* Only the (serialized) consumer writes drained. */
    uint64_t drained = atomic_load_explicit(&r->drained, memory_order_relaxed);
    atomic_store_explicit(&r->drained, drained + n, memory_order_relaxed);
    return n;
}

void ntsim_ring_counts(const ntsim_ring_t *r, ntsim_ring_counts_t *c)
{
    ntsim_ring_t *m = (ntsim_ring_t *)r; /* C11 atomics loads take non-const pointers */
    c->drained = atomic_load_explicit(&m->drained, memory_order_relaxed);
    c->consumed = atomic_load_explicit(&m->dequeue, memory_order_relaxed);
    c->pushed = atomic_load_explicit(&m->enqueue, memory_order_relaxed);
    c->busy = atomic_load_explicit(&m->busy, memory_order_relaxed);
    c->first_overwrite_ns = atomic_load_explicit(&m->first_overwrite_ns, memory_order_relaxed);
    c->last_overwrite_ns = atomic_load_explicit(&m->last_overwrite_ns, memory_order_relaxed);
    /* drained is read first: it only grows, so consumed - drained never underflows. */
    c->overwritten = c->consumed - c->drained;
}

bool ntsim_ring_valid(const ntsim_ring_t *r)
{
    ntsim_ring_counts_t c;
    ntsim_ring_counts(r, &c);
    if (c.consumed > c.pushed || c.pushed - c.consumed > r->capacity || c.drained > c.consumed)
        return false;
    if (r->slots_count < r->capacity || (r->slots_count & r->mask) != 0)
        return false;
    /* Every slot: the positions that map to it below `consumed` are released,
     * those in [consumed, pushed) published, the rest free. */
    for (uint64_t j = 0; j < r->slots_count; j++) {
        ntsim_ring_slot_t *s = &r->slots[j];
        uint64_t st = stamp_load(r, s);
        /* The latest position p < pushed with p ≡ j (mod S), if any. */
        uint64_t want;
        if (c.pushed <= j) {
            want = j; /* never written: free for its first lap */
        } else {
            uint64_t p = j + ((c.pushed - 1 - j) & ~r->mask);
            want = p >= c.consumed ? p + 1 : p + r->slots_count;
        }
        if (st != want)
            return false;
    }
    return true;
}
