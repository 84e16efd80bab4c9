/*
 * conformance/generate/gen_run.c: a generative run (gen.h): the cases in
 * order, progress on stderr, each failure shrunk and printed with its repro
 * line (and saved), and the summary: per kind, the coverage, the seed.
 *
 * Which kind case i is: the kinds in NTSIM_GEN_ROUND order, each `weight` times in
 * a round (record 4, json 3, api 2, notify 2, ntff 1: 12 cases a round), so
 * the mix is the same for every seed and case i of a kind is that kind's
 * j-th, whose anchor (ntsim_gen_anchor) is (type, phase) number j.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api_calls.h"
#include "event_table.h"
#include "gen_int.h"
#include "kinds.h"
#include "output.h"
#include "testee.h"
#include "testee_engine.h"

const ntsim_gen_kind_t *const ntsim_gen_kinds[] = {&ntsim_gen_kind_record, &ntsim_gen_kind_json, &ntsim_gen_kind_ntff,
                                       &ntsim_gen_kind_notify, &ntsim_gen_kind_api, NULL};


const char *ntsim_gen_kind_list(void)
{
    return "record,json,ntff,notify,api";
}

bool ntsim_gen_parse_kinds(const char *list, unsigned *bits, char *why, size_t cap)
{
    *bits = 0;
    for (const char *at = list; *at != '\0';) {
        size_t n = strcspn(at, ",");
        size_t i = 0;
        while (ntsim_gen_kinds[i] != NULL &&
               (strlen(ntsim_gen_kinds[i]->name) != n || strncmp(ntsim_gen_kinds[i]->name, at, n) != 0))
            i++;
        if (ntsim_gen_kinds[i] == NULL) {
            char shown[4 * 32 + 4];
            ntsim_text_escape(at, n, 32, shown);
            snprintf(why, cap, "'%s' is not a generated kind (%s)", shown, ntsim_gen_kind_list());
            return false;
        }
        *bits |= 1u << i;
        at += n + (at[n] == ',');
    }
    if (*bits == 0) {
        snprintf(why, cap, "no kind given (%s)", ntsim_gen_kind_list());
        return false;
    }
    return true;
}

/* --- tallies ----------------------------------------------------------------------- */

typedef struct kind_tally {
    uint64_t cases, passed, failed, skipped, discarded, errors;
    uint64_t unjudged[NTSIM_TESTEE_CAP_COUNT]; /* per capability bit */
    int64_t first_failure;     /* the case index, or -1 */
    uint64_t first_failure_nth; /* 1-based among this kind's cases */
    char skip_reason[160];
} kind_tally_t;

typedef struct run {
    const ntsim_gen_options_t *o;
    ntsim_gen_ctx_t x;
    const ntsim_gen_kind_t *pattern[64];
    size_t plen;
    kind_tally_t tally[NTSIM_GEN_KIND_COUNT];
    ntsim_gen_cov_t cov;
    uint64_t failures;
    double start, last_progress;
} run_t;

static size_t kind_index(const ntsim_gen_kind_t *k)
{
    size_t i = 0;
    while (ntsim_gen_kinds[i] != NULL && ntsim_gen_kinds[i] != k)
        i++;
    return i;
}

/* The enabled kinds interleaved by weight: r j a n t r j a n r j r ... */
static void make_pattern(run_t *u)
{
    unsigned maxw = 0;
    for (size_t i = 0; ntsim_gen_kinds[i] != NULL; i++)
        if (ntsim_gen_kinds[i]->weight > maxw)
            maxw = ntsim_gen_kinds[i]->weight;
    for (unsigned w = 0; w < maxw; w++)
        for (size_t i = 0; ntsim_gen_kinds[i] != NULL; i++)
            if ((u->o->kinds == 0 || (u->o->kinds & (1u << i))) && ntsim_gen_kinds[i]->weight > w)
                u->pattern[u->plen++] = ntsim_gen_kinds[i];
}

