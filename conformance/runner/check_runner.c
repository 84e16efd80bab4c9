/*
 * conformance/runner/check_runner.c: everything of the conformance runner
 * (`make check`) but the list of suites (check_main.c) and the summary
 * (check_summary.c): options, loading, the testee, filters and shards (the
 * run's data: check_data.c; the expected failures: check_xfail.c).
 *
 * Loads every vector under the vector directory, runs the Check suites, and
 * prints each failure on its own lines (vector id, file:line, what differs,
 * a repro command), then per-kind counts and, last, the summary:
 *
 *     layout: 54 passed, 0 failed
 *     ...
 *   conformance: 544 passed, 0 failed, 0 skipped
 *
 * The kinds an implementation answers are judged through a testee
 * (testee.h): in process by default, or `--testee 'CMD ARGS'`, a process
 * speaking conformance/testee/testee.proto; then the harness's own kinds, and
 * vectors needing a capability the testee lacks, are skipped, and Check
 * runs without forking so that one testee process serves every vector.
 *
 * Filters (--kind, --file, --id) run a subset; the others count as skipped
 * and the unit suites do not run. --shard K/N runs every N-th selected
 * vector from the K-th (0-based); the unit suites run in shard 0 only. A
 * vector listed as an expected failure ("ID reason", one per line; --xfail
 * FILE, by default ntsim's own list (located: check_data.c) in process and none
 * with a testee) must fail: if it passes, the run fails. A vector file that
 * fails to load counts as one failure per error.
 *
 * Exit status: 0 when everything passed, 1 otherwise, 2 on bad usage.
 * Check's environment applies: CK_FORK=no (valgrind), CK_VERBOSITY,
 * CK_TAP_LOG_FILE_NAME and CK_XML_LOG_FILE_NAME (make check writes both).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "kinds.h"
#include "output.h"
#include "suggest.h"
#include "usage.h"
#include "testee.h"

ntsim_vector_set_t ntsim_check_vectors;
const ntsim_vector_t **ntsim_check_ordered;
size_t ntsim_check_selected;
bool ntsim_check_filtered;
bool ntsim_check_whole_run;
bool ntsim_check_run_units;
ntsim_testee_t *ntsim_check_testee;
const char *ntsim_check_first_suites;
bool ntsim_check_list_suites;
ntsim_facts_t ntsim_check_facts;
static ntsim_errors_t g_facts_errors;
static NRT_STATUS g_facts_status; /* ntsim_facts_load's */

/* --- selection ---------------------------------------------------------------------- */

typedef struct filter {
    const char *kind, *file, *id;
} filter_t;

static bool ends_with_path(const char *path, const char *tail)
{
    size_t n = strlen(path), m = strlen(tail);
    return n >= m && strcmp(path + n - m, tail) == 0 && (n == m || path[n - m - 1] == '/');
}

/* Whether `name` is an item of the comma-separated `list` (--kind a,b). */
static bool listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list;; p++) {
        size_t len = strcspn(p, ",");
        if (len == n && strncmp(p, name, n) == 0)
            return true;
        p += len;
        if (*p == '\0')
            return false;
    }
}

static bool selected(const ntsim_vector_t *v, const filter_t *f)
{
    return (f->kind == NULL || listed(f->kind, v->kind->name)) &&
           (f->file == NULL || ends_with_path(v->file, f->file)) &&
           (f->id == NULL || strcmp(v->id, f->id) == 0);
}

/* The shard (--shard K/N): every N-th selected vector from the K-th. */
static size_t g_shard_k, g_shard_n = 1;
static size_t g_skipped;
static size_t g_matched; /* vectors the filters chose, before the shard and the testee */

/* Whether the testee can judge v; counts it under its kind when not. */
static bool judged(const ntsim_vector_t *v)
{
    char buf[256];
    const char *why = ntsim_vector_skip_reason(v, ntsim_check_testee, buf, sizeof buf);
    if (why != NULL) {
        ntsim_check_count_skipped(v, why);
        ntsim_check_junit_skip(v, why);
    }
    return why == NULL;
}

