/*
 * engine/ring.c: the per-NeuronCore record ring.
 *
 * Protocol. Written before the code; the code follows it step by step and
 * model/ring.pml checks it exhaustively (make model).
 *
 * Storage. Positions are free-running 64-bit counters, compared only by
 * difference. The ring holds C = capacity records in exactly C slots;
 * position q lives in slot q mod C, so a push at position w lands on the
 * slot of the record it replaces, w - C ("evict and claim in one step").
 * Records are one contiguous array of 112-byte records (a drain copies
 * runs of them with one memcpy each); beside it a dense array of 8-byte
 * stamps, one per slot:
 *     stamp = 4q + state,  state  FREE 0       nothing written yet (q = slot)
 *                                 PUBLISHED 1  record q is complete
 *                                 YIELDED 2    record q is complete and the
 *                                              consumer took it while the
 *                                              pusher of q + C was claiming
 * stored minus 4 * slot, so the zero pages of a fresh mapping read as
 * FREE(slot): every slot free for its first lap, with no initialization.
 *
 * Words. Producers' line: head H (next position to claim), owner, oseq (the
 * owner's claim sequence, odd while it claims), busy, first_overwrite_ns,
 * last_overwrite_ns. Consumer's line: claim K (the consumer has taken
 * every position below K that no producer evicted first), release R (the
 * consumer no longer reads any position below R), drained. The consumer
 * writes only its line; producers read it.
 *
 * Counters (exact whenever no push or pop is in progress):
 *     pushed = H, consumed = max(K, H - C), overwritten = consumed - drained,
 *     in_ring = H - consumed, created = pushed + busy.
 *
 * The eviction rule. A push at w >= C replaces p = w - C. It evicts p (and
 * stamps the overwrite times on its own line) iff p >= K as it reads K
 * after its claim of w is visible; if p < K the consumer has p, and the
 * push must not touch the slot until R > p. Exactly one side decides each
 * record: the pusher of p + C through its read of K, unless the consumer's
 * write of K came first.
 *
 * Producer, push at w (slot j = w mod C, p = w - C):
 *   P1. Pre-check, before claiming, so that a refusal leaves no hole:
 *       stamp[j] must be FREE(w) (first lap) or PUBLISHED/YIELDED(p); an
 *       older stamp means the pusher of p has not committed (it stalls).
 *       If p < K and p >= R the consumer is copying p. In both cases spin a
 *       bounded number of times, then refuse: busy += 1, no position used.
 *   P2. Claim w: the owner stores H = w + 1 (see Ownership); any other
 *       producer CASes H from w to w + 1 (on failure, back to P1).
 *   P3. Decide (K read seq_cst, after the claim):
 *         p >= K           evict p: last_overwrite_ns = now, and
 *                          first_overwrite_ns = now if it is still 0 (a
 *                          plain load first; a CAS only the first time).
 *         p < K, p < R     the consumer took p and is done with it.
 *         p < K, p >= R    the consumer took p after P1 and may be copying
 *                          it: stamp[j] = YIELDED(p), so that the consumer
 *                          need not wait for us; give the position back
 *                          (owner: H = w; others: CAS H from w + 1 to w)
 *                          and go back to P1, where we spin until R > p.
 *                          If the CAS fails (a later position is already
 *                          claimed) we keep w and wait until R > p.
 *   P4. Write the record, then stamp[j] = PUBLISHED(w) (release): commit.
 *
 * Consumer, pop (one at a time per ring, up to B records per round):
 *   C1. e = H; d = max(K, e - C): positions [K, e - C) were evicted (their
 *       pushers read K <= p).
 *   C2. k = the number of consecutive positions from d whose stamp is
 *       PUBLISHED (acquire), at most B. None: stop.
 *   C3. K = d + k (seq_cst); e2 = H (seq_cst).
 *   C4. Which of d .. d+k-1 are ours. Every claim of a position that is a
 *       multiple of M is a seq_cst store or RMW (M = 64 for the owner with
 *       membarrier, else 1: a CAS is seq_cst), and every P3 read of K is
 *       seq_cst. With f = e2 rounded up to a multiple of M, C3's read of H
 *       precedes the claim of f in the single total order of seq_cst
 *       operations, so the pushes at f and after read our K and do not
 *       evict. If f <= d + C, no push before f can reach d: all k are ours.
 *       Otherwise (we are within M of the eviction front) force the
 *       question: with membarrier, membarrier() makes every thread execute
 *       a full barrier, after which every push reads our K, and e2 = H
 *       again (a push that read K before the barrier has its claim visible
 *       now). For each p in d .. d+k-1 with p + C < e2 its pusher has
 *       claimed and decides by itself: wait until stamp(p) leaves
 *       PUBLISHED(p); YIELDED(p) means ours, anything newer means evicted.
 *       (The wait is bounded by that push unless its thread is
 *       descheduled; a drain then waits, as stop() does.)
 *   C5. Copy ours, in order, one memcpy per contiguous run; then
 *       R = d + k (release); drained += ours.
 *
 * Ownership (one thread per NC is the common case: it pays no locked
 * instruction). owner is NONE, a thread, REVOKING|thread or SHARED.
 *   - A producer that finds NONE CASes it to itself and becomes the owner.
 *   - The owner, per push: oseq += 1 (odd), then reads owner again; if it is
 *     still itself it claims in P2 with a plain store of H (seq_cst when
 *     w is a multiple of M), runs P3, then oseq += 1 (even, release). If it
 *     is no longer the owner it claims as any other producer (CAS).
 *   - Any other producer revokes: CAS owner T -> REVOKING|T, then a barrier
 *     (membarrier; without it every owner step above is seq_cst), then waits
 *     until oseq is even or has changed: the owner's claim that may have
 *     missed the revocation is over, every later one sees it. Then owner =
 *     SHARED, and it claims by CAS. Several revokers may run this at once;
 *     each waits for itself. Ownership never comes back in a session.
 *   Only the owner ever writes oseq, so the pair (oseq, owner) is the same
 *   Dekker handshake as stop()'s grace period (grace.c), per ring, so that
 *   two threads revoking each other's rings cannot wait on each other.
 *
 * Ordering. The record's bytes: the P4 stamp release pairs with the C2
 * acquire; the consumer's reads happen before R's release, which pairs with
 * the producer's acquire of R before it rewrites a slot the consumer took.
 * The consumer never reads a slot whose record was evicted: it decides
 * (C4) before it copies (C5). The owner's plain writes of H, busy and the
 * overwrite times happen before the revoker's acquire of oseq.
 *
 * Guarantees. Each admitted position ends exactly once as drained,
 * overwritten or still in the ring; each refused push is counted as busy
 * and uses no position; a producer's records keep its order; the consumer
 * hands records out oldest first. A producer never waits for a release it
 * caused: it only waits for the consumer's copy of a batch (P1, bounded,
 * then busy) or, in the shared mode's rare P3 case, for that copy to end.
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
