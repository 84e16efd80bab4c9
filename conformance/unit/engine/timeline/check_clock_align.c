/*
 * conformance/unit/engine/timeline/check_clock_align.c: device clocks
 * (engine/timeline/clock_align.c, and stage 2 of timeline.c; D-PFTRACE-CLOCK):
 * each clock's fit of its sync pairs worked out by hand, a repeated pair,
 * slopes that are no clock, the clamp of an aligned time, the grouping of
 * pairs by clock, and a device item with no device time. The fit on whole
 * simulator runs is in check_timeline_runs.c.
 */

#include "check_timeline.h"

/* D-PFTRACE-CLOCK by hand, where the pairs do not lie on a line. NC 3's
 * clock: c0 = 100000, x = cpu - c0 = 0, 1024, 2048, y = dev - cpu = 1000,
 * 1004, 1002: mean x 1024, mean y 1002, sxx = 2 * 1024^2, sxy = 2048, so
 * b = 1/1024 and a = 1002 - 1 = 1001. Aligned: c0 + round((x + y - 1001) *
 * 1024/1025): -0.999 -> -1, 1025.998 -> 1026, 2047.001 -> 2047; residuals
 * 1, 2, 1. NC 4's: y = 1001, 1000, 1002: b = 1024 / 2097152 = 1/2048, a =
 * 1000.5; (x + y - 1000.5) * 2048/2049: 0.4998 -> 0, 1023.0005 -> 1023,
 * 2048.4998 -> 2048; residuals 0, 1, 0. The worst of all clocks is 2. */