/* Selected vectors by kind; within a kind, expected passes then listed
 * failures, so that each is one contiguous loop range. */
static const ntsim_vector_t **order(const ntsim_vector_set_t *set, const filter_t *f,
                                    size_t *count)
{
    const ntsim_vector_t **out = calloc(set->count ? set->count : 1, sizeof *out);
    if (out == NULL)
        return NULL;
    size_t n = 0, seen = 0;
    for (const ntsim_vector_kind_t *const *k = ntsim_vector_kinds; *k != NULL; k++)
        for (int listed = 0; listed < 2; listed++)
            for (size_t i = 0; i < set->count; i++) {
                const ntsim_vector_t *v = &set->vectors[i];
                if (v->kind != *k || (ntsim_check_xfail_reason(v->id) != NULL) != listed)
                    continue;
                if (!selected(v, f)) {
                    ntsim_check_junit_skip(v, "filtered out (--kind, --file, --id)");
                    continue;
                }
                size_t shard = seen++ % g_shard_n;
                if (shard != g_shard_k) {
                    char why[96];
                    snprintf(why, sizeof why, "in shard %zu/%zu (this run is shard %zu/%zu)", shard,
                             g_shard_n, g_shard_k, g_shard_n);
                    ntsim_check_junit_skip(v, why);
                } else if (judged(v)) {
                    out[n++] = v;
                }
            }
    *count = n;
    g_matched = seen;
    return out;
}

/* --- the facts ------------------------------------------------------------------------ */

/* Counts, for every fact, the vectors whose source cites it. */
static bool count_citation(const char *id, size_t len, void *ctx)
{
    (void)ctx;
    ntsim_fact_t *f = id[0] == 'D' ? NULL : ntsim_facts_find(&ntsim_check_facts, id, len);
    if (f != NULL)
        f->cited++;
    return true;
}

/* Counts, for every fact, the vectors that pin it by a key they judge. */
static bool count_pin(const char *id, size_t len, const char *key, size_t key_len, void *ctx)
{
    const ntsim_vector_t *v = ctx;
    ntsim_fact_t *f = ntsim_facts_find(&ntsim_check_facts, id, len);
    if (f != NULL && ntsim_vector_judges_key(v, key, key_len) &&
        ntsim_fact_pinnable_at(f, key, key_len))
        f->pinned++;
    return true;
}

static void count_citations(void)
{
    for (size_t i = 0; i < ntsim_check_vectors.count; i++) {
        const ntsim_vector_t *v = &ntsim_check_vectors.vectors[i];
        (void)ntsim_source_each_id(v->source, count_citation, NULL);
        (void)ntsim_source_each_pin(v->source, count_pin, (void *)v);
    }
}

unsigned long ntsim_check_print_fact_errors(void)
{
    for (size_t e = 0; e < g_facts_errors.count; e++) {
        char name[32];
        snprintf(name, sizeof name, "error %zu", e + 1);
        printf("FAIL %s\n", g_facts_errors.items[e]);
        ntsim_check_junit_failure("facts", name, g_facts_errors.items[e]);
    }
    return g_facts_errors.count;
}

