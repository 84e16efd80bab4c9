/*
 * conformance/runner/check_junit.c: --junit FILE, the run as JUnit XML for a
 * CI's dashboard (D-JUNIT), written beside FILE and renamed into place
 * (output.h): a failed or interrupted run leaves the old report whole.
 *
 *   <testsuites name="check_ntsim" tests= failures= errors= skipped= time=>
 *     <testsuite name="conformance" (the same counts) timestamp= hostname=>
 *       <properties> the testee, the vectors' directory, the seed </properties>
 *       <testcase classname="KIND" name="ID" file= line=/>          passed
 *       <testcase ...><failure message="BLOCK" type="mismatch">BLOCK</failure>
 *       <testcase ...><skipped message="REASON"/>
 *
 * One testcase per loaded vector (classname its kind, name its id), the
 * failure block the summary prints as a failure's message, a skipped
 * vector's reason (filtered out, another shard, a kind or capability the
 * testee lacks); one per unit test (classname "unit", name "TCASE #k"), and
 * one per failure the summary counts outside Check (classname "load",
 * "xfail", "facts", "runner", "testee"). So tests, failures and skipped are
 * the summary line's passed + failed + skipped, failed and skipped.
 * Under --generate: one per case (classname its kind, name its id); a case
 * the reference could not express, or a generator error, is an <error>, so
 * that failures, errors and skipped are the generate line's failed,
 * discarded + errors and skipped.
 *
 * Text is XML 1.0: markup escaped, a control character or a byte that is not
 * UTF-8 written as \xNN (a testee's bytes reach failure blocks).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check_suites.h"
#include "output.h"

typedef enum { OUT_PASSED, OUT_FAILED, OUT_SKIPPED, OUT_ERROR } outcome_t;

typedef struct junit_case {
    const char *classname, *name, *text; /* text: the failure block, the reason, or NULL */
    const char *file;              /* the vector's file, or NULL */
    unsigned line;
    outcome_t outcome;
} junit_case_t;

static const char *g_path;        /* --junit FILE, or NULL */
static char **g_skip;             /* per loaded vector: why it was skipped (malloc'd) */
static size_t g_skip_count;
static junit_case_t *g_extra;     /* failures outside Check's results, and generated cases */
static size_t g_extra_count, g_extra_cap;
static double g_start;
static bool g_oom;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void ntsim_check_junit_set(const char *path)
{
    g_path = path;
    g_start = now();
}

bool ntsim_check_junit_wanted(void)
{
    return g_path != NULL;
}

/* The folder FILE goes in must be there and writable before the run,
 * not found missing only once the run has ended: NRT_INVALID with
 * "FILE: cannot write: FOLDER: REASON". */
static NRT_STATUS folder_writable(const char *path, char *why, size_t cap)
{
    const char *slash = strrchr(path, '/');
    size_t len = slash == NULL ? 1 : slash == path ? 1 : (size_t)(slash - path);
    char *dir = malloc(len + 1);
    if (dir == NULL) {
        snprintf(why, cap, "out of memory");
        return NRT_RESOURCE;
    }
    memcpy(dir, slash == NULL ? "." : path, len);
    dir[len] = '\0';
    NRT_STATUS st = NRT_SUCCESS;
    if (access(dir, W_OK | X_OK) != 0) {
        snprintf(why, cap, "%s: cannot write: %s: %s", path, dir, strerror(errno));
        st = NRT_INVALID;
    }
    free(dir);
    return st;
}

/* Refused before the run when FILE is one of the run's inputs (the vector
 * files, the facts, the decisions, the expected failures, the NTFF schema)
 * or cannot be written. */
int ntsim_check_junit_check(const char *argv0, const char *xfail_path)
{
    if (g_path == NULL)
        return -1;
    /* The files the run reads are registered as inputs (by device and
     * inode): --junit naming one of them, by any spelling, is refused. */
    NRT_STATUS st = NRT_SUCCESS;
    const char *fixed[] = {ntsim_check_facts_path, ntsim_check_decisions_path, xfail_path,
                           ntsim_check_ntff_proto};
    for (size_t i = 0; st == NRT_SUCCESS && i < sizeof fixed / sizeof fixed[0]; i++)
        if (fixed[i] != NULL)
            st = ntsim_output_input(fixed[i], "a file the run reads");
    for (size_t i = 0; st == NRT_SUCCESS && i < ntsim_check_vectors.count; i++)
        if (i == 0 || ntsim_check_vectors.vectors[i].file != ntsim_check_vectors.vectors[i - 1].file)
            st = ntsim_output_input(ntsim_check_vectors.vectors[i].file, "a vector file");
    char why[1024];
    if (st == NRT_SUCCESS)
        st = ntsim_output_check(&g_path, 1, why, sizeof why);
    else
        snprintf(why, sizeof why, "out of memory");
    if (st == NRT_SUCCESS)
        st = folder_writable(g_path, why, sizeof why);
    if (st == NRT_SUCCESS)
        return -1;
    fprintf(stderr, "%s: --junit: %s\n", argv0, why);
    return st == NRT_RESOURCE ? 1 : 2;
}

