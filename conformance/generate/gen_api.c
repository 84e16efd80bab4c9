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
 * category, text) and what it logged (warnings and the last of them).
 *
 * Invariants on each side: nc_stats counters balance as D-RING says, and
 * get_event_types gives COUNT names when it succeeds.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "api_calls.h"
#include "event_table.h"
#include "gen_int.h"
#include "input.h"
#include "ntsim/capture.h"

enum { MAX_CALLS = 24, COUNT = NRT_SYS_TRACE_EVENT_TYPE_COUNT };

typedef struct api_step_case {
    api_call_t call;
    unsigned nulls;
    bool fail;
    uint64_t allocs_ok;
    uint64_t value;
    uint32_t nc_from, nc_to;
    bool range, enabled;
    char name[64];
    uint32_t type, phase, nc;
    uint64_t tracking, seq, repeat;
    bool has_seq, has_data;
    nrt_sys_trace_event_data_t data;
    int options;               /* 0 null, 1 inline, 2 allocated */
    int32_t opt_nc;
    uint64_t opt_max;
    bool preset;
    /* expected, from the reference's reply */
    bool expected, has_status;
    int32_t status;
    uint64_t warnings;
    char *last;
    uint64_t returns, count, max, written;
    bool has_count, has_returns;
    char **names;
    size_t n_names;
    bool ncs[NTSIM_NC_COUNT], types[COUNT], has_sets;
    int64_t got_opt_nc;
    char *json;
    uint64_t stats[7];
    int32_t category;
    char *text;
} api_step_case_t;

typedef struct api_case {
    uint64_t clock_start, clock_step, thread_id;
    api_step_case_t steps[MAX_CALLS];
    size_t n;
} api_case_t;

static void drop_step(api_step_case_t *s)
{
    for (size_t i = 0; i < s->n_names; i++)
        free(s->names[i]);
    free(s->names);
    free(s->last);
    free(s->json);
    free(s->text);
    s->names = NULL;
    s->n_names = 0;
    s->last = s->json = s->text = NULL;
    s->expected = s->has_status = s->has_count = s->has_returns = s->has_sets = false;
}

static void api_free_case(void *p)
{
    api_case_t *c = p;
    if (c == NULL)
        return;
    for (size_t i = 0; i < c->n; i++)
        drop_step(&c->steps[i]);
    free(c);
}

static void *api_copy(const void *p)
{
    api_case_t *c = malloc(sizeof *c);
    if (c == NULL)
        return NULL;
    *c = *(const api_case_t *)p;
    for (size_t i = 0; i < c->n; i++) {
        api_step_case_t *s = &c->steps[i];
        s->names = NULL;
        s->n_names = 0;
        s->last = s->json = s->text = NULL;
        s->expected = s->has_status = s->has_count = s->has_returns = s->has_sets = false;
    }
    return c;
}

/* --- making a sequence -------------------------------------------------------------- */

typedef struct api_state {
    bool config, options;
} api_state_t;

static void type_name(gen_rng_t *r, char *out, size_t cap)
{
    uint32_t t = (uint32_t)gen_below(r, COUNT);
    uint64_t pick = gen_below(r, 10);
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
        snprintf(out, cap, "%s", odd[gen_below(r, 5)]);
    }
}

/* A ring size for config_set_max_events_per_nc. Every enabled NC's ring is
 * mapped and touched at start (D-RING-MEMORY: 128 MiB and a tenth of a
 * second for the clamp's top, 0x100000 records), so the top and values past
 * it come only where one NC is then left enabled (big). */
static uint64_t ring_size(gen_rng_t *r, bool big)
{
    static const uint64_t v[] = {0, 1, 1023, 1024, 1025, 2000, 0x100000, 0x100001, UINT64_MAX};
    uint64_t pick = gen_below(r, 100);
    if (big && pick < 1)
        return v[6 + gen_below(r, 3)];
    return pick < 90 ? v[gen_below(r, 6)] : gen_below(r, 4097);
}

