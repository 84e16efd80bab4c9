/*
 * conformance/kinds/kind_record_judge.c: judging a `record` vector (grammar:
 * kind_record.c). The vector is one RecordRequest to the testee
 * (testee.proto: the session's config, clock and thread id, the emit
 * calls, the drain, the counters and the log it may ask for); the built-in
 * testee makes the calls in testee_capture.c. The reply is compared here:
 * each emit's tracking id, the 112 bytes of every drained record (a
 * mismatch names the first differing byte and its field), the counters
 * (stats) and the log (log).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "abi_registry.h"
#include "event_table.h"
#include "kind_record.h"
#include "testee.h"

/* The record field (or payload field) that holds byte `off`, for reports. */
static void describe_byte(size_t off, const nrt_sys_trace_event_t *rec, char *out, size_t cap)
{
    const ntsim_abi_aggregate_t *a = ntsim_abi_aggregate_find("nrt_sys_trace_event_t");
    for (size_t i = 0; a != NULL && i < a->field_count; i++) {
        const ntsim_abi_field_t *f = &a->fields[i];
        if (off < f->offset || off >= f->offset + f->size)
            continue;
        if (strcmp(f->name, "data") != 0) {
            snprintf(out, cap, "%s", f->name);
            return;
        }
        size_t in = off - f->offset;
        ntsim_payload_id_t pid = ntsim__event_payload((uint32_t)rec->trace_type,
                                                     (uint32_t)rec->phase);
        const ntsim_payload_desc_t *d = &ntsim__payloads[pid];
        for (size_t j = 0; j < d->field_count; j++)
            if (in >= d->fields[j].offset && in < d->fields[j].offset + d->fields[j].size) {
                snprintf(out, cap, "data.%s.%s", d->member, d->fields[j].name);
                return;
            }
        snprintf(out, cap, "data.%s: a hole or past its end", d->member);
        return;
    }
    snprintf(out, cap, "padding");
}

static void compare_record(ntsim_report_t *r, const char *subid, const uint8_t *want,
                           const nrt_sys_trace_event_t *got)
{
    const uint8_t *g = (const uint8_t *)got;
    size_t first = RECORD_BYTES, diffs = 0;
    for (size_t i = 0; i < RECORD_BYTES; i++)
        if (want[i] != g[i]) {
            diffs++;
            if (first == RECORD_BYTES)
                first = i;
        }
    if (diffs == 0)
        return;
    char where[128];
    describe_byte(first, got, where, sizeof where);
    char want_hex[2 * RECORD_BYTES + 1], got_hex[2 * RECORD_BYTES + 1];
    for (size_t i = 0; i < RECORD_BYTES; i++) {
        snprintf(want_hex + 2 * i, 3, "%02x", want[i]);
        snprintf(got_hex + 2 * i, 3, "%02x", g[i]);
    }
    ntsim_report_add(r, subid, "bytes",
                     "%zu bytes differ, first at +0x%02zx (%s): expected %02x, got %02x\n"
                     "    expected %s\n    got      %s",
                     diffs, first, where, want[first], g[first], want_hex, got_hex);
}

/* --- the request ------------------------------------------------------------------- */

