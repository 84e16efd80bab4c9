/*
 * engine/capture/ring.c: the per-NeuronCore record ring.
 *
 * Protocol. Written before the code; the code follows it step by step, and
 * conformance/proofs/ring.pml checks it exhaustively under x86-TSO
 * (make model).
 *
 * Storage. Positions are free-running 64-bit counters, compared only by
 * difference. The ring holds C = capacity records in exactly C slots;
 * position q lives in slot q mod C, so a push at position w lands on the
 * slot of the record it replaces, w - C ("evict and claim in one step").
 * A slot is 128 bytes, the 112-byte record and the stamp of its position,
 * so that a push writes two cache lines no other push shares (a dense
 * record array beside a dense stamp array made two producers of one NC
 * share lines between neighbouring positions); a drain copies 112 of every
 * 128 bytes.
 *     stamp = 4q + state,  state  FREE 0       nothing written yet (q = slot)
 *                                 PUBLISHED 1  record q is complete
 *                                 YIELDED 2    record q is complete and the
 *                                              consumer took it while the
 *                                              pusher of q + C was claiming
 * stored minus 4 * slot, so the zero pages of a fresh mapping read as
 * FREE(slot): every slot free for its first lap, with no initialization.
 *
 * Words. Producers' line: head H (next position to claim), oseq (the
 * owner's claim sequence, odd while it claims), busy, first_overwrite_ns,
 * last_overwrite_ns. Consumer's line: claim K (the consumer has taken
 * every position below K that no producer evicted first), release R (the
 * consumer no longer reads any position below R), drained. A read-mostly
 * line: owner, and the ring's geometry. The consumer writes only its line;
 * producers read it.
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
 *       producer CASes H from w to w + 1. On failure it backs off (pauses,
 *       doubling per loss) before it reads H again and goes back to P1, so
 *       that the winner claims the next positions with the line in its own
 *       cache instead of both paying its move between CPUs every time.
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
 *   C1. e = H; d = K, or e - 2C if that is larger: below e - 2C every record
 *       was evicted and its pusher is done (the pusher of p + 2C checked in
 *       P1 that the pusher of p + C had committed).
 *   C2. Walk from d: a position whose stamp is PUBLISHED joins the claim
 *       (at most B of them); one whose slot already holds a later lap was
 *       evicted, and is passed over; one not yet published ends the walk.
 *       Nothing claimed: stop. (Starting at e - C instead, as a first draft
 *       did, skips records whose pushers have claimed but not yet read K:
 *       such a pusher then reads the new K, leaves the record to the
 *       consumer, and nobody hands it out. The model found it.)
 *   C2'. The owner's window, instead of C2 when it answers yes: while one
 *       thread owns the ring, it commits its positions in the order it
 *       claims them (P4 ends one push before its next P1; an emit inside
 *       an emit is refused), so if the stamp of l = d + B' - 1 (B' = the
 *       records still wanted, at most B) reads PUBLISHED(l) or later, so
 *       is every position from d to l. Read that stamp, then owner: if
 *       owner is still a thread, claim [d, l] without walking it. Owner is
 *       read after the stamp because a producer other than the owner
 *       claims only after it has seen owner leave the thread, so if such
 *       a producer wrote the stamp, its read of owner happens before ours,
 *       which cannot then return the thread. A claimed position that was
 *       already evicted is sorted out by C4, as one evicted after a walk:
 *       its evictor holds a position >= d + C, so f > d + C. Why: the walk
 *       reads every slot from memory before the copy may read it again,
 *       and the two passes cost a drain about a third of its speed
 *       (make bench, issue 14); with C2' a batch is read once, by its copy.
 *   C3. K = the end of the walk (seq_cst); e2 = H (seq_cst).
 *   C4. Which of the claimed records are ours. Every claim of a position
 *       that is a multiple of M is a seq_cst store or RMW (M = 64 for the
 *       owner with membarrier, else 1: a CAS is seq_cst), and every P3 read
 *       of K is seq_cst. With f = e2 rounded up to a multiple of M, C3's
 *       read of H precedes the claim of f in the single total order of
 *       seq_cst operations, so the pushes at f and after read our K and do
 *       not evict. If f <= d + C, no push before f can reach d: every
 *       claimed record is ours. Otherwise (we are within M of the eviction
 *       front) force the question: with membarrier, membarrier() makes
 *       every thread execute a full barrier, after which every push reads
 *       our K, and e2 = H again (a push that read K before the barrier has
 *       its claim visible now). For each claimed p with p + C < e2 its
 *       pusher has claimed and decides by itself: wait until stamp(p)
 *       leaves PUBLISHED(p); YIELDED(p) means ours, anything newer means
 *       evicted. (The wait is bounded by that push unless its thread is
 *       descheduled; a drain then waits, as stop() does.)
 *   C5. Copy ours (stamp PUBLISHED(p) or YIELDED(p); a passed-over
 *       position shows a later lap), in order, a run at a time; then
 *       R = the end of the walk (release); drained += ours.
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
 * acquire (in C2', the acquire of stamp l, which the owner released after
 * writing every record before l); the consumer's reads happen before R's
 * release, which pairs with the producer's acquire of R before it rewrites
 * a slot the consumer took.
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
#define _GNU_SOURCE /* MAP_ANONYMOUS, MAP_POPULATE */
#include "ring.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <valgrind/valgrind.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "alloc.h"

