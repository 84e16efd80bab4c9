/*
 * conformance/unit/engine/capture/check_ring.c: the ring's storage and counters
 * (engine/capture/ring.c, "Storage" and "Counters"), one step at a time:
 * capacities, positions and laps, overwrite-oldest and its counts, the
 * slots' mapping, skip_to, and the consistency check. The protocol's steps
 * have a file each beside this one: check_ring_push.c (P1, P2, P4),
 * check_ring_pop.c (C1-C3, C5), check_ring_evict.c (the eviction rule: P3
 * and C4) and check_ring_owner.c (Ownership, C2'). Every number is worked out
 * from the protocol in ring.c. Threads here run one after the other; the
 * concurrent behaviour is in check_concurrency.c, and every interleaving of
 * the protocol's steps is in conformance/proofs/ring.pml (make model).
 */
#define _GNU_SOURCE /* mincore */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check_ring.h"

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

Suite *make_ring_suite(void)
{
    Suite *s = suite_create("ring");
    TCase *tc = tcase_create("ring");
    tcase_add_test(tc, test_ring_rejects_zero_and_huge_capacity);
    tcase_add_test(tc, test_ring_positions_start_at_zero_and_count_up);
    tcase_add_test(tc, test_ring_overflow_keeps_the_newest_capacity_in_order);
    tcase_add_test(tc, test_ring_holds_exactly_a_non_power_of_two_capacity);
    tcase_add_test(tc, test_ring_stays_valid_over_many_laps);
    tcase_add_test(tc, test_ring_valid_reports_a_wrong_stamp_or_a_claim_in_progress);
    tcase_add_test(tc, test_ring_destroy_unmaps_its_slots);
    tcase_add_test(tc, test_ring_valid_accepts_a_yielded_stamp_only_below_the_claim);
    tcase_add_test(tc, test_ring_accepts_every_capacity_up_to_two_to_the_forty);
    tcase_add_test(tc, test_ring_without_prefault_maps_its_pages_on_first_touch);
    tcase_add_test(tc, test_ring_valid_reports_a_release_behind_the_claim);
    tcase_add_test(tc, test_ring_valid_checks_the_stamp_of_every_slot);
    tcase_add_test(tc, test_ring_skip_to_reads_as_pos_records_pushed_and_drained);
    suite_add_tcase(s, tc);
    return s;
}
