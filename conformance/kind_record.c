/*
 * conformance/kind_record.c: `record` vectors — emit calls through the real
 * capture engine, and the exact 112 bytes they must produce. The vector is
 * one RecordRequest to the testee (testee.proto; the built-in testee makes
 * the calls in testee_capture.c), and its reply is judged here.
 *
 *   - id: record.hw_notify.instant
 *     ...common keys...
 *     session:                         # all optional
 *       capturing: true                # false: emit without start()
 *       max_events_per_nc: 1024        # before start()'s clamp
 *       ncs: [0]                       # enabled NCs (default [0])
 *       disabled_types: [HW_NOTIFY]    # enum suffixes
 *       clock_start_ns: 1000           # the virtual clock's first value
 *       clock_step_ns: 0               # added after each read
 *       thread_id: 4242                # every record's thread_id
 *     emits:
 *       - type: HW_NOTIFY              # enum suffix, or an integer
 *         phase: INSTANT               # START | STOP | INSTANT, or an integer
 *         nc_idx: 1
 *         tracking_id: 0               # optional, default 0
 *         nrta_seq_id: 7               # optional: present selects the _with_seq shim
 *         data_fill: 0xaa              # optional: fill the 40-byte union first
 *         data: {hint: 0xbeef, sync_info: {nc_timestamp_ns: 1, cpu_timestamp_ns: 2}}
 *         data_raw: "00 11 ..."        # or: the 40 union bytes, in hex
 *         returns: 0x4000000000000     # the tracking id new_event must return
 *         repeat: 1                    # optional: make this call N times (no returns)
 *     drain: 1                         # optional: NC to drain after the emits
 *     drain_max: 0                     # optional: drain capacity (default records + 8)
 *     records:                         # the drained records, oldest first,
 *       - "18000000 00000000 ..."      #   112 bytes each in hex
 *     stop: false                      # optional: stop() before reading stats
 *     stats: {nc_idx: 1, created: 1, overwritten: 0}   # any of ntsim_nc_stats_t
 *     global: {invalid_type: 0, clamped_nc_idx: 0}
 *     log: ["info: 0.109 GB"]        # optional: every message logged from
 *                                    #   start() to the stats, in order, by level
 *                                    #   and a fragment (record_input.h)
 *
 * expect: invalid with error: "not captured" says that every emit returns 0
 * and the drain yields nothing. Sub-ids: <id>.emits[i], <id>.records[i],
 * <id>.stats.<counter>, <id>.global.<counter>.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "abi_registry.h"
#include "event_table.h"
#include "kinds.h"
#include "ntsim/capture.h"
#include "record_input.h"
#include "testee.h"

#define RECORD_BYTES sizeof(nrt_sys_trace_event_t)

typedef struct record_emit {
    uint32_t type, phase, nc_idx;
    uint64_t tracking_id;
    bool has_seq;
    uint64_t nrta_seq_id;
    bool has_data;
    nrt_sys_trace_event_data_t data;
    bool has_returns;
    uint64_t returns;
    uint64_t repeat;            /* how many times to make this call, >= 1 */
} record_emit_t;

/* The counters a vector may pin, by name, with their offset in the stats. */
typedef struct counter {
    const char *name;
    size_t offset;
} counter_t;

static const counter_t nc_counters[] = {
    {"capacity", offsetof(ntsim_nc_stats_t, capacity)},
    {"created", offsetof(ntsim_nc_stats_t, created)},
    {"pushed", offsetof(ntsim_nc_stats_t, pushed)},
    {"overwritten", offsetof(ntsim_nc_stats_t, overwritten)},
    {"drained", offsetof(ntsim_nc_stats_t, drained)},
    {"in_ring", offsetof(ntsim_nc_stats_t, in_ring)},
    {"busy", offsetof(ntsim_nc_stats_t, busy)},
    {"lost_at_stop", offsetof(ntsim_nc_stats_t, lost_at_stop)},
    {"first_overwrite_ns", offsetof(ntsim_nc_stats_t, first_overwrite_ns)},
    {"last_overwrite_ns", offsetof(ntsim_nc_stats_t, last_overwrite_ns)},
};
#define NC_COUNTERS (sizeof nc_counters / sizeof nc_counters[0])