void ntsim_check_junit_skip(const ntsim_vector_t *v, const char *reason)
{
    if (g_path == NULL || g_oom)
        return;
    if (g_skip == NULL && (g_skip = calloc(ntsim_check_vectors.count + 1, sizeof *g_skip)) == NULL) {
        g_oom = true;
        return;
    }
    g_skip_count = ntsim_check_vectors.count;
    size_t i = (size_t)(v - ntsim_check_vectors.vectors);
    if (i < g_skip_count && g_skip[i] == NULL && (g_skip[i] = ntsim_strdup(reason)) == NULL)
        g_oom = true;
}

static void add(const char *classname, const char *name, outcome_t outcome, const char *text)
{
    if (g_path == NULL || g_oom)
        return;
    if (g_extra_count == g_extra_cap) {
        size_t cap = g_extra_cap ? 2 * g_extra_cap : 64;
        junit_case_t *grown = realloc(g_extra, cap * sizeof *grown);
        if (grown == NULL) {
            g_oom = true;
            return;
        }
        g_extra = grown;
        g_extra_cap = cap;
    }
    char *cls = ntsim_strdup(classname), *nm = ntsim_strdup(name);
    char *tx = text != NULL ? ntsim_strdup(text) : NULL;
    if (cls == NULL || nm == NULL || (text != NULL && tx == NULL)) {
        free(cls);
        free(nm);
        free(tx);
        g_oom = true;
        return;
    }
    g_extra[g_extra_count++] = (junit_case_t){cls, nm, tx, NULL, 0, outcome};
}

void ntsim_check_junit_failure(const char *classname, const char *name, const char *block)
{
    add(classname, name, OUT_FAILED, block);
}

void ntsim_check_junit_case(const char *kind, const char *id, int result, const char *text)
{
    add(kind, id, (outcome_t)result, text);
}

/* --- the XML ------------------------------------------------------------------- */

/* The length of the UTF-8 sequence at s (valid, shortest form, no
 * surrogate), or 0. */
