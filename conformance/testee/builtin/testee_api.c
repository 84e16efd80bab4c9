/*
 * conformance/testee/builtin/testee_api.c: the built-in testee's api answers: one public
 * API call per request, on a session that lives from begin to end.
 *
 * The session is the capture fixture (a virtual clock and thread id, a log
 * sink that counts what each call logs) and the state the calls share: one
 * config (config_allocate's) and one set of fetch options
 * (fetch_options_allocate's). end, a new begin and ntsim_testee_engine_reset
 * release both, stop a capture left running and restore the hooks and the
 * sink. A call outside a session, or naming an unknown call or argument, is
 * answered with an Error.
 *
 * Every call runs on a counting allocator (ntsim_replace_allocator), which
 * fails after fail_allocations_after allocations when the request gives
 * it; the reply's blocks_kept is what the count moved between the call's
 * entry and its return, before the testee frees what the call gave it
 * (D-ALLOCATOR).
 */
#include <stdlib.h>
#include <string.h>

#include "api_calls.h"
#include "capture_fixture.h"
#include "testee_engine_int.h"

static struct api_session {
    bool active;
    nrt_sys_trace_config_t *config;         /* config_allocate's */
    nrt_sys_trace_fetch_options_t *options; /* fetch_options_allocate's */
} g_api;

void ntsim__testee_api_reset(void)
{
    if (!g_api.active)
        return;
    nrt_sys_trace_fetch_options_free(g_api.options);
    nrt_sys_trace_config_free(g_api.config);
    ntsim_fixture_end(); /* stops a capture left running; restores hooks and sink */
    memset(&g_api, 0, sizeof g_api);
}

/* A call and its arguments, as the request gives them. */
typedef struct api_args {
    const NtsimTestee__ApiCall *q;
    api_call_t call;
    unsigned nulls;                         /* API_NULL_* */
    const nrt_sys_trace_event_data_t *data; /* emit */
    nrt_sys_trace_event_data_t data_buf;
} api_args_t;

static nrt_sys_trace_config_t *config_arg(const api_args_t *x)
{
    return (x->nulls & API_NULL_CONFIG) ? NULL : g_api.config;
}

static nrt_sys_trace_fetch_options_t *options_arg(const api_args_t *x)
{
    return (x->nulls & API_NULL_OPTIONS) ? NULL : g_api.options;
}

/* --- the allocator every call runs on ------------------------------------------------ */

/* Counts the blocks it hands out and takes back (blocks: allocations that
 * succeeded, a realloc of NULL among them, less frees of a block), and when
 * failing lets allocs_left allocations through and fails the rest
 * (fail_allocations_after). It wraps libc's, so blocks from before it was
 * installed, and those the caller frees with free(), stay valid. One call
 * at a time, on this thread: plain globals. */
static struct {
    bool installed;
    bool failing;
    uint64_t allocs_left;
    int64_t blocks;    /* handed out less taken back, since the call's entry */
} g_alloc;

static bool allocation_allowed(void)
{
    if (!g_alloc.failing)
        return true;
    if (g_alloc.allocs_left == 0)
        return false;
    g_alloc.allocs_left--;
    return true;
}

static void *counted(void *block)
{
    g_alloc.blocks += block != NULL;
    return block;
}

static void *counting_malloc(size_t size)
{
    return allocation_allowed() ? counted(malloc(size)) : NULL;
}
static void *counting_realloc(void *ptr, size_t size)
{
    if (!allocation_allowed())
        return NULL;
    void *moved = realloc(ptr, size);
    /* A new block when ptr is NULL; else the same block, moved or kept
     * (ntsim never reallocs to 0 bytes). */
    return ptr == NULL ? counted(moved) : moved;
}
static void *counting_calloc(size_t count, size_t size)
{
    return allocation_allowed() ? counted(calloc(count, size)) : NULL;
}
static void counting_free(void *ptr)
{
    g_alloc.blocks -= ptr != NULL;
    free(ptr);
}

/* Installs the counting allocator, failing after `after` allocations when
 * fail is set. */
static void call_entered(bool fail, uint64_t after)
{
    g_alloc.failing = fail;
    g_alloc.allocs_left = after;
    g_alloc.blocks = 0;
    g_alloc.installed = true;
    /* All four given: NRT_SUCCESS. */
    (void)ntsim_replace_allocator(counting_malloc, counting_realloc, counting_calloc,
                                  counting_free);
}

/* The call has returned: libc's allocator again, and what the call kept,
 * in the reply (blocks_kept). Once per call: a later one changes nothing. */
static void call_returned(NtsimTestee__ApiReply *m)
{
    if (!g_alloc.installed)
        return;
    (void)ntsim_replace_allocator(NULL, NULL, NULL, NULL); /* all four NULL: NRT_SUCCESS */
    g_alloc.installed = false;
    m->has_blocks_kept = 1;
    m->blocks_kept = g_alloc.blocks;
}

