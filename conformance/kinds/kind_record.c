/*
 * conformance/kinds/kind_record.c: `record` vectors — emit calls through the real
 * capture engine, and the exact 112 bytes they must produce: the grammar
 * and its reader. The vector is one RecordRequest to the testee
 * (testee.proto; the built-in testee makes the calls in testee_capture.c),
 * judged in kind_record_judge.c.
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

#include "event_table.h"
#include "kinds.h"
#include "kind_record.h"

const record_counter_t ntsim_record_nc_counters[NC_COUNTERS] = {
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

const record_counter_t ntsim_record_global_counters[GLOBAL_COUNTERS] = {
    {"invalid_type", offsetof(ntsim_capture_stats_t, invalid_type)},
    {"clamped_nc_idx", offsetof(ntsim_capture_stats_t, clamped_nc_idx)},
};

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
            char ipath[600];
            uint64_t v;
            ntsim_yp_path(ipath, sizeof ipath, "%s[%zu]", npath,
                          (size_t)(it - ncs->data.sequence.items.start));
            if ((st = ntsim_yp_u64_node(p, ntsim_yp_node(p, *it), ipath, NTSIM_NC_COUNT - 1,
                                        &v)) != NRT_SUCCESS)
                return st;
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
                                 const char *key, const record_counter_t *counters, size_t n, bool *has,
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

/* The record kind's grammar, one key after another (~85 lines, flat: each
 * key read, checked and named in its error where vectors/README.md lists it). */
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
        (st = parse_counters(p, node, path, "stats", ntsim_record_nc_counters, NC_COUNTERS,
                             b->nc_has, b->nc_want, &b->stats_nc)) != NRT_SUCCESS ||
        (st = parse_counters(p, node, path, "global", ntsim_record_global_counters, GLOBAL_COUNTERS,
                             b->global_has, b->global_want, NULL)) != NRT_SUCCESS ||
        (st = ntsim_vec_parse_log(p, node, path, &b->log)) != NRT_SUCCESS)
        return st;
    return NRT_SUCCESS;
}

/* The keys a vector of this kind is judged by (facts.h: FACT@key). */
static const char *const record_judged[] = {"records", "stats", "global", "log", NULL};

/* The drained records the vector expects (calloc'd: aligned for records). */
static size_t record_records(const void *body, const nrt_sys_trace_event_t **out)
{
    const record_body_t *b = body;
    *out = (const nrt_sys_trace_event_t *)(const void *)b->records;
    return b->record_count;
}

const ntsim_vector_kind_t ntsim_kind_record = {
    .name = "record",
    .keys = record_keys,
    .judged = record_judged,
    .allows_invalid = true,
    .parse = record_parse,
    .free_body = record_free,
    .judge = ntsim_record_judge,
    .records = record_records,
};
