/*
 * conformance/unit/sim/check_sim.c: the simulator — virtual time, device clocks and
 * their recovery, determinism, faults and their counters, and the
 * scenario loader's errors. Whole runs are pinned by vectors/scenario_*.yaml.
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "capture_fixture.h"
#include "nrt/nrt_profile_notification.h"
#include "check_suites.h"
#include "scenario_load.h"
#include "sim.h"
#include "ntff.pb-c.h"
#include "sim_run.h"

/* The runs log the faults' "Invalid notification type" lines; the tests
 * count drops instead of reading stderr. */
static void setup(void)
{
    ntsim_log_set_sink(ntsim_check_quiet_log, NULL);
}

static void teardown(void)
{
    ntsim_capture_shutdown();
    ntsim_log_set_sink(NULL, NULL);
}

/* --- the scheduler ------------------------------------------------------------ */

static char order[64];
static size_t order_len;

static void record_order(ntsim_sched_t *s, void *arg, uint64_t tag)
{
    (void)arg;
    (void)s;
    order[order_len++] = (char)tag;
    order[order_len] = '\0';
}

static void schedule_more(ntsim_sched_t *s, void *arg, uint64_t tag)
{
    record_order(s, arg, tag);
    /* same instant: after the others */
    ck_assert_int_eq(ntsim_sched_after(s, 0, record_order, NULL, 'z'), NRT_SUCCESS);
}

START_TEST(test_scheduler_fires_by_time_then_by_scheduling_order)
{
    ntsim_sched_t s;
    ntsim_sched_init(&s, 1000);
    order_len = 0;
    ck_assert_int_eq(ntsim_sched_after(&s, 20, record_order, NULL, 'c'), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_sched_after(&s, 10, record_order, NULL, 'a'), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_sched_after(&s, 10, schedule_more, NULL, 'b'), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_sched_after(&s, 10, record_order, NULL, 'B'), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_sched_after(&s, 30, record_order, NULL, 'd'), NRT_SUCCESS);
    ck_assert_uint_eq(ntsim_sched_run(&s, 1020), 5);
    ck_assert_str_eq(order, "abBzc");
    ck_assert_uint_eq(s.now, 1020);
    ck_assert_uint_eq(ntsim_sched_run(&s, UINT64_MAX), 1);
    ck_assert_str_eq(order, "abBzcd");
    ck_assert_uint_eq(s.now, 1030);
    ntsim_sched_free(&s);
}
END_TEST

/* --- device clocks -------------------------------------------------------------- */

START_TEST(test_device_clock_applies_offset_and_drift_exactly)
{
    ntsim_scenario_t *sc = calloc(1, sizeof *sc);
    sc->host_start_ns = 1000000000;
    sc->clock_offset_ns[0] = 1500;
    sc->clock_drift_ppm[0] = 25;
    sc->clock_offset_ns[1] = -2000;
    sc->clock_drift_ppm[1] = -40;
    /* 1 s after start: +25 us of drift on NC 0, -40 us on NC 1. */
    ck_assert_uint_eq(ntsim_device_clock(sc, 0, 2000000000), 2000000000 + 1500 + 25000);
    ck_assert_uint_eq(ntsim_device_clock(sc, 1, 2000000000), 2000000000 - 2000 - 40000);
    /* 999 ns after start: 999 x 25 / 10^6 truncates to 0. */
    ck_assert_uint_eq(ntsim_device_clock(sc, 0, 1000000999), 1000000999 + 1500);
    /* 1.5 ms after start with -40 ppm: -60 ns exactly. */
    ck_assert_uint_eq(ntsim_device_clock(sc, 1, 1001500000), 1001500000 - 2000 - 60);
    /* Before start: no drift; below zero clamps at 0. */
    ck_assert_uint_eq(ntsim_device_clock(sc, 0, 10), 10 + 1500);
    ck_assert_uint_eq(ntsim_device_clock(sc, 1, 10), 0);
    free(sc);
}
END_TEST

/* The clock test: offsets within 2 ns, drift within 0.05 ppm,
 * recovered from the trace's sync_info alone (50 ms, 4 NCs). */
START_TEST(test_clock_offset_and_drift_are_recovered_from_sync_info)
{
    ntsim_scenario_t *sc = malloc(sizeof *sc);
    ntsim_scenario_default(sc);
    sc->cores = 4;
    sc->duration_ns = 50000000;
    sc->host_threads = 4;
    sc->request_interval_ns = 500000;
    sc->fault_count = 0;
    const int64_t off[4] = {0, 123456, -987654, 5000000000};
    const int64_t ppm[4] = {0, 100, -250, 7};
    for (int i = 0; i < 4; i++) {
        sc->clock_offset_ns[i] = off[i];
        sc->clock_drift_ppm[i] = ppm[i];
    }
    sc->max_events_per_nc = 65536;
    ntsim_run_result_t *r = malloc(sizeof *r);
    ck_assert_int_eq(ntsim_sim_run(sc, NULL, NULL, NULL, r), NRT_SUCCESS);
    for (int i = 0; i < 4; i++) {
        ck_assert_uint_gt(r->skew[i].samples, 100);
        ck_assert_msg(fabs(r->skew[i].offset_ns - (double)off[i]) <= 2.0,
                      "nc %d offset %f, want %lld +- 2", i, r->skew[i].offset_ns,
                      (long long)off[i]);
        ck_assert_msg(fabs(r->skew[i].drift_ppm - (double)ppm[i]) <= 0.05,
                      "nc %d drift %f, want %lld +- 0.05", i, r->skew[i].drift_ppm,
                      (long long)ppm[i]);
    }
    free(r);
    free(sc);
}
END_TEST

/* --- whole runs -------------------------------------------------------------------- */

/* A run's four outputs (trace.json, trace.ntff, notifications.ntff, the
 * record dump), streamed into memory. */
enum { OUT_JSON, OUT_NTFF, OUT_NOTIF, OUT_RECORDS, OUT_COUNT };
typedef struct mem_outputs {
    char *bytes[OUT_COUNT];
    size_t len[OUT_COUNT];
} mem_outputs_t;

static void run_to_memory(const ntsim_scenario_t *sc, ntsim_run_result_t *r, mem_outputs_t *m)
{
    FILE *f[OUT_COUNT];
    for (int i = 0; i < OUT_COUNT; i++) {
        f[i] = open_memstream(&m->bytes[i], &m->len[i]);
        ck_assert_ptr_nonnull(f[i]);
    }
    ntsim_run_io_t io = {{f[OUT_JSON], f[OUT_NTFF], f[OUT_NOTIF], f[OUT_RECORDS], false},
                         NULL, NULL, NULL, NULL, NULL, 0};
    ntsim_outputs_t o;
    ck_assert_int_eq(ntsim_run_scenario(sc, &io, r, &o), NRT_SUCCESS);
    for (int i = 0; i < OUT_COUNT; i++)
        ck_assert_int_eq(fclose(f[i]), 0);
    /* The lengths and digests taken as the bytes streamed by are those of
     * the whole files. */
    ck_assert_uint_eq(o.json_len, m->len[OUT_JSON]);
    ck_assert_uint_eq(o.ntff_len, m->len[OUT_NTFF]);
    ck_assert_uint_eq(o.notif_len, m->len[OUT_NOTIF]);
    ck_assert_uint_eq(o.records_len, m->len[OUT_RECORDS]);
    ck_assert_uint_eq(o.json_digest, ntsim_sim_digest(m->bytes[OUT_JSON], m->len[OUT_JSON]));
    ck_assert_uint_eq(o.ntff_digest, ntsim_sim_digest(m->bytes[OUT_NTFF], m->len[OUT_NTFF]));
    ck_assert_uint_eq(o.notif_digest, ntsim_sim_digest(m->bytes[OUT_NOTIF], m->len[OUT_NOTIF]));
    ck_assert_uint_eq(m->len[OUT_RECORDS], r->record_count * sizeof(nrt_sys_trace_event_t));
}

