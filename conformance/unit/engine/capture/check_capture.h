/*
 * conformance/unit/engine/capture/check_capture.h: what the capture suites share
 * (check_capture.c, check_capture_start.c, check_config.c): the fixture (a
 * fake clock from 1000 ns in steps of 10 on thread 4242), a small session of
 * NC 0 and NC 3, and one NC's counters. Static inline, so that each file
 * calls them by their short names and the test program exports none of them.
 */
#ifndef NTSIM_CONFORMANCE_CHECK_CAPTURE_H
#define NTSIM_CONFORMANCE_CHECK_CAPTURE_H

#include "capture_fixture.h"
#include "check_suites.h"
#include "ntsim/capture.h"

static const uint32_t only_nc0_and_3[] = {0, 3};

static inline void setup(void)
{
    ntsim_fixture_begin(1000, 10, 4242);
}

static inline void teardown(void)
{
    ntsim_fixture_end();
}

static inline void start_small(void)
{
    nrt_sys_trace_config_t cfg;
    ntsim_fixture_config(&cfg, 1024, only_nc0_and_3, 2);
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
}

static inline ntsim_nc_stats_t stats_of(uint32_t nc)
{
    ntsim_nc_stats_t st;
    ck_assert_int_eq(ntsim_capture_nc_stats(nc, &st), NRT_SUCCESS);
    return st;
}

#endif /* NTSIM_CONFORMANCE_CHECK_CAPTURE_H */
