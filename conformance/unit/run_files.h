/*
 * conformance/unit/run_files.h: a default run's files in memory, as `ntsim
 * run` writes them (trace.json in batches, trace.ntff, notifications.ntff,
 * the --records dump), for the suites that read them back
 * (check_read_roundtrip.c, check_diff.c). Static inline: the test program
 * exports none of it.
 */
#ifndef NTSIM_CONFORMANCE_RUN_FILES_H
#define NTSIM_CONFORMANCE_RUN_FILES_H

#include <check.h>
#include <stdint.h>
#include <stdio.h>

#include "check_suites.h"
#include "sim.h"
#include "sim_run.h"

enum { RUN_JSON, RUN_NTFF, RUN_NOTIF, RUN_RECORDS, RUN_FILES };

/* Runs the built-in default scenario into bytes[RUN_*] (free each with
 * free()); keep (may be NULL) gets its records as the run drained them. The
 * scenario's invalid notifications log errors: they go to the quiet sink. */
static inline void run_default_files(char *bytes[RUN_FILES], size_t lens[RUN_FILES],
                                     ntsim_run_keep_t *keep, ntsim_run_result_t *res,
                                     ntsim_outputs_t *o)
{
    ntsim_scenario_t sc;
    ntsim_scenario_default(&sc);
    FILE *f[RUN_FILES];
    for (size_t k = 0; k < RUN_FILES; k++) {
        bytes[k] = NULL;
        lens[k] = 0;
        ck_assert_ptr_nonnull(f[k] = open_memstream(&bytes[k], &lens[k]));
    }
    ntsim_run_io_t io = {{f[RUN_JSON], f[RUN_NTFF], f[RUN_NOTIF], f[RUN_RECORDS], true}, NULL,
                         keep, NULL, NULL, NULL, 0};
    ntsim_log_set_sink(ntsim_check_quiet_log, NULL);
    ck_assert_int_eq(ntsim_run_scenario(&sc, &io, res, o), NRT_SUCCESS);
    ntsim_log_set_sink(NULL, NULL);
    for (size_t k = 0; k < RUN_FILES; k++)
        ck_assert_int_eq(fclose(f[k]), 0);
}

#endif /* NTSIM_CONFORMANCE_RUN_FILES_H */