static void usage(FILE *out, const char *argv0)
{
    fprintf(out,
            "usage: %s [--vectors DIR] [--kind LIST] [--file FILE] [--id ID] [--shard K/N]\n"
            "       [--testee 'CMD ARGS' [--testee-timeout SECONDS] [--testee-max-timeouts N]\n"
            "       [--testee-max-total-timeouts N]]\n"
            "       [--xfail FILE]\n"
            "       [--testdata DIR] [--proto DIR] [--ntsim PATH] [--first SUITE,...]\n"
            "       [--list-suites] [--list-kinds]\n"
            "       %s [--testee 'CMD ARGS'] --generate N [--seed S] [--case K] [--kind LIST]\n"
            "       [--save-failures DIR] [--max-failures N] [--shrink-steps N] [--progress S]\n"
            "\n"
            "Replays every *.yaml vector under DIR as a Check test and, from a build tree, runs\n"
            "the unit suites. Each failure prints its vector id, file:line, what differs and a\n"
            "command that replays it alone; the last line is\n"
            "'conformance: N passed, N failed, N skipped'. Exit 0 when all pass, 1 otherwise,\n"
            "2 on bad usage or when the harness's own data (below) or protoc is missing.\n"
            "\n"
            "Its data is found from where this program is, never from the working directory:\n"
            "installed as PREFIX/bin/check_ntsim, in PREFIX/share/ntsim; in a build tree, in the\n"
            "source tree above it. The options below read other files instead.\n"
            "\n"
            "  --vectors DIR            vector directory (default: the vectors ntsim ships)\n"
            "  --kind LIST              only vectors of these kinds (comma-separated, see\n"
            "                           below); no unit suites\n"
            "  --file FILE              only vectors from this file (a path or its last parts)\n"
            "  --id ID                  only the vector with this id\n"
            "  --shard K/N              every N-th selected vector from the K-th (0 <= K < N);\n"
            "                           the unit suites run in shard 0 only\n"
            "  --testee 'CMD ARGS'      judge the implementation behind CMD (run by /bin/sh),\n"
            "                           a testee speaking conformance/testee/testee.proto on its stdin\n"
            "                           and stdout (conformance/testee/TESTEE.md), e.g. 'build/ntsim\n"
            "                           testee'; the kinds it does not answer are skipped, and\n"
            "                           no unit suite runs. Without it: the built-in testee, in\n"
            "                           process\n"
            "  --testee-timeout SECONDS the longest a testee may take to answer one request\n"
            "                           (default 10); it is then killed and restarted\n"
            "  --testee-max-timeouts N  give a testee up after N requests in a row time out:\n"
            "                           every later vector fails at once with that reason\n"
            "                           (default 3; 0: never)\n"
            "  --testee-max-total-timeouts N  ... or after N time out in all, hellos included\n"
            "                           (default 10; 0: never): a testee costs at most N\n"
            "                           timeouts over a run, --generate too\n"
            "  --xfail FILE             vectors that must fail, 'ID reason' per line (default:\n"
            "                           ntsim's own list in process, none with --testee: each\n"
            "                           testee has its own list)\n"
            "  --expected-failures FILE the same as --xfail\n"
            "  --testdata DIR           the unit suites' broken-vector test data (default: the\n"
            "                           source tree's conformance/testdata)\n"
            "  --proto DIR              directory of ntff.proto for protoc (default: the NTFF\n"
            "                           schema ntsim ships)\n"
            "  --ntsim PATH             the ntsim command, for repro lines (default: the ntsim\n"
            "                           beside this program)\n"
            "\n",
            argv0, argv0);
    fprintf(out,
            "  --first SUITE,...        run these suites first, the others after them in the\n"
            "                           usual order (make mutants: a mutant of one engine file\n"
            "                           fails soonest in the suites that test that file)\n"
            "  --list-suites            print the suites' names, one per line, and exit\n"
            "  --list-kinds             print the vector kinds, one per line with 'judged' (a\n"
            "                           testee answers it) or 'own' (the harness's), and exit\n"
            "  --facts FILE             the spec's facts (default: the spec_facts.md ntsim ships)\n"
            "  --max-input-bytes N      the largest vector file read (default 16777216)\n"
            "  --decisions FILE         the decisions (default: the decisions.md ntsim ships)\n"
            "  --junit FILE             also write the run as JUnit XML to FILE (one testcase per\n"
            "                           vector, unit test or generated case; written beside FILE\n"
            "                           and renamed into place)\n"
            "  --help                   this text\n"
            "\n"
            "Kinds:");
    /* From the registry, so a new kind cannot be missing here. */
    for (const ntsim_vector_kind_t *const *k = ntsim_vector_kinds; *k != NULL; k++)
        fprintf(out, " %s%s", (*k)->name, (*k)->judge != NULL ? "" : "*");
    fputs("\n(* the harness's own kinds: no testee answers them)\n", out);
    ntsim_check_generate_usage(out);
}