/* One call valid in state *st (the kind's sequence rule), its state after. */
static void make_step(gen_rng_t *r, api_state_t *st, api_step_case_t *s)
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
    uint64_t pick = gen_below(r, 100);
    if (!st->config && pick < 12)
        s->call = API_CONFIG_ALLOCATE;
    else if (!st->options && pick < 20)
        s->call = API_OPTIONS_ALLOCATE;
    else if (st->config && pick < 50)
        s->call = need_config[gen_below(r, 8)];
    else if (st->options && pick < 60)
        s->call = need_options[gen_below(r, 5)];
    else
        s->call = any[gen_below(r, sizeof any / sizeof any[0])];
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
    if (nullable[s->call] != 0 && gen_chance(r, 6)) {
        unsigned bits = nullable[s->call];
        do
            s->nulls = 1u << gen_below(r, 7);
        while ((s->nulls & bits) == 0);
    }
    if ((s->call == API_START || s->call == API_FETCH || s->call == API_GET_EVENT_TYPES ||
         s->call == API_CONFIG_GET_ENABLED_TYPES) && gen_chance(r, 4)) {
        s->fail = true;
        s->allocs_ok = gen_below(r, 4);
    }
    switch (s->call) {
    case API_CONFIG_ALLOCATE: st->config |= !(s->nulls & API_NULL_CONFIG); break;
    case API_OPTIONS_ALLOCATE: st->options |= !(s->nulls & API_NULL_OPTIONS); break;
    case API_CONFIG_FREE: st->config = false; break;
    case API_OPTIONS_FREE: st->options = false; break;
    case API_CONFIG_SET_MAX_EVENTS: s->value = ring_size(r, false); break;
    case API_OPTIONS_SET_MAX_EVENTS: s->value = gen_chance(r, 70) ? gen_below(r, 20) : gen_value(r, 8); break;
    case API_OPTIONS_SET_NC: {
        static const uint64_t v[] = {0, 1, 2, 255, 256, UINT64_MAX, 0x80000000};
        s->value = gen_chance(r, 85) ? v[gen_below(r, 7)] : gen_value(r, 8);
        break;
    }
    case API_CONFIG_SET_NC:
        s->enabled = gen_chance(r, 40);
        s->nc_from = gen_chance(r, 85) ? (uint32_t)gen_below(r, 8) : (uint32_t)gen_range(r, 250, 300);
        s->range = gen_chance(r, 60);
        /* Wide ranges mostly switch NCs off: every enabled NC's ring is
         * mapped and touched at start (D-RING-MEMORY). */
        s->nc_to = !s->range ? s->nc_from
                   : s->enabled && gen_chance(r, 90) ? s->nc_from + (uint32_t)gen_below(r, 8)
                                                     : s->nc_from + (uint32_t)gen_below(r, 300);
        break;
    case API_CONFIG_SET_TYPE:
        s->enabled = gen_chance(r, 50);
        type_name(r, s->name, sizeof s->name);
        break;
    case API_EMIT:
        s->type = gen_type(r);
        s->phase = gen_phase(r);
        s->nc = gen_chance(r, 85) ? (uint32_t)gen_below(r, 4) : (uint32_t)gen_value(r, 4);
        s->tracking = gen_chance(r, 60) ? 0 : gen_value(r, 8);
        if ((s->has_seq = gen_chance(r, 20)))
            s->seq = gen_value(r, 8);
        if ((s->has_data = gen_chance(r, 85)))
            gen_payload(r, s->type, s->phase, &s->data);
        s->repeat = gen_chance(r, 85) ? 1 : gen_chance(r, 80) ? gen_range(r, 2, 30)
                                                               : gen_range(r, 1024, 1300);
        break;
    case API_FETCH:
        s->options = (int)gen_below(r, st->options ? 3 : 2);
        s->opt_nc = gen_chance(r, 80) ? (int32_t)gen_range(r, 0, 5) - 1 : gen_int(r);
        s->opt_max = gen_chance(r, 80) ? gen_below(r, 10) : gen_value(r, 8);
        s->preset = gen_chance(r, 20);
        break;
    case API_NC_STATS:
        s->nc = gen_chance(r, 90) ? (uint32_t)gen_below(r, 4) : (uint32_t)gen_value(r, 4);
        break;
    case API_CATEGORY: s->type = gen_type(r); break;
    case API_STATUS_STR: s->value = gen_chance(r, 80) ? gen_below(r, 40) : gen_value(r, 4); break;
    default: break;
    }
}

