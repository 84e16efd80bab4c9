/*
 * conformance/kinds/kind_api.c: `api` vectors — call sequences through the public
 * API (nrt/nrt_sys_trace.h, nrt/nrt_status.h, the emit shim and ntsim's
 * counters), each call with the status and the outputs it must give.
 *
 *   - id: api.fetch.consumed
 *     ...common keys...
 *     session: {clock_start_ns: 1000, clock_step_ns: 0, thread_id: 4242}  # optional
 *     calls:                                  # run in order; non-empty
 *       - {call: config_allocate}
 *       - {call: start, status: NRT_SUCCESS}
 *       - ...
 *
 * A call is a mapping:
 *
 *   step      := { call: CALL, status?: STATUS, null_args?: [ARG+], log?: LOG,
 *                  fail_allocations?: sweep | fail_allocations_after?: N,
 *                  <the call's keys> }
 *   STATUS    := NRT_SUCCESS | NRT_FAILURE | NRT_INVALID | NRT_RESOURCE
 *                (by name, compared by value: 0, 1, 2, 4 as D-STATUS fixes
 *                them); only for calls that return one; default NRT_SUCCESS
 *   ARG       := a pointer argument of CALL passed as NULL, by libnrt's
 *                parameter name: config, options, event_type, event_types,
 *                count, buffer, written_size
 *   LOG       := what the call logs, as record and json vectors say it
 *                (log_expect.h): every message at error or warning, by its
 *                level and what the contract lets a check demand of it (the
 *                text the spec quotes, the values); not checked when absent
 *   fail_allocations: sweep := the call is made with 0, 1, 2, ...
 *                allocations allowed (ntsim_replace_allocator fails the
 *                rest) until it returns anything but NRT_RESOURCE; every
 *                attempt before must return NRT_RESOURCE having changed
 *                nothing (a fetch leaves *buffer alone; the calls after it
 *                see the state it found; a testee that counts blocks says it
 *                kept none, kind_api_run.c), and the last is judged as the call
 *                (status, outputs, log). How many allocations a call makes
 *                is the implementation's own: only the outcome is judged
 *                (D-ALLOCATOR); at most NTSIM_API_SWEEP_MAX attempts
 *   fail_allocations_after := N: the first N allocations succeed and every
 *                later one returns NULL; only for the call whose allocations
 *                a source pins, get_event_types (facts §4's calloc and one
 *                strdup per name, D-ALLOCATOR); COUNT+K and COUNT-K as for
 *                count
 *
 *   CALL and its keys (? = optional):
 *   config_allocate                           the vector's config
 *   config_set_defaults
 *   config_free
 *   config_set_max_events_per_nc              value: N
 *   config_set_capture_enabled_for_nc         nc_idx: N | {from: N, to: N}, enabled: B
 *                                             (a range: one call per index)
 *   config_set_capture_enabled_for_event_type name: STR, enabled: B
 *   config_get                                max_events_per_nc?: N,
 *                  ncs_enabled?: all | none | [NC*]   or ncs_disabled?: [NC*],
 *                  types_enabled?: all | none | [TYPE*] or types_disabled?: [TYPE*]
 *                  (the config's fields as they are; a list is the exact set)
 *   config_get_enabled_event_types            count?: N | COUNT[+-K], names?: {I: STR, ...}
 *   get_event_types                           count?: N | COUNT[+-K], names?: {I: STR, ...}
 *   start                                     (the vector's config)
 *   stop
 *   emit            type, phase, nc_idx, tracking_id?, nrta_seq_id?, data_fill?,
 *                   data? | data_raw? (record_input.c), repeat?: N, returns?: N
 *   fetch_options_allocate                    the vector's fetch options
 *   fetch_options_set_defaults
 *   fetch_options_free
 *   fetch_options_set_max_events_per_nc       value: N
 *   fetch_options_set_nc_idx                  value: N (a u64; (uint64_t)-1 is
 *                                             0xffffffffffffffff)
 *   fetch_options_get                         max_events_per_nc?: N, nc_idx?: I
 *   fetch           options?: null | allocated | {nc_idx: I, max_events_per_nc: N},
 *                   buffer?: null | preset    (*buffer on entry: NULL, or a
 *                                              pointer the caller still owns)
 *                   json?: STR, written_size?: N   (only with NRT_SUCCESS)
 *   nc_stats        nc_idx, and any of capacity, created, pushed, overwritten,
 *                   drained, in_ring, lost_at_stop (ntsim_capture_nc_stats)
 *   get_event_type_category                   type: TYPE, category: UNKNOWN |
 *                                             HARDWARE | SOFTWARE
 *   get_status_as_str                         status_value: N, text: STR
 *
 *   TYPE  := an enum suffix (HW_NOTIFY), COUNT, or an integer
 *   count := COUNT is the number of event types, COUNT+K and COUNT-K K off it
 *            (as fail_allocations_after's N may be), so that the vector
 *            follows the enum when a type is added (vectors/README.md)
 *
 * Every fetch also checks what facts §2 says of any fetch: the document is
 * NUL-terminated at written_size, which excludes the NUL, and it parses as
 * JSON; a fetch that fails leaves *buffer as it was. The sequence is checked
 * when it is read: a call that needs the config or the fetch options must
 * come after its allocate and before its free (unless it passes them as
 * NULL), and nothing is allocated twice. Sub-ids: <id>.calls[i].
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kind_api.h"
#include "kinds.h"

#define USES_CONFIG  1u
#define USES_OPTIONS 2u

/* What kind_api.c knows of a call beyond its name (api_calls.h). */
typedef struct api_call_desc {
    bool returns_status;
    unsigned uses;            /* USES_*: needs the config / the fetch options */
    const char *const *keys;  /* its own keys, besides the common ones */
    unsigned nullable;        /* API_NULL_* it may pass as NULL */
    ntsim_api_parse_fn parse; /* reads its own keys; NULL: none */
} api_call_desc_t;

