/*
 * conformance/api_run.c: making the calls of an `api` vector (grammar:
 * kind_api.c) and comparing what each returns with what it must.
 *
 * The vector's session is the capture fixture: a virtual clock and thread
 * id, so every timestamp and id in a fetched document is predictable, and a
 * log sink that counts what each call logs. The state the calls share is one
 * config and one set of fetch options; ntsim_api_run releases both, stops a
 * capture left running and restores the hooks and the sink, whether the
 * calls passed or not.
 */
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_step.h"
#include "capture_fixture.h"
#include "record_input.h"

typedef struct api_state {
    nrt_sys_trace_config_t *config;         /* config_allocate's */
    nrt_sys_trace_fetch_options_t *options; /* fetch_options_allocate's */
} api_state_t;

const char *const ntsim_api_stat_names[API_STATS + 1] = {
    "capacity", "created", "pushed", "overwritten", "drained", "in_ring", "lost_at_stop", NULL};
static const size_t stat_offsets[API_STATS] = {
    offsetof(ntsim_nc_stats_t, capacity),    offsetof(ntsim_nc_stats_t, created),
    offsetof(ntsim_nc_stats_t, pushed),      offsetof(ntsim_nc_stats_t, overwritten),
    offsetof(ntsim_nc_stats_t, drained),     offsetof(ntsim_nc_stats_t, in_ring),
    offsetof(ntsim_nc_stats_t, lost_at_stop)};

/* The config / options a call passes: the vector's, or NULL when asked. */
static nrt_sys_trace_config_t *config_arg(const api_state_t *s, const api_step_t *st)
{
    return (st->nulls & API_NULL_CONFIG) ? NULL : s->config;
}

static nrt_sys_trace_fetch_options_t *options_arg(const api_state_t *s, const api_step_t *st)
{
    return (st->nulls & API_NULL_OPTIONS) ? NULL : s->options;
}

/* --- config and fetch options ---------------------------------------------------- */

static NRT_STATUS run_config(api_state_t *s, const api_step_t *st)
{
    nrt_sys_trace_config_t *cfg = config_arg(s, st);
    switch (st->call) {
    case API_CONFIG_ALLOCATE:
        return nrt_sys_trace_config_allocate((st->nulls & API_NULL_CONFIG) ? NULL : &s->config);
    case API_CONFIG_SET_DEFAULTS:
        nrt_sys_trace_config_set_defaults(cfg);
        return NRT_SUCCESS;
    case API_CONFIG_FREE:
        nrt_sys_trace_config_free(cfg);
        if (cfg != NULL)
            s->config = NULL;
        return NRT_SUCCESS;
    case API_CONFIG_SET_MAX_EVENTS:
        nrt_sys_trace_config_set_max_events_per_nc(cfg, st->value);
        return NRT_SUCCESS;
    case API_CONFIG_SET_NC:
        for (uint64_t nc = st->nc_idx; nc <= st->nc_to; nc++)
            nrt_sys_trace_config_set_capture_enabled_for_nc(cfg, (uint32_t)nc, st->enabled);
        return NRT_SUCCESS;
    default: /* API_CONFIG_SET_TYPE */
        return nrt_sys_trace_config_set_capture_enabled_for_event_type(
            cfg, (st->nulls & API_NULL_EVENT_TYPE) ? NULL : st->name, st->enabled);
    }
}

static void check_config_get(const api_state_t *s, const api_step_t *st, const char *subid,
                             ntsim_report_t *r)
{
    const nrt_sys_trace_config_t *c = s->config;
    if (st->has_max && c->max_events_per_nc != st->max)
        ntsim_report_add(r, subid, "max_events_per_nc", "expected 0x%" PRIx64 ", got 0x%" PRIx64,
                         st->max, c->max_events_per_nc);
    if (st->check_ncs)
        ntsim_vec_compare_set(r, subid, "ncs", "NC", st->ncs, c->capture_enabled_for_nc, NTSIM_NC_COUNT);
    if (st->check_types)
        ntsim_vec_compare_set(r, subid, "types", "type", st->types, c->capture_enabled_for_event_type,
                    NRT_SYS_TRACE_EVENT_TYPE_COUNT);
}

