/*
 * conformance/check_suites.h: the Check suites of `make check` and the state
 * check_main.c shares with them.
 */
#ifndef NTSIM_CONFORMANCE_CHECK_SUITES_H
#define NTSIM_CONFORMANCE_CHECK_SUITES_H

#include <check.h>

#include "kinds.h"
#include "vector.h"

/* The vectors under test, loaded once by main before any suite runs. */
extern ntsim_vector_set_t ntsim_check_vectors;
/* Vectors ordered by kind (report order), then by file and position. */
extern const ntsim_vector_t **ntsim_check_ordered;
/* Directory of the loader's broken-vector test data. */
extern const char *ntsim_check_testdata_dir;
/* ntsim_check_proto_dir: kinds.h. */

Suite *make_vectors_suite(void);     /* check_vectors.c: one test per vector */
Suite *make_loader_suite(void);      /* check_loader.c: broken files, runner reports */
Suite *make_event_table_suite(void); /* check_event_table.c: the one table's views */
Suite *make_ring_suite(void);        /* check_ring.c: the ring protocol */
Suite *make_capture_suite(void);     /* check_capture.c: engine API and lifecycle */
Suite *make_concurrency_suite(void); /* check_concurrency.c: emitters + drainer at once */
Suite *make_json_suite(void);        /* check_json.c: fetch, escaping, gid map, key column */
Suite *make_convert_suite(void);     /* check_convert.c: notifications, EXPLICIT, NTFF, ids */
Suite *make_sim_suite(void);         /* check_sim.c: virtual time, clocks, runs, scenarios */

#endif /* NTSIM_CONFORMANCE_CHECK_SUITES_H */
