/*
 * conformance/generate/gen_api.c: generated `api` cases: call sequences
 * through the public API, valid by the api kind's sequence rule (what a call
 * uses was allocated before it and not freed since; conformance/kinds/
 * kind_api.c), with random arguments: ring sizes, NC ranges past 255, type
 * names good and bad, emits of any (type, phase), fetches with every form of
 * options and buffer, counters, categories, status names, NULL pointer
 * arguments, and failing allocations (the fail_allocations capability).
 *
 * Each call's expected values are the reference's: its status, what it gives
 * (names, the config's fields, the document and written_size, counters,
 * category, text) and what it logged (each message's level and parts); taking
 * them, the invariants and the shrinking are gen_api_check.c's.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "event_table.h"
#include "gen_api.h"
#include "input.h"


void ntsim_gen_api_drop_step(api_step_case_t *s)
{
    for (size_t i = 0; i < s->n_names; i++)
        free(s->names[i]);
    free(s->names);
    for (size_t i = 0; i < s->n_log; i++)
        free(s->log[i]);
    free(s->log);
    free(s->json);
    free(s->text);
    s->names = s->log = NULL;
    s->n_names = s->n_log = 0;
    s->json = s->text = NULL;
    s->expected = s->has_status = s->has_count = s->has_returns = s->has_sets = false;
}

void ntsim_gen_api_free(void *p)
{
    api_case_t *c = p;
    if (c == NULL)
        return;
    for (size_t i = 0; i < c->n; i++)
        ntsim_gen_api_drop_step(&c->steps[i]);
    free(c);
}

void *ntsim_gen_api_copy(const void *p)
{
    api_case_t *c = malloc(sizeof *c);
    if (c == NULL)
        return NULL;
    *c = *(const api_case_t *)p;
    for (size_t i = 0; i < c->n; i++) {
        api_step_case_t *s = &c->steps[i];
        s->names = s->log = NULL;
        s->n_names = s->n_log = 0;
        s->json = s->text = NULL;
        s->expected = s->has_status = s->has_count = s->has_returns = s->has_sets = false;
    }
    return c;
}

/* --- making a sequence -------------------------------------------------------------- */

typedef struct api_state {
    bool config, options;
} api_state_t;

static void type_name(ntsim_gen_rng_t *r, char *out, size_t cap)
{
    uint32_t t = (uint32_t)ntsim_gen_below(r, COUNT);
    uint64_t pick = ntsim_gen_below(r, 10);
    if (pick < 7)
        snprintf(out, cap, "%s", ntsim__event_types[t].json_name);
    else if (pick < 8) { /* the enum suffix, lowercase: refused (D-SETTER-NAMES) */
        const char *e = ntsim__event_types[t].enum_name + strlen("NRT_SYS_TRACE_EVENT_TYPE_");
        size_t i = 0;
        for (; e[i] != '\0' && i + 1 < cap; i++)
            out[i] = (char)(e[i] >= 'A' && e[i] <= 'Z' ? e[i] - 'A' + 'a' : e[i]);
        out[i] = '\0';
    } else {
        static const char *const odd[] = {"hardware", "software", "unknown", "Generic", ""};
        snprintf(out, cap, "%s", odd[ntsim_gen_below(r, 5)]);
    }
}

/* A ring size for config_set_max_events_per_nc. Every enabled NC's ring is
 * mapped and touched at start (D-RING-MEMORY: 128 MiB and a tenth of a
 * second for the clamp's top, 0x100000 records), so the top and values past
 * it come only where one NC is then left enabled (big). */
static uint64_t ring_size(ntsim_gen_rng_t *r, bool big)
{
    static const uint64_t v[] = {0, 1, 1023, 1024, 1025, 2000, 0x100000, 0x100001, UINT64_MAX};
    uint64_t pick = ntsim_gen_below(r, 100);
    if (big && pick < 1)
        return v[6 + ntsim_gen_below(r, 3)];
    return pick < 90 ? v[ntsim_gen_below(r, 6)] : ntsim_gen_below(r, 4097);
}