static NRT_STATUS run_options(api_state_t *s, const api_step_t *st)
{
    nrt_sys_trace_fetch_options_t *o = options_arg(s, st);
    switch (st->call) {
    case API_OPTIONS_ALLOCATE:
        return nrt_sys_trace_fetch_options_allocate(
            (st->nulls & API_NULL_OPTIONS) ? NULL : &s->options);
    case API_OPTIONS_SET_DEFAULTS:
        nrt_sys_trace_fetch_options_set_defaults(o);
        return NRT_SUCCESS;
    case API_OPTIONS_FREE:
        nrt_sys_trace_fetch_options_free(o);
        if (o != NULL)
            s->options = NULL;
        return NRT_SUCCESS;
    case API_OPTIONS_SET_MAX_EVENTS:
        nrt_sys_trace_fetch_options_set_max_events_per_nc(o, st->value);
        return NRT_SUCCESS;
    default: /* API_OPTIONS_SET_NC */
        nrt_sys_trace_fetch_options_set_nc_idx(o, st->value);
        return NRT_SUCCESS;
    }
}

static void check_options_get(const api_state_t *s, const api_step_t *st, const char *subid,
                              ntsim_report_t *r)
{
    if (st->has_max && s->options->max_events_per_nc != st->max)
        ntsim_report_add(r, subid, "max_events_per_nc", "expected %" PRIu64 ", got %" PRIu64,
                         st->max, s->options->max_events_per_nc);
    if (st->has_opt_nc && s->options->nc_idx != st->opt_nc)
        ntsim_report_add(r, subid, "nc_idx", "expected %" PRId64 ", got %" PRId32, st->opt_nc,
                         s->options->nc_idx);
}

/* --- event type names ------------------------------------------------------------------ */

static void check_names(const api_step_t *st, const char **names, size_t count,
                        const char *subid, ntsim_report_t *r)
{
    uint64_t want = st->count_is_types ? NRT_SYS_TRACE_EVENT_TYPE_COUNT : st->count;
    if (st->has_count && count != want)
        ntsim_report_add(r, subid, "count", "expected %" PRIu64 ", got %zu", want, count);
    for (size_t i = 0; i < st->name_count; i++) {
        const api_name_want_t *w = &st->names[i];
        char field[64];
        snprintf(field, sizeof field, "names[%zu]", w->index);
        if (w->index >= count)
            ntsim_report_add(r, subid, field, "expected '%s', got no entry (count %zu)", w->name,
                             count);
        else if (names[w->index] == NULL || strcmp(names[w->index], w->name) != 0)
            ntsim_report_add(r, subid, field, "expected '%s', got '%s'", w->name,
                             names[w->index] ? names[w->index] : "(null)");
    }
}

static NRT_STATUS run_names(const api_state_t *s, const api_step_t *st, const char *subid,
                            ntsim_report_t *r)
{
    const char **names = NULL;
    size_t count = 0;
    const char ***names_arg = (st->nulls & API_NULL_EVENT_TYPES) ? NULL : &names;
    size_t *count_arg = (st->nulls & API_NULL_COUNT) ? NULL : &count;
    NRT_STATUS got = st->call == API_GET_EVENT_TYPES
                         ? nrt_sys_trace_get_event_types(names_arg, count_arg)
                         : nrt_sys_trace_config_get_enabled_event_types(config_arg(s, st),
                                                                        names_arg, count_arg);
    if (got == NRT_SUCCESS && names_arg != NULL && count_arg != NULL)
        check_names(st, names, count, subid, r);
    if (st->call == API_GET_EVENT_TYPES) {
        /* facts §4: get_event_types' caller frees the names with libc (a
         * block from any other allocator is an error memcheck and ASan
         * report); the enabled list goes back through free_event_types. */
        for (size_t i = 0; i < count; i++)
            free((void *)names[i]);
        free((void *)names);
    } else {
        nrt_sys_trace_free_event_types(names, count);
    }
    return got;
}

/* --- capture ----------------------------------------------------------------------------- */

static uint64_t emit_once(const api_step_t *st)
{
    const nrt_sys_trace_event_data_t *data = st->has_data ? &st->data : NULL;
    nrt_sys_trace_event_type_t type = (nrt_sys_trace_event_type_t)st->type;
    nrt_sys_trace_event_phase_t phase = (nrt_sys_trace_event_phase_t)st->phase;
    return st->has_seq ? nrt_sys_trace_new_event_with_seq(type, phase, st->nc_idx, data,
                                                          st->tracking_id, st->nrta_seq_id)
                       : nrt_sys_trace_new_event(type, phase, st->nc_idx, data, st->tracking_id);
}

/* `repeat` calls; `returns` is the last call's tracking id. */
static void run_emit(const api_step_t *st, const char *subid, ntsim_report_t *r)
{
    uint64_t got = 0;
    for (uint64_t k = 0; k < st->repeat; k++)
        got = emit_once(st);
    if (st->has_returns && got != st->returns)
        ntsim_report_add(r, subid, "returns", "expected 0x%" PRIx64 ", got 0x%" PRIx64,
                         st->returns, got);
}

