/*
 * conformance/runner/check_vectors.c: every loaded vector as one Check test.
 *
 * One TCase per kind, named after the kind, each a loop test over that kind's
 * slice of ntsim_check_ordered; check_runner.c counts results by TCase name to
 * print the per-kind and total summary. A "coverage" TCase then proves that
 * every ABI type, enum and event type of the headers is pinned by a vector.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi_registry.h"
#include "check_suites.h"
#include "event_table.h"
#include "kind_map.h"
#include "kinds.h"
#include "testee.h"
#include "testee_engine.h"

/* Longest failure message handed to Check (its own limit is 4 KiB by default). */
enum { MESSAGE_MAX = 3500 };

/* Through the testee (or itself, for a harness kind); counts the checks a
 * testee's missing capabilities left out. */
static void run_vector(const ntsim_vector_t *v, ntsim_report_t *r)
{
    ntsim_vector_run(v, ntsim_check_testee ? ntsim_check_testee : ntsim_testee_builtin(), r);
    if (v->kind->judge != NULL) {
        ntsim_testee_t *t = ntsim_check_testee ? ntsim_check_testee : ntsim_testee_builtin();
        unsigned missed = ntsim_testee_take_unjudged(t);
        if (missed != 0)
            ntsim_check_count_unjudged(v, missed);
    }
}

/* One line naming the vector and where it is, what differs, and the
 * command that replays it alone. */
START_TEST(test_vector_conforms)
{
    const ntsim_vector_t *v = ntsim_check_ordered[_i];
    ntsim_report_t r;
    ntsim_report_init(&r);
    run_vector(v, &r);
    if (r.mismatches == 0) {
        ntsim_report_free(&r);
        return;
    }
    /* Copy out and free before aborting: in no-fork mode (valgrind) the abort
     * longjmps past this frame. */
    char msg[MESSAGE_MAX], note[128];
    char *repro = ntsim_check_repro(v);
    /* A repro line is shown whole or not at all (Check keeps MESSAGE_MAX). */
    if (repro == NULL || strlen(repro) > MESSAGE_MAX / 2)
        snprintf(note, sizeof note, "(%zu bytes: too long to show; replay it with --id)",
                 repro != NULL ? strlen(repro) : (size_t)0);
    ntsim_report_failure(msg, sizeof msg, v->id, v->file, v->line, &r,
                         repro == NULL || strlen(repro) > MESSAGE_MAX / 2 ? note : repro);
    free(repro);
    ntsim_report_free(&r);
    ck_abort_msg("%s", msg);
}
END_TEST

/* A vector listed as an expected failure must still fail: when it passes,
 * the list is stale and the run fails until the line is removed. */
START_TEST(test_vector_fails_as_listed)
{
    const ntsim_vector_t *v = ntsim_check_ordered[_i];
    ntsim_report_t r;
    ntsim_report_init(&r);
    run_vector(v, &r);
    unsigned mismatches = r.mismatches;
    ntsim_report_free(&r);
    ck_assert_msg(mismatches > 0,
                  "%s (%s:%u): listed in %s (\"%s\") but passes: remove its line", v->id,
                  v->file, v->line, ntsim_check_xfail_list_name(), ntsim_check_xfail_reason(v->id));
}
END_TEST

static bool subject_is_pinned(const ntsim_vector_kind_t *kind, const char *subject)
{
    for (size_t i = 0; i < ntsim_check_vectors.count; i++) {
        const ntsim_vector_t *v = &ntsim_check_vectors.vectors[i];
        if (v->kind == kind && strcmp(kind->subject(v->body), subject) == 0)
            return true;
    }
    return false;
}

START_TEST(test_every_abi_aggregate_has_a_layout_vector)
{
    for (size_t i = 0; i < ntsim_abi_aggregate_count(); i++) {
        const char *c_type = ntsim_abi_aggregate_at(i)->c_type;
        ck_assert_msg(subject_is_pinned(&ntsim_kind_layout, c_type),
                      "%s has no layout vector: add one under vectors/ from the spec", c_type);
    }
}
END_TEST

START_TEST(test_every_abi_enum_has_an_enum_vector)
{
    for (size_t i = 0; i < ntsim_abi_enum_count(); i++) {
        const char *c_type = ntsim_abi_enum_at(i)->c_type;
        ck_assert_msg(subject_is_pinned(&ntsim_kind_enum, c_type),
                      "%s has no enum vector: add one under vectors/ from the spec", c_type);
    }
}
END_TEST

