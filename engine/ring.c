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

/* Records claimed by one consumer CAS. */
#define NTSIM_RING_POP_BATCH 64u

NRT_STATUS ntsim__ring_create(uint64_t capacity, bool prefault, ntsim_ring_t **out)
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
    /* MAP_POPULATE: the kernel maps every page now, so the emit path never
     * takes a page fault (the zero stamps still read as "free"). */
    int flags = MAP_PRIVATE | MAP_ANONYMOUS | (prefault ? MAP_POPULATE : 0);
    void *map = mmap(NULL, r->map_bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
    if (map == MAP_FAILED) {
        free(r);
        return NRT_RESOURCE;
    }
    r->slots = map;
    *out = r;
    return NRT_SUCCESS;
}

void ntsim__ring_destroy(ntsim_ring_t *ring)
{
    if (ring == NULL)
        return;
    munmap(ring->slots, ring->map_bytes);
    free(ring);
}

uint64_t ntsim__ring_capacity(const ntsim_ring_t *ring)
{
    return ring->capacity;
}


size_t ntsim__ring_pop(ntsim_ring_t *r, nrt_sys_trace_event_t *out, size_t max)
{
    size_t n = 0;
    while (n < max) {
        uint64_t d = atomic_load_explicit(&r->dequeue, memory_order_relaxed);
        uint64_t want = max - n < NTSIM_RING_POP_BATCH ? max - n : NTSIM_RING_POP_BATCH;
        uint64_t k = 0;
        while (k < want && ntsim__ring_stamp_load(r, ntsim__ring_slot(r, d + k)) == d + k + 1)
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
            ntsim_ring_slot_t *s = ntsim__ring_slot(r, d + i);
            memcpy(&out[n + i], &s->rec, sizeof(nrt_sys_trace_event_t));
            ntsim__ring_stamp_store(r, s, d + i + r->slots_count);
        }
        n += (size_t)k;
    }
    /* Only the (serialized) consumer writes drained. */
    uint64_t drained = atomic_load_explicit(&r->drained, memory_order_relaxed);
    atomic_store_explicit(&r->drained, drained + n, memory_order_relaxed);
    return n;
}

void ntsim__ring_counts(const ntsim_ring_t *r, ntsim_ring_counts_t *c)
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

bool ntsim__ring_valid(const ntsim_ring_t *r)
{
    ntsim_ring_counts_t c;
    ntsim__ring_counts(r, &c);
    if (c.consumed > c.pushed || c.pushed - c.consumed > r->capacity || c.drained > c.consumed)
        return false;
    if (r->slots_count < r->capacity || (r->slots_count & r->mask) != 0)
        return false;
    /* Every slot: the positions that map to it below `consumed` are released,
     * those in [consumed, pushed) published, the rest free. */
    for (uint64_t j = 0; j < r->slots_count; j++) {
        ntsim_ring_slot_t *s = &r->slots[j];
        uint64_t st = ntsim__ring_stamp_load(r, s);
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
