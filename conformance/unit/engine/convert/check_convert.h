/*
 * conformance/unit/engine/convert/check_convert.h: the fixture the converter
 * suites share (check_notify.c, check_ntff.c): a fake clock from 5000 ns in
 * steps of 10 on thread 99, the notification counters at 0, and the
 * allocator probe ended whatever the test did. Static inline, so that each
 * file calls them by their short names and the test program exports none of
 * them.
 */
#ifndef NTSIM_CONFORMANCE_CHECK_CONVERT_H
#define NTSIM_CONFORMANCE_CHECK_CONVERT_H

#include "alloc_probe.h"
#include "capture_fixture.h"
#include "check_suites.h"
#include "ntsim/convert.h"

static inline void setup(void)
{
    ntsim_fixture_begin(5000, 10, 99);
    ntsim_notify_reset_stats();
}

static inline void teardown(void)
{
    ntsim_probe_end();
    ntsim_fixture_end();
}

#endif /* NTSIM_CONFORMANCE_CHECK_CONVERT_H */