/* One call valid in state *st (the kind's sequence rule), its state after. */
static void make_step(ntsim_gen_rng_t *r, api_state_t *st, api_step_case_t *s)
{
    static const api_call_t need_config[] = {API_CONFIG_SET_DEFAULTS, API_CONFIG_SET_MAX_EVENTS,
                                             API_CONFIG_SET_NC,       API_CONFIG_SET_TYPE,
                                             API_CONFIG_GET,          API_CONFIG_GET_ENABLED_TYPES,
                                             API_START,               API_CONFIG_FREE};
    static const api_call_t need_options[] = {API_OPTIONS_SET_DEFAULTS, API_OPTIONS_SET_MAX_EVENTS,
                                              API_OPTIONS_SET_NC, API_OPTIONS_GET, API_OPTIONS_FREE};
    static const api_call_t any[] = {API_GET_EVENT_TYPES, API_STOP,     API_EMIT,   API_EMIT,
                                     API_EMIT,            API_FETCH,    API_FETCH,  API_NC_STATS,
                                     API_NC_STATS,        API_CATEGORY, API_STATUS_STR};
    uint64_t pick = ntsim_gen_below(r, 100);
    if (!st->config && pick < 12)
        s->call = API_CONFIG_ALLOCATE;
    else if (!st->options && pick < 20)
        s->call = API_OPTIONS_ALLOCATE;
    else if (st->config && pick < 50)
        s->call = need_config[ntsim_gen_below(r, 8)];
    else if (st->options && pick < 60)
        s->call = need_options[ntsim_gen_below(r, 5)];
    else
        s->call = any[ntsim_gen_below(r, sizeof any / sizeof any[0])];
    /* A NULL pointer where the call takes one, now and then. */
    static const unsigned nullable[API_CALL_COUNT] = {
        [API_CONFIG_ALLOCATE] = API_NULL_CONFIG, [API_CONFIG_SET_DEFAULTS] = API_NULL_CONFIG,
        [API_CONFIG_SET_MAX_EVENTS] = API_NULL_CONFIG, [API_CONFIG_SET_NC] = API_NULL_CONFIG,
        [API_CONFIG_SET_TYPE] = API_NULL_CONFIG | API_NULL_EVENT_TYPE,
        [API_CONFIG_GET_ENABLED_TYPES] = API_NULL_CONFIG | API_NULL_EVENT_TYPES | API_NULL_COUNT,
        [API_GET_EVENT_TYPES] = API_NULL_EVENT_TYPES | API_NULL_COUNT,
        [API_START] = API_NULL_CONFIG, [API_OPTIONS_ALLOCATE] = API_NULL_OPTIONS,
        [API_OPTIONS_SET_DEFAULTS] = API_NULL_OPTIONS, [API_OPTIONS_SET_MAX_EVENTS] = API_NULL_OPTIONS,
        [API_OPTIONS_SET_NC] = API_NULL_OPTIONS, [API_FETCH] = API_NULL_BUFFER | API_NULL_WRITTEN_SIZE};
    if (nullable[s->call] != 0 && ntsim_gen_chance(r, 6)) {
        unsigned bits = nullable[s->call];
        do
            s->nulls = 1u << ntsim_gen_below(r, 7);
        while ((s->nulls & bits) == 0);
    }
    if ((s->call == API_START || s->call == API_FETCH || s->call == API_GET_EVENT_TYPES ||
         s->call == API_CONFIG_GET_ENABLED_TYPES) && ntsim_gen_chance(r, 4)) {
        s->fail = true;
        s->allocs_ok = ntsim_gen_below(r, 4);
    }
    switch (s->call) {
    case API_CONFIG_ALLOCATE: st->config |= !(s->nulls & API_NULL_CONFIG); break;
    case API_OPTIONS_ALLOCATE: st->options |= !(s->nulls & API_NULL_OPTIONS); break;
    case API_CONFIG_FREE: st->config = false; break;
    case API_OPTIONS_FREE: st->options = false; break;
    case API_CONFIG_SET_MAX_EVENTS: s->value = ring_size(r, false); break;
    case API_OPTIONS_SET_MAX_EVENTS: s->value = ntsim_gen_chance(r, 70) ? ntsim_gen_below(r, 20) : ntsim_gen_value(r, 8); break;
    case API_OPTIONS_SET_NC: {
        static const uint64_t v[] = {0, 1, 2, 255, 256, UINT64_MAX, 0x80000000};
        s->value = ntsim_gen_chance(r, 85) ? v[ntsim_gen_below(r, 7)] : ntsim_gen_value(r, 8);
        break;
    }
    case API_CONFIG_SET_NC:
        s->enabled = ntsim_gen_chance(r, 40);
        s->nc_from = ntsim_gen_chance(r, 85) ? (uint32_t)ntsim_gen_below(r, 8) : (uint32_t)ntsim_gen_range(r, 250, 300);
        s->range = ntsim_gen_chance(r, 60);
        /* Wide ranges mostly switch NCs off: every enabled NC's ring is
         * mapped and touched at start (D-RING-MEMORY). */
        s->nc_to = !s->range ? s->nc_from
                   : s->enabled && ntsim_gen_chance(r, 90) ? s->nc_from + (uint32_t)ntsim_gen_below(r, 8)
                                                     : s->nc_from + (uint32_t)ntsim_gen_below(r, 300);
        break;
    case API_CONFIG_SET_TYPE:
        s->enabled = ntsim_gen_chance(r, 50);
        type_name(r, s->name, sizeof s->name);
        break;
    case API_EMIT:
        s->type = ntsim_gen_type(r);
        s->phase = ntsim_gen_phase(r);
        s->nc = ntsim_gen_chance(r, 85) ? (uint32_t)ntsim_gen_below(r, 4) : (uint32_t)ntsim_gen_value(r, 4);
        s->tracking = ntsim_gen_chance(r, 60) ? 0 : ntsim_gen_value(r, 8);
        if ((s->has_seq = ntsim_gen_chance(r, 20)))
            s->seq = ntsim_gen_value(r, 8);
        if ((s->has_data = ntsim_gen_chance(r, 85)))
            ntsim_gen_payload(r, s->type, s->phase, &s->data);
        s->repeat = ntsim_gen_chance(r, 85) ? 1 : ntsim_gen_chance(r, 80) ? ntsim_gen_range(r, 2, 30)
                                                               : ntsim_gen_range(r, 1024, 1300);
        break;
    case API_FETCH:
        s->options = (int)ntsim_gen_below(r, st->options ? 3 : 2);
        s->opt_nc = ntsim_gen_chance(r, 80) ? (int32_t)ntsim_gen_range(r, 0, 5) - 1 : ntsim_gen_int(r);
        s->opt_max = ntsim_gen_chance(r, 80) ? ntsim_gen_below(r, 10) : ntsim_gen_value(r, 8);
        s->preset = ntsim_gen_chance(r, 20);
        break;
    case API_NC_STATS:
        s->nc = ntsim_gen_chance(r, 90) ? (uint32_t)ntsim_gen_below(r, 4) : (uint32_t)ntsim_gen_value(r, 4);
        break;
    case API_CATEGORY: s->type = ntsim_gen_type(r); break;
    case API_STATUS_STR: s->value = ntsim_gen_chance(r, 80) ? ntsim_gen_below(r, 40) : ntsim_gen_value(r, 4); break;
    default: break;
    }
}