static void mem_outputs_free(mem_outputs_t *m)
{
    for (int i = 0; i < OUT_COUNT; i++)
        free(m->bytes[i]);
}

static void run_default(ntsim_run_result_t *r, mem_outputs_t *m)
{
    ntsim_scenario_t *sc = malloc(sizeof *sc);
    ntsim_scenario_default(sc);
    run_to_memory(sc, r, m);
    free(sc);
}

START_TEST(test_same_scenario_and_seed_give_identical_bytes)
{
    ntsim_run_result_t a, b;
    mem_outputs_t oa, ob;
    run_default(&a, &oa);
    run_default(&b, &ob);
    for (int i = 0; i < OUT_COUNT; i++) {
        ck_assert_uint_gt(oa.len[i], 0);
        ck_assert_uint_eq(oa.len[i], ob.len[i]);
        ck_assert_int_eq(memcmp(oa.bytes[i], ob.bytes[i], oa.len[i]), 0);
    }
    mem_outputs_free(&oa);
    mem_outputs_free(&ob);
}
END_TEST

/* The outputs are written at each fetch, never held whole: with a fetch
 * every 200 us, trace.json is still one document holding every drained
 * record in drain order (each batch's objects joined by commas), and the
 * execution -> model table only ever held the executions in flight or
 * not yet drained, never forgetting one a fetch still needed. */
START_TEST(test_periodic_fetches_stream_one_document_and_forget_old_executions)
{
    ntsim_scenario_t *sc = malloc(sizeof *sc);
    ntsim_scenario_default(sc);
    sc->duration_ns = 20000000; /* 20 ms */
    sc->fetch_interval_ns = 200000;
    sc->fault_count = 0;
    sc->max_events_per_nc = 1 << 16;
    ntsim_run_result_t r;
    mem_outputs_t m;
    run_to_memory(sc, &r, &m);
    ck_assert_uint_gt(r.fetches, 50);
    ck_assert_uint_eq(r.record_count, r.events_emitted);
    json_error_t err;
    json_t *doc = json_loadb(m.bytes[OUT_JSON], m.len[OUT_JSON], 0, &err);
    ck_assert_msg(doc != NULL, "trace.json: %s", err.text);
    json_t *events = json_object_get(doc, "events");
    ck_assert_uint_eq(json_array_size(events), r.record_count);
    /* Drain order: each event's nc_local_id is its NC's seq, so within an NC
     * they ascend from 0 without a gap. */
    uint64_t next[NTSIM_NC_COUNT] = {0};
    for (size_t i = 0; i < json_array_size(events); i++) {
        json_t *e = json_array_get(events, i);
        uint64_t nc = (uint64_t)json_integer_value(json_object_get(e, "nc_idx"));
        uint64_t seq = (uint64_t)json_integer_value(json_object_get(e, "nc_local_id"));
        ck_assert_uint_lt(nc, NTSIM_NC_COUNT);
        ck_assert_uint_eq(seq, next[nc]);
        next[nc]++;
    }
    ck_assert_uint_eq(r.model_lookup_misses, 0);
    ck_assert_uint_gt(r.executes, 300);
    /* Two threads, one execute each in flight, plus what each finished
     * since the last fetch: an execute and its request interval take more
     * than 80 us (20 ms / (executes / 2)), so at most 3 fit in 200 us:
     * 2 x (1 + 3) = 8, against the run's hundreds of executions. */
    ck_assert_uint_le(r.exec_table_peak, 8);
    json_decref(doc);
    mem_outputs_free(&m);
    free(sc);
}
END_TEST

/* The default exercises all 46 types; its drops are exactly its faults:
 * types 9, 10 and -7 twice = 1 cc_status, 1 max, 2 out of range. */