/* Case i's kind, and how many cases of that kind come before it. */
static const ntsim_gen_kind_t *kind_of(const run_t *u, uint64_t i, uint64_t *j)
{
    const ntsim_gen_kind_t *k = u->pattern[i % u->plen];
    uint64_t before = 0;
    for (size_t p = 0; p < u->plen; p++)
        before += u->pattern[p] == k;
    *j = (i / u->plen) * before;
    for (size_t p = 0; p < i % u->plen; p++)
        *j += u->pattern[p] == k;
    return k;
}

static void progress(run_t *u, uint64_t done, uint64_t total, bool force)
{
    double now = ntsim_gen_now();
    if (u->o->progress_seconds <= 0 || (!force && now - u->last_progress < u->o->progress_seconds))
        return;
    u->last_progress = now;
    uint64_t failed = 0, skipped = 0;
    for (size_t i = 0; i < NTSIM_GEN_KIND_COUNT; i++) {
        failed += u->tally[i].failed;
        skipped += u->tally[i].skipped;
    }
    fprintf(stderr, "generate: %" PRIu64 "/%" PRIu64 " cases, %" PRIu64 " failed, %" PRIu64
                    " skipped, %.1f s (seed %" PRIu64 ")%s",
            done, total, failed, skipped, now - u->start, u->o->seed,
            isatty(STDERR_FILENO) && !force ? "\r" : "\n");
    fflush(stderr);
}

/* --- a failure -------------------------------------------------------------------- */

static void print_failure(run_t *u, const ntsim_gen_kind_t *k, void *c, uint64_t i, const char *id,
                          const ntsim_gen_outcome_t *o, size_t size0, size_t tries, FILE *out)
{
    const ntsim_gen_options_t *opt = u->o;
    /* The testee's command whole, quoted: the repro line replays what ran. */
    char *testee = opt->testee_command != NULL
                       ? ntsim_output_shell_word(opt->testee_command, true)
                       : NULL;
    /* The first mismatch, to its first line break (kept as \x0a in a report). */
    char first[300];
    const char *text = o->report.text != NULL ? o->report.text : "";
    if (strncmp(text, id, strlen(id)) == 0 && text[strlen(id)] == ':')
        text += strlen(id) + 2; /* the case's own id says nothing in its comment */
    size_t n = strcspn(text, "\n");
    const char *brk = strstr(text, "\\x0a");
    if (brk != NULL && (size_t)(brk - text) < n)
        n = (size_t)(brk - text);
    snprintf(first, sizeof first, "%.*s", (int)(n < 200 ? n : 200), text);
    char comment[600];
    snprintf(comment, sizeof comment, "generated (check_ntsim --generate, seed %" PRIu64
                                      ", case %" PRIu64 ", shrunk from %zu to %zu %s): %s",
             opt->seed, i, size0, k->size(c), k->size_unit, first);
    char *saved = NULL, why_small[64] = "out of memory", name[128];
    snprintf(name, sizeof name, "%s_gen_s%" PRIu64 "_c%" PRIu64, k->name, opt->seed, i);
    /* Room for a reason that names the file twice (its temporary name and its
     * own) whatever the length of DIR: a path past PATH_MAX is refused, and
     * the refusal must still be read whole. */
    size_t why_cap = opt->save_dir != NULL ? 2 * (strlen(opt->save_dir) + sizeof name) + 512 : 0;
    char *why_heap = why_cap > 0 ? calloc(1, why_cap) : NULL;
    char *why = why_heap != NULL ? why_heap : why_small;
    if (why_heap == NULL)
        why_cap = sizeof why_small;
    bool ok = opt->save_dir != NULL &&
              ntsim_gen_save(k, c, id, comment, opt->save_dir, name, &saved, why, why_cap);
    if (opt->quiet) {
        free(why_heap);
        free(saved);
        free(testee);
        return;
    }
    fprintf(out, "FAIL [generate] %s: %s case %" PRIu64 " of seed %" PRIu64 ", shrunk in %zu tries "
           "from %zu to %zu %s: %u mismatch%s\n%s",
           id, k->name, i, opt->seed, tries, size0, k->size(c), k->size_unit,
           o->report.mismatches, o->report.mismatches == 1 ? "" : "es",
           o->report.text != NULL ? o->report.text : "");
    if (o->report.hidden > 0)
        fprintf(out, "(%u more mismatches not shown)\n", o->report.hidden);
    ntsim_gen_text_t t;
    ntsim_gen_text_init(&t);
    ntsim_gen_vector_text(k, c, id, comment, &t);
    if (!ok && !t.oom && t.len <= 6000) {
        fprintf(out, "  the shrunk vector:\n");
        for (const char *l = t.buf; *l != '\0';) {
            size_t len = strcspn(l, "\n");
            fprintf(out, "    %.*s\n", (int)len, l);
            l += len + (l[len] == '\n');
        }
    } else if (!ok) {
        fprintf(out, "  the shrunk vector is %zu bytes: --save-failures DIR writes it\n", t.len);
    }
    ntsim_gen_text_free(&t);
    if (opt->save_dir != NULL && !ok)
        fprintf(out, "  not saved: %s\n", why);
    /* The same mix of kinds as this run's: case i is then the same case. */
    fprintf(out, "  repro: %s%s%s --seed %" PRIu64 " --case %" PRIu64 "%s%s\n", opt->argv0,
           testee != NULL ? " --testee " : "", testee != NULL ? testee : "", opt->seed, i,
           opt->kind_list != NULL ? " --kind " : "", opt->kind_list != NULL ? opt->kind_list : "");
    if (ok) {
        const char *slash = strrchr(saved, '/');
        char *dir = ntsim_output_shell_word(opt->save_dir, false);
        char *file = ntsim_output_shell_word(slash ? slash + 1 : saved, false);
        char *path = ntsim_output_shell_word(saved, false);
        fprintf(out, "  saved: %s\n  replay: %s%s%s --vectors %s --file %s   (or: ntsim replay %s)\n",
               saved, opt->argv0, testee != NULL ? " --testee " : "", testee != NULL ? testee : "",
               dir ? dir : "?", file ? file : "?", path ? path : "?");
        free(dir);
        free(file);
        free(path);
    }
    free(why_heap);
    free(saved);
    free(testee);
    fflush(out);
}