static void *api_make(ntsim_gen_rng_t *r, uint64_t j)
{
    (void)j;
    api_case_t *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->clock_start = ntsim_gen_chance(r, 70) ? 1000 : ntsim_gen_value(r, 8);
    c->clock_step = ntsim_gen_chance(r, 70) ? 1 : ntsim_gen_value(r, 2);
    c->thread_id = ntsim_gen_chance(r, 70) ? 4242 : ntsim_gen_value(r, 8);
    api_state_t st = {false, false};
    if (ntsim_gen_chance(r, 92)) {
        /* The usual start of a session: a config, a ring, a few NCs. All 256
         * NCs with rings under 32 Ki records are mapped and touched at start
         * (D-RING-MEMORY: a third of a second), so they come now and then. */
        uint64_t ring = ring_size(r, true);
        c->steps[c->n++] = (api_step_case_t){.call = API_CONFIG_ALLOCATE};
        c->steps[c->n++] = (api_step_case_t){.call = API_CONFIG_SET_MAX_EVENTS, .value = ring};
        c->steps[c->n++] = (api_step_case_t){
            .call = API_CONFIG_SET_NC, .range = true,
            .nc_from = ring > 4096 ? 1 : (uint32_t)ntsim_gen_range(r, 1, 4), .nc_to = 255,
            .enabled = false};
        if (ntsim_gen_chance(r, 70))
            c->steps[c->n++] = (api_step_case_t){.call = API_START};
        st.config = true;
    }
    size_t n = c->n + 2 + ntsim_gen_below(r, MAX_CALLS - c->n - 2);
    while (c->n < n) {
        api_step_case_t *s = &c->steps[c->n++];
        make_step(r, &st, s);
        /* set_defaults brings back 256 NCs of 0x100000 records: mostly
         * narrowed again at once, as the prologue does. */
        if (s->call == API_CONFIG_SET_DEFAULTS && !(s->nulls & API_NULL_CONFIG) &&
            c->n + 2 <= n && ntsim_gen_chance(r, 90)) {
            c->steps[c->n++] = (api_step_case_t){.call = API_CONFIG_SET_MAX_EVENTS,
                                                  .value = ntsim_gen_range(r, 0, 2048)};
            c->steps[c->n++] = (api_step_case_t){.call = API_CONFIG_SET_NC, .range = true,
                                                  .nc_from = (uint32_t)ntsim_gen_range(r, 1, 4),
                                                  .nc_to = 255, .enabled = false};
        }
    }
    return c;
}

