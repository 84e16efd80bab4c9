/*
 * conformance/check_main.c: the conformance runner (`make check`).
 *
 * Loads every vector under the vector directory, runs the Check suites, and
 * prints, last, one line per kind and the summary:
 *
 *     layout: 55 passed, 0 failed
 *     ...
 *   conformance: 110 passed, 0 failed
 *
 * A vector file that fails to load counts as one failure per error and is
 * printed as "FAIL file:line:col: field: message". Exit status: 0 when every
 * test passed and every file loaded, 1 otherwise, 2 on bad usage.
 *
 * Check's environment applies as usual: CK_FORK=no (valgrind), CK_VERBOSITY,
 * CK_RUN_SUITE / CK_RUN_CASE, CK_TAP_LOG_FILE_NAME, CK_XML_LOG_FILE_NAME.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "kinds.h"

ntsim_vector_set_t ntsim_check_vectors;
const ntsim_vector_t **ntsim_check_ordered;
const char *ntsim_check_testdata_dir = "conformance/testdata";

static void usage(FILE *out, const char *argv0)
{
    fprintf(out,
            "usage: %s [--vectors DIR] [--testdata DIR] [--proto DIR]\n"
            "\n"
            "Replays every *.yaml vector under DIR (default: vectors) as a Check test and\n"
            "runs the loader and table suites. Prints one line per failure and, last,\n"
            "'conformance: N passed, N failed'. Exit 0 when all pass, 1 otherwise.\n"
            "\n"
            "  --vectors DIR    vector directory (default: vectors)\n"
            "  --testdata DIR   broken-vector test data (default: conformance/testdata)\n"
            "  --proto DIR      directory of ntff.proto for protoc (default: engine)\n"
            "  --help           this text\n",
            argv0);
}

/* Orders vectors by kind (the order of ntsim_vector_kinds), keeping file
 * order within a kind, so each kind is one contiguous loop range. */
static const ntsim_vector_t **order_by_kind(const ntsim_vector_set_t *set)
{
    const ntsim_vector_t **out = calloc(set->count ? set->count : 1, sizeof *out);
    if (out == NULL)
        return NULL;
    size_t n = 0;
    for (const ntsim_vector_kind_t *const *k = ntsim_vector_kinds; *k != NULL; k++)
        for (size_t i = 0; i < set->count; i++)
            if (set->vectors[i].kind == *k)
                out[n++] = &set->vectors[i];
    return out;
}

static bool is_kind_name(const char *name)
{
    for (const ntsim_vector_kind_t *const *k = ntsim_vector_kinds; *k != NULL; k++)
        if (strcmp((*k)->name, name) == 0)
            return true;
    return false;
}

/* Prints the failures and the per-kind and total counts; returns failures. */
static unsigned long print_summary(SRunner *sr)
{
    TestResult **results = srunner_results(sr);
    int n = srunner_ntests_run(sr);
    unsigned long passed = 0, failed = 0;

    printf("\n");
    for (size_t e = 0; e < ntsim_check_vectors.error_count; e++)
        printf("FAIL %s\n", ntsim_check_vectors.errors[e]);
    for (int i = 0; i < n; i++)
        if (tr_rtype(results[i]) != CK_PASS)
            printf("FAIL [%s] %s\n", tr_tcname(results[i]), tr_msg(results[i]));

    for (const ntsim_vector_kind_t *const *k = ntsim_vector_kinds; *k != NULL; k++) {
        unsigned long kp = 0, kf = 0;
        for (int i = 0; i < n; i++) {
            if (strcmp(tr_tcname(results[i]), (*k)->name) != 0)
                continue;
            if (tr_rtype(results[i]) == CK_PASS)
                kp++;
            else
                kf++;
        }
        printf("  %s: %lu passed, %lu failed\n", (*k)->name, kp, kf);
        passed += kp;
        failed += kf;
    }
    unsigned long unit_passed = 0, unit_failed = 0;
    for (int i = 0; i < n; i++) {
        if (is_kind_name(tr_tcname(results[i])))
            continue;
        if (tr_rtype(results[i]) == CK_PASS)
            unit_passed++;
        else
            unit_failed++;
    }
    printf("  unit tests: %lu passed, %lu failed\n", unit_passed, unit_failed);
    if (ntsim_check_vectors.error_count > 0)
        printf("  load errors: %zu in %zu files read\n", ntsim_check_vectors.error_count,
               ntsim_check_vectors.file_count);
    failed += ntsim_check_vectors.error_count + unit_failed;
    passed += unit_passed;
    printf("conformance: %lu passed, %lu failed\n", passed, failed);
    free(results);
    return failed;
}

int main(int argc, char **argv)
{
    const char *vectors_dir = "vectors";
    static const struct option options[] = {
        {"vectors", required_argument, NULL, 'v'},
        {"testdata", required_argument, NULL, 't'},
        {"proto", required_argument, NULL, 'p'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = getopt_long(argc, argv, "v:t:p:h", options, NULL)) != -1) {
        switch (c) {
        case 'v': vectors_dir = optarg; break;
        case 't': ntsim_check_testdata_dir = optarg; break;
        case 'p': ntsim_check_proto_dir = optarg; break;
        case 'h': usage(stdout, argv[0]); return 0;
        default: usage(stderr, argv[0]); return 2;
        }
    }
    if (optind != argc) {
        fprintf(stderr, "%s: unexpected argument '%s'\n", argv[0], argv[optind]);
        usage(stderr, argv[0]);
        return 2;
    }

    ntsim_vector_set_init(&ntsim_check_vectors);
    NRT_STATUS st = ntsim_vector_set_load_dir(&ntsim_check_vectors, vectors_dir);
    if (st == NRT_RESOURCE) {
        fprintf(stderr, "%s: out of memory loading %s\n", argv[0], vectors_dir);
        ntsim_vector_set_free(&ntsim_check_vectors);
        return 1;
    }
    for (size_t e = 0; e < ntsim_check_vectors.error_count; e++)
        fprintf(stderr, "%s\n", ntsim_check_vectors.errors[e]);
    printf("loaded %zu vectors from %zu files under %s\n", ntsim_check_vectors.count,
           ntsim_check_vectors.file_count, vectors_dir);

    ntsim_check_ordered = order_by_kind(&ntsim_check_vectors);
    if (ntsim_check_ordered == NULL) {
        fprintf(stderr, "%s: out of memory\n", argv[0]);
        ntsim_vector_set_free(&ntsim_check_vectors);
        return 1;
    }

    SRunner *sr = srunner_create(make_vectors_suite());
    srunner_add_suite(sr, make_loader_suite());
    srunner_add_suite(sr, make_event_table_suite());
    srunner_add_suite(sr, make_ring_suite());
    srunner_add_suite(sr, make_capture_suite());
    srunner_add_suite(sr, make_concurrency_suite());
    srunner_add_suite(sr, make_json_suite());
    srunner_add_suite(sr, make_convert_suite());
    srunner_add_suite(sr, make_sim_suite());
    srunner_run_all(sr, CK_ENV);
    unsigned long failed = print_summary(sr);
    srunner_free(sr);

    free(ntsim_check_ordered);
    ntsim_vector_set_free(&ntsim_check_vectors);
    return failed == 0 ? 0 : 1;
}
