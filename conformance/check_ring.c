/*
 * conformance/check_ring.c: the ring protocol, one step at a time.
 *
 * Positions, eviction, ordering, the busy refusal and ownership, each
 * checked against numbers worked out from the protocol in engine/ring.c.
 * Threads here run one after the other; the concurrent behaviour is in
 * check_concurrency.c, and every interleaving of the protocol's steps is
 * in conformance/model/ring.pml (make model).
 */
#define _DEFAULT_SOURCE /* mincore, usleep */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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
    tcase_add_test(tc, test_ring_revoker_marks_the_owner_before_waiting_for_its_claim);
    tcase_add_test(tc, test_ring_destroy_unmaps_its_slots);
    suite_add_tcase(s, tc);
    return s;
}
