/*
 * conformance/unit/engine/check_ring.c: the ring protocol, one step at a time.
 *
 * Positions, eviction, ordering, the busy refusal and ownership, each
 * checked against numbers worked out from the protocol in engine/capture/ring.c.
 * Threads here run one after the other; the concurrent behaviour is in
 * check_concurrency.c, and every interleaving of the protocol's steps is
 * in conformance/proofs/ring.pml (make model).
 */
#define _GNU_SOURCE /* MAP_ANONYMOUS, mincore, usleep */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "check_suites.h"
#include "ring.h"

/* The ring's six counters, exactly (ring.h: exact once producers are
 * quiet). */
static void expect_counts(const ntsim_ring_t *r, uint64_t pushed, uint64_t drained,
                          uint64_t overwritten, uint64_t busy, uint64_t first_ns,
                          uint64_t last_ns)
{
    ntsim_ring_counts_t c;
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.pushed, pushed);
    ck_assert_uint_eq(c.drained, drained);
    ck_assert_uint_eq(c.overwritten, overwritten);
    ck_assert_uint_eq(c.busy, busy);
    ck_assert_uint_eq(c.first_overwrite_ns, first_ns);
    ck_assert_uint_eq(c.last_overwrite_ns, last_ns);
}

/* Pushes `n` records whose nc_local_id is their push index from `first`. */
static void push_n(ntsim_ring_t *r, uint64_t first, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        ntsim_ring_reservation_t res;
        ck_assert_int_eq(ntsim__ring_reserve(r, 1000 + first + i, ntsim__thread_self(), &res), NRT_SUCCESS);
        memset(res.rec, 0, sizeof *res.rec);
        res.rec->nc_local_id = first + i;
        ntsim__ring_commit(&res);
    }
}

/* Claims the next position for this thread, its clock at `now_ns`, and
 * checks that it is `pos`. */
static ntsim_ring_reservation_t reserve_at(ntsim_ring_t *r, uint64_t now_ns, uint64_t pos)
{
    ntsim_ring_reservation_t res;
    ck_assert_int_eq(ntsim__ring_reserve(r, now_ns, ntsim__thread_self(), &res), NRT_SUCCESS);
    ck_assert_uint_eq(res.pos, pos);
    return res;
}

START_TEST(test_ring_rejects_zero_and_huge_capacity)
{
    ntsim_ring_t *r = (ntsim_ring_t *)1;
    ck_assert_int_eq(ntsim__ring_create(0, false, &r), NRT_INVALID);
    ck_assert_ptr_null(r);
    ck_assert_int_eq(ntsim__ring_create((UINT64_C(1) << 40) + 1, false, &r), NRT_INVALID);
    ck_assert_ptr_null(r);
}
END_TEST

START_TEST(test_ring_positions_start_at_zero_and_count_up)
{
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(1024, false, &r), NRT_SUCCESS);
    for (uint64_t i = 0; i < 3; i++) {
        ntsim_ring_reservation_t res;
        res = reserve_at(r, 0, i);
        ntsim__ring_commit(&res);
    }
    ck_assert(ntsim__ring_valid(r));
    ntsim__ring_destroy(r);
}
END_TEST

/* The example: a ring of 1024 receiving 1500 keeps the newest 1024,
 * in order, and counts 1500 - 1024 = 476 overwritten. */
START_TEST(test_ring_overflow_keeps_the_newest_capacity_in_order)
{
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(1024, false, &r), NRT_SUCCESS);
    push_n(r, 0, 1500);
    ck_assert(ntsim__ring_valid(r));
    ntsim_ring_counts_t c;
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.pushed, 1500);
    ck_assert_uint_eq(c.overwritten, 476);
    ck_assert_uint_eq(c.drained, 0);
    /* The first eviction happened at push 1024 (clock 1000 + 1024), the last
     * at push 1499. */
    ck_assert_uint_eq(c.first_overwrite_ns, 1000 + 1024);
    ck_assert_uint_eq(c.last_overwrite_ns, 1000 + 1499);

    nrt_sys_trace_event_t *out = calloc(2000, sizeof *out);
    ck_assert_ptr_nonnull(out);
    size_t n = ntsim__ring_pop(r, out, 2000);
    ck_assert_uint_eq(n, 1024);
    for (size_t i = 0; i < n; i++)
        ck_assert_uint_eq(out[i].nc_local_id, 476 + i);
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.drained, 1024);
    ck_assert_uint_eq(c.overwritten, 476);
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 2000), 0);
    ck_assert(ntsim__ring_valid(r));
    free(out);
    ntsim__ring_destroy(r);
}
END_TEST

/* A capacity that is not a power of two is honoured exactly. */
START_TEST(test_ring_holds_exactly_a_non_power_of_two_capacity)
{
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(1500, false, &r), NRT_SUCCESS);
    ck_assert_uint_eq(ntsim__ring_capacity(r), 1500);
    push_n(r, 0, 1500);
    ntsim_ring_counts_t c;
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.overwritten, 0);
    push_n(r, 1500, 1);
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.overwritten, 1);
    nrt_sys_trace_event_t *out = calloc(1501, sizeof *out);
    ck_assert_ptr_nonnull(out);
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 1501), 1500);
    ck_assert_uint_eq(out[0].nc_local_id, 1);
    ck_assert_uint_eq(out[1499].nc_local_id, 1500);
    ck_assert(ntsim__ring_valid(r));
    free(out);
    ntsim__ring_destroy(r);
}
END_TEST

/* Pops take at most `max`, oldest first, and interleave with pushes. */
START_TEST(test_ring_pops_in_batches_and_resumes)
{
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(256, false, &r), NRT_SUCCESS);
    push_n(r, 0, 200);
    nrt_sys_trace_event_t out[150];
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 150), 150);
    ck_assert_uint_eq(out[149].nc_local_id, 149);
    push_n(r, 200, 100);
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 150), 150);
    ck_assert_uint_eq(out[0].nc_local_id, 150);
    ck_assert_uint_eq(out[149].nc_local_id, 299);
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 0), 0);
    ck_assert(ntsim__ring_valid(r));
    ntsim__ring_destroy(r);
}
END_TEST

/* A pop of up to `max` (at most 4) hands out `before` records while `held`
 * is not committed; once it is, the next pop hands out `after` more. Their
 * nc_local_id count up from `first_id` across both pops. */
static void expect_pops_around_a_commit(ntsim_ring_t *r, const ntsim_ring_reservation_t *held,
                                        size_t max, uint64_t first_id, size_t before, size_t after)
{
    nrt_sys_trace_event_t out[4];
    ck_assert_uint_le(max, 4);
    ck_assert_uint_eq(ntsim__ring_pop(r, out, max), before);
    for (size_t i = 0; i < before; i++)
        ck_assert_uint_eq(out[i].nc_local_id, first_id + i);
    ntsim__ring_commit(held);
    ck_assert_uint_eq(ntsim__ring_pop(r, out, max), after);
    for (size_t i = 0; i < after; i++)
        ck_assert_uint_eq(out[i].nc_local_id, first_id + before + i);
}

/* A record reserved but not committed is never skipped: the pop stops
 * before it, and records behind it wait. */
START_TEST(test_ring_pop_stops_at_an_uncommitted_record)
{
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(16, false, &r), NRT_SUCCESS);
    ntsim_ring_reservation_t a, b;
    ck_assert_int_eq(ntsim__ring_reserve(r, 0, ntsim__thread_self(), &a), NRT_SUCCESS);
    ck_assert_int_eq(ntsim__ring_reserve(r, 0, ntsim__thread_self(), &b), NRT_SUCCESS);
    memset(a.rec, 0, sizeof *a.rec);
    memset(b.rec, 0, sizeof *b.rec);
    a.rec->nc_local_id = 10;
    b.rec->nc_local_id = 11;
    ntsim__ring_commit(&b);
    expect_pops_around_a_commit(r, &a, 4, 10, 0, 2);
    ntsim__ring_destroy(r);
}
END_TEST

/* Full, with the oldest record still uncommitted (its producer stalled):
 * the push is refused after the bounded spin and counted as busy, and
 * nothing else is disturbed. Once committed, the next push evicts it. */
START_TEST(test_ring_refuses_as_busy_when_a_stalled_producer_holds_the_oldest)
{
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(1, false, &r), NRT_SUCCESS);
    ntsim_ring_reservation_t stalled, next;
    ck_assert_int_eq(ntsim__ring_reserve(r, 0, ntsim__thread_self(), &stalled), NRT_SUCCESS);
    memset(stalled.rec, 0, sizeof *stalled.rec);
    ck_assert_int_eq(ntsim__ring_reserve(r, 0, ntsim__thread_self(), &next), NRT_QUEUE_FULL);
    ntsim_ring_counts_t c;
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.busy, 1);
    ck_assert_uint_eq(c.pushed, 1);
    ck_assert_uint_eq(c.overwritten, 0);
    ntsim__ring_commit(&stalled);
    next = reserve_at(r, 7, 1);
    memset(next.rec, 0, sizeof *next.rec);
    ntsim__ring_commit(&next);
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.overwritten, 1);
    ck_assert_uint_eq(c.first_overwrite_ns, 7);
    ck_assert(ntsim__ring_valid(r));
    ntsim__ring_destroy(r);
}
END_TEST

/* Many laps over a small ring: stamps stay consistent. */
START_TEST(test_ring_stays_valid_over_many_laps)
{
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(3, false, &r), NRT_SUCCESS); /* 4 slots, holds 3 */
    nrt_sys_trace_event_t out[3];
    uint64_t next = 0;
    for (int lap = 0; lap < 100; lap++) {
        push_n(r, next, 5);
        next += 5;
        ck_assert(ntsim__ring_valid(r));
        size_t n = ntsim__ring_pop(r, out, lap % 3 + 1);
        ck_assert_uint_eq(n, (size_t)(lap % 3 + 1));
        ck_assert_uint_eq(out[0].nc_local_id, next - 3);
        ck_assert(ntsim__ring_valid(r));
        ntsim__ring_pop(r, out, 3);
    }
    ntsim_ring_counts_t c;
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.pushed, 500);
    ck_assert_uint_eq(c.overwritten + c.drained, 500);
    ck_assert_uint_eq(c.overwritten, 200); /* 2 of every 5 are evicted */
    ntsim__ring_destroy(r);
}
END_TEST

/* The first producer takes the ring: it claims with plain stores. */
START_TEST(test_ring_first_producer_owns_the_ring)
{
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(8, false, &r), NRT_SUCCESS);
    ck_assert_uint_eq(atomic_load(&r->owner), NTSIM_RING_OWNER_NONE);
    push_n(r, 0, 3);
    ck_assert_uint_eq(atomic_load(&r->owner), (uintptr_t)ntsim__thread_self());
    ck_assert_uint_eq(atomic_load(&r->oseq) % 2, 0); /* no claim in progress */
    ck_assert(ntsim__ring_valid(r));
    ntsim__ring_destroy(r);
}
END_TEST

typedef struct pusher {
    ntsim_ring_t *ring;
    uint64_t first, n;
} pusher_t;

static void *push_from_another_thread(void *arg)
{
    pusher_t *p = arg;
    push_n(p->ring, p->first, p->n);
    return NULL;
}

/* A second thread's push revokes the ownership; both then claim by CAS,
 * and positions, evictions and stamps go on as one sequence. */
START_TEST(test_ring_second_producer_revokes_ownership_and_continues_the_sequence)
{
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(4, false, &r), NRT_SUCCESS);
    push_n(r, 0, 3);
    pusher_t other = {r, 3, 3};
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, push_from_another_thread, &other), 0);
    pthread_join(t, NULL);
    ck_assert_uint_eq(atomic_load(&r->owner), NTSIM_RING_OWNER_SHARED);
    push_n(r, 6, 1); /* the former owner, now by CAS */
    ck_assert_uint_eq(atomic_load(&r->owner), NTSIM_RING_OWNER_SHARED);
    ck_assert(ntsim__ring_valid(r));
    ntsim_ring_counts_t c;
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.pushed, 7);
    ck_assert_uint_eq(c.overwritten, 3);
    ck_assert_uint_eq(c.busy, 0);
    ck_assert_uint_eq(c.first_overwrite_ns, 1000 + 4); /* pushes 4, 5, 6 evicted 0, 1, 2 */
    ck_assert_uint_eq(c.last_overwrite_ns, 1000 + 6);
    nrt_sys_trace_event_t out[8];
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 8), 4);
    for (uint64_t i = 0; i < 4; i++)
        ck_assert_uint_eq(out[i].nc_local_id, 3 + i);
    ck_assert(ntsim__ring_valid(r));
    ntsim__ring_destroy(r);
}
END_TEST