static const counter_t global_counters[] = {
    {"invalid_type", offsetof(ntsim_capture_stats_t, invalid_type)},
    {"clamped_nc_idx", offsetof(ntsim_capture_stats_t, clamped_nc_idx)},
};
#define GLOBAL_COUNTERS (sizeof global_counters / sizeof global_counters[0])

typedef struct record_body {
    bool capturing;
    uint64_t max_events;
    bool ncs[NTSIM_NC_COUNT];
    bool type_enabled[NRT_SYS_TRACE_EVENT_TYPE_COUNT];
    uint64_t clock_start, clock_step, thread_id;
    record_emit_t *emits;
    size_t emit_count;
    int64_t drain_nc;               /* -1: no drain */
    uint64_t drain_max;             /* capacity passed to drain; 0: records + 8 */
    uint8_t (*records)[RECORD_BYTES];
    size_t record_count;
    bool stop;
    int64_t stats_nc;               /* -1: no stats */
    bool nc_has[NC_COUNTERS];
    uint64_t nc_want[NC_COUNTERS];
    bool global_has[GLOBAL_COUNTERS];
    uint64_t global_want[GLOBAL_COUNTERS];
    ntsim_vec_log_t log;
} record_body_t;

/* The budget of emit calls one vector may make: the largest vector today makes
 * about 2,200 (an overflowing ring of 2048). */
#define NTSIM_RECORD_MAX_EMITS UINT64_C(4000000)

static const char *const record_keys[] = {"session", "emits", "drain", "drain_max", "records",
                                          "stop", "stats", "global", "log", NULL};
static const char *const session_keys[] = {"capturing", "max_events_per_nc", "ncs",
                                           "disabled_types", "clock_start_ns", "clock_step_ns",
                                           "thread_id", NULL};
static const char *const emit_keys[] = {"type", "phase", "nc_idx", "tracking_id", "nrta_seq_id",
                                        "data_fill", "data", "data_raw", "returns", "repeat",
                                        NULL};

static void record_free(void *body)
{
    record_body_t *b = body;
    free(b->emits);
    free(b->records);
    ntsim_vec_log_free(&b->log);
    free(b);
}

static NRT_STATUS parse_emit(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                             record_emit_t *e)
{
    NRT_STATUS st;
    uint64_t nc = 0;
    if ((st = ntsim_yp_check_keys(p, node, path, emit_keys, NULL)) != NRT_SUCCESS ||
        (st = ntsim_vec_parse_type(p, node, path, &e->type)) != NRT_SUCCESS ||
        (st = ntsim_vec_parse_phase(p, node, path, &e->phase)) != NRT_SUCCESS ||
        (st = ntsim_yp_u64(p, node, path, "nc_idx", true, UINT32_MAX, &nc)) != NRT_SUCCESS ||
        (st = ntsim_yp_u64(p, node, path, "tracking_id", false, UINT64_MAX, &e->tracking_id)) !=
            NRT_SUCCESS)
        return st;
    e->nc_idx = (uint32_t)nc;
    e->has_seq = ntsim_yp_get(p, node, "nrta_seq_id") != NULL;
    if ((st = ntsim_yp_u64(p, node, path, "nrta_seq_id", false, UINT64_MAX, &e->nrta_seq_id)) !=
        NRT_SUCCESS)
        return st;
    e->repeat = 1;
    if ((st = ntsim_yp_u64(p, node, path, "repeat", false, 1000000, &e->repeat)) != NRT_SUCCESS)
        return st;
    if (e->repeat == 0) {
        char field[512];
        ntsim_yp_path(field, sizeof field, "%s.repeat", path);
        return ntsim_yp_error(p, ntsim_yp_get(p, node, "repeat"), field, "must be at least 1");
    }
    e->has_returns = ntsim_yp_get(p, node, "returns") != NULL;
    if (e->has_returns && e->repeat != 1) {
        char field[512];
        ntsim_yp_path(field, sizeof field, "%s.returns", path);
        return ntsim_yp_error(p, ntsim_yp_get(p, node, "returns"), field,
                              "returns is checked per call: not with repeat");
    }
    if ((st = ntsim_yp_u64(p, node, path, "returns", false, UINT64_MAX, &e->returns)) !=
        NRT_SUCCESS)
        return st;
    return ntsim_vec_parse_data(p, node, path, e->type, e->phase, &e->has_data, &e->data);
}

