/*
 * conformance/unit/engine/analyze/check_diff.c: ntsim diff (D-DIFF) through
 * the public API: a trace against itself, one changed field, ids that differ,
 * events in one trace only, --ignore and --time-tolerance, and a default
 * run's three files against each other (equal but for what D-READ says a
 * format does not keep).
 *
 * The trace D (NC 0 unless said, thread 7; EP: kbl_exec_pre, DE:
 * nc_exec_running):
 *
 *   r  id  type  phase  track  t      payload
 *   0  0   EP    START  20     1000   exec_id 70, model_id 5
 *   1  1   EP    STOP   20     1300   exec_id 70, model_id 5
 *   2  2   DE    START  30     1400   core 1, exec_id 70, sync {dev 9000, cpu 0}
 *   3  0   EP    START  21     1500   exec_id 71 (NC 1)
 *   4  3   DE    STOP   30     2000   sync {dev 9600, cpu 0}
 *
 * Its fields as the document writes them: event_type, phase, id (id | nc <<
 * 50), nc_local_id, tracking_id, thread_id, data (EP: exec_id, model_id; DE
 * START: device_core_idx, exec_id, nc_timestamp_ns; DE STOP:
 * nc_timestamp_ns), timestamp_ns; no nrta_seq_id (has_nrta_seq_id 0).
 */
#define _GNU_SOURCE /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_analyze.h"
#include "check_suites.h"
#include "ntsim/analyze.h"
#include "ntsim/convert.h"
#include "run_files.h"

enum { D_COUNT = 5 };

/* Trace D (above) into a new trace of the given format. */
static ntsim_trace_t *trace_d(ntsim_trace_format_t format)
{
    ntsim_trace_t *t = calloc(1, sizeof *t);
    ck_assert_ptr_nonnull(t);
    t->format = format;
    t->events = calloc(D_COUNT, sizeof *t->events);
    ck_assert_ptr_nonnull(t->events);
    t->event_count = D_COUNT;
    nrt_sys_trace_event_t *e = t->events;
    e[0] = rec(TY(EXEC_PRE), S, 0, 0, 20, 1000, 0);
    e[1] = rec(TY(EXEC_PRE), P, 0, 1, 20, 1300, 0);
    e[2] = rec(TY(DEVICE_EXEC), S, 0, 2, 30, 1400, 0);
    e[3] = rec(TY(EXEC_PRE), S, 1, 0, 21, 1500, 0);
    e[4] = rec(TY(DEVICE_EXEC), P, 0, 3, 30, 2000, 0);
    e[0].data.exec_pre = (struct nrt_sys_trace_event_data_exec_pre){70, 5};
    e[1].data.exec_pre = (struct nrt_sys_trace_event_data_exec_pre){70, 5};
    e[2].data.nc_exec_start.device_core_idx = 1;
    e[2].data.nc_exec_start.exec_id = 70;
    e[2].data.nc_exec_start.sync_info.nc_timestamp_ns = 9000;
    e[3].data.exec_pre = (struct nrt_sys_trace_event_data_exec_pre){71, 5};
    e[4].data.nc_exec_stop.sync_info.nc_timestamp_ns = 9600;
    return t;
}

/* Not ntsim_trace_free: these traces are the test's own (calloc). */
static void trace_free(ntsim_trace_t *t)
{
    free(t->events);
    free(t);
}

/* Every difference, one line each, as ntsim diff prints them. */
typedef struct lines {
    char text[2048];
    size_t len;
} lines_t;

static NRT_STATUS collect(const ntsim_diff_item_t *d, void *ctx)
{
    lines_t *l = ctx;
    if (d->field == NULL)
        l->len += (size_t)snprintf(l->text + l->len, sizeof l->text - l->len,
                                   "nc %u event %llu (%s %s): only in %s\n", d->nc_idx,
                                   (unsigned long long)d->event, d->type, d->phase,
                                   d->a ? "A" : "B");
    else
        l->len += (size_t)snprintf(l->text + l->len, sizeof l->text - l->len,
                                   "nc %u event %llu (%s %s): %s: %s != %s\n", d->nc_idx,
                                   (unsigned long long)d->event, d->type, d->phase, d->field,
                                   d->a ? d->a : "(none)", d->b ? d->b : "(none)");
    ck_assert_uint_lt(l->len, sizeof l->text);
    return NRT_SUCCESS;
}