START_TEST(test_every_event_type_has_an_event_type_vector)
{
    for (size_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++) {
        const char *name = ntsim__event_types[t].enum_name;
        ck_assert_ptr_nonnull(name);
        ck_assert_msg(subject_is_pinned(&ntsim_kind_event_type, name),
                      "%s has no event_type vector", name);
    }
}
END_TEST

/* The registry is expanded from NTSIM_KIND_MAP; each kind's own name and
 * judge must agree with its entry (a kind_<name>.c that says another name,
 * or runs itself while the map says an implementation answers it). */
START_TEST(test_every_kind_is_what_the_kind_map_says)
{
    static const struct {
        const char *name;
        bool judged;
    } map[] = {
#define NTSIM_KIND_ROW(name, how, body) {#name, NTSIM_KIND_IF_JUDGED(how, true) + 0},
        NTSIM_KIND_MAP(NTSIM_KIND_ROW)
#undef NTSIM_KIND_ROW
    };
    size_t i = 0;
    for (const ntsim_vector_kind_t *const *k = ntsim_vector_kinds; *k != NULL; k++, i++) {
        ck_assert_uint_lt(i, NTSIM_KIND_COUNT);
        ck_assert_str_eq((*k)->name, map[i].name);
        ck_assert_msg(((*k)->judge != NULL) == map[i].judged && ((*k)->run != NULL) == !map[i].judged,
                      "%s: the map says %s, the kind %s", map[i].name,
                      map[i].judged ? "judged" : "own", (*k)->judge ? "judges" : "runs itself");
    }
    ck_assert_uint_eq(i, NTSIM_KIND_COUNT);
}
END_TEST

/* A kind with no vector judges nothing: a new kind comes with its vectors
 * (docs/architecture.md, "Adding a vector kind"). */
START_TEST(test_every_kind_has_a_vector)
{
    for (const ntsim_vector_kind_t *const *k = ntsim_vector_kinds; *k != NULL; k++) {
        size_t n = 0;
        for (size_t i = 0; i < ntsim_check_vectors.count; i++)
            n += ntsim_check_vectors.vectors[i].kind == *k;
        ck_assert_msg(n > 0, "the kind %s has no vector under vectors/", (*k)->name);
    }
}
END_TEST

Suite *make_vectors_suite(void)
{
    Suite *s = suite_create("vectors");
    size_t start = 0;
    for (const ntsim_vector_kind_t *const *k = ntsim_vector_kinds; *k != NULL; k++) {
        /* The kind's vectors expected to pass, then its listed failures. */
        for (int listed = 0; listed < 2; listed++) {
            size_t end = start;
            while (end < ntsim_check_selected && ntsim_check_ordered[end]->kind == *k &&
                   (ntsim_check_xfail_reason(ntsim_check_ordered[end]->id) != NULL) == listed)
                end++;
            if (end > start) {
                /* Check keeps the name pointer, not a copy: static storage. */
                static char xfail_names[NTSIM_KIND_COUNT][64];
                size_t ki = (size_t)(k - ntsim_vector_kinds);
                snprintf(xfail_names[ki], sizeof xfail_names[ki], "%s:xfail", (*k)->name);
                TCase *tc = tcase_create(listed ? xfail_names[ki] : (*k)->name);
                tcase_add_loop_test(tc, listed ? test_vector_fails_as_listed
                                               : test_vector_conforms,
                                    (int)start, (int)end);
                suite_add_tcase(s, tc);
            }
            start = end;
        }
    }
    if (!ntsim_check_whole_run)
        return s; /* a filtered run checks its vectors, not the whole tree's coverage */
    TCase *cov = tcase_create("coverage");
    tcase_add_test(cov, test_every_abi_aggregate_has_a_layout_vector);
    tcase_add_test(cov, test_every_abi_enum_has_an_enum_vector);
    tcase_add_test(cov, test_every_event_type_has_an_event_type_vector);
    tcase_add_test(cov, test_every_kind_has_a_vector);
    tcase_add_test(cov, test_every_kind_is_what_the_kind_map_says);
    suite_add_tcase(s, cov);
    return s;
}