START_TEST(test_clock_fit_and_alignment_by_hand)
{
    static const uint64_t x[3] = {0, 1024, 2048};
    static const uint64_t y3[3] = {1000, 1004, 1002}, y4[3] = {1001, 1000, 1002};
    nrt_sys_trace_event_t r[6];
    for (int i = 0; i < 6; i++) {
        int nc = i < 3 ? 3 : 4;
        uint64_t cpu = 100000 + x[i % 3];
        uint64_t dev = cpu + (nc == 3 ? y3[i % 3] : y4[i % 3]);
        r[i] = rec(TY(HW_NOTIFY), I, (uint32_t)nc, 7, 0, 5, (uint64_t)(i % 3), (uint64_t)i);
        r[i].data.hw_notify.sync_info.nc_timestamp_ns = dev;
        r[i].data.hw_notify.sync_info.cpu_timestamp_ns = cpu;
    }
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 6, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nclocks, 2);
    ck_assert(tl.stats.max_residual_ns == 2);
    ck_assert_uint_eq(tl.clocks[0].c0, 100000);
    ck_assert(tl.clocks[0].b == 1.0 / 1024);
    ck_assert(tl.clocks[0].a == 1001);
    ck_assert(tl.clocks[0].max_residual_ns == 2);
    ck_assert_uint_eq(tl.clocks[0].pairs, 3);
    ck_assert(tl.clocks[1].b == 1.0 / 2048);
    ck_assert(tl.clocks[1].a == 1000.5);
    ck_assert(tl.clocks[1].max_residual_ns == 1);
    ck_assert_uint_eq(tl.clocks[1].pair_first, 3);
    static const int64_t aligned3[3] = {-1, 1026, 2047}, aligned4[3] = {0, 1023, 2048};
    for (size_t i = 0; i < 6; i++) {
        int64_t want = i < 3 ? aligned3[i] : aligned4[i - 3];
        ck_assert_msg(tl.items[i].begin == (uint64_t)(100000 + want), "item %zu: %llu", i,
                      (unsigned long long)tl.items[i].begin);
    }
    ntsim__timeline_free(&tl);

    /* Three more clocks, worked out the same way.
     * NC 5, x = 0, 1, 2, 10, 11 and y = 1000 + (-6, 2, 5, 1, -2): the offsets
     * sum to 0 and so do x times them, so the line is y = 1000 (b = 0 up to
     * the rounding of mean x = 4.8) and each aligned time is cpu + the
     * offset: residuals 6, 2, 5, 1, 2, the worst the first pair's.
     * NC 6, (x, y) = (0, 1000), (1, 1001): mean 0.5, 1000.5, sxx = sxy = 0.5,
     * b = 1, a = 1000; its third record, device time c0 + 1004 with no host
     * half, aligns to c0 + 4 / 2 = c0 + 2.
     * NC 7, x = 0, 1, 3, y = 2^52 for all (a device clock 52 days ahead, still
     * exact in a double): y - mean y is exactly 0, so b = 0,
     * a = 2^52, and each aligned time is its own cpu: the sums taken about
     * the means lose nothing to a huge offset (D-PFTRACE-CLOCK). */
    static const uint64_t x5[5] = {0, 1, 2, 10, 11};
    static const int64_t r5[5] = {-6, 2, 5, 1, -2};
    nrt_sys_trace_event_t m[11];
    for (int i = 0; i < 5; i++) {
        m[i] = rec(TY(HW_NOTIFY), I, 5, 7, 0, 5, (uint64_t)i, (uint64_t)i);
        m[i].data.hw_notify.sync_info.cpu_timestamp_ns = 100000 + x5[i];
        m[i].data.hw_notify.sync_info.nc_timestamp_ns =
            (uint64_t)(100000 + (int64_t)x5[i] + 1000 + r5[i]);
    }
    for (int i = 0; i < 3; i++) {
        m[5 + i] = rec(TY(HW_NOTIFY), I, 6, 7, 0, 5, (uint64_t)i, (uint64_t)(5 + i));
        m[5 + i].data.hw_notify.sync_info.cpu_timestamp_ns = i < 2 ? 100000 + (uint64_t)i : 0;
        m[5 + i].data.hw_notify.sync_info.nc_timestamp_ns =
            i < 2 ? 100000 + (uint64_t)i + 1000 + (uint64_t)i : 100000 + 1004;
    }
    static const uint64_t x7[3] = {0, 1, 3};
    for (int i = 0; i < 3; i++) {
        m[8 + i] = rec(TY(HW_NOTIFY), I, 7, 7, 0, 5, (uint64_t)i, (uint64_t)(8 + i));
        m[8 + i].data.hw_notify.sync_info.cpu_timestamp_ns = 100000 + x7[i];
        m[8 + i].data.hw_notify.sync_info.nc_timestamp_ns = 100000 + x7[i] + (UINT64_C(1) << 52);
    }
    ck_assert_int_eq(ntsim__timeline_build(m, 11, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nclocks, 3);
    ck_assert(tl.clocks[0].max_residual_ns == 6);
    ck_assert(tl.clocks[1].b == 1 && tl.clocks[1].a == 1000);
    ck_assert(tl.clocks[2].b == 0 && tl.clocks[2].a == (double)(UINT64_C(1) << 52));
    ck_assert(tl.stats.max_residual_ns == 6);
    static const uint64_t begin[11] = {99994,  100003, 100007, 100011, 100009, 100000,
                                       100001, 100002, 100000, 100001, 100003};
    for (size_t i = 0; i < 11; i++)
        ck_assert_msg(tl.items[i].begin == begin[i], "item %zu: %llu", i,
                      (unsigned long long)tl.items[i].begin);
    ntsim__timeline_free(&tl);

    /* ntsim__clock_align on its own: halves away from zero, both signs. */
    ntsim_tl_clock_t c = {.c0 = 1000, .a = 0, .b = 0.5, .pairs = 1};
    ck_assert_uint_eq(ntsim__clock_align(&c, 1000 + 3), 1000 + 2); /* 3/1.5 = 2 */
    ck_assert_uint_eq(ntsim__clock_align(&c, 1000 + 2), 1000 + 1); /* 1.33 -> 1 */
    ck_assert_uint_eq(ntsim__clock_align(&c, 1000 + 1), 1000 + 1); /* 0.67 -> 1 */
    ck_assert_uint_eq(ntsim__clock_align(&c, 1000 - 1), 1000 - 1); /* -0.67 -> -1 */
    ck_assert_uint_eq(ntsim__clock_align(&c, 1000 - 2), 1000 - 1); /* -1.33 -> -1 */
    c.b = 1.0; /* x = d / 2: the halves */
    ck_assert_uint_eq(ntsim__clock_align(&c, 1000 + 1), 1000 + 1);  /* 0.5 -> 1 */
    ck_assert_uint_eq(ntsim__clock_align(&c, 1000 - 1), 1000 - 1);  /* -0.5 -> -1 */
    ck_assert_uint_eq(ntsim__clock_align(&c, 1000 + 3), 1000 + 2);  /* 1.5 -> 2 */
}
END_TEST

