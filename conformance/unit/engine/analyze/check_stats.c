/*
 * conformance/unit/engine/analyze/check_stats.c: ntsim stats (D-STATS) on a
 * trace whose every figure is worked out by hand below, through the public
 * API (ntsim/analyze.h) in memory and through a file (the read stage's scan).
 *
 * The trace S, in file order (DE: nc_exec_running, EP: kbl_exec_pre; t is
 * timestamp_ns; exec: the START payload's exec_id):
 *
 *   NC 0   id  type     phase  track  t      exec
 *          0   DE       START  10     1000   7
 *          1   EP       START  20     1100   70
 *          2   EP       STOP   20     1400   70
 *          3   DE       STOP   10     3000
 *          4   DE       START  11     2500   8
 *          5   DE       STOP   11     4000
 *              (ids 6 and 7 never come: lost 2)
 *          8   EP       START  20     5000   71
 *          9   EP       START  20     5100   72    the same key, nested
 *          10  EP       STOP   20     5200   72    closes the innermost: 9
 *          11  EP       STOP   20     5600   71    closes 8
 *          12  EP       STOP   21     5700         nothing open: unmatched STOP
 *          13  EP       START  22     5800   73    never closed: unmatched START
 *          14  DE       START  12     6000   9
 *          15  DE       STOP   12     5900         before its START: duration 0
 *          16  GENERIC  INST   0      6100
 *   NC 1   0   DE       START  10     500    3     the same tracking id as NC 0's:
 *          1   DE       STOP   10     2500         another key (the NC is in it)
 *          3   GENERIC  INST   0      2600         ids out of order, then a
 *          2   GENERIC  INST   0      2700         repeat: nothing lost
 *          1   GENERIC  INST   0      2800
 *          4   type 50  START  1      100          past the table: "unknown"
 *          5   type 50  STOP   1      160
 *          6   DE       START  13     600    4     inside nc1/10's span: the
 *          7   DE       STOP   13     700          union does not grow
 *   NC 300 5   GENERIC  INST   0      7000         past 255: no push sequence,
 *                                                   nothing lost (D-TIMELINE-ORDER)
 *
 * Spans (duration = STOP - START): DE nc0/10 2000 (start 1000, exec 7); EP
 * nc0/20 300 (1100, exec 70); DE nc0/11 1500 (2500, exec 8); EP 100 (5100,
 * exec 72); EP 600 (5000, exec 71); DE nc0/12 0 (6000, exec 9); DE nc1/10
 * 2000 (500, exec 3); unknown nc1/1 60 (100, no exec_id: its payload has
 * none); DE nc1/13 100 (600, exec 4).
 *
 * Per type, in enum order:
 *   generic (0): events 1 + 3 + 1 = 5, no spans.
 *   nc_exec_running (7): events 6 + 4 = 10; spans 5; durations sorted
 *     0, 100, 1500, 2000, 2000: min 0; p50 the ceil(0.5*5) = 3rd, 1500; p90
 *     ceil(4.5) = 5th, 2000; p99 ceil(4.95) = 5th, 2000; max 2000; total 5600.
 *   kbl_exec_pre (17): events 8 (ids 1, 2, 8-13); STARTs 4 (1, 8, 9, 13),
 *     spans 3, unmatched 1 START and 1 STOP; durations 100, 300, 600: p50
 *     ceil(1.5) = 2nd, 300; p90 ceil(2.7) = 3rd, 600; p99 3rd, 600; total 1000.
 *   unknown (46): events 2, spans 1: every figure 60.
 * Events 15 + 9 + 1 = 25.
 *
 * The 9 slowest (duration, then start, then trace order): 2000 at 500 (nc 1,
 * 10, exec 3); 2000 at 1000 (nc 0, 10, exec 7); 1500 (nc 0, 11, exec 8); 600
 * (EP 20, exec 71); 300 (EP 20, exec 70); 100 at 600 (DE nc 1, 13, exec 4);
 * 100 at 5100 (EP 20, exec 72); 60 (unknown, nc 1, 1, no exec_id); 0 (nc 0,
 * 12, exec 9). With --top 3, the first three.
 *
 * Per NC: 0: events 15, lost 2, busy the union of [1000,3000], [2500,4000],
 * [6000,6000] = 3000; 1: events 9, lost 0 (ids 0-7 all seen), busy [500,2500]
 * (which holds [600,700]) = 2000; 300: events 1, lost 0, busy 0.
 */
