/*
 * conformance/check_runner.c: everything of the conformance runner
 * (`make check`) but the list of suites (check_main.c): options, loading,
 * filters, expected failures and the tallies.
 *
 * Loads every vector under the vector directory, runs the Check suites, and
 * prints each failure on its own lines (vector id, file:line, what differs,
 * a repro command), then per-kind counts and, last, the summary:
 *
 *     layout: 54 passed, 0 failed
 *     ...
 *   conformance: 544 passed, 0 failed, 0 skipped
 *
 * Filters (--kind, --file, --id) run a subset; the others count as skipped
 * and the unit suites do not run. A vector listed in expected_failures.txt
 * ("ID reason", one per line) must fail: if it passes, the run fails. A
 * vector file that fails to load counts as one failure per error.
 *
 * Exit status: 0 when everything passed, 1 otherwise, 2 on bad usage.
 * Check's environment applies: CK_FORK=no (valgrind), CK_VERBOSITY,
 * CK_TAP_LOG_FILE_NAME and CK_XML_LOG_FILE_NAME (make check writes both).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "kinds.h"

ntsim_vector_set_t ntsim_check_vectors;
const ntsim_vector_t **ntsim_check_ordered;
size_t ntsim_check_selected;
bool ntsim_check_filtered;
const char *ntsim_check_testdata_dir = "conformance/testdata";
const char *ntsim_check_ntsim_path = "build/ntsim";
ntsim_facts_t ntsim_check_facts;
const char *ntsim_check_decisions_path = "docs/decisions.md";
const char *ntsim_check_exported_symbols_path = "conformance/exported_symbols.txt";
static const char *g_facts_path = "docs/spec_facts.md";
static ntsim_errors_t g_facts_errors;

/* --- expected failures ---------------------------------------------------------- */

typedef struct xfail {
    char *id;
    char *reason;
    unsigned line;
    bool matched;     /* a loaded vector has this id */
} xfail_t;

static xfail_t *g_xfail;
static size_t g_xfail_count;
static const char *g_xfail_path;
static unsigned long g_xfail_errors;

const char *ntsim_check_xfail_reason(const char *id)
{
    for (size_t i = 0; i < g_xfail_count; i++)
        if (strcmp(g_xfail[i].id, id) == 0)
            return g_xfail[i].reason;
    return NULL;
}

/* "ID reason..." per line; '#' starts a comment; blank lines ignored. A
 * line without a reason is an error: every listed failure says why. */
static int load_xfail(const char *path, bool required)
{
    g_xfail_path = path;
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        if (!required)
            return 0;
        fprintf(stderr, "%s: cannot open the expected-failures list\n", path);
        return -1;
    }
    char line[1024];
    unsigned lineno = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash != NULL)
            *hash = '\0';
        char *id = strtok(line, " \t\r\n");
        if (id == NULL)
            continue;
        char *reason = strtok(NULL, "\r\n");
        while (reason != NULL && (*reason == ' ' || *reason == '\t'))
            reason++;
        if (reason == NULL || *reason == '\0') {
            printf("FAIL %s:%u: %s: an expected failure needs a reason after its id\n", path,
                   lineno, id);
            g_xfail_errors++;
            continue;
        }
        xfail_t *n = realloc(g_xfail, (g_xfail_count + 1) * sizeof *n);
        if (n == NULL)
            break;
        g_xfail = n;
        g_xfail[g_xfail_count++] = (xfail_t){ntsim_strdup(id), ntsim_strdup(reason), lineno,
                                             false};
    }
    fclose(f);
    return 0;
}

static void free_xfail(void)
{
    for (size_t i = 0; i < g_xfail_count; i++) {
        free(g_xfail[i].id);
        free(g_xfail[i].reason);
    }
    free(g_xfail);
}

/* --- selection ---------------------------------------------------------------------- */

typedef struct filter {
    const char *kind, *file, *id;
} filter_t;

static bool ends_with_path(const char *path, const char *tail)
{
    size_t n = strlen(path), m = strlen(tail);
    return n >= m && strcmp(path + n - m, tail) == 0 && (n == m || path[n - m - 1] == '/');
}

static bool selected(const ntsim_vector_t *v, const filter_t *f)
{
    return (f->kind == NULL || strcmp(v->kind->name, f->kind) == 0) &&
           (f->file == NULL || ends_with_path(v->file, f->file)) &&
           (f->id == NULL || strcmp(v->id, f->id) == 0);
}

