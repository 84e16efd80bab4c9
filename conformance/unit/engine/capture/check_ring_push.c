/*
 * conformance/unit/engine/capture/check_ring_push.c: a push's own steps
 * (engine/capture/ring.c, P1, P2 and P4): the pre-check that refuses a push as busy,
 * using no position, while a stalled producer or the consumer holds the slot
 * it needs, and a shared push that reads H again while it waits.
 */
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check_ring.h"

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

Suite *make_ring_push_suite(void)
{
    Suite *s = suite_create("ring_push");
    TCase *tc = tcase_create("ring_push");
    tcase_add_test(tc, test_ring_refuses_as_busy_when_a_stalled_producer_holds_the_oldest);
    tcase_add_test(tc, test_ring_refuses_as_busy_while_the_consumer_copies_the_oldest);
    tcase_add_test(tc, test_ring_shared_push_reads_the_head_again_while_its_slot_is_held);
    suite_add_tcase(s, tc);
    return s;
}
