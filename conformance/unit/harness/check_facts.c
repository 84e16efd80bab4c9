/*
 * conformance/unit/harness/check_facts.c: every fact of the spec is pinned, by a key a
 * vector judges (FACT@key) or by a named test or script, and every citation
 * and pin points at something that exists (docs/spec_facts.md,
 * docs/decisions.md; facts.h).
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "facts.h"

/* --- what the vectors cite ------------------------------------------------------ */

typedef struct cite_ctx {
    const ntsim_vector_t *v;
    char missing[1024];       /* ids that do not exist, for the message */
    size_t missing_len;
} cite_ctx_t;

static bool check_cited_id(const char *id, size_t len, void *vctx)
{
    cite_ctx_t *c = vctx;
    bool known = id[0] == 'D' ? ntsim_facts_has_decision(&ntsim_check_facts, id, len)
                              : ntsim_facts_find(&ntsim_check_facts, id, len) != NULL;
    if (!known && c->missing_len + len + 3 < sizeof c->missing)
        c->missing_len += (size_t)snprintf(c->missing + c->missing_len,
                                           sizeof c->missing - c->missing_len, " %.*s", (int)len,
                                           id);
    return true;
}

/* A vector cites only facts of docs/spec_facts.md and decisions of
 * docs/decisions.md. */
START_TEST(test_every_cited_id_exists)
{
    for (size_t i = 0; i < ntsim_check_vectors.count; i++) {
        const ntsim_vector_t *v = &ntsim_check_vectors.vectors[i];
        cite_ctx_t c = {v, "", 0};
        (void)ntsim_source_each_id(v->source, check_cited_id, &c);
        ck_assert_msg(c.missing_len == 0, "%s (%s:%u): source cites ids that do not exist:%s",
                      v->id, v->file, v->line, c.missing);
    }
}
END_TEST

/* A fact the sources disagree on, or that no source settles, names the
 * decision that settles it, and that decision exists. */
START_TEST(test_conflicting_and_open_facts_name_their_decision)
{
    const ntsim_facts_t *f = &ntsim_check_facts;
    ck_assert_uint_gt(f->count, 0);
    for (size_t i = 0; i < f->count; i++) {
        const ntsim_fact_t *x = &f->items[i];
        bool needs = strcmp(x->status, "CONFLICT") == 0 || strcmp(x->status, "OPEN") == 0;
        ck_assert_msg(!needs || x->settled_by != NULL,
                      "docs/spec_facts.md:%u: %s is [%s] but names no settling decision", x->line,
                      x->id, x->status);
        ck_assert_msg(x->settled_by == NULL ||
                          ntsim_facts_has_decision(f, x->settled_by, strlen(x->settled_by)),
                      "docs/spec_facts.md:%u: %s is settled by %s, which docs/decisions.md lacks",
                      x->line, x->id, x->settled_by);
    }
}
END_TEST

/* Every decision says what it rests on and whether it contradicts a fact:
 * its section has a "Sources:" and a "Contradicts:" line. */
START_TEST(test_every_decision_names_its_sources)
{
    FILE *fp = fopen(ntsim_check_decisions_path, "r");
    ck_assert_msg(fp != NULL, "%s: cannot open", ntsim_check_decisions_path);
    char line[4096], current[128] = "";
    bool sources = true, contradicts = true;
    unsigned n = 0;
    for (;;) {
        bool eof = fgets(line, sizeof line, fp) == NULL;
        if (eof || strncmp(line, "## D-", 5) == 0) {
            ck_assert_msg(current[0] == '\0' || (sources && contradicts),
                          "%s: %s lacks a %s line", ntsim_check_decisions_path, current,
                          !sources ? "Sources:" : "Contradicts:");
            if (eof)
                break;
            snprintf(current, sizeof current, "%.*s", (int)strcspn(line + 3, ":"), line + 3);
            sources = contradicts = false;
            n++;
        }
        sources |= strncmp(line, "Sources:", 8) == 0;
        contradicts |= strncmp(line, "Contradicts:", 12) == 0;
    }
    fclose(fp);
    ck_assert_uint_eq(n, ntsim_check_facts.decision_count);
}
END_TEST

/* Every fact is pinned, but those D-OUT-OF-SCOPE settles (things ntsim
 * does not build): by a vector that cites it as FACT@key, or by a named
 * check. Being cited only says a vector rests on the fact; a pin says which
 * judgement fails if the fact changes. The message lists the first 30 facts
 * left. */
