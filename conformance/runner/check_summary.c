/*
 * conformance/runner/check_summary.c: the end of `make check`'s output: every
 * failure block, one line per vector kind, the facts line and the summary
 * line. The options and the selection are check_runner.c's.
 *
 *     layout: 54 passed, 0 failed
 *     ...
 *     scenario: 9 skipped (the harness's own kind)         (with --testee)
 *     api: 31 passed, 0 failed, 8 skipped (needs the testee's fail_allocations)
 *   conformance: 544 passed, 0 failed, 0 skipped
 *
 * A kind line is the same in process and with a testee that answers the
 * kind with every capability, so that the two runs can be compared line by
 * line (conformance/cli/testee_check.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "testee.h"

/* Per kind (by registry index): vectors the selection skipped and why, and
 * vectors judged without a capability's checks. */
enum { MAX_KINDS = 32, CAP_BITS = NTSIM_TESTEE_CAP_COUNT };
static size_t g_skipped[MAX_KINDS];
static char g_skip_reason[MAX_KINDS][128];
static unsigned long g_unjudged[MAX_KINDS][CAP_BITS];

static size_t kind_index(const ntsim_vector_kind_t *kind)
{
    size_t k = 0;
    while (ntsim_vector_kinds[k] != NULL && ntsim_vector_kinds[k] != kind)
        k++;
    return k < MAX_KINDS ? k : MAX_KINDS - 1;
}

void ntsim_check_count_skipped(const ntsim_vector_t *v, const char *reason)
{
    size_t k = kind_index(v->kind);
    if (g_skipped[k]++ == 0)
        snprintf(g_skip_reason[k], sizeof g_skip_reason[k], "%s", reason);
}

void ntsim_check_count_unjudged(const ntsim_vector_t *v, unsigned caps)
{
    size_t k = kind_index(v->kind);
    for (unsigned b = 0; b < CAP_BITS; b++)
        if (caps & (1u << b))
            g_unjudged[k][b]++;
}

static bool is_kind_tcase(const char *tc, const char *kind, bool *xfail)
{
    size_t n = strlen(kind);
    if (strncmp(tc, kind, n) != 0)
        return false;
    if (tc[n] == '\0') {
        *xfail = false;
        return true;
    }
    if (strcmp(tc + n, ":xfail") == 0) {
        *xfail = true;
        return true;
    }
    return false;
}

const ntsim_vector_kind_t *ntsim_check_tcase_kind(const char *tc)
{
    bool x;
    for (const ntsim_vector_kind_t *const *k = ntsim_vector_kinds; *k != NULL; k++)
        if (is_kind_tcase(tc, (*k)->name, &x))
            return *k;
    return NULL;
}

static bool is_vector_tcase(const char *tc)
{
    return ntsim_check_tcase_kind(tc) != NULL;
}

/* "facts: N of M pinned: K by a vector's judged key, J by a named check
 * alone (E more exempt by D-OUT-OF-SCOPE)": a fact counts only when a vector
 * judges it (FACT@key) or a named test or script pins it (facts.h); the
 * facts suite checks that every key and name exists. */
static void print_facts_line(void)
{
    size_t by_vector = 0, by_check = 0, exempt = 0;
    for (size_t i = 0; i < ntsim_check_facts.count; i++) {
        const ntsim_fact_t *f = &ntsim_check_facts.items[i];
        if (f->settled_by != NULL && strcmp(f->settled_by, NTSIM_FACTS_EXEMPT) == 0)
            exempt++;
        else if (f->pinned > 0)
            by_vector++;
        else if (f->check_count > 0)
            by_check++;
    }
    printf("  facts: %zu of %zu pinned: %zu by a vector's judged key, %zu by a named check alone "
           "(%zu more exempt by %s)\n",
           by_vector + by_check, ntsim_check_facts.count - exempt, by_vector, by_check, exempt,
           NTSIM_FACTS_EXEMPT);
}

/* "; 12 without their stats checks (not announced)": what a testee lacking a
 * capability could not be asked. */
static void print_unjudged(size_t k)
{
    for (unsigned b = 0; b < CAP_BITS; b++)
        if (g_unjudged[k][b] > 0)
            printf("; %lu without their %s checks (not announced)", g_unjudged[k][b],
                   ntsim_testee_cap_names[b]);
}