static const char *const api_keys[] = {"session", "calls", NULL};
static const char *const session_keys[] = {"clock_start_ns", "clock_step_ns", "thread_id", NULL};
static const char *const common_keys[] = {"call", "null_args", "log", "fail_allocations",
                                          "fail_allocations_after", NULL};
static const char *const k_status[] = {"status", NULL};
static const char *const k_value[] = {"value", NULL};
static const char *const k_set_nc[] = {"nc_idx", "enabled", NULL};
static const char *const k_set_type[] = {"status", "name", "enabled", NULL};
static const char *const k_config_get[] = {"max_events_per_nc", "ncs_enabled", "ncs_disabled",
                                           "types_enabled", "types_disabled", NULL};
static const char *const k_names[] = {"status", "count", "names", NULL};
static const char *const k_emit[] = {"type", "phase", "nc_idx", "tracking_id", "nrta_seq_id",
                                     "data_fill", "data", "data_raw", "repeat", "returns",
                                     NULL};
static const char *const k_options_get[] = {"max_events_per_nc", "nc_idx", NULL};
static const char *const k_fetch[] = {"status", "options", "buffer", "json", "written_size",
                                      NULL};
static const char *const k_nc_stats[] = {"status", "nc_idx", "capacity", "created", "pushed",
                                         "overwritten", "drained", "in_ring", "lost_at_stop",
                                         NULL};
static const char *const k_category[] = {"type", "category", NULL};
static const char *const k_status_str[] = {"status_value", "text", NULL};
static const char *const k_none[] = {NULL};