/* --- the vector text ------------------------------------------------------------------- */

const char *ntsim_gen_api_status_word(int32_t s)
{
    switch (s) {
    case 0: return "NRT_SUCCESS";
    case 1: return "NRT_FAILURE";
    case 2: return "NRT_INVALID";
    case 4: return "NRT_RESOURCE";
    default: return NULL;
    }
}

/* A set of NCs or types as the kind reads it: all, none, or the exact list. */
static void write_set(ntsim_gen_text_t *t, const char *key, const bool *on, size_t n, bool types)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        count += on[i];
    if (count == n || count == 0) {
        ntsim_gen_printf(t, ", %s_enabled: %s", key, count == n ? "all" : "none");
        return;
    }
    bool list_on = count <= n / 2;
    ntsim_gen_printf(t, ", %s_%s: [", key, list_on ? "enabled" : "disabled");
    const char *sep = "";
    for (size_t i = 0; i < n; i++)
        if (on[i] == list_on) {
            char tw[64];
            ntsim_gen_printf(t, "%s%s", sep, types ? ntsim_gen_type_word((uint32_t)i, tw, sizeof tw)
                                             : (snprintf(tw, sizeof tw, "%zu", i), tw));
            sep = ", ";
        }
    ntsim_gen_printf(t, "]");
}

