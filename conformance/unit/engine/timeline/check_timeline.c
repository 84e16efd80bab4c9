/*
 * conformance/unit/engine/timeline/check_timeline.c: the timeline model
 * (engine/timeline/timeline.c, D-TIMELINE): the model of traces A and B
 * (check_timeline.h), STARTs paired with their STOPs and what is left
 * unmatched, spans and instants, the losses and the counters of events
 * pushed and lost per NC, and the growth of the model's arrays. Flows,
 * clocks, lanes and each writer have a file of their own beside this one.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "alloc.h"
#include "check_timeline.h"
#include "timeline_build.h"

/* --- the model ---------------------------------------------------------------- */

/* Trace A's model, as the header works it out. */
START_TEST(test_model_of_trace_a)
{
    nrt_sys_trace_event_t r[16];
    size_t n = trace_a(r);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, n, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nitems, 7);
    static const struct {
        uint64_t begin, end;
        uint32_t lane, flags;
        uint64_t exec_id;
    } want[7] = {
        {5000, 5600, 0, NTSIM_TL_SPAN, 42},          {5100, 5300, 0, NTSIM_TL_SPAN, 42},
        {5200, 5200, 0, 0, 0},                       {5500, 5700, 1, NTSIM_TL_SPAN, 0},
        {5050, 5050, 0, NTSIM_TL_UNMATCHED_STOP, 5}, {5800, 5800, 2, NTSIM_TL_UNMATCHED_START, 42},
        {5050, 5050, 3, NTSIM_TL_DROP, 0},
    };
    for (size_t i = 0; i < 7; i++) {
        ck_assert_msg(tl.items[i].begin == want[i].begin && tl.items[i].end == want[i].end,
                      "item %zu: [%llu, %llu]", i, (unsigned long long)tl.items[i].begin,
                      (unsigned long long)tl.items[i].end);
        ck_assert_uint_eq(tl.items[i].lane, want[i].lane);
        ck_assert_uint_eq(tl.items[i].flags, want[i].flags);
        ck_assert_uint_eq(tl.items[i].exec_id, want[i].exec_id);
    }
    ck_assert_uint_eq(tl.items[6].lost, 2);
    ck_assert_uint_eq(tl.items[6].rec, 7);
    ck_assert_uint_eq(tl.nlanes, 4);
    ck_assert_uint_eq(tl.ncounters, 2);
    ck_assert_uint_eq(tl.nedges, 11 + 10); /* 11 samples; 3 begins, 3 ends, 4 instants */
    ck_assert_uint_eq(tl.t_min, 5000);
    ck_assert_uint_eq(tl.t_max, 5800);
    ck_assert_uint_eq(tl.lanes[0].spans, 2);
    ck_assert_uint_eq(tl.lanes[0].instants, 2);
    ck_assert_uint_eq(tl.lanes[1].spans, 1);
    ck_assert_uint_eq(tl.lanes[2].instants, 1);
    ck_assert_uint_eq(tl.lanes[3].instants, 1);
    ck_assert_uint_eq(tl.lanes[3].uuid, 0x1003);
    ck_assert_uint_eq(tl.counters[1].uuid, 0x1005);
    ntsim_timeline_stats_t st;
    ck_assert_int_eq(ntsim_timeline_stats(r, n, NULL, &st), NRT_SUCCESS);
    ck_assert_uint_eq(st.spans, 3);
    ck_assert_uint_eq(st.instants, 1);
    ck_assert_uint_eq(st.unmatched_start, 1);
    ck_assert_uint_eq(st.unmatched_stop, 1);
    ck_assert_uint_eq(st.drops, 1);
    ck_assert_uint_eq(st.lost_events, 2);
    ck_assert_uint_eq(st.flows, 0);
    ck_assert_uint_eq(st.lanes, 4);
    ck_assert_uint_eq(st.clocks, 0);
    ck_assert_uint_eq(st.sync_pairs, 0);
    ck_assert_uint_eq(st.unaligned, 0);
    ntsim__timeline_free(&tl);
}
END_TEST

