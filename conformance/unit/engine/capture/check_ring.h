/*
 * conformance/unit/engine/capture/check_ring.h: what the ring suites share
 * (check_ring.c and check_ring_*.c): the exact counters, pushes, a claim
 * checked against its position, pops on either side of a commit, and another
 * thread's commit written by hand. Static inline, so that each file calls
 * them by their short names and the test program exports none of them.
 */
#ifndef NTSIM_CONFORMANCE_CHECK_RING_H
#define NTSIM_CONFORMANCE_CHECK_RING_H

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "check_suites.h"
#include "ring.h"

/* The ring's six counters, exactly (ring.h: exact once producers are
 * quiet). */
static inline void expect_counts(const ntsim_ring_t *r, uint64_t pushed, uint64_t drained,
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
static inline void push_n(ntsim_ring_t *r, uint64_t first, uint64_t n)
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
static inline ntsim_ring_reservation_t reserve_at(ntsim_ring_t *r, uint64_t now_ns, uint64_t pos)
{
    ntsim_ring_reservation_t res;
    ck_assert_int_eq(ntsim__ring_reserve(r, now_ns, ntsim__thread_self(), &res), NRT_SUCCESS);
    ck_assert_uint_eq(res.pos, pos);
    return res;
}

/* A pop of up to `max` (at most 4) hands out `before` records while `held`
 * is not committed; once it is, the next pop hands out `after` more. Their
 * nc_local_id count up from `first_id` across both pops. */
static inline void expect_pops_around_a_commit(ntsim_ring_t *r,
                                               const ntsim_ring_reservation_t *held, size_t max,
                                               uint64_t first_id, size_t before, size_t after)
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

/* Another thread's push of w committed by hand (P4): the record, its
 * nc_local_id w, then its slot's stamp PUBLISHED(w) (release). */
static inline void hand_commit(ntsim_ring_t *r, uint64_t w)
{
    uint64_t j = w % r->capacity;
    memset(&r->slots[j].rec, 0, sizeof r->slots[j].rec);
    r->slots[j].rec.nc_local_id = w;
    atomic_store_explicit(&r->slots[j].stamp, ntsim__stamp(w, NTSIM_STAMP_PUBLISHED) - (j << 2),
                          memory_order_release);
}

#endif /* NTSIM_CONFORMANCE_CHECK_RING_H */