/* Selected vectors by kind; within a kind, expected passes then listed
 * failures, so that each is one contiguous loop range. */
static const ntsim_vector_t **order(const ntsim_vector_set_t *set, const filter_t *f,
                                    size_t *count)
{
    const ntsim_vector_t **out = calloc(set->count ? set->count : 1, sizeof *out);
    if (out == NULL)
        return NULL;
    size_t n = 0;
    for (const ntsim_vector_kind_t *const *k = ntsim_vector_kinds; *k != NULL; k++)
        for (int listed = 0; listed < 2; listed++)
            for (size_t i = 0; i < set->count; i++) {
                const ntsim_vector_t *v = &set->vectors[i];
                if (v->kind == *k && selected(v, f) &&
                    (ntsim_check_xfail_reason(v->id) != NULL) == listed)
                    out[n++] = v;
            }
    *count = n;
    return out;
}

/* --- the summary -------------------------------------------------------------------- */

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

static bool is_vector_tcase(const char *tc)
{
    bool x;
    for (const ntsim_vector_kind_t *const *k = ntsim_vector_kinds; *k != NULL; k++)
        if (is_kind_tcase(tc, (*k)->name, &x))
            return true;
    return false;
}

/* Counts, for every fact, the vectors whose source cites it. */
static bool count_citation(const char *id, size_t len, void *ctx)
{
    (void)ctx;
    ntsim_fact_t *f = id[0] == 'D' ? NULL : ntsim_facts_find(&ntsim_check_facts, id, len);
    if (f != NULL)
        f->cited++;
    return true;
}

static void count_citations(void)
{
    for (size_t i = 0; i < ntsim_check_vectors.count; i++)
        (void)ntsim_source_each_id(ntsim_check_vectors.vectors[i].source, count_citation, NULL);
}

/* "facts: N of M pinned (E exempt by D-OUT-OF-SCOPE)" */
static void print_facts_line(void)
{
    size_t pinned = 0, exempt = 0;
    for (size_t i = 0; i < ntsim_check_facts.count; i++) {
        const ntsim_fact_t *f = &ntsim_check_facts.items[i];
        if (f->settled_by != NULL && strcmp(f->settled_by, NTSIM_FACTS_EXEMPT) == 0)
            exempt++;
        else if (f->cited > 0)
            pinned++;
    }
    printf("  facts: %zu of %zu pinned by a vector (%zu more exempt by %s)\n", pinned,
           ntsim_check_facts.count - exempt, exempt, NTSIM_FACTS_EXEMPT);
}

/* Prints the failures and the counts; returns how many failed. */
static unsigned long print_summary(SRunner *sr, size_t skipped)
{
    TestResult **results = srunner_results(sr);
    int n = srunner_ntests_run(sr);
    unsigned long passed = 0, failed = 0;

    printf("\n");
    for (size_t e = 0; e < ntsim_check_vectors.errors.count; e++)
        printf("FAIL %s\n", ntsim_check_vectors.errors.items[e]);
    for (int i = 0; i < n; i++)
        if (tr_rtype(results[i]) != CK_PASS)
            printf("FAIL [%s] %s\n", tr_tcname(results[i]), tr_msg(results[i]));
    unsigned long stale = 0;
    if (!ntsim_check_filtered)
        for (size_t i = 0; i < g_xfail_count; i++)
            if (!g_xfail[i].matched) {
                printf("FAIL %s:%u: %s: listed as an expected failure, but no vector has this "
                       "id: remove its line\n",
                       g_xfail_path, g_xfail[i].line, g_xfail[i].id);
                stale++;
            }

    for (const ntsim_vector_kind_t *const *k = ntsim_vector_kinds; *k != NULL; k++) {
        unsigned long kp = 0, kf = 0, kx = 0;
        for (int i = 0; i < n; i++) {
            bool xfail;
            if (!is_kind_tcase(tr_tcname(results[i]), (*k)->name, &xfail))
                continue;
            bool ok = tr_rtype(results[i]) == CK_PASS;
            if (xfail && ok)
                kx++;
            else if (ok)
                kp++;
            else
                kf++;
        }
        if (kp + kf + kx == 0 && ntsim_check_filtered)
            continue;
        printf("  %s: %lu passed, %lu failed", (*k)->name, kp, kf);
        if (kx > 0)
            printf(", %lu failing as listed in expected_failures.txt", kx);
        printf("\n");
        passed += kp + kx;
        failed += kf;
    }
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
    if (ntsim_check_vectors.errors.count > 0)
        printf("  load errors: %zu in %zu files read\n", ntsim_check_vectors.errors.count,
               ntsim_check_vectors.errors.files);
    for (size_t e = 0; e < g_facts_errors.count; e++)
        printf("FAIL %s\n", g_facts_errors.items[e]);
    if (!ntsim_check_filtered)
        print_facts_line();
    failed += ntsim_check_vectors.errors.count + g_facts_errors.count + unit_failed + stale +
              g_xfail_errors;
    passed += unit_passed;
    printf("conformance: %lu passed, %lu failed, %zu skipped\n", passed, failed, skipped);
    free(results);
    return failed;
}