static void write_step(const api_step_case_t *s, ntsim_gen_text_t *t)
{
    char tw[64], pw[32];
    ntsim_gen_printf(t, "      - {call: %s", ntsim_api_call_name(s->call));
    if (s->nulls) {
        ntsim_gen_printf(t, ", null_args: [");
        const char *sep = "";
        for (unsigned b = 0; ntsim_api_null_arg_names[b] != NULL; b++)
            if (s->nulls & (1u << b)) {
                ntsim_gen_printf(t, "%s%s", sep, ntsim_api_null_arg_names[b]);
                sep = ", ";
            }
        ntsim_gen_printf(t, "]");
    }
    /* How many allocations a call makes is the implementation's own: the
     * outcome is judged by a sweep, but for get_event_types, whose blocks
     * facts §4 gives (D-ALLOCATOR). */
    if (ntsim_gen_api_sweeps(s))
        ntsim_gen_printf(t, ", fail_allocations: sweep");
    else if (s->fail)
        ntsim_gen_printf(t, ", fail_allocations_after: %" PRIu64, s->allocs_ok);
    switch (s->call) {
    case API_CONFIG_SET_MAX_EVENTS:
    case API_OPTIONS_SET_MAX_EVENTS:
    case API_OPTIONS_SET_NC: ntsim_gen_printf(t, ", value: %" PRIu64, s->value); break;
    case API_STATUS_STR:
        ntsim_gen_printf(t, ", status_value: %" PRIu64 ", text: ", s->value);
        ntsim_gen_quoted(t, s->text != NULL ? s->text : "(the reference's)",
                   strlen(s->text != NULL ? s->text : "(the reference's)"));
        break;
    case API_CONFIG_SET_NC:
        if (s->range)
            ntsim_gen_printf(t, ", nc_idx: {from: %u, to: %u}", s->nc_from, s->nc_to);
        else
            ntsim_gen_printf(t, ", nc_idx: %u", s->nc_from);
        ntsim_gen_printf(t, ", enabled: %s", s->enabled ? "true" : "false");
        break;
    case API_CONFIG_SET_TYPE:
        if (!(s->nulls & API_NULL_EVENT_TYPE)) {
            ntsim_gen_printf(t, ", name: ");
            ntsim_gen_quoted(t, s->name, strlen(s->name));
        }
        ntsim_gen_printf(t, ", enabled: %s", s->enabled ? "true" : "false");
        break;
    case API_EMIT:
        ntsim_gen_printf(t, ", type: %s, phase: %s, nc_idx: %u", ntsim_gen_type_word(s->type, tw, sizeof tw),
                   ntsim_gen_phase_word(s->phase, pw, sizeof pw), s->nc);
        if (s->tracking != 0)
            ntsim_gen_printf(t, ", tracking_id: 0x%" PRIx64, s->tracking);
        if (s->has_seq)
            ntsim_gen_printf(t, ", nrta_seq_id: 0x%" PRIx64, s->seq);
        if (s->has_data)
            ntsim_gen_data_yaml(t, s->type, s->phase, &s->data);
        if (s->repeat != 1)
            ntsim_gen_printf(t, ", repeat: %" PRIu64, s->repeat);
        else if (s->has_returns)
            ntsim_gen_printf(t, ", returns: 0x%" PRIx64, s->returns);
        break;
    case API_FETCH:
        if (s->options == 1)
            ntsim_gen_printf(t, ", options: {nc_idx: %d, max_events_per_nc: %" PRIu64 "}", s->opt_nc,
                       s->opt_max);
        else if (s->options == 2)
            ntsim_gen_printf(t, ", options: allocated");
        if (s->preset)
            ntsim_gen_printf(t, ", buffer: preset");
        if (s->json != NULL && s->has_status && s->status == 0) {
            ntsim_gen_printf(t, ", written_size: %" PRIu64 ", json: ", s->written);
            ntsim_gen_quoted(t, s->json, strlen(s->json));
        }
        break;
    case API_NC_STATS:
        ntsim_gen_printf(t, ", nc_idx: %u", s->nc);
        if (s->expected && s->has_status && s->status == 0)
            for (size_t i = 0; i < 7; i++)
                ntsim_gen_printf(t, ", %s: %" PRIu64,
                           (const char *const[]){"capacity", "created", "pushed", "overwritten",
                                                 "drained", "in_ring", "lost_at_stop"}[i],
                           s->stats[i]);
        break;
    case API_CATEGORY:
        ntsim_gen_printf(t, ", type: %s, category: %s", ntsim_gen_type_word(s->type, tw, sizeof tw),
                   (const char *const[]){"UNKNOWN", "HARDWARE", "SOFTWARE"}[s->category]);
        break;
    case API_CONFIG_GET:
        if (s->has_sets) {
            ntsim_gen_printf(t, ", max_events_per_nc: %" PRIu64, s->max);
            write_set(t, "ncs", s->ncs, NTSIM_NC_COUNT, false);
            write_set(t, "types", s->types, COUNT, true);
        }
        break;
    case API_OPTIONS_GET:
        if (s->has_sets)
            ntsim_gen_printf(t, ", max_events_per_nc: %" PRIu64 ", nc_idx: %" PRId64, s->max,
                       s->got_opt_nc);
        break;
    case API_GET_EVENT_TYPES:
    case API_CONFIG_GET_ENABLED_TYPES:
        if (s->has_count) {
            ntsim_gen_printf(t, ", count: %" PRIu64 ", names: {", s->count);
            const char *sep = "";
            for (size_t i = 0; i < s->n_names; i++)
                if (s->names[i][0] != '\0') {
                    ntsim_gen_printf(t, "%s%zu: ", sep, i);
                    ntsim_gen_quoted(t, s->names[i], strlen(s->names[i]));
                    sep = ", ";
                }
            ntsim_gen_printf(t, "}");
        }
        break;
    default: break;
    }
    const char *word = s->has_status ? ntsim_gen_api_status_word(s->status) : NULL;
    if (word != NULL && s->status != 0)
        ntsim_gen_printf(t, ", status: %s", word);
    ntsim_gen_log_write(t, ", ", s->log, s->n_log); /* [] until the reference's */
    ntsim_gen_printf(t, "}\n");
}

