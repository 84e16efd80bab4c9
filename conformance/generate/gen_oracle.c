/*
 * conformance/generate/gen_oracle.c: one generated case through the oracle.
 *
 *   1. The case is written as a vector of its kind (ntsim_gen_vector_text), with
 *      stand-ins where its expected values are not known yet, and loaded by
 *      the kind's own loader (a vector the loader refuses is the
 *      generator's bug: NTSIM_GEN_ERROR).
 *   2. The kind's own judge runs it against the reference (the built-in
 *      testee, in process) with a tap on the exchange (testee.h); the
 *      replies become the case's expected values (ntsim_gen_kind_t.expect).
 *   3. Written again and judged against the reference once more: the
 *      reference must pass its own vector. Usually one round confirms; an
 *      api case whose calls stopped at an unexpected status takes a round
 *      per status. A case that does not converge cannot be said as a vector
 *      of its kind (NTSIM_GEN_DISCARD, counted; none is expected).
 *   4. The same vector is judged against the testee under test by the same
 *      judge: its mismatches are the case's (NTSIM_GEN_FAIL). A vector the testee
 *      cannot judge (a kind it does not answer, a capability it lacks) is
 *      NTSIM_GEN_SKIP, with the runner's own reason.
 *   5. The kind's invariants are checked on both sides' replies.
 *
 * So the comparison is the kinds' (bytes, a JSON diff per event, protoc's
 * reading of NTFF, counters, logs), never a second engine of the
 * generator's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts.h"
#include "input.h"
#include "gen_int.h"
#include "kinds.h"
#include "testee.h"

/* Rounds of step 3: an api case of n calls may need one per call whose
 * status is not NRT_SUCCESS. */
#define MAX_ROUNDS 40

void ntsim_gen_replies_free(ntsim_gen_replies_t *g)
{
    for (size_t i = 0; i < g->count; i++)
        ntsim_testee_reply_free(g->items[i]);
    free(g->items);
    memset(g, 0, sizeof *g);
}

/* The tap: a copy of every response (packed and unpacked again, so that it
 * outlives the judge's own). */
static void keep_reply(const NtsimTestee__Request *req, const NtsimTestee__Response *resp,
                       void *ctx)
{
    (void)req;
    ntsim_gen_replies_t *g = ctx;
    size_t len = 0;
    uint8_t *bytes = ntsim_testee_pack(&resp->base, &len);
    char why[256];
    /* The runner's reply allocator, which ntsim_testee_reply_free expects. */
    NtsimTestee__Response *copy =
        bytes != NULL ? ntsim_testee_reply_unpack(bytes, len, why, sizeof why) : NULL;
    free(bytes);
    if (copy == NULL)
        return; /* out of memory: the case's checks see fewer replies */
    if (g->count == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 8;
        NtsimTestee__Response **n = realloc(g->items, cap * sizeof *n);
        if (n == NULL) {
            ntsim_testee_reply_free(copy);
            return;
        }
        g->items = n;
        g->cap = cap;
    }
    g->items[g->count++] = copy;
}

/* Appends ", ID" pieces of `ids` to t once each, in order, without the
 * leading comma. */
static void unique_ids(const char *ids, ntsim_gen_text_t *t)
{
    size_t start = t->len;
    for (const char *at = ids; *at != '\0';) {
        at += strspn(at, ", ");
        size_t n = strcspn(at, ", ");
        if (n == 0)
            break;
        bool dup = false;
        for (const char *p = t->buf != NULL ? t->buf + start : ""; *p != '\0';) {
            size_t m = strcspn(p, ", ");
            if (m == n && strncmp(p, at, n) == 0)
                dup = true;
            p += m;
            p += strspn(p, ", ");
        }
        if (!dup)
            ntsim_gen_printf(t, "%s%.*s", t->len > start ? ", " : "", (int)n, at);
        at += n;
    }
}

void ntsim_gen_vector_text(const ntsim_gen_kind_t *k, const void *c, const char *id, const char *comment,
                     ntsim_gen_text_t *t)
{
    ntsim_gen_text_t src;
    ntsim_gen_text_init(&src);
    k->source(c, &src);
    ntsim_gen_printf(t, "version: 1\nkind: %s\nvectors:\n  - id: %s\n    comment: ", k->name, id);
    ntsim_gen_quoted(t, comment, strlen(comment));
    ntsim_gen_printf(t, "\n    source: ");
    unique_ids(src.buf != NULL ? src.buf : "", t);
    ntsim_gen_printf(t, "\n");
    ntsim_gen_text_free(&src);
    k->write(c, t);
}

/* Every id of a source names a fact or a decision that exists. */
static bool source_known(const ntsim_facts_t *f, const char *text, char *why, size_t cap)
{
    const char *s = strstr(text, "\n    source: ");
    if (f == NULL || s == NULL)
        return true;
    s += strlen("\n    source: ");
    size_t end = strcspn(s, "\n");
    for (size_t i = 0; i < end;) {
        i += strspn(s + i, ", ");
        size_t n = strcspn(s + i, ", \n");
        if (n == 0)
            break;
        if (ntsim_facts_find(f, s + i, n) == NULL && !ntsim_facts_has_decision(f, s + i, n)) {
            snprintf(why, cap, "the source names '%.*s', not a fact of docs/spec_facts.md nor a "
                               "decision of docs/decisions.md", (int)n, s + i);
            return false;
        }
        i += n;
    }
    return true;
}