/* A sync pair that two records repeat is one point of the clock fit, not
 * two. NC 8, (x, y) = (0, 1000), (1, 1001), (2, 1000) and (0, 1000) again:
 * three distinct points, mean x 1, sxy = (-1)(1000 - my) + (1)(1000 - my)
 * = 0 exactly, so b = 0 and the clock has 3 pairs. (Weighing the repeated
 * point twice would give mean x 0.75 and b = 0.25 / 2.75.) */
START_TEST(test_clock_fit_counts_a_repeated_sync_pair_once)
{
    static const uint64_t x[4] = {0, 1, 2, 0}, y[4] = {1000, 1001, 1000, 1000};
    nrt_sys_trace_event_t r[4];
    for (int i = 0; i < 4; i++) {
        r[i] = rec(TY(HW_NOTIFY), I, 8, 7, 0, 5, (uint64_t)i, (uint64_t)i);
        r[i].data.hw_notify.sync_info.cpu_timestamp_ns = 100000 + x[i];
        r[i].data.hw_notify.sync_info.nc_timestamp_ns = 100000 + x[i] + y[i];
    }
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 4, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nclocks, 1);
    ck_assert_uint_eq(tl.clocks[0].pairs, 3);
    ck_assert(tl.clocks[0].b == 0);
    ntsim__timeline_free(&tl);
}
END_TEST

/* D-TIMELINE: a device item whose record has no device time keeps its
 * timestamp_ns and counts as unaligned. An nc_exec_running INSTANT carries
 * no payload at all (the type's INSTANT phase has none, event_table.h), so
 * the search for its sync_info has no field to look at: by hand, one
 * instant at 4000 ns, begin = end = 4000, device time 0, unaligned 1, one
 * clock (NC 0, no core) with no pair. */
START_TEST(test_device_instant_without_payload_keeps_its_host_time)
{
    nrt_sys_trace_event_t r[1];
    r[0] = rec(TY(DEVICE_EXEC), I, 0, 7, 0, 4000, 0, 0);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 1, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.items[0].begin, 4000);
    ck_assert_uint_eq(tl.items[0].end, 4000);
    ck_assert_uint_eq(tl.items[0].dev_begin, 0);
    ck_assert_uint_eq(tl.items[0].flags, NTSIM_TL_DEVICE | NTSIM_TL_UNALIGNED);
    ntsim__timeline_free(&tl);
    ntsim_timeline_stats_t st;
    ck_assert_int_eq(ntsim_timeline_stats(r, 1, NULL, &st), NRT_SUCCESS);
    ck_assert_uint_eq(st.instants, 1);
    ck_assert_uint_eq(st.unaligned, 1);
    ck_assert_uint_eq(st.clocks, 1);
    ck_assert_uint_eq(st.sync_pairs, 0);
}
END_TEST

