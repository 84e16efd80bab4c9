/*
 * conformance/runner/check_suites.h: the Check suites of `make check` and the state
 * the runner (check_runner.c) shares with them.
 */
#ifndef NTSIM_CONFORMANCE_CHECK_SUITES_H
#define NTSIM_CONFORMANCE_CHECK_SUITES_H

#include <check.h>
#include <stdio.h>

#include "facts.h"
#include "ntsim/capture.h"
#include "kinds.h"
#include "vector.h"

/* The vectors under test, loaded once by main before any suite runs. */
extern ntsim_vector_set_t ntsim_check_vectors;
/* The selected vectors ordered by kind (report order); within a kind, those
 * expected to pass, then those listed in expected_failures.txt. */
extern const ntsim_vector_t **ntsim_check_ordered;
/* How many of ntsim_check_ordered are selected, and whether a filter
 * (--kind, --file, --id) left some out. */
extern size_t ntsim_check_selected;
extern bool ntsim_check_filtered;
/* Whether the tree-wide checks (coverage, facts) run: no filter, no testee
 * process, shard 0; and the unit suites: the same, from a build tree (they
 * test the source tree: an installed runner has none). */
extern bool ntsim_check_whole_run;
extern bool ntsim_check_run_units;
/* The testee process (--testee), or NULL: the built-in one, in process. */
extern struct ntsim_testee *ntsim_check_testee;
/* check_data.c: the run's own data (D-DATA-LOCATE), each the option's or
 * where the locator finds it (sim/locate.h); ntsim_check_locate settles
 * them after the options: -1 to go on, or 2 (each missing piece named with
 * its option; for an installed program, each file of the located pieces
 * the run reads that is missing from what make install listed, or does not
 * open); in_process: no --testee (the scenario vectors and the default
 * expected failures are read); *tree says whether the source tree (the
 * unit suites' data) was found. The vectors' directory (given: --vectors), the facts, the
 * decisions, the default expected-failures list (NULL: none), the ntsim
 * command for repro lines (the one beside this program). */
extern const char *ntsim_check_vectors_dir;
extern bool ntsim_check_vectors_given;
extern const char *ntsim_check_facts_path;
extern const char *ntsim_check_xfail_default;
extern const char *ntsim_check_ntsim_path;
int ntsim_check_locate(const char *argv0, bool generating, bool in_process, bool xfail_given,
                       bool *tree);
/* After loading the vectors: what under their directory could not be read
 * at all (ntsim_vector_set_t.unreadable), one line each with --vectors: -1
 * when nothing, else 2 (the harness's own input failed, not the testee;
 * called before the testee starts). */
int ntsim_check_vectors_unreadable(const char *argv0);
/* --proto DIR: DIR/ntff.proto (false: out of memory). */
bool ntsim_check_set_proto_dir(const char *dir);
void ntsim_check_data_free(void);
/* The source tree (a build tree's: the unit suites only): its root, and
 * `tail` in it formatted into buf ("conformance/unit" run from the top). */
extern const char *ntsim_check_source_root;
const char *ntsim_check_tree(char *buf, size_t cap, const char *tail);
/* --first: suite names, comma-separated, that run before the others; NULL:
 * the usual order. check_main.c checks the names. */
extern const char *ntsim_check_first_suites;
/* check_main.c: whether a suite of that name is in the table (an output
 * format's tests are the suite named after it). */
bool ntsim_check_has_suite(const char *name);
/* --list-suites: main prints every suite's name and exits. */
extern bool ntsim_check_list_suites;
/* True under valgrind (make memcheck). Tests that stop a thread with a
 * protected page or a seccomp filter, or re-run this binary in a fresh
 * process, return at once under it: valgrind reports the protected access
 * as an invalid read and kills the process, aborts on a seccomp trap, and
 * does not follow /proc/self/exe. They run natively, under ASan and TSan. */
bool ntsim_check_under_valgrind(void);
/* The facts of docs/spec_facts.md and the decisions of docs/decisions.md
 * (--facts, --decisions), loaded by main; cited[] counted from the vectors. */
extern ntsim_facts_t ntsim_check_facts;
extern const char *ntsim_check_decisions_path;
/* The source tree's conformance/cli/exported_symbols.txt: what libntsim.so
 * exports. */
extern const char *ntsim_check_exported_symbols_path;
/* The reason a vector is listed as an expected failure, or NULL. */
const char *ntsim_check_xfail_reason(const char *id);
/* A log sink that drops every message: for the tests whose runs log on
 * purpose (faults, hostile input) and that count instead of reading stderr. */
void ntsim_check_quiet_log(ntsim_log_level_t level, const char *message, void *ctx);
/* Directory of the loader's broken-vector test data (--testdata; the
 * source tree's conformance/testdata). */
extern const char *ntsim_check_testdata_dir;
/* ntsim_check_ntff_proto: kinds.h. */