static void usage(FILE *out, const char *argv0)
{
    fprintf(out,
            "usage: %s [--vectors DIR] [--kind KIND] [--file FILE] [--id ID]\n"
            "       [--expected-failures FILE] [--testdata DIR] [--proto DIR] [--ntsim PATH]\n"
            "\n"
            "Replays every *.yaml vector under DIR (default: vectors) as a Check test and runs\n"
            "the unit suites. Each failure prints its vector id, file:line, what differs and a\n"
            "command that replays it alone; the last line is\n"
            "'conformance: N passed, N failed, N skipped'. Exit 0 when all pass, 1 otherwise.\n"
            "\n"
            "  --vectors DIR            vector directory (default: vectors)\n"
            "  --kind KIND              only vectors of this kind (see below); no unit suites\n"
            "  --file FILE              only vectors from this file (a path or its last parts)\n"
            "  --id ID                  only the vector with this id\n"
            "  --expected-failures FILE vectors that must fail, 'ID reason' per line\n"
            "                           (default: conformance/expected_failures.txt)\n"
            "  --testdata DIR           broken-vector test data (default: conformance/testdata)\n"
            "  --proto DIR              directory of ntff.proto for protoc (default: engine)\n"
            "  --ntsim PATH             the ntsim command, for repro lines (default: build/ntsim)\n"
            "  --facts FILE             the spec's facts (default: docs/spec_facts.md)\n"
            "  --max-input-bytes N      the largest vector file read (default 16777216)\n"
            "  --decisions FILE         the decisions (default: docs/decisions.md)\n"
            "  --help                   this text\n"
            "\n"
            "Kinds:",
            argv0);
    /* From the registry, so a new kind cannot be missing here. */
    for (const ntsim_vector_kind_t *const *k = ntsim_vector_kinds; *k != NULL; k++)
        fprintf(out, " %s", (*k)->name);
    fputc('\n', out);
}

/* The options and what they select; filled by ntsim_check_start. */
static const char *g_vectors_dir = "vectors";
static size_t g_skipped;

