/*
 * conformance/check_main.c: `make check`'s test program. It only lists the
 * suites; options, loading, filters, expected failures and the summary are
 * check_runner.c's. A filtered run (--kind, --file, --id), a shard other than
 * the first and a run through a testee process run the vectors they select
 * and no unit suite.
 */
#include "check_suites.h"

int main(int argc, char **argv)
{
    int rc = ntsim_check_start(argc, argv);
    if (rc >= 0)
        return rc;
    SRunner *sr = srunner_create(make_vectors_suite());
    ntsim_check_configure(sr);
    if (ntsim_check_run_units) {
        srunner_add_suite(sr, make_loader_suite());
        srunner_add_suite(sr, make_event_table_suite());
        srunner_add_suite(sr, make_ring_suite());
        srunner_add_suite(sr, make_capture_suite());
        srunner_add_suite(sr, make_services_suite());
        srunner_add_suite(sr, make_concurrency_suite());
        srunner_add_suite(sr, make_json_suite());
        srunner_add_suite(sr, make_convert_suite());
        srunner_add_suite(sr, make_sim_suite());
        srunner_add_suite(sr, make_abuse_suite());
        srunner_add_suite(sr, make_facts_suite());
        srunner_add_suite(sr, make_perfetto_suite());
        srunner_add_suite(sr, make_inspect_suite());
        srunner_add_suite(sr, make_testee_suite());
        srunner_add_suite(sr, make_timeline_suite());
    }
    srunner_run_all(sr, CK_ENV);
    rc = ntsim_check_report(sr);
    srunner_free(sr);
    ntsim_check_finish();
    return rc;
}