static size_t utf8_len(const unsigned char *s)
{
    if (s[0] < 0x80)
        return 1;
    size_t n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
    if (n == 0 || (n == 3 && s[0] > 0xef))
        return 0;
    for (size_t k = 1; k < n; k++)
        if ((s[k] & 0xc0) != 0x80)
            return 0;
    if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
        (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
        return 0;
    return n;
}

/* s as XML text (attr: an attribute's value, where a line break must be a
 * character reference to survive). */
static void put_text(FILE *f, const char *s, bool attr)
{
    for (const unsigned char *p = (const unsigned char *)s; *p != '\0';) {
        size_t n = utf8_len(p);
        if (*p == '&')
            fputs("&amp;", f);
        else if (*p == '<')
            fputs("&lt;", f);
        else if (*p == '>')
            fputs("&gt;", f);
        else if (*p == '"')
            fputs("&quot;", f);
        else if (*p == '\n' || *p == '\t')
            attr ? fprintf(f, "&#%d;", *p) : fputc(*p, f);
        else if (n == 0 || *p < 0x20 || *p == 0x7f)
            fprintf(f, "\\x%02x", *p); /* not XML 1.0, or not UTF-8: shown, not lost */
        else
            fwrite(p, 1, n, f);
        p += n == 0 || *p < 0x80 ? 1 : n;
    }
}

static void put_case(FILE *f, const junit_case_t *c)
{
    fputs("    <testcase classname=\"", f);
    put_text(f, c->classname, true);
    fputs("\" name=\"", f);
    put_text(f, c->name, true);
    fputc('"', f);
    if (c->file != NULL) {
        fputs(" file=\"", f);
        put_text(f, c->file, true);
        fprintf(f, "\" line=\"%u\"", c->line);
    }
    if (c->outcome == OUT_PASSED) {
        fputs("/>\n", f);
        return;
    }
    static const char *const tags[] = {"", "failure", "skipped", "error"};
    static const char *const types[] = {"", "mismatch", "", "error"};
    const char *text = c->text != NULL ? c->text : "";
    fprintf(f, ">\n      <%s message=\"", tags[c->outcome]);
    put_text(f, text, true);
    fputc('"', f);
    if (c->outcome == OUT_SKIPPED) {
        fputs("/>\n    </testcase>\n", f);
        return;
    }
    fprintf(f, " type=\"%s\">", types[c->outcome]);
    put_text(f, text, false);
    fprintf(f, "</%s>\n    </testcase>\n", tags[c->outcome]);
}

/* The cases of this run, in report order: the vectors (Check's results of
 * the kinds' TCases are ntsim_check_ordered's vectors, in order; a vector
 * not selected is skipped), the unit tests, then the extras. n counts
 * them, per outcome. */
static void each_case(TestResult **results, int nresults, FILE *f, size_t n[4])
{
    junit_case_t c;
    int r = 0;
    for (size_t i = 0; i < ntsim_check_vectors.count; i++) {
        const ntsim_vector_t *v = &ntsim_check_vectors.vectors[i];
        c = (junit_case_t){v->kind->name, v->id, NULL, v->file, v->line, OUT_SKIPPED};
        bool chosen = false;
        for (size_t k = 0; k < ntsim_check_selected && !chosen; k++)
            chosen = ntsim_check_ordered[k] == v;
        if (!chosen) {
            c.text = i < g_skip_count && g_skip[i] != NULL ? g_skip[i] : "not selected";
        } else {
            /* The result of the j-th vector test is ntsim_check_ordered[j]. */
            size_t j = 0;
            while (j < ntsim_check_selected && ntsim_check_ordered[j] != v)
                j++;
            int seen = -1;
            for (r = 0; r < nresults; r++)
                if (ntsim_check_tcase_kind(tr_tcname(results[r])) != NULL && ++seen == (int)j)
                    break;
            if (r == nresults) {
                c.outcome = OUT_ERROR;
                c.text = "no result: the test did not run";
            } else {
                c.outcome = tr_rtype(results[r]) == CK_PASS ? OUT_PASSED : OUT_FAILED;
                c.text = c.outcome == OUT_FAILED ? tr_msg(results[r]) : NULL;
            }
        }
        n[c.outcome]++;
        if (f != NULL)
            put_case(f, &c);
    }
    const char *tcase = "";
    unsigned k = 0;
    for (r = 0; r < nresults; r++) {
        const char *tc = tr_tcname(results[r]);
        if (ntsim_check_tcase_kind(tc) != NULL)
            continue;
        k = strcmp(tc, tcase) == 0 ? k + 1 : 1;
        tcase = tc;
        char name[256];
        snprintf(name, sizeof name, "%s #%u", tc, k);
        c = (junit_case_t){"unit", name, NULL, NULL, 0,
                           tr_rtype(results[r]) == CK_PASS ? OUT_PASSED : OUT_FAILED};
        c.text = c.outcome == OUT_FAILED ? tr_msg(results[r]) : NULL;
        n[c.outcome]++;
        if (f != NULL)
            put_case(f, &c);
    }
    for (size_t e = 0; e < g_extra_count; e++) {
        n[g_extra[e].outcome]++;
        if (f != NULL)
            put_case(f, &g_extra[e]);
    }
}

static void put_property(FILE *f, const char *name, const char *value)
{
    if (value == NULL)
        return;
    fprintf(f, "      <property name=\"%s\" value=\"", name);
    put_text(f, value, true);
    fputs("\"/>\n", f);
}

int ntsim_check_junit_write(SRunner *sr, const char *argv0, const char *testee, const char *seed)
{
    if (g_path == NULL)
        return 0;
    TestResult **results = sr != NULL ? srunner_results(sr) : NULL;
    int nresults = sr != NULL ? srunner_ntests_run(sr) : 0;
    size_t n[4] = {0, 0, 0, 0};
    each_case(results, nresults, NULL, n);
    size_t tests = n[0] + n[1] + n[2] + n[3];
    char why[1024], host[256] = "", stamp[32] = "";
    time_t t = (time_t)g_start;
    struct tm tm;
    if (gmtime_r(&t, &tm) != NULL)
        strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
    if (gethostname(host, sizeof host - 1) != 0)
        host[0] = '\0';
    ntsim_output_t *o = NULL;
    NRT_STATUS st = g_oom ? NRT_RESOURCE
                          : ntsim_output_open(&o, g_path, why, sizeof why);
    if (st == NRT_SUCCESS) {
        FILE *f = ntsim_output_file(o);
        char counts[160];
        snprintf(counts, sizeof counts,
                 "tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"%.3f\"",
                 tests, n[OUT_FAILED], n[OUT_ERROR], n[OUT_SKIPPED], now() - g_start);
        fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                   "<testsuites name=\"check_ntsim\" %s>\n"
                   "  <testsuite name=\"conformance\" %s timestamp=\"%s\" hostname=\"",
                counts, counts, stamp);
        put_text(f, host, true);
        fputs("\">\n    <properties>\n", f);
        put_property(f, "testee", testee);
        put_property(f, "vectors", seed == NULL ? ntsim_check_vectors_dir : NULL);
        put_property(f, "seed", seed);
        fputs("    </properties>\n", f);
        size_t again[4] = {0, 0, 0, 0};
        each_case(results, nresults, f, again);
        fputs("  </testsuite>\n</testsuites>\n", f);
        st = ntsim_output_commit(o, why, sizeof why);
    } else if (st == NRT_RESOURCE) {
        snprintf(why, sizeof why, "%s: out of memory", g_path);
    }
    free(results);
    if (st != NRT_SUCCESS) {
        fprintf(stderr, "%s: --junit: %s\n", argv0, why);
        return 1;
    }
    return 0;
}

void ntsim_check_junit_free(void)
{
    for (size_t i = 0; i < g_skip_count; i++)
        free(g_skip[i]);
    free(g_skip);
    for (size_t e = 0; e < g_extra_count; e++) { /* add's copies */
        free((char *)g_extra[e].classname);
        free((char *)g_extra[e].name);
        free((char *)g_extra[e].text);
    }
    free(g_extra);
    g_skip = NULL;
    g_extra = NULL;
    g_skip_count = g_extra_count = g_extra_cap = 0;
    g_oom = false;
}