/* diff(a, b) with opt: its lines into l, its summary into s. */
static void run_diff(const ntsim_trace_t *a, const ntsim_trace_t *b,
                     const ntsim_diff_options_t *opt, lines_t *l, ntsim_diff_summary_t *s)
{
    memset(l, 0, sizeof *l);
    ck_assert_int_eq(ntsim_trace_diff(a, b, opt, collect, l, s), NRT_SUCCESS);
}

START_TEST(test_diff_of_a_trace_with_itself_finds_nothing)
{
    ntsim_trace_t *a = trace_d(NTSIM_TRACE_FORMAT_JSON);
    lines_t l;
    ntsim_diff_summary_t s;
    run_diff(a, a, NULL, &l, &s);
    ck_assert_str_eq(l.text, "");
    ck_assert_uint_eq(s.matched, D_COUNT);
    ck_assert_uint_eq(s.differing + s.only_a + s.only_b + s.differences + s.field_count, 0);
    ck_assert_ptr_null(s.not_compared);
    ntsim_diff_summary_free(&s);
    trace_free(a);
}
END_TEST

START_TEST(test_diff_names_the_event_and_the_field_that_changed)
{
    ntsim_trace_t *a = trace_d(NTSIM_TRACE_FORMAT_JSON), *b = trace_d(NTSIM_TRACE_FORMAT_JSON);
    b->events[2].data.nc_exec_start.exec_id = 71;  /* DE START, NC 0 id 2 */
    b->events[3].thread_id = 8;                    /* EP START, NC 1 id 0 */
    lines_t l;
    ntsim_diff_summary_t s;
    run_diff(a, b, NULL, &l, &s);
    /* NC 0 before NC 1; a field as the document writes it */
    ck_assert_str_eq(l.text, "nc 0 event 2 (nc_exec_running start): data.exec_id: 70 != 71\n"
                             "nc 1 event 0 (kbl_exec_pre start): thread_id: 7 != 8\n");
    ck_assert_uint_eq(s.matched, 5);
    ck_assert_uint_eq(s.differing, 2);
    ck_assert_uint_eq(s.differences, 2);
    /* the counts in the document's order: thread_id before data */
    ck_assert_uint_eq(s.field_count, 2);
    ck_assert_str_eq(s.fields[0].field, "thread_id");
    ck_assert_str_eq(s.fields[1].field, "data.exec_id");
    ck_assert_uint_eq(s.fields[0].count + s.fields[1].count, 2);
    ntsim_diff_summary_free(&s);
    trace_free(a);
    trace_free(b);
}
END_TEST

/* Two events of the same id but of two types (kbl_exec_pre and
 * kbl_exec_post share one payload, facts: types 17-20): they match by id
 * and event_type, the first field, is the one that differs. */
START_TEST(test_diff_names_an_event_type_that_changed)
{
    ntsim_trace_t *a = trace_d(NTSIM_TRACE_FORMAT_JSON), *b = trace_d(NTSIM_TRACE_FORMAT_JSON);
    b->events[1].trace_type = TY(EXEC_POST); /* EP STOP, NC 0 id 1 */
    lines_t l;
    ntsim_diff_summary_t s;
    run_diff(a, b, NULL, &l, &s);
    ck_assert_str_eq(l.text, "nc 0 event 1 (kbl_exec_pre stop): event_type: kbl_exec_pre != "
                             "kbl_exec_post\n");
    ck_assert_uint_eq(s.matched, 5);
    ck_assert_uint_eq(s.differing, 1);
    ck_assert_uint_eq(s.field_count, 1);
    ck_assert_str_eq(s.fields[0].field, "event_type");
    ntsim_diff_summary_free(&s);
    trace_free(a);
    trace_free(b);
}
END_TEST

/* A port that numbers its events from 1 (every nc_local_id and id one
 * higher): each event still meets its own by (type, phase, tracking_id),
 * and only the ids differ. */