/* While the consumer copies the oldest record (it has claimed it, P1 sees
 * K above it and R not yet), a push that needs its slot is refused as busy,
 * uses no position and evicts nothing; once the consumer releases it the
 * push goes through without an eviction: the consumer took the record. */
START_TEST(test_ring_refuses_as_busy_while_the_consumer_copies_the_oldest)
{
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(1, false, &r), NRT_SUCCESS);
    push_n(r, 0, 1);
    atomic_store(&r->claim, 1); /* C3 of a pop that took position 0 */
    ntsim_ring_reservation_t res;
    ck_assert_int_eq(ntsim__ring_reserve(r, 5, ntsim__thread_self(), &res), NRT_QUEUE_FULL);
    ntsim_ring_counts_t c;
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.pushed, 1);
    ck_assert_uint_eq(c.busy, 1);
    atomic_store(&r->drained, 1); /* C5: copied, handed out, released */
    atomic_store(&r->release, 1);
    res = reserve_at(r, 6, 1);
    memset(res.rec, 0, sizeof *res.rec);
    ntsim__ring_commit(&res);
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.overwritten, 0);
    ck_assert_uint_eq(c.first_overwrite_ns, 0);
    ck_assert(ntsim__ring_valid(r));
    ntsim__ring_destroy(r);
}
END_TEST

/* A pop far behind the producers starts two laps back from the front and
 * passes over every record evicted since, by its stamp: it returns the
 * newest C, in order, and the rest count as overwritten. */
START_TEST(test_ring_pop_passes_over_records_evicted_laps_ago)
{
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(5, false, &r), NRT_SUCCESS); /* not a power of two */
    push_n(r, 0, 53);
    nrt_sys_trace_event_t out[8];
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 8), 5);
    for (uint64_t i = 0; i < 5; i++)
        ck_assert_uint_eq(out[i].nc_local_id, 48 + i);
    ntsim_ring_counts_t c;
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.drained, 5);
    ck_assert_uint_eq(c.overwritten, 48);
    ck_assert_uint_eq(c.first_overwrite_ns, 1000 + 5);
    ck_assert_uint_eq(c.last_overwrite_ns, 1000 + 52);
    ck_assert(ntsim__ring_valid(r));
    ntsim__ring_destroy(r);
}
END_TEST

/* The consistency check is not vacuous: a stamp that disagrees with the
 * positions, or a claim in progress, is reported. */
START_TEST(test_ring_valid_reports_a_wrong_stamp_or_a_claim_in_progress)
{
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(4, false, &r), NRT_SUCCESS);
    push_n(r, 0, 6);
    ck_assert(ntsim__ring_valid(r));
    uint64_t saved = atomic_load(&r->slots[1].stamp);
    atomic_store(&r->slots[1].stamp, saved + 4); /* one lap ahead of the positions */
    ck_assert(!ntsim__ring_valid(r));
    atomic_store(&r->slots[1].stamp, saved);
    atomic_fetch_add(&r->oseq, 1);
    ck_assert(!ntsim__ring_valid(r));
    atomic_fetch_add(&r->oseq, 1);
    ck_assert(ntsim__ring_valid(r));
    ntsim__ring_destroy(r);
}
END_TEST

/* --- interleavings forced with page protection ----------------------------------
 *
 * A few steps of the protocol only happen when another thread acts between
 * two steps of a push. To make them happen every run, the test moves a
 * ring's header onto two pages of its own: the producers' line (H) on page
 * A, the consumer's line (K, R) and the geometry on page B. A push then
 * touches A to claim (P2) and B right after it to decide (P3), and
 * protecting one page stops the pusher exactly there: the SIGSEGV handler
 * below acts for "the other thread" (or waits for it), moves the
 * protection on and returns, and the access is retried. */

typedef enum { TRAP_GIVE_BACK, TRAP_PAUSE } trap_mode_t;

static struct {
    ntsim_ring_t *r;
    char *a, *b; /* the two pages */
    size_t page;
    trap_mode_t mode;
    uint64_t w; /* the trapped push's position */
    _Atomic int step;
    _Atomic int bad;    /* a fault the script did not expect */
    _Atomic int paused; /* TRAP_PAUSE: the pusher waits between P2 and P3 */
} g_trap;
static struct sigaction g_trap_old;

static void trap_protect(char *page, int prot)
{
    if (mprotect(page, g_trap.page, prot) != 0)
        atomic_store(&g_trap.bad, 1);
}

static void trap_handler(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)uc;
    char *at = si->si_addr;
    bool in_a = at >= g_trap.a && at < g_trap.a + g_trap.page;
    bool in_b = at >= g_trap.b && at < g_trap.b + g_trap.page;
    if (!in_a && !in_b) {
        sigaction(SIGSEGV, &g_trap_old, NULL); /* not ours: fault again, for real */
        return;
    }
    int step = atomic_load(&g_trap.step);
    ntsim_ring_t *r = g_trap.r;
    if (g_trap.mode == TRAP_GIVE_BACK && step == 0 && in_a) {
        /* P2's claim of w: a consumer's C3 takes position w - C first. */
        atomic_store(&r->claim, g_trap.w - r->capacity + 1);
        trap_protect(g_trap.a, PROT_READ | PROT_WRITE);
        trap_protect(g_trap.b, PROT_NONE);
    } else if (g_trap.mode == TRAP_GIVE_BACK && step == 1 && in_b) {
        /* P3 reads K: let it, and stop at the next write of H. */
        trap_protect(g_trap.b, PROT_READ | PROT_WRITE);
        trap_protect(g_trap.a, PROT_READ);
    } else if (g_trap.mode == TRAP_GIVE_BACK && step == 2 && in_a) {
        /* The write of H after the decision: stop at the next read of B. */
        trap_protect(g_trap.a, PROT_READ | PROT_WRITE);
        trap_protect(g_trap.b, PROT_NONE);
    } else if (g_trap.mode == TRAP_GIVE_BACK && step == 3 && in_b) {
        trap_protect(g_trap.b, PROT_READ | PROT_WRITE);
        /* A pusher that kept w would now wait for the consumer's release
         * for good: release, so that the test fails instead of hanging. */
        if (atomic_load(&r->head) != g_trap.w)
            atomic_store(&r->release, g_trap.w - r->capacity + 1);
    } else if (g_trap.mode == TRAP_PAUSE && step == 0 && in_a) {
        /* P2's claim: let it, and stop at the pusher's next look at B. */
        trap_protect(g_trap.a, PROT_READ | PROT_WRITE);
        trap_protect(g_trap.b, PROT_NONE);
    } else if (g_trap.mode == TRAP_PAUSE && step == 1 && in_b) {
        /* Between P2 and P3: wait here until a consumer's C3 stores K. */
        trap_protect(g_trap.b, PROT_READ | PROT_WRITE);
        atomic_store(&g_trap.paused, 1);
        while (atomic_load(&r->claim) == 0)
            nanosleep(&(struct timespec){0, 100000}, NULL);
    } else {
        atomic_store(&g_trap.bad, 1);
        trap_protect(g_trap.a, PROT_READ | PROT_WRITE);
        trap_protect(g_trap.b, PROT_READ | PROT_WRITE);
    }
    atomic_store(&g_trap.step, step + 1);
}

/* A shared ring of `capacity` (ownership already SHARED: every push claims
 * by CAS) whose header straddles the two trap pages. `*orig` is the ring
 * ntsim__ring_create made, which owns the slots. */
static ntsim_ring_t *trap_ring(uint64_t capacity, ntsim_ring_t **orig, trap_mode_t mode)
{
    ck_assert_int_eq(ntsim__ring_create(capacity, false, orig), NRT_SUCCESS);
    long page = sysconf(_SC_PAGESIZE);
    ck_assert_int_gt(page, 0);
    g_trap.page = (size_t)page;
    char *map = mmap(NULL, 2 * g_trap.page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                     -1, 0);
    ck_assert(map != MAP_FAILED);
    g_trap.a = map;
    g_trap.b = map + g_trap.page;
    ntsim_ring_t *r = (ntsim_ring_t *)(void *)(g_trap.b - 64); /* H's line ends page A */
    _Static_assert(offsetof(ntsim_ring_t, claim) == 64, "K's line follows H's");
    memcpy(r, *orig, sizeof *r);
    atomic_store(&r->owner, NTSIM_RING_OWNER_SHARED);
    g_trap.r = r;
    g_trap.mode = mode;
    atomic_store(&g_trap.step, 0);
    atomic_store(&g_trap.bad, 0);
    atomic_store(&g_trap.paused, 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = trap_handler;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    ck_assert_int_eq(sigaction(SIGSEGV, &sa, &g_trap_old), 0);
    return r;
}

/* Arms the trap at the next write of H, by the push at position w. */
static void trap_arm(uint64_t w)
{
    g_trap.w = w;
    ck_assert_int_eq(mprotect(g_trap.a, g_trap.page, PROT_READ), 0);
}

static void trap_free(ntsim_ring_t *orig)
{
    sigaction(SIGSEGV, &g_trap_old, NULL);
    munmap(g_trap.a, 2 * g_trap.page);
    ntsim__ring_destroy(orig);
}

/* P3 of a shared producer when the consumer took p = w - C after P1 (K
 * above p, R not): it stamps YIELDED(p), gives w back (CAS H from w + 1 to
 * w: no later position is claimed) and goes back to P1, where it spins and,
 * the consumer still copying, is refused as busy: H is w again, busy 1,
 * and the slot says YIELDED(p), so that the consumer need not wait. Once
 * the consumer releases p the push takes w without an eviction. */
START_TEST(test_ring_shared_push_gives_its_position_back_when_the_consumer_took_the_oldest)
{
    ntsim_ring_t *orig;
    ntsim_ring_t *r = trap_ring(1, &orig, TRAP_GIVE_BACK);
    push_n(r, 0, 1); /* position 0, by CAS */
    trap_arm(1);
    ntsim_ring_reservation_t res;
    ck_assert_int_eq(ntsim__ring_reserve(r, 5, ntsim__thread_self(), &res), NRT_QUEUE_FULL);
    ck_assert_int_eq(atomic_load(&g_trap.bad), 0);
    ck_assert_int_eq(atomic_load(&g_trap.step), 4); /* claim, decide, give back, P1 again */
    ntsim_ring_counts_t c;
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.pushed, 1);
    ck_assert_uint_eq(c.busy, 1); /* (overwritten waits for the pop's drained: not quiet) */
    ck_assert_uint_eq(ntsim__ring_stamp_load(r, 0), ntsim__stamp(0, NTSIM_STAMP_YIELDED));
    atomic_store(&r->drained, 1); /* C5: copied, handed out, released */
    atomic_store(&r->release, 1);
    res = reserve_at(r, 6, 1);
    memset(res.rec, 0, sizeof *res.rec);
    ntsim__ring_commit(&res);
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.overwritten, 0);
    ck_assert_uint_eq(c.first_overwrite_ns, 0);
    ck_assert(ntsim__ring_valid(r));
    trap_free(orig);
}
END_TEST

/* A push on another thread that the trap stops at its claim: at `clock`,
 * its record's nc_local_id = `id`; st and pos say how it ended. */
typedef struct trapped_push {
    ntsim_ring_t *ring;
    uint64_t clock, id;
    NRT_STATUS st;
    uint64_t pos;
} trapped_push_t;

static void *push_trapped(void *arg)
{
    trapped_push_t *t = arg;
    ntsim_ring_reservation_t res;
    t->st = ntsim__ring_reserve(t->ring, t->clock, ntsim__thread_self(), &res);
    if (t->st == NRT_SUCCESS) {
        memset(res.rec, 0, sizeof *res.rec);
        res.rec->nc_local_id = t->id;
        t->pos = res.pos;
        ntsim__ring_commit(&res);
    }
    return NULL;
}