/* B of the protocol: positions claimed by one consumer round. A producer
 * that needs a slot of the batch spins while it is copied (P1). */
#define NTSIM_RING_POP_BATCH UINT64_C(256)
/* Backoff of a shared producer whose claim CAS lost (P2): it pauses this
 * many times, doubling after each further loss within one push, up to the
 * maximum (about 5 us, then 39 us, at the ~19 ns of one PAUSE measured on
 * this project's machines). Why: under contention every claim moves the
 * producers' line to the claiming CPU, and when that move is slow (vCPUs
 * on distant cores: 150-250 ns measured by make bench) two producers that
 * retry at once pay it on every event and collapse to a fifth of one
 * producer's rate; a loser that waits lets the winner claim a run of
 * positions with the line in its own cache. The lengths are the make bench
 * figures' choice (issue 14, docs/decisions.md D-RING-OWNER): 4..32 to
 * start left two producers at 0.2-0.8x one with a slow move, 64 at
 * 0.73-0.85x, 256 at 0.81-1.04x. */
#define NTSIM_RING_BACKOFF_MIN 256u
#define NTSIM_RING_BACKOFF_MAX 2048u
/* A pop expected to copy at least this much writes with non-temporal
 * stores: its output cannot stay in cache, and streaming stores skip the
 * read-for-ownership of every destination line. */
#define NTSIM_RING_NT_BYTES ((size_t)8 << 20)

/* Both lines of slot j, for writing (PREFETCHW where the build's target
 * has it, a plain prefetch otherwise). A hint only: no ordering, no fault. */
static inline void prefetch_slot_for_write(const ntsim_ring_t *r, uint64_t j)
{
    __builtin_prefetch(&r->slots[j], 1);
    __builtin_prefetch((const char *)&r->slots[j] + 64, 1);
}