/* Trace B's model: clocks, cores, flows, as the header works them out. */
START_TEST(test_model_of_trace_b)
{
    nrt_sys_trace_event_t r[16];
    size_t n = trace_b(r);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, n, &options_b, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nitems, 8);
    static const uint64_t when[8][2] = {{9000, 13000}, {9100, 9200},   {10000, 12048},
                                        {10500, 10700}, {11000, 11000}, {11150, 11250},
                                        {10100, 10200}, {9050, 9050}};
    static const uint32_t lane[8] = {0, 0, 1, 2, 1, 3, 4, 5};
    static const uint64_t flow_in[8] = {0, 0, 1, 2, 0, 3, 0, 0};
    for (size_t i = 0; i < 8; i++) {
        ck_assert_msg(tl.items[i].begin == when[i][0] && tl.items[i].end == when[i][1],
                      "item %zu: [%llu, %llu]", i, (unsigned long long)tl.items[i].begin,
                      (unsigned long long)tl.items[i].end);
        ck_assert_uint_eq(tl.items[i].lane, lane[i]);
        ck_assert_uint_eq(tl.items[i].flow_in, flow_in[i]);
    }
    ck_assert_uint_eq(tl.items[0].exec_id, 43);
    ck_assert_uint_eq(tl.items[0].flows_count, 3);
    ck_assert_uint_eq(tl.items[7].flags, NTSIM_TL_DEVICE | NTSIM_TL_UNALIGNED);
    ck_assert_uint_eq(tl.items[4].dev_begin, 12001);
    ck_assert_uint_eq(tl.nclocks, 4);
    static const uint32_t nc[4] = {1, 1, 1, 2}, core[4] = {0, 1, NTSIM_TL_NO_CORE, 0};
    static const uint64_t c0[4] = {10000, 10500, 11150, 0}, pairs[4] = {2, 1, 1, 0};
    static const double a[4] = {1000, 2000, 1150, 0}, b[4] = {1.0 / 1024, 0, 0, 0};
    for (size_t c = 0; c < 4; c++) {
        ck_assert_uint_eq(tl.clocks[c].nc, nc[c]);
        ck_assert_uint_eq(tl.clocks[c].core, core[c]);
        ck_assert_uint_eq(tl.clocks[c].c0, c0[c]);
        ck_assert_uint_eq(tl.clocks[c].pairs, pairs[c]);
        ck_assert(tl.clocks[c].a == a[c]);
        ck_assert(tl.clocks[c].b == b[c]);
        ck_assert(tl.clocks[c].max_residual_ns == 0);
    }
    ck_assert_uint_eq(tl.clocks[1].pair_first, 2);
    ck_assert_uint_eq(tl.clocks[2].pair_first, 3);
    ck_assert_uint_eq(tl.npairs, 4);
    ck_assert_str_eq(tl.lanes[1].name, "NC 1 core 0");
    ck_assert_str_eq(tl.lanes[3].name, "NC 1 (no core)");
    ck_assert_str_eq(tl.processes[0].name, "h\"<&>'");
    ck_assert_uint_eq(tl.processes[1].pid, 0x7F000003);
    ntsim_timeline_stats_t st;
    ck_assert_int_eq(ntsim_timeline_stats(r, n, &options_b, &st), NRT_SUCCESS);
    ck_assert_uint_eq(st.spans, 6);
    ck_assert_uint_eq(st.instants, 2);
    ck_assert_uint_eq(st.flows, 3);
    ck_assert_uint_eq(st.lanes, 6);
    ck_assert_uint_eq(st.clocks, 4);
    ck_assert_uint_eq(st.sync_pairs, 4);
    ck_assert_uint_eq(st.unaligned, 1);
    ck_assert(st.max_residual_ns == 0);
    ntsim__timeline_free(&tl);
}
END_TEST

typedef struct build_job {
    const nrt_sys_trace_event_t *r;
    size_t n;
    ntsim_timeline_t tl;
    NRT_STATUS st;
    atomic_bool done;
} build_job_t;