#define _GNU_SOURCE /* open_memstream, mkstemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc_probe.h"
#include "check_analyze.h"
#include "check_suites.h"
#include "ntsim/analyze.h"
#include "ntsim/convert.h"

/* Trace S (the table above), into out[]; returns its length. */
static size_t trace_s(nrt_sys_trace_event_t *out)
{
    const nrt_sys_trace_event_t s[] = {
        rec(TY(DEVICE_EXEC), S, 0, 0, 10, 1000, 7),  rec(TY(EXEC_PRE), S, 0, 1, 20, 1100, 70),
        rec(TY(EXEC_PRE), P, 0, 2, 20, 1400, 70),    rec(TY(DEVICE_EXEC), P, 0, 3, 10, 3000, 0),
        rec(TY(DEVICE_EXEC), S, 0, 4, 11, 2500, 8),  rec(TY(DEVICE_EXEC), P, 0, 5, 11, 4000, 0),
        rec(TY(EXEC_PRE), S, 0, 8, 20, 5000, 71),    rec(TY(EXEC_PRE), S, 0, 9, 20, 5100, 72),
        rec(TY(EXEC_PRE), P, 0, 10, 20, 5200, 72),   rec(TY(EXEC_PRE), P, 0, 11, 20, 5600, 71),
        rec(TY(EXEC_PRE), P, 0, 12, 21, 5700, 0),    rec(TY(EXEC_PRE), S, 0, 13, 22, 5800, 73),
        rec(TY(DEVICE_EXEC), S, 0, 14, 12, 6000, 9), rec(TY(DEVICE_EXEC), P, 0, 15, 12, 5900, 0),
        rec(TY(GENERIC), I, 0, 16, 0, 6100, 0),      rec(TY(DEVICE_EXEC), S, 1, 0, 10, 500, 3),
        rec(TY(DEVICE_EXEC), P, 1, 1, 10, 2500, 0),  rec(TY(GENERIC), I, 1, 3, 0, 2600, 0),
        rec(TY(GENERIC), I, 1, 2, 0, 2700, 0),       rec(TY(GENERIC), I, 1, 1, 0, 2800, 0),
        rec(50, S, 1, 4, 1, 100, 0),                 rec(50, P, 1, 5, 1, 160, 0),
        rec(TY(DEVICE_EXEC), S, 1, 6, 13, 600, 4),   rec(TY(DEVICE_EXEC), P, 1, 7, 13, 700, 0),
        rec(TY(GENERIC), I, 300, 5, 0, 7000, 0),
    };
    memcpy(out, s, sizeof s);
    return sizeof s / sizeof s[0];
}

/* The document of S with `top` slowest, by hand from the comment above. */
static const char *const doc_s_head =
    "{\"events\":25,\"types\":[\n"
    "{\"type\":\"generic\",\"events\":5,\"spans\":0,\"unmatched_start\":0,\"unmatched_stop\":0,"
    "\"duration_ns\":null},\n"
    "{\"type\":\"nc_exec_running\",\"events\":10,\"spans\":5,\"unmatched_start\":0,"
    "\"unmatched_stop\":0,\"duration_ns\":{\"min\":0,\"p50\":1500,\"p90\":2000,\"p99\":2000,"
    "\"max\":2000,\"total\":5600}},\n"
    "{\"type\":\"kbl_exec_pre\",\"events\":8,\"spans\":3,\"unmatched_start\":1,"
    "\"unmatched_stop\":1,\"duration_ns\":{\"min\":100,\"p50\":300,\"p90\":600,\"p99\":600,"
    "\"max\":600,\"total\":1000}},\n"
    "{\"type\":\"unknown\",\"events\":2,\"spans\":1,\"unmatched_start\":0,\"unmatched_stop\":0,"
    "\"duration_ns\":{\"min\":60,\"p50\":60,\"p90\":60,\"p99\":60,\"max\":60,\"total\":60}}\n"
    "],\"slowest\":[\n"
    "{\"type\":\"nc_exec_running\",\"nc_idx\":1,\"tracking_id\":10,\"exec_id\":3,"
    "\"start_ns\":500,\"duration_ns\":2000},\n"
    "{\"type\":\"nc_exec_running\",\"nc_idx\":0,\"tracking_id\":10,\"exec_id\":7,"
    "\"start_ns\":1000,\"duration_ns\":2000},\n"
    "{\"type\":\"nc_exec_running\",\"nc_idx\":0,\"tracking_id\":11,\"exec_id\":8,"
    "\"start_ns\":2500,\"duration_ns\":1500}";
