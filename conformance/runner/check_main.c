/*
 * conformance/runner/check_main.c: `make check`'s test program. It only lists the
 * suites; options, loading, filters, expected failures and the summary are
 * check_runner.c's. A filtered run (--kind, --file, --id), a shard other than
 * the first and a run through a testee process run the vectors they select
 * and no unit suite.
 */
#include <stdio.h>
#include <string.h>

#include "check_suites.h"
#include "output.h"

/* Every suite, in the usual order; `name` is the one suite_create gives it
 * (CK_RUN_SUITE and --first use it). Only "vectors" runs without the unit
 * suites. */
static const struct {
    const char *name;
    Suite *(*make)(void);
} suites[] = {
    {"vectors", make_vectors_suite},
    {"loader", make_loader_suite},
    {"event_table", make_event_table_suite},
    {"ring", make_ring_suite},
    {"ring_push", make_ring_push_suite},
    {"ring_pop", make_ring_pop_suite},
    {"ring_evict", make_ring_evict_suite},
    {"ring_owner", make_ring_owner_suite},
    {"capture", make_capture_suite},
    {"capture_start", make_capture_start_suite},
    {"config", make_config_suite},
    {"services", make_services_suite},
    {"output", make_output_suite},
    {"concurrency", make_concurrency_suite},
    {"json", make_json_suite},
    {"notify", make_notify_suite},
    {"ntff", make_ntff_suite},
    {"intern", make_intern_suite},
    {"input", make_input_suite},
    {"sim", make_sim_suite},
    {"scenario_keys", make_scenario_keys_suite},
    {"rng", make_rng_suite},
    {"abuse", make_abuse_suite},
    {"facts", make_facts_suite},
    {"log_contract", make_log_contract_suite},
    {"inspect_env", make_inspect_suite},
    {"testee", make_testee_suite},
    {"timeline", make_timeline_suite},
    {"timeline_flows", make_timeline_flows_suite},
    {"clock_align", make_clock_align_suite},
    {"timeline_lanes", make_timeline_lanes_suite},
    {"chrome_trace", make_chrome_trace_suite},
    {"pftrace", make_pftrace_suite},
    {"timeline_html", make_timeline_html_suite},
    {"timeline_writers", make_timeline_writers_suite},
    {"timeline_runs", make_timeline_runs_suite},
    {"output_formats", make_output_formats_suite},
    {"timeline_devices", make_timeline_devices_suite},
    {"read", make_read_suite},
    {"json_reader", make_json_reader_suite},
    {"read_errors", make_read_errors_suite},
    {"read_roundtrip", make_read_roundtrip_suite},
    {"stats", make_stats_suite},
    {"diff", make_diff_suite},
};
enum { SUITE_COUNT = sizeof suites / sizeof suites[0] };

bool ntsim_check_has_suite(const char *name)
{
    for (size_t i = 0; i < SUITE_COUNT; i++)
        if (strcmp(suites[i].name, name) == 0)
            return true;
    return false;
}

/* rank[i] = the place of suite i in --first (comma-separated names; a name
 * given twice keeps its first place); false, with a message, on an unknown
 * name. */
static bool parse_first(const char *list, int rank[SUITE_COUNT])
{
    int next = 0;
    for (const char *at = list; *at != '\0';) {
        size_t len = strcspn(at, ",");
        size_t i = 0;
        while (i < SUITE_COUNT &&
               (strlen(suites[i].name) != len || strncmp(suites[i].name, at, len) != 0))
            i++;
        if (i == SUITE_COUNT) {
            fprintf(stderr, "check_ntsim: --first: no suite '%.*s' (the suites:", (int)len, at);
            for (size_t k = 0; k < SUITE_COUNT; k++)
                fprintf(stderr, " %s", suites[k].name);
            fputs(")\n", stderr);
            return false;
        }
        if (rank[i] < 0)
            rank[i] = next++;
        at += len + (at[len] == ',');
    }
    return true;
}

static int run(int argc, char **argv)
{
    int rc = ntsim_check_start(argc, argv);
    if (rc >= 0)
        return rc;
    if (ntsim_check_list_suites) {
        for (size_t i = 0; i < SUITE_COUNT; i++)
            printf("%s\n", suites[i].name);
        ntsim_check_finish();
        return 0;
    }
    int rank[SUITE_COUNT];
    for (size_t i = 0; i < SUITE_COUNT; i++)
        rank[i] = -1;
    if (ntsim_check_first_suites != NULL && !parse_first(ntsim_check_first_suites, rank)) {
        ntsim_check_finish();
        return 2;
    }
    /* The suites of --first in its order, then the others in the usual one. */
    size_t order[SUITE_COUNT], n = 0;
    for (int r = 0; r < SUITE_COUNT; r++)
        for (size_t i = 0; i < SUITE_COUNT; i++)
            if (rank[i] == r)
                order[n++] = i;
    for (size_t i = 0; i < SUITE_COUNT; i++)
        if (rank[i] < 0)
            order[n++] = i;
    SRunner *sr = srunner_create(NULL);
    ntsim_check_configure(sr);
    for (size_t k = 0; k < n; k++)
        if (ntsim_check_run_units || strcmp(suites[order[k]].name, "vectors") == 0)
            srunner_add_suite(sr, suites[order[k]].make());
    srunner_run_all(sr, CK_ENV);
    rc = ntsim_check_report(sr);
    srunner_free(sr);
    ntsim_check_finish();
    return rc;
}

int main(int argc, char **argv)
{
    /* A signal removes the --save-failures files being written (D-OUTPUT). */
    ntsim_output_catch_signals();
    int rc = run(argc, argv);
    /* The report is the run's result: one that did not reach stdout (a full
     * disk, /dev/full) fails the run (D-OUTPUT). */
    return ntsim_output_stdout_close("check_ntsim") != NRT_SUCCESS && rc == 0 ? 1 : rc;
}