static void *build_in_thread(void *arg)
{
    build_job_t *job = arg;
    job->st = ntsim__timeline_build(job->r, job->n, NULL, &job->tl);
    atomic_store(&job->done, true);
    return NULL;
}

/* D-TIMELINE: a STOP pairs with the open START of its (tracking_id, type,
 * NC); two spans one after the other, tracking_id 4 then 5, are two spans.
 * The build must end: it runs in a thread, and a build still running after
 * 10 s (a pairing that never ends, e.g. an open-span table probed with a
 * mask that is not capacity - 1) fails the test instead of hanging it. */
START_TEST(test_spans_one_after_the_other_pair_and_the_build_ends)
{
    nrt_sys_trace_event_t r[4];
    r[0] = rec(TY(EXECUTE_API), S, 0, 7, 4, 1000, 0, 0);
    r[1] = rec(TY(EXECUTE_API), T, 0, 7, 4, 2000, 1, 1);
    r[2] = rec(TY(EXECUTE_API), S, 0, 7, 5, 3000, 2, 2);
    r[3] = rec(TY(EXECUTE_API), T, 0, 7, 5, 4000, 3, 3);
    static build_job_t job; /* outlives the test if the build never ends */
    job.r = r;
    job.n = 4;
    atomic_store(&job.done, false);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, build_in_thread, &job), 0);
    for (int ms = 0; ms < 10000 && !atomic_load(&job.done); ms++)
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    if (!atomic_load(&job.done)) {
        pthread_detach(t);
        ck_abort_msg("ntsim__timeline_build of 4 records still running after 10 s");
    }
    pthread_join(t, NULL);
    ck_assert_int_eq(job.st, NRT_SUCCESS);
    ck_assert_uint_eq(job.tl.nitems, 2);
    for (size_t i = 0; i < 2; i++) {
        ck_assert_uint_eq(job.tl.items[i].flags & (NTSIM_TL_SPAN | NTSIM_TL_UNMATCHED_START |
                                                   NTSIM_TL_UNMATCHED_STOP), NTSIM_TL_SPAN);
        ck_assert_uint_eq(job.tl.items[i].rec, 2 * i);
        ck_assert_uint_eq(job.tl.items[i].stop, 2 * i + 1);
    }
    ntsim__timeline_free(&job.tl);
}
END_TEST

/* D-TIMELINE: "A span whose end is before its begin is drawn with length
 * 0." An nrt_execute START at 2000 ns closed by a STOP read at 1500 ns: one
 * span, begin = end = 2000, and the trace ends at 2000. */
START_TEST(test_span_stopping_before_its_start_has_length_zero)
{
    nrt_sys_trace_event_t r[2];
    r[0] = rec(TY(EXECUTE_API), S, 0, 7, 4, 2000, 0, 0);
    r[1] = rec(TY(EXECUTE_API), T, 0, 7, 4, 1500, 1, 1);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 2, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nitems, 1);
    ck_assert_uint_eq(tl.items[0].flags, NTSIM_TL_SPAN);
    ck_assert_uint_eq(tl.items[0].begin, 2000);
    ck_assert_uint_eq(tl.items[0].end, 2000);
    ck_assert_uint_eq(tl.t_min, 2000);
    ck_assert_uint_eq(tl.t_max, 2000);
    ntsim__timeline_free(&tl);
}
END_TEST

/* D-TIMELINE, counters: the pushed counter is sampled at every record when
 * the NC has at most 255 records. 255 host instants on NC 0, nc_local_id
 * i at 1000 + i ns: 255 samples of "NC 0 events pushed" (counter 0), with
 * the values 1..255 in time order; the lost counter (1) has its one sample
 * of 0 (no gap). */