/* The command line into the globals and *f; -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, filter_t *f, const char **xfail_path,
                      bool *xfail_given)
{
    static const struct option options[] = {
        {"vectors", required_argument, NULL, 'v'},
        {"testdata", required_argument, NULL, 't'},
        {"proto", required_argument, NULL, 'p'},
        {"kind", required_argument, NULL, 'k'},
        {"file", required_argument, NULL, 'f'},
        {"id", required_argument, NULL, 'i'},
        {"expected-failures", required_argument, NULL, 'x'},
        {"ntsim", required_argument, NULL, 'n'},
        {"facts", required_argument, NULL, 'F'},
        {"max-input-bytes", required_argument, NULL, 'B'},
        {"decisions", required_argument, NULL, 'D'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = getopt_long(argc, argv, "v:t:p:h", options, NULL)) != -1) {
        switch (c) {
        case 'v': g_vectors_dir = optarg; break;
        case 't': ntsim_check_testdata_dir = optarg; break;
        case 'p': ntsim_check_proto_dir = optarg; break;
        case 'k': f->kind = optarg; break;
        case 'f': f->file = optarg; break;
        case 'i': f->id = optarg; break;
        case 'x': *xfail_path = optarg; *xfail_given = true; break;
        case 'n': ntsim_check_ntsim_path = optarg; break;
        case 'F': g_facts_path = optarg; break;
        case 'B': {
            char *end = NULL;
            unsigned long long v = strtoull(optarg, &end, 10);
            if (*optarg < '0' || *optarg > '9' || *end != '\0' || v > SIZE_MAX) {
                fprintf(stderr, "%s: --max-input-bytes: '%s' is not a byte count\n", argv[0],
                        optarg);
                return 2;
            }
            ntsim_input_set_limit_all((size_t)v);
            break;
        }
        case 'D': ntsim_check_decisions_path = optarg; break;
        case 'h': usage(stdout, argv[0]); return 0;
        default: usage(stderr, argv[0]); return 2;
        }
    }
    if (optind != argc) {
        fprintf(stderr, "%s: unexpected argument '%s'\n", argv[0], argv[optind]);
        usage(stderr, argv[0]);
        return 2;
    }
    if (f->kind != NULL) {
        bool known = false;
        for (const ntsim_vector_kind_t *const *k = ntsim_vector_kinds; *k != NULL; k++)
            known |= strcmp((*k)->name, f->kind) == 0;
        if (!known) {
            fprintf(stderr, "%s: --kind: no kind '%s'\n", argv[0], f->kind);
            return 2;
        }
    }
    return -1;
}

int ntsim_check_start(int argc, char **argv)
{
    const char *xfail_path = "conformance/expected_failures.txt";
    bool xfail_given = false;
    filter_t f = {NULL, NULL, NULL};
    int rc = parse_args(argc, argv, &f, &xfail_path, &xfail_given);
    if (rc >= 0)
        return rc;
    ntsim_check_filtered = f.kind != NULL || f.file != NULL || f.id != NULL;
    if (load_xfail(xfail_path, xfail_given) != 0)
        return 2;

    ntsim_vector_set_init(&ntsim_check_vectors);
    NRT_STATUS st = ntsim_vector_set_load_dir(&ntsim_check_vectors, g_vectors_dir);
    if (st == NRT_RESOURCE) {
        fprintf(stderr, "%s: out of memory loading %s\n", argv[0], g_vectors_dir);
        ntsim_check_finish();
        return 1;
    }
    for (size_t e = 0; e < ntsim_check_vectors.errors.count; e++)
        fprintf(stderr, "%s\n", ntsim_check_vectors.errors.items[e]);
    for (size_t i = 0; i < g_xfail_count; i++)
        for (size_t j = 0; j < ntsim_check_vectors.count && !g_xfail[i].matched; j++)
            g_xfail[i].matched = strcmp(ntsim_check_vectors.vectors[j].id, g_xfail[i].id) == 0;

    ntsim_check_ordered = order(&ntsim_check_vectors, &f, &ntsim_check_selected);
    if (ntsim_check_ordered == NULL) {
        fprintf(stderr, "%s: out of memory\n", argv[0]);
        ntsim_check_finish();
        return 1;
    }
    g_skipped = ntsim_check_vectors.count - ntsim_check_selected;
    ntsim_errors_init(&g_facts_errors);
    if (ntsim_facts_load(&ntsim_check_facts, g_facts_path, ntsim_check_decisions_path,
                         &g_facts_errors) == NRT_RESOURCE) {
        fprintf(stderr, "%s: out of memory\n", argv[0]);
        ntsim_check_finish();
        return 1;
    }
    count_citations();
    printf("loaded %zu vectors from %zu files under %s; running %zu\n",
           ntsim_check_vectors.count, ntsim_check_vectors.errors.files, g_vectors_dir,
           ntsim_check_selected);
    if (ntsim_check_filtered && ntsim_check_selected == 0)
        fprintf(stderr, "%s: no vector matches the filter\n", argv[0]);
    return -1;
}

int ntsim_check_report(SRunner *sr)
{
    unsigned long failed = print_summary(sr, g_skipped);
    bool nothing = ntsim_check_filtered && ntsim_check_selected == 0;
    return failed == 0 && !nothing ? 0 : 1;
}

void ntsim_check_finish(void)
{
    ntsim_facts_free(&ntsim_check_facts);
    ntsim_errors_free(&g_facts_errors);
    free(ntsim_check_ordered);
    ntsim_check_ordered = NULL;
    ntsim_vector_set_free(&ntsim_check_vectors);
    free_xfail();
}