START_TEST(test_every_fact_is_pinned)
{
    const ntsim_facts_t *f = &ntsim_check_facts;
    ck_assert_uint_gt(f->count, 0);
    char list[2048] = "";
    size_t len = 0, unpinned = 0;
    for (size_t i = 0; i < f->count; i++) {
        const ntsim_fact_t *x = &f->items[i];
        if (x->pinned > 0 || x->check_count > 0 ||
            (x->settled_by != NULL && strcmp(x->settled_by, NTSIM_FACTS_EXEMPT) == 0))
            continue;
        if (unpinned++ < 30 && len + strlen(x->id) + 2 < sizeof list)
            len += (size_t)snprintf(list + len, sizeof list - len, " %s", x->id);
    }
    ck_assert_msg(unpinned == 0,
                  "%zu facts of docs/spec_facts.md are pinned by no vector (cite it as FACT@key "
                  "in the source of a vector whose key fails if the fact changes) and name no "
                  "check (\" · pinned by `test_name`\"):%s%s",
                  unpinned, list, unpinned > 30 ? " ..." : "");
}
END_TEST

/* docs/spec_facts.md states how many facts it holds of each grade, in all,
 * and how many name a settling decision: the entries, counted (a count kept
 * by hand had drifted, issue 36). */
START_TEST(test_spec_facts_counts_are_its_entries)
{
    const ntsim_facts_t *f = &ntsim_check_facts;
    ck_assert_uint_ge(f->stated_count, 3);
    for (size_t k = 0; k < f->stated_count; k++) {
        const ntsim_fact_count_t *c = &f->stated[k];
        size_t n = 0;
        for (size_t i = 0; i < f->count; i++)
            n += strcmp(c->name, "total") == 0     ? 1
                 : strcmp(c->name, "settled") == 0 ? f->items[i].settled_by != NULL
                                                   : strcmp(f->items[i].status, c->name) == 0;
        ck_assert_msg(n == c->n, "docs/spec_facts.md, \"## Counts\": %s: %zu, but its entries "
                                 "count %zu", c->name, c->n, n);
    }
}
END_TEST

/* --- pins: FACT@key and named checks ----------------------------------------------- */

typedef struct pin_ctx {
    const ntsim_vector_t *v;
    char bad[1024];
    size_t bad_len;
} pin_ctx_t;

static bool check_pin(const char *id, size_t len, const char *key, size_t key_len, void *vctx)
{
    pin_ctx_t *c = vctx;
    const ntsim_fact_t *x = ntsim_facts_find(&ntsim_check_facts, id, len);
    if ((!ntsim_vector_judges_key(c->v, key, key_len) ||
         (x != NULL && !ntsim_fact_pinnable_at(x, key, key_len))) &&
        c->bad_len + len + key_len + 4 < sizeof c->bad)
        c->bad_len += (size_t)snprintf(c->bad + c->bad_len, sizeof c->bad - c->bad_len,
                                       " %.*s@%.*s", (int)len, id, (int)key_len, key);
    return true;
}

/* A pin names a key of its own vector that the vector's kind judges (not
 * id, comment, source, flags or expect), and, for a fact only one key can
 * see (" · pinned only at `bytes`": NTFF map order, which protoc's text
 * sorts away), that key. */
START_TEST(test_every_pin_names_a_key_its_vector_judges)
{
    for (size_t i = 0; i < ntsim_check_vectors.count; i++) {
        const ntsim_vector_t *v = &ntsim_check_vectors.vectors[i];
        pin_ctx_t c = {v, "", 0};
        (void)ntsim_source_each_pin(v->source, check_pin, &c);
        ck_assert_msg(c.bad_len == 0,
                      "%s (%s:%u): pins name keys the vector does not judge, or that cannot "
                      "see the fact (docs/spec_facts.md: pinned only at):%s",
                      v->id, v->file, v->line, c.bad);
    }
}
END_TEST

/* Whether file `path` holds `needle`. */
static bool file_holds(const char *path, const char *needle)
{
    FILE *fp = fopen(path, "r");
    if (fp == NULL)
        return false;
    char line[4096];
    bool found = false;
    while (!found && fgets(line, sizeof line, fp) != NULL)
        found = strstr(line, needle) != NULL;
    fclose(fp);
    return found;
}