/* D-PFTRACE-CLOCK: a slope that puts 1 + b below 0.5 is no clock and fits
 * the offset only; 1 + b = 0.5 itself is a clock. By hand, c0 = 100000:
 * NC 9, (x, y) = (0, 1000), (2, 999): mean x 1, mean y 999.5, sxx = 2,
 * sxy = (-1)(0.5) + (1)(-0.5) = -1, b = -0.5 exactly (1 + b = 0.5, kept),
 * a = 999.5 + 0.5 = 1000; aligned c0 + (x + y - 1000) / 0.5: 0 and 2, the
 * pairs' own cpu, residuals 0. NC 10, (0, 1000), (2, 994): sxy = -6, b = -3
 * (1 + b = -2, refused): b = 0, a = mean y = 997; aligned c0 + x + y - 997:
 * 3 and -1, residuals 3 and 3. The worst of both clocks is 3. */
START_TEST(test_clock_slope_below_half_the_rate_is_no_clock)
{
    static const uint64_t x[4] = {0, 2, 0, 2}, y[4] = {1000, 999, 1000, 994};
    nrt_sys_trace_event_t r[4];
    for (int i = 0; i < 4; i++) {
        r[i] = rec(TY(HW_NOTIFY), I, i < 2 ? 9 : 10, 7, 0, 5, (uint64_t)(i % 2), (uint64_t)i);
        r[i].data.hw_notify.sync_info.cpu_timestamp_ns = 100000 + x[i];
        r[i].data.hw_notify.sync_info.nc_timestamp_ns = 100000 + x[i] + y[i];
    }
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 4, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nclocks, 2);
    ck_assert(tl.clocks[0].b == -0.5 && tl.clocks[0].a == 1000);
    ck_assert(tl.clocks[0].max_residual_ns == 0);
    ck_assert(tl.clocks[1].b == 0 && tl.clocks[1].a == 997);
    ck_assert(tl.clocks[1].max_residual_ns == 3);
    ck_assert(tl.stats.max_residual_ns == 3);
    static const uint64_t begin[4] = {100000, 100002, 100003, 99999};
    for (size_t i = 0; i < 4; i++)
        ck_assert_msg(tl.items[i].begin == begin[i], "item %zu: %llu", i,
                      (unsigned long long)tl.items[i].begin);
    ntsim__timeline_free(&tl);
}
END_TEST

/* D-PFTRACE-CLOCK: an aligned time past +-4.6e18 ns is clamped there. NC 11
 * has one pair, (cpu, dev) = (100000, 100000): c0 = 100000, b = 0, a = 0,
 * so a device time d aligns to c0 + (d - c0). Its second record's device
 * time is c0 + 5e18 (x = 5e18, past the limit): c0 + 4.6e18; its third's is
 * c0 - 5e18 (x = -5e18, a device clock 58 years behind): c0 - 4.6e18, mod
 * 2^64. Both 5e18 and 4.6e18 are exact in a double (5^18 and 23 * 5^17 are
 * below 2^53). The pair itself aligns to c0, residual 0. */
START_TEST(test_clock_aligned_time_is_clamped_at_4_6e18_ns_both_ways)
{
    static const uint64_t c0 = 100000, far = UINT64_C(5000000000000000000),
                          limit = UINT64_C(4600000000000000000);
    static const uint64_t dev[3] = {c0, c0 + far, c0 - far}, cpu[3] = {c0, 0, 0};
    nrt_sys_trace_event_t r[3];
    for (int i = 0; i < 3; i++) {
        r[i] = rec(TY(HW_NOTIFY), I, 11, 7, 0, 5, (uint64_t)i, (uint64_t)i);
        r[i].data.hw_notify.sync_info.nc_timestamp_ns = dev[i];
        r[i].data.hw_notify.sync_info.cpu_timestamp_ns = cpu[i];
    }
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 3, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nclocks, 1);
    ck_assert_uint_eq(tl.clocks[0].pairs, 1);
    ck_assert(tl.clocks[0].b == 0 && tl.clocks[0].a == 0);
    ck_assert(tl.clocks[0].max_residual_ns == 0);
    const uint64_t begin[3] = {c0, c0 + limit, c0 - limit};
    for (size_t i = 0; i < 3; i++)
        ck_assert_msg(tl.items[i].begin == begin[i], "item %zu: %llu", i,
                      (unsigned long long)tl.items[i].begin);
    ntsim__timeline_free(&tl);
}
END_TEST