static const char *const doc_s_rest_of_9 =
    ",\n"
    "{\"type\":\"kbl_exec_pre\",\"nc_idx\":0,\"tracking_id\":20,\"exec_id\":71,"
    "\"start_ns\":5000,\"duration_ns\":600},\n"
    "{\"type\":\"kbl_exec_pre\",\"nc_idx\":0,\"tracking_id\":20,\"exec_id\":70,"
    "\"start_ns\":1100,\"duration_ns\":300},\n"
    "{\"type\":\"nc_exec_running\",\"nc_idx\":1,\"tracking_id\":13,\"exec_id\":4,"
    "\"start_ns\":600,\"duration_ns\":100},\n"
    "{\"type\":\"kbl_exec_pre\",\"nc_idx\":0,\"tracking_id\":20,\"exec_id\":72,"
    "\"start_ns\":5100,\"duration_ns\":100},\n"
    "{\"type\":\"unknown\",\"nc_idx\":1,\"tracking_id\":1,\"start_ns\":100,\"duration_ns\":60},\n"
    "{\"type\":\"nc_exec_running\",\"nc_idx\":0,\"tracking_id\":12,\"exec_id\":9,"
    "\"start_ns\":6000,\"duration_ns\":0}";
static const char *const doc_s_tail =
    "\n],\"ncs\":[\n"
    "{\"nc_idx\":0,\"events\":15,\"lost\":2,\"busy_ns\":3000},\n"
    "{\"nc_idx\":1,\"events\":9,\"lost\":0,\"busy_ns\":2000},\n"
    "{\"nc_idx\":300,\"events\":1,\"lost\":0,\"busy_ns\":0}\n"
    "]}\n";

static char *json_of(const ntsim_stats_report_t *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(ntsim_stats_write_json(r, f), NRT_SUCCESS);
    ck_assert_int_eq(fclose(f), 0);
    return text;
}

static void assert_doc(const ntsim_stats_report_t *r, bool all_nine)
{
    char want[4096];
    snprintf(want, sizeof want, "%s%s%s", doc_s_head, all_nine ? doc_s_rest_of_9 : "",
             doc_s_tail);
    char *got = json_of(r);
    ck_assert_str_eq(got, want);
    free(got);
}

START_TEST(test_stats_of_a_hand_made_trace_are_the_figures_worked_out_by_hand)
{
    nrt_sys_trace_event_t s[32];
    size_t n = trace_s(s);
    ntsim_stats_t *st;
    ck_assert_int_eq(ntsim_stats_create(9, &st), NRT_SUCCESS);
    /* in two batches: a span may open in one and close in the next */
    ck_assert_int_eq(ntsim_stats_add(st, s, 3), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_stats_add(st, s + 3, n - 3), NRT_SUCCESS);
    ntsim_stats_report_t *r;
    ck_assert_int_eq(ntsim_stats_report(st, &r), NRT_SUCCESS);
    assert_doc(r, true);
    ck_assert_uint_eq(r->nc_count, 3);
    ck_assert_uint_eq(r->ncs[0].busy_ns, 3000);
    ntsim_stats_report_free(r);
    ntsim_stats_free(st);
}
END_TEST

START_TEST(test_stats_keep_only_the_top_slowest)
{
    nrt_sys_trace_event_t s[32];
    size_t n = trace_s(s);
    ntsim_stats_t *st;
    ck_assert_int_eq(ntsim_stats_create(3, &st), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_stats_add(st, s, n), NRT_SUCCESS);
    ntsim_stats_report_t *r;
    ck_assert_int_eq(ntsim_stats_report(st, &r), NRT_SUCCESS);
    assert_doc(r, false);
    ntsim_stats_report_free(r);
    /* top 0: no slowest at all, the rest the same */
    ntsim_stats_free(st);
    ck_assert_int_eq(ntsim_stats_create(0, &st), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_stats_add(st, s, n), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_stats_report(st, &r), NRT_SUCCESS);
    ck_assert_uint_eq(r->slowest_count, 0);
    char *got = json_of(r);
    ck_assert_ptr_nonnull(strstr(got, "],\"slowest\":[],\"ncs\":[\n"));
    free(got);
    ntsim_stats_report_free(r);
    ntsim_stats_free(st);
}
END_TEST