static void *api_make(gen_rng_t *r, uint64_t j)
{
    (void)j;
    api_case_t *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->clock_start = gen_chance(r, 70) ? 1000 : gen_value(r, 8);
    c->clock_step = gen_chance(r, 70) ? 1 : gen_value(r, 2);
    c->thread_id = gen_chance(r, 70) ? 4242 : gen_value(r, 8);
    api_state_t st = {false, false};
    if (gen_chance(r, 92)) {
        /* The usual start of a session: a config, a ring, a few NCs. All 256
         * NCs with rings under 32 Ki records are mapped and touched at start
         * (D-RING-MEMORY: a third of a second), so they come now and then. */
        uint64_t ring = ring_size(r, true);
        c->steps[c->n++] = (api_step_case_t){.call = API_CONFIG_ALLOCATE};
        c->steps[c->n++] = (api_step_case_t){.call = API_CONFIG_SET_MAX_EVENTS, .value = ring};
        c->steps[c->n++] = (api_step_case_t){
            .call = API_CONFIG_SET_NC, .range = true,
            .nc_from = ring > 4096 ? 1 : (uint32_t)gen_range(r, 1, 4), .nc_to = 255,
            .enabled = false};
        if (gen_chance(r, 70))
            c->steps[c->n++] = (api_step_case_t){.call = API_START};
        st.config = true;
    }
    size_t n = c->n + 2 + gen_below(r, MAX_CALLS - c->n - 2);
    while (c->n < n) {
        api_step_case_t *s = &c->steps[c->n++];
        make_step(r, &st, s);
        /* set_defaults brings back 256 NCs of 0x100000 records: mostly
         * narrowed again at once, as the prologue does. */
        if (s->call == API_CONFIG_SET_DEFAULTS && !(s->nulls & API_NULL_CONFIG) &&
            c->n + 2 <= n && gen_chance(r, 90)) {
            c->steps[c->n++] = (api_step_case_t){.call = API_CONFIG_SET_MAX_EVENTS,
                                                  .value = gen_range(r, 0, 2048)};
            c->steps[c->n++] = (api_step_case_t){.call = API_CONFIG_SET_NC, .range = true,
                                                  .nc_from = (uint32_t)gen_range(r, 1, 4),
                                                  .nc_to = 255, .enabled = false};
        }
    }
    return c;
}

/* --- the vector text ------------------------------------------------------------------- */

static const char *status_word(int32_t s)
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
static void write_set(gen_text_t *t, const char *key, const bool *on, size_t n, bool types)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        count += on[i];
    if (count == n || count == 0) {
        gen_printf(t, ", %s_enabled: %s", key, count == n ? "all" : "none");
        return;
    }
    bool list_on = count <= n / 2;
    gen_printf(t, ", %s_%s: [", key, list_on ? "enabled" : "disabled");
    const char *sep = "";
    for (size_t i = 0; i < n; i++)
        if (on[i] == list_on) {
            char tw[64];
            gen_printf(t, "%s%s", sep, types ? gen_type_word((uint32_t)i, tw, sizeof tw)
                                             : (snprintf(tw, sizeof tw, "%zu", i), tw));
            sep = ", ";
        }
    gen_printf(t, "]");
}