/* One line per kind; adds its counts to *passed and *failed. */
static void print_kinds(TestResult **results, int n, unsigned long *passed,
                        unsigned long *failed)
{
    for (const ntsim_vector_kind_t *const *k = ntsim_vector_kinds; *k != NULL; k++) {
        size_t ki = kind_index(*k);
        unsigned long kp = 0, kf = 0, kx = 0;
        for (int i = 0; i < n; i++) {
            bool xfail;
            if (!is_kind_tcase(tr_tcname(results[i]), (*k)->name, &xfail))
                continue;
            bool ok = tr_rtype(results[i]) == CK_PASS;
            kp += ok && !xfail;
            kx += ok && xfail;
            kf += !ok;
        }
        if (kp + kf + kx == 0 && g_skipped[ki] > 0) {
            printf("  %s: %zu skipped (%s)\n", (*k)->name, g_skipped[ki], g_skip_reason[ki]);
            continue;
        }
        if (kp + kf + kx == 0 && !ntsim_check_whole_run)
            continue;
        printf("  %s: %lu passed, %lu failed", (*k)->name, kp, kf);
        if (kx > 0)
            printf(", %lu failing as listed in %s", kx, ntsim_check_xfail_list_name());
        if (g_skipped[ki] > 0)
            printf(", %zu skipped (%s)", g_skipped[ki], g_skip_reason[ki]);
        print_unjudged(ki);
        printf("\n");
        *passed += kp + kx;
        *failed += kf;
    }
}

unsigned long ntsim_check_print_summary(SRunner *sr, size_t skipped, unsigned long errors)
{
    TestResult **results = srunner_results(sr);
    int n = srunner_ntests_run(sr);
    unsigned long passed = 0, failed = 0;
    printf("\n");
    for (size_t e = 0; e < ntsim_check_vectors.errors.count; e++) {
        char name[32];
        snprintf(name, sizeof name, "error %zu", e + 1);
        printf("FAIL %s\n", ntsim_check_vectors.errors.items[e]);
        ntsim_check_junit_failure("load", name, ntsim_check_vectors.errors.items[e]);
    }
    for (int i = 0; i < n; i++)
        if (tr_rtype(results[i]) != CK_PASS)
            printf("FAIL [%s] %s\n", tr_tcname(results[i]), tr_msg(results[i]));
    errors += ntsim_check_print_stale_xfails();
    print_kinds(results, n, &passed, &failed);
    unsigned long unit_passed = 0, unit_failed = 0;
    for (int i = 0; i < n; i++) {
        if (is_vector_tcase(tr_tcname(results[i])))
            continue;
        if (tr_rtype(results[i]) == CK_PASS)
            unit_passed++;
        else
            unit_failed++;
    }
    if (unit_passed + unit_failed > 0)
        printf("  unit tests: %lu passed, %lu failed\n", unit_passed, unit_failed);
    if (ntsim_check_whole_run && !ntsim_check_run_units)
        printf("  unit suites: not run (they test the source tree, and this runner is installed "
               "without one)\n");
    /* A run that judged nothing proves nothing: a testee that answers none
     * of the selected kinds (or only kinds misspelled in its hello) must not
     * end green. A run of unit suites alone (CK_RUN_SUITE) judged those. */
    if (ntsim_check_vectors.count > 0 && passed + failed + unit_passed + unit_failed == 0) {
        char line[256];
        snprintf(line, sizeof line,
                 "nothing was judged: every vector was skipped or filtered out (%zu skipped)%s",
                 skipped, ntsim_check_testee != NULL ? "; the testee answers none of the selected kinds"
                                                     : "");
        printf("FAIL %s\n", line);
        ntsim_check_junit_failure("runner", "nothing was judged", line);
        errors++;
    }
    if (ntsim_check_vectors.errors.count > 0)
        printf("  load errors: %zu in %zu files read\n", ntsim_check_vectors.errors.count,
               ntsim_check_vectors.errors.files);
    errors += ntsim_check_print_fact_errors();
    if (ntsim_check_whole_run)
        print_facts_line();
    failed += ntsim_check_vectors.errors.count + unit_failed + errors;
    passed += unit_passed;
    printf("conformance: %lu passed, %lu failed, %zu skipped\n", passed, failed, skipped);
    free(results);
    return failed;
}
