/*
 * conformance/testee/builtin/testee_capture.c: the built-in testee's record answer: emit
 * calls through the real capture engine on the capture fixture's virtual
 * clock, then the drain, stop(), the counters and the log, in that order:
 *
 *   fixture begin (clock, thread id, log sink)
 *   start(config)                   unless the session is not capturing
 *   every emit, `repeat` times      (the _with_seq shim when nrta_seq_id is given)
 *   drain(drain_nc, capacity)       when asked
 *   stop()                          when asked
 *   ntsim_capture_nc_stats, ntsim_capture_global_stats, the log
 *   fixture end (stops a capture left running, restores hooks and sink)
 *
 * A start() that fails ends the answer there (start_status says why).
 */
#include <stdlib.h>
#include <string.h>

#include "capture_fixture.h"
#include "testee_engine_int.h"

/* The largest drain buffer a request may ask for, in records. */
#define MAX_DRAIN_CAPACITY (UINT64_C(1) << 20)

static NRT_STATUS start_session(const NtsimTestee__Session *s, int32_t *status, char *err,
                                size_t cap)
{
    nrt_sys_trace_config_t cfg;
    nrt_sys_trace_config_set_defaults(&cfg);
    cfg.max_events_per_nc = s->max_events_per_nc;
    memset(cfg.capture_enabled_for_nc, 0, sizeof cfg.capture_enabled_for_nc);
    for (size_t i = 0; i < s->n_ncs; i++) {
        if (s->ncs[i] >= NTSIM_NC_COUNT) {
            snprintf(err, cap, "session.ncs[%zu]: NC %u is not below %d", i, s->ncs[i],
                     NTSIM_NC_COUNT);
            return NRT_INVALID;
        }
        cfg.capture_enabled_for_nc[s->ncs[i]] = true;
    }
    for (size_t i = 0; i < s->n_disabled_types; i++) {
        if (s->disabled_types[i] >= NRT_SYS_TRACE_EVENT_TYPE_COUNT) {
            snprintf(err, cap, "session.disabled_types[%zu]: %u is not an event type", i,
                     s->disabled_types[i]);
            return NRT_INVALID;
        }
        cfg.capture_enabled_for_event_type[s->disabled_types[i]] = false;
    }
    *status = nrt_sys_trace_start(&cfg);
    return NRT_SUCCESS;
}

static uint64_t emit_once(const NtsimTestee__Emit *e, const nrt_sys_trace_event_data_t *data)
{
    nrt_sys_trace_event_type_t type = (nrt_sys_trace_event_type_t)e->type;
    nrt_sys_trace_event_phase_t phase = (nrt_sys_trace_event_phase_t)e->phase;
    return e->has_nrta_seq_id
               ? nrt_sys_trace_new_event_with_seq(type, phase, e->nc_idx, data, e->tracking_id,
                                                  e->nrta_seq_id)
               : nrt_sys_trace_new_event(type, phase, e->nc_idx, data, e->tracking_id);
}

/* The most emit calls one request may make (the vectors' own budget). */
#define MAX_EMIT_CALLS UINT64_C(4000000)

static NRT_STATUS run_emits(const NtsimTestee__RecordRequest *q, ntsim_arena_t *a,
                            NtsimTestee__RecordReply *m, char *err, size_t cap)
{
    uint64_t calls = 0;
    for (size_t i = 0; i < q->n_emits; i++)
        calls += q->emits[i]->repeat < MAX_EMIT_CALLS ? q->emits[i]->repeat : MAX_EMIT_CALLS;
    if (calls > MAX_EMIT_CALLS) {
        snprintf(err, cap, "more than %llu emit calls", (unsigned long long)MAX_EMIT_CALLS);
        return NRT_INVALID;
    }
    m->emits = ntsim_arena_array(a, q->n_emits, sizeof *m->emits);
    if (m->emits == NULL)
        return NRT_RESOURCE;
    for (size_t i = 0; i < q->n_emits; i++) {
        const NtsimTestee__Emit *e = q->emits[i];
        nrt_sys_trace_event_data_t buf;
        const nrt_sys_trace_event_data_t *data;
        NRT_STATUS st = ntsim__testee_data(e->has_data, &e->data, &buf, &data, err, cap);
        NtsimTestee__EmitResult *x = ntsim_arena_alloc(a, sizeof *x);
        if (st != NRT_SUCCESS || x == NULL)
            return st != NRT_SUCCESS ? st : NRT_RESOURCE;
        ntsim_testee__emit_result__init(x);
        for (uint64_t k = 1; k < e->repeat; k++) {
            uint64_t id = emit_once(e, data);
            if (id != 0 && x->earlier_nonzero++ == 0) {
                x->has_earlier_first = 1;
                x->earlier_first = id;
            }
        }
        x->returns = e->repeat > 0 ? emit_once(e, data) : 0;
        m->emits[m->n_emits++] = x;
    }
    return NRT_SUCCESS;
}