static void write_step(const api_step_case_t *s, gen_text_t *t)
{
    char tw[64], pw[32];
    gen_printf(t, "      - {call: %s", ntsim_api_call_name(s->call));
    if (s->nulls) {
        gen_printf(t, ", null_args: [");
        const char *sep = "";
        for (unsigned b = 0; ntsim_api_null_arg_names[b] != NULL; b++)
            if (s->nulls & (1u << b)) {
                gen_printf(t, "%s%s", sep, ntsim_api_null_arg_names[b]);
                sep = ", ";
            }
        gen_printf(t, "]");
    }
    if (s->fail)
        gen_printf(t, ", fail_allocations_after: %" PRIu64, s->allocs_ok);
    switch (s->call) {
    case API_CONFIG_SET_MAX_EVENTS:
    case API_OPTIONS_SET_MAX_EVENTS:
    case API_OPTIONS_SET_NC: gen_printf(t, ", value: %" PRIu64, s->value); break;
    case API_STATUS_STR:
        gen_printf(t, ", status_value: %" PRIu64 ", text: ", s->value);
        gen_quoted(t, s->text != NULL ? s->text : "(the reference's)",
                   strlen(s->text != NULL ? s->text : "(the reference's)"));
        break;
    case API_CONFIG_SET_NC:
        if (s->range)
            gen_printf(t, ", nc_idx: {from: %u, to: %u}", s->nc_from, s->nc_to);
        else
            gen_printf(t, ", nc_idx: %u", s->nc_from);
        gen_printf(t, ", enabled: %s", s->enabled ? "true" : "false");
        break;
    case API_CONFIG_SET_TYPE:
        if (!(s->nulls & API_NULL_EVENT_TYPE)) {
            gen_printf(t, ", name: ");
            gen_quoted(t, s->name, strlen(s->name));
        }
        gen_printf(t, ", enabled: %s", s->enabled ? "true" : "false");
        break;
    case API_EMIT:
        gen_printf(t, ", type: %s, phase: %s, nc_idx: %u", gen_type_word(s->type, tw, sizeof tw),
                   gen_phase_word(s->phase, pw, sizeof pw), s->nc);
        if (s->tracking != 0)
            gen_printf(t, ", tracking_id: 0x%" PRIx64, s->tracking);
        if (s->has_seq)
            gen_printf(t, ", nrta_seq_id: 0x%" PRIx64, s->seq);
        if (s->has_data)
            gen_data_yaml(t, s->type, s->phase, &s->data);
        if (s->repeat != 1)
            gen_printf(t, ", repeat: %" PRIu64, s->repeat);
        else if (s->has_returns)
            gen_printf(t, ", returns: 0x%" PRIx64, s->returns);
        break;
    case API_FETCH:
        if (s->options == 1)
            gen_printf(t, ", options: {nc_idx: %d, max_events_per_nc: %" PRIu64 "}", s->opt_nc,
                       s->opt_max);
        else if (s->options == 2)
            gen_printf(t, ", options: allocated");
        if (s->preset)
            gen_printf(t, ", buffer: preset");
        if (s->json != NULL && s->has_status && s->status == 0) {
            gen_printf(t, ", written_size: %" PRIu64 ", json: ", s->written);
            gen_quoted(t, s->json, strlen(s->json));
        }
        break;
    case API_NC_STATS:
        gen_printf(t, ", nc_idx: %u", s->nc);
        if (s->expected && s->has_status && s->status == 0)
            for (size_t i = 0; i < 7; i++)
                gen_printf(t, ", %s: %" PRIu64,
                           (const char *const[]){"capacity", "created", "pushed", "overwritten",
                                                 "drained", "in_ring", "lost_at_stop"}[i],
                           s->stats[i]);
        break;
    case API_CATEGORY:
        gen_printf(t, ", type: %s, category: %s", gen_type_word(s->type, tw, sizeof tw),
                   (const char *const[]){"UNKNOWN", "HARDWARE", "SOFTWARE"}[s->category]);
        break;
    case API_CONFIG_GET:
        if (s->has_sets) {
            gen_printf(t, ", max_events_per_nc: %" PRIu64, s->max);
            write_set(t, "ncs", s->ncs, NTSIM_NC_COUNT, false);
            write_set(t, "types", s->types, COUNT, true);
        }
        break;
    case API_OPTIONS_GET:
        if (s->has_sets)
            gen_printf(t, ", max_events_per_nc: %" PRIu64 ", nc_idx: %" PRId64, s->max,
                       s->got_opt_nc);
        break;
    case API_GET_EVENT_TYPES:
    case API_CONFIG_GET_ENABLED_TYPES:
        if (s->has_count) {
            gen_printf(t, ", count: %" PRIu64 ", names: {", s->count);
            const char *sep = "";
            for (size_t i = 0; i < s->n_names; i++)
                if (s->names[i][0] != '\0') {
                    gen_printf(t, "%s%zu: ", sep, i);
                    gen_quoted(t, s->names[i], strlen(s->names[i]));
                    sep = ", ";
                }
            gen_printf(t, "}");
        }
        break;
    default: break;
    }
    const char *word = s->has_status ? status_word(s->status) : NULL;
    if (word != NULL && s->status != 0)
        gen_printf(t, ", status: %s", word);
    gen_printf(t, ", warnings: %" PRIu64, s->warnings);
    if (s->last != NULL) {
        gen_printf(t, ", log: ");
        gen_quoted(t, s->last, strlen(s->last));
    }
    gen_printf(t, "}\n");
}

static void api_write(const void *p, gen_text_t *t)
{
    const api_case_t *c = p;
    gen_printf(t, "    expect: valid\n    session: {clock_start_ns: %" PRIu64 ", clock_step_ns: %"
                  PRIu64 ", thread_id: %" PRIu64 "}\n    calls:\n",
               c->clock_start, c->clock_step, c->thread_id);
    for (size_t i = 0; i < c->n; i++)
        write_step(&c->steps[i], t);
}