/* Starts *a's push on thread *t and returns once the armed trap holds it. */
static void start_trapped_push(trapped_push_t *a, pthread_t *t)
{
    ck_assert_int_eq(pthread_create(t, NULL, push_trapped, a), 0);
    while (!atomic_load(&g_trap.paused))
        nanosleep(&(struct timespec){0, 100000}, NULL);
}

/* C4 and C5 with an evicted record inside a batch. Ring of 4 holding 0..3;
 * push 4 (thread A) claims and stops before P3; push 5 claims, reads K = 0,
 * evicts 1 and commits. A pop of 3 then walks 0 (still PUBLISHED(0)), passes
 * over 1 (slot shows 5), takes 2 and 3: K = 4. H = 6 > 0 + 4: the pushers
 * of 0 + 4 and 1 + 4 have claimed, so it asks (C4): A reads K = 4 > 0 and
 * yields 0 to the consumer. The pop returns 0, 2, 3 in order: a run before
 * the evicted 1 and a run after it. A's push then keeps 4 (H moved on) once
 * R passes 0; the next pop returns 4, 5. Counts: 6 pushed, 5 drained, 1
 * overwritten (position 1, at push 5's clock 15). */
START_TEST(test_ring_pop_returns_the_runs_around_a_record_evicted_inside_its_batch)
{
    ntsim_ring_t *orig;
    ntsim_ring_t *r = trap_ring(4, &orig, TRAP_PAUSE);
    push_n(r, 0, 4);
    trap_arm(4);
    trapped_push_t a = {r, 14, 4, NRT_FAILURE, 0};
    pthread_t t;
    start_trapped_push(&a, &t);
    ntsim_ring_reservation_t res;
    res = reserve_at(r, 15, 5);
    memset(res.rec, 0, sizeof *res.rec);
    res.rec->nc_local_id = 5;
    ntsim__ring_commit(&res);
    nrt_sys_trace_event_t out[8];
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 3), 3);
    ck_assert_uint_eq(out[0].nc_local_id, 0);
    ck_assert_uint_eq(out[1].nc_local_id, 2);
    ck_assert_uint_eq(out[2].nc_local_id, 3);
    pthread_join(t, NULL);
    ck_assert_int_eq(atomic_load(&g_trap.bad), 0);
    ck_assert_int_eq(a.st, NRT_SUCCESS);
    ck_assert_uint_eq(a.pos, 4);
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 8), 2);
    ck_assert_uint_eq(out[0].nc_local_id, 4);
    ck_assert_uint_eq(out[1].nc_local_id, 5);
    expect_counts(r, 6, 5, 1, 0, 15, 15);
    ck_assert(ntsim__ring_valid(r));
    trap_free(orig);
}
END_TEST

/* Ownership, the revoker's side (engine/capture/ring.c, "Ownership"; D-RING-OWNER):
 * a revoker first marks the owner word REVOKING|owner, and only then waits
 * for the owner's claim in progress (oseq odd) to end; so an owner that
 * made oseq odd and re-reads the owner word sees that it no longer owns the
 * ring and claims by CAS, never with a plain store beside the revoker's.
 * The claim in progress is this thread's: it makes oseq odd as the owner
 * does, looks for the mark while the revoker waits, then ends the claim
 * without claiming (the owner's path when the re-read is not itself). */
START_TEST(test_ring_revoker_marks_the_owner_before_waiting_for_its_claim)
{
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(8, false, &r), NRT_SUCCESS);
    push_n(r, 0, 2);
    uintptr_t me = (uintptr_t)ntsim__thread_self();
    ck_assert_uint_eq(atomic_load(&r->owner), me);
    uint64_t s = atomic_load(&r->oseq);
    ck_assert_uint_eq(s % 2, 0);
    atomic_store(&r->oseq, s + 1); /* the owner's claim begins */
    pusher_t other = {r, 2, 1};
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, push_from_another_thread, &other), 0);
    uintptr_t seen = me;
    for (int i = 0; i < 50000 && (seen = atomic_load(&r->owner)) == me; i++)
        usleep(100); /* at most 5 s: the mark is the revoker's first step */
    atomic_store(&r->oseq, s + 2); /* the owner's claim ends, unclaimed */
    pthread_join(t, NULL);
    ck_assert_uint_eq(seen, me | NTSIM_RING_OWNER_REVOKING);
    ck_assert_uint_eq(atomic_load(&r->owner), NTSIM_RING_OWNER_SHARED);
    push_n(r, 3, 1); /* the former owner, now by CAS */
    ck_assert(ntsim__ring_valid(r));
    nrt_sys_trace_event_t out[8];
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 8), 4);
    for (uint64_t i = 0; i < 4; i++)
        ck_assert_uint_eq(out[i].nc_local_id, i);
    ntsim__ring_destroy(r);
}
END_TEST

/* Destroy returns the ring's storage: the slots' mapping (D-RING-MEMORY
 * maps one per ring, and stop() destroys a session's rings) is unmapped
 * afterwards, so mincore() on its range fails with ENOMEM, as on any
 * unmapped range, where it succeeded before. */
START_TEST(test_ring_destroy_unmaps_its_slots)
{
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(64, true, &r), NRT_SUCCESS);
    void *slots = (void *)r->slots;
    size_t bytes = r->map_bytes;
    long page = sysconf(_SC_PAGESIZE);
    ck_assert_int_gt(page, 0);
    unsigned char *vec = malloc(bytes / (size_t)page + 1);
    ck_assert_ptr_nonnull(vec);
    ck_assert_int_eq(mincore(slots, bytes, vec), 0);
    ntsim__ring_destroy(r);
    errno = 0;
    int rc = mincore(slots, bytes, vec);
    int err = errno;
    free(vec);
    ck_assert_int_eq(rc, -1);
    ck_assert_int_eq(err, ENOMEM);
}
END_TEST

/* A drain of 8 MiB or more (engine/capture/ring.c, NTSIM_RING_NT_BYTES; D-RING:
 * "non-temporal drains") copies with streaming stores into an aligned
 * buffer: the bytes must be the ones pushed, every one of them, exactly as
 * the cached copy gives them. 80,000 records of 112 bytes are 8.5 MiB; each
 * record is filled with a pattern of its push index, so a record copied from
 * the wrong slot, a 16-byte block moved or left out, shows. */
static unsigned char big_pattern(uint64_t i, size_t b)
{
    return (unsigned char)(i * 131 + b * 7 + (i >> 8));
}

START_TEST(test_ring_large_drain_copies_every_byte_with_streaming_stores)
{
    enum { N = 80000 };
    ck_assert_uint_ge((uint64_t)N * sizeof(nrt_sys_trace_event_t), (uint64_t)8 << 20);
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(131072, false, &r), NRT_SUCCESS);
    for (uint64_t i = 0; i < N; i++) {
        ntsim_ring_reservation_t res;
        ck_assert_int_eq(ntsim__ring_reserve(r, i, ntsim__thread_self(), &res), NRT_SUCCESS);
        unsigned char *p = (unsigned char *)res.rec;
        for (size_t b = 0; b < sizeof *res.rec; b++)
            p[b] = big_pattern(i, b);
        ntsim__ring_commit(&res);
    }
    nrt_sys_trace_event_t *out = aligned_alloc(64, (size_t)N * sizeof *out);
    ck_assert_ptr_nonnull(out);
    ck_assert_uint_eq(ntsim__ring_pop(r, out, N), N);
    size_t bad = 0;
    for (uint64_t i = 0; i < N; i++) {
        const unsigned char *p = (const unsigned char *)&out[i];
        for (size_t b = 0; b < sizeof out[i]; b++)
            bad += p[b] != big_pattern(i, b);
    }
    ck_assert_uint_eq(bad, 0);
    ntsim_ring_counts_t c;
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.pushed, N);
    ck_assert_uint_eq(c.drained, N);
    ck_assert_uint_eq(c.overwritten, 0);
    free(out);
    ntsim__ring_destroy(r);
}
END_TEST

/* More than two laps but fewer than three pushed before the first drain
 * (2C < H < 3C): overwrite-oldest (D-RING) keeps the newest C, positions
 * H - C .. H - 1, handed out oldest first; the other H - C were
 * overwritten. By hand: C = 4, H = 10: positions 6..9, 6 overwritten;
 * C = 5 (not a power of two), H = 12: positions 7..11, 7 overwritten.
 * The drain starts its walk at H - 2C (position 2 in both; ring.c, C1) and
 * passes over the slots that hold a later lap. */
START_TEST(test_ring_drain_between_two_and_three_laps_returns_the_newest_lap)
{
    static const struct {
        uint64_t cap, pushed;
    } runs[] = {{4, 10}, {5, 12}};
    for (size_t i = 0; i < 2; i++) {
        ntsim_ring_t *r;
        ck_assert_int_eq(ntsim__ring_create(runs[i].cap, false, &r), NRT_SUCCESS);
        push_n(r, 0, runs[i].pushed);
        nrt_sys_trace_event_t out[8];
        ck_assert_uint_eq(ntsim__ring_pop(r, out, 8), runs[i].cap);
        for (uint64_t k = 0; k < runs[i].cap; k++)
            ck_assert_uint_eq(out[k].nc_local_id, runs[i].pushed - runs[i].cap + k);
        ntsim_ring_counts_t c;
        ntsim__ring_counts(r, &c);
        ck_assert_uint_eq(c.drained, runs[i].cap);
        ck_assert_uint_eq(c.overwritten, runs[i].pushed - runs[i].cap);
        ck_assert(ntsim__ring_valid(r));
        ntsim__ring_destroy(r);
    }
}
END_TEST

/* YIELDED(q) means the consumer took q (ring.c, the stamp states), so the
 * consistency check accepts it only below the claim K. By hand: C = 4, six
 * pushes, then a pop of one takes position 2 (0 and 1 were overwritten),
 * so K = 3; slots 2 and 3 hold positions 2 and 3. YIELDED(2) is
 * consistent (2 < K); YIELDED(3) is not (3 == K: not taken yet). */
START_TEST(test_ring_valid_accepts_a_yielded_stamp_only_below_the_claim)
{
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(4, false, &r), NRT_SUCCESS);
    push_n(r, 0, 6);
    nrt_sys_trace_event_t out[1];
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 1), 1);
    ck_assert_uint_eq(out[0].nc_local_id, 2);
    ck_assert_uint_eq(atomic_load(&r->claim), 3);
    ck_assert(ntsim__ring_valid(r));
    uint64_t saved2 = atomic_load(&r->slots[2].stamp);
    atomic_store(&r->slots[2].stamp, ntsim__stamp(2, NTSIM_STAMP_YIELDED) - (2 << 2));
    ck_assert(ntsim__ring_valid(r));
    atomic_store(&r->slots[2].stamp, saved2);
    uint64_t saved3 = atomic_load(&r->slots[3].stamp);
    atomic_store(&r->slots[3].stamp, ntsim__stamp(3, NTSIM_STAMP_YIELDED) - (3 << 2));
    ck_assert(!ntsim__ring_valid(r));
    atomic_store(&r->slots[3].stamp, saved3);
    ck_assert(ntsim__ring_valid(r));
    ntsim__ring_destroy(r);
}
END_TEST

/* ring.h: ntsim__ring_create takes 1 <= capacity <= 2^40, and refuses a bad
 * capacity with NRT_INVALID, a mapping that fails with NRT_RESOURCE. So the
 * largest capacities are never NRT_INVALID. 2^40 records are 2^47 bytes of
 * slots, more than x86-64's 47-bit user address space holds: the mapping
 * fails, NRT_RESOURCE, *out NULL and the half-built ring freed (ASan's leak
 * check). 2^39 + 1 maps only where overcommit lets it: either answer but
 * NRT_INVALID. */
static void check_capacity_is_accepted(uint64_t cap)
{
    ntsim_ring_t *r = (ntsim_ring_t *)1;
    NRT_STATUS st = ntsim__ring_create(cap, false, &r);
#if defined(__x86_64__)
    if (cap == UINT64_C(1) << 40)
        ck_assert_int_eq(st, NRT_RESOURCE);
#endif
    ck_assert_msg(st == NRT_SUCCESS || st == NRT_RESOURCE, "capacity %llu: status %d",
                  (unsigned long long)cap, (int)st);
    if (st == NRT_SUCCESS) {
        ck_assert_uint_eq(ntsim__ring_capacity(r), cap);
        ntsim__ring_destroy(r);
    } else {
        ck_assert_ptr_null(r);
    }
}

