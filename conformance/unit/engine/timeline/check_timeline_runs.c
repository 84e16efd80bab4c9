/*
 * conformance/unit/engine/timeline/check_timeline_runs.c: the timelines of whole
 * simulator runs and of traces read back (ntsim/read.h, engine/read/):
 * device spans inside their nrt_execute, the clock alignment against the
 * simulator's own host times (which the fit never sees when they are
 * stripped), the fetch document and NTFF read back into the same timeline,
 * and bad or hostile input. make interop checks the same files with protoc
 * and DevTools' trace engine.
 */
#include <stdio.h>

#include "check_timeline.h"
#include "data_view.h"
#include "event_table.h"
#include "scenario_load.h"
#include "sim.h"
#include "sim_run.h"
#include "ntsim/read.h"

/* --- whole runs: alignment, flows, reading traces back ----------------------------- */

/* A run with its records kept and its trace.json and trace.ntff in memory. */
typedef struct sim_run {
    ntsim_scenario_t sc;
    ntsim_run_result_t res;
    ntsim_run_keep_t keep;
    const nrt_sys_trace_event_t *records;
    size_t record_count;
    char *json, *ntff;
    size_t json_len, ntff_len;
} sim_run_t;

/* A shipped scenario by name (found from the program's own path), or the
 * built-in default (NULL). */
static sim_run_t *run_scenario(const char *name)
{
    sim_run_t *r = calloc(1, sizeof *r);
    ck_assert_ptr_nonnull(r);
    if (name == NULL) {
        ntsim_scenario_default(&r->sc);
    } else {
        char err[4096];
        ntsim_errors_t lookup;
        ntsim_errors_init(&lookup);
        char *path = ntsim_scenario_find(name, &lookup);
        ck_assert_msg(path != NULL, "%s", lookup.count ? lookup.items[0] : "out of memory");
        ntsim_errors_free(&lookup);
        NRT_STATUS st = ntsim_scenario_load(path, &r->sc, err, sizeof err);
        free(path);
        ck_assert_msg(st == NRT_SUCCESS, "%s", err);
    }
    FILE *json = open_memstream(&r->json, &r->json_len);
    FILE *ntff = open_memstream(&r->ntff, &r->ntff_len);
    ck_assert(json != NULL && ntff != NULL);
    r->keep.max = SIZE_MAX;
    ntsim_run_io_t io = {{json, ntff, NULL, NULL, true}, NULL, &r->keep, NULL, NULL, NULL, 0};
    ntsim_outputs_t o;
    ck_assert_int_eq(ntsim_run_scenario(&r->sc, &io, &r->res, &o), NRT_SUCCESS);
    ck_assert_int_eq(fclose(json), 0);
    ck_assert_int_eq(fclose(ntff), 0);
    ck_assert_uint_eq(r->keep.count, r->res.record_count);
    r->records = r->keep.records;
    r->record_count = r->keep.count;
    return r;
}

static void free_run(sim_run_t *r)
{
    free(r->keep.records);
    free(r->json);
    free(r->ntff);
    free(r);
}

/* The host time the simulator read with a device record's own device time:
 * the truth the aligned time must come back to. */
static bool true_host_time(const nrt_sys_trace_event_t *e, uint64_t *cpu)
{
    const ntsim_data_view_t *v = ntsim__data_view((uint32_t)e->trace_type, (uint32_t)e->phase);
    if (!v->nc_timestamp)
        return false;
    *cpu = ntsim__data_field(&e->data, v->cpu_timestamp_offset, 8, false);
    return true;
}