/* Whether some .c file under dir (recursively) holds both `a` and `b`. */
static bool tree_holds(const char *dir, const char *a, const char *b)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return false;
    bool found = false;
    struct dirent *e;
    while (!found && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t n = strlen(e->d_name);
        if (n > 2 && strcmp(e->d_name + n - 2, ".c") == 0)
            found = file_holds(path, a) && file_holds(path, b);
        else if (strchr(e->d_name, '.') == NULL)
            found = tree_holds(path, a, b);
    }
    closedir(d);
    return found;
}

/* A named check exists and is run: a unit test is defined (START_TEST) and
 * registered (tcase_add_test) in one file under conformance/unit; a file
 * (a script or a program make check runs, named by its path) exists and
 * names the fact beside the check that pins it. */
START_TEST(test_every_named_check_exists)
{
    const ntsim_facts_t *f = &ntsim_check_facts;
    size_t checks = 0;
    for (size_t i = 0; i < f->count; i++) {
        const ntsim_fact_t *x = &f->items[i];
        for (size_t c = 0; c < x->check_count; c++, checks++) {
            const char *name = x->checks[c];
            char at[1024];
            if (strchr(name, '/') != NULL) {
                ck_assert_msg(file_holds(ntsim_check_tree(at, sizeof at, name), x->id),
                              "docs/spec_facts.md:%u: %s is pinned by %s, which does not exist "
                              "or does not name the fact", x->line, x->id, name);
                continue;
            }
            char def[160], reg[160];
            snprintf(def, sizeof def, "START_TEST(%s)", name);
            snprintf(reg, sizeof reg, "tcase_add_test(tc, %s);", name);
            ck_assert_msg(strncmp(name, "test_", 5) == 0 &&
                              tree_holds(ntsim_check_tree(at, sizeof at, "conformance/unit"),
                                         def, reg),
                          "docs/spec_facts.md:%u: %s is pinned by %s, no unit test defined and "
                          "registered under conformance/unit", x->line, x->id, name);
        }
    }
    ck_assert_uint_gt(checks, 0);
}
END_TEST

/* The grammar of a source: ids only, separated by commas or spaces. */
START_TEST(test_source_grammar)
{
    ck_assert(ntsim_source_each_id("S3.hw_notify", NULL, NULL));
    ck_assert(ntsim_source_each_id("S3.hw_notify, S3.hw_notify.hole, D-PAYLOAD-HOLES", NULL,
                                   NULL));
    ck_assert(ntsim_source_each_id("F2.json.key_order D-JSON-DATA", NULL, NULL));
    ck_assert(!ntsim_source_each_id("", NULL, NULL));
    ck_assert(!ntsim_source_each_id("spec §3", NULL, NULL));
    ck_assert(!ntsim_source_each_id("S3", NULL, NULL));
    ck_assert(!ntsim_source_each_id("S3.", NULL, NULL));
    ck_assert(!ntsim_source_each_id("S3.Hw", NULL, NULL));
    ck_assert(!ntsim_source_each_id("D-", NULL, NULL));
    ck_assert(!ntsim_source_each_id("D-json", NULL, NULL));
    ck_assert(!ntsim_source_each_id("S3.x; D-Y", NULL, NULL));
    /* Pins: FACT@key, a lowercase key; a decision cannot be a pin. */
    ck_assert(ntsim_source_each_id("S3.hw_notify@fields, D-NAMES", NULL, NULL));
    ck_assert(ntsim_source_each_pin("F2.json.key_order@json S3.x", NULL, NULL));
    ck_assert(!ntsim_source_each_id("S3.hw_notify@", NULL, NULL));
    ck_assert(!ntsim_source_each_id("S3.hw_notify@Fields", NULL, NULL));
    ck_assert(!ntsim_source_each_id("D-NAMES@json", NULL, NULL));
    ck_assert(!ntsim_source_each_id("S3.x@json@log", NULL, NULL));
}
END_TEST

Suite *make_facts_suite(void)
{
    Suite *s = suite_create("facts");
    TCase *tc = tcase_create("facts");
    tcase_add_test(tc, test_every_fact_is_pinned);
    tcase_add_test(tc, test_every_cited_id_exists);
    tcase_add_test(tc, test_conflicting_and_open_facts_name_their_decision);
    tcase_add_test(tc, test_every_decision_names_its_sources);
    tcase_add_test(tc, test_source_grammar);
    tcase_add_test(tc, test_every_pin_names_a_key_its_vector_judges);
    tcase_add_test(tc, test_every_named_check_exists);
    tcase_add_test(tc, test_spec_facts_counts_are_its_entries);
    suite_add_tcase(s, tc);
    return s;
}
