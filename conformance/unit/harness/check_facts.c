/*
 * conformance/unit/harness/check_facts.c: every fact of the spec is pinned by a vector,
 * and every citation points at something that exists (docs/spec_facts.md,
 * docs/decisions.md; facts.h).
 */
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

/* Every fact is cited by at least one vector, but those D-OUT-OF-SCOPE
 * settles (things ntsim does not build). The message lists the first 30
 * facts left. */
START_TEST(test_every_fact_is_pinned)
{
    const ntsim_facts_t *f = &ntsim_check_facts;
    ck_assert_uint_gt(f->count, 0);
    char list[2048] = "";
    size_t len = 0, unpinned = 0;
    for (size_t i = 0; i < f->count; i++) {
        const ntsim_fact_t *x = &f->items[i];
        if (x->cited > 0 ||
            (x->settled_by != NULL && strcmp(x->settled_by, NTSIM_FACTS_EXEMPT) == 0))
            continue;
        if (unpinned++ < 30 && len + strlen(x->id) + 2 < sizeof list)
            len += (size_t)snprintf(list + len, sizeof list - len, " %s", x->id);
    }
    ck_assert_msg(unpinned == 0,
                  "%zu facts of docs/spec_facts.md are cited by no vector's source (add a vector "
                  "that pins each, or cite it where one does):%s%s",
                  unpinned, list, unpinned > 30 ? " ..." : "");
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
    suite_add_tcase(s, tc);
    return s;
}