static NRT_STATUS parse_session(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                record_body_t *b)
{
    b->capturing = true;
    b->max_events = 1024;
    b->ncs[0] = true;
    for (size_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        b->type_enabled[t] = true;
    b->clock_start = 1000;
    b->thread_id = 4242;
    yaml_node_t *s = ntsim_yp_get(p, node, "session");
    if (s == NULL)
        return NRT_SUCCESS;
    char spath[512];
    ntsim_yp_path(spath, sizeof spath, "%s.session", path);
    NRT_STATUS st;
    if ((st = ntsim_yp_check_keys(p, s, spath, session_keys, NULL)) != NRT_SUCCESS ||
        (st = ntsim_yp_bool(p, s, spath, "capturing", false, &b->capturing)) != NRT_SUCCESS ||
        (st = ntsim_yp_u64(p, s, spath, "max_events_per_nc", false, UINT64_MAX,
                           &b->max_events)) != NRT_SUCCESS ||
        (st = ntsim_yp_u64(p, s, spath, "clock_start_ns", false, UINT64_MAX, &b->clock_start)) !=
            NRT_SUCCESS ||
        (st = ntsim_yp_u64(p, s, spath, "clock_step_ns", false, UINT64_MAX, &b->clock_step)) !=
            NRT_SUCCESS ||
        (st = ntsim_yp_u64(p, s, spath, "thread_id", false, UINT64_MAX, &b->thread_id)) !=
            NRT_SUCCESS)
        return st;
    yaml_node_t *ncs = ntsim_yp_get(p, s, "ncs");
    if (ncs != NULL) {
        char npath[512];
        ntsim_yp_path(npath, sizeof npath, "%s.ncs", spath);
        if (ncs->type != YAML_SEQUENCE_NODE)
            return ntsim_yp_error(p, ncs, npath, "expected a sequence of NC indices");
        b->ncs[0] = false;
        for (yaml_node_item_t *it = ncs->data.sequence.items.start;
             it < ncs->data.sequence.items.top; it++) {
            const char *t = ntsim_yp_scalar(ntsim_yp_node(p, *it));
            char *end = NULL;
            unsigned long v = t ? strtoul(t, &end, 10) : 0;
            if (t == NULL || *t == '\0' || *end != '\0' || v >= NTSIM_NC_COUNT)
                return ntsim_yp_error(p, ntsim_yp_node(p, *it), npath,
                                      "expected an NC index in [0, 255], got '%s'",
                                      t ? t : "(not a scalar)");
            b->ncs[v] = true;
        }
    }
    yaml_node_t *dis = ntsim_yp_get(p, s, "disabled_types");
    if (dis != NULL) {
        char dpath[512];
        ntsim_yp_path(dpath, sizeof dpath, "%s.disabled_types", spath);
        if (dis->type != YAML_SEQUENCE_NODE)
            return ntsim_yp_error(p, dis, dpath, "expected a sequence of type names");
        for (yaml_node_item_t *it = dis->data.sequence.items.start;
             it < dis->data.sequence.items.top; it++) {
            const char *t = ntsim_yp_scalar(ntsim_yp_node(p, *it));
            char name[128];
            ntsim_yp_path(name, sizeof name, "NRT_SYS_TRACE_EVENT_TYPE_%s", t ? t : "");
            const ntsim_event_type_desc_t *d = ntsim__event_type_by_enum_name(name);
            if (d == NULL)
                return ntsim_yp_error(p, ntsim_yp_node(p, *it), dpath,
                                      "'%s' is not an event type", t ? t : "(not a scalar)");
            b->type_enabled[d->type] = false;
        }
    }
    return NRT_SUCCESS;
}

static NRT_STATUS parse_counters(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                 const char *key, const counter_t *counters, size_t n, bool *has,
                                 uint64_t *want, int64_t *nc_out)
{
    yaml_node_t *m = ntsim_yp_get(p, node, key);
    if (m == NULL)
        return NRT_SUCCESS;
    char mpath[512];
    ntsim_yp_path(mpath, sizeof mpath, "%s.%s", path, key);
    const char *names[16] = {0};
    size_t k = 0;
    if (nc_out != NULL)
        names[k++] = "nc_idx";
    for (size_t i = 0; i < n; i++)
        names[k++] = counters[i].name;
    NRT_STATUS st = ntsim_yp_check_keys(p, m, mpath, names, NULL);
    if (st != NRT_SUCCESS)
        return st;
    if (nc_out != NULL) {
        uint64_t nc;
        if ((st = ntsim_yp_u64(p, m, mpath, "nc_idx", true, NTSIM_NC_COUNT - 1, &nc)) !=
            NRT_SUCCESS)
            return st;
        *nc_out = (int64_t)nc;
    }
    for (size_t i = 0; i < n; i++) {
        has[i] = ntsim_yp_get(p, m, counters[i].name) != NULL;
        if ((st = ntsim_yp_u64(p, m, mpath, counters[i].name, false, UINT64_MAX, &want[i])) !=
            NRT_SUCCESS)
            return st;
    }
    return NRT_SUCCESS;
}

static NRT_STATUS record_parse(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                               void **out)
{
    record_body_t *b = calloc(1, sizeof *b);
    if (b == NULL)
        return NRT_RESOURCE;
    *out = b;
    const char *expect = NULL, *error = NULL;
    /* The common keys were read (and checked) by the loader before this. */
    (void)ntsim_yp_str(p, node, path, "expect", false, &expect);
    (void)ntsim_yp_str(p, node, path, "error", false, &error);
    if (expect != NULL && strcmp(expect, "invalid") == 0 &&
        (error == NULL || strcmp(error, "not captured") != 0)) {
        char field[512];
        ntsim_yp_path(field, sizeof field, "%s.error", path);
        return ntsim_yp_error(p, ntsim_yp_get(p, node, "error"), field,
                              "an invalid record vector's error must be 'not captured'");
    }
    b->drain_nc = -1;
    b->stats_nc = -1;
    NRT_STATUS st = parse_session(p, node, path, b);
    if (st != NRT_SUCCESS)
        return st;
    yaml_node_item_t *items;
    size_t count;
    if ((st = ntsim_yp_seq(p, node, path, "emits", &items, &count)) != NRT_SUCCESS)
        return st;
    if ((b->emits = calloc(count, sizeof *b->emits)) == NULL)
        return NRT_RESOURCE;
    /* The calls a vector makes, counted after YAML aliases (each alias is
     * one more item) and repeats: a small file must not make a long run. */
    uint64_t total = 0;
    for (size_t i = 0; i < count; i++) {
        char epath[512];
        ntsim_yp_path(epath, sizeof epath, "%s.emits[%zu]", path, i);
        if ((st = parse_emit(p, ntsim_yp_node(p, items[i]), epath, &b->emits[i])) != NRT_SUCCESS)
            return st;
        b->emit_count = i + 1;
        total += b->emits[i].repeat;
        if (total > NTSIM_RECORD_MAX_EMITS) {
            char field[512];
            ntsim_yp_path(field, sizeof field, "%s.emits", path);
            return ntsim_yp_error(p, ntsim_yp_get(p, node, "emits"), field,
                                  "more than %llu emit calls after aliases and repeats (the "
                                  "per-vector budget), at item %zu",
                                  (unsigned long long)NTSIM_RECORD_MAX_EMITS, i);
        }
    }
    uint64_t drain;
    if (ntsim_yp_get(p, node, "drain") != NULL) {
        if ((st = ntsim_yp_u64(p, node, path, "drain", true, NTSIM_NC_COUNT - 1, &drain)) !=
            NRT_SUCCESS)
            return st;
        b->drain_nc = (int64_t)drain;
    }
    if ((st = ntsim_yp_u64(p, node, path, "drain_max", false, 1u << 20, &b->drain_max)) !=
        NRT_SUCCESS)
        return st;
    yaml_node_t *recs = ntsim_yp_get(p, node, "records");
    if (recs != NULL) {
        char rpath[512];
        ntsim_yp_path(rpath, sizeof rpath, "%s.records", path);
        if (recs->type != YAML_SEQUENCE_NODE)
            return ntsim_yp_error(p, recs, rpath, "expected a sequence of hex records");
        if (b->drain_nc < 0)
            return ntsim_yp_error(p, recs, rpath, "records need a drain: NC to drain");
        size_t n = (size_t)(recs->data.sequence.items.top - recs->data.sequence.items.start);
        if (n > 0 && (b->records = calloc(n, RECORD_BYTES)) == NULL)
            return NRT_RESOURCE;
        for (size_t i = 0; i < n; i++) {
            yaml_node_t *r = ntsim_yp_node(p, recs->data.sequence.items.start[i]);
            const char *text = ntsim_yp_scalar(r);
            char ipath[512];
            ntsim_yp_path(ipath, sizeof ipath, "%s[%zu]", rpath, i);
            if (text == NULL || !ntsim_vec_parse_hex(text, b->records[i], RECORD_BYTES))
                return ntsim_yp_error(p, r, ipath, "expected exactly 112 bytes of hex");
            b->record_count = i + 1;
        }
    }
    if ((st = ntsim_yp_bool(p, node, path, "stop", false, &b->stop)) != NRT_SUCCESS ||
        (st = parse_counters(p, node, path, "stats", nc_counters, NC_COUNTERS, b->nc_has,
                             b->nc_want, &b->stats_nc)) != NRT_SUCCESS ||
        (st = parse_counters(p, node, path, "global", global_counters, GLOBAL_COUNTERS,
                             b->global_has, b->global_want, NULL)) != NRT_SUCCESS ||
        (st = ntsim_vec_parse_log(p, node, path, &b->log)) != NRT_SUCCESS)
        return st;
    return NRT_SUCCESS;
}

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
 * with a stats struct. */
static void check_counters(const ntsim_vector_t *v, ntsim_report_t *r, const char *group,
                           const counter_t *table, size_t count, const bool *has,
                           const uint64_t *want, const void *stats)
{
    char subid[256];
    for (size_t i = 0; i < count; i++) {
        if (!has[i])
            continue;
        uint64_t got;
        memcpy(&got, (const char *)stats + table[i].offset, sizeof got);
        if (got != want[i]) {
            ntsim_yp_path(subid, sizeof subid, "%s.%s.%s", v->id, group, table[i].name);
            ntsim_report_add(r, subid, table[i].name, "expected %" PRIu64 ", got %" PRIu64,
                             want[i], got);
        }
    }
}

static void check_stats(const ntsim_vector_t *v, const NtsimTestee__RecordReply *m,
                        ntsim_report_t *r)
{
    const record_body_t *b = v->body;
    const NtsimTestee__NcStats *s = m->stats;
    if (b->stats_nc >= 0 && (s == NULL || s->status != NRT_SUCCESS)) {
        ntsim_report_add(r, v->id, "stats", "ntsim_capture_nc_stats(%lld) returned %d",
                         (long long)b->stats_nc, s != NULL ? s->status : -1);
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
        check_counters(v, r, "stats", nc_counters, NC_COUNTERS, b->nc_has, b->nc_want, &got);
    }
    ntsim_capture_stats_t g;
    memset(&g, 0, sizeof g);
    if (m->global_stats != NULL) {
        g.invalid_type = m->global_stats->invalid_type;
        g.clamped_nc_idx = m->global_stats->clamped_nc_idx;
    }
    check_counters(v, r, "global", global_counters, GLOBAL_COUNTERS, b->global_has,
                   b->global_want, &g);
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
    if ((caps & NTSIM_TESTEE_CAP_LOG) && b->log.given) {
        const NtsimTestee__Log *log = m->log;
        ntsim_vec_check_log(&b->log, log ? log->lines : NULL, log ? log->n_lines : 0,
                            log ? log->count : 0, v->id, r);
    }
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

static void record_judge(const ntsim_vector_t *v, ntsim_testee_t *t, ntsim_report_t *r)
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

static const char *record_subject(const void *body)
{
    (void)body;
    return "record";
}

const ntsim_vector_kind_t ntsim_kind_record = {
    .name = "record",
    .keys = record_keys,
    .allows_invalid = true,
    .parse = record_parse,
    .free_body = record_free,
    .judge = record_judge,
    .subject = record_subject,
};
