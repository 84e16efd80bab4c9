/*
 * conformance/lib/capture_fixture.h: a deterministic capture session for tests.
 *
 * A virtual clock (starts at `start_ns`, advances `step_ns` per read), a
 * fixed virtual thread id, and a log sink that keeps the last messages, so
 * that every record a test captures is byte-predictable and every warning
 * can be asserted. ntsim_fixture_end() restores the engine to idle and the
 * default hooks and sink, so tests also run back to back in one process
 * (CK_FORK=no, valgrind).
 */
#ifndef NTSIM_CONFORMANCE_CAPTURE_FIXTURE_H
#define NTSIM_CONFORMANCE_CAPTURE_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "ntsim/capture.h"

/* How many messages of any level the fixture keeps, in order: a testee's
 * log must show every message it counts (log_expect.h), and one call can
 * log a line per NC (a stop that drops 256 NCs' events). */
#define NTSIM_FIXTURE_LOG_MAX 512

typedef struct ntsim_fixture {
    uint64_t now_ns;        /* next clock value */
    uint64_t step_ns;       /* added after each read */
    uint64_t thread_id;     /* what every record's thread_id reads */
    unsigned warnings;      /* messages at WARN or ERROR since begin */
    char last_message[512]; /* the latest of them */
    size_t log_count;       /* messages of every level since begin (or log_begin) */
    char log[NTSIM_FIXTURE_LOG_MAX][512]; /* the first of them, "level: message" */
} ntsim_fixture_t;

extern ntsim_fixture_t ntsim_fixture;

/* Installs the virtual clock and tid and the capturing sink. */
void ntsim_fixture_begin(uint64_t start_ns, uint64_t step_ns, uint64_t thread_id);
/* A config with only the listed NCs enabled (all types), ring `max`. */
void ntsim_fixture_config(nrt_sys_trace_config_t *cfg, uint64_t max, const uint32_t *ncs,
                          size_t nc_count);
/* Stops capturing if needed, frees engine resources, restores defaults. */
void ntsim_fixture_end(void);
/* Only the capturing sink (log and counters reset), for tests that run no
 * session (the exporters); ntsim_fixture_log_end restores the default sink. */
void ntsim_fixture_log_begin(void);
void ntsim_fixture_log_end(void);

#endif /* NTSIM_CONFORMANCE_CAPTURE_FIXTURE_H */