/* The options and what they select; filled by ntsim_check_start. */
static const char *g_argv0 = "check_ntsim";
static const char *g_testee_command;
static unsigned g_testee_timeout_ms = 10000;
static unsigned g_testee_max_timeouts = NTSIM_TESTEE_MAX_TIMEOUTS;
static unsigned g_testee_max_total_timeouts = NTSIM_TESTEE_MAX_TOTAL_TIMEOUTS;

typedef struct options {
    filter_t filter;
    const char *xfail_path;
    bool xfail_given;
} options_t;

/* The decimal number at the start of text, at most max: digits only (no
 * sign, no space), and a number past max, even past 2^64 (strtoull's ERANGE,
 * read as 2^64-1), refused. *end after it. */
static bool parse_number(const char *text, unsigned long long max, unsigned long long *out,
                         char **end)
{
    if (text[0] < '0' || text[0] > '9')
        return false;
    errno = 0;
    unsigned long long v = strtoull(text, end, 10);
    if (errno != 0 || v > max)
        return false;
    *out = v;
    return true;
}

/* A whole option's text as a number in [0, max]. */
static bool parse_count(const char *text, unsigned long long max, unsigned long long *out)
{
    char *end = NULL;
    return parse_number(text, max, out, &end) && *end == '\0';
}

static bool parse_shard(const char *text)
{
    char *end = NULL;
    unsigned long long k, n;
    if (!parse_number(text, SIZE_MAX, &k, &end) || *end != '/')
        return false;
    if (!parse_count(end + 1, SIZE_MAX, &n) || n == 0 || k >= n)
        return false;
    g_shard_k = (size_t)k;
    g_shard_n = (size_t)n;
    return true;
}

static bool parse_seconds(const char *text)
{
    char *end = NULL;
    errno = 0;
    double s = strtod(text, &end);
    if (end == text || *end != '\0' || errno != 0 || !(s > 0) || s > 86400)
        return false;
    g_testee_timeout_ms = (unsigned)(s * 1000 + 0.5) > 0 ? (unsigned)(s * 1000 + 0.5) : 1;
    return true;
}

/* One option; -1 to go on, else the exit status. */
static int parse_option(int c, const char *argv0, options_t *o)
{
    switch (c) {
    case 'v': ntsim_check_vectors_dir = optarg; return -1;
    case 't': ntsim_check_testdata_dir = optarg; return -1;
    case 'p':
        if (ntsim_check_set_proto_dir(optarg))
            return -1;
        fprintf(stderr, "%s: out of memory\n", argv0);
        return 1;
    case 'k': o->filter.kind = optarg; return -1;
    case 'f': o->filter.file = optarg; return -1;
    case 'i': o->filter.id = optarg; return -1;
    case 'x': o->xfail_path = optarg; o->xfail_given = true; return -1;
    case 'n': ntsim_check_ntsim_path = optarg; return -1;
    case 'R': ntsim_check_first_suites = optarg; return -1;
    case 'L': ntsim_check_list_suites = true; return -1;
    case 'K':
        /* From the registry (lib/kind_map.h's order), for the shell checks. */
        for (const ntsim_vector_kind_t *const *k = ntsim_vector_kinds; *k != NULL; k++)
            printf("%s %s\n", (*k)->name, (*k)->judge != NULL ? "judged" : "own");
        return 0;
    case 'F': ntsim_check_facts_path = optarg; return -1;
    case 'D': ntsim_check_decisions_path = optarg; return -1;
    case 'J': ntsim_check_junit_set(optarg); return -1;
    case 'T': g_testee_command = optarg; return -1;
    case 'B': {
        unsigned long long v;
        if (parse_count(optarg, SIZE_MAX, &v)) {
            ntsim_input_set_limit_all((size_t)v);
            return -1;
        }
        fprintf(stderr, "%s: --max-input-bytes: '%s' is not a byte count\n", argv0, optarg);
        return 2;
    }
    case 'S':
        if (parse_shard(optarg))
            return -1;
        fprintf(stderr, "%s: --shard: '%s' is not K/N with 0 <= K < N\n", argv0, optarg);
        return 2;
    case 'U': {
        unsigned long long v;
        if (parse_count(optarg, 1000000, &v)) {
            g_testee_max_timeouts = (unsigned)v;
            return -1;
        }
        fprintf(stderr, "%s: --testee-max-timeouts: '%s' is not a count (0 to 1000000)\n", argv0,
                optarg);
        return 2;
    }
    case 'X': {
        unsigned long long v;
        if (parse_count(optarg, 1000000, &v)) {
            g_testee_max_total_timeouts = (unsigned)v;
            return -1;
        }
        fprintf(stderr, "%s: --testee-max-total-timeouts: '%s' is not a count (0 to 1000000)\n",
                argv0, optarg);
        return 2;
    }
    case 'O':
        if (parse_seconds(optarg))
            return -1;
        fprintf(stderr, "%s: --testee-timeout: '%s' is not a number of seconds\n", argv0,
                optarg);
        return 2;
    case 'G': case 'E': case 'C': case 'W': case 'M': case 'H': case 'P':
        return ntsim_check_generate_option(c, optarg, argv0); /* check_generate.c */
    case 'h': usage(stdout, argv0); return 0;
    default: return ntsim_usage_error(argv0, "unknown option"); /* getopt gave no other */
    }
}