START_TEST(test_stats_of_a_file_are_those_of_its_records)
{
    nrt_sys_trace_event_t s[32];
    size_t n = trace_s(s);
    char path[] = "/tmp/ntsim_stats_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, s, n * sizeof *s), (ssize_t)(n * sizeof *s));
    ck_assert_int_eq(close(fd), 0);
    ntsim_stats_report_t *r;
    char err[256];
    ck_assert_int_eq(ntsim_stats_file(path, NULL, 9, &r, err, sizeof err), NRT_SUCCESS);
    assert_doc(r, true);
    ntsim_stats_report_free(r);
    /* a limit below its events: refused, named */
    ntsim_read_limits_t few = {NTSIM_READ_MAX_BYTES, 24};
    ck_assert_int_eq(ntsim_stats_file(path, &few, 8, &r, err, sizeof err), NRT_INVALID);
    ck_assert_ptr_null(r);
    ck_assert_ptr_nonnull(strstr(err, "more than 24 events"));
    unlink(path);
}
END_TEST

/* A trace longer than a scan's batch: a span opened in one batch and
 * closed in the next, and every NC's ids in order across batches. n/2
 * kbl_exec_pre spans on NC 0 of lengths 1..n/2 ns, one key each, as a
 * record dump, a fetch document and an NTFF file: each read whole gives
 * every record, and each scanned gives the same figures. */
START_TEST(test_stats_pair_across_the_scan_batches)
{
    const size_t spans = NTSIM_READ_BATCH + 7, n = 2 * spans;
    nrt_sys_trace_event_t *s = calloc(n, sizeof *s);
    ck_assert_ptr_nonnull(s);
    for (size_t k = 0; k < spans; k++) {
        s[2 * k] = rec(TY(EXEC_PRE), S, 0, 2 * k, k + 1, 10 * k, 0);
        s[2 * k + 1] = rec(TY(EXEC_PRE), P, 0, 2 * k + 1, k + 1, 10 * k + k + 1, 0);
    }
    char *json;
    uint8_t *ntff;
    size_t jlen, nlen;
    ck_assert_int_eq(ntsim_json_serialize(s, n, &json, &jlen), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_ntff_serialize(s, n, NULL, 0, NULL, &ntff, &nlen), NRT_SUCCESS);
    const void *bytes[3] = {s, json, ntff};
    const size_t lens[3] = {n * sizeof *s, jlen, nlen};
    for (int k = 0; k < 3; k++) {
        char path[] = "/tmp/ntsim_stats_XXXXXX", err[256];
        int fd = mkstemp(path);
        ck_assert_int_ge(fd, 0);
        ck_assert_int_eq(write(fd, bytes[k], lens[k]), (ssize_t)lens[k]);
        ck_assert_int_eq(close(fd), 0);
        ntsim_trace_t *t;
        ck_assert_int_eq(ntsim_trace_read_file(path, NULL, &t, err, sizeof err), NRT_SUCCESS);
        ck_assert_uint_eq(t->event_count, n);
        ck_assert_uint_eq(t->events[n - 1].tracking_id, spans);
        ck_assert_uint_eq(t->events[n - 1].timestamp_ns, s[n - 1].timestamp_ns);
        ntsim_trace_free(t);
        ntsim_stats_report_t *r;
        ck_assert_int_eq(ntsim_stats_file(path, NULL, 1, &r, err, sizeof err), NRT_SUCCESS);
        unlink(path);
        ck_assert_uint_eq(r->events, n);
        ck_assert_uint_eq(r->type_count, 1);
        const ntsim_stats_type_t *ty = &r->types[0];
        /* durations 1..m, m = 4103: p50 the ceil(m/2) = 2052nd, p90 the
         * ceil(3692.7) = 3693rd, p99 the ceil(4061.97) = 4062nd; total m(m+1)/2 */
        ck_assert_uint_eq(ty->spans, spans);
        ck_assert_uint_eq(ty->unmatched_start + ty->unmatched_stop, 0);
        ck_assert_uint_eq(ty->duration_ns.min, 1);
        ck_assert_uint_eq(ty->duration_ns.p50, 2052);
        ck_assert_uint_eq(ty->duration_ns.p90, 3693);
        ck_assert_uint_eq(ty->duration_ns.p99, 4062);
        ck_assert_uint_eq(ty->duration_ns.max, spans);
        ck_assert_uint_eq(ty->duration_ns.total, (uint64_t)spans * (spans + 1) / 2);
        ck_assert_uint_eq(r->slowest_count, 1);
        ck_assert_uint_eq(r->slowest[0].duration_ns, spans);
        ck_assert_uint_eq(r->slowest[0].exec_id, 0);
        ck_assert_uint_eq(r->ncs[0].lost, 0);
        ntsim_stats_report_free(r);
    }
    nrt_sys_trace_buffer_free(json);
    ntsim_buffer_free(ntff);
    free(s);
}
END_TEST