START_TEST(test_default_run_has_every_type_and_only_its_faults_drops)
{
    ntsim_run_result_t r;
    mem_outputs_t o;
    run_default(&r, &o);
    for (int t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        ck_assert_msg(r.per_type[t] > 0, "type %d absent from the default run", t);
    ck_assert_uint_eq(r.notify.dropped, 4);
    ck_assert_uint_eq(r.notify.dropped_cc_status, 1);
    ck_assert_uint_eq(r.notify.dropped_max, 1);
    ck_assert_uint_eq(r.notify.dropped_out_of_range, 2);
    ck_assert_uint_eq(r.notify.explicit_infos, 2);
    ck_assert_uint_eq(r.per_type[NRT_SYS_TRACE_EVENT_TYPE_NUM_ERR], 1);
    /* Nothing lost: everything emitted is in the trace. */
    ck_assert_uint_eq(r.record_count, r.events_emitted);
    ck_assert_uint_eq(r.info_count, r.notify.converted + r.notify.explicit_infos);
    ck_assert_uint_eq(r.model_lookup_misses, 0);
    mem_outputs_free(&o);
}
END_TEST

/* A numerical error fault (D-SIM): the device posts an ERROR notification
 * at the mid-point of the next execute on its NC, which then ends with
 * NUM_ERR; a fault that arrives after that mid-point but before the
 * execute ends gives the NUM_ERR alone (the device had already reported). One
 * NC, one thread: the first execute starts at 10 us, reaches its
 * mid-point at 16 us + about 15 us and ends at about 46 us. */
static NRT_STATUS count_errors(void *ctx, const ntsim_trace_info_t *infos, size_t n)
{
    uint64_t *errors = ctx;
    for (size_t i = 0; i < n; i++) {
        uint32_t type;
        if (infos[i].payload_len == 16) {
            memcpy(&type, infos[i].payload, sizeof type);
            *errors += type == NOTIFICATION_TYPE_ERROR;
        }
    }
    return NRT_SUCCESS;
}

static void numerical_error_at(const char *at_ns, uint64_t *errors, uint64_t *num_err)
{
    char text[512], why[1024];
    snprintf(text, sizeof text,
             "version: 1\nname: n\ncores: 1\nduration_ns: 100000\n"
             "host: {threads: 1, request_interval_ns: 100000}\n"
             "models:\n  - {id: 1, exec_ns: 30000}\n"
             "faults:\n  - {kind: numerical_error, at_ns: %s, nc: 0}\n", at_ns);
    ntsim_scenario_t *sc = malloc(sizeof *sc);
    ntsim_run_result_t *r = malloc(sizeof *r);
    ck_assert_msg(ntsim_scenario_load_string("n", text, strlen(text), sc, why, sizeof why) ==
                      NRT_SUCCESS, "%s", why);
    *errors = 0;
    ntsim_sim_sink_t sink = {NULL, count_errors, errors};
    ck_assert_int_eq(ntsim_sim_run(sc, &sink, NULL, NULL, r), NRT_SUCCESS);
    ck_assert_uint_eq(r->executes, 1);
    *num_err = r->per_type[NRT_SYS_TRACE_EVENT_TYPE_NUM_ERR];
    free(r);
    free(sc);
    ntsim_capture_shutdown();
}

START_TEST(test_numerical_error_is_reported_by_the_next_execute_on_its_nc)
{
    uint64_t errors, num_err;
    numerical_error_at("0", &errors, &num_err);
    ck_assert_uint_eq(errors, 1);
    ck_assert_uint_eq(num_err, 1);
    numerical_error_at("40000", &errors, &num_err); /* between the mid-point and the end */
    ck_assert_uint_eq(errors, 0);
    ck_assert_uint_eq(num_err, 1);
    numerical_error_at("60000", &errors, &num_err); /* after the only execute */
    ck_assert_uint_eq(errors, 0);
    ck_assert_uint_eq(num_err, 0);
}
END_TEST

/* D-JSON-TIME on the simulator's drifting clocks: in the default run NC 0's
 * device clock runs 1500 ns ahead (+25 ppm) and NC 1's 2500 ns behind
 * (-40 ppm), so their raw nc_timestamp_ns disagree with the host by those
 * offsets; trace.json's timestamp_ns puts both on the host timeline, and every
 * device span lies inside the host EXEC_CORE span of its execution, up to
 * the drift since the execution's sync point: the guide's adjustment takes
 * the device clock for the host's between the two (40 ppm over the ~60 us
 * from the sync point to the span's end: under 3 ns). */
START_TEST(test_device_spans_of_two_drifting_cores_land_on_the_host_timeline)
{
    ntsim_run_result_t r;
    mem_outputs_t o;
    run_default(&r, &o);
    json_error_t err;
    json_t *doc = json_loadb(o.bytes[OUT_JSON], o.len[OUT_JSON], 0, &err);
    ck_assert_msg(doc != NULL, "trace.json: %s", err.text);
    json_t *events = json_object_get(doc, "events");
    /* EXEC_CORE's host span per exec_id (the runtime's view of the device work). */
    enum { MAX_EXEC = 256 };
    uint64_t core_start[MAX_EXEC] = {0}, core_stop[MAX_EXEC] = {0};
    uint64_t dev_start[MAX_EXEC] = {0}, dev_stop[MAX_EXEC] = {0}, dev_tracking[MAX_EXEC] = {0};
    unsigned checked[2] = {0, 0};
    for (size_t i = 0; i < json_array_size(events); i++) {
        json_t *e = json_array_get(events, i);
        const char *type = json_string_value(json_object_get(e, "event_type"));
        const char *phase = json_string_value(json_object_get(e, "phase"));
        json_t *data = json_object_get(e, "data");
        uint64_t ts = (uint64_t)json_integer_value(json_object_get(e, "timestamp_ns"));
        uint64_t nc = (uint64_t)json_integer_value(json_object_get(e, "nc_idx"));
        uint64_t tracking = (uint64_t)json_integer_value(json_object_get(e, "tracking_id"));
        json_t *exec = json_object_get(data, "exec_id");
        uint64_t x = exec ? (uint64_t)json_integer_value(exec) : 0;
        if (strcmp(type, "kmgr_exec_core") == 0 && x < MAX_EXEC)
            (strcmp(phase, "start") == 0 ? core_start : core_stop)[x] = ts;
        json_t *dev = json_object_get(data, "nc_timestamp_ns");
        if (dev == NULL)
            continue;
        /* The raw device time differs from the host time by the NC's offset
         * plus its drift since the start (under 1 us of drift in 1 ms). */
        int64_t skew = (int64_t)((uint64_t)json_integer_value(dev) - ts);
        int64_t offset = nc == 0 ? 1500 : -2500;
        ck_assert_msg(skew - offset >= -100 && skew - offset <= 100,
                      "event %zu (nc %llu): device - host = %lld, offset %lld", i,
                      (unsigned long long)nc, (long long)skew, (long long)offset);
        checked[nc != 0]++;
        if (strcmp(type, "nc_exec_running") != 0)
            continue;
        if (strcmp(phase, "start") == 0 && x < MAX_EXEC) {
            dev_start[x] = ts;
            dev_tracking[x] = tracking;
        } else if (strcmp(phase, "stop") == 0) {
            for (size_t k = 0; k < MAX_EXEC; k++)
                if (dev_tracking[k] == tracking && dev_start[k] != 0)
                    dev_stop[k] = ts;
        }
    }
    ck_assert_uint_gt(checked[0], 20);
    ck_assert_uint_gt(checked[1], 20);
    unsigned spans = 0;
    for (size_t x = 1; x < MAX_EXEC; x++) {
        if (dev_start[x] == 0)
            continue;
        spans++;
        ck_assert_msg(core_start[x] <= dev_start[x] + 3 && dev_stop[x] <= core_stop[x] + 3 &&
                          dev_start[x] < dev_stop[x],
                      "exec %zu: device span [%llu, %llu] outside its EXEC_CORE [%llu, %llu]", x,
                      (unsigned long long)dev_start[x], (unsigned long long)dev_stop[x],
                      (unsigned long long)core_start[x], (unsigned long long)core_stop[x]);
    }
    ck_assert_uint_eq(spans, r.executes);
    json_decref(doc);
    mem_outputs_free(&o);
}
END_TEST

/* One nc_exec_running edge of the LNC 2 test below. */
typedef struct lnc_span {
    uint64_t nc, core, tracking, start, stop, raw_start;
} lnc_span_t;

/* A one-NC timer of LNC 2 invocations, written here from the description of
 * a public serving simulator's neuron_timer (it times an NKI kernel on one
 * logical NC, capturing that NC alone): pair nc_exec_running by (nc_idx,
 * tracking_id), refusing a second START of a pair, a STOP without a START
 * and an interval that is not positive; group the pairs into invocations by
 * (nc_idx, exec_id), the physical core of each from its START's
 * device_core_idx; refuse unmatched STARTs, and unless every invocation
 * shows the same set of exactly two physical cores ("Neuron LNC2 trace must
 * contain both physical cores for every invocation"); an invocation's time
 * is the union of its intervals by timestamp_ns. Returns the number of
 * invocations of NC nc; each union must lie in [lo, hi]. */
static unsigned one_nc_timer(json_t *events, uint64_t nc, uint64_t lo, uint64_t hi)
{
    enum { MAX = 512 };
    static lnc_span_t pairs[MAX];
    static uint64_t exec_of[MAX];
    size_t n = 0;
    for (size_t i = 0; i < json_array_size(events); i++) {
        json_t *e = json_array_get(events, i);
        if (strcmp(json_string_value(json_object_get(e, "event_type")), "nc_exec_running") != 0 ||
            (uint64_t)json_integer_value(json_object_get(e, "nc_idx")) != nc)
            continue;
        json_t *data = json_object_get(e, "data");
        uint64_t tracking = (uint64_t)json_integer_value(json_object_get(e, "tracking_id"));
        uint64_t ts = (uint64_t)json_integer_value(json_object_get(e, "timestamp_ns"));
        size_t k = 0;
        while (k < n && pairs[k].tracking != tracking)
            k++;
        if (strcmp(json_string_value(json_object_get(e, "phase")), "start") == 0) {
            ck_assert_msg(k == n, "nc %llu: a second START of tracking id %llu",
                          (unsigned long long)nc, (unsigned long long)tracking);
            ck_assert_uint_lt(n, MAX);
            pairs[n] = (lnc_span_t){nc, (uint64_t)json_integer_value(
                                            json_object_get(data, "device_core_idx")),
                                    tracking, ts, 0, 0};
            exec_of[n++] = (uint64_t)json_integer_value(json_object_get(data, "exec_id"));
        } else {
            ck_assert_msg(k < n && pairs[k].stop == 0, "nc %llu: a STOP of tracking id %llu "
                          "without its START", (unsigned long long)nc,
                          (unsigned long long)tracking);
            ck_assert_msg(ts > pairs[k].start, "nc %llu: nonpositive device interval",
                          (unsigned long long)nc);
            pairs[k].stop = ts;
        }
    }
    uint64_t set_a = UINT64_MAX, set_b = UINT64_MAX;
    unsigned invocations = 0;
    for (size_t k = 0; k < n; k++) {
        ck_assert_msg(pairs[k].stop != 0, "nc %llu: unmatched START", (unsigned long long)nc);
        size_t first = 0;
        while (exec_of[first] != exec_of[k])
            first++;
        if (first != k)
            continue; /* this invocation was taken at its first pair */
        invocations++;
        uint64_t cores[4], lo_t = UINT64_MAX, hi_t = 0;
        size_t nc_cores = 0;
        for (size_t m = k; m < n; m++) {
            if (exec_of[m] != exec_of[k])
                continue;
            size_t c = 0;
            while (c < nc_cores && cores[c] != pairs[m].core)
                c++;
            if (c == nc_cores && nc_cores < 4)
                cores[nc_cores++] = pairs[m].core;
            lo_t = pairs[m].start < lo_t ? pairs[m].start : lo_t;
            hi_t = pairs[m].stop > hi_t ? pairs[m].stop : hi_t;
        }
        ck_assert_msg(nc_cores == 2, "nc %llu exec %llu: %zu physical cores, not both",
                      (unsigned long long)nc, (unsigned long long)exec_of[k], nc_cores);
        uint64_t a = cores[0] < cores[1] ? cores[0] : cores[1];
        uint64_t b = cores[0] ^ cores[1] ^ a;
        if (set_a == UINT64_MAX) {
            set_a = a;
            set_b = b;
        }
        ck_assert_msg(a == set_a && b == set_b, "nc %llu: invocations on cores {%llu, %llu} "
                      "and {%llu, %llu}", (unsigned long long)nc, (unsigned long long)set_a,
                      (unsigned long long)set_b, (unsigned long long)a, (unsigned long long)b);
        /* The two spans overlap (checked by the caller), so their union is
         * one interval. */
        ck_assert_msg(hi_t - lo_t >= lo && hi_t - lo_t <= hi,
                      "nc %llu exec %llu: union %llu ns, not in [%llu, %llu]",
                      (unsigned long long)nc, (unsigned long long)exec_of[k],
                      (unsigned long long)(hi_t - lo_t), (unsigned long long)lo,
                      (unsigned long long)hi);
    }
    return invocations;
}

/* D-LNC and D-JSON-TIME under LNC 2 (one trn2 device, 4 logical NCs over 8
 * physical cores, each logical NC on its own drifting device clock, 3 ms
 * apart from its neighbour): every execution has exactly two
 * nc_exec_running spans on one nc_idx, with device_core_idx 2k and 2k + 1
 * of logical NC k (physical cores, as public traces show: nc_idx 0 on cores
 * 4 and 5), the same exec_id, their own tracking ids, one device clock
 * (equal raw starts); every device event's timestamp_ns is the public
 * guide's sync_cpu + (dev - sync_dev) with the TIMESTAMP_SYNC of its
 * execution on its NC (the STOPs through their STARTs); and a one-NC timer
 * consumer accepts each logical NC's capture, timing every invocation at
 * the model's device time (40 us, jittered by up to 1/16 either way, and
 * up to 13 ns of drift between the sync point and the span's end). */
START_TEST(test_lnc2_execution_is_two_core_spans_that_a_one_nc_timer_accepts)
{
    char errors[2048];
    ntsim_scenario_t *sc = malloc(sizeof *sc);
    static const char text[] =
        "version: 1\nname: lnc2\nseed: 9\nduration_ns: 500000\n"
        "instance: {devices: 1, cores_per_device: 8, lnc: 2}\n"
        "host: {threads: 4, request_interval_ns: 30000}\n"
        "clocks:\n"
        "  - {core: 0, offset_ns: 1000000, drift_ppm: 200}\n"
        "  - {core: 2, offset_ns: -2000000, drift_ppm: -300}\n"
        "  - {core: 4, offset_ns: 1000000, drift_ppm: 250}\n"
        "  - {core: 6, offset_ns: -2000000, drift_ppm: -150}\n"
        "models: [{id: 1, name: m, exec_ns: 40000}]\n"
        "capture: {max_events_per_nc: 65536}\n";
    ck_assert_msg(ntsim_scenario_load_string("lnc2", text, sizeof text - 1, sc, errors,
                                             sizeof errors) == NRT_SUCCESS,
                  "%s", errors);
    ntsim_run_result_t r;
    mem_outputs_t m;
    run_to_memory(sc, &r, &m);
    json_error_t err;
    json_t *doc = json_loadb(m.bytes[OUT_JSON], m.len[OUT_JSON], 0, &err);
    ck_assert_msg(doc != NULL, "trace.json: %s", err.text);
    json_t *events = json_object_get(doc, "events");
    enum { MAX_EXEC = 256 };
    static lnc_span_t spans[MAX_EXEC][3];
    static unsigned count[MAX_EXEC];
    static uint64_t sync_cpu[MAX_EXEC], sync_dev[MAX_EXEC], sync_nc[MAX_EXEC];
    memset(count, 0, sizeof count);
    memset(sync_cpu, 0, sizeof sync_cpu);
    /* The sync points first: each execution's, by exec_id. */
    for (size_t i = 0; i < json_array_size(events); i++) {
        json_t *e = json_array_get(events, i);
        if (strcmp(json_string_value(json_object_get(e, "event_type")),
                   "timestamp_sync_point") != 0)
            continue;
        json_t *data = json_object_get(e, "data");
        uint64_t x = (uint64_t)json_integer_value(json_object_get(data, "exec_id"));
        ck_assert_uint_lt(x, MAX_EXEC);
        ck_assert_uint_eq(sync_cpu[x], 0); /* one per execution */
        sync_cpu[x] = (uint64_t)json_integer_value(json_object_get(data, "cpu_timestamp_ns"));
        sync_dev[x] = (uint64_t)json_integer_value(json_object_get(data, "nc_timestamp_ns"));
        sync_nc[x] = (uint64_t)json_integer_value(json_object_get(e, "nc_idx"));
    }
    unsigned aligned = 0;
    for (size_t i = 0; i < json_array_size(events); i++) {
        json_t *e = json_array_get(events, i);
        const char *type = json_string_value(json_object_get(e, "event_type"));
        json_t *data = json_object_get(e, "data");
        json_t *dev = json_object_get(data, "nc_timestamp_ns");
        uint64_t ts = (uint64_t)json_integer_value(json_object_get(e, "timestamp_ns"));
        uint64_t nc = (uint64_t)json_integer_value(json_object_get(e, "nc_idx"));
        uint64_t tracking = (uint64_t)json_integer_value(json_object_get(e, "tracking_id"));
        bool start = strcmp(json_string_value(json_object_get(e, "phase")), "start") == 0;
        json_t *exec = json_object_get(data, "exec_id");
        uint64_t x = exec != NULL ? (uint64_t)json_integer_value(exec) : MAX_EXEC;
        if (strcmp(type, "nc_exec_running") == 0) {
            if (start) {
                ck_assert_uint_lt(x, MAX_EXEC);
                ck_assert_uint_lt(count[x], 3);
                lnc_span_t *s = &spans[x][count[x]++];
                *s = (lnc_span_t){nc, (uint64_t)json_integer_value(
                                          json_object_get(data, "device_core_idx")),
                                  tracking, ts, 0, (uint64_t)json_integer_value(dev)};
            } else { /* a STOP names no core nor execution: its START's */
                for (size_t k = 0; k < MAX_EXEC && x == MAX_EXEC; k++)
                    for (unsigned j = 0; j < count[k]; j++)
                        if (spans[k][j].tracking == tracking && spans[k][j].nc == nc) {
                            spans[k][j].stop = ts;
                            x = k;
                        }
            }
        }
        if (dev == NULL || strcmp(type, "timestamp_sync_point") == 0 || x >= MAX_EXEC)
            continue;
        ck_assert_msg(sync_cpu[x] != 0 && sync_nc[x] == nc, "%s of exec %llu: no sync point",
                      type, (unsigned long long)x);
        uint64_t want = sync_cpu[x] + ((uint64_t)json_integer_value(dev) - sync_dev[x]);
        ck_assert_msg(ts == want, "event %zu (%s, exec %llu): timestamp_ns %llu, want %llu", i,
                      type, (unsigned long long)x, (unsigned long long)ts,
                      (unsigned long long)want);
        aligned++;
    }
    unsigned executions = 0;
    for (size_t x = 1; x < MAX_EXEC; x++) {
        if (count[x] == 0)
            continue;
        executions++;
        const lnc_span_t *a = &spans[x][0], *b = &spans[x][1];
        ck_assert_msg(count[x] == 2, "exec %zu: %u nc_exec_running spans", x, count[x]);
        ck_assert_uint_eq(a->nc, b->nc);
        ck_assert_uint_eq(a->core, 2 * a->nc);
        ck_assert_uint_eq(b->core, 2 * a->nc + 1);
        ck_assert_uint_ne(a->tracking, b->tracking);
        ck_assert_msg(a->start < a->stop && b->start < b->stop,
                      "exec %zu: a span without a positive duration", x);
        ck_assert_msg(a->start < b->stop && b->start < a->stop,
                      "exec %zu: [%llu, %llu] and [%llu, %llu] do not overlap", x,
                      (unsigned long long)a->start, (unsigned long long)a->stop,
                      (unsigned long long)b->start, (unsigned long long)b->stop);
        /* One device clock per logical NC: both cores read the same time. */
        ck_assert_uint_eq(a->raw_start, b->raw_start);
    }
    ck_assert_uint_eq(executions, r.executes);
    /* A thread's cycle: ~10 us of host steps, 40 us (+-1/16) on the device,
     * 30 us between requests, so at least 6 each in 500 us, 4 threads. */
    ck_assert_uint_ge(executions, 24);
    ck_assert_uint_ge(aligned, 4 * executions);
    unsigned timed = 0;
    for (uint64_t nc = 0; nc < 4; nc++)
        timed += one_nc_timer(events, nc, 40000 - 2500 - 20, 40000 + 2500 + 20);
    ck_assert_uint_eq(timed, executions);
    json_decref(doc);
    mem_outputs_free(&m);
    free(sc);
}
END_TEST

/* The instance's NCs as a process sees them: visible_cores "6-9" of a
 * 16 x 2 instance at LNC 1 are nc_idx 0..3 with worker_gid 6..9 (vnc_idx_to_gid),
 * and trace.ntff writes each event's nd_idx as its NC's device (3, 3, 4, 4). */
START_TEST(test_visible_cores_map_nc_idx_to_worker_gid_and_device)
{
    char errors[2048];
    ntsim_scenario_t *sc = malloc(sizeof *sc);
    static const char text[] =
        "version: 1\nname: vis\nduration_ns: 200000\n"
        "instance: {devices: 16, cores_per_device: 2, visible_cores: \"6-9\"}\n"
        "host: {threads: 4}\nmodels: [{id: 1, name: m}]\n";
    ck_assert_msg(ntsim_scenario_load_string("vis", text, sizeof text - 1, sc, errors,
                                             sizeof errors) == NRT_SUCCESS,
                  "%s", errors);
    ck_assert_uint_eq(sc->cores, 4);
    ntsim_run_result_t r;
    mem_outputs_t m;
    run_to_memory(sc, &r, &m);
    json_error_t err;
    json_t *doc = json_loadb(m.bytes[OUT_JSON], m.len[OUT_JSON], 0, &err);
    ck_assert_msg(doc != NULL, "trace.json: %s", err.text);
    json_t *events = json_object_get(doc, "events");
    unsigned seen[4] = {0};
    for (size_t i = 0; i < json_array_size(events); i++) {
        json_t *e = json_array_get(events, i);
        uint64_t nc = (uint64_t)json_integer_value(json_object_get(e, "nc_idx"));
        ck_assert_uint_lt(nc, 4);
        ck_assert_int_eq(json_integer_value(json_object_get(e, "worker_gid")), (json_int_t)(6 + nc));
        seen[nc]++;
    }
    for (int nc = 0; nc < 4; nc++)
        ck_assert_uint_gt(seen[nc], 10);
    Ntff__NtraceInfo *info =
        ntff__ntrace_info__unpack(NULL, m.len[OUT_NTFF], (const uint8_t *)m.bytes[OUT_NTFF]);
    ck_assert_ptr_nonnull(info);
    ck_assert_uint_eq(info->n_events, r.record_count);
    const uint32_t device[4] = {3, 3, 4, 4};
    for (size_t i = 0; i < info->n_events; i++)
        ck_assert_uint_eq(info->events[i]->nd_idx, device[info->events[i]->nc_idx]);
    ck_assert_uint_eq(info->logical_nc_size, 1);
    ntff__ntrace_info__free_unpacked(info, NULL);
    json_decref(doc);
    mem_outputs_free(&m);
    free(sc);
}
END_TEST

/* The example: a ring of 1024 with 1500 events on NC 0 shows 476
 * overwritten (only GENERIC captured: the marker plus a burst of 1499). */
START_TEST(test_ring_overflow_fault_overwrites_the_excess)
{
    ntsim_scenario_t *sc = malloc(sizeof *sc);
    ntsim_scenario_default(sc);
    sc->cores = 1;
    sc->host_threads = 0;
    sc->max_events_per_nc = 1024;
    for (int t = 1; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        sc->type_disabled[t] = true;
    sc->faults[0] = (ntsim_fault_t){NTSIM_FAULT_RING_BURST, 10000, 0, 1499, 0, 0};
    sc->fault_count = 1;
    ntsim_run_result_t r;
    mem_outputs_t m;
    run_to_memory(sc, &r, &m);
    ck_assert_uint_eq(r.nc_stats[0].created, 1500);
    ck_assert_uint_eq(r.nc_stats[0].overwritten, 476);
    ck_assert_uint_eq(r.nc_stats[0].drained, 1024);
    ck_assert_uint_eq(r.record_count, 1024);
    nrt_sys_trace_event_t oldest;
    memcpy(&oldest, m.bytes[OUT_RECORDS], sizeof oldest);
    ck_assert_uint_eq(oldest.nc_local_id, 476); /* the oldest kept */
    ck_assert_uint_eq(r.nc_stats[0].first_overwrite_ns, sc->host_start_ns + 10000);
    mem_outputs_free(&m);
    free(sc);
}
END_TEST

START_TEST(test_stop_before_fetch_loses_everything_and_counts_it)
{
    ntsim_scenario_t *sc = malloc(sizeof *sc);
    ntsim_scenario_default(sc);
    sc->cores = 1;
    sc->host_threads = 0;
    sc->model_count = 1;
    sc->faults[0] = (ntsim_fault_t){NTSIM_FAULT_STOP_BEFORE_FETCH, 0, 0, 0, 0, 0};
    sc->fault_count = 1;
    ntsim_run_result_t r;
    ck_assert_int_eq(ntsim_sim_run(sc, NULL, NULL, NULL, &r), NRT_SUCCESS);
    /* marker 1 + MODEL_LOAD 2 + two DMA_MEM_ALLOC pairs 4 + two DEALLOC pairs 4 */
    ck_assert_uint_eq(r.events_emitted, 11);
    ck_assert_uint_eq(r.record_count, 0);
    ck_assert_uint_eq(r.nc_stats[0].lost_at_stop, 11);
    free(sc);
}
END_TEST

/* `trace.json` is the fetch document: the same records fetched, or drained
 * and serialized as the simulator does, give the same bytes. */
START_TEST(test_drained_and_serialized_equals_fetched)
{
    char *docs[2];
    size_t lens[2];
    for (int pass = 0; pass < 2; pass++) {
        ntsim_fixture_begin(777, 3, 55); /* its own sink; restored below */
        nrt_sys_trace_config_t cfg;
        const uint32_t ncs[] = {0, 5};
        ntsim_fixture_config(&cfg, 1024, ncs, 2);
        ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
        nrt_sys_trace_event_data_t d;
        memset(&d, 0, sizeof d);
        for (int i = 0; i < 10; i++) {
            d.exec_pre.exec_id = (uint64_t)i;
            nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_EXEC_PRE,
                                    NRT_SYS_TRACE_EVENT_PHASE_START, i % 2 ? 5 : 0, &d, 0);
        }
        if (pass == 0) {
            docs[0] = NULL;
            ck_assert_int_eq(nrt_sys_trace_fetch_events(&docs[0], &lens[0], NULL), NRT_SUCCESS);
        } else {
            nrt_sys_trace_event_t recs[10];
            size_t n0, n5;
            ck_assert_int_eq(nrt_sys_trace_drain_events(0, recs, 10, &n0), NRT_SUCCESS);
            ck_assert_int_eq(nrt_sys_trace_drain_events(5, recs + n0, 10 - n0, &n5), NRT_SUCCESS);
            ck_assert_int_eq(ntsim_json_serialize(recs, n0 + n5, &docs[1], &lens[1]),
                             NRT_SUCCESS);
        }
        ntsim_fixture_end();
    }
    ntsim_log_set_sink(ntsim_check_quiet_log, NULL);
    ck_assert_uint_eq(lens[0], lens[1]);
    ck_assert_str_eq(docs[0], docs[1]);
    nrt_sys_trace_buffer_free(docs[0]);
    nrt_sys_trace_buffer_free(docs[1]);
}
END_TEST

/* --- what a run costs, before it runs (D-SCENARIO-BUDGET) ------------------------- */

/* The estimate bounds the run from above, and not by so much that the
 * budget refuses runs far below it: within 4x plus the fixed part. */
static void assert_estimate_bounds(const char *what, const ntsim_scenario_t *sc)
{
    ntsim_scenario_estimate_t e;
    ntsim_scenario_estimate(sc, &e);
    ntsim_run_result_t *r = malloc(sizeof *r);
    ck_assert_int_eq(ntsim_sim_run(sc, NULL, NULL, NULL, r), NRT_SUCCESS);
    ck_assert_msg(e.total >= r->events_emitted, "%s: estimated %llu, emitted %llu", what,
                  (unsigned long long)e.total, (unsigned long long)r->events_emitted);
    ck_assert_msg(e.total <= 4 * r->events_emitted + 2000, "%s: estimated %llu, emitted %llu",
                  what, (unsigned long long)e.total, (unsigned long long)r->events_emitted);
    ck_assert_msg(e.executes >= r->executes, "%s: estimated %llu executes, ran %llu", what,
                  (unsigned long long)e.executes, (unsigned long long)r->executes);
    free(r);
    ntsim_capture_shutdown();
}

START_TEST(test_event_estimate_bounds_every_committed_scenario)
{
    ntsim_scenario_t *sc = malloc(sizeof *sc);
    char path[1024], errors[2048], why[256], *dir = NULL;
    /* Every shipped scenario, as the directory lists them. */
    char *names = ntsim_scenario_shipped(&dir, why, sizeof why);
    ck_assert_msg(names != NULL, "%s", why);
    for (char *name = strtok(names, ", "); name != NULL; name = strtok(NULL, ", ")) {
        snprintf(path, sizeof path, "%s/%s.yaml", dir, name);
        ck_assert_msg(ntsim_scenario_load(path, sc, errors, sizeof errors) == NRT_SUCCESS, "%s",
                      errors);
        assert_estimate_bounds(path, sc);
    }
    free(names);
    free(dir);
    ntsim_scenario_default(sc);
    assert_estimate_bounds("the built-in default", sc);
    /* The extremes of one execute: 8 + 8 tensors, collectives, LNC 2, the
     * shortest device time; and a long run of the default's shape. */
    static const char widest[] =
        "version: 1\nname: widest\nduration_ns: 2000000\n"
        "instance: {devices: 1, cores_per_device: 4, lnc: 2}\n"
        "host: {threads: 4, request_interval_ns: 1}\n"
        "models:\n  - {id: 1, exec_ns: 2, inputs: 8, outputs: 8, collectives: true}\n"
        "  - {id: 2, exec_ns: 2, inputs: 8, outputs: 8, collectives: true}\n";
    ck_assert_msg(ntsim_scenario_load_string("widest", widest, sizeof widest - 1, sc, errors,
                                             sizeof errors) == NRT_SUCCESS, "%s", errors);
    assert_estimate_bounds("widest", sc);
    ntsim_scenario_default(sc);
    sc->duration_ns = 200000000;
    assert_estimate_bounds("the default for 200 ms", sc);
    free(sc);
}
END_TEST

/* A typo that would run for hours is refused before it starts, at the
 * field behind the estimate; a budget raised for the run lets it through. */
START_TEST(test_scenario_past_the_event_budget_is_refused_at_its_fields)
{
    static const char huge[] = "version: 1\nname: huge\ncores: 2\n"
                               "duration_ns: 1125899906842624\n"
                               "host: {request_interval_ns: 1}\n";
    ntsim_scenario_t *sc = malloc(sizeof *sc);
    char errors[2048];
    ck_assert_int_eq(ntsim_scenario_load_string("huge", huge, sizeof huge - 1, sc, errors,
                                                sizeof errors), NRT_INVALID);
    ck_assert_msg(strncmp(errors, "huge:4:14: duration_ns: the run would emit up to about ", 55) ==
                      0, "%s", errors);
    ck_assert_ptr_nonnull(strstr(errors, "past the budget of 20000000"));
    static const char burst[] = "version: 1\nname: burst\ncores: 1\nhost: {threads: 0}\n"
                                "faults:\n  - {kind: ring_burst, at_ns: 10, nc: 0, "
                                "events: 16000000}\n  - {kind: ring_burst, at_ns: 20, nc: 0, "
                                "events: 16000000}\n";
    ck_assert_int_eq(ntsim_scenario_load_string("burst", burst, sizeof burst - 1, sc, errors,
                                                sizeof errors), NRT_INVALID);
    ck_assert_msg(strncmp(errors, "burst:6:3: faults: the faults would emit up to about "
                                  "32000000 events", 67) == 0, "%s", errors);
    ntsim_scenario_set_event_budget(40000000);
    ck_assert_int_eq(ntsim_scenario_load_string("burst", burst, sizeof burst - 1, sc, errors,
                                                sizeof errors), NRT_SUCCESS);
    ntsim_scenario_set_event_budget(0);
    ck_assert_int_eq(ntsim_scenario_load_string("huge", huge, sizeof huge - 1, sc, errors,
                                                sizeof errors), NRT_SUCCESS);
    ntsim_scenario_set_event_budget(NTSIM_SCENARIO_EVENT_BUDGET);
    free(sc);
}
END_TEST

/* --- bad scenarios --------------------------------------------------------------- */

static void expect_scenario_error(const char *file, const char *suffix)
{
    char path[1024], want[1200];
    snprintf(path, sizeof path, "%s/scenarios/%s", ntsim_check_testdata_dir, file);
    snprintf(want, sizeof want, "%s%s\n", path, suffix);
    ntsim_scenario_t *sc = malloc(sizeof *sc);
    char errors[2048];
    ck_assert_int_eq(ntsim_scenario_load(path, sc, errors, sizeof errors), NRT_INVALID);
    ck_assert_str_eq(errors, want);
    free(sc);
}

START_TEST(test_scenario_rejects_an_unknown_key)
{
    /* did you mean: the allowed key nearest it (sim/scenario_keys.c's) */
    expect_scenario_error("unknown_key.yaml", ":4:1: core: unknown key (did you mean cores?)");
}
END_TEST

START_TEST(test_scenario_rejects_negative_cores)
{
    expect_scenario_error("negative_cores.yaml", ":4:8: cores: -2 is out of range [1, 256]");
}
END_TEST

START_TEST(test_scenario_rejects_an_nc_out_of_range)
{
    expect_scenario_error("nc_out_of_range.yaml",
                          ":5:12: clocks[0].core: 512 is out of range [0, 511]");
}
END_TEST

/* The instance (D-LNC): each malformed form names its field and what is wrong. */
START_TEST(test_scenario_rejects_a_visible_range_that_runs_backwards)
{
    expect_scenario_error("visible_backwards.yaml",
                          ":5:18: instance.visible_cores: '3-1': the range ends before it starts "
                          "(the instance's logical NCs are 0..3)");
}
END_TEST

START_TEST(test_scenario_rejects_an_lnc_that_does_not_divide_the_cores)
{
    expect_scenario_error("lnc_not_dividing.yaml",
                          ":4:50: instance.lnc: 2 does not divide cores_per_device 3");
}
END_TEST

START_TEST(test_scenario_rejects_more_than_256_visible_ncs)
{
    expect_scenario_error("too_many_visible.yaml",
                          ":4:11: instance: more than 256 visible logical NCs (the runtime "
                          "panics, F5.start.vnc_panic): narrow visible_cores");
}
END_TEST

START_TEST(test_scenario_rejects_cores_with_an_instance)
{
    expect_scenario_error("cores_and_instance.yaml",
                          ":5:11: instance: give cores or instance, not both");
}
END_TEST

START_TEST(test_scenario_rejects_an_unknown_event_name)
{
    expect_scenario_error("unknown_event_type.yaml",
                          ":5:29: capture.disabled_types[1]: unknown event type 'HW_NOTIFI' "
                          "(an enum suffix such as HW_NOTIFY)");
}
END_TEST

START_TEST(test_scenario_rejects_an_unknown_fault)
{
    expect_scenario_error("unknown_fault.yaml",
                          ":5:12: faults[0].kind: unknown fault 'ring_explosion' (ring_burst, "
                          "invalid_notification, numerical_error, stop_before_fetch)");
}
END_TEST

START_TEST(test_scenario_rejects_a_fault_beyond_its_cores)
{
    expect_scenario_error("fault_beyond_cores.yaml",
                          ":6:3: faults: fault 0 names NC 3, but the scenario has 2 cores");
}
END_TEST

START_TEST(test_scenario_rejects_malformed_yaml_with_the_parser_position)
{
    expect_scenario_error("malformed_yaml.yaml",
                          ":6:1: yaml: did not find expected ',' or ']' (while parsing a flow "
                          "sequence at line 5)");
}
END_TEST

START_TEST(test_scenario_rejects_a_string_where_an_integer_belongs)
{
    expect_scenario_error("wrong_type.yaml", ":4:8: cores: expected an integer, got 'two'");
}
END_TEST

/* `cores: !!str 2` is refused as `cores: "2"` is: neither is read as the
 * integer 2 (a tag was read as if it were not there; issue 35). */
START_TEST(test_scenario_rejects_a_tagged_scalar_as_a_quoted_one)
{
    expect_scenario_error("tagged_integer.yaml",
                          ":5:8: cores: the tag '!!str' is not read here: a value is typed by its "
                          "text (2 is an integer, \"2\" a string); write it without the tag");
    ntsim_scenario_t *sc = malloc(sizeof *sc);
    char errors[2048];
    static const char quoted[] = "version: 1\nname: q\ncores: \"2\"\n";
    ck_assert_int_eq(ntsim_scenario_load_string("q", quoted, sizeof quoted - 1, sc, errors,
                                                 sizeof errors), NRT_INVALID);
    ck_assert_ptr_nonnull(strstr(errors, "q:3:8: cores: expected an integer, got the quoted"));
    static const char deep[] = "version: 1\nname: d\nmodels:\n  - {id: 1, exec_ns: !!int 9}\n";
    ck_assert_int_eq(ntsim_scenario_load_string("d", deep, sizeof deep - 1, sc, errors,
                                                sizeof errors), NRT_INVALID);
    ck_assert_ptr_nonnull(strstr(errors, "d:4:22: models[0].exec_ns: the tag '!!int' is not read"));
    free(sc);
}
END_TEST

/* A scenario's integers are plain decimal: 0x10 is refused as 010 is (not
 * read as hex, nor as octal), a quoted one is said to be a string, and each
 * message says what to write (D-SCENARIO-INTEGERS). Every field reads
 * through the same rule, sequence items too. */
START_TEST(test_scenario_integers_are_plain_decimal)
{
    static const struct {
        const char *line, *want;
    } cases[] = {
        {"cores: 0x10", "s:3:8: cores: '0x10': integers here are decimal (write 16)\n"},
        {"cores: 010", "s:3:8: cores: '010' has a leading zero, which is not read as octal "
                       "here: write 10\n"},
        {"seed: 0xdeadbeef", "s:3:7: seed: '0xdeadbeef': integers here are decimal (write "
                             "3735928559)\n"},
        {"duration_ns: \"1000\"", "s:3:14: duration_ns: expected an integer, got the quoted "
                                  "string '1000' (a quoted scalar is a string: write it "
                                  "without quotes)\n"},
        {"duration_ns: '0x10'", "s:3:14: duration_ns: expected an integer, got the quoted "
                                "string '0x10' (a quoted scalar is a string: write it without "
                                "quotes)\n"},
        {"duration_ns: 18446744073709551616",
         "s:3:14: duration_ns: 18446744073709551616 is out of range [0, 1125899906842624]\n"},
        {"cores: 99999999999999999999", "s:3:8: cores: 99999999999999999999 is out of range "
                                        "[1, 256]\n"},
        {"capture: {disabled_ncs: [1, 0x1]}",
         "s:3:29: capture.disabled_ncs[1]: '0x1': integers here are decimal (write 1)\n"},
        {"capture: {disabled_ncs: [\"1\"]}",
         "s:3:26: capture.disabled_ncs[0]: expected an integer, got the quoted string '1' (a "
         "quoted scalar is a string: write it without quotes)\n"},
        {"cores: 16", NULL},
    };
    ntsim_scenario_t *sc = malloc(sizeof *sc);
    ck_assert_ptr_nonnull(sc);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[256], errors[1024] = "";
        int len = snprintf(text, sizeof text, "version: 1\nname: x\n%s\n", cases[i].line);
        NRT_STATUS st = ntsim_scenario_load_string("s", text, (size_t)len, sc, errors,
                                                   sizeof errors);
        if (cases[i].want == NULL) {
            ck_assert_msg(st == NRT_SUCCESS, "%s", errors);
            ck_assert_uint_eq(sc->cores, 16);
        } else {
            ck_assert_int_eq(st, NRT_INVALID);
            ck_assert_str_eq(errors, cases[i].want);
        }
    }
    free(sc);
}
END_TEST