START_TEST(test_diff_matches_by_type_phase_and_tracking_id_where_the_ids_differ)
{
    ntsim_trace_t *a = trace_d(NTSIM_TRACE_FORMAT_JSON), *b = trace_d(NTSIM_TRACE_FORMAT_JSON);
    for (size_t i = 0; i < D_COUNT; i++) {
        b->events[i].nc_local_id++;
        b->events[i].id++;
    }
    lines_t l;
    ntsim_diff_summary_t s;
    run_diff(a, b, NULL, &l, &s);
    ck_assert_uint_eq(s.matched, 5);
    ck_assert_uint_eq(s.only_a + s.only_b, 0);
    ck_assert_uint_eq(s.differences, 10);
    ck_assert_ptr_nonnull(strstr(l.text, "nc 0 event 0 (kbl_exec_pre start): id: 0 != 1\n"
                                         "nc 0 event 0 (kbl_exec_pre start): nc_local_id: 0 != 1\n"));
    ck_assert_ptr_nonnull(strstr(l.text, "nc 1 event 0 (kbl_exec_pre start): id: 1125899906842624 "
                                         "!= 1125899906842625\n"));
    ntsim_diff_summary_free(&s);
    trace_free(a);
    trace_free(b);
}
END_TEST

START_TEST(test_diff_names_the_events_in_one_trace_only)
{
    ntsim_trace_t *a = trace_d(NTSIM_TRACE_FORMAT_JSON), *b = trace_d(NTSIM_TRACE_FORMAT_JSON);
    b->events[1] = b->events[4]; /* B lost NC 0's id 1 (EP STOP); its last record gone */
    b->event_count = 4;
    lines_t l;
    ntsim_diff_summary_t s;
    run_diff(a, b, NULL, &l, &s);
    ck_assert_str_eq(l.text, "nc 0 event 1 (kbl_exec_pre stop): only in A\n");
    ck_assert_uint_eq(s.only_a, 1);
    ck_assert_uint_eq(s.only_b, 0);
    ck_assert_uint_eq(s.matched, 4);
    ntsim_diff_summary_free(&s);
    run_diff(b, a, NULL, &l, &s);
    ck_assert_str_eq(l.text, "nc 0 event 1 (kbl_exec_pre stop): only in B\n");
    ntsim_diff_summary_free(&s);
    trace_free(a);
    trace_free(b);
}
END_TEST

START_TEST(test_diff_ignores_fields_and_times_within_the_tolerance)
{
    ntsim_trace_t *a = trace_d(NTSIM_TRACE_FORMAT_JSON), *b = trace_d(NTSIM_TRACE_FORMAT_JSON);
    for (size_t i = 0; i < D_COUNT; i++)
        b->events[i].timestamp_ns += 5;
    b->events[2].data.nc_exec_start.sync_info.nc_timestamp_ns += 3;
    b->events[0].data.exec_pre.model_id = 6;
    lines_t l;
    ntsim_diff_summary_t s;
    ntsim_diff_options_t opt = {NULL, 0, 4};
    run_diff(a, b, &opt, &l, &s); /* 5 apart: differ; 3 apart: equal */
    ck_assert_uint_eq(s.differences, 6);
    ck_assert_ptr_nonnull(strstr(l.text, "nc 0 event 0 (kbl_exec_pre start): data.model_id: 5 != 6\n"
                                         "nc 0 event 0 (kbl_exec_pre start): timestamp_ns: 1000 != 1005\n"));
    ck_assert_ptr_null(strstr(l.text, "nc_timestamp_ns"));
    ntsim_diff_summary_free(&s);
    opt.time_tolerance_ns = 5;
    run_diff(a, b, &opt, &l, &s);
    ck_assert_str_eq(l.text, "nc 0 event 0 (kbl_exec_pre start): data.model_id: 5 != 6\n");
    ntsim_diff_summary_free(&s);
    const char *ignore[] = {"timestamp_ns", "data.model_id", "data.nc_timestamp_ns"};
    opt = (ntsim_diff_options_t){ignore, 3, 0};
    run_diff(a, b, &opt, &l, &s);
    ck_assert_str_eq(l.text, "");
    ntsim_diff_summary_free(&s);
    const char *data[] = {"data", "timestamp_ns"};
    opt = (ntsim_diff_options_t){data, 2, 0};
    run_diff(a, b, &opt, &l, &s);
    ck_assert_str_eq(l.text, "");
    ntsim_diff_summary_free(&s);
    /* a name that is no field: refused, with the one it may mean */
    const char *bad[] = {"exec_id"};
    opt = (ntsim_diff_options_t){bad, 1, 0};
    ck_assert_int_eq(ntsim_trace_diff(a, b, &opt, NULL, NULL, &s), NRT_INVALID);
    const char *near = NULL;
    ck_assert(!ntsim_diff_field_check("exec_id", &near));
    ck_assert_str_eq(near, "data.exec_id");
    ck_assert(!ntsim_diff_field_check("timestamp_nss", &near));
    ck_assert_str_eq(near, "timestamp_ns");
    ck_assert(ntsim_diff_field_check("nrta_seq_id", NULL));
    trace_free(a);
    trace_free(b);
}
END_TEST