static bool session_request(const record_body_t *b, ntsim_arena_t *a, NtsimTestee__Session *s)
{
    ntsim_testee__session__init(s);
    s->has_capturing = s->has_max_events_per_nc = 1;
    s->capturing = b->capturing;
    s->max_events_per_nc = b->max_events;
    s->clock_start_ns = b->clock_start;
    s->clock_step_ns = b->clock_step;
    s->thread_id = b->thread_id;
    s->ncs = ntsim_arena_array(a, NTSIM_NC_COUNT, sizeof *s->ncs);
    s->disabled_types = ntsim_arena_array(a, NRT_SYS_TRACE_EVENT_TYPE_COUNT,
                                          sizeof *s->disabled_types);
    if (s->ncs == NULL || s->disabled_types == NULL)
        return false;
    for (uint32_t nc = 0; nc < NTSIM_NC_COUNT; nc++)
        if (b->ncs[nc])
            s->ncs[s->n_ncs++] = nc;
    for (uint32_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        if (!b->type_enabled[t])
            s->disabled_types[s->n_disabled_types++] = t;
    return true;
}

static NtsimTestee__Emit *emit_request(const record_emit_t *e, ntsim_arena_t *a)
{
    NtsimTestee__Emit *m = ntsim_arena_alloc(a, sizeof *m);
    if (m == NULL)
        return NULL;
    ntsim_testee__emit__init(m);
    m->type = e->type;
    m->phase = e->phase;
    m->nc_idx = e->nc_idx;
    m->has_tracking_id = e->tracking_id != 0;
    m->tracking_id = e->tracking_id;
    m->has_nrta_seq_id = e->has_seq;
    m->nrta_seq_id = e->nrta_seq_id;
    m->has_repeat = e->repeat != 1;
    m->repeat = e->repeat;
    m->has_data = e->has_data;
    return !e->has_data || ntsim_arena_bytes(a, &e->data, sizeof e->data, &m->data) ? m : NULL;
}

/* The vector as one RecordRequest (from the arena); false when out of
 * memory. The stats and the log are asked for only when the testee has
 * them. */
static bool record_request(const record_body_t *b, unsigned caps, ntsim_arena_t *a,
                           NtsimTestee__RecordRequest *q)
{
    ntsim_testee__record_request__init(q);
    q->session = ntsim_arena_alloc(a, sizeof *q->session);
    q->emits = ntsim_arena_array(a, b->emit_count, sizeof *q->emits);
    if (q->session == NULL || q->emits == NULL || !session_request(b, a, q->session))
        return false;
    for (size_t i = 0; i < b->emit_count; i++)
        if ((q->emits[q->n_emits++] = emit_request(&b->emits[i], a)) == NULL)
            return false;
    q->has_drain_nc = q->has_drain_capacity = b->drain_nc >= 0;
    q->drain_nc = (uint32_t)(b->drain_nc >= 0 ? b->drain_nc : 0);
    q->drain_capacity = b->drain_max != 0 ? b->drain_max : b->record_count + 8;
    q->has_stop = b->stop;
    q->stop = b->stop;
    bool stats = (caps & NTSIM_TESTEE_CAP_STATS) != 0;
    q->has_stats_nc = stats && b->stats_nc >= 0;
    q->stats_nc = (uint32_t)(b->stats_nc >= 0 ? b->stats_nc : 0);
    for (size_t i = 0; i < GLOBAL_COUNTERS; i++)
        q->global_stats |= stats && b->global_has[i];
    q->has_global_stats = q->global_stats;
    q->has_log = q->log = b->log.given && (caps & NTSIM_TESTEE_CAP_LOG);
    return true;
}

/* --- the judgement --------------------------------------------------------------------- */

/* Every emit's returns: the last call's against `returns`, and with
 * expect: invalid every call must have returned 0. */
static void check_emits(const ntsim_vector_t *v, const NtsimTestee__RecordReply *m,
                        ntsim_report_t *r)
{
    const record_body_t *b = v->body;
    bool invalid = v->expect == NTSIM_EXPECT_INVALID;
    if (m->n_emits != b->emit_count)
        ntsim_report_add(r, v->id, "emits", "expected %zu results, got %zu", b->emit_count,
                         m->n_emits);
    char subid[256];
    for (size_t i = 0; i < b->emit_count && i < m->n_emits; i++) {
        const record_emit_t *e = &b->emits[i];
        const NtsimTestee__EmitResult *x = m->emits[i];
        ntsim_yp_path(subid, sizeof subid, "%s.emits[%zu]", v->id, i);
        if (invalid && x->earlier_nonzero > 0)
            ntsim_report_add(r, subid, "returns", "expected 0 (%s) from every call, got 0x%" PRIx64
                             " and %" PRIu64 " more non-zero",
                             v->error, x->earlier_first, x->earlier_nonzero - 1);
        if (e->has_returns && x->returns != e->returns)
            ntsim_report_add(r, subid, "returns", "expected 0x%" PRIx64 ", got 0x%" PRIx64,
                             e->returns, x->returns);
        if (invalid && x->returns != 0)
            ntsim_report_add(r, subid, "returns", "expected 0 (%s), got 0x%" PRIx64, v->error,
                             x->returns);
    }
}

static void check_drain(const ntsim_vector_t *v, const NtsimTestee__RecordReply *m,
                        ntsim_report_t *r)
{
    const record_body_t *b = v->body;
    if (!m->has_drain_status || m->drain_status != NRT_SUCCESS)
        ntsim_report_add(r, v->id, "drain", "expected NRT_SUCCESS, got %d", m->drain_status);
    if (m->n_records != b->record_count)
        ntsim_report_add(r, v->id, "records", "expected %zu drained records, got %zu",
                         b->record_count, m->n_records);
    char subid[256];
    for (size_t i = 0; i < m->n_records && i < b->record_count; i++) {
        ntsim_yp_path(subid, sizeof subid, "%s.records[%zu]", v->id, i);
        nrt_sys_trace_event_t got;
        memset(&got, 0, sizeof got);
        memcpy(&got, m->records[i].data, m->records[i].len < RECORD_BYTES ? m->records[i].len
                                                                          : RECORD_BYTES);
        if (m->records[i].len != RECORD_BYTES)
            ntsim_report_add(r, subid, "bytes", "expected 112 bytes, got %zu",
                             m->records[i].len);
        else
            compare_record(r, subid, b->records[i], &got);
    }
}

/* Compares the counters a vector lists (want/has, by the table's offsets)
 * with a stats struct; `present` (the same layout, non-zero where the reply
 * carried the counter; NULL: all of them) turns an absent counter into a
 * mismatch instead of a 0. */
static void check_counters(const ntsim_vector_t *v, ntsim_report_t *r, const char *group,
                           const record_counter_t *table, size_t count, const bool *has,
                           const uint64_t *want, const void *stats, const void *present)
{
    char subid[256];
    for (size_t i = 0; i < count; i++) {
        if (!has[i])
            continue;
        uint64_t got, there = 1;
        memcpy(&got, (const char *)stats + table[i].offset, sizeof got);
        if (present != NULL)
            memcpy(&there, (const char *)present + table[i].offset, sizeof there);
        ntsim_yp_path(subid, sizeof subid, "%s.%s.%s", v->id, group, table[i].name);
        if (there == 0)
            ntsim_report_add(r, subid, table[i].name, "expected %" PRIu64 ", the reply has no "
                                                      "%s.%s", want[i], group, table[i].name);
        else if (got != want[i])
            ntsim_report_add(r, subid, table[i].name, "expected %" PRIu64 ", got %" PRIu64,
                             want[i], got);
    }
}

/* A reply that leaves out what the vector judges fails: an absent counter
 * is not a 0 (issue 27: a testee that sent no global counters passed every
 * vector that wants them at 0). */
static void check_stats(const ntsim_vector_t *v, const NtsimTestee__RecordReply *m,
                        ntsim_report_t *r)
{
    const record_body_t *b = v->body;
    const NtsimTestee__NcStats *s = m->stats;
    if (b->stats_nc >= 0 && s == NULL) {
        ntsim_report_add(r, v->id, "stats", "expected ntsim_capture_nc_stats(%lld)'s counters, "
                                            "the reply has no stats",
                         (long long)b->stats_nc);
    } else if (b->stats_nc >= 0 && s->status != NRT_SUCCESS) {
        ntsim_report_add(r, v->id, "stats", "ntsim_capture_nc_stats(%lld) returned %d",
                         (long long)b->stats_nc, s->status);
    } else if (b->stats_nc >= 0) {
        ntsim_nc_stats_t got = {.capacity = s->capacity,
                                .created = s->created,
                                .pushed = s->pushed,
                                .overwritten = s->overwritten,
                                .drained = s->drained,
                                .in_ring = s->in_ring,
                                .busy = s->busy,
                                .lost_at_stop = s->lost_at_stop,
                                .first_overwrite_ns = s->first_overwrite_ns,
                                .last_overwrite_ns = s->last_overwrite_ns};
        ntsim_nc_stats_t there = {.capacity = s->has_capacity,
                                  .created = s->has_created,
                                  .pushed = s->has_pushed,
                                  .overwritten = s->has_overwritten,
                                  .drained = s->has_drained,
                                  .in_ring = s->has_in_ring,
                                  .busy = s->has_busy,
                                  .lost_at_stop = s->has_lost_at_stop,
                                  .first_overwrite_ns = s->has_first_overwrite_ns,
                                  .last_overwrite_ns = s->has_last_overwrite_ns};
        check_counters(v, r, "stats", ntsim_record_nc_counters, NC_COUNTERS, b->nc_has,
                       b->nc_want, &got, &there);
    }
    bool global = false;
    for (size_t i = 0; i < GLOBAL_COUNTERS; i++)
        global |= b->global_has[i];
    if (global && m->global_stats == NULL) {
        ntsim_report_add(r, v->id, "global", "expected the global counters, the reply has no "
                                             "global_stats");
        return;
    }
    ntsim_capture_stats_t g;
    memset(&g, 0, sizeof g);
    if (m->global_stats != NULL) {
        g.invalid_type = m->global_stats->invalid_type;
        g.clamped_nc_idx = m->global_stats->clamped_nc_idx;
    }
    check_counters(v, r, "global", ntsim_record_global_counters, GLOBAL_COUNTERS, b->global_has,
                   b->global_want, &g, NULL);
}

static void judge_reply(const ntsim_vector_t *v, const NtsimTestee__RecordReply *m,
                        unsigned caps, ntsim_report_t *r)
{
    const record_body_t *b = v->body;
    if (b->capturing && (!m->has_start_status || m->start_status != NRT_SUCCESS)) {
        ntsim_report_add(r, v->id, "session", "expected start() to succeed, got %d",
                         m->start_status);
        return;
    }
    check_emits(v, m, r);
    if (b->drain_nc >= 0)
        check_drain(v, m, r);
    if (b->stop && (!m->has_stop_status || m->stop_status != NRT_SUCCESS))
        ntsim_report_add(r, v->id, "stop", "expected stop() to succeed");
    if (caps & NTSIM_TESTEE_CAP_STATS)
        check_stats(v, m, r);
    if ((caps & NTSIM_TESTEE_CAP_LOG) && b->log.given && m->log == NULL)
        ntsim_report_add(r, v->id, "log", "expected what was logged, the reply has no log");
    else if ((caps & NTSIM_TESTEE_CAP_LOG) && b->log.given)
        ntsim_vec_check_log(&b->log, m->log->lines, m->log->n_lines, m->log->count, v->id, r);
}

/* The checks left out for want of a capability. */
static unsigned unjudged(const record_body_t *b, unsigned caps)
{
    bool counters = b->stats_nc >= 0;
    for (size_t i = 0; i < GLOBAL_COUNTERS; i++)
        counters |= b->global_has[i];
    return ((counters ? NTSIM_TESTEE_CAP_STATS : 0) | (b->log.given ? NTSIM_TESTEE_CAP_LOG : 0)) &
           ~caps;
}

void ntsim_record_judge(const ntsim_vector_t *v, ntsim_testee_t *t, ntsim_report_t *r)
{
    const record_body_t *b = v->body;
    unsigned caps = ntsim_testee_caps(t);
    ntsim_testee_note_unjudged(t, unjudged(b, caps));
    ntsim_arena_t a;
    ntsim_arena_init(&a);
    NtsimTestee__RecordRequest q;
    NtsimTestee__Request req = NTSIM_TESTEE__REQUEST__INIT;
    req.body_case = NTSIM_TESTEE__REQUEST__BODY_RECORD;
    req.record = &q;
    NtsimTestee__Response *resp = NULL;
    if (!record_request(b, caps, &a, &q))
        ntsim_report_add(r, v->id, "request", "out of memory");
    else
        resp = ntsim_testee_ask(t, &req, v->id, r);
    ntsim_arena_free(&a);
    if (resp != NULL)
        judge_reply(v, resp->record, caps, r);
    ntsim_testee_reply_free(resp);
}