START_TEST(test_ring_accepts_every_capacity_up_to_two_to_the_forty)
{
    check_capacity_is_accepted(UINT64_C(1) << 40);
    check_capacity_is_accepted((UINT64_C(1) << 39) + 1);
}
END_TEST

/* --- a drain stopped in the middle of its copy ----------------------------------
 *
 * The drain's output buffer ends its first 256 records exactly at a page
 * boundary, and the pages after it are protected: the drain's first write
 * of out[256] stops it there, inside C5 of the batch that starts at 256,
 * and the SIGSEGV handler (the drain's thread, stopped) pushes. */
static struct {
    ntsim_ring_t *r;
    char *lo, *hi; /* the protected range */
    uint64_t admitted;
    NRT_STATUS refused;
    _Atomic int fired;
} g_copy_trap;
static struct sigaction g_copy_trap_old;

static void copy_trap_handler(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)uc;
    char *at = si->si_addr;
    if (at < g_copy_trap.lo || at >= g_copy_trap.hi || atomic_load(&g_copy_trap.fired)) {
        sigaction(SIGSEGV, &g_copy_trap_old, NULL); /* not ours: fault again, for real */
        return;
    }
    atomic_store(&g_copy_trap.fired, 1);
    mprotect(g_copy_trap.lo, (size_t)(g_copy_trap.hi - g_copy_trap.lo), PROT_READ | PROT_WRITE);
    /* Push until refused (at most 300 tries). */
    for (uint64_t i = 0; i < 300; i++) {
        ntsim_ring_reservation_t res;
        NRT_STATUS st = ntsim__ring_reserve(g_copy_trap.r, 5000 + i, ntsim__thread_self(), &res);
        if (st != NRT_SUCCESS) {
            g_copy_trap.refused = st;
            return;
        }
        memset(res.rec, 0, sizeof *res.rec);
        res.rec->nc_local_id = 512 + i;
        ntsim__ring_commit(&res);
        g_copy_trap.admitted++;
    }
}

/* D-RING: a drain copies a batch of 256 records at a time, and a push that
 * needs a slot of the batch being copied is refused as busy; the slots of
 * the batches it has released take pushes again. By hand: C = 512 holding
 * positions 0..511; a pop of 512 claims 0..255 (K = 256), copies them and
 * releases them (R = 256), claims 256..511 (K = 512) and starts copying
 * them: it stops at out[256]. There, pushes at 512..767 replace 0..255,
 * which the drain took and released: 256 admitted, no eviction; the push
 * at 768 needs 256's slot, being copied: refused, busy 1, no position. The
 * pop then returns 0..511 in order, and the next one 512..767. */
START_TEST(test_ring_drain_holds_one_batch_of_256_while_it_copies)
{
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(512, false, &r), NRT_SUCCESS);
    push_n(r, 0, 512);
    long page = sysconf(_SC_PAGESIZE);
    ck_assert_int_gt(page, 0);
    size_t pg = (size_t)page;
    size_t head_bytes = 256 * sizeof(nrt_sys_trace_event_t); /* out[0..255] */
    size_t tail_bytes = 256 * sizeof(nrt_sys_trace_event_t); /* out[256..511] */
    size_t head_pages = (head_bytes + pg - 1) / pg, tail_pages = (tail_bytes + pg - 1) / pg;
    char *map = mmap(NULL, (head_pages + tail_pages) * pg, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ck_assert(map != MAP_FAILED);
    char *boundary = map + head_pages * pg;
    nrt_sys_trace_event_t *out = (nrt_sys_trace_event_t *)(void *)(boundary - head_bytes);
    g_copy_trap.r = r;
    g_copy_trap.lo = boundary;
    g_copy_trap.hi = boundary + tail_pages * pg;
    g_copy_trap.admitted = 0;
    g_copy_trap.refused = NRT_SUCCESS;
    atomic_store(&g_copy_trap.fired, 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = copy_trap_handler;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    ck_assert_int_eq(sigaction(SIGSEGV, &sa, &g_copy_trap_old), 0);
    ck_assert_int_eq(mprotect(g_copy_trap.lo, tail_pages * pg, PROT_NONE), 0);
    size_t n = ntsim__ring_pop(r, out, 512);
    sigaction(SIGSEGV, &g_copy_trap_old, NULL);
    ck_assert_int_eq(atomic_load(&g_copy_trap.fired), 1);
    ck_assert_uint_eq(g_copy_trap.admitted, 256);
    ck_assert_int_eq(g_copy_trap.refused, NRT_QUEUE_FULL);
    ck_assert_uint_eq(n, 512);
    for (uint64_t i = 0; i < 512; i++)
        ck_assert_uint_eq(out[i].nc_local_id, i);
    ntsim_ring_counts_t c;
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.pushed, 768);
    ck_assert_uint_eq(c.busy, 1);
    ck_assert_uint_eq(c.drained, 512);
    ck_assert_uint_eq(c.overwritten, 0);
    ck_assert_uint_eq(c.first_overwrite_ns, 0);
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 512), 256);
    for (uint64_t i = 0; i < 256; i++)
        ck_assert_uint_eq(out[i].nc_local_id, 512 + i);
    ck_assert(ntsim__ring_valid(r));
    munmap(map, (head_pages + tail_pages) * pg);
    ntsim__ring_destroy(r);
}
END_TEST

/* --- a revoker that finds the owner already marked -------------------------------
 *
 * The ring's read-mostly line (owner and the geometry) starts a page of its
 * own, read-only: a revoker's first write, its CAS of owner (T ->
 * REVOKING|T), stops in the SIGSEGV handler, which acts for a second
 * revoker that marked the owner first: the CAS then fails and finds
 * REVOKING|T. */
static struct {
    char *page;
    size_t len;
    ntsim_ring_t *r;
    _Atomic int marked;
} g_mark_trap;
static struct sigaction g_mark_trap_old;

static void mark_trap_handler(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)uc;
    char *at = si->si_addr;
    if (at < g_mark_trap.page || at >= g_mark_trap.page + g_mark_trap.len ||
        atomic_load(&g_mark_trap.marked)) {
        sigaction(SIGSEGV, &g_mark_trap_old, NULL);
        return;
    }
    mprotect(g_mark_trap.page, g_mark_trap.len, PROT_READ | PROT_WRITE);
    atomic_fetch_or(&g_mark_trap.r->owner, NTSIM_RING_OWNER_REVOKING);
    atomic_store(&g_mark_trap.marked, 1);
}

typedef struct revoker_push {
    ntsim_ring_t *ring;
    NRT_STATUS st;
    uint64_t pos;
} revoker_push_t;

static void *push_as_a_revoker(void *arg)
{
    revoker_push_t *t = arg;
    ntsim_ring_reservation_t res;
    t->st = ntsim__ring_reserve(t->ring, 30, ntsim__thread_self(), &res);
    if (t->st == NRT_SUCCESS) {
        memset(res.rec, 0, sizeof *res.rec);
        res.rec->nc_local_id = 3;
        t->pos = res.pos;
        ntsim__ring_commit(&res);
    }
    return NULL;
}

/* Ownership (engine/capture/ring.c; D-RING-OWNER): "Several revokers may run this
 * at once; each waits for itself." A revoker whose CAS of owner finds that
 * another revoker marked it first still waits until the owner's claim in
 * progress is over, then sets SHARED, and only then claims by CAS. Here
 * the owner (this thread, positions 0 and 1) has begun a claim: oseq odd,
 * and its re-read of owner still saw itself. The revoker's CAS finds
 * REVOKING|owner; the owner then claims position 2 with its plain store,
 * commits and ends the claim (oseq even). The revoker, which had to wait,
 * claims 3. The ring is SHARED, and a drain returns 0, 1, 2, 3. */
START_TEST(test_ring_revoker_that_finds_the_owner_marked_still_waits_for_its_claim)
{
#if defined(__SANITIZE_THREAD__)
    /* ThreadSanitizer does not run the SIGSEGV trap at the revoker's CAS as
     * the test needs (the revoker never marks), and a failed assertion would
     * leave it running on this frame: the test runs natively and under ASan. */
    return;
#endif
    ntsim_ring_t *orig;
    ck_assert_int_eq(ntsim__ring_create(8, false, &orig), NRT_SUCCESS);
    long page = sysconf(_SC_PAGESIZE);
    ck_assert_int_gt(page, 0);
    size_t pg = (size_t)page;
    char *map = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ck_assert(map != MAP_FAILED);
    ntsim_ring_t *r = (ntsim_ring_t *)(void *)(map + pg - offsetof(ntsim_ring_t, owner));
    memcpy(r, orig, sizeof *r);
    push_n(r, 0, 2);
    uintptr_t me = (uintptr_t)ntsim__thread_self();
    ck_assert_uint_eq(atomic_load(&r->owner), me);
    uint64_t s = atomic_load(&r->oseq);
    ck_assert_uint_eq(s % 2, 0);
    atomic_store(&r->oseq, s + 1);                 /* the owner's claim begins */
    ck_assert_uint_eq(atomic_load(&r->owner), me); /* its re-read: still the owner */
    g_mark_trap.page = map + pg;
    g_mark_trap.len = pg;
    g_mark_trap.r = r;
    atomic_store(&g_mark_trap.marked, 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = mark_trap_handler;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    ck_assert_int_eq(sigaction(SIGSEGV, &sa, &g_mark_trap_old), 0);
    ck_assert_int_eq(mprotect(g_mark_trap.page, pg, PROT_READ), 0);
    revoker_push_t other = {r, NRT_FAILURE, 0};
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, push_as_a_revoker, &other), 0);
    for (int i = 0; i < 50000 && !atomic_load(&g_mark_trap.marked); i++)
        usleep(100); /* at most 5 s */
    ck_assert_int_eq(atomic_load(&g_mark_trap.marked), 1);
    /* The owner's claim, which began before the mark. */
    ntsim_ring_reservation_t res;
    ck_assert_int_eq(ntsim__ring_claim_owned(r, 20, &res), NRT_SUCCESS);
    memset(res.rec, 0, sizeof *res.rec);
    res.rec->nc_local_id = 2;
    ntsim__ring_commit(&res);
    atomic_store(&r->oseq, s + 2); /* the owner's claim ends */
    pthread_join(t, NULL);
    sigaction(SIGSEGV, &g_mark_trap_old, NULL);
    ck_assert_uint_eq(res.pos, 2);
    ck_assert_int_eq(other.st, NRT_SUCCESS);
    ck_assert_uint_eq(other.pos, 3);
    ck_assert_uint_eq(atomic_load(&r->owner), NTSIM_RING_OWNER_SHARED);
    ck_assert(ntsim__ring_valid(r));
    nrt_sys_trace_event_t out[8];
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 8), 4);
    for (uint64_t i = 0; i < 4; i++)
        ck_assert_uint_eq(out[i].nc_local_id, i);
    munmap(map, 2 * pg);
    ntsim__ring_destroy(orig);
}
END_TEST

/* As test_ring_shared_push_gives_its_position_back_when_the_consumer_took_the_oldest,
 * at a slot other than 0, where the stored stamp is the logical one minus
 * 4 * slot (ring.c, "Storage"). By hand: C = 4, positions 0..3, a pop of
 * one takes 0 (K = R = 1); a push at 4 replaces 0, which the consumer took
 * (no eviction). The push at 5 (slot 1, p = 1) claims, and the consumer's
 * C3 takes 1 first (K = 2, R = 1: copying): it stamps YIELDED(1), gives 5
 * back and, the consumer still copying, is refused: busy 1, H = 5, slot 1
 * reads YIELDED(1). Released (R = 2, drained 2), the push takes 5 without
 * an eviction, and a drain returns 2, 3, 4, 5. */