/* D-PFTRACE-CLOCK refuses only a slope that is not a number or that puts
 * 1 + b below 0.5: a device clock a billion times faster than the host is
 * still a clock. By hand, c0 = 100000: NC 12, (x, y) = (0, 0), (1, 1e9):
 * mean x 0.5, mean y 5e8, sxx = 2 * 0.25 = 0.5, sxy = (-0.5)(-5e8) +
 * (0.5)(5e8) = 5e8, b = 1e9 exactly, a = 5e8 - 1e9 * 0.5 = 0; aligned c0 +
 * (x + y) / (1 + 1e9): 0 and 1, the pairs' own cpu, residuals 0; its third
 * record, device time c0 + 3 + 3e9 with no host half, aligns to c0 + 3.
 * NC 13, (0, 0), (1, 2e9): sxy = 1e9, b = 2e9, a = 1e9 - 1e9 = 0; aligned 0
 * and (1 + 2e9) / (1 + 2e9) = 1; device time c0 + 2 + 4e9 -> c0 + 2. (Fitting
 * the offset only would put NC 12's pairs at c0 - 5e8 and c0 + 1 + 5e8.) */
START_TEST(test_clock_slope_of_a_billion_or_more_is_still_a_clock)
{
    static const uint64_t c0 = 100000, e9 = 1000000000;
    const uint64_t cpu[6] = {c0, c0 + 1, 0, c0, c0 + 1, 0};
    const uint64_t dev[6] = {c0,     c0 + 1 + e9, c0 + 3 + 3 * e9,
                             c0,     c0 + 1 + 2 * e9, c0 + 2 + 4 * e9};
    nrt_sys_trace_event_t r[6];
    for (int i = 0; i < 6; i++) {
        r[i] = rec(TY(HW_NOTIFY), I, i < 3 ? 12 : 13, 7, 0, 5, (uint64_t)(i % 3), (uint64_t)i);
        r[i].data.hw_notify.sync_info.nc_timestamp_ns = dev[i];
        r[i].data.hw_notify.sync_info.cpu_timestamp_ns = cpu[i];
    }
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 6, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nclocks, 2);
    ck_assert(tl.clocks[0].b == 1e9 && tl.clocks[0].a == 0);
    ck_assert(tl.clocks[1].b == 2e9 && tl.clocks[1].a == 0);
    ck_assert(tl.clocks[0].max_residual_ns == 0 && tl.clocks[1].max_residual_ns == 0);
    ck_assert(tl.stats.max_residual_ns == 0);
    const uint64_t begin[6] = {c0, c0 + 1, c0 + 3, c0, c0 + 1, c0 + 2};
    for (size_t i = 0; i < 6; i++)
        ck_assert_msg(tl.items[i].begin == begin[i], "item %zu: %llu", i,
                      (unsigned long long)tl.items[i].begin);
    ntsim__timeline_free(&tl);
}
END_TEST

/* D-TIMELINE-ORDER ("a clock per (NC, core) in order of first use; equal
 * pairs count once"), D-PFTRACE-CLOCK (c0: the first pair's host time) and
 * timeline.h (a clock's pairs sit together in tl->pairs, sorted by cpu):
 * hw_notify instants (core 0), in record order, with their sync {dev, cpu}:
 *   r0 NC 1 {50000, 0}: makes clock 0 (NC 1) but gives no pair (cpu 0);
 *   r1 NC 2 {100500, 100000}: clock 1;  r2 NC 1 {301000, 300000};
 *   r3 NC 2 {200500, 200000};  r4 NC 1 {101000, 100000};
 *   r5 NC 1 {101002, 100000}: the same host time as r4, another device time.
 * So the pairs come in as clocks 1, 0, 1, 0, 0 and must come out grouped by
 * clock, each by host time: clock 0 at pair_first 0 with 3 pairs, cpu
 * 100000, 100000 (devs 101000 and 101002, both kept: not equal), 300000,
 * c0 100000; clock 1 at pair_first 3 with 2 pairs, cpu 100000 then 200000,
 * c0 100000, dev - cpu 500 at both: a = 500, b = 0 exactly. */