/* A failure's block on stdout and, with --junit, as its testcase's message:
 * the same text. */
static void report_failure(run_t *u, const ntsim_gen_kind_t *k, void *c, uint64_t i,
                           const char *id, const ntsim_gen_outcome_t *o, size_t size0,
                           size_t tries)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = u->o->on_case != NULL ? open_memstream(&text, &len) : NULL;
    print_failure(u, k, c, i, id, o, size0, tries, mem != NULL ? mem : stdout);
    if (mem != NULL && fclose(mem) == 0 && text != NULL) {
        fputs(text, stdout);
        fflush(stdout);
    }
    if (u->o->on_case != NULL)
        u->o->on_case(k->name, id, NTSIM_GEN_CASE_FAILED,
                      text != NULL ? text : "(out of memory keeping the failure's block)");
    free(text);
}

/* --- the run ----------------------------------------------------------------------- */

static void one_case(run_t *u, uint64_t i)
{
    uint64_t j;
    const ntsim_gen_kind_t *k = kind_of(u, i, &j);
    kind_tally_t *t = &u->tally[kind_index(k)];
    ntsim_gen_rng_t rng;
    ntsim_gen_rng_seed(&rng, u->o->seed, i);
    void *c = k->make(&rng, j);
    char id[128];
    snprintf(id, sizeof id, "%s.gen.s%" PRIu64 ".c%" PRIu64, k->name, u->o->seed, i);
    t->cases++;
    if (c == NULL) {
        t->errors++;
        printf("FAIL [generate] %s: out of memory making the case\n", id);
        if (u->o->on_case != NULL)
            u->o->on_case(k->name, id, NTSIM_GEN_CASE_ERROR, "out of memory making the case");
        return;
    }
    ntsim_gen_outcome_t o;
    ntsim_gen_evaluate(&u->x, k, c, id, &o);
    k->cover(c, &u->cov, &o.ref);
    if (u->o->only_case >= 0 && o.verdict != NTSIM_GEN_FAIL) {
        /* --case K: the case as a vector, whatever its verdict. */
        ntsim_gen_text_t text;
        ntsim_gen_text_init(&text);
        ntsim_gen_vector_text(k, c, id, "generated", &text);
        printf("%s", text.oom ? "(out of memory)\n" : text.buf);
        ntsim_gen_text_free(&text);
    }
    for (unsigned b = 0; b < NTSIM_TESTEE_CAP_COUNT; b++)
        t->unjudged[b] += (o.unjudged >> b) & 1;
    void (*on_case)(const char *, const char *, int, const char *) = u->o->on_case;
    switch (o.verdict) {
    case NTSIM_GEN_PASS:
        t->passed++;
        if (on_case != NULL)
            on_case(k->name, id, NTSIM_GEN_CASE_PASSED, NULL);
        break;
    case NTSIM_GEN_SKIP:
        if (t->skipped++ == 0)
            snprintf(t->skip_reason, sizeof t->skip_reason, "%s", o.skipped);
        if (on_case != NULL)
            on_case(k->name, id, NTSIM_GEN_CASE_SKIPPED, o.skipped);
        break;
    case NTSIM_GEN_DISCARD:
    case NTSIM_GEN_ERROR:
        if (o.verdict == NTSIM_GEN_DISCARD)
            t->discarded++;
        else
            t->errors++;
        printf("FAIL [generate] %s: %s case %" PRIu64 " of seed %" PRIu64 ": %s", id, k->name, i,
               u->o->seed, o.report.text != NULL ? o.report.text : "\n");
        if (on_case != NULL)
            on_case(k->name, id, NTSIM_GEN_CASE_ERROR,
                    o.report.text != NULL ? o.report.text : "the case could not be judged");
        break;
    case NTSIM_GEN_FAIL: {
        t->failed++;
        if (t->first_failure < 0) {
            t->first_failure = (int64_t)i;
            t->first_failure_nth = t->cases;
        }
        u->failures++;
        size_t size0 = k->size(c);
        /* A testee given up on fails every candidate at once: nothing to
         * learn from shrinking against it. */
        size_t tries = ntsim_testee_given_up(u->x.testee)
                           ? 0
                           : ntsim_gen_shrink(&u->x, k, &c, id, &o, u->o->shrink_steps, 120.0);
        report_failure(u, k, c, i, id, &o, size0, tries);
        break;
    }
    }
    ntsim_gen_outcome_free(&o);
    k->free(c);
}