START_TEST(test_ring_shared_push_gives_back_a_position_in_a_later_slot)
{
    ntsim_ring_t *orig;
    ntsim_ring_t *r = trap_ring(4, &orig, TRAP_GIVE_BACK);
    push_n(r, 0, 4);
    nrt_sys_trace_event_t out[8];
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 1), 1);
    ck_assert_uint_eq(out[0].nc_local_id, 0);
    push_n(r, 4, 1);
    trap_arm(5);
    ntsim_ring_reservation_t res;
    ck_assert_int_eq(ntsim__ring_reserve(r, 5, ntsim__thread_self(), &res), NRT_QUEUE_FULL);
    ck_assert_int_eq(atomic_load(&g_trap.bad), 0);
    ck_assert_int_eq(atomic_load(&g_trap.step), 4);
    ntsim_ring_counts_t c;
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.pushed, 5);
    ck_assert_uint_eq(c.busy, 1);
    ck_assert_uint_eq(ntsim__ring_stamp_load(r, 1), ntsim__stamp(1, NTSIM_STAMP_YIELDED));
    atomic_store(&r->drained, 2); /* C5: copied, handed out, released */
    atomic_store(&r->release, 2);
    res = reserve_at(r, 6, 5);
    memset(res.rec, 0, sizeof *res.rec);
    res.rec->nc_local_id = 5;
    ntsim__ring_commit(&res);
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.pushed, 6);
    ck_assert_uint_eq(c.overwritten, 0);
    ck_assert_uint_eq(c.first_overwrite_ns, 0);
    ck_assert(ntsim__ring_valid(r));
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 8), 4);
    for (uint64_t i = 0; i < 4; i++)
        ck_assert_uint_eq(out[i].nc_local_id, 2 + i);
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.drained, 6);
    ck_assert_uint_eq(c.overwritten, 0);
    trap_free(orig);
}
END_TEST

/* --- a shared push whose position went stale while it waited ----------------------
 *
 * The slots' first page is protected: a push's first look at a slot (P1)
 * stops in the SIGSEGV handler, which acts for the threads that moved on
 * between the push's read of H and that look. */
static struct {
    ntsim_ring_t *r;
    char *page;
    size_t len;
    _Atomic int fired;
} g_slot_trap;
static struct sigaction g_slot_trap_old;

static void slot_trap_handler(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)uc;
    char *at = si->si_addr;
    if (at < g_slot_trap.page || at >= g_slot_trap.page + g_slot_trap.len ||
        atomic_load(&g_slot_trap.fired)) {
        sigaction(SIGSEGV, &g_slot_trap_old, NULL);
        return;
    }
    atomic_store(&g_slot_trap.fired, 1);
    mprotect(g_slot_trap.page, g_slot_trap.len, PROT_READ | PROT_WRITE);
    ntsim_ring_t *r = g_slot_trap.r;
    /* Y claimed 4 (H = 5) while K was 0; the consumer's C3 took 0 (K = 1,
     * R = 0: copying); Y's P3 read K = 1: it stamped YIELDED(0). Z claimed
     * 5 (H = 6), so Y's give-back failed: Y keeps 4 and waits for R > 0.
     * Z read K = 1 <= 1: it evicted 1 (clock 55) and committed 5. */
    atomic_store(&r->claim, 1);
    atomic_store(&r->slots[0].stamp, ntsim__stamp(0, NTSIM_STAMP_YIELDED) - (0 << 2));
    atomic_store(&r->head, 6);
    memset(&r->slots[1].rec, 0, sizeof r->slots[1].rec);
    r->slots[1].rec.nc_local_id = 5;
    atomic_store(&r->last_overwrite_ns, 55);
    atomic_store(&r->first_overwrite_ns, 55);
    atomic_store(&r->slots[1].stamp, ntsim__stamp(5, NTSIM_STAMP_PUBLISHED) - (1 << 2));
}

/* P1 of a shared push (claim_shared) reads H again on every spin: a push
 * that read H = 4 and then finds slot 4 held (the consumer copies 0, which
 * Y, the pusher of 4, yielded to it) while H moved on to 6 claims 6 at
 * once, where the slot is free to take (2 >= K: it evicts 2); it is not
 * refused as busy while the consumer copies. Afterwards (by hand): the
 * consumer ends its copy of 0 (R = 1, drained 1), Y commits 4; pushed 7,
 * consumed max(K = 1, 7 - 4) = 3, overwritten 2 (1 and 2), first overwrite
 * at Z's clock 55, the latest at this push's 66; a drain returns 3..6. */
START_TEST(test_ring_shared_push_reads_the_head_again_while_its_slot_is_held)
{
    if (ntsim_check_under_valgrind())
        return;
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(4, false, &r), NRT_SUCCESS);
    push_n(r, 0, 4);
    atomic_store(&r->owner, NTSIM_RING_OWNER_SHARED); /* a revoked ring: claims by CAS */
    long page = sysconf(_SC_PAGESIZE);
    ck_assert_int_gt(page, 0);
    g_slot_trap.r = r;
    g_slot_trap.page = (char *)(void *)r->slots;
    g_slot_trap.len = (size_t)page;
    atomic_store(&g_slot_trap.fired, 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = slot_trap_handler;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    ck_assert_int_eq(sigaction(SIGSEGV, &sa, &g_slot_trap_old), 0);
    ck_assert_int_eq(mprotect(g_slot_trap.page, g_slot_trap.len, PROT_NONE), 0);
    ntsim_ring_reservation_t res;
    NRT_STATUS st = ntsim__ring_reserve(r, 66, ntsim__thread_self(), &res);
    sigaction(SIGSEGV, &g_slot_trap_old, NULL);
    ck_assert_int_eq(atomic_load(&g_slot_trap.fired), 1);
    ck_assert_int_eq(st, NRT_SUCCESS);
    ck_assert_uint_eq(res.pos, 6);
    memset(res.rec, 0, sizeof *res.rec);
    res.rec->nc_local_id = 6;
    ntsim__ring_commit(&res);
    /* The consumer's C5 of 0; then Y, released, writes and commits 4. */
    atomic_store(&r->drained, 1);
    atomic_store(&r->release, 1);
    memset(&r->slots[0].rec, 0, sizeof r->slots[0].rec);
    r->slots[0].rec.nc_local_id = 4;
    atomic_store(&r->slots[0].stamp, ntsim__stamp(4, NTSIM_STAMP_PUBLISHED) - (0 << 2));
    ntsim_ring_counts_t c;
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.pushed, 7);
    ck_assert_uint_eq(c.busy, 0);
    ck_assert_uint_eq(c.overwritten, 2);
    ck_assert_uint_eq(c.first_overwrite_ns, 55);
    ck_assert_uint_eq(c.last_overwrite_ns, 66);
    ck_assert(ntsim__ring_valid(r));
    nrt_sys_trace_event_t out[8];
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 8), 4);
    for (uint64_t i = 0; i < 4; i++)
        ck_assert_uint_eq(out[i].nc_local_id, 3 + i);
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.drained, 5);
    ck_assert_uint_eq(c.overwritten, 2);
    ck_assert(ntsim__ring_valid(r));
    ntsim__ring_destroy(r);
}
END_TEST

/* ring.h and D-RING-MEMORY: a ring created with `prefault` has every page
 * of its slots mapped at creation; without it, pages are mapped on first
 * touch (a session above the budget starts, and only the NCs that receive
 * events use memory). mincore() says which pages are mapped: a ring of
 * 4 pages of slots (32 slots of 128 bytes per 4 KiB page) without prefault
 * has none mapped after creation, and after one push (position 0, slot 0)
 * only the first; with prefault, all four. */
START_TEST(test_ring_without_prefault_maps_its_pages_on_first_touch)
{
    long page = sysconf(_SC_PAGESIZE);
    ck_assert_int_gt(page, 0);
    uint64_t per_page = (uint64_t)page / sizeof(ntsim_ring_slot_t);
    unsigned char vec[4];
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(4 * per_page, false, &r), NRT_SUCCESS);
    ck_assert_uint_eq(r->map_bytes, 4 * (size_t)page);
    ck_assert_int_eq(mincore((void *)r->slots, r->map_bytes, vec), 0);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(vec[i] & 1, 0);
    push_n(r, 0, 1);
    ck_assert_int_eq(mincore((void *)r->slots, r->map_bytes, vec), 0);
    ck_assert_int_eq(vec[0] & 1, 1);
    for (int i = 1; i < 4; i++)
        ck_assert_int_eq(vec[i] & 1, 0);
    ntsim__ring_destroy(r);
    ck_assert_int_eq(ntsim__ring_create(4 * per_page, true, &r), NRT_SUCCESS);
    ck_assert_int_eq(mincore((void *)r->slots, r->map_bytes, vec), 0);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(vec[i] & 1, 1);
    ntsim__ring_destroy(r);
}
END_TEST

/* Fills the next `n` pushes of `r`, push index i from `first`, with
 * big_pattern(i, b) in every byte b of the record. */
static void push_patterned(ntsim_ring_t *r, uint64_t first, uint64_t n)
{
    for (uint64_t i = first; i < first + n; i++) {
        ntsim_ring_reservation_t res;
        ck_assert_int_eq(ntsim__ring_reserve(r, i, ntsim__thread_self(), &res), NRT_SUCCESS);
        unsigned char *p = (unsigned char *)res.rec;
        for (size_t b = 0; b < sizeof *res.rec; b++)
            p[b] = big_pattern(i, b);
        ntsim__ring_commit(&res);
    }
}

/* How many bytes of out[0 .. n - 1] differ from big_pattern of push index i. */
static size_t patterned_mismatches(const nrt_sys_trace_event_t *out, uint64_t n)
{
    size_t bad = 0;
    for (uint64_t i = 0; i < n; i++) {
        const unsigned char *p = (const unsigned char *)&out[i];
        for (size_t b = 0; b < sizeof out[i]; b++)
            bad += p[b] != big_pattern(i, b);
    }
    return bad;
}

/* A drain of 8 MiB or more whose range wraps past the end of the ring
 * (D-RING: oldest first, 112-byte stride; the non-temporal path), into an
 * aligned buffer one record longer than asked for. By hand: C = 100000 (not
 * a power of two); skip_to(160000) makes position 160000 the next, in slot
 * 160000 mod C = 60000, with K = R = drained = 160000; 80000 pushes then
 * take positions 160000 .. 239999, slots 60000 .. 99999 and then 0 .. 39999,
 * and evict nothing (each replaced position is below K and R: the consumer
 * had it). 80000 x 112 bytes = 8,960,000 >= 8 MiB. The pop returns the
 * 80000 records in push order, byte for byte, and writes nothing past
 * out[79999]: the record after them keeps its 0xa5 bytes. */
START_TEST(test_ring_large_drain_across_the_end_of_the_ring_is_byte_exact_and_in_bounds)
{
    enum { N = 80000, C = 100000 };
    ck_assert_uint_ge((uint64_t)N * sizeof(nrt_sys_trace_event_t), (uint64_t)8 << 20);
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(C, false, &r), NRT_SUCCESS);
    ck_assert(ntsim__ring_skip_to(r, 2 * C - 40000));
    push_patterned(r, 0, N);
    /* aligned_alloc wants a multiple of the alignment (C11 7.22.3.1) */
    nrt_sys_trace_event_t *out = aligned_alloc(64, ((size_t)N + 1) * sizeof *out / 64 * 64 + 64);
    ck_assert_ptr_nonnull(out);
    memset(&out[N], 0xa5, sizeof out[N]);
    ck_assert_uint_eq(ntsim__ring_pop(r, out, N), N);
    ck_assert_uint_eq(patterned_mismatches(out, N), 0);
    size_t clobbered = 0;
    for (size_t b = 0; b < sizeof out[N]; b++)
        clobbered += ((const unsigned char *)&out[N])[b] != 0xa5;
    ck_assert_uint_eq(clobbered, 0);
    ntsim_ring_counts_t c;
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.pushed, 2 * C - 40000 + N);
    ck_assert_uint_eq(c.drained, 2 * C - 40000 + N);
    ck_assert_uint_eq(c.overwritten, 0);
    ck_assert_uint_eq(ntsim__ring_pop(r, out, N), 0);
    ck_assert(ntsim__ring_valid(r));
    free(out);
    ntsim__ring_destroy(r);
}
END_TEST

