/*
 * conformance/unit/engine/check_perfetto.c: the timelines (D-TIMELINE, D-PFTRACE,
 * D-PFTRACE-CLOCK, D-CHROME-JSON): span pairing and what is left unmatched,
 * losses, the .pftrace read back with protobuf-c, the Chrome JSON with
 * jansson, the HTML page, reading traces back, and the clock alignment on
 * whole runs. Expected values are worked out by hand in each test from the
 * records it builds, or are the simulator's own host times (which the fit
 * never sees when they are stripped). make interop checks the same files with
 * protoc and DevTools' trace engine.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "data_view.h"
#include "event_table.h"
#include "perfetto_trace.pb-c.h"
#include "scenario_load.h"
#include "sim.h"
#include "sim_run.h"
#include "timeline.h"
#include "trace_input.h"

#define TY(x) NRT_SYS_TRACE_EVENT_TYPE_##x
#define S NRT_SYS_TRACE_EVENT_PHASE_START
#define T NRT_SYS_TRACE_EVENT_PHASE_STOP
#define I NRT_SYS_TRACE_EVENT_PHASE_INSTANT
#define T0 UINT64_C(1700000000000000000)

static uint64_t g_seq; /* nc_local_id of the next rec(): from 0 in each test */

static void setup(void)
{
    ntsim_log_set_sink(ntsim_check_quiet_log, NULL);
    g_seq = 0;
}

static void teardown(void)
{
    ntsim_capture_shutdown();
    ntsim_log_set_sink(NULL, NULL);
}

/* A host record: thread 7, NC 0; nc_local_id counts the calls. */
static nrt_sys_trace_event_t rec(uint32_t type, uint32_t phase, uint64_t tracking, uint64_t t)
{
    nrt_sys_trace_event_t r;
    memset(&r, 0, sizeof r);
    r.trace_type = (nrt_sys_trace_event_type_t)type;
    r.phase = (nrt_sys_trace_event_phase_t)phase;
    r.tracking_id = tracking;
    r.timestamp_ns = t;
    r.thread_id = 7;
    r.nc_local_id = r.id = g_seq++;
    return r;
}

/* The records of test_pairing: worked out by hand below. */
static size_t pairing_records(nrt_sys_trace_event_t *r)
{
    size_t n = 0;
    r[n++] = rec(TY(EXEC_CORE), T, 9, T0 + 50);     /* a STOP with no START: unmatched */
    r[n++] = rec(TY(EXEC_PRE), S, 5, T0 + 100);     /* span A [100, 300] */
    r[n++] = rec(TY(EXEC_POST), S, 5, T0 + 150);    /* same tracking id, other type: B */
    r[n++] = rec(TY(EXEC_POST), T, 5, T0 + 200);    /* B [150, 200] */
    r[n++] = rec(TY(EXEC_PRE), T, 5, T0 + 300);     /* closes A */
    r[n++] = rec(TY(EXEC_WAIT), S, 11, T0 + 400);   /* a START with no STOP: unmatched */
    r[n++] = rec(TY(TENSOR_READ), S, 20, T0 + 500); /* C, reused key, outer */
    r[n++] = rec(TY(TENSOR_READ), S, 20, T0 + 510); /* D, inner */
    r[n++] = rec(TY(TENSOR_READ), T, 20, T0 + 520); /* closes D (innermost) */
    r[n++] = rec(TY(TENSOR_READ), T, 20, T0 + 600); /* closes C */
    r[n++] = rec(TY(MODEL_SUBMIT), I, 0, T0 + 550); /* an instant */
    return n;
}