static NRT_STATUS run_nc_stats(const api_step_t *st, const char *subid, ntsim_report_t *r)
{
    ntsim_nc_stats_t stats;
    NRT_STATUS got = ntsim_capture_nc_stats(st->nc_idx, &stats);
    for (size_t i = 0; got == NRT_SUCCESS && i < API_STATS; i++) {
        uint64_t v;
        memcpy(&v, (const char *)&stats + stat_offsets[i], sizeof v);
        if (st->stat_has[i] && v != st->stat_want[i])
            ntsim_report_add(r, subid, ntsim_api_stat_names[i],
                             "expected %" PRIu64 ", got %" PRIu64, st->stat_want[i], v);
    }
    return got;
}

/* --- fetch ------------------------------------------------------------------------------- */

/* What facts §2 says of every document, then what the step says of this one. */
static void check_document(const api_step_t *st, const char *doc, size_t written,
                           const char *subid, ntsim_report_t *r)
{
    if (memchr(doc, '\0', written) != NULL || doc[written] != '\0')
        ntsim_report_add(r, subid, "written_size",
                         "expected the NUL right after written_size bytes (facts §2), "
                         "got a document of %zu bytes and written_size %zu",
                         strlen(doc), written);
    if (st->has_written_size && written != st->written_size)
        ntsim_report_add(r, subid, "written_size", "expected %" PRIu64 ", got %zu",
                         st->written_size, written);
    if (st->json != NULL && (strlen(st->json) != written || memcmp(st->json, doc, written) != 0))
        ntsim_report_json_diff(r, subid, "json", st->json, doc);
    json_error_t err;
    /* INT_AS_REAL: jansson holds integers as int64; valid JSON may exceed it. */
    json_t *parsed = json_loadb(doc, written, JSON_DECODE_INT_AS_REAL, &err);
    if (parsed == NULL)
        ntsim_report_add(r, subid, "json", "expected valid JSON, got a parse error at %d:%d: %s",
                         err.line, err.column, err.text);
    json_decref(parsed);
}

static NRT_STATUS run_fetch(const api_state_t *s, const api_step_t *st, const char *subid,
                            ntsim_report_t *r)
{
    /* A buffer the caller still owns: fetch must refuse it and leave it be. */
    static char callers_buffer[] = "the caller's previous buffer";
    char *entry = st->preset_buffer ? callers_buffer : NULL;
    char *buffer = entry;
    size_t written = 0;
    const nrt_sys_trace_fetch_options_t *o = st->options == API_OPTIONS_INLINE
                                                 ? &st->inline_options
                                             : st->options == API_OPTIONS_ALLOCATED ? s->options
                                                                                    : NULL;
    NRT_STATUS got =
        nrt_sys_trace_fetch_events((st->nulls & API_NULL_BUFFER) ? NULL : &buffer,
                                   (st->nulls & API_NULL_WRITTEN_SIZE) ? NULL : &written, o);
    if (got == NRT_SUCCESS && buffer != NULL && buffer != entry)
        check_document(st, buffer, written, subid, r);
    else if (got != NRT_SUCCESS && buffer != entry)
        ntsim_report_add(r, subid, "buffer", "expected *buffer left as it was (%s), got %p",
                         entry ? "the caller's" : "NULL", (void *)buffer);
    else if (got == NRT_SUCCESS)
        ntsim_report_add(r, subid, "buffer", "expected a new document, got *buffer unchanged");
    if (buffer != entry)
        nrt_sys_trace_buffer_free(buffer);
    return got;
}

/* --- one step ---------------------------------------------------------------------------- */