/* The caller's buffer only has the record type's alignment (8 bytes), not
 * the 16 that streaming stores need: a drain of 8 MiB or more into it is
 * still byte-exact (ring.h: out[] at a 112-byte stride; the non-temporal
 * path is a choice of the engine, D-RING, not a requirement on the caller).
 * out starts 8 bytes into a 64-byte-aligned block: 8 mod 16 and 8 mod 32.
 * 80000 pushes into a ring of 80000 (nothing evicted), one pop of 80000. */
START_TEST(test_ring_large_drain_into_a_buffer_aligned_to_8_bytes_is_byte_exact)
{
    enum { N = 80000 };
    ck_assert_uint_eq(_Alignof(nrt_sys_trace_event_t), 8);
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(N, false, &r), NRT_SUCCESS);
    push_patterned(r, 0, N);
    unsigned char *block = aligned_alloc(64, ((size_t)N + 1) * sizeof(nrt_sys_trace_event_t) / 64 * 64 + 64);
    ck_assert_ptr_nonnull(block);
    nrt_sys_trace_event_t *out = (nrt_sys_trace_event_t *)(void *)(block + 8);
    ck_assert_uint_eq((uintptr_t)out % 32, 8);
    ck_assert_uint_eq(ntsim__ring_pop(r, out, N), N);
    ck_assert_uint_eq(patterned_mismatches(out, N), 0);
    ntsim_ring_counts_t c;
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.drained, N);
    ck_assert_uint_eq(c.overwritten, 0);
    free(block);
    ntsim__ring_destroy(r);
}
END_TEST

typedef struct timed_pop {
    ntsim_ring_t *ring;
    nrt_sys_trace_event_t *out;
    size_t max, n;
    _Atomic int done;
} timed_pop_t;

static void *pop_in_a_thread(void *arg)
{
    timed_pop_t *t = arg;
    t->n = ntsim__ring_pop(t->ring, t->out, t->max);
    atomic_store(&t->done, 1);
    return NULL;
}

/* A drain must not go back below its claim K (ring.c, C1: d = K, or H - 2C
 * when that is larger): positions below K were drained already. By hand,
 * C = 4, one producer: push 0..3; pop 2 (positions 0, 1: K = R = 2); push 4
 * (replaces 0, below R: no eviction); reserve 5 (replaces 1, below R) and
 * hold it uncommitted, so slot 1 still says PUBLISHED(1); push 6, 7, 8
 * (evict 2, 3 and 4, at clocks 1006, 1007, 1008). H = 9. The next pop walks
 * from K = 2: 2, 3, 4 show later laps (evicted), 5 is not committed: it
 * returns 0 at once (ring.h: it stops at an uncommitted record) and neither
 * hands out position 1 again nor waits for the push of 5. It runs in a
 * thread and gets 5 s. Once 5 commits, a pop returns 5, 6, 7, 8. Counts: 9
 * pushed, 6 drained, 3 overwritten. */
START_TEST(test_ring_pop_neither_returns_nor_waits_on_a_drained_record_being_replaced)
{
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(4, false, &r), NRT_SUCCESS);
    push_n(r, 0, 4);
    nrt_sys_trace_event_t out[8];
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 2), 2);
    ck_assert_uint_eq(out[0].nc_local_id, 0);
    ck_assert_uint_eq(out[1].nc_local_id, 1);
    push_n(r, 4, 1);
    ntsim_ring_reservation_t held;
    held = reserve_at(r, 1005, 5);
    memset(held.rec, 0, sizeof *held.rec);
    held.rec->nc_local_id = 5;
    push_n(r, 6, 3);
    timed_pop_t t = {.ring = r, .out = out, .max = 8, .n = 99};
    atomic_init(&t.done, 0);
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, pop_in_a_thread, &t), 0);
    for (int i = 0; i < 5000 && !atomic_load(&t.done); i++)
        usleep(1000);
    int returned = atomic_load(&t.done);
    ntsim__ring_commit(&held); /* also ends a pop that waits for it */
    pthread_join(th, NULL);
    ck_assert_int_eq(returned, 1);
    ck_assert_uint_eq(t.n, 0);
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 8), 4);
    for (uint64_t i = 0; i < 4; i++)
        ck_assert_uint_eq(out[i].nc_local_id, 5 + i);
    expect_counts(r, 9, 6, 3, 0, 1006, 1008);
    ck_assert(ntsim__ring_valid(r));
    ntsim__ring_destroy(r);
}
END_TEST

/* C1 starts the walk at H - 2C, not H - C (ring.c, C2: the model's
 * counterexample): a record whose evicting push has claimed but not yet
 * read K still belongs to whichever side decides first. By hand, C = 4,
 * shared: push 0..4 (4 evicts 0, clock 1004); thread A's push claims 5
 * (replacing 1) and stops before P3; pushes 6, 7, 8 evict 2, 3, 4 (clocks
 * 1006..1008). H = 9, K = 0. A pop of 1 walks from H - 2C = 1: slot 1
 * still says PUBLISHED(1), so it claims 1 (K = 2), asks A's push (C4: A
 * reads K = 2 > 1, yields), and returns record 1. A then keeps 5 once R
 * passes 1; the next pop returns 5, 6, 7, 8. Counts: 9 pushed, 5 drained, 4
 * overwritten (0, 2, 3, 4). A drain that started at H - C = 5 would find 5
 * uncommitted, return nothing and leave record 1 to nobody. */
START_TEST(test_ring_pop_takes_the_oldest_record_before_its_evicting_push_decides)
{
    ntsim_ring_t *orig;
    ntsim_ring_t *r = trap_ring(4, &orig, TRAP_PAUSE);
    push_n(r, 0, 5);
    trap_arm(5);
    trapped_push_t a = {r, 1005, 5, NRT_FAILURE, 0};
    pthread_t t;
    start_trapped_push(&a, &t);
    push_n(r, 6, 3);
    nrt_sys_trace_event_t out[8];
    memset(out, 0, sizeof out);
    size_t n = ntsim__ring_pop(r, out, 1);
    if (atomic_load(&r->claim) == 0)
        atomic_store(&r->claim, 1); /* the pop took nothing: let A go on, so that we fail, not hang */
    pthread_join(t, NULL);
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(out[0].nc_local_id, 1);
    ck_assert_int_eq(atomic_load(&g_trap.bad), 0);
    ck_assert_int_eq(a.st, NRT_SUCCESS);
    ck_assert_uint_eq(a.pos, 5);
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 8), 4);
    for (uint64_t i = 0; i < 4; i++)
        ck_assert_uint_eq(out[i].nc_local_id, 5 + i);
    expect_counts(r, 9, 5, 4, 0, 1004, 1008);
    ck_assert(ntsim__ring_valid(r));
    trap_free(orig);
}
END_TEST

/* The consistency check looks at the release too: R below K means a pop is
 * between its claim (C3) and its release (C5), so the ring is not quiet.
 * By hand: C = 4, six pushes, a pop of one: K = R = 3. R = 2 with K = 3 is
 * reported; K is not above pushed (6), so only the R test can see it. */
START_TEST(test_ring_valid_reports_a_release_behind_the_claim)
{
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(4, false, &r), NRT_SUCCESS);
    push_n(r, 0, 6);
    nrt_sys_trace_event_t out[1];
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 1), 1);
    ck_assert_uint_eq(atomic_load(&r->claim), 3);
    ck_assert_uint_eq(atomic_load(&r->release), 3);
    ck_assert(ntsim__ring_valid(r));
    atomic_store(&r->release, 2);
    ck_assert(!ntsim__ring_valid(r));
    atomic_store(&r->release, 3);
    ck_assert(ntsim__ring_valid(r));
    ntsim__ring_destroy(r);
}
END_TEST

/* The consistency check looks at every slot, the first included: C = 4,
 * six pushes (slots 0..3 hold positions 4, 5, 2, 3); each slot in turn gets
 * a stamp one lap ahead of its position, which is reported. */
START_TEST(test_ring_valid_checks_the_stamp_of_every_slot)
{
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(4, false, &r), NRT_SUCCESS);
    push_n(r, 0, 6);
    ck_assert(ntsim__ring_valid(r));
    for (uint64_t j = 0; j < 4; j++) {
        uint64_t saved = atomic_load(&r->slots[j].stamp);
        atomic_store(&r->slots[j].stamp, saved + 4 * 4); /* position + C */
        ck_assert_msg(!ntsim__ring_valid(r), "slot %u", (unsigned)j);
        atomic_store(&r->slots[j].stamp, saved);
        ck_assert(ntsim__ring_valid(r));
    }
    ntsim__ring_destroy(r);
}
END_TEST

/* ntsim__ring_skip_to (ring.h): a ring nothing was pushed into reads as if
 * pos >= C records had been pushed and drained; pos < C, or a ring already
 * used, is refused with nothing changed. Worked out by hand for C = 5 (not
 * a power of two) at pos = 5 (= C) and pos = 13 (13 mod 5 = 3), and C = 4
 * at pos = 6: pushed = drained = consumed = pos, overwritten 0; each slot
 * holds the latest position below pos in it (C = 5, pos = 13: slots 0..4
 * hold 10, 11, 12, 8, 9), so the next C pushes, at pos .. pos + C - 1,
 * replace drained records and evict nothing, and the one after evicts
 * position pos; a pop then returns pos + 1 .. pos + C in order. */
START_TEST(test_ring_skip_to_reads_as_pos_records_pushed_and_drained)
{
    static const struct {
        uint64_t cap, pos;
    } runs[] = {{5, 5}, {5, 13}, {4, 6}};
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        uint64_t cap = runs[i].cap, pos = runs[i].pos;
        ntsim_ring_t *r;
        ck_assert_int_eq(ntsim__ring_create(cap, false, &r), NRT_SUCCESS);
        ck_assert(!ntsim__ring_skip_to(r, cap - 1)); /* pos < C */
        ck_assert_uint_eq(atomic_load(&r->head), 0);
        ck_assert_uint_eq(atomic_load(&r->claim), 0);
        ck_assert(ntsim__ring_skip_to(r, pos));
        ntsim_ring_counts_t c;
        ntsim__ring_counts(r, &c);
        ck_assert_uint_eq(c.pushed, pos);
        ck_assert_uint_eq(c.consumed, pos);
        ck_assert_uint_eq(c.drained, pos);
        ck_assert_uint_eq(c.overwritten, 0);
        ck_assert_uint_eq(c.busy, 0);
        ck_assert(ntsim__ring_valid(r));
        for (uint64_t q = pos - cap; q < pos; q++) /* each slot: the one position of it in [pos - C, pos) */
            ck_assert_uint_eq(ntsim__ring_stamp_load(r, q % cap), ntsim__stamp(q, NTSIM_STAMP_PUBLISHED));
        if (cap == 5 && pos == 13) { /* the values of the comment, not the formula */
            static const uint64_t held[5] = {10, 11, 12, 8, 9};
            for (uint64_t j = 0; j < 5; j++)
                ck_assert_uint_eq(ntsim__ring_stamp_load(r, j), ntsim__stamp(held[j], NTSIM_STAMP_PUBLISHED));
        }
        for (uint64_t k = 0; k <= cap; k++) {
            ntsim_ring_reservation_t res;
            ck_assert_int_eq(ntsim__ring_reserve(r, 100 + k, ntsim__thread_self(), &res), NRT_SUCCESS);
            ck_assert_uint_eq(res.pos, pos + k);
            memset(res.rec, 0, sizeof *res.rec);
            res.rec->nc_local_id = pos + k;
            ntsim__ring_commit(&res);
        }
        ntsim__ring_counts(r, &c);
        ck_assert_uint_eq(c.pushed, pos + cap + 1);
        ck_assert_uint_eq(c.overwritten, 1);
        ck_assert_uint_eq(c.first_overwrite_ns, 100 + cap);
        ck_assert(!ntsim__ring_skip_to(r, 2 * pos + 2 * cap)); /* used: refused */
        ntsim__ring_counts(r, &c);
        ck_assert_uint_eq(c.pushed, pos + cap + 1);
        ck_assert_uint_eq(c.drained, pos);
        nrt_sys_trace_event_t out[8];
        ck_assert_uint_eq(ntsim__ring_pop(r, out, 8), cap);
        for (uint64_t k = 0; k < cap; k++)
            ck_assert_uint_eq(out[k].nc_local_id, pos + 1 + k);
        ntsim__ring_counts(r, &c);
        ck_assert_uint_eq(c.drained, pos + cap);
        ck_assert_uint_eq(c.overwritten, 1);
        ck_assert(ntsim__ring_valid(r));
        ntsim__ring_destroy(r);
    }
}
END_TEST