START_TEST(test_timeline_pairs_by_tracking_id_and_flags_the_unmatched)
{
    nrt_sys_trace_event_t r[16];
    size_t n = pairing_records(r);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, n, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.stats.spans, 4);
    ck_assert_uint_eq(tl.stats.unmatched_start, 1);
    ck_assert_uint_eq(tl.stats.unmatched_stop, 1);
    ck_assert_uint_eq(tl.stats.instants, 1);
    /* By hand: A [100,300], B [150,200], C [500,600], D [510,520]. */
    const uint64_t want[4][2] = {{100, 300}, {150, 200}, {500, 600}, {510, 520}};
    const uint32_t want_type[4] = {TY(EXEC_PRE), TY(EXEC_POST), TY(TENSOR_READ), TY(TENSOR_READ)};
    size_t found = 0;
    for (size_t i = 0; i < tl.nitems; i++) {
        const ntsim_tl_item_t *it = &tl.items[i];
        if (!(it->flags & NTSIM_TL_SPAN))
            continue;
        for (size_t w = 0; w < 4; w++)
            if (it->begin == T0 + want[w][0] && it->end == T0 + want[w][1] &&
                it->type == want_type[w])
                found |= (size_t)1 << w;
        if (it->flags & NTSIM_TL_UNMATCHED_START)
            ck_abort_msg("a span flagged unmatched");
    }
    ck_assert_uint_eq(found, 15);
    for (size_t i = 0; i < tl.nitems; i++) {
        const ntsim_tl_item_t *it = &tl.items[i];
        if (it->flags & NTSIM_TL_UNMATCHED_STOP)
            ck_assert_uint_eq(it->begin, T0 + 50);
        if (it->flags & NTSIM_TL_UNMATCHED_START)
            ck_assert_uint_eq(it->begin, T0 + 400);
    }
    /* One thread lane holds everything: it nests, so no overflow lane. */
    ck_assert_uint_eq(tl.nlanes, 1);
    ck_assert_str_eq(tl.lanes[0].name, "thread 7");
    ntsim__timeline_free(&tl);
}
END_TEST

START_TEST(test_timeline_spans_that_cross_go_to_an_overflow_lane)
{
    nrt_sys_trace_event_t r[4];
    r[0] = rec(TY(EXEC_PRE), S, 1, T0 + 100);
    r[1] = rec(TY(EXEC_CORE), S, 2, T0 + 200);
    r[2] = rec(TY(EXEC_PRE), T, 1, T0 + 300); /* [100,300] and [200,400] cross */
    r[3] = rec(TY(EXEC_CORE), T, 2, T0 + 400);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 4, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.stats.spans, 2);
    ck_assert_uint_eq(tl.nlanes, 2);
    ck_assert_str_eq(tl.lanes[1].name, "thread 7 (overlap 1)");
    ck_assert_uint_ne(tl.lanes[0].tid, tl.lanes[1].tid);
    ntsim__timeline_free(&tl);
}
END_TEST

START_TEST(test_timeline_gaps_in_nc_local_id_are_drops)
{
    /* NC 0 keeps ids 3, 4, 7, 8: 0..2 and 5..6 are missing. */
    nrt_sys_trace_event_t r[4];
    const uint64_t ids[4] = {3, 4, 7, 8};
    for (int i = 0; i < 4; i++) {
        r[i] = rec(TY(GENERIC), I, 0, T0 + 1000 * (uint64_t)(i + 1));
        r[i].nc_local_id = ids[i];
    }
    ntsim_timeline_stats_t st;
    ck_assert_int_eq(ntsim_timeline_stats(r, 4, NULL, &st), NRT_SUCCESS);
    ck_assert_uint_eq(st.drops, 2);
    ck_assert_uint_eq(st.lost_events, 5);
    ck_assert_uint_eq(st.instants, 4);
}
END_TEST

/* --- the .pftrace, read back with protobuf-c ------------------------------------- */

START_TEST(test_pftrace_reads_back_as_the_timeline)
{
    nrt_sys_trace_event_t r[16];
    size_t n = pairing_records(r);
    uint8_t *buf;
    size_t len;
    ck_assert_int_eq(ntsim_pftrace_serialize(r, n, NULL, &buf, &len), NRT_SUCCESS);
    Perfetto__Protos__Trace *tr = perfetto__protos__trace__unpack(NULL, len, buf);
    ck_assert_ptr_nonnull(tr);
    size_t begins = 0, ends = 0, instants = 0, tracks = 0, unmatched = 0;
    const Perfetto__Protos__TracePacket *p0 = tr->packet[0];
    ck_assert_int_eq(p0->data_case, PERFETTO__PROTOS__TRACE_PACKET__DATA_CLOCK_SNAPSHOT);
    ck_assert_int_eq(p0->clock_snapshot->primary_trace_clock,
                     PERFETTO__PROTOS__BUILTIN_CLOCK__BUILTIN_CLOCK_REALTIME);
    ck_assert(p0->first_packet_on_sequence);
    uint64_t last = 0;
    for (size_t i = 0; i < tr->n_packet; i++) {
        const Perfetto__Protos__TracePacket *p = tr->packet[i];
        ck_assert_uint_eq(p->trusted_packet_sequence_id, 1);
        tracks += p->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR;
        if (p->data_case != PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT)
            continue;
        const Perfetto__Protos__TrackEvent *te = p->track_event;
        ck_assert_uint_ge(p->timestamp, last); /* written in time order */
        last = p->timestamp;
        begins += te->type == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN;
        ends += te->type == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END;
        instants += te->type == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT;
        if (te->name_field_case == PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME &&
            strstr(te->name, "(unmatched") != NULL)
            unmatched++;
        for (size_t a = 0; a < te->n_debug_annotations; a++) /* names, never interned */
            ck_assert_int_eq(te->debug_annotations[a]->name_field_case,
                             PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME);
    }
    /* By hand (test_pairing): 4 spans; the instant, two unmatched edges. */
    ck_assert_uint_eq(begins, 4);
    ck_assert_uint_eq(ends, 4);
    ck_assert_uint_eq(instants, 3);
    ck_assert_uint_eq(unmatched, 2);
    ck_assert_uint_eq(tracks, 2 + 1 + 2); /* 2 processes, thread 7, NC 0's two counters */
    perfetto__protos__trace__free_unpacked(tr, NULL);
    ntsim_buffer_free(buf);
}
END_TEST