/* Writes and loads case c: the one vector, or NULL with why. */
static const ntsim_vector_t *load(ntsim_gen_ctx_t *x, const ntsim_gen_kind_t *k, const void *c,
                                  const char *id, ntsim_vector_set_t *set, char *why, size_t cap)
{
    ntsim_gen_text_clear(&x->text);
    ntsim_gen_vector_text(k, c, id, "generated", &x->text);
    ntsim_vector_set_init(set);
    if (x->text.oom) {
        snprintf(why, cap, "out of memory writing the vector");
        return NULL;
    }
    if (!source_known(x->facts, x->text.buf, why, cap))
        return NULL;
    char name[300];
    snprintf(name, sizeof name, "generated:%s", id);
    NRT_STATUS st = ntsim_vector_set_load_string(set, name, x->text.buf, x->text.len);
    if (st == NRT_SUCCESS && set->count == 1)
        return &set->vectors[0];
    snprintf(why, cap, "the kind's loader refused the generated vector: %s",
             set->errors.count > 0 ? set->errors.items[0] : "out of memory");
    return NULL;
}

/* The kind's judge on v against t, its replies kept in *got. */
static void judge(const ntsim_vector_t *v, ntsim_testee_t *t, ntsim_gen_replies_t *got,
                  ntsim_report_t *r)
{
    ntsim_testee_set_tap(t, keep_reply, got);
    ntsim_vector_run(v, t, r);
    ntsim_testee_set_tap(t, NULL, NULL);
}

/* The first line of a report, for a short reason. */
static void first_line(const ntsim_report_t *r, char *out, size_t cap)
{
    const char *text = r->text != NULL ? r->text : "";
    snprintf(out, cap, "%.*s", (int)strcspn(text, "\n"), text);
}

/* Steps 1-3: c's expected values from the reference, confirmed. A round
 * that changes nothing in the vector and still fails the reference cannot
 * converge: what the reference answers cannot be said in this kind's
 * grammar (the judge or the writer would have to change). */
static ntsim_gen_verdict_t take_expected(ntsim_gen_ctx_t *x, const ntsim_gen_kind_t *k, void *c, const char *id,
                                   ntsim_gen_replies_t *ref, char *why, size_t cap)
{
    char *judged = NULL; /* the text of the vector the last round judged */
    bool judged_passed = false;
    ntsim_gen_verdict_t verdict = NTSIM_GEN_DISCARD;
    for (int round = 0; round < MAX_ROUNDS; round++) {
        ntsim_vector_set_t set;
        const ntsim_vector_t *v = load(x, k, c, id, &set, why, cap);
        if (v == NULL) {
            ntsim_vector_set_free(&set);
            verdict = NTSIM_GEN_ERROR;
            break;
        }
        if (judged != NULL && strcmp(judged, x->text.buf) == 0) {
            /* Nothing changed: the last round's verdict is this vector's. */
            ntsim_vector_set_free(&set);
            if (judged_passed)
                verdict = NTSIM_GEN_PASS;
            break; /* else the why of the last round stands */
        }
        free(judged);
        judged = ntsim_strdup(x->text.buf);
        ntsim_report_t r0;
        ntsim_report_init(&r0);
        ntsim_gen_replies_free(ref);
        judge(v, x->reference, ref, &r0);
        (void)ntsim_testee_take_unjudged(x->reference);
        ntsim_vector_set_free(&set);
        if (round > 0 && r0.mismatches == 0) {
            ntsim_report_free(&r0);
            verdict = NTSIM_GEN_PASS;
            break;
        }
        char line[400];
        first_line(&r0, line, sizeof line);
        snprintf(why, cap, "the reference fails its own vector: %s", line);
        judged_passed = r0.mismatches == 0;
        ntsim_report_free(&r0);
        if (k->expect(c, ref, why, cap) == NTSIM_GEN_EXPECT_NONE)
            break;
    }
    free(judged);
    return verdict;
}

void ntsim_gen_evaluate(ntsim_gen_ctx_t *x, const ntsim_gen_kind_t *k, void *c, const char *id,
                  ntsim_gen_outcome_t *out)
{
    memset(out, 0, sizeof *out);
    ntsim_report_init(&out->report);
    char why[1024] = "";
    ntsim_gen_replies_t *ref = &out->ref, got = {0};
    out->verdict = take_expected(x, k, c, id, ref, why, sizeof why);
    if (out->verdict != NTSIM_GEN_PASS) {
        ntsim_report_add(&out->report, id, out->verdict == NTSIM_GEN_ERROR ? "generator" : "reference",
                         "%s", why);
        return;
    }
    ntsim_vector_set_t set;
    const ntsim_vector_t *v = load(x, k, c, id, &set, why, sizeof why);
    const char *skip = v != NULL ? ntsim_vector_skip_reason(v, x->testee, why, sizeof why) : NULL;
    if (v == NULL || skip != NULL) {
        out->verdict = v == NULL ? NTSIM_GEN_ERROR : NTSIM_GEN_SKIP;
        if (skip != NULL)
            snprintf(out->skipped, sizeof out->skipped, "%s", skip);
        ntsim_report_add(&out->report, id, v == NULL ? "generator" : "skipped", "%s",
                         v == NULL ? why : skip);
        ntsim_vector_set_free(&set);
        return;
    }
    judge(v, x->testee, &got, &out->report);
    out->unjudged = ntsim_testee_take_unjudged(x->testee);
    ntsim_vector_set_free(&set);
    k->check(c, ref, "reference", id, &out->report);
    k->check(c, &got, "testee", id, &out->report);
    out->verdict = out->report.mismatches > 0 ? NTSIM_GEN_FAIL : NTSIM_GEN_PASS;
    ntsim_gen_replies_free(&got);
}

void ntsim_gen_outcome_free(ntsim_gen_outcome_t *out)
{
    ntsim_report_free(&out->report);
    ntsim_gen_replies_free(&out->ref);
}
