/*
 * conformance/runner/check_generate.c: the runner's generative mode
 * (`check_ntsim --generate N`, conformance/generate/gen.h): its options, and
 * the run in place of the Check suites. check_runner.c parses the options
 * it shares (--testee, --testee-timeout, --kind) and hands the rest here.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check_suites.h"
#include "gen.h"
#include "testee.h"
#include "testee_engine.h"

static ntsim_gen_options_t g_gen = {
    .only_case = -1, .max_failures = 3, .shrink_steps = 500, .progress_seconds = 1.0};
static bool g_generating, g_seed_given;

bool ntsim_check_generating(void)
{
    return g_generating;
}

/* Decimal, or hex after 0x (never octal: a seed of 010 is ten). */
static bool parse_u64(const char *text, uint64_t *out)
{
    char *end = NULL;
    if (text[0] < '0' || text[0] > '9')
        return false;
    bool hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    if (hex && !((text[2] >= '0' && text[2] <= '9') || (text[2] >= 'a' && text[2] <= 'f') ||
                 (text[2] >= 'A' && text[2] <= 'F')))
        return false;
    errno = 0;
    unsigned long long v = strtoull(hex ? text + 2 : text, &end, hex ? 16 : 10);
    if (errno == ERANGE)
        return false;
    if (*end != '\0')
        return false;
    *out = v;
    return true;
}

int ntsim_check_generate_option(int c, const char *arg, const char *argv0)
{
    uint64_t v = 0;
    const char *name = c == 'G' ? "--generate" : c == 'E' ? "--seed" : c == 'C' ? "--case"
                     : c == 'M' ? "--max-failures" : c == 'H' ? "--shrink-steps" : "--progress";
    switch (c) {
    case 'W':
        g_gen.save_dir = arg;
        return -1;
    case 'P': {
        char *end = NULL;
        errno = 0;
        double s = strtod(arg, &end);
        if (end == arg || *end != '\0' || errno != 0 || !(s >= 0) || s > 3600)
            break;
        g_gen.progress_seconds = s;
        return -1;
    }
    default:
        if (!parse_u64(arg, &v))
            break;
        if (c == 'G' && v > 0) {
            g_gen.cases = v;
            g_generating = true;
            return -1;
        }
        if (c == 'E') {
            g_gen.seed = v;
            g_seed_given = true;
            return -1;
        }
        if (c == 'C' && v < INT64_MAX) {
            g_gen.only_case = (int64_t)v;
            g_generating = true;
            return -1;
        }
        if (c == 'M') {
            g_gen.max_failures = v;
            return -1;
        }
        if (c == 'H') {
            g_gen.shrink_steps = v;
            return -1;
        }
        break;
    }
    fprintf(stderr, "%s: %s: '%s' is not %s\n", argv0, name, arg,
            c == 'P' ? "a number of seconds" : c == 'G' ? "a positive count" : "a count");
    return 2;
}

void ntsim_check_generate_usage(FILE *out)
{
    fprintf(out,
            "\n"
            "Generative conformance (docs/generative.md): random cases of the judged kinds,\n"
            "their expected values the built-in reference's, judged against the testee by the\n"
            "kinds' own judges; a failing case is shrunk and printed with a repro line.\n"
            "  --generate N             make and judge N cases instead of the vectors\n"
            "  --seed S                 the run's seed (default: from the clock; always printed)\n"
            "  --case K                 only case K of the run of --seed (its repro line)\n"
            "  --kind LIST              the kinds to generate, comma-separated (default: %s)\n"
            "  --save-failures DIR      write each shrunk failure as a vector file in DIR\n"
            "  --max-failures N         stop after N failing cases (default 3; 0: never)\n"
            "  --shrink-steps N         the most candidates one shrink tries (default 500)\n"
            "  --progress SECONDS       a progress line on stderr this often (default 1; 0: none)\n",
            ntsim_gen_kind_list());
}

int ntsim_check_generate_run(const char *argv0, const char *kinds, const char *testee_command,
                             const char *vectors_dir, const ntsim_facts_t *facts,
                             const char *facts_error)
{
    char why[256];
    g_gen.kinds = 0;
    g_gen.kind_list = kinds;
    if (kinds != NULL && !ntsim_gen_parse_kinds(kinds, &g_gen.kinds, why, sizeof why)) {
        fprintf(stderr, "%s: --kind: %s\n", argv0, why);
        return 2;
    }
    if (!g_seed_given)
        g_gen.seed = ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid();
    if (g_gen.cases == 0)
        g_gen.cases = g_gen.only_case >= 0 ? (uint64_t)g_gen.only_case + 1 : 1;
    g_gen.argv0 = argv0;
    g_gen.testee_command = testee_command;
    g_gen.vectors_note = vectors_dir != NULL ? vectors_dir : ""; /* given: the repro says it */
    if (facts == NULL)
        fprintf(stderr, "%s: the facts could not be read (%s): sources are not checked\n", argv0,
                facts_error);
    ntsim_testee_t *t = ntsim_check_testee != NULL ? ntsim_check_testee : ntsim_testee_builtin();
    g_gen.on_case = ntsim_check_junit_wanted() ? ntsim_check_junit_case : NULL;
    int rc = ntsim_generate(&g_gen, t, facts);
    char end[512];
    if (ntsim_check_testee != NULL &&
        ntsim_testee_close(ntsim_check_testee, end, sizeof end) != NRT_SUCCESS) {
        printf("FAIL the testee '%s' %s at the end of the run\n", testee_command, end);
        rc = 1;
    }
    char seed[32];
    snprintf(seed, sizeof seed, "%" PRIu64, g_gen.seed);
    if (ntsim_check_junit_write(NULL, argv0, testee_command, seed) != 0)
        rc = 1; /* a report that was not written fails the run (D-OUTPUT) */
    return rc;
}