static void print_coverage(const run_t *u)
{
    const ntsim_gen_cov_t *c = &u->cov;
    size_t tp = 0, total = NRT_SYS_TRACE_EVENT_TYPE_COUNT * 3;
    char missing[256] = "";
    for (size_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        for (size_t p = 0; p < 3; p++) {
            if (c->type_phase[t][p] > 0)
                tp++;
            else if (strlen(missing) < 200)
                snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%s%zu/%zu",
                         missing[0] ? " " : "", t, p);
        }
    size_t nin = 0;
    for (size_t n = 0; n < 11; n++)
        nin += c->notify_in[n] > 0;
    size_t calls = 0;
    for (size_t n = 0; n < 32; n++)
        calls += c->api_calls[n] > 0;
    printf("  coverage: (type, phase) %zu of %zu%s%s%s; types past the enum %" PRIu64
           ", phases past it %" PRIu64 "\n",
           tp, total, missing[0] ? " (missing: " : "", missing, missing[0] ? ")" : "",
           c->type_past, c->phase_past);
    printf("  coverage: notification types 0..10: %zu of 11, below 0: %" PRIu64 ", above 10: %"
           PRIu64 ", EXPLICIT collections %" PRIu64 "; rings overwritten %" PRIu64
           " times; escaped strings %" PRIu64 "; api calls %zu of %d\n",
           nin, c->notify_below, c->notify_above, c->notify_explicit, c->overflowed, c->strings,
           calls, (int)API_CALL_COUNT);
}

static const char *ordinal(uint64_t n)
{
    if (n % 100 >= 11 && n % 100 <= 13)
        return "th";
    return n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
}