START_TEST(test_default_run_device_spans_lie_inside_their_nrt_execute)
{
    sim_run_t *r = run_scenario(NULL);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r->records, r->record_count, NULL, &tl), NRT_SUCCESS);
    size_t device_exec = 0, checked = 0;
    for (size_t i = 0; i < tl.nitems; i++)
        device_exec += tl.items[i].type == TY(DEVICE_EXEC) && (tl.items[i].flags & NTSIM_TL_SPAN);
    ck_assert_uint_gt(device_exec, 0);
    for (size_t f = 0; f < tl.nflows; f++) {
        const ntsim_tl_item_t *host = &tl.items[tl.flows[f].from];
        const ntsim_tl_item_t *dev = &tl.items[tl.flows[f].to];
        ck_assert_uint_eq(host->type, TY(EXECUTE_API));
        ck_assert(dev->flags & NTSIM_TL_DEVICE);
        ck_assert(!(dev->flags & NTSIM_TL_UNALIGNED));
        ck_assert_msg(host->begin <= dev->begin && dev->end <= host->end,
                      "%s [%llu, %llu] is not inside its nrt_execute [%llu, %llu]",
                      ntsim__timeline_name(dev->type), (unsigned long long)(dev->begin - T0),
                      (unsigned long long)(dev->end - T0), (unsigned long long)(host->begin - T0),
                      (unsigned long long)(host->end - T0));
        checked += dev->type == TY(DEVICE_EXEC);
    }
    /* Every nc_exec_running has its flow: one per execute. */
    ck_assert_uint_eq(checked, device_exec);
    ck_assert_uint_eq(device_exec, r->res.executes);
    ntsim__timeline_free(&tl);
    free_run(r);
}
END_TEST

/* The largest |aligned - host| over every device time of the run, in ns. */
static double worst_alignment(const nrt_sys_trace_event_t *truth, const ntsim_timeline_t *tl,
                              size_t *count)
{
    double worst = 0;
    *count = 0;
    for (size_t i = 0; i < tl->nitems; i++) {
        const ntsim_tl_item_t *it = &tl->items[i];
        size_t recs[2] = {it->rec, it->stop};
        uint64_t got[2] = {it->begin, it->end};
        for (int k = 0; k < 2; k++) {
            uint64_t cpu;
            if (!(it->flags & NTSIM_TL_DEVICE) || recs[k] == NTSIM_TL_NONE ||
                !true_host_time(&truth[recs[k]], &cpu))
                continue;
            double d = (double)(int64_t)(got[k] - cpu);
            d = d < 0 ? -d : d;
            worst = d > worst ? d : worst;
            (*count)++;
        }
    }
    return worst;
}

START_TEST(test_clock_drift_scenario_aligns_every_nc_within_a_microsecond)
{
    sim_run_t *r = run_scenario("clock_drift");
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r->records, r->record_count, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nclocks, 4);
    size_t n;
    double worst = worst_alignment(r->records, &tl, &n);
    ntsim__timeline_free(&tl);
    /* Now without the host halves of the device pairs (as NTFF keeps them):
     * only TIMESTAMP_SYNC's pairs feed the fit, every other device time is
     * moved by the fitted line alone, drift included. */
    nrt_sys_trace_event_t *stripped = malloc(r->record_count * sizeof *stripped);
    ck_assert_ptr_nonnull(stripped);
    memcpy(stripped, r->records, r->record_count * sizeof *stripped);
    for (size_t i = 0; i < r->record_count; i++) {
        const ntsim_data_view_t *v =
            ntsim__data_view((uint32_t)stripped[i].trace_type, (uint32_t)stripped[i].phase);
        if (v->nc_timestamp && stripped[i].trace_type != TY(TIMESTAMP_SYNC))
            memset((unsigned char *)&stripped[i].data + v->cpu_timestamp_offset, 0, 8);
    }
    ck_assert_int_eq(ntsim__timeline_build(stripped, r->record_count, NULL, &tl), NRT_SUCCESS);
    size_t m;
    double worst_fit = worst_alignment(r->records, &tl, &m);
    ck_assert_uint_eq(tl.stats.unaligned, 0);
    printf("clock_drift: aligned device times vs the host: worst %.0f ns over %zu (all pairs), "
           "%.0f ns over %zu (TIMESTAMP_SYNC pairs only), 4 NCs\n",
           worst, n, worst_fit, m);
    ck_assert_uint_gt(n, 1000);
    ck_assert_msg(worst < 1000.0, "worst %f ns", worst);
    ck_assert_msg(worst_fit < 1000.0, "worst %f ns", worst_fit);
    /* Without the drift term the 250 ppm NC would be off by far more than
     * that over 50 ms: the fit's drift is what keeps it within 1 us. */
    for (size_t c = 0; c < tl.nclocks; c++)
        if (tl.clocks[c].nc == 2)
            ck_assert_msg(tl.clocks[c].b * 1e6 < -249.9 && tl.clocks[c].b * 1e6 > -250.1,
                          "nc 2 drift %f ppm", tl.clocks[c].b * 1e6);
    ntsim__timeline_free(&tl);
    free(stripped);
    free_run(r);
}
END_TEST