START_TEST(test_pushed_counter_samples_every_record_of_an_nc_with_255)
{
    enum { N = 255 };
    static nrt_sys_trace_event_t r[N];
    for (uint64_t i = 0; i < N; i++)
        r[i] = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 1000 + i, i, i);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, N, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.ncounters, 2);
    size_t pushed = 0, lost = 0;
    for (size_t e = 0; e < tl.nedges; e++) {
        if (tl.edges[e].kind != NTSIM_TL_SAMPLE)
            continue;
        if (tl.edges[e].index == 0) {
            pushed++;
            ck_assert_int_eq(tl.edges[e].value, (int64_t)pushed);
        } else {
            lost++;
            ck_assert_int_eq(tl.edges[e].value, 0);
        }
    }
    ck_assert_uint_eq(pushed, N);
    ck_assert_uint_eq(lost, 1);
    ntsim__timeline_free(&tl);
}
END_TEST

/* D-TIMELINE-ORDER, counters: per NC in ascending order (pushed, then lost),
 * each NC's records walked by nc_local_id, whatever the record order. Three
 * host instants: r0 NC 2 id 0 at 1000; r1 NC 1 id 1 at 1500; r2 NC 1 id 0 at
 * 2000. NC 1 comes first: counters 0 "NC 1 events pushed", 1 "NC 1 events
 * lost", 2 "NC 2 events pushed", 3 "NC 2 events lost". NC 1 walked as r2 (id
 * 0), r1 (id 1): no gap; lost 0 at r2's 2000, pushed 1 at 2000 and 2 at 1500.
 * NC 2: lost 0 and pushed 1 at 1000. Samples by time, at equal times in the
 * order made: (1000, c3, 0), (1000, c2, 1), (1500, c0, 2), (2000, c1, 0),
 * (2000, c0, 1). */
START_TEST(test_counters_come_by_ascending_nc_and_nc_local_id_not_record_order)
{
    nrt_sys_trace_event_t r[3];
    r[0] = rec(TY(MODEL_SUBMIT), I, 2, 7, 0, 1000, 0, 0);
    r[1] = rec(TY(MODEL_SUBMIT), I, 1, 7, 0, 1500, 1, 1);
    r[2] = rec(TY(MODEL_SUBMIT), I, 1, 7, 0, 2000, 0, 2);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 3, NULL, &tl), NRT_SUCCESS);
    static const char *const names[4] = {"NC 1 events pushed", "NC 1 events lost",
                                         "NC 2 events pushed", "NC 2 events lost"};
    ck_assert_uint_eq(tl.ncounters, 4);
    for (size_t c = 0; c < 4; c++) {
        ck_assert_str_eq(tl.counters[c].name, names[c]);
        ck_assert_uint_eq(tl.counters[c].nc, c < 2 ? 1 : 2);
    }
    ck_assert_uint_eq(tl.stats.drops, 0);
    ck_assert_uint_eq(tl.stats.lost_events, 0);
    static const struct { uint64_t ts; size_t counter; int64_t value; } want[5] = {
        {1000, 3, 0}, {1000, 2, 1}, {1500, 0, 2}, {2000, 1, 0}, {2000, 0, 1}};
    size_t n = 0;
    for (size_t e = 0; e < tl.nedges; e++) {
        if (tl.edges[e].kind != NTSIM_TL_SAMPLE)
            continue;
        ck_assert_uint_lt(n, 5);
        ck_assert_uint_eq(tl.edges[e].ts, want[n].ts);
        ck_assert_uint_eq(tl.edges[e].index, want[n].counter);
        ck_assert_int_eq(tl.edges[e].value, want[n].value);
        n++;
    }
    ck_assert_uint_eq(n, 5);
    ntsim__timeline_free(&tl);
}
END_TEST

/* D-TIMELINE-ORDER, counters: with 256 records the NC is past 255, so the
 * pushed counter is sampled every k-th record, k = 256 / 256 + 1 = 2, and at
 * the last. 256 host instants on NC 0, nc_local_id i at 1000 + i ns:
 * samples at i = 0, 2, ..., 254 (values 1, 3, ..., 255) and at i = 255
 * (value 256): 129 samples, in time order. */