START_TEST(test_sync_pairs_group_by_clock_sort_by_host_time_and_keep_distinct_devs)
{
    static const uint32_t nc[6] = {1, 2, 1, 2, 1, 1};
    static const uint64_t dev[6] = {50000, 100500, 301000, 200500, 101000, 101002};
    static const uint64_t cpu[6] = {0, 100000, 300000, 200000, 100000, 100000};
    static const uint64_t local[6] = {0, 0, 1, 1, 2, 3};
    nrt_sys_trace_event_t r[6];
    for (int i = 0; i < 6; i++) {
        r[i] = rec(TY(HW_NOTIFY), I, nc[i], 7, 0, 5, local[i], (uint64_t)i);
        r[i].data.hw_notify.sync_info.nc_timestamp_ns = dev[i];
        r[i].data.hw_notify.sync_info.cpu_timestamp_ns = cpu[i];
    }
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 6, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nclocks, 2);
    ck_assert_uint_eq(tl.npairs, 5);
    ck_assert_uint_eq(tl.stats.sync_pairs, 5);
    ck_assert_uint_eq(tl.clocks[0].nc, 1);
    ck_assert_uint_eq(tl.clocks[0].pair_first, 0);
    ck_assert_uint_eq(tl.clocks[0].pairs, 3);
    ck_assert_uint_eq(tl.clocks[0].c0, 100000);
    ck_assert_uint_eq(tl.clocks[1].nc, 2);
    ck_assert_uint_eq(tl.clocks[1].pair_first, 3);
    ck_assert_uint_eq(tl.clocks[1].pairs, 2);
    ck_assert_uint_eq(tl.clocks[1].c0, 100000);
    ck_assert(tl.clocks[1].a == 500);
    ck_assert(tl.clocks[1].b == 0);
    static const uint64_t want_cpu[5] = {100000, 100000, 300000, 100000, 200000};
    static const uint32_t want_clock[5] = {0, 0, 0, 1, 1};
    for (size_t i = 0; i < 5; i++) {
        ck_assert_msg(tl.pairs[i].cpu == want_cpu[i] && tl.pairs[i].clock == want_clock[i],
                      "pair %zu: clock %u cpu %llu", i, tl.pairs[i].clock,
                      (unsigned long long)tl.pairs[i].cpu);
    }
    ck_assert_uint_eq(tl.pairs[0].dev + tl.pairs[1].dev, 101000 + 101002);
    ck_assert_uint_ne(tl.pairs[0].dev, tl.pairs[1].dev);
    ck_assert_uint_eq(tl.pairs[2].dev, 301000);
    ck_assert_uint_eq(tl.pairs[3].dev, 100500);
    ck_assert_uint_eq(tl.pairs[4].dev, 200500);
    ntsim__timeline_free(&tl);
}
END_TEST

Suite *make_clock_align_suite(void)
{
    Suite *s = suite_create("clock_align");
    TCase *tc = tcase_create("clock_align");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_clock_fit_and_alignment_by_hand);
    tcase_add_test(tc, test_clock_fit_counts_a_repeated_sync_pair_once);
    tcase_add_test(tc, test_device_instant_without_payload_keeps_its_host_time);
    tcase_add_test(tc, test_clock_slope_below_half_the_rate_is_no_clock);
    tcase_add_test(tc, test_clock_aligned_time_is_clamped_at_4_6e18_ns_both_ways);
    tcase_add_test(tc, test_clock_slope_of_a_billion_or_more_is_still_a_clock);
    tcase_add_test(tc, test_sync_pairs_group_by_clock_sort_by_host_time_and_keep_distinct_devs);
    suite_add_tcase(s, tc);
    return s;
}