/* --- the Chrome JSON ------------------------------------------------------------- */

START_TEST(test_chrome_json_times_are_exact_microseconds_from_the_origin)
{
    nrt_sys_trace_event_t r[2];
    r[0] = rec(TY(EXEC_PRE), S, 1, T0 + 123);
    r[1] = rec(TY(EXEC_PRE), T, 1, T0 + 2500);
    char *out;
    size_t len;
    ck_assert_int_eq(ntsim_chrome_trace_serialize(r, 2, NULL, &out, &len), NRT_SUCCESS);
    /* Origin = first - 1 us: ts 1.000, dur (2500 - 123) ns = 2.377 us. */
    ck_assert_ptr_nonnull(strstr(out, "\"ts\":1.000,\"dur\":2.377"));
    ck_assert_ptr_nonnull(strstr(out, "\"ts_origin_ns\":\"1699999999999999123\""));
    json_error_t je;
    json_t *doc = json_loads(out, 0, &je);
    ck_assert_msg(doc != NULL, "%d:%d: %s", je.line, je.column, je.text);
    size_t x = 0, m = 0, idx;
    json_t *e;
    json_array_foreach(json_object_get(doc, "traceEvents"), idx, e)
    {
        const char *ph = json_string_value(json_object_get(e, "ph"));
        x += strcmp(ph, "X") == 0;
        m += strcmp(ph, "M") == 0;
    }
    ck_assert_uint_eq(x, 1);
    ck_assert_uint_eq(m, 2 * 2 + 2 * 1); /* name + sort index: 2 processes, 1 thread */
    json_decref(doc);
    ntsim_buffer_free(out);
}
END_TEST

START_TEST(test_html_is_self_contained_and_draws_every_span)
{
    nrt_sys_trace_event_t r[16];
    size_t n = pairing_records(r);
    char *out;
    size_t len;
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, n, NULL, &out, &len), NRT_SUCCESS);
    ck_assert_uint_eq(strlen(out), len);
    size_t spans = 0, flagged = 0;
    for (const char *p = out; (p = strstr(p, "<rect class=\"span")) != NULL; p++)
        spans++;
    for (const char *p = out; (p = strstr(p, "flagged\"")) != NULL; p++)
        flagged++;
    ck_assert_uint_eq(spans, 4);
    ck_assert_uint_eq(flagged, 2);
    /* Nothing to fetch: no src= or href=, and the only URL is the SVG namespace. */
    ck_assert_ptr_null(strstr(out, "src="));
    ck_assert_ptr_null(strstr(out, "href="));
    for (const char *p = out; (p = strstr(p, "http")) != NULL; p++)
        ck_assert_int_eq(strncmp(p, "http://www.w3.org/2000/svg", 26), 0);
    ntsim_buffer_free(out);
}
END_TEST

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