/* The command line into the globals and *o; -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, options_t *o)
{
    static const struct option options[] = {
        {"vectors", required_argument, NULL, 'v'},
        {"testdata", required_argument, NULL, 't'},
        {"proto", required_argument, NULL, 'p'},
        {"kind", required_argument, NULL, 'k'},
        {"file", required_argument, NULL, 'f'},
        {"id", required_argument, NULL, 'i'},
        {"expected-failures", required_argument, NULL, 'x'},
        {"xfail", required_argument, NULL, 'x'},
        {"ntsim", required_argument, NULL, 'n'},
        {"first", required_argument, NULL, 'R'},
        {"list-suites", no_argument, NULL, 'L'},
        {"list-kinds", no_argument, NULL, 'K'},
        {"facts", required_argument, NULL, 'F'},
        {"max-input-bytes", required_argument, NULL, 'B'},
        {"decisions", required_argument, NULL, 'D'},
        {"junit", required_argument, NULL, 'J'},
        {"testee", required_argument, NULL, 'T'},
        {"testee-timeout", required_argument, NULL, 'O'},
        {"testee-max-timeouts", required_argument, NULL, 'U'},
        {"testee-max-total-timeouts", required_argument, NULL, 'X'},
        {"shard", required_argument, NULL, 'S'},
        {"generate", required_argument, NULL, 'G'},
        {"seed", required_argument, NULL, 'E'},
        {"case", required_argument, NULL, 'C'},
        {"save-failures", required_argument, NULL, 'W'},
        {"max-failures", required_argument, NULL, 'M'},
        {"shrink-steps", required_argument, NULL, 'H'},
        {"progress", required_argument, NULL, 'P'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    g_argv0 = argv[0];
    int c, rc;
    /* A usage error is one line and where the help is (D-CLI-USAGE): getopt's
     * own messages are off, and ':' first tells a missing value from an
     * unknown option. */
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":v:t:p:h", options, NULL)) != -1) {
        if (c == '?' || c == ':')
            return ntsim_usage_bad_option(argv[0], c, argv, options);
        if ((rc = parse_option(c, argv[0], o)) >= 0)
            return rc;
    }
    if (optind != argc)
        return ntsim_usage_error(argv[0], "unexpected argument '%s'", argv[optind]);
    /* A list, as --generate's (which checks its own against the kinds it makes). */
    for (const char *p = o->filter.kind; p != NULL && !ntsim_check_generating(); p++) {
        size_t len = strcspn(p, ",");
        bool known = false;
        for (const ntsim_vector_kind_t *const *k = ntsim_vector_kinds; *k != NULL; k++)
            known |= strlen((*k)->name) == len && strncmp((*k)->name, p, len) == 0;
        if (!known) {
            ntsim_suggest_t s;
            ntsim_suggest_init(&s, p, len);
            for (const ntsim_vector_kind_t *const *k = ntsim_vector_kinds; *k != NULL; k++)
                ntsim_suggest_add_z(&s, (*k)->name);
            const char *near = ntsim_suggest_best(&s, NULL);
            fprintf(stderr, "%s: --kind: no kind '%.*s'", argv[0], (int)len, p);
            if (near != NULL)
                fprintf(stderr, " (did you mean %s?)", near);
            fputs("\n", stderr);
            return 2;
        }
        p += len;
        if (*p == '\0')
            break;
    }
    return -1;
}