START_TEST(test_pushed_counter_samples_every_second_record_of_an_nc_with_256)
{
    enum { N = 256 };
    static nrt_sys_trace_event_t r[N];
    for (uint64_t i = 0; i < N; i++)
        r[i] = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 1000 + i, i, i);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, N, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.ncounters, 2);
    size_t pushed = 0;
    for (size_t e = 0; e < tl.nedges; e++) {
        if (tl.edges[e].kind != NTSIM_TL_SAMPLE || tl.edges[e].index != 0)
            continue;
        int64_t want = pushed < 128 ? (int64_t)(2 * pushed + 1) : 256;
        ck_assert_int_eq(tl.edges[e].value, want);
        ck_assert_uint_eq(tl.edges[e].ts, 1000 + (uint64_t)want - 1);
        pushed++;
    }
    ck_assert_uint_eq(pushed, 129);
    ntsim__timeline_free(&tl);
}
END_TEST

/* D-TIMELINE-ORDER, counters: a repeated nc_local_id counts once, and each
 * NC's walk stops at its own records. Host instants: NC 0 ids 0 (at 1000),
 * 0 again (at 1000) and 1 (at 1200); NC 1 id 1 (at 1300). Counters 0-1 for
 * NC 0, 2-3 for NC 1. NC 0: lost 0 at 1000, pushed 1 at 1000 and 2 at 1200
 * (the repeat makes no sample). NC 1 starts at id 1: a drop of 1 at 1300
 * (item 4), lost 0 then 1 at 1300, pushed 2 at 1300. Samples in time order,
 * at equal times in the order made: (1000, c1, 0), (1000, c0, 1), (1200, c0,
 * 2), (1300, c3, 0), (1300, c3, 1), (1300, c2, 2). */
START_TEST(test_repeated_nc_local_id_counts_once_and_each_nc_walks_its_own_ids)
{
    nrt_sys_trace_event_t r[4];
    r[0] = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 1000, 0, 0);
    r[1] = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 1000, 0, 1);
    r[2] = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 1200, 1, 2);
    r[3] = rec(TY(MODEL_SUBMIT), I, 1, 7, 0, 1300, 1, 3);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 4, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.ncounters, 4);
    ck_assert_uint_eq(tl.nitems, 5);
    ck_assert_uint_eq(tl.items[4].flags, NTSIM_TL_DROP);
    ck_assert_uint_eq(tl.items[4].lost, 1);
    ck_assert_uint_eq(tl.items[4].begin, 1300);
    ck_assert_uint_eq(tl.stats.drops, 1);
    ck_assert_uint_eq(tl.stats.lost_events, 1);
    static const struct { uint64_t ts; size_t counter; int64_t value; } want[6] = {
        {1000, 1, 0}, {1000, 0, 1}, {1200, 0, 2}, {1300, 3, 0}, {1300, 3, 1}, {1300, 2, 2}};
    size_t n = 0;
    for (size_t e = 0; e < tl.nedges; e++) {
        if (tl.edges[e].kind != NTSIM_TL_SAMPLE)
            continue;
        ck_assert_uint_lt(n, 6);
        ck_assert_uint_eq(tl.edges[e].ts, want[n].ts);
        ck_assert_uint_eq(tl.edges[e].index, want[n].counter);
        ck_assert_int_eq(tl.edges[e].value, want[n].value);
        n++;
    }
    ck_assert_uint_eq(n, 6);
    ntsim__timeline_free(&tl);
}
END_TEST

/* Counters and drops are per NC context, and there are 256 (companion
 * facts: CONTEXTS[256]; an emit naming nc_idx >= 256 uses context 0), so a
 * record naming NC 256 (a trace read from a file) has no NC push count of
 * its own: it makes no counter and no drop, whatever its nc_local_id. One
 * host instant of NC 256 with nc_local_id 5: one item, no counter, no drop. */
START_TEST(test_records_of_nc_256_make_no_counters_or_drops)
{
    nrt_sys_trace_event_t r[1];
    r[0] = rec(TY(MODEL_SUBMIT), I, 256, 7, 0, 1000, 5, 0);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 1, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nitems, 1);
    ck_assert_uint_eq(tl.ncounters, 0);
    ck_assert_uint_eq(tl.stats.drops, 0);
    ck_assert_uint_eq(tl.stats.lost_events, 0);
    for (size_t e = 0; e < tl.nedges; e++)
        ck_assert_int_ne(tl.edges[e].kind, NTSIM_TL_SAMPLE);
    ntsim__timeline_free(&tl);
}
END_TEST