/* A default run's trace.json, trace.ntff and record dump, read back: every
 * two are the same modulo what D-READ says a format does not keep. That part
 * matters: the same JSON read back and called a record dump differs from
 * the dump in every device event's timestamp_ns (D-JSON-TIME). */
START_TEST(test_diff_of_one_runs_files_in_three_formats_finds_nothing)
{
    char *bytes[RUN_FILES];
    size_t lens[RUN_FILES];
    ntsim_run_result_t res;
    ntsim_outputs_t o;
    run_default_files(bytes, lens, NULL, &res, &o);
    ntsim_trace_t *t[3];
    const size_t file_of[3] = {RUN_JSON, RUN_NTFF, RUN_RECORDS};
    char err[256];
    for (size_t k = 0; k < 3; k++) {
        ck_assert_int_eq(ntsim_trace_read(bytes[file_of[k]], lens[file_of[k]], NULL, &t[k], err,
                                          sizeof err),
                         NRT_SUCCESS);
        ck_assert_uint_eq(t[k]->event_count, res.record_count);
    }
    ck_assert_int_eq(t[0]->format, NTSIM_TRACE_FORMAT_JSON);
    ck_assert_int_eq(t[1]->format, NTSIM_TRACE_FORMAT_NTFF);
    ck_assert_int_eq(t[2]->format, NTSIM_TRACE_FORMAT_RECORDS);
    lines_t l;
    ntsim_diff_summary_t s;
    for (size_t x = 0; x < 3; x++)
        for (size_t y = 0; y < 3; y++) {
            run_diff(t[x], t[y], NULL, &l, &s);
            ck_assert_msg(l.len == 0, "%zu vs %zu: %.300s", x, y, l.text);
            ck_assert_uint_eq(s.matched, res.record_count);
            ck_assert_int_eq(s.not_compared != NULL, x != y);
            ntsim_diff_summary_free(&s);
        }
    t[0]->format = NTSIM_TRACE_FORMAT_RECORDS;
    ck_assert_int_eq(ntsim_trace_diff(t[0], t[2], NULL, NULL, NULL, &s), NRT_SUCCESS);
    ck_assert_uint_gt(s.differences, 0);
    ck_assert_uint_eq(s.field_count, 1);
    ck_assert_str_eq(s.fields[0].field, "timestamp_ns");
    ntsim_diff_summary_free(&s);
    for (size_t k = 0; k < 3; k++)
        ntsim_trace_free(t[k]);
    for (size_t k = 0; k < RUN_FILES; k++)
        free(bytes[k]);
}
END_TEST

Suite *make_diff_suite(void)
{
    Suite *s = suite_create("diff");
    TCase *tc = tcase_create("diff");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_diff_of_a_trace_with_itself_finds_nothing);
    tcase_add_test(tc, test_diff_names_the_event_and_the_field_that_changed);
    tcase_add_test(tc, test_diff_names_an_event_type_that_changed);
    tcase_add_test(tc, test_diff_matches_by_type_phase_and_tracking_id_where_the_ids_differ);
    tcase_add_test(tc, test_diff_names_the_events_in_one_trace_only);
    tcase_add_test(tc, test_diff_ignores_fields_and_times_within_the_tolerance);
    tcase_add_test(tc, test_diff_of_one_runs_files_in_three_formats_finds_nothing);
    suite_add_tcase(s, tc);
    return s;
}