/* check_runner.c. ntsim_check_start parses the options and loads the
 * vectors: -1 to go on, or the exit status (0 after --help, 1 out of memory,
 * 2 bad usage). ntsim_check_report prints the failures, the per-kind counts and
 * the summary line, and returns the exit status. ntsim_check_finish frees what
 * start loaded. */
int ntsim_check_start(int argc, char **argv);
int ntsim_check_report(SRunner *sr);
void ntsim_check_finish(void);
/* Sets up the runner for the options (no fork with a testee process). */
void ntsim_check_configure(SRunner *sr);
/* The command that replays one vector alone: `ntsim replay FILE --id ID`,
 * or with a testee, `check_ntsim --testee 'CMD' --id ID`, every word whole
 * and quoted as needed; malloc'd (the caller frees), NULL when out of memory. */
char *ntsim_check_repro(const ntsim_vector_t *v);
/* check_runner.c, for the summary: the facts' load errors (each printed as
 * a FAIL line; returns how many). */
unsigned long ntsim_check_print_fact_errors(void);
/* check_xfail.c: the expected failures. _load reads the list (0, or -1
 * with the reason printed; a list not required may be absent), _match
 * marks the ids the loaded vectors have; for the summary, the listed ids no
 * vector has and the lines without a reason (each printed as a FAIL line;
 * returns how many), and the list's file name; _free. */
int ntsim_check_xfail_load(const char *path, bool required);
void ntsim_check_xfail_match(const ntsim_vector_set_t *set);
unsigned long ntsim_check_print_stale_xfails(void);
const char *ntsim_check_xfail_list_name(void);
void ntsim_check_xfail_free(void);

/* check_generate.c: --generate and its options (conformance/generate/gen.h).
 * ntsim_check_generate_option takes one of them (getopt's code c: G E C W M
 * H P): -1 to go on, else the exit status. The run replaces the suites. */
bool ntsim_check_generating(void);
int ntsim_check_generate_option(int c, const char *arg, const char *argv0);
void ntsim_check_generate_usage(FILE *out);
/* The facts were loaded before the testee started (NULL when they could
 * not be: facts_error says why, and sources are not checked). */
int ntsim_check_generate_run(const char *argv0, const char *kinds, const char *testee_command,
                             const char *vectors_dir, const ntsim_facts_t *facts,
                             const char *facts_error);

/* check_summary.c: the tallies the Check results do not hold (a vector the
 * testee cannot judge, checks it left out), and the summary itself: every
 * failure, the per-kind lines, the summary line; returns how many failed
 * (errors more were found before it). */
void ntsim_check_count_skipped(const ntsim_vector_t *v, const char *reason);
/* The kind whose vectors a TCase of this name runs ("json", "json:xfail"),
 * or NULL (a unit test's TCase). */
const ntsim_vector_kind_t *ntsim_check_tcase_kind(const char *tc);
void ntsim_check_count_unjudged(const ntsim_vector_t *v, unsigned caps);
unsigned long ntsim_check_print_summary(SRunner *sr, size_t skipped, unsigned long errors);

/* check_junit.c: --junit FILE (D-JUNIT). _set takes the path (before the
 * run); _check refuses it when it is one of the inputs or cannot be written
 * (-1 to go on, or 2, the reason printed); _skip keeps why a loaded vector
 * was not run; _failure adds a failure the summary counts outside Check's
 * results (a load error, a stale expected failure...); _case adds a
 * generated case (result: 0 passed, 1 failed, 2 skipped, 3 error, with
 * its text); _write writes the file at the end (0, or 1 with the reason
 * printed); _free releases what they kept. */
void ntsim_check_junit_set(const char *path);
bool ntsim_check_junit_wanted(void);
int ntsim_check_junit_check(const char *argv0, const char *xfail_path);
void ntsim_check_junit_skip(const ntsim_vector_t *v, const char *reason);
void ntsim_check_junit_failure(const char *classname, const char *name, const char *block);
void ntsim_check_junit_case(const char *kind, const char *id, int result, const char *text);
int ntsim_check_junit_write(SRunner *sr, const char *argv0, const char *testee, const char *seed);
void ntsim_check_junit_free(void);

/* The suites, one per test file (conformance/unit/ mirrors the source tree);
 * check_main.c lists them in their usual order. A suite's name is its
 * file's (check_<name>.c: --list-suites and testee_check.sh rely on it). No
 * test case may be named after a vector kind (json, ntff, notify, ...):
 * check_summary.c counts such a case's tests as that kind's vectors, which
 * is why the converters' cases are json_api, notify_api and ntff_api. */