START_TEST(test_timeline_clock_fit_matches_the_simulators)
{
    sim_run_t *r = run_scenario("clock_drift");
    const ntsim_scenario_t *sc = &r->sc;
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r->records, r->record_count, NULL, &tl), NRT_SUCCESS);
    for (size_t c = 0; c < tl.nclocks; c++) {
        const ntsim_tl_clock_t *k = &tl.clocks[c];
        /* LNC 1: the NC's one physical core carries its clock. */
        const ntsim_skew_t *s = &r->res.skew[ntsim_phys_core(sc, k->nc, 0)];
        /* sim/clock.c: dev - cpu = offset + drift (cpu - start); ours about c0. */
        double offset = k->a - k->b * (double)(int64_t)(k->c0 - sc->host_start_ns);
        ck_assert_msg(offset - s->offset_ns < 1.0 && s->offset_ns - offset < 1.0,
                      "nc %u offset %f vs %f", k->nc, offset, s->offset_ns);
        ck_assert_msg(k->b * 1e6 - s->drift_ppm < 0.01 && s->drift_ppm - k->b * 1e6 < 0.01,
                      "nc %u drift %f vs %f", k->nc, k->b * 1e6, s->drift_ppm);
    }
    ntsim__timeline_free(&tl);
    free_run(r);
}
END_TEST

/* A run's trace.json and trace.ntff, read back, give the same timeline. */
START_TEST(test_fetch_document_and_ntff_read_back_into_the_same_timeline)
{
    sim_run_t *r = run_scenario(NULL);
    ntsim_timeline_stats_t want, got;
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r->records, r->record_count, NULL, &tl), NRT_SUCCESS);
    want = tl.stats;
    /* The fetch document's cc_exec_barrier START has no exec_id key (facts
     * §2), and NTFF's attributes are the same keys: those flows cannot be
     * drawn from a document, only from records. */
    uint64_t barrier_flows = 0;
    for (size_t f = 0; f < tl.nflows; f++)
        barrier_flows += tl.items[tl.flows[f].to].type == TY(CC_EXEC_BARRIER);
    ck_assert_uint_gt(barrier_flows, 0);
    ntsim__timeline_free(&tl);
    const struct {
        const char *kind;
        const char *data;
        size_t len;
    } files[] = {{"trace.json", r->json, r->json_len}, {"trace.ntff", r->ntff, r->ntff_len}};
    for (size_t f = 0; f < 2; f++) {
        ntsim_trace_t *t;
        char err[256] = "";
        ck_assert_msg(ntsim_trace_read(files[f].data, files[f].len, NULL, &t, err, sizeof err) ==
                          NRT_SUCCESS,
                      "%s: %s", files[f].kind, err);
        ck_assert_uint_eq(t->event_count, r->record_count);
        ck_assert_int_eq(ntsim_timeline_stats(t->events, t->event_count, NULL, &got), NRT_SUCCESS);
        ck_assert_uint_eq(got.spans, want.spans);
        ck_assert_uint_eq(got.instants, want.instants);
        ck_assert_uint_eq(got.flows, want.flows - barrier_flows);
        ck_assert_uint_eq(got.lanes, want.lanes);
        ck_assert_uint_eq(got.drops, 0);
        ck_assert_uint_eq(got.unaligned, 0);
        ck_assert_msg(got.max_residual_ns <= 1.0, "%s: residual %f", files[f].kind,
                      got.max_residual_ns);
        ntsim_trace_free(t);
    }
    free_run(r);
}
END_TEST