NRT_STATUS ntsim__ring_create(uint64_t capacity, bool prefault, ntsim_ring_t **out)
{
    *out = NULL;
    if (capacity == 0 || capacity > (UINT64_C(1) << 40))
        return NRT_INVALID;
    ntsim_ring_t *r = ntsim__aligned_malloc(_Alignof(ntsim_ring_t), sizeof *r);
    if (r == NULL)
        return NRT_RESOURCE;
    memset(r, 0, sizeof *r);
    r->capacity = capacity;
    r->pow2 = (capacity & (capacity - 1)) == 0;
    r->mask = capacity - 1;
    r->map_bytes = (size_t)capacity * sizeof(ntsim_ring_slot_t);
    /* MAP_POPULATE: the kernel maps every page now (the zero stamps still
     * read as FREE). */
    int flags = MAP_PRIVATE | MAP_ANONYMOUS | (prefault ? MAP_POPULATE : 0);
    void *map = mmap(NULL, r->map_bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
    if (map == MAP_FAILED) {
        ntsim__aligned_free(r);
        return NRT_RESOURCE;
    }
    if (prefault) {
        /* A VM whose host backs guest memory lazily still faults on the
         * first touch of a populated page (about 5 us per 4 KiB page
         * measured here): touch each one now, as libnrt initializes every
         * slot at creation (D-RING-MEMORY). */
        long page = sysconf(_SC_PAGESIZE);
        size_t step = page > 0 ? (size_t)page : 4096;
        volatile const unsigned char *bytes = map;
        unsigned char sum = 0;
        for (size_t at = 0; at < r->map_bytes; at += step)
            sum = (unsigned char)(sum + bytes[at]);
        (void)sum;
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
    ntsim__aligned_free(ring);
}

uint64_t ntsim__ring_capacity(const ntsim_ring_t *ring)
{
    return ring->capacity;
}

/* --- producers: ownership and the shared claim ------------------------------ */

/* Spins, then yields the CPU: for waits on a thread that may be
 * descheduled (never on the emit path's bounded spins). */
static void wait_a_little(unsigned *spins)
{
    if (++*spins < 64)
        ntsim__cpu_relax();
    else
        sched_yield();
}

/* P2's backoff after a lost claim CAS (NTSIM_RING_BACKOFF_MIN): pauses,
 * never yields (the winner is running: it just claimed), and touches no
 * shared line, so the winner keeps the producers' line while we wait.
 * Not under valgrind: it runs one thread at a time, so there is no line to
 * keep, and it makes each PAUSE a thread switch (about 1 us measured here
 * against 19 ns natively): up to 2 ms per lost race under make memcheck,
 * with no line to gain.
 * RUNNING_ON_VALGRIND costs a few register rotations natively, on a path
 * that has just lost a CAS. */
static void back_off(unsigned *pauses)
{
    if (RUNNING_ON_VALGRIND)
        return;
    for (unsigned i = 0; i < *pauses; i++)
        ntsim__cpu_relax();
    if (*pauses < NTSIM_RING_BACKOFF_MAX)
        *pauses *= 2;
}

/* Ownership: revoke the owner of `o` (a thread, or REVOKING|thread). */
static void ring_revoke(ntsim_ring_t *r, uintptr_t o)
{
    if ((o & NTSIM_RING_OWNER_REVOKING) == 0) {
        /* seq_cst: the Dekker pair with the owner's oseq store and seq_cst
         * re-read of owner (ntsim__ring_reserve). */
        if (!atomic_compare_exchange_strong_explicit(&r->owner, &o, o | NTSIM_RING_OWNER_REVOKING,
                                                     memory_order_seq_cst, memory_order_seq_cst) &&
            o == NTSIM_RING_OWNER_SHARED)
            return; /* another revoker finished the handshake */
        /* else o is now REVOKING|owner: run the handshake ourselves */
    }
    ntsim__grace_barrier();
    /* seq_cst (fence mode: the other half of the Dekker pair), and at least
     * acquire: pairs with the owner's release of oseq, so its plain writes
     * of H, busy and the overwrite times happen before our CAS claims. */
    uint64_t s = atomic_load_explicit(&r->oseq, memory_order_seq_cst);
    unsigned spins = 0;
    if (s & 1)
        while (atomic_load_explicit(&r->oseq, memory_order_acquire) == s)
            wait_a_little(&spins);
    /* release: the chain above reaches every producer that reads SHARED. */
    atomic_store_explicit(&r->owner, NTSIM_RING_OWNER_SHARED, memory_order_release);
}

/* P1-P3 with a CAS claim. */
static NRT_STATUS claim_shared(ntsim_ring_t *r, uint64_t now_ns, ntsim_ring_reservation_t *res)
{
    unsigned spins = 0, pauses = NTSIM_RING_BACKOFF_MIN;
    /* Index loads are relaxed: a stale value only makes the CAS fail. */
    uint64_t w = atomic_load_explicit(&r->head, memory_order_relaxed);
    for (;;) {
        uint64_t j = ntsim__ring_slot(r, w);
        ntsim__ring_pre_t pre = ntsim__ring_precheck(r, w, j);
        if (pre == NTSIM__PRE_STALE) {
            w = atomic_load_explicit(&r->head, memory_order_relaxed);
            continue;
        }
        if (pre == NTSIM__PRE_OK) {
            /* P2. seq_cst: the claim the consumer's C4 orders itself against.
             * On failure another producer won: back off, then look again at
             * the H of after our wait (uncounted: a lost race is no refusal). */
            if (!atomic_compare_exchange_strong_explicit(&r->head, &w, w + 1, memory_order_seq_cst,
                                                         memory_order_relaxed)) {
                back_off(&pauses);
                w = atomic_load_explicit(&r->head, memory_order_relaxed);
                continue;
            }
            /* The next pushes, ours or another producer's, take the
             * following slots: bring one a little ahead in now, so that
             * its P1 read of the stamp does not stall on memory before
             * its CAS (a store to a cold line would wait in the store
             * buffer; that read cannot). The owner does the same. */
            uint64_t ahead = j + NTSIM_RING_PREFETCH_AHEAD;
            if (ahead >= r->capacity)
                ahead -= r->capacity;
            if (ahead < r->capacity)
                prefetch_slot_for_write(r, ahead);
            if (w < r->capacity) {
                ntsim__ring_fill(r, w, j, res);
                return NRT_SUCCESS;
            }
            /* P3, as in ntsim__ring_claim_owned. */
            uint64_t p = w - r->capacity;
            if (p >= atomic_load_explicit(&r->claim, memory_order_seq_cst)) {
                ntsim__ring_note_overwrite(r, now_ns, false);
                ntsim__ring_fill(r, w, j, res);
                return NRT_SUCCESS;
            }
            if (p >= atomic_load_explicit(&r->release, memory_order_acquire)) {
                atomic_store_explicit(&r->slots[j].stamp,
                                      ntsim__stamp(p, NTSIM_STAMP_YIELDED) - (j << 2),
                                      memory_order_release);
                uint64_t claimed = w + 1;
                /* seq_cst: a later claimer's CAS reads our give-back (and
                 * with it the YIELDED stamp above). */
                if (!atomic_compare_exchange_strong_explicit(&r->head, &claimed, w,
                                                             memory_order_seq_cst,
                                                             memory_order_relaxed)) {
                    /* A later position is claimed: w is ours for good.
                     * Wait for the consumer's copy of p (a batch) to end;
                     * acquire: its reads of p happen before our writes. */
                    unsigned waited = 0;
                    while (p >= atomic_load_explicit(&r->release, memory_order_acquire))
                        wait_a_little(&waited);
                    ntsim__ring_fill(r, w, j, res);
                    return NRT_SUCCESS;
                }
                /* w given back: wait in P1 like any producer. */
            } else {
                ntsim__ring_fill(r, w, j, res);
                return NRT_SUCCESS;
            }
        }
        if (++spins < NTSIM_RING_SPIN_LIMIT) {
            ntsim__cpu_relax();
            w = atomic_load_explicit(&r->head, memory_order_relaxed);
            continue;
        }
        atomic_fetch_add_explicit(&r->busy, 1, memory_order_relaxed);
        return NRT_QUEUE_FULL;
    }
}

NRT_STATUS ntsim__ring_reserve_slow(ntsim_ring_t *r, uint64_t now_ns, ntsim_thread_t *self,
                                    ntsim_ring_reservation_t *res)
{
    uintptr_t me = (uintptr_t)self;
    /* seq_cst: with the CAS below, the first producer of the ring takes it. */
    uintptr_t o = atomic_load_explicit(&r->owner, memory_order_seq_cst);
    if (o == NTSIM_RING_OWNER_NONE &&
        atomic_compare_exchange_strong_explicit(&r->owner, &o, me, memory_order_seq_cst,
                                                memory_order_seq_cst))
        o = me;
    if (o == me)
        return ntsim__ring_reserve(r, now_ns, self, res); /* the owner's path, with oseq */
    if (o != NTSIM_RING_OWNER_SHARED && (o & ~NTSIM_RING_OWNER_REVOKING) != me)
        ring_revoke(r, o);
    /* Else SHARED, or we were the owner and are being revoked: our own
     * earlier claims are sequenced before this one. */
    return claim_shared(r, now_ns, res);
}

/* --- the consumer ------------------------------------------------------------- */

/* C5: copies `count` records from position `from` (wrapping at C), 112
 * bytes out of each 128-byte slot; with `nt`, streaming stores (the caller
 * fences once at the end). */
static void copy_records(const ntsim_ring_t *r, nrt_sys_trace_event_t *out, uint64_t from,
                         uint64_t count, bool nt)
{
    uint64_t j = ntsim__ring_slot(r, from);
#if defined(__SSE2__)
    _Static_assert(sizeof *out == 7 * 16, "the streaming copy moves a record as 7 x 16 bytes");
    if (nt && ((uintptr_t)out & 15) == 0) {
        for (uint64_t i = 0; i < count; i++) {
            const __m128i *s = (const __m128i *)(const void *)&r->slots[j].rec;
            __m128i *d = (__m128i *)(void *)&out[i];
            /* Slots are 64-byte aligned: aligned loads. */
            __m128i a0 = _mm_load_si128(s), a1 = _mm_load_si128(s + 1);
            __m128i a2 = _mm_load_si128(s + 2), a3 = _mm_load_si128(s + 3);
            __m128i a4 = _mm_load_si128(s + 4), a5 = _mm_load_si128(s + 5);
            __m128i a6 = _mm_load_si128(s + 6);
            _mm_stream_si128(d, a0);
            _mm_stream_si128(d + 1, a1);
            _mm_stream_si128(d + 2, a2);
            _mm_stream_si128(d + 3, a3);
            _mm_stream_si128(d + 4, a4);
            _mm_stream_si128(d + 5, a5);
            _mm_stream_si128(d + 6, a6);
            j = j + 1 == r->capacity ? 0 : j + 1;
        }
        return;
    }
#else
    (void)nt;
#endif
    for (uint64_t i = 0; i < count; i++) {
        memcpy(&out[i], &r->slots[j].rec, sizeof *out);
        j = j + 1 == r->capacity ? 0 : j + 1;
    }
}

/* Owner values that name one thread: not NONE, not SHARED, not being revoked. */
static inline bool owner_is_a_thread(uintptr_t o)
{
    return o != NTSIM_RING_OWNER_NONE && o != NTSIM_RING_OWNER_SHARED &&
           (o & NTSIM_RING_OWNER_REVOKING) == 0;
}

/* C2': is every position of [d, d + want) published? Answered yes only
 * while one thread owns the ring, from the window's last stamp. */
static bool owned_window_published(ntsim_ring_t *r, uint64_t d, uint64_t want)
{
    uint64_t last = d + want - 1;
    if (ntsim__ring_stamp_load(r, ntsim__ring_slot(r, last)) < ntsim__stamp(last, NTSIM_STAMP_PUBLISHED))
        return false;
    /* The decision: owner read after the stamp (the stamp load is acquire,
     * so this load cannot move above it). Relaxed is enough: if a producer
     * other than the owner published that stamp, it read owner leave the
     * thread before it claimed, and that read happens before this one
     * (read-read coherence), which therefore cannot return the thread. */
    return owner_is_a_thread(atomic_load_explicit(&r->owner, memory_order_relaxed));
}

/* The consumer's side of the protocol (the head of this file), in one
 * function on purpose (~100 lines): its claim, the walk over published
 * slots, the copy and the release must read in the order the fences order
 * them. */
size_t ntsim__ring_pop(ntsim_ring_t *r, nrt_sys_trace_event_t *out, size_t max)
{
    const uint64_t cap = r->capacity;
    bool fence_mode = atomic_load_explicit(&ntsim__grace_fence_mode, memory_order_relaxed);
    uint64_t fence_every = fence_mode ? 1 : NTSIM_RING_FENCE_PERIOD;
    /* Only the consumer writes K; pops are serialized. */
    uint64_t k_front = atomic_load_explicit(&r->claim, memory_order_relaxed);
    uint64_t h0 = atomic_load_explicit(&r->head, memory_order_relaxed);
    uint64_t expect = h0 - (h0 > cap && h0 - cap > k_front ? h0 - cap : k_front);
    bool nt = (expect < max ? expect : max) * sizeof *out >= NTSIM_RING_NT_BYTES;
    size_t n = 0;
    while (n < max) {
        /* C1. Index loads are relaxed: the stamps carry the ordering. */
        uint64_t e = atomic_load_explicit(&r->head, memory_order_relaxed);
        uint64_t d = k_front;
        if (e > 2 * cap && e - 2 * cap > d)
            d = e - 2 * cap; /* every pusher below has committed: evicted */
        /* C2: claim the published records, pass over the evicted ones. */
        uint64_t want = max - n < NTSIM_RING_POP_BATCH ? max - n : NTSIM_RING_POP_BATCH;
        uint64_t q = d, k = 0, j = ntsim__ring_slot(r, d);
        if (owned_window_published(r, d, want)) {
            q = d + want; /* C2': the whole window, unwalked */
            k = want;
        }
        while (k < want) {
            uint64_t st = ntsim__ring_stamp_load(r, j);
            if (st == ntsim__stamp(q, NTSIM_STAMP_PUBLISHED))
                k++;
            else if (st <= ntsim__stamp(q, NTSIM_STAMP_YIELDED))
                break; /* not published yet */
            /* Slots are read in order: ask for both lines of one 16 slots
             * ahead now, so that the walk, and the copy after it, do not
             * stall on each miss in turn. A hint only. */
            uint64_t ahead = j + 16 < cap ? j + 16 : (j + 16) % cap;
            __builtin_prefetch(&r->slots[ahead], 0);
            __builtin_prefetch((const char *)&r->slots[ahead] + 64, 0);
            q++;
            j = j + 1 == cap ? 0 : j + 1;
        }
        if (k == 0) {
            if (atomic_load_explicit(&r->head, memory_order_relaxed) != e)
                continue; /* a push moved the front on: look again */
            break;        /* empty, or record d not committed yet */
        }
        /* C3. seq_cst store and load: the consumer's half of the Dekker
         * pair with the producers' claims and P3 reads of K. */
        k_front = q;
        atomic_store_explicit(&r->claim, k_front, memory_order_seq_cst);
        uint64_t e2 = atomic_load_explicit(&r->head, memory_order_seq_cst);
        /* C4: positions from `sure` on are ours without asking. */
        uint64_t sure = d;
        uint64_t f = (e2 + fence_every - 1) & ~(fence_every - 1);
        if (f > d + cap) {
            if (!fence_mode) {
                ntsim__grace_barrier();
                e2 = atomic_load_explicit(&r->head, memory_order_seq_cst);
            }
            if (e2 > d + cap)
                sure = e2 - cap < k_front ? e2 - cap : k_front;
        }
        uint64_t ours = 0;
        if (sure == d && k == k_front - d) {
            /* Nothing to ask and nothing passed over: one run. */
            /* The next round's C2' reads the stamp of its last position: a
             * miss to memory that C3's locked store would wait for. Ask for
             * it now, so that it arrives while this batch is copied (the
             * drain / copy ratio of make bench gained ~0.1). A hint only. */
            uint64_t next_last = k_front + NTSIM_RING_POP_BATCH - 1;
            __builtin_prefetch(&r->slots[ntsim__ring_slot(r, next_last)].stamp, 0);
            copy_records(r, out + n, d, k, nt);
            atomic_store_explicit(&r->release, k_front, memory_order_release); /* as below */
            n += (size_t)k;
            continue;
        }
        /* C4 and C5, one run of our records at a time. */
        uint64_t run = d;
        j = ntsim__ring_slot(r, d);
        for (uint64_t p = d; p < k_front; p++, j = j + 1 == cap ? 0 : j + 1) {
            uint64_t st = ntsim__ring_stamp_load(r, j);
            unsigned spins = 0;
            /* Before `sure` the pusher of p + C may have claimed without
             * reading our K: its decision is on the way. */
            while (p < sure && st == ntsim__stamp(p, NTSIM_STAMP_PUBLISHED)) {
                wait_a_little(&spins);
                st = ntsim__ring_stamp_load(r, j);
            }
            if (st == ntsim__stamp(p, NTSIM_STAMP_PUBLISHED) ||
                st == ntsim__stamp(p, NTSIM_STAMP_YIELDED))
                continue; /* ours: the run goes on */
            /* Evicted (passed over in C2, or by its pusher in C4): copy the
             * run before it. */
            copy_records(r, out + n + ours, run, p - run, nt);
            ours += p - run;
            run = p + 1;
        }
        copy_records(r, out + n + ours, run, k_front - run, nt);
        ours += k_front - run;
        /* release: our reads of the batch happen before a producer's
         * acquire of R and its writes to these slots. */
        atomic_store_explicit(&r->release, k_front, memory_order_release);
        n += (size_t)ours;
    }
#if defined(__SSE2__)
    if (nt)
        _mm_sfence(); /* streaming stores are weakly ordered: complete them */
#endif
    /* Only the (serialized) consumer writes drained. */
    uint64_t drained = atomic_load_explicit(&r->drained, memory_order_relaxed);
    atomic_store_explicit(&r->drained, drained + n, memory_order_relaxed);
    return n;
}

/* --- counters and the consistency check ----------------------------------------- */

void ntsim__ring_counts(const ntsim_ring_t *r, ntsim_ring_counts_t *c)
{
    ntsim_ring_t *m = (ntsim_ring_t *)r; /* C11 atomics loads take non-const pointers */
    /* drained first, then K, then H: each only grows (H may step back by
     * one while a yielding owner gives a position back), so consumed -
     * drained never underflows. */
    c->drained = atomic_load_explicit(&m->drained, memory_order_relaxed);
    uint64_t k = atomic_load_explicit(&m->claim, memory_order_relaxed);
    c->pushed = atomic_load_explicit(&m->head, memory_order_relaxed);
    c->consumed = c->pushed > r->capacity && c->pushed - r->capacity > k ? c->pushed - r->capacity : k;
    c->busy = atomic_load_explicit(&m->busy, memory_order_relaxed);
    c->first_overwrite_ns = atomic_load_explicit(&m->first_overwrite_ns, memory_order_relaxed);
    c->last_overwrite_ns = atomic_load_explicit(&m->last_overwrite_ns, memory_order_relaxed);
    c->overwritten = c->consumed - c->drained;
}

bool ntsim__ring_valid(const ntsim_ring_t *r)
{
    ntsim_ring_t *m = (ntsim_ring_t *)r;
    ntsim_ring_counts_t c;
    ntsim__ring_counts(r, &c);
    uint64_t k = atomic_load_explicit(&m->claim, memory_order_relaxed);
    if (atomic_load_explicit(&m->release, memory_order_relaxed) != k || k > c.pushed)
        return false; /* no pop in progress, and it took only pushed positions */
    if (c.consumed > c.pushed || c.pushed - c.consumed > r->capacity || c.drained > c.consumed)
        return false;
    if ((atomic_load_explicit(&m->oseq, memory_order_relaxed) & 1) != 0)
        return false; /* no claim in progress */
    if (r->pow2 != ((r->capacity & r->mask) == 0))
        return false;
    /* Every slot: FREE for its first lap until pushed reaches it, else the
     * latest position pushed into it, PUBLISHED, or YIELDED if the
     * consumer took it. */
    for (uint64_t j = 0; j < r->capacity; j++) {
        uint64_t st = ntsim__ring_stamp_load(r, j);
        if (c.pushed <= j) {
            if (st != ntsim__stamp(j, NTSIM_STAMP_FREE))
                return false;
            continue;
        }
        uint64_t q = j + (c.pushed - 1 - j) / r->capacity * r->capacity;
        if (st != ntsim__stamp(q, NTSIM_STAMP_PUBLISHED) &&
            !(st == ntsim__stamp(q, NTSIM_STAMP_YIELDED) && q < k))
            return false;
    }
    return true;
}

/* Test hook: see ring.h. Each slot gets PUBLISHED of the latest position
 * below pos that lives in it, and H = K = R = drained = pos: the state of
 * a ring whose pos pushes were all drained (consumed = max(K, H - C) = pos,
 * overwritten 0, in_ring 0). */
bool ntsim__ring_skip_to(ntsim_ring_t *r, uint64_t pos)
{
    uint64_t cap = r->capacity;
    if (pos < cap || atomic_load_explicit(&r->head, memory_order_relaxed) != 0)
        return false;
    /* Relaxed: by its contract no thread uses the ring now; the caller's
     * locks (capture.c) order these stores before later drains. */
    for (uint64_t j = 0; j < cap; j++) {
        uint64_t q = pos - cap + (j + cap - pos % cap) % cap; /* q mod C = j, pos - C <= q < pos */
        atomic_store_explicit(&r->slots[j].stamp, ntsim__stamp(q, NTSIM_STAMP_PUBLISHED) - (j << 2),
                              memory_order_relaxed);
    }
    atomic_store_explicit(&r->claim, pos, memory_order_relaxed);
    atomic_store_explicit(&r->release, pos, memory_order_relaxed);
    atomic_store_explicit(&r->drained, pos, memory_order_relaxed);
    atomic_store_explicit(&r->head, pos, memory_order_relaxed);
    return true;
}