/* --- config and fetch options ------------------------------------------------------- */

static void run_config(const api_args_t *x, NtsimTestee__ApiReply *m)
{
    nrt_sys_trace_config_t *cfg = config_arg(x);
    const NtsimTestee__ApiCall *q = x->q;
    switch (x->call) {
    case API_CONFIG_ALLOCATE:
        m->has_status = 1;
        m->status =
            nrt_sys_trace_config_allocate((x->nulls & API_NULL_CONFIG) ? NULL : &g_api.config);
        break;
    case API_CONFIG_SET_DEFAULTS: nrt_sys_trace_config_set_defaults(cfg); break;
    case API_CONFIG_FREE:
        nrt_sys_trace_config_free(cfg);
        if (cfg != NULL)
            g_api.config = NULL;
        break;
    case API_CONFIG_SET_MAX_EVENTS:
        nrt_sys_trace_config_set_max_events_per_nc(cfg, q->value);
        break;
    case API_CONFIG_SET_NC:
        for (uint64_t nc = q->nc_idx; nc <= (q->has_nc_to ? q->nc_to : q->nc_idx); nc++)
            nrt_sys_trace_config_set_capture_enabled_for_nc(cfg, (uint32_t)nc, q->enabled);
        break;
    default: /* API_CONFIG_SET_TYPE */
        m->has_status = 1;
        m->status = nrt_sys_trace_config_set_capture_enabled_for_event_type(
            cfg, (x->nulls & API_NULL_EVENT_TYPE) ? NULL : q->name, q->enabled);
        break;
    }
}

static void run_options(const api_args_t *x, NtsimTestee__ApiReply *m)
{
    nrt_sys_trace_fetch_options_t *o = options_arg(x);
    switch (x->call) {
    case API_OPTIONS_ALLOCATE:
        m->has_status = 1;
        m->status = nrt_sys_trace_fetch_options_allocate(
            (x->nulls & API_NULL_OPTIONS) ? NULL : &g_api.options);
        break;
    case API_OPTIONS_SET_DEFAULTS: nrt_sys_trace_fetch_options_set_defaults(o); break;
    case API_OPTIONS_FREE:
        nrt_sys_trace_fetch_options_free(o);
        if (o != NULL)
            g_api.options = NULL;
        break;
    case API_OPTIONS_SET_MAX_EVENTS:
        nrt_sys_trace_fetch_options_set_max_events_per_nc(o, x->q->value);
        break;
    default: /* API_OPTIONS_SET_NC */
        nrt_sys_trace_fetch_options_set_nc_idx(o, x->q->value);
        break;
    }
}

/* config_get and fetch_options_get: the fields as they are. */
static NRT_STATUS run_get(const api_args_t *x, ntsim_arena_t *a, NtsimTestee__ApiReply *m)
{
    if (x->call == API_OPTIONS_GET) {
        if (g_api.options == NULL)
            return NRT_INVALID;
        m->has_max_events_per_nc = m->has_options_nc_idx = 1;
        m->max_events_per_nc = g_api.options->max_events_per_nc;
        m->options_nc_idx = g_api.options->nc_idx;
        return NRT_SUCCESS;
    }
    const nrt_sys_trace_config_t *c = g_api.config;
    if (c == NULL)
        return NRT_INVALID;
    uint8_t ncs[NTSIM_NC_COUNT], types[NRT_SYS_TRACE_EVENT_TYPE_COUNT];
    for (size_t i = 0; i < NTSIM_NC_COUNT; i++)
        ncs[i] = c->capture_enabled_for_nc[i];
    for (size_t i = 0; i < NRT_SYS_TRACE_EVENT_TYPE_COUNT; i++)
        types[i] = c->capture_enabled_for_event_type[i];
    m->has_max_events_per_nc = m->has_ncs_enabled = m->has_types_enabled = 1;
    m->max_events_per_nc = c->max_events_per_nc;
    return ntsim_arena_bytes(a, ncs, sizeof ncs, &m->ncs_enabled) &&
                   ntsim_arena_bytes(a, types, sizeof types, &m->types_enabled)
               ? NRT_SUCCESS
               : NRT_RESOURCE;
}

/* --- names, capture, fetch -------------------------------------------------------------- */