static int cmp_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return (a > b) - (a < b);
}

/* The percentiles are selected, not sorted (D-STATS): against a sort, for
 * every n up to 300 and values drawn from 4 shapes (random, few distinct,
 * ascending, descending), each pQ the ceil(Q n / 100)-th smallest. */
START_TEST(test_stats_percentiles_are_the_nearest_ranks_of_a_sort)
{
    nrt_sys_trace_event_t *s = calloc(600, sizeof *s);
    uint64_t d[300], x = 88172645463325252u;
    ck_assert_ptr_nonnull(s);
    for (int shape = 0; shape < 4; shape++)
        for (size_t n = 1; n <= 300; n++) {
            for (size_t k = 0; k < n; k++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift64 */
                d[k] = shape == 0 ? x % 1000000 : shape == 1 ? x % 4 : shape == 2 ? k : n - k;
                s[2 * k] = rec(TY(EXEC_PRE), S, 0, 2 * k, k + 1, 1000, 0);
                s[2 * k + 1] = rec(TY(EXEC_PRE), P, 0, 2 * k + 1, k + 1, 1000 + d[k], 0);
            }
            ntsim_stats_t *st;
            ntsim_stats_report_t *r;
            ck_assert_int_eq(ntsim_stats_create(0, &st), NRT_SUCCESS);
            ck_assert_int_eq(ntsim_stats_add(st, s, 2 * n), NRT_SUCCESS);
            ck_assert_int_eq(ntsim_stats_report(st, &r), NRT_SUCCESS);
            qsort(d, n, sizeof *d, cmp_u64);
            const ntsim_stats_durations_t *got = &r->types[0].duration_ns;
            ck_assert_uint_eq(got->min, d[0]);
            ck_assert_uint_eq(got->p50, d[(50 * n + 99) / 100 - 1]);
            ck_assert_uint_eq(got->p90, d[(90 * n + 99) / 100 - 1]);
            ck_assert_uint_eq(got->p99, d[(99 * n + 99) / 100 - 1]);
            ck_assert_uint_eq(got->max, d[n - 1]);
            ntsim_stats_report_free(r);
            ntsim_stats_free(st);
        }
    free(s);
}
END_TEST

/* The lost ids of an NC whatever the order its records come in (a file may
 * hold an NC's records in any order, repeats included): against a bitmap,
 * the ids missing below the highest, for 300 draws of 1..40 ids from 0..63;
 * and 100 NCs, each one record, each its own NC, ascending in the report;
 * and 33 NCs whose indexes are equal in their low 7 bits, each its own. */