/* --- steps of other threads at the consumer's barrier (C4) ------------------------
 *
 * With membarrier (not fence mode), a pop near the eviction front calls
 * membarrier() and reads H again (ring.c, C4): the barrier is the moment a
 * push's claim that sat in its thread's store buffer becomes visible, and a
 * pusher that claimed before the consumer's K decides and commits. To put
 * other threads' steps exactly there, the pop runs on a thread with a
 * seccomp filter that turns its membarrier() into SIGSYS: the handler plays
 * the other threads' steps on the ring by hand (as the protocol has them do
 * it), and the call returns 0 as membarrier does. The filter is the
 * thread's own and ends with it. x86-64 and aarch64 (the return register). */
#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#define RING_BARRIER_HOOK 1
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <ucontext.h>

typedef struct barrier_pop {
    ntsim_ring_t *r;
    nrt_sys_trace_event_t *out;
    size_t max, n;
    void (*at_barrier)(ntsim_ring_t *r); /* the other threads' steps */
    int err;                             /* the filter could not be set up */
    _Atomic int done;
} barrier_pop_t;

static barrier_pop_t *g_barrier_pop;

static void barrier_sigsys(int sig, siginfo_t *si, void *ucv)
{
    (void)sig;
    ucontext_t *uc = ucv;
    long ret = -ENOSYS;
    if (si->si_syscall == __NR_membarrier) {
        g_barrier_pop->at_barrier(g_barrier_pop->r);
        ret = 0;
    }
#if defined(__x86_64__)
    uc->uc_mcontext.gregs[REG_RAX] = ret;
#else
    uc->uc_mcontext.regs[0] = (unsigned long long)ret;
#endif
}

static void *pop_with_barrier_hook(void *arg)
{
    barrier_pop_t *b = arg;
#if defined(__x86_64__)
    const uint32_t arch = AUDIT_ARCH_X86_64;
#else
    const uint32_t arch = AUDIT_ARCH_AARCH64;
#endif
    struct sock_filter f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, arch, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_membarrier, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {(unsigned short)(sizeof f / sizeof f[0]), f};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
        b->err = errno;
    } else {
        b->n = ntsim__ring_pop(b->r, b->out, b->max);
    }
    atomic_store(&b->done, 1);
    return NULL;
}

/* Pops up to max from r on a thread whose membarrier() runs at_barrier;
 * in membarrier mode, as on a kernel that has it. Returns the pop's count. */
static size_t pop_at_barrier(ntsim_ring_t *r, nrt_sys_trace_event_t *out, size_t max,
                             void (*at_barrier)(ntsim_ring_t *r))
{
    static barrier_pop_t b;
    memset(&b, 0, sizeof b);
    b.r = r;
    b.out = out;
    b.max = max;
    b.at_barrier = at_barrier;
    g_barrier_pop = &b;
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = barrier_sigsys;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    ck_assert_int_eq(sigaction(SIGSYS, &sa, &old), 0);
    bool fence_mode = atomic_load(&ntsim__grace_fence_mode);
    atomic_store(&ntsim__grace_fence_mode, false);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, pop_with_barrier_hook, &b), 0);
    /* A pop that misses the decision it must wait for spins for good: fail
     * after 10 s instead (the spinning thread is left alone, with its ring). */
    for (int i = 0; i < 100000 && !atomic_load(&b.done); i++)
        usleep(100);
    ck_assert_msg(atomic_load(&b.done), "the pop did not return");
    pthread_join(t, NULL);
    atomic_store(&ntsim__grace_fence_mode, fence_mode);
    sigaction(SIGSYS, &old, NULL);
    ck_assert_msg(b.err == 0, "seccomp filter: %s", strerror(b.err));
    return b.n;
}

/* The other threads' steps, by hand: a claim (P2), a push's commit (P4), a
 * yield (P3, p < K and p >= R), an eviction's overwrite times (P3). */
static void hand_commit(ntsim_ring_t *r, uint64_t w)
{
    uint64_t j = w % r->capacity;
    memset(&r->slots[j].rec, 0, sizeof r->slots[j].rec);
    r->slots[j].rec.nc_local_id = w;
    atomic_store_explicit(&r->slots[j].stamp, ntsim__stamp(w, NTSIM_STAMP_PUBLISHED) - (j << 2),
                          memory_order_release);
}

static void hand_yield(ntsim_ring_t *r, uint64_t p)
{
    uint64_t j = p % r->capacity;
    atomic_store_explicit(&r->slots[j].stamp, ntsim__stamp(p, NTSIM_STAMP_YIELDED) - (j << 2),
                          memory_order_release);
}

static void hand_evict(ntsim_ring_t *r, uint64_t now_ns)
{
    atomic_store(&r->last_overwrite_ns, now_ns);
    if (atomic_load(&r->first_overwrite_ns) == 0)
        atomic_store(&r->first_overwrite_ns, now_ns);
}

/* The owner's claim of g_hidden_claim (H = that + 1, a plain store: not a
 * multiple of M = 64) sat in its store buffer while it read an older K and
 * decided to evict the record C = 4 below it; the consumer's C3 read H
 * without it. The barrier after K = H = g_hidden_claim makes it visible:
 * the owner writes its record over the evicted one and commits. */
static uint64_t g_hidden_claim, g_hidden_ns;

static void reveal_buffered_claim(ntsim_ring_t *r)
{
    uint64_t p = g_hidden_claim;
    if (atomic_load(&r->claim) != p || atomic_load(&r->head) != p)
        return; /* a later barrier: nothing left to do */
    atomic_store(&r->head, p + 1);
    hand_evict(r, g_hidden_ns);
    hand_commit(r, p);
}

/* Pops r, a ring of 4 whose walk ends at the hidden claim `claim` (evicted
 * at at_ns), with up to 8 records: the pop must return claim - 3 .. claim
 * (the evicted claim - 4 left out), write nothing more, and leave claim + 1
 * pushed, `drained` drained, `overwritten` overwritten (the last at at_ns),
 * the ring valid; *c has the counts. */
static void pop_past_hidden_claim(ntsim_ring_t *r, uint64_t claim, uint64_t at_ns,
                                  uint64_t drained, uint64_t overwritten, ntsim_ring_counts_t *c)
{
    g_hidden_claim = claim;
    g_hidden_ns = at_ns;
    nrt_sys_trace_event_t out[8];
    memset(out, 0xee, sizeof out);
    ck_assert_uint_eq(pop_at_barrier(r, out, 8, reveal_buffered_claim), 4);
    for (uint64_t i = 0; i < 4; i++)
        ck_assert_uint_eq(out[i].nc_local_id, claim - 3 + i);
    ck_assert_uint_eq(out[4].nc_local_id, UINT64_C(0xeeeeeeeeeeeeeeee)); /* nothing more written */
    ntsim__ring_counts(r, c);
    ck_assert_uint_eq(c->pushed, claim + 1);
    ck_assert_uint_eq(c->drained, drained);
    ck_assert_uint_eq(c->overwritten, overwritten);
    ck_assert_uint_eq(c->last_overwrite_ns, at_ns);
    ck_assert(ntsim__ring_valid(r));
}
#endif /* RING_BARRIER_HOOK */

/* C4 with membarrier: x86-TSO lets the owner's claim of 4 (a plain store:
 * 4 is not a multiple of M = 64) sit in its store buffer while it reads
 * K = 0 and decides to evict 0, and the consumer's C3 (K = 4, then H) reads
 * H = 4 without it. Ring of 4 holding 0..3: the pop's walk takes 0..3; H
 * rounds up to 64 > 0 + 4, so it calls membarrier, after which the claim is
 * visible: H = 5 > 0 + 4, position 0 is asked about (its pusher has
 * claimed) and found evicted. By hand: the pop returns 1, 2, 3, then 4 in
 * its next round; 5 pushed, 4 drained, 1 overwritten (position 0, at 77).
 * Handing 0 out would hand out a record that is also counted overwritten,
 * read while its slot is rewritten. */
START_TEST(test_ring_pop_near_the_front_leaves_a_record_evicted_by_a_claim_the_barrier_shows)
{
    if (ntsim_check_under_valgrind())
        return;
#ifdef RING_BARRIER_HOOK
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(4, false, &r), NRT_SUCCESS);
    push_n(r, 0, 4);
    ntsim_ring_counts_t c;
    pop_past_hidden_claim(r, 4, 77, 4, 1, &c);
    ck_assert_uint_eq(c.first_overwrite_ns, 77);
    ntsim__ring_destroy(r);
#endif
}
END_TEST

/* C4's rounding is up, to the next multiple of M = 64, whatever e2 is. The
 * scene of the test above one lap of 64 on, where e2 = 65 = 1 (mod 64):
 * ring of 4, 0..60 pushed (0..56 overwritten) and 57..60 drained (K = 61),
 * then 61..64 pushed (H = 65). The pop walks 61..64 (K = 65) and reads
 * H = 65, which the owner's claim of 65 (still in its store buffer) does
 * not show yet. f = 128 > 61 + 4: membarrier, after which H = 66 > 65:
 * position 61 is asked about, found evicted (record 65 over it). The pop
 * returns 62, 63, 64, then 65 in its next round; 66 pushed, 8 drained,
 * 58 overwritten, the last at 165. (Rounding 65 down to 64, or any f <=
 * 65, skips the barrier and hands out 61, which is also counted
 * overwritten and read while its slot is rewritten.) */
START_TEST(test_ring_pop_rounds_the_front_up_to_a_whole_fence_period)
{
    if (ntsim_check_under_valgrind())
        return;
#ifdef RING_BARRIER_HOOK
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(4, false, &r), NRT_SUCCESS);
    push_n(r, 0, 61);
    nrt_sys_trace_event_t out[8];
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 8), 4);
    for (uint64_t i = 0; i < 4; i++)
        ck_assert_uint_eq(out[i].nc_local_id, 57 + i);
    push_n(r, 61, 4);
    ntsim_ring_counts_t c;
    pop_past_hidden_claim(r, 65, 165, 8, 58, &c);
    ntsim__ring_destroy(r);
#endif
}
END_TEST

#ifdef RING_BARRIER_HOOK
/* Ring of 8 (shared mode). Before the pop: 0..3 and 5..7 committed, 4
 * claimed by a producer that has not committed; X0 claimed 8 and X2
 * claimed 10 and neither has read K yet (P3 to come); Y1 pushed 9 and Y3
 * pushed 11, each reading K = 0: they evicted 1 and 3. H = 12. */
static void shared_pushers_at_barrier(ntsim_ring_t *r)
{
    uint64_t k = atomic_load(&r->claim);
    if (k == 4 && atomic_load(&r->head) == 12) {
        /* Round 1 claimed 0..3 (K = 4, R = 0). X0 and X2 read K = 4: they
         * yield 0 and 2 (YIELDED), cannot give 8 and 10 back (later
         * positions are claimed) and wait for R. 4 commits; X4 claims 12
         * and waits before P3; Y5 claims 13, reads K = 4 and evicts 5. */
        hand_yield(r, 0);
        hand_yield(r, 2);
        hand_commit(r, 4);
        atomic_store(&r->head, 13); /* X4 */
        atomic_store(&r->head, 14); /* Y5 */
        hand_evict(r, 113);
        hand_commit(r, 13);
    } else if (k == 8 && atomic_load(&r->slots[4].stamp) == ntsim__stamp(4, NTSIM_STAMP_PUBLISHED) - (4 << 2)) {
        /* Round 2 claimed 4, 6, 7 (K = 8; R = 4 released 0 and 2): X4
         * reads K = 8 and yields 4; X0 and X2 fill 8 and 10 and commit. */
        hand_yield(r, 4);
        hand_commit(r, 8);
        hand_commit(r, 10);
    } else if (k == 12 && atomic_load(&r->slots[4].stamp) == ntsim__stamp(4, NTSIM_STAMP_YIELDED) - (4 << 2)) {
        hand_commit(r, 12); /* R = 8 released 4: X4 fills 12 and commits */
    }
}
#endif