/* alloc.h, ntsim__array_grow (the timeline's and the analyses' arrays):
 * "false when the size would overflow or the allocator refuses (the array is
 * kept)". With an allocator that gives a
 * block for any size (a static one, never written), a need whose
 * need * elem exceeds SIZE_MAX must still give false, leaving the array
 * pointer and its capacity as they were; a need that fits is granted.
 *   elem = (SIZE_MAX / 2) / 64 = 2^57 - 1, need 129: 129 * elem = 2^64 +
 *   2^57 - 129 > SIZE_MAX (from capacity 0 and from capacity 64);
 *   elem 16, need SIZE_MAX / 16 + 1 = 2^60: 2^64 bytes;
 *   elem 2, need 2^63: 2^64 bytes;
 *   elem 16, need 100 from 0: true, a capacity >= 100, and the allocator
 *   asked for exactly capacity * 16 bytes (no wrap). */
static unsigned char g_any_size_block[64];
static size_t g_any_size_asked;

static void *realloc_any_size(void *p, size_t n)
{
    (void)p;
    g_any_size_asked = n;
    return g_any_size_block;
}

START_TEST(test_array_grow_refuses_a_size_that_overflows_and_keeps_the_array)
{
    static const struct {
        size_t elem, need, cap;
    } cases[] = {
        {(SIZE_MAX / 2) / 64, 129, 0},
        {(SIZE_MAX / 2) / 64, 129, 64},
        {16, SIZE_MAX / 16 + 1, 0},
        {2, (SIZE_MAX / 2) + 1, 0},
    };
    enum { NCASES = sizeof cases / sizeof cases[0] };
    bool got[NCASES];
    void *arr_after[NCASES];
    size_t cap_after[NCASES];
    void *const marker = g_any_size_block + 1; /* an array the call must leave alone */
    ntsim_probe_end();
    ck_assert_int_eq(ntsim_replace_allocator(malloc, realloc_any_size, calloc, free),
                     NRT_SUCCESS);
    for (size_t i = 0; i < NCASES; i++) {
        void *arr = cases[i].cap == 0 ? NULL : marker;
        size_t cap = cases[i].cap;
        got[i] = ntsim__array_grow(&arr, &cap, cases[i].need, cases[i].elem);
        arr_after[i] = arr;
        cap_after[i] = cap;
    }
    void *arr = NULL;
    size_t cap = 0;
    g_any_size_asked = 0;
    bool fits = ntsim__array_grow(&arr, &cap, 100, 16);
    ck_assert_int_eq(ntsim_replace_allocator(NULL, NULL, NULL, NULL), NRT_SUCCESS);
    for (size_t i = 0; i < NCASES; i++) {
        ck_assert_msg(!got[i], "case %zu: need %zu of %zu bytes granted", i, cases[i].need,
                      cases[i].elem);
        ck_assert_ptr_eq(arr_after[i], cases[i].cap == 0 ? NULL : marker);
        ck_assert_uint_eq(cap_after[i], cases[i].cap);
    }
    ck_assert(fits);
    ck_assert_ptr_eq(arr, g_any_size_block);
    ck_assert_uint_ge(cap, 100);
    ck_assert_uint_le(cap, SIZE_MAX / 16);
    ck_assert_uint_eq(g_any_size_asked, cap * 16);
}
END_TEST