static void api_source(const void *p, gen_text_t *t)
{
    const api_case_t *c = p;
    gen_printf(t, ", F4.api.conventions, D-STATUS, D-API-ARGS, D-LIFECYCLE, D-LOG");
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
        gen_printf(t, ", %s", facts[s->call]);
        if (s->call == API_EMIT)
            gen_source_payload(t, s->type, s->phase);
        if (s->fail)
            gen_printf(t, ", D-ALLOCATOR");
    }
}

/* --- expected values, invariants ---------------------------------------------------------- */

/* One call's expected values from its reply. */
static bool take_step(api_step_case_t *s, const NtsimTestee__ApiReply *m)
{
    drop_step(s);
    s->expected = true;
    if (s->call == API_NC_STATS) {
        s->has_status = m->stats != NULL;
        s->status = m->stats != NULL ? m->stats->status : 0;
        if (m->stats != NULL) {
            const NtsimTestee__NcStats *x = m->stats;
            const uint64_t v[7] = {x->capacity, x->created, x->pushed, x->overwritten,
                                   x->drained, x->in_ring, x->lost_at_stop};
            memcpy(s->stats, v, sizeof v);
        }
    } else {
        s->has_status = m->has_status;
        s->status = m->status;
    }
    s->warnings = m->warnings;
    if (m->warnings > 0 && m->last_warning != NULL &&
        (s->last = ntsim_strdup(m->last_warning)) == NULL)
        return false;
    switch (s->call) {
    case API_EMIT:
        s->has_returns = true;
        s->returns = m->returns;
        break;
    case API_STATUS_STR:
        if ((s->text = ntsim_strdup(m->text != NULL ? m->text : "")) == NULL)
            return false;
        break;
    case API_CATEGORY:
        s->category = m->has_category && (unsigned)m->category < 3 ? m->category : 0;
        break;
    case API_FETCH:
        if (m->has_status && m->status == 0 && m->has_buffer) {
            s->written = m->written_size;
            size_t len = m->buffer.len;
            const uint8_t *nul = len > 0 ? memchr(m->buffer.data, '\0', len) : NULL;
            if (nul != NULL)
                len = (size_t)(nul - m->buffer.data);
            if ((s->json = ntsim_testee_text(&(ProtobufCBinaryData){len, m->buffer.data})) == NULL)
                return false;
        }
        break;
    case API_CONFIG_GET:
        if (m->ncs_enabled.len == NTSIM_NC_COUNT && m->types_enabled.len == COUNT) {
            s->has_sets = true;
            s->max = m->max_events_per_nc;
            for (size_t i = 0; i < NTSIM_NC_COUNT; i++)
                s->ncs[i] = m->ncs_enabled.data[i] != 0;
            for (size_t i = 0; i < COUNT; i++)
                s->types[i] = m->types_enabled.data[i] != 0;
        }
        break;
    case API_OPTIONS_GET:
        if (m->has_max_events_per_nc && m->has_options_nc_idx) {
            s->has_sets = true;
            s->max = m->max_events_per_nc;
            s->got_opt_nc = m->options_nc_idx;
        }
        break;
    case API_GET_EVENT_TYPES:
    case API_CONFIG_GET_ENABLED_TYPES:
        if (m->has_count) {
            s->has_count = true;
            s->count = m->count;
            if ((s->names = calloc(m->n_names + 1, sizeof *s->names)) == NULL)
                return false;
            for (size_t i = 0; i < m->n_names; i++)
                if ((s->names[s->n_names++] = ntsim_strdup(m->names[i])) == NULL)
                    return false;
        }
        break;
    default: break;
    }
    return true;
}

static gen_expect_status_t api_expect(void *p, const gen_replies_t *ref, char *why, size_t cap)
{
    api_case_t *c = p;
    /* begin, one reply per call made, end */
    size_t made = ref->count >= 2 ? ref->count - 2 : 0;
    for (size_t i = 0; i < made && i < c->n; i++) {
        const NtsimTestee__Response *resp = ref->items[1 + i];
        if (resp->body_case != NTSIM_TESTEE__RESPONSE__BODY_API ||
            !take_step(&c->steps[i], resp->api)) {
            snprintf(why, cap, "the reference's reply to calls[%zu] is not an api reply", i);
            return GEN_EXPECT_NONE;
        }
        const char *word = c->steps[i].has_status ? status_word(c->steps[i].status) : "";
        if (word == NULL) {
            snprintf(why, cap, "calls[%zu] returned status %d, which the api grammar cannot name",
                     i, c->steps[i].status);
            return GEN_EXPECT_NONE;
        }
    }
    return made < c->n ? GEN_EXPECT_AGAIN : GEN_EXPECT_DONE;
}