START_TEST(test_stats_count_lost_ids_in_any_order_and_many_ncs)
{
    nrt_sys_trace_event_t s[128];
    uint64_t x = 0x9E3779B97F4A7C15u;
    for (int draw = 0; draw < 300; draw++) {
        bool seen[64] = {false};
        size_t n = (size_t)(draw % 40) + 1;
        uint64_t top = 0;
        for (size_t k = 0; k < n; k++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift64 */
            uint64_t id = x % 64;
            seen[id] = true;
            top = id > top ? id : top;
            s[k] = rec(TY(GENERIC), I, 3, id, 0, 1000 + k, 0);
        }
        uint64_t lost = 0;
        for (uint64_t id = 0; id < top; id++)
            lost += !seen[id];
        ntsim_stats_t *st;
        ntsim_stats_report_t *r;
        ck_assert_int_eq(ntsim_stats_create(0, &st), NRT_SUCCESS);
        ck_assert_int_eq(ntsim_stats_add(st, s, n), NRT_SUCCESS);
        ck_assert_int_eq(ntsim_stats_report(st, &r), NRT_SUCCESS);
        ck_assert_uint_eq(r->nc_count, 1);
        ck_assert_msg(r->ncs[0].lost == lost, "draw %d: lost %llu, want %llu", draw,
                      (unsigned long long)r->ncs[0].lost, (unsigned long long)lost);
        ntsim_stats_report_free(r);
        ntsim_stats_free(st);
    }
    for (uint32_t nc = 0; nc < 100; nc++) /* in descending order */
        s[nc] = rec(TY(GENERIC), I, 99 - nc, 0, 0, 1000 + nc, 0);
    ntsim_stats_t *st;
    ntsim_stats_report_t *r;
    ck_assert_int_eq(ntsim_stats_create(0, &st), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_stats_add(st, s, 100), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_stats_add(st, s, 100), NRT_SUCCESS); /* each NC again */
    ck_assert_int_eq(ntsim_stats_report(st, &r), NRT_SUCCESS);
    ck_assert_uint_eq(r->nc_count, 100);
    for (uint32_t i = 0; i < 100; i++) {
        ck_assert_uint_eq(r->ncs[i].nc_idx, i);
        ck_assert_uint_eq(r->ncs[i].events, 2);
        ck_assert_uint_eq(r->ncs[i].lost, 0);
    }
    ntsim_stats_report_free(r);
    ntsim_stats_free(st);
    /* 33 NCs 128 apart (0, 128, ..., 4096), twice over: NC indexes equal in
     * their low bits, past the 32 an NC index first holds; each NC once */
    for (uint32_t k = 0; k < 66; k++)
        s[k] = rec(TY(GENERIC), I, 128 * (k % 33), k / 33, 0, 1000 + k, 0);
    ck_assert_int_eq(ntsim_stats_create(0, &st), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_stats_add(st, s, 66), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_stats_report(st, &r), NRT_SUCCESS);
    ck_assert_uint_eq(r->nc_count, 33);
    for (uint32_t i = 0; i < 33; i++) {
        ck_assert_uint_eq(r->ncs[i].nc_idx, 128 * i);
        ck_assert_uint_eq(r->ncs[i].events, 2);
    }
    ntsim_stats_report_free(r);
    ntsim_stats_free(st);
}
END_TEST

/* The report of n records added at once with the `top` slowest kept (the
 * report outlives the stats it came from). */
static ntsim_stats_report_t *report_of(size_t top, const nrt_sys_trace_event_t *s, size_t n)
{
    ntsim_stats_t *st;
    ntsim_stats_report_t *r;
    ck_assert_int_eq(ntsim_stats_create(top, &st), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_stats_add(st, s, n), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_stats_report(st, &r), NRT_SUCCESS);
    ntsim_stats_free(st);
    return r;
}

/* The slowest kept whatever order the spans close in: top 3 of kbl_exec_pre
 * spans of durations 10, 30, 20, 40, 25 (in that order, one key each): 40,
 * 30, 25. (After 10, 30, 20 the least slow of the three is 10; 40 pushes it
 * out, and then 20 is the least slow, which 25 pushes out.) */
START_TEST(test_stats_keep_the_slowest_whatever_order_they_close_in)
{
    static const uint64_t d[] = {10, 30, 20, 40, 25};
    nrt_sys_trace_event_t s[10];
    for (size_t k = 0; k < 5; k++) {
        s[2 * k] = rec(TY(EXEC_PRE), S, 0, 2 * k, k + 1, 1000 * k, 0);
        s[2 * k + 1] = rec(TY(EXEC_PRE), P, 0, 2 * k + 1, k + 1, 1000 * k + d[k], 0);
    }
    ntsim_stats_report_t *r = report_of(3, s, 10);
    ck_assert_uint_eq(r->slowest_count, 3);
    ck_assert_uint_eq(r->slowest[0].duration_ns, 40);
    ck_assert_uint_eq(r->slowest[1].duration_ns, 30);
    ck_assert_uint_eq(r->slowest[2].duration_ns, 25);
    ck_assert_uint_eq(r->slowest[2].tracking_id, 5);
    ntsim_stats_report_free(r);
}
END_TEST