static sim_run_t *run_scenario(const char *path)
{
    sim_run_t *r = calloc(1, sizeof *r);
    ck_assert_ptr_nonnull(r);
    if (path == NULL) {
        ntsim_scenario_default(&r->sc);
    } else {
        char err[4096];
        ck_assert_msg(ntsim_scenario_load(path, &r->sc, err, sizeof err) == NRT_SUCCESS, "%s",
                      err);
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
    sim_run_t *r = run_scenario("sim/scenarios/clock_drift.yaml");
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
    sim_run_t *r = run_scenario("sim/scenarios/clock_drift.yaml");
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
        nrt_sys_trace_event_t *recs;
        size_t n;
        char err[256] = "";
        ck_assert_msg(ntsim_trace_input_parse(files[f].kind, files[f].data, files[f].len,
                                              NTSIM_TRACE_INPUT_MAX_EVENTS, &recs, &n, err,
                                              sizeof err) == NRT_SUCCESS,
                      "%s: %s", files[f].kind, err);
        ck_assert_uint_eq(n, r->record_count);
        ck_assert_int_eq(ntsim_timeline_stats(recs, n, NULL, &got), NRT_SUCCESS);
        ck_assert_uint_eq(got.spans, want.spans);
        ck_assert_uint_eq(got.instants, want.instants);
        ck_assert_uint_eq(got.flows, want.flows - barrier_flows);
        ck_assert_uint_eq(got.lanes, want.lanes);
        ck_assert_uint_eq(got.drops, 0);
        ck_assert_uint_eq(got.unaligned, 0);
        ck_assert_msg(got.max_residual_ns <= 1.0, "%s: residual %f", files[f].kind,
                      got.max_residual_ns);
        free(recs);
    }
    free_run(r);
}
END_TEST