/* By call (api_calls.h names them). */
static const api_call_desc_t api_calls[API_CALL_COUNT] = {
    [API_CONFIG_ALLOCATE] = {true, 0, k_status, API_NULL_CONFIG, NULL},
    [API_CONFIG_SET_DEFAULTS] = {false, USES_CONFIG, k_none, API_NULL_CONFIG, NULL},
    [API_CONFIG_FREE] = {false, USES_CONFIG, k_none, API_NULL_CONFIG, NULL},
    [API_CONFIG_SET_MAX_EVENTS] = {false, USES_CONFIG, k_value, API_NULL_CONFIG, ntsim_api_parse_value},
    [API_CONFIG_SET_NC] = {false, USES_CONFIG, k_set_nc, API_NULL_CONFIG, ntsim_api_parse_set_nc},
    [API_CONFIG_SET_TYPE] = {true, USES_CONFIG, k_set_type, API_NULL_CONFIG | API_NULL_EVENT_TYPE, ntsim_api_parse_set_type},
    [API_CONFIG_GET] = {false, USES_CONFIG, k_config_get, 0, ntsim_api_parse_config_get},
    [API_CONFIG_GET_ENABLED_TYPES] = {true, USES_CONFIG, k_names, API_NULL_CONFIG | API_NULL_EVENT_TYPES | API_NULL_COUNT, ntsim_api_parse_names},
    [API_GET_EVENT_TYPES] = {true, 0, k_names, API_NULL_EVENT_TYPES | API_NULL_COUNT, ntsim_api_parse_names},
    [API_START] = {true, USES_CONFIG, k_status, API_NULL_CONFIG, NULL},
    [API_STOP] = {true, 0, k_status, 0, NULL},
    [API_EMIT] = {false, 0, k_emit, 0, ntsim_api_parse_emit},
    [API_OPTIONS_ALLOCATE] = {true, 0, k_status, API_NULL_OPTIONS, NULL},
    [API_OPTIONS_SET_DEFAULTS] = {false, USES_OPTIONS, k_none, API_NULL_OPTIONS, NULL},
    [API_OPTIONS_FREE] = {false, USES_OPTIONS, k_none, API_NULL_OPTIONS, NULL},
    [API_OPTIONS_SET_MAX_EVENTS] = {false, USES_OPTIONS, k_value, API_NULL_OPTIONS, ntsim_api_parse_value},
    [API_OPTIONS_SET_NC] = {false, USES_OPTIONS, k_value, API_NULL_OPTIONS, ntsim_api_parse_value},
    [API_OPTIONS_GET] = {false, USES_OPTIONS, k_options_get, 0, ntsim_api_parse_options_get},
    [API_FETCH] = {true, 0, k_fetch, API_NULL_BUFFER | API_NULL_WRITTEN_SIZE, ntsim_api_parse_fetch},
    [API_NC_STATS] = {true, 0, k_nc_stats, 0, ntsim_api_parse_nc_stats},
    [API_CATEGORY] = {false, 0, k_category, 0, ntsim_api_parse_category},
    [API_STATUS_STR] = {false, 0, k_status_str, 0, ntsim_api_parse_status_str},
};

/* Hand-typed from D-STATUS (facts §4: NRT_INVALID = 2, start while running
 * returns 1), not from the header, so that a changed enumerator fails the
 * vectors instead of moving with them. */
static const struct {
    const char *name;
    int value;
} status_names[] = {
    {"NRT_SUCCESS", 0}, {"NRT_FAILURE", 1}, {"NRT_INVALID", 2}, {"NRT_RESOURCE", 4}};

const char *ntsim_api_status_name(NRT_STATUS status, char *buf, size_t cap)
{
    for (size_t i = 0; i < sizeof status_names / sizeof status_names[0]; i++)
        if ((int)status == status_names[i].value) {
            snprintf(buf, cap, "%s (%d)", status_names[i].name, status_names[i].value);
            return buf;
        }
    snprintf(buf, cap, "status %d", (int)status);
    return buf;
}

/* --- one call ------------------------------------------------------------------ */

static NRT_STATUS parse_status(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                               api_step_t *s)
{
    const char *word = NULL;
    NRT_STATUS st = ntsim_yp_str(p, node, path, "status", false, &word);
    if (st != NRT_SUCCESS || word == NULL)
        return st;
    for (size_t i = 0; i < sizeof status_names / sizeof status_names[0]; i++)
        if (strcmp(word, status_names[i].name) == 0) {
            s->status = (NRT_STATUS)status_names[i].value;
            return NRT_SUCCESS;
        }
    char what[256];
    snprintf(what, sizeof what,
             "expected NRT_SUCCESS, NRT_FAILURE, NRT_INVALID or NRT_RESOURCE, got '%s'", word);
    return ntsim_api_field_error(p, ntsim_yp_get(p, node, "status"), path, "status", what);
}

static NRT_STATUS parse_null_args(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                  const api_call_desc_t *d, api_step_t *s)
{
    yaml_node_t *seq = ntsim_yp_get(p, node, "null_args");
    if (seq == NULL)
        return NRT_SUCCESS;
    char field[512];
    ntsim_yp_path(field, sizeof field, "%s.null_args", path);
    if (seq->type != YAML_SEQUENCE_NODE)
        return ntsim_yp_error(p, seq, field, "expected a sequence of argument names");
    for (yaml_node_item_t *it = seq->data.sequence.items.start;
         it < seq->data.sequence.items.top; it++) {
        const char *t = ntsim_yp_scalar(ntsim_yp_node(p, *it));
        unsigned bit = 0;
        for (unsigned b = 0; t != NULL && ntsim_api_null_arg_names[b] != NULL; b++)
            if (strcmp(t, ntsim_api_null_arg_names[b]) == 0)
                bit = 1u << b;
        if ((bit & d->nullable) == 0)
            return ntsim_yp_error(p, ntsim_yp_node(p, *it), field,
                                  "'%s' is not a pointer argument of %s",
                                  t ? t : "(not a scalar)", ntsim_api_call_name(s->call));
        s->nulls |= bit;
    }
    return NRT_SUCCESS;
}