static NRT_STATUS run_call(api_state_t *s, const api_step_t *st, const char *subid,
                           ntsim_report_t *r)
{
    switch (st->call) {
    case API_CONFIG_GET:
        check_config_get(s, st, subid, r);
        return NRT_SUCCESS;
    case API_CONFIG_GET_ENABLED_TYPES:
    case API_GET_EVENT_TYPES:
        return run_names(s, st, subid, r);
    case API_START:
        return nrt_sys_trace_start(config_arg(s, st));
    case API_STOP:
        return nrt_sys_trace_stop();
    case API_EMIT:
        run_emit(st, subid, r);
        return NRT_SUCCESS;
    case API_OPTIONS_GET:
        check_options_get(s, st, subid, r);
        return NRT_SUCCESS;
    case API_FETCH:
        return run_fetch(s, st, subid, r);
    case API_NC_STATS:
        return run_nc_stats(st, subid, r);
    case API_CATEGORY: {
        nrt_sys_trace_event_category_t c =
            nrt_sys_trace_get_event_type_category((nrt_sys_trace_event_type_t)st->type);
        if ((int64_t)c != st->category)
            ntsim_report_add(r, subid, "category", "expected %s, got %s (%d)",
                             ntsim_api_category_names[st->category],
                             (unsigned)c < 3 ? ntsim_api_category_names[c] : "not a category",
                             (int)c);
        return NRT_SUCCESS;
    }
    case API_STATUS_STR: {
        const char *text = nrt_get_status_as_str((NRT_STATUS)st->value);
        if (text == NULL || strcmp(text, st->text) != 0)
            ntsim_report_add(r, subid, "text", "expected '%s', got '%s'", st->text,
                             text ? text : "(null)");
        return NRT_SUCCESS;
    }
    case API_CONFIG_ALLOCATE:
    case API_CONFIG_SET_DEFAULTS:
    case API_CONFIG_FREE:
    case API_CONFIG_SET_MAX_EVENTS:
    case API_CONFIG_SET_NC:
    case API_CONFIG_SET_TYPE:
        return run_config(s, st);
    case API_OPTIONS_ALLOCATE:
    case API_OPTIONS_SET_DEFAULTS:
    case API_OPTIONS_FREE:
    case API_OPTIONS_SET_MAX_EVENTS:
    case API_OPTIONS_SET_NC:
        return run_options(s, st);
    case API_CALL_COUNT:
        break;
    }
    return NRT_FAILURE; /* not a call: the loader never makes one */
}

/* fail_allocations_after: an allocator that lets g_allocs_left allocations
 * through and fails the rest. It wraps libc's, so blocks from before it was
 * installed, and those the caller frees with free(), stay valid. */
static uint64_t g_allocs_left;

static void *failing_malloc(size_t size)
{
    return g_allocs_left > 0 ? (g_allocs_left--, malloc(size)) : NULL;
}
static void *failing_realloc(void *ptr, size_t size)
{
    return g_allocs_left > 0 ? (g_allocs_left--, realloc(ptr, size)) : NULL;
}
static void *failing_calloc(size_t count, size_t size)
{
    return g_allocs_left > 0 ? (g_allocs_left--, calloc(count, size)) : NULL;
}

/* Makes one call and checks its status and what it logged. False when its
 * status differs: the calls after it assumed it worked, so they are not run. */
static bool run_step(api_state_t *s, const api_step_t *st, const char *subid, bool more,
                     ntsim_report_t *r)
{
    unsigned before = ntsim_fixture.warnings;
    /* All four or none: NRT_SUCCESS both ways. */
    if (st->fail_allocs) {
        g_allocs_left = st->allocs_ok;
        (void)ntsim_replace_allocator(failing_malloc, failing_realloc, failing_calloc, free);
    }
    NRT_STATUS got = run_call(s, st, subid, r);
    if (st->fail_allocs)
        (void)ntsim_replace_allocator(NULL, NULL, NULL, NULL);
    unsigned logged = ntsim_fixture.warnings - before;
    if (st->has_warnings && logged != st->warnings)
        ntsim_report_add(r, subid, "warnings", "expected %" PRIu64 ", got %u%s%s%s",
                         st->warnings, logged, logged ? " (last: '" : "",
                         logged ? ntsim_fixture.last_message : "", logged ? "')" : "");
    if (st->log != NULL && (logged == 0 || strcmp(ntsim_fixture.last_message, st->log) != 0))
        ntsim_report_add(r, subid, "log", "expected '%s', got %s%s%s", st->log,
                         logged ? "'" : "no message", logged ? ntsim_fixture.last_message : "",
                         logged ? "'" : "");
    if (!st->check_status || got == st->status)
        return true;
    char want_name[48], got_name[48];
    ntsim_report_add(r, subid, "status", "expected %s, got %s%s",
                     ntsim_api_status_name(st->status, want_name, sizeof want_name),
                     ntsim_api_status_name(got, got_name, sizeof got_name),
                     more ? " (the calls after it were not run)" : "");
    return false;
}

void ntsim_api_run(const ntsim_vector_t *v, ntsim_report_t *r)
{
    const api_body_t *b = v->body;
    api_state_t s = {NULL, NULL};
    ntsim_fixture_begin(b->clock_start, b->clock_step, b->thread_id);
    for (size_t i = 0; i < b->step_count; i++) {
        char subid[256];
        snprintf(subid, sizeof subid, "%s.calls[%zu]", v->id, i);
        if (!run_step(&s, &b->steps[i], subid, i + 1 < b->step_count, r))
            break;
    }
    nrt_sys_trace_fetch_options_free(s.options);
    nrt_sys_trace_config_free(s.config);
    ntsim_fixture_end(); /* stops a capture left running; restores hooks and sink */
}