START_TEST(test_timeline_pairs_by_tracking_id_and_flags_the_unmatched)
{
    nrt_sys_trace_event_t r[16];
    size_t n = pairing_records(r);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, n, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.stats.spans, 4);
    ck_assert_uint_eq(tl.stats.unmatched_start, 1);
    ck_assert_uint_eq(tl.stats.unmatched_stop, 1);
    ck_assert_uint_eq(tl.stats.instants, 1);
    /* By hand: A [100,300], B [150,200], C [500,600], D [510,520]. */
    const uint64_t want[4][2] = {{100, 300}, {150, 200}, {500, 600}, {510, 520}};
    const uint32_t want_type[4] = {TY(EXEC_PRE), TY(EXEC_POST), TY(TENSOR_READ), TY(TENSOR_READ)};
    size_t found = 0;
    for (size_t i = 0; i < tl.nitems; i++) {
        const ntsim_tl_item_t *it = &tl.items[i];
        if (!(it->flags & NTSIM_TL_SPAN))
            continue;
        for (size_t w = 0; w < 4; w++)
            if (it->begin == T0 + want[w][0] && it->end == T0 + want[w][1] &&
                it->type == want_type[w])
                found |= (size_t)1 << w;
        if (it->flags & NTSIM_TL_UNMATCHED_START)
            ck_abort_msg("a span flagged unmatched");
    }
    ck_assert_uint_eq(found, 15);
    for (size_t i = 0; i < tl.nitems; i++) {
        const ntsim_tl_item_t *it = &tl.items[i];
        if (it->flags & NTSIM_TL_UNMATCHED_STOP)
            ck_assert_uint_eq(it->begin, T0 + 50);
        if (it->flags & NTSIM_TL_UNMATCHED_START)
            ck_assert_uint_eq(it->begin, T0 + 400);
    }
    /* One thread lane holds everything: it nests, so no overflow lane. */
    ck_assert_uint_eq(tl.nlanes, 1);
    ck_assert_str_eq(tl.lanes[0].name, "thread 7");
    ntsim__timeline_free(&tl);
}
END_TEST

START_TEST(test_timeline_gaps_in_nc_local_id_are_drops)
{
    /* NC 0 keeps ids 3, 4, 7, 8: 0..2 and 5..6 are missing. */
    nrt_sys_trace_event_t r[4];
    const uint64_t ids[4] = {3, 4, 7, 8};
    for (int i = 0; i < 4; i++) {
        r[i] = host_rec(TY(GENERIC), I, 0, T0 + 1000 * (uint64_t)(i + 1));
        r[i].nc_local_id = ids[i];
    }
    ntsim_timeline_stats_t st;
    ck_assert_int_eq(ntsim_timeline_stats(r, 4, NULL, &st), NRT_SUCCESS);
    ck_assert_uint_eq(st.drops, 2);
    ck_assert_uint_eq(st.lost_events, 5);
    ck_assert_uint_eq(st.instants, 4);
}
END_TEST

Suite *make_timeline_suite(void)
{
    Suite *s = suite_create("timeline");
    TCase *tc = tcase_create("timeline");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_model_of_trace_a);
    tcase_add_test(tc, test_model_of_trace_b);
    tcase_add_test(tc, test_spans_one_after_the_other_pair_and_the_build_ends);
    tcase_add_test(tc, test_span_stopping_before_its_start_has_length_zero);
    tcase_add_test(tc, test_pushed_counter_samples_every_record_of_an_nc_with_255);
    tcase_add_test(tc, test_array_grow_refuses_a_size_that_overflows_and_keeps_the_array);
    tcase_add_test(tc, test_counters_come_by_ascending_nc_and_nc_local_id_not_record_order);
    tcase_add_test(tc, test_pushed_counter_samples_every_second_record_of_an_nc_with_256);
    tcase_add_test(tc, test_repeated_nc_local_id_counts_once_and_each_nc_walks_its_own_ids);
    tcase_add_test(tc, test_records_of_nc_256_make_no_counters_or_drops);
    suite_add_tcase(s, tc);
    tc = tcase_create("timeline_pairing");
    tcase_add_checked_fixture(tc, host_setup, host_teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_timeline_pairs_by_tracking_id_and_flags_the_unmatched);
    tcase_add_test(tc, test_timeline_gaps_in_nc_local_id_are_drops);
    suite_add_tcase(s, tc);
    return s;
}
