/*
 * conformance/unit/engine/capture/check_ring_owner.c: ownership (engine/capture/ring.c,
 * "Ownership"; D-RING-OWNER): the first producer owns the ring; a second one
 * revokes it, marking the owner before it waits for the owner's claim in
 * progress, and several revokers each wait for themselves; and the
 * consumer's C2', which claims an owned ring's window on its last stamp
 * alone.
 */
#define _GNU_SOURCE /* MAP_ANONYMOUS, usleep */
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check_ring.h"

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

Suite *make_ring_owner_suite(void)
{
    Suite *s = suite_create("ring_owner");
    TCase *tc = tcase_create("ring_owner");
    tcase_add_test(tc, test_ring_first_producer_owns_the_ring);
    tcase_add_test(tc, test_ring_second_producer_revokes_ownership_and_continues_the_sequence);
    tcase_add_test(tc, test_ring_revoker_marks_the_owner_before_waiting_for_its_claim);
    tcase_add_test(tc, test_ring_revoker_that_finds_the_owner_marked_still_waits_for_its_claim);
    tcase_add_test(tc, test_ring_pop_takes_an_owned_window_on_its_last_stamp_alone);
    tcase_add_test(tc, test_ring_pop_of_a_revoked_ring_stops_at_the_former_owner_s_uncommitted_record);
    tcase_add_test(tc, test_ring_pop_of_an_owned_ring_stops_before_the_owner_s_claim_in_progress);
    suite_add_tcase(s, tc);
    return s;
}