static void api_check(const void *p, const gen_replies_t *got, const char *who, const char *id,
                      ntsim_report_t *r)
{
    const api_case_t *c = p;
    size_t made = got->count >= 2 ? got->count - 2 : 0;
    for (size_t i = 0; i < made && i < c->n; i++) {
        const NtsimTestee__Response *resp = got->items[1 + i];
        if (resp->body_case != NTSIM_TESTEE__RESPONSE__BODY_API)
            continue;
        const NtsimTestee__ApiReply *m = resp->api;
        char sub[300];
        snprintf(sub, sizeof sub, "%s.invariant.%s.calls[%zu]", id, who, i);
        if (c->steps[i].call == API_NC_STATS && m->stats != NULL && m->stats->status == 0) {
            const NtsimTestee__NcStats *s = m->stats;
            uint64_t out = s->drained + s->overwritten + s->in_ring + s->lost_at_stop;
            if (s->created != s->pushed + s->busy || s->pushed != out)
                ntsim_report_add(r, sub, "stats", "expected created = pushed + busy and pushed = "
                                 "drained + overwritten + in_ring + lost_at_stop (D-RING), got "
                                 "%" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64
                                 ", %" PRIu64 ", %" PRIu64, s->created, s->pushed, s->busy,
                                 s->drained, s->overwritten, s->in_ring, s->lost_at_stop);
        }
        if (c->steps[i].call == API_GET_EVENT_TYPES && m->has_status && m->status == 0 &&
            m->has_count && m->count != COUNT)
            ntsim_report_add(r, sub, "count", "expected the %d types (F4.get_event_types), got %"
                             PRIu64, COUNT, m->count);
    }
}

/* --- shrinking ------------------------------------------------------------------------------ */

static void *api_shrink(const void *p, size_t k)
{
    api_case_t *c = api_copy(p);
    if (c == NULL)
        return NULL;
    size_t n = c->n;
    if (k < 2) {
        if (n >= 2) {
            size_t from = k == 0 ? n / 2 : 0, cut = k == 0 ? n - n / 2 : n / 2;
            memmove(&c->steps[from], &c->steps[from + cut], (n - from - cut) * sizeof *c->steps);
            c->n -= cut;
        }
        return c; /* a sequence the kind refuses (a use before its allocate) is not tried */
    }
    k -= 2;
    if (k < n) {
        memmove(&c->steps[k], &c->steps[k + 1], (n - k - 1) * sizeof *c->steps);
        c->n--;
        return c;
    }
    k -= n;
    enum { PER_STEP = 8 };
    if (k < n * PER_STEP) {
        api_step_case_t *s = &c->steps[k / PER_STEP];
        switch (k % PER_STEP) {
        case 0: if (s->repeat > 1) s->repeat /= 2; break;
        case 1: s->has_data = false; break;
        case 2: s->has_seq = false; break;
        case 3: s->tracking = 0; break;
        case 4: s->fail = false; break;
        case 5: s->preset = false; break;
        case 6: if (s->options == 1) s->options = 0; break;
        default: if (s->range) s->nc_to = s->nc_from + (s->nc_to - s->nc_from) / 2; break;
        }
        return c;
    }
    k -= n * PER_STEP;
    if (k == 0) {
        c->clock_start = 1000;
        c->clock_step = 1;
        c->thread_id = 4242;
        return c;
    }
    api_free_case(c);
    return NULL;
}

static size_t api_size(const void *p)
{
    return ((const api_case_t *)p)->n;
}

static void api_cover(const void *p, gen_cov_t *cov, const gen_replies_t *ref)
{
    (void)ref;
    const api_case_t *c = p;
    for (size_t i = 0; i < c->n; i++) {
        cov->api_calls[c->steps[i].call]++;
        if (c->steps[i].call == API_EMIT)
            gen_cov_type_phase(cov, c->steps[i].type, c->steps[i].phase);
    }
}

const gen_kind_t gen_kind_api = {
    .name = "api",
    .weight = 2,
    .make = api_make,
    .free = api_free_case,
    .copy = api_copy,
    .write = api_write,
    .source = api_source,
    .expect = api_expect,
    .check = api_check,
    .shrink = api_shrink,
    .size = api_size,
    .size_unit = "calls",
    .cover = api_cover,
};