Suite *make_vectors_suite(void);     /* runner/check_vectors.c: one test per vector */
/* unit/engine/: what the stages share, and the API as a whole. */
Suite *make_event_table_suite(void); /* check_event_table.c: the one table's views */
Suite *make_services_suite(void);    /* check_services.c: log sink, allocator, name blocks */
Suite *make_output_suite(void);      /* check_output.c: files renamed into place, inputs refused */
Suite *make_intern_suite(void);      /* check_intern.c: interned ids, SipHash-1-3 */
Suite *make_input_suite(void);       /* check_input.c: inputs' limits, streams, escapes */
Suite *make_abuse_suite(void);       /* check_abuse.c: NULL everywhere, calls from hooks */
/* check_abuse_hooks.c: the abuse case's calls from inside the engine's hooks. */
void ntsim_check_add_abuse_hooks(TCase *tc);
/* unit/engine/capture/: the ring by protocol step, the capture API, threads. */
Suite *make_ring_suite(void);        /* check_ring.c: storage, counters, the consistency check */
Suite *make_ring_push_suite(void);   /* check_ring_push.c: a push's P1, P2, P4 */
Suite *make_ring_pop_suite(void);    /* check_ring_pop.c: the walk and the copy, C1-C3, C5 */
Suite *make_ring_evict_suite(void);  /* check_ring_evict.c: the eviction rule, P3 and C4 */
Suite *make_ring_owner_suite(void);  /* check_ring_owner.c: ownership, revocation, C2' */
Suite *make_capture_suite(void);     /* check_capture.c: emits, gates, drains, counters */
Suite *make_capture_start_suite(void); /* check_capture_start.c: a session's start */
Suite *make_config_suite(void);      /* check_config.c: config, fetch options, names */
Suite *make_concurrency_suite(void); /* check_concurrency.c: emitters + drainer at once */
/* The concurrency suite's other cases (make tsan runs that suite alone):
 * check_grace.c's tests join its first case; check_concurrency_lifecycle.c
 * (lifecycle calls that meet), check_concurrency_settings.c (the
 * exporters' settings) and check_concurrency_fork.c (a child forked while
 * a thread emits, D-FORK) each add a case of their own. */
void ntsim_check_add_grace_tests(TCase *tc);
void ntsim_check_add_concurrency_lifecycle(Suite *s);
void ntsim_check_add_concurrency_settings(Suite *s);
void ntsim_check_add_concurrency_fork(Suite *s);
/* unit/engine/convert/: one suite per converter. */
Suite *make_json_suite(void);        /* check_json.c: fetch, escaping, gid map, key column */
Suite *make_notify_suite(void);      /* check_notify.c: notifications, EXPLICIT, counts */
Suite *make_ntff_suite(void);        /* check_ntff.c: NTFF written, read back, out of memory */
/* unit/engine/timeline/: the model, each stage and each writer. */
Suite *make_timeline_suite(void);         /* check_timeline.c: the model, pairing, losses */
Suite *make_timeline_flows_suite(void);   /* check_timeline_flows.c: executions and flows */
Suite *make_clock_align_suite(void);      /* check_clock_align.c: device clocks fitted, aligned */
Suite *make_timeline_lanes_suite(void);   /* check_timeline_lanes.c: lanes, nesting, names */
Suite *make_chrome_trace_suite(void);     /* check_chrome_trace.c: the Chrome JSON */
Suite *make_pftrace_suite(void);          /* check_pftrace.c: the .pftrace, bytes and read back */
Suite *make_timeline_html_suite(void);    /* check_timeline_html.c: the HTML page */
Suite *make_timeline_writers_suite(void); /* check_timeline_writers.c: growth, text_put, OOM */
Suite *make_timeline_runs_suite(void);    /* check_timeline_runs.c: whole runs, traces read back */
Suite *make_output_formats_suite(void);   /* check_output_formats.c: the registry and its views */
Suite *make_timeline_devices_suite(void); /* check_timeline_devices.c: a process per device, the map */
/* unit/engine/read/: the files the engine writes, read back. */
Suite *make_read_suite(void);             /* check_read.c: the JSON reader, exact values, limits */
Suite *make_json_reader_suite(void);      /* check_json_reader.c: the JSON reader at its edges */
Suite *make_read_errors_suite(void);      /* check_read_errors.c: each problem where it is */
Suite *make_read_roundtrip_suite(void);   /* check_read_roundtrip.c: written, read back, by content */
/* unit/engine/analyze/: what traces say. */
Suite *make_stats_suite(void);            /* check_stats.c: ntsim stats on a trace worked out by hand */
Suite *make_diff_suite(void);             /* check_diff.c: ntsim diff: matching, fields, formats */
/* unit/sim/ and unit/harness/. */
Suite *make_sim_suite(void);         /* check_sim.c: virtual time, clocks, runs, scenarios */
Suite *make_scenario_keys_suite(void); /* check_scenario_keys.c: the keys' one list, the schema */
Suite *make_rng_suite(void);         /* check_rng.c: one random stream per purpose */
Suite *make_loader_suite(void);      /* check_loader.c: broken files, runner reports */
Suite *make_facts_suite(void);       /* check_facts.c: every fact pinned, every citation real */
Suite *make_log_contract_suite(void); /* check_log_contract.c: what a log check may judge */
Suite *make_inspect_suite(void);     /* check_inspect.c: the inspect variables' names, limits, a run */
Suite *make_testee_suite(void);      /* check_testee.c: the protocol, broken testees, restarts */

#endif /* NTSIM_CONFORMANCE_CHECK_SUITES_H */