/* C4 and C5 with several records evicted inside batches, in a later round
 * of one pop too (the scene above; every step a shared producer's, in an
 * order the protocol allows). By hand, round by round (ring.c, C1-C5):
 *   1. walk 0 (claimed), 1 (later lap: passed over), 2, 3 (passed over),
 *      stop at 4 (not committed): K = 4. H = 12 > 0 + 8: ask. 0 and 2
 *      yielded: ours; 1 and 3 evicted. Out: 0, 2 (two runs, one record
 *      each, around the evicted ones).
 *   2. walk 4, 5 (passed over: 13), 6, 7, stop at 8 (slot 0 says
 *      YIELDED(0)): K = 8. H = 14 > 4 + 8: ask 4 and 5: 4 yielded, ours.
 *      Out: 4, then 6, 7 (a run before the evicted 5 and one after it).
 *   3. walk 8..11, stop at 12 (YIELDED(4)): K = 12; H = 14 <= 8 + 8: no
 *      push reaches 8, all ours: 8, 9, 10, 11.
 *   4. walk 12, 13: K = 14; out 12, 13. 5. nothing published: done.
 * 11 records in order, 14 pushed, 3 overwritten (1, 3, 5: Y5 last, at
 * 113; Y1 and Y3 at 109 and 111, first), nothing written outside out[0..10]. */
START_TEST(test_ring_pop_hands_out_the_runs_around_records_evicted_in_later_rounds)
{
    if (ntsim_check_under_valgrind())
        return;
#ifdef RING_BARRIER_HOOK
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(8, false, &r), NRT_SUCCESS);
    push_n(r, 0, 4);
    (void)reserve_at(r, 104, 4); /* position 4: claimed, never committed */
    push_n(r, 5, 3);
    atomic_store(&r->owner, NTSIM_RING_OWNER_SHARED); /* the other producers revoked it */
    atomic_store(&r->head, 9);                         /* X0 claims 8 */
    atomic_store(&r->head, 10);                        /* Y1 claims 9, reads K = 0: evicts 1 */
    hand_evict(r, 109);
    hand_commit(r, 9);
    atomic_store(&r->head, 11); /* X2 claims 10 */
    atomic_store(&r->head, 12); /* Y3 claims 11, reads K = 0: evicts 3 */
    hand_evict(r, 111);
    hand_commit(r, 11);
    static const uint64_t want[11] = {0, 2, 4, 6, 7, 8, 9, 10, 11, 12, 13};
    nrt_sys_trace_event_t buf[24];
    memset(buf, 0xee, sizeof buf);
    nrt_sys_trace_event_t *out = buf + 4; /* guards on both sides */
    ck_assert_uint_eq(pop_at_barrier(r, out, 16, shared_pushers_at_barrier), 11);
    for (size_t i = 0; i < 11; i++)
        ck_assert_msg(out[i].nc_local_id == want[i], "out[%zu] = %u, want %u", i,
                      (unsigned)out[i].nc_local_id, (unsigned)want[i]);
    for (size_t i = 0; i < 24; i++)
        if (i < 4 || i >= 4 + 11)
            ck_assert_msg(buf[i].nc_local_id == UINT64_C(0xeeeeeeeeeeeeeeee), "buf[%zu] written", i);
    ntsim_ring_counts_t c;
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.pushed, 14);
    ck_assert_uint_eq(c.drained, 11);
    ck_assert_uint_eq(c.overwritten, 3);
    ck_assert_uint_eq(c.first_overwrite_ns, 109);
    ck_assert_uint_eq(c.last_overwrite_ns, 113);
    ck_assert(ntsim__ring_valid(r));
    ntsim__ring_destroy(r);
#endif
}
END_TEST

/* C2': while one thread owns the ring the consumer claims a whole window
 * on the stamp of its last position alone (the owner commits in order, so
 * the positions before it are committed), and walks every stamp otherwise.
 * A window is made by hand with a hole no owner could leave, position 0
 * claimed and not committed below 1..3 committed, so that the two answers
 * differ: the owned ring hands out all four (the hole's slot is zeroes),
 * every other owner value stops at the hole, then hands out 0..3 once 0
 * is committed. */
START_TEST(test_ring_pop_takes_an_owned_window_on_its_last_stamp_alone)
{
    const struct {
        const char *name;
        uintptr_t owner;
        size_t before_commit;
    } cases[] = {
        {"a thread", (uintptr_t)ntsim__thread_self(), 4},
        {"shared", NTSIM_RING_OWNER_SHARED, 0},
        {"a thread being revoked", (uintptr_t)ntsim__thread_self() | NTSIM_RING_OWNER_REVOKING, 0},
        {"none", NTSIM_RING_OWNER_NONE, 0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        ntsim_ring_t *r;
        ck_assert_int_eq(ntsim__ring_create(16, false, &r), NRT_SUCCESS);
        atomic_store(&r->head, 4); /* positions 0..3 claimed */
        for (uint64_t w = 1; w < 4; w++)
            hand_commit(r, w);
        atomic_store(&r->owner, cases[c].owner);
        nrt_sys_trace_event_t out[4];
        memset(out, 0xee, sizeof out);
        size_t got = ntsim__ring_pop(r, out, 4);
        ck_assert_msg(got == cases[c].before_commit, "owner %s: %zu records, expected %zu",
                      cases[c].name, got, cases[c].before_commit);
        if (got == 0) {
            hand_commit(r, 0);
            ck_assert_uint_eq(ntsim__ring_pop(r, out, 4), 4);
        }
        for (uint64_t i = 0; i < 4; i++)
            ck_assert_msg(out[i].nc_local_id == i, "owner %s: out[%llu] is position %llu",
                          cases[c].name, (unsigned long long)i,
                          (unsigned long long)out[i].nc_local_id);
        ntsim__ring_destroy(r);
    }
}
END_TEST

/* The owner's usual state while a drain runs: its latest position claimed
 * and not yet committed. The window's last stamp is that position's, so
 * C2' declines and the walk hands out the three committed records before
 * it; the fourth comes out once committed. */
START_TEST(test_ring_pop_of_an_owned_ring_stops_before_the_owner_s_claim_in_progress)
{
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(16, false, &r), NRT_SUCCESS);
    push_n(r, 0, 3);
    ntsim_ring_reservation_t a;
    a = reserve_at(r, 0, 3);
    ck_assert_uint_eq(atomic_load(&r->owner), (uintptr_t)ntsim__thread_self());
    memset(a.rec, 0, sizeof *a.rec);
    a.rec->nc_local_id = 3;
    expect_pops_around_a_commit(r, &a, 4, 0, 3, 1);
    ck_assert(ntsim__ring_valid(r));
    ntsim__ring_destroy(r);
}
END_TEST

/* The real way to such a hole: the owner has claimed position 0 and not
 * committed it when a second thread revokes the ownership and commits 1.
 * The pop reads owner after the window's last stamp, finds SHARED, walks,
 * and stops at 0; once 0 is committed both come out in order. */
START_TEST(test_ring_pop_of_a_revoked_ring_stops_at_the_former_owner_s_uncommitted_record)
{
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(16, false, &r), NRT_SUCCESS);
    ntsim_ring_reservation_t a;
    ck_assert_int_eq(ntsim__ring_reserve(r, 0, ntsim__thread_self(), &a), NRT_SUCCESS);
    ck_assert_uint_eq(atomic_load(&r->owner), (uintptr_t)ntsim__thread_self());
    memset(a.rec, 0, sizeof *a.rec);
    a.rec->nc_local_id = 0;
    pusher_t other = {r, 1, 1};
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, push_from_another_thread, &other), 0);
    pthread_join(t, NULL);
    ck_assert_uint_eq(atomic_load(&r->owner), NTSIM_RING_OWNER_SHARED);
    expect_pops_around_a_commit(r, &a, 2, 0, 0, 2); /* max 2: the window is [0, 1] */
    ck_assert(ntsim__ring_valid(r));
    ntsim__ring_destroy(r);
}
END_TEST

Suite *make_ring_suite(void)
{
    Suite *s = suite_create("ring");
    TCase *tc = tcase_create("ring");
    tcase_add_test(tc, test_ring_rejects_zero_and_huge_capacity);
    tcase_add_test(tc, test_ring_positions_start_at_zero_and_count_up);
    tcase_add_test(tc, test_ring_overflow_keeps_the_newest_capacity_in_order);
    tcase_add_test(tc, test_ring_holds_exactly_a_non_power_of_two_capacity);
    tcase_add_test(tc, test_ring_pops_in_batches_and_resumes);
    tcase_add_test(tc, test_ring_pop_stops_at_an_uncommitted_record);
    tcase_add_test(tc, test_ring_refuses_as_busy_when_a_stalled_producer_holds_the_oldest);
    tcase_add_test(tc, test_ring_stays_valid_over_many_laps);
    tcase_add_test(tc, test_ring_first_producer_owns_the_ring);
    tcase_add_test(tc, test_ring_second_producer_revokes_ownership_and_continues_the_sequence);
    tcase_add_test(tc, test_ring_refuses_as_busy_while_the_consumer_copies_the_oldest);
    tcase_add_test(tc, test_ring_pop_passes_over_records_evicted_laps_ago);
    tcase_add_test(tc, test_ring_valid_reports_a_wrong_stamp_or_a_claim_in_progress);
    tcase_add_test(tc, test_ring_shared_push_gives_its_position_back_when_the_consumer_took_the_oldest);
    tcase_add_test(tc, test_ring_pop_returns_the_runs_around_a_record_evicted_inside_its_batch);
    tcase_add_test(tc, test_ring_revoker_marks_the_owner_before_waiting_for_its_claim);
    tcase_add_test(tc, test_ring_destroy_unmaps_its_slots);
    tcase_add_test(tc, test_ring_large_drain_copies_every_byte_with_streaming_stores);
    tcase_add_test(tc, test_ring_drain_between_two_and_three_laps_returns_the_newest_lap);
    tcase_add_test(tc, test_ring_valid_accepts_a_yielded_stamp_only_below_the_claim);
    tcase_add_test(tc, test_ring_accepts_every_capacity_up_to_two_to_the_forty);
    tcase_add_test(tc, test_ring_drain_holds_one_batch_of_256_while_it_copies);
    tcase_add_test(tc, test_ring_revoker_that_finds_the_owner_marked_still_waits_for_its_claim);
    tcase_add_test(tc, test_ring_shared_push_gives_back_a_position_in_a_later_slot);
    tcase_add_test(tc, test_ring_shared_push_reads_the_head_again_while_its_slot_is_held);
    tcase_add_test(tc, test_ring_without_prefault_maps_its_pages_on_first_touch);
    tcase_add_test(tc, test_ring_large_drain_across_the_end_of_the_ring_is_byte_exact_and_in_bounds);
    tcase_add_test(tc, test_ring_large_drain_into_a_buffer_aligned_to_8_bytes_is_byte_exact);
    tcase_add_test(tc, test_ring_pop_neither_returns_nor_waits_on_a_drained_record_being_replaced);
    tcase_add_test(tc, test_ring_pop_takes_the_oldest_record_before_its_evicting_push_decides);
    tcase_add_test(tc, test_ring_valid_reports_a_release_behind_the_claim);
    tcase_add_test(tc, test_ring_valid_checks_the_stamp_of_every_slot);
    tcase_add_test(tc, test_ring_skip_to_reads_as_pos_records_pushed_and_drained);
    tcase_add_test(tc, test_ring_pop_near_the_front_leaves_a_record_evicted_by_a_claim_the_barrier_shows);
    tcase_add_test(tc, test_ring_pop_rounds_the_front_up_to_a_whole_fence_period);
    tcase_add_test(tc, test_ring_pop_hands_out_the_runs_around_records_evicted_in_later_rounds);
    tcase_add_test(tc, test_ring_pop_takes_an_owned_window_on_its_last_stamp_alone);
    tcase_add_test(tc, test_ring_pop_of_a_revoked_ring_stops_at_the_former_owner_s_uncommitted_record);
    tcase_add_test(tc, test_ring_pop_of_an_owned_ring_stops_before_the_owner_s_claim_in_progress);
    suite_add_tcase(s, tc);
    return s;
}