static NRT_STATUS run_names(const api_args_t *x, ntsim_arena_t *a, NtsimTestee__ApiReply *m)
{
    const char **names = NULL;
    size_t count = 0;
    const char ***names_arg = (x->nulls & API_NULL_EVENT_TYPES) ? NULL : &names;
    size_t *count_arg = (x->nulls & API_NULL_COUNT) ? NULL : &count;
    m->has_status = 1;
    m->status = x->call == API_GET_EVENT_TYPES
                    ? nrt_sys_trace_get_event_types(names_arg, count_arg)
                    : nrt_sys_trace_config_get_enabled_event_types(config_arg(x), names_arg,
                                                                   count_arg);
    call_returned(m); /* the names are the caller's from here: freeing them is not the call's */
    NRT_STATUS st = NRT_SUCCESS;
    if (m->status == NRT_SUCCESS && names_arg != NULL && count_arg != NULL) {
        m->has_count = 1;
        m->count = count;
        if ((m->names = ntsim_arena_array(a, count, sizeof *m->names)) == NULL)
            st = NRT_RESOURCE;
        for (size_t i = 0; st == NRT_SUCCESS && i < count; i++)
            if ((m->names[m->n_names++] = ntsim_arena_strdup(a, names[i] ? names[i] : "")) ==
                NULL)
                st = NRT_RESOURCE;
    }
    if (x->call == API_GET_EVENT_TYPES) {
        /* facts §4: get_event_types' caller frees the names with libc. */
        for (size_t i = 0; i < count; i++)
            free((void *)(uintptr_t)names[i]);
        free((void *)names);
    } else {
        nrt_sys_trace_free_event_types(names, count);
    }
    return st;
}

static void run_emit(const api_args_t *x, NtsimTestee__ApiReply *m)
{
    const NtsimTestee__ApiCall *q = x->q;
    nrt_sys_trace_event_type_t type = (nrt_sys_trace_event_type_t)q->type;
    nrt_sys_trace_event_phase_t phase = (nrt_sys_trace_event_phase_t)q->phase;
    m->has_returns = 1;
    for (uint64_t k = 0; k < q->repeat; k++)
        m->returns = q->has_nrta_seq_id
                         ? nrt_sys_trace_new_event_with_seq(type, phase, q->nc_idx, x->data,
                                                            q->tracking_id, q->nrta_seq_id)
                         : nrt_sys_trace_new_event(type, phase, q->nc_idx, x->data,
                                                   q->tracking_id);
}

static NRT_STATUS run_fetch(const api_args_t *x, ntsim_arena_t *a, NtsimTestee__ApiReply *m)
{
    const NtsimTestee__ApiCall *q = x->q;
    /* A buffer the caller still owns: fetch must refuse it and leave it be. */
    static char callers_buffer[] = "the caller's previous buffer";
    char *entry = q->preset_buffer ? callers_buffer : NULL;
    char *buffer = entry;
    size_t written = 0;
    nrt_sys_trace_fetch_options_t inline_opt = {q->options_max_events_per_nc, q->options_nc_idx};
    const nrt_sys_trace_fetch_options_t *o = strcmp(q->options, "inline") == 0 ? &inline_opt
                                             : strcmp(q->options, "allocated") == 0
                                                 ? g_api.options
                                                 : NULL;
    m->has_status = m->has_buffer_changed = 1;
    m->status =
        nrt_sys_trace_fetch_events((x->nulls & API_NULL_BUFFER) ? NULL : &buffer,
                                   (x->nulls & API_NULL_WRITTEN_SIZE) ? NULL : &written, o);
    call_returned(m); /* the document is the caller's from here, as is its free */
    m->buffer_changed = buffer != entry;
    m->has_written_size = 1;
    m->written_size = written;
    bool ok = true;
    if (m->status == NRT_SUCCESS && buffer != NULL && buffer != entry) {
        m->has_buffer = 1;
        ok = ntsim_arena_bytes(a, buffer, strlen(buffer) + 1, &m->buffer);
    }
    if (buffer != entry)
        nrt_sys_trace_buffer_free(buffer);
    return ok ? NRT_SUCCESS : NRT_RESOURCE;
}

/* --- one call ------------------------------------------------------------------------------ */