/* --testee: starts the process and says what it answers; -1 or the exit status. */
static int start_testee(const char *argv0)
{
    if (g_testee_command == NULL)
        return -1;
    char why[512];
    if (ntsim_testee_spawn(g_testee_command, g_testee_timeout_ms, &ntsim_check_testee, why,
                           sizeof why) != NRT_SUCCESS) {
        fprintf(stderr, "%s: the testee '%s' could not be started: %s\n", argv0,
                g_testee_command, why);
        return 1;
    }
    ntsim_testee_set_max_timeouts(ntsim_check_testee, g_testee_max_timeouts);
    ntsim_testee_set_max_total_timeouts(ntsim_check_testee, g_testee_max_total_timeouts);
    char caps[128];
    printf("testee: %s (%s), protocol %d; answers", g_testee_command,
           ntsim_testee_name(ntsim_check_testee), NTSIM_TESTEE_PROTOCOL);
    for (size_t k = 0; ntsim_testee_kind_names[k] != NULL; k++)
        if (ntsim_testee_answers(ntsim_check_testee, ntsim_testee_kind_names[k]))
            printf(" %s", ntsim_testee_kind_names[k]);
    printf("; capabilities: %s\n",
           ntsim_testee_caps_text(ntsim_testee_caps(ntsim_check_testee), caps, sizeof caps));
    if (ntsim_testee_via_shell(ntsim_check_testee))
        printf("testee: not one simple command: /bin/sh runs it and is the process watched; its "
               "exit status stands for the testee's (128+N: a command killed by signal N)\n");
    return -1;
}

/* Every input the run judges by: the vectors, the expected failures'
 * matches, the facts and decisions, the NTFF schema protoc reads. Loaded
 * before any testee process exists (start_testee), and never read again: a
 * testee that rewrites these files while it runs changes nothing of what it
 * is judged by (D-TESTEE-BOUNDS). */
static int load_inputs(const char *argv0, const filter_t *f)
{
    ntsim_vector_set_init(&ntsim_check_vectors);
    ntsim_errors_init(&g_facts_errors);
    if (!ntsim_check_generating()) {
        NRT_STATUS st = ntsim_vector_set_load_dir(&ntsim_check_vectors, ntsim_check_vectors_dir);
        if (st == NRT_RESOURCE) {
            fprintf(stderr, "%s: out of memory loading %s\n", argv0, ntsim_check_vectors_dir);
            return 1;
        }
        int rc = ntsim_check_vectors_unreadable(argv0);
        if (rc >= 0)
            return rc;
        for (size_t e = 0; e < ntsim_check_vectors.errors.count; e++)
            fprintf(stderr, "%s\n", ntsim_check_vectors.errors.items[e]);
        ntsim_check_xfail_match(&ntsim_check_vectors);
    }
    g_facts_status = ntsim_facts_load(&ntsim_check_facts, ntsim_check_facts_path,
                                      ntsim_check_decisions_path, &g_facts_errors);
    if (g_facts_status == NRT_RESOURCE) {
        fprintf(stderr, "%s: out of memory\n", argv0);
        return 1;
    }
    char why[512];
    if (ntsim_ntff_schema_freeze(why, sizeof why) != NRT_SUCCESS) {
        /* The harness's own schema: without it an ntff verdict would blame
         * the testee for what the harness lacks (D-DATA-LOCATE). */
        fprintf(stderr, "%s: %s (the NTFF schema, the harness's own data; --proto DIR reads "
                        "DIR/ntff.proto): nothing was judged\n", argv0, why);
        return 2;
    }
    /* protoc reads the ntff kind's bytes: the harness's tool, needed when
     * an ntff vector or case may run. */
    bool ntff = ntsim_check_generating();
    for (size_t i = 0; i < ntsim_check_vectors.count && !ntff; i++)
        ntff = ntsim_check_vectors.vectors[i].kind == &ntsim_kind_ntff &&
               selected(&ntsim_check_vectors.vectors[i], f);
    if (ntff && ntsim_ntff_protoc_check(why, sizeof why) != NRT_SUCCESS) {
        fprintf(stderr, "%s: %s (protoc reads the ntff vectors' bytes: install it, Debian's "
                        "protobuf-compiler, or leave them out: --kind): nothing was judged\n",
                argv0, why);
        return 2;
    }
    return -1;
}