static int summary(run_t *u, uint64_t ran)
{
    uint64_t passed = 0, failed = 0, skipped = 0, discarded = 0, errors = 0;
    printf("\n");
    for (size_t i = 0; ntsim_gen_kinds[i] != NULL; i++) {
        const kind_tally_t *t = &u->tally[i];
        if (t->cases == 0)
            continue;
        printf("  %s: %" PRIu64 " cases, %" PRIu64 " passed, %" PRIu64 " failed", ntsim_gen_kinds[i]->name,
               t->cases, t->passed, t->failed);
        if (t->first_failure >= 0)
            printf(" (the first at case %" PRId64 ", the kind's %" PRIu64 "%s)", t->first_failure,
                   t->first_failure_nth, ordinal(t->first_failure_nth));
        if (t->skipped > 0)
            printf(", %" PRIu64 " skipped (%s)", t->skipped, t->skip_reason);
        if (t->discarded > 0)
            printf(", %" PRIu64 " the reference could not write as a vector", t->discarded);
        if (t->errors > 0)
            printf(", %" PRIu64 " generator errors", t->errors);
        for (unsigned b = 0; b < NTSIM_TESTEE_CAP_COUNT; b++)
            if (t->unjudged[b] > 0)
                printf("; %" PRIu64 " without their %s checks (not announced)", t->unjudged[b],
                       ntsim_testee_cap_names[b]);
        printf("\n");
        passed += t->passed;
        failed += t->failed;
        skipped += t->skipped;
        discarded += t->discarded;
        errors += t->errors;
    }
    print_coverage(u);
    printf("generate: %" PRIu64 " cases in %.1f s: %" PRIu64 " passed, %" PRIu64 " failed, %" PRIu64
           " skipped, %" PRIu64 " discarded, %" PRIu64 " errors (seed %" PRIu64 ")\n",
           ran, ntsim_gen_now() - u->start, passed, failed, skipped, discarded, errors, u->o->seed);
    if (failed + discarded + errors == 0 && passed == 0) {
        printf("FAIL nothing was judged: every generated case was skipped\n");
        return 1;
    }
    return failed + discarded + errors > 0 ? 1 : 0;
}

int ntsim_generate(const ntsim_gen_options_t *o, ntsim_testee_t *t, const ntsim_facts_t *facts)
{
    run_t *u = calloc(1, sizeof *u);
    if (u == NULL) {
        fprintf(stderr, "%s: out of memory\n", o->argv0);
        return 1;
    }
    u->o = o;
    u->x.o = o;
    u->x.testee = t;
    u->x.reference = ntsim_testee_builtin();
    u->x.facts = facts;
    ntsim_gen_text_init(&u->x.text);
    for (size_t i = 0; i < NTSIM_GEN_KIND_COUNT; i++)
        u->tally[i].first_failure = -1;
    make_pattern(u);
    uint64_t first = o->only_case >= 0 ? (uint64_t)o->only_case : 0;
    uint64_t end = o->only_case >= 0 ? first + 1 : o->cases;
    printf("generate: seed %" PRIu64 ", cases %" PRIu64 "..%" PRIu64 " (%s), against %s\n",
           o->seed, first, end ? end - 1 : 0, o->kind_list ? o->kind_list : ntsim_gen_kind_list(),
           o->testee_command != NULL ? o->testee_command : "the built-in testee in process");
    fflush(stdout);
    u->start = u->last_progress = ntsim_gen_now();
    uint64_t i = first;
    for (; i < end; i++) {
        one_case(u, i);
        progress(u, i + 1 - first, end - first, false);
        if (o->max_failures > 0 && u->failures >= o->max_failures) {
            i++;
            printf("generate: stopped after %" PRIu64 " failing cases (--max-failures)\n",
                   u->failures);
            break;
        }
        if (ntsim_testee_given_up(t)) { /* every later case would fail at once */
            i++;
            printf("generate: stopped after case %" PRIu64 ": the testee is given up on\n",
                   i - 1);
            break;
        }
    }
    if (u->o->progress_seconds > 0 && ntsim_gen_now() - u->start >= u->o->progress_seconds)
        progress(u, i - first, end - first, true);
    int rc = summary(u, i - first);
    ntsim_gen_text_free(&u->x.text);
    free(u);
    return rc;
}