static NRT_STATUS drain(const NtsimTestee__RecordRequest *q, ntsim_arena_t *a,
                        NtsimTestee__RecordReply *m, char *err, size_t cap)
{
    uint64_t capacity = q->has_drain_capacity ? q->drain_capacity : 1024;
    if (capacity > MAX_DRAIN_CAPACITY) {
        snprintf(err, cap, "drain_capacity %llu is above %llu records",
                 (unsigned long long)capacity, (unsigned long long)MAX_DRAIN_CAPACITY);
        return NRT_INVALID;
    }
    nrt_sys_trace_event_t *recs = calloc(capacity ? capacity : 1, sizeof *recs);
    if (recs == NULL)
        return NRT_RESOURCE;
    size_t n = 0;
    m->has_drain_status = 1;
    m->drain_status = nrt_sys_trace_drain_events(q->drain_nc, recs, (size_t)capacity, &n);
    bool ok = ntsim_arena_records(a, recs, n, &m->records, &m->n_records);
    free(recs);
    return ok ? NRT_SUCCESS : NRT_RESOURCE;
}

/* The counters and the log, as the request asks. */
static NRT_STATUS observe(const NtsimTestee__RecordRequest *q, ntsim_arena_t *a,
                          NtsimTestee__RecordReply *m)
{
    if (q->has_stats_nc && (m->stats = ntsim__testee_nc_stats(a, q->stats_nc)) == NULL)
        return NRT_RESOURCE;
    if (q->global_stats) {
        ntsim_capture_stats_t g;
        (void)ntsim_capture_global_stats(&g); /* a stack struct: cannot fail */
        if ((m->global_stats = ntsim_arena_alloc(a, sizeof *m->global_stats)) == NULL)
            return NRT_RESOURCE;
        ntsim_testee__global_stats__init(m->global_stats);
        m->global_stats->invalid_type = g.invalid_type;
        m->global_stats->clamped_nc_idx = g.clamped_nc_idx;
    }
    if (q->log && (m->log = ntsim__testee_log(a)) == NULL)
        return NRT_RESOURCE;
    return NRT_SUCCESS;
}

static NRT_STATUS run_record(const NtsimTestee__RecordRequest *q, ntsim_arena_t *a,
                             NtsimTestee__RecordReply *m, char *err, size_t cap)
{
    NRT_STATUS st;
    if (q->session->capturing) {
        m->has_start_status = 1;
        if ((st = start_session(q->session, &m->start_status, err, cap)) != NRT_SUCCESS)
            return st;
        if (m->start_status != NRT_SUCCESS)
            return NRT_SUCCESS;
    }
    if ((st = run_emits(q, a, m, err, cap)) != NRT_SUCCESS)
        return st;
    if (q->has_drain_nc && (st = drain(q, a, m, err, cap)) != NRT_SUCCESS)
        return st;
    if (q->stop) {
        m->has_stop_status = 1;
        m->stop_status = nrt_sys_trace_stop();
    }
    return observe(q, a, m);
}

NRT_STATUS ntsim__testee_record(const NtsimTestee__Request *q, ntsim_arena_t *a,
                                NtsimTestee__Response *out, char *err, size_t cap)
{
    const NtsimTestee__RecordRequest *r = q->record;
    NtsimTestee__RecordReply *m = ntsim_arena_alloc(a, sizeof *m);
    if (m == NULL)
        return NRT_RESOURCE;
    ntsim_testee__record_reply__init(m);
    out->body_case = NTSIM_TESTEE__RESPONSE__BODY_RECORD;
    out->record = m;
    const NtsimTestee__Session *s = r->session;
    ntsim_fixture_begin(s->clock_start_ns, s->clock_step_ns, s->thread_id);
    NRT_STATUS st = run_record(r, a, m, err, cap);
    ntsim_fixture_end();
    return st;
}