START_TEST(test_bad_trace_input_names_the_event_and_key)
{
    static const struct {
        const char *kind, *text, *want;
    } cases[] = {
        /* 11 characters: the value missing is the 12th. */
        {"a.json", "{\"events\":[", "1:12: expected a value or ']', got the end of the input"},
        {"a.json", "{\"events\":[{\"event_type\":\"nope\",\"phase\":\"start\"}]}",
         "events[0].event_type: \"nope\" is no event type"},
        {"a.json",
         "{\"events\":[{\"event_type\":\"generic\",\"phase\":\"later\"}]}",
         "events[0].phase: not start, stop, instant or unknown"},
        {"a.json",
         "{\"events\":[{\"event_type\":\"nrt_tensor_read\",\"phase\":\"start\",\"id\":0,"
         "\"nc_idx\":0,\"nc_local_id\":0,\"tracking_id\":1,\"thread_id\":2,\"timestamp_ns\":3,"
         "\"data\":{\"tensor_id\":\"x\",\"size\":4}}]}",
         "events[0].data.tensor_id: not a value of this key"},
        {"a.ntff", "\x0a\x05\xff\xff", "offset 0: not an ntrace_info"},
        {"a.records", "0123456789", "offset 0: a record dump must be whole 112-byte records"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        nrt_sys_trace_event_t *recs;
        size_t n;
        char err[256] = "";
        ck_assert_int_eq(ntsim_trace_input_parse(cases[i].kind, cases[i].text,
                                                 strlen(cases[i].text),
                                                 NTSIM_TRACE_INPUT_MAX_EVENTS, &recs, &n, err,
                                                 sizeof err),
                         NRT_INVALID);
        ck_assert_msg(strncmp(err, cases[i].want, strlen(cases[i].want)) == 0,
                      "case %zu: got \"%s\", want \"%s...\"", i, err, cases[i].want);
        ck_assert_ptr_null(recs);
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
    nrt_sys_trace_event_t *recs = NULL;
    size_t n = 0;
    ck_assert_msg(ntsim_trace_input_read(path, NTSIM_TRACE_INPUT_MAX_EVENTS, &recs, &n, err,
                                         sizeof err) == NRT_SUCCESS,
                  "%s",
                  err);
    ck_assert_uint_eq(n, 100);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(recs, n, NULL, &tl), NRT_SUCCESS);
    for (size_t k = 0; k < tl.nclocks; k++)
        ck_assert(tl.clocks[k].b >= -0.5 && tl.clocks[k].b < 1e9);
    ntsim__timeline_free(&tl);
    free(recs);
}
END_TEST

/* --- the .pftrace framing (D-PFTRACE "Framing") ---------------------------------- */

/* Walks a .pftrace as D-PFTRACE frames it: packet i is 0x0A, the protobuf
 * varint of its packed length (base 128, least significant group first,
 * 0x80 on every byte but the last: the shortest form, as protobuf encodes a
 * length), then the packed TracePacket. The packets come from protobuf-c's
 * own reading of the file and are packed again here, so every byte is
 * derived independently of the writer's framing. Counts the packets whose
 * packed length is 127 and 128 (the one- and two-byte varint sides). */
static void check_framing(const uint8_t *buf, size_t len, size_t *len127, size_t *len128)
{
    Perfetto__Protos__Trace *tr = perfetto__protos__trace__unpack(NULL, len, buf);
    ck_assert_ptr_nonnull(tr);
    ck_assert_uint_gt(tr->n_packet, 0);
    size_t off = 0;
    for (size_t i = 0; i < tr->n_packet; i++) {
        size_t body = perfetto__protos__trace_packet__get_packed_size(tr->packet[i]);
        *len127 += body == 127;
        *len128 += body == 128;
        uint8_t want[16];
        size_t h = 0;
        want[h++] = 0x0A;
        for (uint64_t v = body;; v >>= 7) {
            if (v < 128) {
                want[h++] = (uint8_t)v;
                break;
            }
            want[h++] = (uint8_t)(0x80 | (v & 0x7f));
        }
        ck_assert_uint_le(off + h + body, len);
        ck_assert_msg(memcmp(buf + off, want, h) == 0, "packet %zu: frame header", i);
        uint8_t *packed = malloc(body);
        ck_assert_ptr_nonnull(packed);
        ck_assert_uint_eq(perfetto__protos__trace_packet__pack(tr->packet[i], packed), body);
        ck_assert_msg(memcmp(buf + off + h, packed, body) == 0, "packet %zu: body", i);
        free(packed);
        off += h + body;
    }
    ck_assert_uint_eq(off, len); /* nothing after the last packet */
    perfetto__protos__trace__free_unpacked(tr, NULL);
}

/* A varint holds 7 bits a byte: a packet of 127 bytes is framed 0x0A 0x7F, one
 * of 128 bytes 0x0A 0x80 0x01. The sweep moves a tensor_read instant's packet
 * across that edge a byte at a time: tracking_id and id are unsigned
 * annotations (D-PFTRACE), whose varints grow a byte every 7 bits. */
START_TEST(test_pftrace_frames_packets_of_127_and_128_bytes_with_shortest_varints)
{
    size_t n127 = 0, n128 = 0;
    for (unsigned a = 0; a < 64; a += 7) {
        for (unsigned c = 0; c < 64; c += 7) {
            g_seq = 0;
            nrt_sys_trace_event_t r = rec(TY(TENSOR_READ), I, (uint64_t)1 << a, T0 + 100);
            r.id = (uint64_t)1 << c;
            uint8_t *buf;
            size_t len;
            ck_assert_int_eq(ntsim_pftrace_serialize(&r, 1, NULL, &buf, &len), NRT_SUCCESS);
            check_framing(buf, len, &n127, &n128);
            ntsim_buffer_free(buf);
        }
    }
    /* The sweep did reach both sides of the edge (else it proves nothing). */
    ck_assert_uint_gt(n127, 0);
    ck_assert_uint_gt(n128, 0);
}
END_TEST

/* The file is written one packet at a time into a buffer that grows as it
 * goes (D-PFTRACE "Framing"): traces of 50 instants, several KiB, whose
 * packets end at every offset modulo a packet (the first j carry a 10-byte
 * tracking_id varint, 9 bytes more each), so a packet straddles each of the
 * buffer's growth points somewhere in the sweep. Each must still be exactly
 * its packets framed one after another; a frame written past the room made
 * for it fails here or under make asan. */
START_TEST(test_pftrace_traces_of_several_kib_frame_every_packet_whole)
{
    size_t n127 = 0, n128 = 0;
    for (int j = 0; j <= 20; j++) {
        nrt_sys_trace_event_t r[50];
        g_seq = 0;
        for (int i = 0; i < 50; i++)
            r[i] = rec(TY(GENERIC), I, i < j ? UINT64_MAX : 1, T0 + (uint64_t)i);
        uint8_t *buf;
        size_t len;
        ck_assert_int_eq(ntsim_pftrace_serialize(r, 50, NULL, &buf, &len), NRT_SUCCESS);
        ck_assert_uint_gt(len, 4096);
        check_framing(buf, len, &n127, &n128);
        ntsim_buffer_free(buf);
    }
}
END_TEST

/* --- the .pftrace, field by field (mutants of pftrace.c) --------------------------- */

/* The nrt_execute SLICE_BEGINs of a .pftrace, in time order: each one's
 * annotations named `exec_id` (count, and the last one's uint_value). */
static size_t execute_exec_ids(const Perfetto__Protos__Trace *tr, size_t *count, uint64_t *value,
                               size_t cap)
{
    size_t m = 0;
    for (size_t i = 0; i < tr->n_packet; i++) {
        const Perfetto__Protos__TracePacket *p = tr->packet[i];
        if (p->data_case != PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT)
            continue;
        const Perfetto__Protos__TrackEvent *te = p->track_event;
        if (te->type != PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN ||
            strcmp(te->name, "nrt_execute") != 0)
            continue;
        ck_assert_uint_lt(m, cap);
        count[m] = 0;
        value[m] = UINT64_MAX;
        for (size_t a = 0; a < te->n_debug_annotations; a++) {
            const Perfetto__Protos__DebugAnnotation *d = te->debug_annotations[a];
            if (strcmp(d->name, "exec_id") != 0)
                continue;
            count[m]++;
            ck_assert_int_eq(d->value_case, PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_UINT_VALUE);
            value[m] = d->uint_value;
        }
        m++;
    }
    return m;
}

/* D-PFTRACE: a begin's annotations carry `exec_id` (an nrt_execute's): the exec id
 * it takes from an exec-stage span with a non-zero exec_id inside it
 * (D-TIMELINE-ORDER, Flows), here 1; an nrt_execute that takes none has no
 * exec id (timeline.h: 0 is "none known"), so no `exec_id`, as in the Chrome
 * JSON (D-CHROME-JSON). By hand: nrt_execute A [0, 30] holds kbl_exec_pre
 * [10, 20] with exec_id 1, B [100, 130] holds nothing. */
START_TEST(test_pftrace_execute_carries_exec_id_one_and_none_without_one)
{
    nrt_sys_trace_event_t r[6];
    r[0] = rec(TY(EXECUTE_API), S, 100, T0);
    r[1] = rec(TY(EXEC_PRE), S, 1, T0 + 10);
    r[1].data.exec_pre.exec_id = 1;
    r[2] = rec(TY(EXEC_PRE), T, 1, T0 + 20);
    r[2].data = r[1].data;
    r[3] = rec(TY(EXECUTE_API), T, 100, T0 + 30);
    r[4] = rec(TY(EXECUTE_API), S, 101, T0 + 100);
    r[5] = rec(TY(EXECUTE_API), T, 101, T0 + 130);
    uint8_t *buf;
    size_t len;
    ck_assert_int_eq(ntsim_pftrace_serialize(r, 6, NULL, &buf, &len), NRT_SUCCESS);
    Perfetto__Protos__Trace *tr = perfetto__protos__trace__unpack(NULL, len, buf);
    ck_assert_ptr_nonnull(tr);
    size_t count[4];
    uint64_t value[4];
    ck_assert_uint_eq(execute_exec_ids(tr, count, value, 4), 2);
    ck_assert_uint_eq(count[0], 1); /* A: exec_id 1 */
    ck_assert_uint_eq(value[0], 1);
    ck_assert_uint_eq(count[1], 0); /* B: none */
    perfetto__protos__trace__free_unpacked(tr, NULL);
    ntsim_buffer_free(buf);
}
END_TEST

/* D-PFTRACE: an nrt_execute lists its flows' ids in flow_ids, a device span
 * its flow in terminating_flow_ids: all of them, however many. By hand
 * (D-TIMELINE-ORDER, Flows): the nrt_execute [0, 10000] on thread 7, NC 0
 * takes exec_id 7 from kbl_exec_pre [10, 20]; each of the `spans`
 * nc_exec_running spans k of NC 0 with exec_id 7 (items 2 + k, in record
 * order) gets a flow from it, numbered 1 + k in order of (source,
 * destination): flow_ids 1..spans in that order, and span k terminates flow
 * 1 + k. */
static void check_execute_flows(size_t spans_want)
{
    nrt_sys_trace_event_t r[4 + 2 * 65];
    ck_assert_uint_le(spans_want, 65);
    size_t n = 0;
    r[n++] = rec(TY(EXECUTE_API), S, 100, T0);
    r[n] = rec(TY(EXEC_PRE), S, 1, T0 + 10);
    r[n++].data.exec_pre.exec_id = 7;
    r[n] = rec(TY(EXEC_PRE), T, 1, T0 + 20);
    r[n].data = r[n - 1].data;
    n++;
    for (uint64_t k = 0; k < spans_want; k++) {
        r[n] = rec(TY(DEVICE_EXEC), S, 1000 + k, T0 + 100 + 100 * k);
        r[n++].data.nc_exec_start.exec_id = 7;
        r[n] = rec(TY(DEVICE_EXEC), T, 1000 + k, T0 + 150 + 100 * k);
        r[n].data = r[n - 1].data;
        n++;
    }
    r[n++] = rec(TY(EXECUTE_API), T, 100, T0 + 10000);
    uint8_t *buf;
    size_t len;
    ck_assert_int_eq(ntsim_pftrace_serialize(r, n, NULL, &buf, &len), NRT_SUCCESS);
    Perfetto__Protos__Trace *tr = perfetto__protos__trace__unpack(NULL, len, buf);
    ck_assert_ptr_nonnull(tr);
    size_t executes = 0, spans = 0;
    for (size_t i = 0; i < tr->n_packet; i++) {
        const Perfetto__Protos__TracePacket *p = tr->packet[i];
        if (p->data_case != PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT)
            continue;
        const Perfetto__Protos__TrackEvent *te = p->track_event;
        if (te->type != PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN)
            continue;
        if (strcmp(te->name, "nrt_execute") == 0) {
            executes++;
            ck_assert_uint_eq(te->n_flow_ids, spans_want);
            for (size_t f = 0; f < spans_want; f++)
                ck_assert_uint_eq(te->flow_ids[f], f + 1);
            ck_assert_uint_eq(te->n_terminating_flow_ids, 0);
        } else if (strcmp(te->name, "nc_exec_running") == 0) {
            /* in time order: span k begins at 100 + 100 k */
            ck_assert_uint_eq(p->timestamp, T0 + 100 + 100 * spans);
            ck_assert_uint_eq(te->n_terminating_flow_ids, 1);
            ck_assert_uint_eq(te->terminating_flow_ids[0], spans + 1);
            ck_assert_uint_eq(te->n_flow_ids, 0);
            spans++;
        }
    }
    ck_assert_uint_eq(executes, 1);
    ck_assert_uint_eq(spans, spans_want);
    perfetto__protos__trace__free_unpacked(tr, NULL);
    ntsim_buffer_free(buf);
}

START_TEST(test_pftrace_execute_lists_every_flow_id_past_sixty_four)
{
    check_execute_flows(65);
}
END_TEST

START_TEST(test_pftrace_execute_with_one_flow_lists_its_id)
{
    check_execute_flows(1);
}
END_TEST

Suite *make_perfetto_suite(void)
{
    Suite *s = suite_create("perfetto");
    TCase *tc = tcase_create("timeline");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_timeline_pairs_by_tracking_id_and_flags_the_unmatched);
    tcase_add_test(tc, test_timeline_spans_that_cross_go_to_an_overflow_lane);
    tcase_add_test(tc, test_timeline_gaps_in_nc_local_id_are_drops);
    tcase_add_test(tc, test_hostile_sync_pairs_align_without_undefined_conversions);
    tcase_add_test(tc, test_pftrace_reads_back_as_the_timeline);
    tcase_add_test(tc, test_chrome_json_times_are_exact_microseconds_from_the_origin);
    tcase_add_test(tc, test_html_is_self_contained_and_draws_every_span);
    tcase_add_test(tc, test_default_run_device_spans_lie_inside_their_nrt_execute);
    tcase_add_test(tc, test_clock_drift_scenario_aligns_every_nc_within_a_microsecond);
    tcase_add_test(tc, test_timeline_clock_fit_matches_the_simulators);
    tcase_add_test(tc, test_fetch_document_and_ntff_read_back_into_the_same_timeline);
    tcase_add_test(tc, test_bad_trace_input_names_the_event_and_key);
    tcase_add_test(tc, test_pftrace_frames_packets_of_127_and_128_bytes_with_shortest_varints);
    tcase_add_test(tc, test_pftrace_traces_of_several_kib_frame_every_packet_whole);
    tcase_add_test(tc, test_pftrace_execute_carries_exec_id_one_and_none_without_one);
    tcase_add_test(tc, test_pftrace_execute_lists_every_flow_id_past_sixty_four);
    tcase_add_test(tc, test_pftrace_execute_with_one_flow_lists_its_id);
    suite_add_tcase(s, tc);
    return s;
}