/* Busy time when a span closes before one that started earlier: NC 0's
 * nc_exec_running spans [1000, 5000] (tracking 1) and [2000, 3000]
 * (tracking 2, closed first): the union is [1000, 5000], 4000. */
START_TEST(test_stats_busy_time_is_the_union_of_spans_closed_out_of_order)
{
    const nrt_sys_trace_event_t s[] = {
        rec(TY(DEVICE_EXEC), S, 0, 0, 1, 1000, 1), rec(TY(DEVICE_EXEC), S, 0, 1, 2, 2000, 2),
        rec(TY(DEVICE_EXEC), P, 0, 2, 2, 3000, 0), rec(TY(DEVICE_EXEC), P, 0, 3, 1, 5000, 0),
    };
    ntsim_stats_report_t *r = report_of(0, s, 4);
    ck_assert_uint_eq(r->nc_count, 1);
    ck_assert_uint_eq(r->ncs[0].busy_ns, 4000);
    ntsim_stats_report_free(r);
}
END_TEST

START_TEST(test_stats_refuse_bad_arguments_and_report_no_memory)
{
    ntsim_stats_t *st;
    ck_assert_int_eq(ntsim_stats_create(NTSIM_STATS_TOP_MAX + 1, &st), NRT_INVALID);
    ck_assert_int_eq(ntsim_stats_create(1, NULL), NRT_INVALID);
    ck_assert_int_eq(ntsim_stats_add(NULL, NULL, 0), NRT_INVALID);
    ck_assert_int_eq(ntsim_stats_report(NULL, NULL), NRT_INVALID);
    ck_assert_int_eq(ntsim_stats_write_json(NULL, stdout), NRT_INVALID);
    ntsim_stats_free(NULL);
    ntsim_stats_report_free(NULL);
    /* the k-th allocation refused, for every k: NRT_RESOURCE and nothing
     * held, never a wrong report; then one with room enough */
    nrt_sys_trace_event_t s[32];
    size_t n = trace_s(s);
    for (uint64_t allow = 0;; allow++) {
        ntsim_probe_begin(allow);
        ntsim_stats_report_t *r = NULL;
        NRT_STATUS got = ntsim_stats_create(9, &st);
        if (got == NRT_SUCCESS) {
            got = ntsim_stats_add(st, s, n);
            if (got == NRT_SUCCESS)
                got = ntsim_stats_report(st, &r);
            ntsim_stats_free(st);
        }
        uint64_t refused = ntsim_probe.refused;
        if (refused == 0) {
            ck_assert_int_eq(got, NRT_SUCCESS);
            ntsim_probe_end();
            assert_doc(r, true);
            ntsim_stats_report_free(r);
            break;
        }
        ck_assert_int_eq(got, NRT_RESOURCE);
        ck_assert_ptr_null(r);
        ck_assert_uint_eq(ntsim_probe.live, 0);
        ntsim_probe_end();
    }
}
END_TEST

Suite *make_stats_suite(void)
{
    Suite *s = suite_create("stats");
    TCase *tc = tcase_create("stats");
    tcase_add_test(tc, test_stats_of_a_hand_made_trace_are_the_figures_worked_out_by_hand);
    tcase_add_test(tc, test_stats_keep_only_the_top_slowest);
    tcase_add_test(tc, test_stats_of_a_file_are_those_of_its_records);
    tcase_add_test(tc, test_stats_pair_across_the_scan_batches);
    tcase_add_test(tc, test_stats_percentiles_are_the_nearest_ranks_of_a_sort);
    tcase_add_test(tc, test_stats_count_lost_ids_in_any_order_and_many_ncs);
    tcase_add_test(tc, test_stats_keep_the_slowest_whatever_order_they_close_in);
    tcase_add_test(tc, test_stats_busy_time_is_the_union_of_spans_closed_out_of_order);
    tcase_add_test(tc, test_stats_refuse_bad_arguments_and_report_no_memory);
    suite_add_tcase(s, tc);
    return s;
}