/* The call's name and common keys, then its own keys. */
/* fail_allocations: sweep, or fail_allocations_after: N where a decision
 * pins the call's allocations (the grammar above). */
static NRT_STATUS parse_allocations(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                    api_step_t *s)
{
    yaml_node_t *sweep = ntsim_yp_get(p, node, "fail_allocations");
    yaml_node_t *after = ntsim_yp_get(p, node, "fail_allocations_after");
    if (sweep != NULL && after != NULL)
        return ntsim_api_field_error(p, sweep, path, "fail_allocations",
                                     "give fail_allocations or fail_allocations_after, not both");
    if (sweep != NULL) {
        const char *word = ntsim_yp_scalar(sweep);
        if (word == NULL || strcmp(word, "sweep") != 0)
            return ntsim_api_field_error(p, sweep, path, "fail_allocations", "expected sweep");
        if (!api_calls[s->call].returns_status)
            return ntsim_api_field_error(p, sweep, path, "fail_allocations",
                                         "a sweep needs a call that returns a status");
        s->alloc_sweep = true;
        return NRT_SUCCESS;
    }
    if (after == NULL)
        return NRT_SUCCESS;
    if (s->call != API_GET_EVENT_TYPES)
        return ntsim_api_field_error(p, after, path, "fail_allocations_after",
                                     "only where a source pins the call's allocations "
                                     "(get_event_types: facts §4, D-ALLOCATOR); judge the "
                                     "others by their outcome with fail_allocations: sweep");
    s->fail_allocs = true;
    return ntsim_api_parse_types_count(p, node, path, "fail_allocations_after", UINT32_MAX,
                                       &s->allocs_ok);
}

static NRT_STATUS parse_step(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                             api_step_t *s)
{
    const char *name;
    NRT_STATUS st;
    if (node->type != YAML_MAPPING_NODE)
        return ntsim_yp_error(p, node, path, "expected a mapping, got %s",
                              ntsim_yp_node_type_name(node));
    if ((st = ntsim_yp_str(p, node, path, "call", true, &name)) != NRT_SUCCESS)
        return st;
    if (!ntsim_api_call_by_name(name, &s->call)) {
        char what[256];
        snprintf(what, sizeof what, "unknown call '%s'", name);
        return ntsim_api_field_error(p, ntsim_yp_get(p, node, "call"), path, "call", what);
    }
    const api_call_desc_t *d = &api_calls[s->call];
    s->check_status = d->returns_status;
    s->status = NRT_SUCCESS;
    if ((st = ntsim_yp_check_keys(p, node, path, common_keys, d->keys)) != NRT_SUCCESS ||
        (st = parse_status(p, node, path, s)) != NRT_SUCCESS ||
        (st = parse_null_args(p, node, path, d, s)) != NRT_SUCCESS ||
        (st = ntsim_vec_parse_log(p, node, path, &s->log)) != NRT_SUCCESS ||
        (st = parse_allocations(p, node, path, s)) != NRT_SUCCESS)
        return st;
    return d->parse != NULL ? d->parse(p, node, path, s) : NRT_SUCCESS;
}

/* The sequence rule: what a call uses was allocated before it and not freed
 * since; nothing is allocated twice (it would leak). */