static void api_write(const void *p, ntsim_gen_text_t *t)
{
    const api_case_t *c = p;
    ntsim_gen_printf(t, "    expect: valid\n    session: {clock_start_ns: %" PRIu64 ", clock_step_ns: %"
                  PRIu64 ", thread_id: %" PRIu64 "}\n    calls:\n",
               c->clock_start, c->clock_step, c->thread_id);
    for (size_t i = 0; i < c->n; i++)
        write_step(&c->steps[i], t);
}

static void api_source(const void *p, ntsim_gen_text_t *t)
{
    const api_case_t *c = p;
    ntsim_gen_printf(t, ", F4.api.conventions, D-STATUS, D-API-ARGS, D-LIFECYCLE, D-LOG, D-LOG-CONTRACT");
    static const char *const facts[API_CALL_COUNT] = {
        [API_CONFIG_ALLOCATE] = "F4.config_allocate",
        [API_CONFIG_SET_DEFAULTS] = "F4.config_set_defaults, F4.config.defaults",
        [API_CONFIG_FREE] = "F4.config_free",
        [API_CONFIG_SET_MAX_EVENTS] = "F4.config_set_max_events_per_nc, F4.config.clamp_lower, "
                                      "F4.config.clamp_upper",
        [API_CONFIG_SET_NC] = "F4.config_set_capture_enabled_for_nc",
        [API_CONFIG_SET_TYPE] = "F4.config_set_capture_enabled_for_event_type, D-SETTER-NAMES",
        [API_CONFIG_GET] = "F4.config.layout, D-CONFIG-NAMES",
        [API_CONFIG_GET_ENABLED_TYPES] = "F4.config_get_enabled_event_types, D-SETTER-NAMES",
        [API_GET_EVENT_TYPES] = "F4.get_event_types, F4.get_event_types.null, D-NAMES",
        [API_START] = "F4.start, F4.start.running, F5.start.state, D-RING-MEMORY",
        [API_STOP] = "F4.stop, F4.stop.second, F5.stop",
        [API_EMIT] = "F5.emit.state_gate, F5.emit.tracking_id, F5.new_event.returns_tracking, "
                     "D-IDS, D-PAYLOAD-HOLES, D-CLOCK-READ",
        [API_OPTIONS_ALLOCATE] = "F4.fetch_options_allocate, F6.status.fetch_option_defaults",
        [API_OPTIONS_SET_DEFAULTS] = "F4.fetch_options_set_defaults",
        [API_OPTIONS_FREE] = "F4.fetch_options_free",
        [API_OPTIONS_SET_MAX_EVENTS] = "F4.fetch_options_set_max_events_per_nc",
        [API_OPTIONS_SET_NC] = "F4.fetch_options_set_nc_idx, D-FETCH-NC",
        [API_OPTIONS_GET] = "F6.status.fetch_option_defaults",
        [API_FETCH] = "F4.fetch_events, F6.status.preset_buffer, F6.fetch.order, D-FETCH, "
                      "D-JSON-DATA, D-JSON-NAMES",
        [API_NC_STATS] = "F6.capture.dropped_accounting, D-RING",
        [API_CATEGORY] = "F4.get_event_type_category, F1.category.members",
        [API_STATUS_STR] = "D-STATUS-STR",
    };
    for (size_t i = 0; i < c->n; i++) {
        const api_step_case_t *s = &c->steps[i];
        ntsim_gen_printf(t, ", %s", facts[s->call]);
        if (s->call == API_EMIT)
            ntsim_gen_source_payload(t, s->type, s->phase);
        if (s->fail)
            ntsim_gen_printf(t, ", D-ALLOCATOR");
    }
}

const ntsim_gen_kind_t ntsim_gen_kind_api = {
    .name = "api",
    .weight = 2,
    .make = api_make,
    .free = ntsim_gen_api_free,
    .copy = ntsim_gen_api_copy,
    .write = api_write,
    .source = api_source,
    .expect = ntsim_gen_api_expect,
    .check = ntsim_gen_api_check,
    .shrink = ntsim_gen_api_shrink,
    .size = ntsim_gen_api_size,
    .size_unit = "calls",
    .cover = ntsim_gen_api_cover,
};