START_TEST(test_scenario_rejects_a_mapping_where_a_sequence_belongs)
{
    expect_scenario_error("faults_not_a_list.yaml", ":5:3: faults: expected a sequence");
}
END_TEST

Suite *make_sim_suite(void)
{
    Suite *s = suite_create("sim");
    TCase *tc = tcase_create("sim");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_scheduler_fires_by_time_then_by_scheduling_order);
    tcase_add_test(tc, test_device_clock_applies_offset_and_drift_exactly);
    tcase_add_test(tc, test_clock_offset_and_drift_are_recovered_from_sync_info);
    tcase_add_test(tc, test_same_scenario_and_seed_give_identical_bytes);
    tcase_add_test(tc, test_periodic_fetches_stream_one_document_and_forget_old_executions);
    tcase_add_test(tc, test_default_run_has_every_type_and_only_its_faults_drops);
    tcase_add_test(tc, test_numerical_error_is_reported_by_the_next_execute_on_its_nc);
    tcase_add_test(tc, test_device_spans_of_two_drifting_cores_land_on_the_host_timeline);
    tcase_add_test(tc, test_lnc2_execution_is_two_core_spans_that_a_one_nc_timer_accepts);
    tcase_add_test(tc, test_visible_cores_map_nc_idx_to_worker_gid_and_device);
    tcase_add_test(tc, test_ring_overflow_fault_overwrites_the_excess);
    tcase_add_test(tc, test_stop_before_fetch_loses_everything_and_counts_it);
    tcase_add_test(tc, test_drained_and_serialized_equals_fetched);
    tcase_add_test(tc, test_event_estimate_bounds_every_committed_scenario);
    tcase_add_test(tc, test_scenario_past_the_event_budget_is_refused_at_its_fields);
    tcase_add_test(tc, test_scenario_rejects_an_unknown_key);
    tcase_add_test(tc, test_scenario_rejects_negative_cores);
    tcase_add_test(tc, test_scenario_rejects_an_nc_out_of_range);
    tcase_add_test(tc, test_scenario_rejects_an_unknown_event_name);
    tcase_add_test(tc, test_scenario_rejects_a_visible_range_that_runs_backwards);
    tcase_add_test(tc, test_scenario_rejects_an_lnc_that_does_not_divide_the_cores);
    tcase_add_test(tc, test_scenario_rejects_more_than_256_visible_ncs);
    tcase_add_test(tc, test_scenario_rejects_cores_with_an_instance);
    tcase_add_test(tc, test_scenario_rejects_an_unknown_fault);
    tcase_add_test(tc, test_scenario_rejects_a_fault_beyond_its_cores);
    tcase_add_test(tc, test_scenario_rejects_malformed_yaml_with_the_parser_position);
    tcase_add_test(tc, test_scenario_rejects_a_string_where_an_integer_belongs);
    tcase_add_test(tc, test_scenario_rejects_a_tagged_scalar_as_a_quoted_one);
    tcase_add_test(tc, test_scenario_integers_are_plain_decimal);
    tcase_add_test(tc, test_scenario_rejects_a_mapping_where_a_sequence_belongs);
    suite_add_tcase(s, tc);
    return s;
}