static NRT_STATUS check_sequence(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                 const api_step_t *s, bool *have_config, bool *have_options)
{
    const api_call_desc_t *d = &api_calls[s->call];
    const char *what = NULL;
    bool uses_config = (d->uses & USES_CONFIG) && !(s->nulls & API_NULL_CONFIG);
    bool uses_options = ((d->uses & USES_OPTIONS) && !(s->nulls & API_NULL_OPTIONS)) ||
                        (s->call == API_FETCH && s->options == API_OPTIONS_ALLOCATED);
    if (uses_config && !*have_config)
        what = "needs a config: call config_allocate first";
    else if (uses_options && !*have_options)
        what = "needs fetch options: call fetch_options_allocate first";
    else if (s->call == API_CONFIG_ALLOCATE && !(s->nulls & API_NULL_CONFIG) && *have_config)
        what = "a config is already allocated: config_free it first";
    else if (s->call == API_OPTIONS_ALLOCATE && !(s->nulls & API_NULL_OPTIONS) && *have_options)
        what = "fetch options are already allocated: fetch_options_free them first";
    if (what != NULL)
        return ntsim_yp_error(p, node, path, "%s %s", ntsim_api_call_name(s->call), what);
    if (s->call == API_CONFIG_ALLOCATE && !(s->nulls & API_NULL_CONFIG))
        *have_config = true;
    if (s->call == API_CONFIG_FREE && uses_config)
        *have_config = false;
    if (s->call == API_OPTIONS_ALLOCATE && !(s->nulls & API_NULL_OPTIONS))
        *have_options = true;
    if (s->call == API_OPTIONS_FREE && uses_options)
        *have_options = false;
    return NRT_SUCCESS;
}

/* --- the vector ---------------------------------------------------------------- */

static void api_free(void *body)
{
    api_body_t *b = body;
    for (size_t i = 0; i < b->step_count; i++) {
        api_step_t *s = &b->steps[i];
        for (size_t j = 0; j < s->name_count; j++)
            free(s->names[j].name);
        free(s->names);
        ntsim_vec_log_free(&s->log);
        free(s->name);
        free(s->json);
        free(s->text);
    }
    free(b->steps);
    free(b);
}

static NRT_STATUS parse_session(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                api_body_t *b)
{
    b->clock_start = 1000;
    b->thread_id = 4242;
    yaml_node_t *s = ntsim_yp_get(p, node, "session");
    if (s == NULL)
        return NRT_SUCCESS;
    char spath[512];
    ntsim_yp_path(spath, sizeof spath, "%s.session", path);
    NRT_STATUS st;
    if ((st = ntsim_yp_check_keys(p, s, spath, session_keys, NULL)) != NRT_SUCCESS ||
        (st = ntsim_yp_u64(p, s, spath, "clock_start_ns", false, UINT64_MAX, &b->clock_start)) !=
            NRT_SUCCESS ||
        (st = ntsim_yp_u64(p, s, spath, "clock_step_ns", false, UINT64_MAX, &b->clock_step)) !=
            NRT_SUCCESS)
        return st;
    return ntsim_yp_u64(p, s, spath, "thread_id", false, UINT64_MAX, &b->thread_id);
}

static NRT_STATUS api_parse(ntsim_yparse_t *p, yaml_node_t *node, const char *path, void **out)
{
    api_body_t *b = calloc(1, sizeof *b);
    if (b == NULL)
        return NRT_RESOURCE;
    *out = b;
    NRT_STATUS st = parse_session(p, node, path, b);
    yaml_node_item_t *items;
    size_t count;
    if (st != NRT_SUCCESS ||
        (st = ntsim_yp_seq(p, node, path, "calls", &items, &count)) != NRT_SUCCESS)
        return st;
    if ((b->steps = calloc(count, sizeof *b->steps)) == NULL)
        return NRT_RESOURCE;
    bool have_config = false, have_options = false;
    for (size_t i = 0; i < count; i++) {
        char cpath[512];
        ntsim_yp_path(cpath, sizeof cpath, "%s.calls[%zu]", path, i);
        yaml_node_t *c = ntsim_yp_node(p, items[i]);
        b->step_count = i + 1; /* so that api_free releases what this one holds */
        if ((st = parse_step(p, c, cpath, &b->steps[i])) != NRT_SUCCESS ||
            (st = check_sequence(p, c, cpath, &b->steps[i], &have_config, &have_options)) !=
                NRT_SUCCESS)
            return st;
    }
    return NRT_SUCCESS;
}

/* The keys a vector of this kind is judged by (facts.h: FACT@key). */
static const char *const api_judged[] = {"calls", NULL};

const ntsim_vector_kind_t ntsim_kind_api = {
    .name = "api",
    .keys = api_keys,
    .judged = api_judged,
    .allows_invalid = false,
    .parse = api_parse,
    .free_body = api_free,
    .judge = ntsim_api_judge,
    .needs = ntsim_api_needs,
};
