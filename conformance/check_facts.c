/*
 * conformance/check_facts.c: every fact of the spec is pinned by a vector,
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

/* Pinned by the api kind (issue 9 §3), merged separately: facts that only a
 * sequence of public API calls can pin (config and fetch-options setters,
 * get_event_types' edges, start/stop status codes, fetch_events and its
 * options and outputs, the category of a type past the enum, an emit after
 * stop). test_every_fact_is_pinned skips them until then; an entry that a
 * vector cites, or that names no fact, fails the test, so the list can only
 * shrink. Remove it when the api vectors are in. */
static const char *const pinned_by_api_kind[] = {
    "F1.category.unknown",
    "F2.fetch.per_nc_limit",
    "F2.fetch.consumes",
    "F2.fetch.options_null",
    "F2.fetch.nc_setter_u64",
    "F2.fetch.only_nc_forwarded",
    "F2.output.nul_terminated",
    "F2.output.buffer_free",
    "F2.output.null_args",
    "F2.output.preset_buffer",
    "F2.output.abort",
    "F4.api.conventions",
    "F4.config_allocate",
    "F4.config_set_defaults",
    "F4.config_free",
    "F4.config_set_max_events_per_nc",
    "F4.config_set_capture_enabled_for_nc",
    "F4.config_get_enabled_event_types",
    "F4.get_event_types.null",
    "F4.get_event_types.oom",
    "F4.get_event_types.caller_frees",
    "F4.free_event_types",
    "F4.start.running",
    "F4.stop.second",
    "F4.fetch_options_allocate",
    "F4.fetch_options_set_defaults",
    "F4.fetch_options_free",
    "F4.fetch_options_set_max_events_per_nc",
    "F4.fetch_options_set_nc_idx",
    "F4.fetch_events",
    "F4.buffer_free",
    "F4.config.defaults",
    "F4.env.filter_type_names",
    "F5.contexts.state_byte",
    "F6.status.fetch_not_capturing",
    "F6.status.preset_buffer",
    "F6.status.bad_setter_args",
    "F6.status.fetch_option_defaults",
    "F6.fetch.order",
};
#define PINNED_BY_API_KIND (sizeof pinned_by_api_kind / sizeof pinned_by_api_kind[0])

static bool awaits_api_kind(const char *id)
{
    for (size_t i = 0; i < PINNED_BY_API_KIND; i++)
        if (strcmp(pinned_by_api_kind[i], id) == 0)
            return true;
    return false;
}

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
        if (x->cited > 0 || awaits_api_kind(x->id) ||
            (x->settled_by != NULL && strcmp(x->settled_by, NTSIM_FACTS_EXEMPT) == 0))
            continue;
        if (unpinned++ < 30 && len + strlen(x->id) + 2 < sizeof list)
            len += (size_t)snprintf(list + len, sizeof list - len, " %s", x->id);
    }
    ck_assert_msg(unpinned == 0,
                  "%zu facts of docs/spec_facts.md are cited by no vector's source (add a vector "
                  "that pins each, or cite it where one does):%s%s",
                  unpinned, list, unpinned > 30 ? " ..." : "");
    for (size_t i = 0; i < PINNED_BY_API_KIND; i++) {
        const char *id = pinned_by_api_kind[i];
        const ntsim_fact_t *x = ntsim_facts_find(f, id, strlen(id));
        ck_assert_msg(x != NULL, "pinned_by_api_kind lists %s, which docs/spec_facts.md lacks", id);
        ck_assert_msg(x->cited == 0,
                      "%s is cited by %u vectors now: remove it from pinned_by_api_kind", id,
                      x->cited);
    }
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