/* The selection (which needs the testee's hello: what it answers) and the
 * facts' citations. */
static int select_vectors(const char *argv0, const filter_t *f)
{
    ntsim_check_ordered = order(&ntsim_check_vectors, f, &ntsim_check_selected);
    if (ntsim_check_ordered == NULL) {
        fprintf(stderr, "%s: out of memory\n", argv0);
        return 1;
    }
    g_skipped = ntsim_check_vectors.count - ntsim_check_selected;
    count_citations();
    return -1;
}

/* Check's default per-test timeout is 4 s, read when a TCase is made. A test
 * that maps and touches a ring budget of 0.875 GB took longer than that on a
 * loaded 2-vCPU machine (CI beside other builds): a timeout there says
 * nothing about the engine. 60 s, unless CK_DEFAULT_TIMEOUT says otherwise;
 * the TCases that set their own keep theirs. */
#define NTSIM_CHECK_DEFAULT_TIMEOUT "60"

int ntsim_check_start(int argc, char **argv)
{
    if (setenv("CK_DEFAULT_TIMEOUT", NTSIM_CHECK_DEFAULT_TIMEOUT, 0) != 0) {
        fprintf(stderr, "%s: cannot set CK_DEFAULT_TIMEOUT: out of memory\n", argv[0]);
        return 1;
    }
    options_t o = {{NULL, NULL, NULL}, NULL, false};
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0)
        return rc;
    if (ntsim_check_list_suites)
        return -1; /* main lists them: nothing to load */
    bool tree;
    if ((rc = ntsim_check_locate(argv[0], ntsim_check_generating(), g_testee_command == NULL,
                                  o.xfail_given, &tree)) >= 0)
        return rc;
    if (!o.xfail_given)
        o.xfail_path = ntsim_check_xfail_default;
    ntsim_check_filtered = o.filter.kind != NULL || o.filter.file != NULL || o.filter.id != NULL;
    ntsim_check_whole_run = !ntsim_check_filtered && g_testee_command == NULL && g_shard_k == 0;
    ntsim_check_run_units = ntsim_check_whole_run && tree;
    bool no_list = (g_testee_command != NULL && !o.xfail_given) || o.xfail_path == NULL;
    if (!ntsim_check_generating() && !no_list && ntsim_check_xfail_load(o.xfail_path, o.xfail_given) != 0)
        return 2;
    /* Everything judged by is in memory before the testee starts. */
    if ((rc = load_inputs(argv[0], &o.filter)) >= 0 || (rc = ntsim_check_junit_check(argv[0], o.xfail_path)) >= 0 ||
        (rc = start_testee(argv[0])) >= 0) {
        ntsim_check_finish();
        return rc;
    }
    if (ntsim_check_generating()) { /* --generate: cases instead of the suites */
        rc = ntsim_check_generate_run(argv[0], o.filter.kind, g_testee_command,
                                      ntsim_check_vectors_given ? ntsim_check_vectors_dir : NULL,
                                      g_facts_status == NRT_SUCCESS ? &ntsim_check_facts : NULL,
                                      g_facts_errors.count > 0 ? g_facts_errors.items[0]
                                                               : "out of memory");
        ntsim_check_finish();
        return rc;
    }
    if ((rc = select_vectors(argv[0], &o.filter)) >= 0) {
        ntsim_check_finish();
        return rc;
    }
    printf("loaded %zu vectors from %zu files under %s; running %zu", ntsim_check_vectors.count,
           ntsim_check_vectors.errors.files, ntsim_check_vectors_dir, ntsim_check_selected);
    if (g_shard_n > 1)
        printf(" (shard %zu of %zu)", g_shard_k, g_shard_n);
    printf("\n");
    if (ntsim_check_filtered && g_matched == 0)
        fprintf(stderr, "%s: no vector matches the filter\n", argv[0]);
    return -1;
}

