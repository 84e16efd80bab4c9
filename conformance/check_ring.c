/*
 * conformance/check_ring.c: the ring protocol, one step at a time.
 *
 * Positions, eviction, ordering, the busy refusal and ownership, each
 * checked against numbers worked out from the protocol in engine/ring.c.
 * Threads here run one after the other; the concurrent behaviour is in
 * check_concurrency.c, and every interleaving of the protocol's steps is
 * in conformance/model/ring.pml (make model).
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
        ck_assert_int_eq(ntsim__ring_reserve(r, 0, ntsim__thread_self(), &res), NRT_SUCCESS);
        ck_assert_uint_eq(res.pos, i);
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
    nrt_sys_trace_event_t out[4];
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 4), 0);
    ntsim__ring_commit(&a);
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 4), 2);
    ck_assert_uint_eq(out[0].nc_local_id, 10);
    ck_assert_uint_eq(out[1].nc_local_id, 11);
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
    ck_assert_int_eq(ntsim__ring_reserve(r, 7, ntsim__thread_self(), &next), NRT_SUCCESS);
    ck_assert_uint_eq(next.pos, 1);
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
    ck_assert_int_eq(ntsim__ring_reserve(r, 6, ntsim__thread_self(), &res), NRT_SUCCESS);
    ck_assert_uint_eq(res.pos, 1);
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
    ck_assert_int_eq(ntsim__ring_reserve(r, 6, ntsim__thread_self(), &res), NRT_SUCCESS);
    ck_assert_uint_eq(res.pos, 1);
    memset(res.rec, 0, sizeof *res.rec);
    ntsim__ring_commit(&res);
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.overwritten, 0);
    ck_assert_uint_eq(c.first_overwrite_ns, 0);
    ck_assert(ntsim__ring_valid(r));
    trap_free(orig);
}
END_TEST

typedef struct trapped_push {
    ntsim_ring_t *ring;
    NRT_STATUS st;
    uint64_t pos;
} trapped_push_t;

static void *push_position_4(void *arg)
{
    trapped_push_t *t = arg;
    ntsim_ring_reservation_t res;
    t->st = ntsim__ring_reserve(t->ring, 14, ntsim__thread_self(), &res);
    if (t->st == NRT_SUCCESS) {
        memset(res.rec, 0, sizeof *res.rec);
        res.rec->nc_local_id = 4;
        t->pos = res.pos;
        ntsim__ring_commit(&res);
    }
    return NULL;
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
    trapped_push_t a = {r, NRT_FAILURE, 0};
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, push_position_4, &a), 0);
    while (!atomic_load(&g_trap.paused))
        nanosleep(&(struct timespec){0, 100000}, NULL);
    ntsim_ring_reservation_t res;
    ck_assert_int_eq(ntsim__ring_reserve(r, 15, ntsim__thread_self(), &res), NRT_SUCCESS);
    ck_assert_uint_eq(res.pos, 5);
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
    ntsim_ring_counts_t c;
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.pushed, 6);
    ck_assert_uint_eq(c.drained, 5);
    ck_assert_uint_eq(c.overwritten, 1);
    ck_assert_uint_eq(c.busy, 0);
    ck_assert_uint_eq(c.first_overwrite_ns, 15);
    ck_assert_uint_eq(c.last_overwrite_ns, 15);
    ck_assert(ntsim__ring_valid(r));
    trap_free(orig);
}
END_TEST

/* Ownership, the revoker's side (engine/ring.c, "Ownership"; D-RING-OWNER):
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

/* A drain of 8 MiB or more (engine/ring.c, NTSIM_RING_NT_BYTES; D-RING:
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
    suite_add_tcase(s, tc);
    return s;
}