START_TEST(test_bad_trace_input_names_the_event_and_key)
{
    static const struct {
        const char *text, *want;
    } cases[] = {
        /* 11 characters: the value missing is the 12th. */
        {"{\"events\":[", "1:12: expected a value or ']', got the end of the input"},
        {"{\"events\":[{\"event_type\":\"nope\",\"phase\":\"start\"}]}",
         "events[0].event_type: \"nope\" is no event type"},
        {"{\"events\":[{\"event_type\":\"generic\",\"phase\":\"later\"}]}",
         "events[0].phase: not start, stop, instant or unknown"},
        {"{\"events\":[{\"event_type\":\"nrt_tensor_read\",\"phase\":\"start\",\"id\":0,"
         "\"nc_idx\":0,\"nc_local_id\":0,\"tracking_id\":1,\"thread_id\":2,\"timestamp_ns\":3,"
         "\"data\":{\"tensor_id\":\"x\",\"size\":4}}]}",
         "events[0].data.tensor_id: not a value of this key"},
        /* An event (field 1, 2 bytes) that is no ntrace_event: its one field, a
         * varint, does not end. */
        {"\x0a\x02\x08\xff", "events[0] (offset 0): not an ntrace_event"},
        {"0123456789", "offset 0: not a JSON fetch document, an NTFF ntrace_info or whole 112-byte "
                       "records"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ntsim_trace_t *t;
        char err[256] = "";
        ck_assert_int_eq(ntsim_trace_read(cases[i].text, strlen(cases[i].text), NULL, &t, err,
                                          sizeof err),
                         NRT_INVALID);
        ck_assert_msg(strncmp(err, cases[i].want, strlen(cases[i].want)) == 0,
                      "case %zu: got \"%s\", want \"%s...\"", i, err, cases[i].want);
        ck_assert_ptr_null(t);
    }
}
END_TEST

/* Found by make fuzz: sync pairs whose fitted slope is NaN (hostile records
 * of an exported dump) made the alignment convert NaN to an integer, which
 * is undefined (make asan's UBSan aborts on it). The slope is refused and the
 * aligned time clamped, so the timeline is built and every time is defined. */
START_TEST(test_hostile_sync_pairs_align_without_undefined_conversions)
{
    char path[1024], err[256] = "";
    snprintf(path, sizeof path, "%s/hostile/clock_nan_slope.records", ntsim_check_testdata_dir);
    ntsim_trace_t *t = NULL;
    ck_assert_msg(ntsim_trace_read_file(path, NULL, &t, err, sizeof err) == NRT_SUCCESS, "%s",
                  err);
    ck_assert_uint_eq(t->event_count, 100);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(t->events, t->event_count, NULL, &tl), NRT_SUCCESS);
    for (size_t k = 0; k < tl.nclocks; k++)
        ck_assert(tl.clocks[k].b >= -0.5 && tl.clocks[k].b < 1e9);
    ntsim__timeline_free(&tl);
    ntsim_trace_free(t);
}
END_TEST

Suite *make_timeline_runs_suite(void)
{
    Suite *s = suite_create("timeline_runs");
    TCase *tc = tcase_create("timeline_runs");
    tcase_add_checked_fixture(tc, host_setup, host_teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_hostile_sync_pairs_align_without_undefined_conversions);
    tcase_add_test(tc, test_default_run_device_spans_lie_inside_their_nrt_execute);
    tcase_add_test(tc, test_clock_drift_scenario_aligns_every_nc_within_a_microsecond);
    tcase_add_test(tc, test_timeline_clock_fit_matches_the_simulators);
    tcase_add_test(tc, test_fetch_document_and_ntff_read_back_into_the_same_timeline);
    tcase_add_test(tc, test_bad_trace_input_names_the_event_and_key);
    suite_add_tcase(s, tc);
    return s;
}