void ntsim_check_configure(SRunner *sr)
{
    /* One testee process serves every vector: Check must not fork a copy
     * of the runner (and of the pipes' state) per test. */
    if (ntsim_check_testee != NULL)
        srunner_set_fork_status(sr, CK_NOFORK);
}

char *ntsim_check_repro(const ntsim_vector_t *v)
{
    /* Every word whole and quoted as needed: a long or odd path replays as
     * it ran (D-OUTPUT). */
    bool testee = ntsim_check_testee != NULL;
    char *cmd = ntsim_output_shell_word(testee ? g_argv0 : ntsim_check_ntsim_path, false);
    char *arg = testee ? ntsim_output_shell_word(ntsim_testee_command(ntsim_check_testee), true)
                       : ntsim_output_shell_word(v->file, false);
    bool dir = testee && ntsim_check_vectors_given;
    char *vectors = ntsim_output_shell_word(dir ? ntsim_check_vectors_dir : "", false);
    char *id = ntsim_output_shell_word(v->id, false);
    char *out = NULL;
    if (cmd != NULL && arg != NULL && vectors != NULL && id != NULL) {
        size_t n = strlen(cmd) + strlen(arg) + strlen(vectors) + strlen(id) + 64;
        if ((out = malloc(n)) != NULL)
            snprintf(out, n, "%s %s%s%s%s --id %s", cmd, testee ? "--testee " : "replay ", arg,
                     dir ? " --vectors " : "", dir ? vectors : "", id);
    }
    free(cmd);
    free(arg);
    free(vectors);
    free(id);
    return out;
}

int ntsim_check_report(SRunner *sr)
{
    /* A testee must end well too: one under valgrind --error-exitcode says
     * so with its exit status. */
    char why[512];
    unsigned long errors = 0;
    if (ntsim_check_testee != NULL &&
        ntsim_testee_close(ntsim_check_testee, why, sizeof why) != NRT_SUCCESS) {
        char line[1024];
        snprintf(line, sizeof line, "the testee '%s' %s at the end of the run",
                 ntsim_testee_command(ntsim_check_testee), why);
        printf("FAIL %s\n", line);
        ntsim_check_junit_failure("testee", "the end of the run", line);
        errors++;
    }
    unsigned long failed = ntsim_check_print_summary(sr, g_skipped, errors);
    bool nothing = ntsim_check_filtered && g_matched == 0;
    int rc = failed == 0 && !nothing ? 0 : 1;
    if (ntsim_check_junit_write(sr, g_argv0, g_testee_command, NULL) != 0)
        rc = 1; /* a report that was not written fails the run (D-OUTPUT) */
    return rc;
}

void ntsim_check_finish(void)
{
    ntsim_ntff_decode_forget();
    ntsim_testee_free(ntsim_check_testee);
    ntsim_check_testee = NULL;
    ntsim_facts_free(&ntsim_check_facts);
    ntsim_errors_free(&g_facts_errors);
    free(ntsim_check_ordered);
    ntsim_check_ordered = NULL;
    ntsim_vector_set_free(&ntsim_check_vectors);
    ntsim_check_xfail_free();
    ntsim_check_junit_free();
    ntsim_check_data_free();
}

void ntsim_check_quiet_log(ntsim_log_level_t level, const char *message, void *ctx)
{
    (void)level;
    (void)message;
    (void)ctx;
}

bool ntsim_check_under_valgrind(void)
{
    /* valgrind preloads its vgpreload_*.so into the program it runs. */
    const char *pre = getenv("LD_PRELOAD");
    return pre != NULL && strstr(pre, "vgpreload") != NULL;
}