static NRT_STATUS run_call(const api_args_t *x, ntsim_arena_t *a, NtsimTestee__ApiReply *m)
{
    switch (x->call) {
    case API_CONFIG_GET:
    case API_OPTIONS_GET:
        return run_get(x, a, m);
    case API_CONFIG_GET_ENABLED_TYPES:
    case API_GET_EVENT_TYPES:
        return run_names(x, a, m);
    case API_START:
        m->has_status = 1;
        m->status = nrt_sys_trace_start(config_arg(x));
        return NRT_SUCCESS;
    case API_STOP:
        m->has_status = 1;
        m->status = nrt_sys_trace_stop();
        return NRT_SUCCESS;
    case API_EMIT:
        run_emit(x, m);
        return NRT_SUCCESS;
    case API_FETCH:
        return run_fetch(x, a, m);
    case API_NC_STATS:
        return (m->stats = ntsim__testee_nc_stats(a, x->q->nc_idx)) != NULL ? NRT_SUCCESS
                                                                            : NRT_RESOURCE;
    case API_CATEGORY:
        m->has_category = 1;
        m->category = (int32_t)nrt_sys_trace_get_event_type_category(
            (nrt_sys_trace_event_type_t)x->q->type);
        return NRT_SUCCESS;
    case API_STATUS_STR: {
        const char *text = nrt_get_status_as_str((NRT_STATUS)x->q->value);
        return text == NULL || (m->text = ntsim_arena_strdup(a, text)) != NULL ? NRT_SUCCESS
                                                                               : NRT_RESOURCE;
    }
    case API_CONFIG_ALLOCATE:
    case API_CONFIG_SET_DEFAULTS:
    case API_CONFIG_FREE:
    case API_CONFIG_SET_MAX_EVENTS:
    case API_CONFIG_SET_NC:
    case API_CONFIG_SET_TYPE:
        run_config(x, m);
        return NRT_SUCCESS;
    default:
        run_options(x, m);
        return NRT_SUCCESS;
    }
}

/* The call's name, its NULL arguments and its payload; NRT_INVALID with err. */
static NRT_STATUS read_args(const NtsimTestee__ApiCall *q, api_args_t *x, char *err, size_t cap)
{
    memset(x, 0, sizeof *x);
    x->q = q;
    if (!ntsim_api_call_by_name(q->call, &x->call)) {
        snprintf(err, cap, "no call '%s'", q->call);
        return NRT_INVALID;
    }
    for (size_t i = 0; i < q->n_null_args; i++) {
        unsigned bit = ntsim_api_null_arg_bit(q->null_args[i]);
        if (bit == 0) {
            snprintf(err, cap, "null_args: no argument '%s'", q->null_args[i]);
            return NRT_INVALID;
        }
        x->nulls |= bit;
    }
    if (q->repeat > 4000000) {
        snprintf(err, cap, "repeat %llu is above 4000000", (unsigned long long)q->repeat);
        return NRT_INVALID;
    }
    bool needs_options = x->call == API_OPTIONS_GET ||
                         (x->call == API_FETCH && strcmp(q->options, "allocated") == 0);
    if ((x->call == API_CONFIG_GET && g_api.config == NULL) ||
        (needs_options && g_api.options == NULL)) {
        snprintf(err, cap, "%s: nothing allocated to read", q->call);
        return NRT_INVALID;
    }
    return ntsim__testee_data(q->has_data, &q->data, &x->data_buf, &x->data, err, cap);
}

static NRT_STATUS answer_call(const NtsimTestee__ApiCall *q, ntsim_arena_t *a,
                              NtsimTestee__ApiReply *m, char *err, size_t cap)
{
    api_args_t x;
    NRT_STATUS st = read_args(q, &x, err, cap);
    if (st != NRT_SUCCESS)
        return st;
    /* The call's own messages: the fixture's log starts again (its first
     * NTSIM_FIXTURE_LOG_MAX lines are kept, all counted). */
    ntsim_fixture.log_count = 0;
    call_entered(q->has_fail_allocations_after, q->fail_allocations_after);
    st = run_call(&x, a, m);
    call_returned(m);
    if (st != NRT_SUCCESS || !q->log)
        return st;
    return (m->log = ntsim__testee_log(a)) != NULL ? NRT_SUCCESS : NRT_RESOURCE;
}

NRT_STATUS ntsim__testee_api(const NtsimTestee__Request *q, ntsim_arena_t *a,
                             NtsimTestee__Response *out, char *err, size_t cap)
{
    const NtsimTestee__ApiRequest *r = q->api;
    NtsimTestee__ApiReply *m = ntsim_arena_alloc(a, sizeof *m);
    if (m == NULL)
        return NRT_RESOURCE;
    ntsim_testee__api_reply__init(m);
    out->body_case = NTSIM_TESTEE__RESPONSE__BODY_API;
    out->api = m;
    switch (r->step_case) {
    case NTSIM_TESTEE__API_REQUEST__STEP_BEGIN:
        ntsim__testee_api_reset();
        ntsim_fixture_begin(r->begin->clock_start_ns, r->begin->clock_step_ns,
                            r->begin->thread_id);
        g_api.active = true;
        return NRT_SUCCESS;
    case NTSIM_TESTEE__API_REQUEST__STEP_END:
        ntsim__testee_api_reset();
        return NRT_SUCCESS;
    case NTSIM_TESTEE__API_REQUEST__STEP_CALL:
        if (g_api.active)
            return answer_call(r->call, a, m, err, cap);
        snprintf(err, cap, "a call outside a session: send begin first");
        return NRT_INVALID;
    default:
        snprintf(err, cap, "an ApiRequest without a step");
        return NRT_INVALID;
    }
}
