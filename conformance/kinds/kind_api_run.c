/*
 * conformance/kinds/kind_api_run.c: judging an `api` vector (grammar: kind_api.c):
 * its calls go to the testee one request each (testee.proto's ApiRequest:
 * begin, a call per request, end), and each reply is compared with what the
 * vector says the call must return and give.
 *
 * The testee keeps the session (the clock, the config, the fetch options)
 * between the requests; the built-in one makes the calls in
 * testee_api.c. Checks that need a capability the testee lacks (log: `log`;
 * stats: the nc_stats calls) are left out and noted. A `fail_allocations:
 * sweep` call is asked again with one more allocation allowed until it does
 * not run out of memory; that last attempt is the one judged.
 *
 * blocks (D-ALLOCATOR; the testee's capability): every attempt that ran out
 * of memory, swept or not, must leave as many blocks held as it found;
 * get_event_types must keep the caller's 1 + count blocks (facts §4) and a
 * fetch that gave a document at least that one block (F2.output.buffer_free).
 */
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kind_api.h"
#include "testee.h"

const char *const ntsim_api_stat_names[API_STATS + 1] = {
    "capacity", "created", "pushed", "overwritten", "drained", "in_ring", "lost_at_stop", NULL};

/* --- the request ----------------------------------------------------------------- */

static bool call_args(const api_step_t *s, ntsim_arena_t *a, NtsimTestee__ApiCall *c)
{
    switch (s->call) {
    case API_CONFIG_SET_MAX_EVENTS:
    case API_OPTIONS_SET_MAX_EVENTS:
    case API_OPTIONS_SET_NC:
    case API_STATUS_STR:
        c->has_value = 1;
        c->value = s->value;
        return true;
    case API_CONFIG_SET_NC:
        c->has_nc_idx = c->has_nc_to = c->has_enabled = 1;
        c->nc_idx = s->nc_idx;
        c->nc_to = s->nc_to;
        c->enabled = s->enabled;
        return true;
    case API_CONFIG_SET_TYPE:
        c->has_enabled = 1;
        c->enabled = s->enabled;
        return s->name == NULL || (c->name = ntsim_arena_strdup(a, s->name)) != NULL;
    case API_EMIT:
        c->has_type = c->has_phase = c->has_nc_idx = c->has_tracking_id = c->has_repeat = 1;
        c->type = s->type;
        c->phase = s->phase;
        c->nc_idx = s->nc_idx;
        c->tracking_id = s->tracking_id;
        c->repeat = s->repeat;
        c->has_nrta_seq_id = s->has_seq;
        c->nrta_seq_id = s->nrta_seq_id;
        c->has_data = s->has_data;
        return !s->has_data || ntsim_arena_bytes(a, &s->data, sizeof s->data, &c->data);
    case API_FETCH: {
        static const char *const words[] = {"null", "inline", "allocated"};
        c->options = ntsim_arena_strdup(a, words[s->options]);
        c->has_preset_buffer = 1;
        c->preset_buffer = s->preset_buffer;
        c->has_options_nc_idx = c->has_options_max_events_per_nc = s->options == API_OPTIONS_INLINE;
        c->options_nc_idx = s->inline_options.nc_idx;
        c->options_max_events_per_nc = s->inline_options.max_events_per_nc;
        return c->options != NULL;
    }
    case API_NC_STATS:
        c->has_nc_idx = 1;
        c->nc_idx = s->nc_idx;
        return true;
    case API_CATEGORY:
        c->has_type = 1;
        c->type = s->type;
        return true;
    default:
        return true;
    }
}

/* The ApiCall of one step (from the arena), or NULL when out of memory;
 * allowed: the allocations a sweep's attempt lets through. */
static NtsimTestee__ApiCall *call_request(const api_step_t *s, bool log, uint64_t allowed,
                                          ntsim_arena_t *a)
{
    NtsimTestee__ApiCall *c = ntsim_arena_alloc(a, sizeof *c);
    if (c == NULL)
        return NULL;
    ntsim_testee__api_call__init(c);
    c->call = ntsim_arena_strdup(a, ntsim_api_call_name(s->call));
    c->null_args = ntsim_arena_array(a, 8, sizeof *c->null_args);
    if (c->call == NULL || c->null_args == NULL)
        return NULL;
    for (unsigned b = 0; ntsim_api_null_arg_names[b] != NULL; b++)
        if ((s->nulls & (1u << b)) &&
            (c->null_args[c->n_null_args++] = ntsim_arena_strdup(a, ntsim_api_null_arg_names[b])) ==
                NULL)
            return NULL;
    c->has_fail_allocations_after = s->fail_allocs || s->alloc_sweep;
    c->fail_allocations_after = s->alloc_sweep ? allowed : s->allocs_ok;
    c->has_log = c->log = log && s->log.given;
    return call_args(s, a, c) ? c : NULL;
}

/* Asks one ApiRequest; the reply (free with ntsim_testee_reply_free) or NULL
 * after reporting why. */
static NtsimTestee__Response *ask_api(ntsim_testee_t *t, NtsimTestee__ApiRequest *api,
                                      const char *subid, ntsim_report_t *r)
{
    NtsimTestee__Request req = NTSIM_TESTEE__REQUEST__INIT;
    req.body_case = NTSIM_TESTEE__REQUEST__BODY_API;
    req.api = api;
    return ntsim_testee_ask(t, &req, subid, r);
}

/* --- comparing a reply ----------------------------------------------------------- */

/* A set of flags against the expected one: how many are on, and the first
 * that differs ("expected 255 NCs enabled (NC 3 off), got 256 (NC 3 on)"). */
static void compare_set(ntsim_report_t *r, const char *subid, const char *field, const char *one,
                        const bool *want, const ProtobufCBinaryData *got, size_t n)
{
    if (got->len != n) {
        ntsim_report_add(r, subid, field, "expected %zu %s flags, got %zu", n, one, got->len);
        return;
    }
    size_t want_on = 0, got_on = 0, first = n;
    for (size_t i = 0; i < n; i++) {
        bool g = got->data[i] != 0;
        want_on += want[i];
        got_on += g;
        if (want[i] != g && first == n)
            first = i;
    }
    if (first < n)
        ntsim_report_add(r, subid, field,
                         "expected %zu %ss enabled (%s %zu %s), got %zu (%s %zu %s)", want_on,
                         one, one, first, want[first] ? "on" : "off", got_on, one, first,
                         got->data[first] ? "on" : "off");
}

/* What a judged field that the reply left out says: it is never read as 0. */
static void report_absent(ntsim_report_t *r, const char *subid, const char *field,
                          const char *proto_field)
{
    ntsim_report_add(r, subid, field, "expected it judged, the reply has no %s", proto_field);
}

static void check_get(const api_step_t *st, const NtsimTestee__ApiReply *m, const char *subid,
                      ntsim_report_t *r)
{
    if (st->has_max && !m->has_max_events_per_nc)
        report_absent(r, subid, "max_events_per_nc", "max_events_per_nc");
    else if (st->has_max && m->max_events_per_nc != st->max)
        ntsim_report_add(r, subid, "max_events_per_nc", "expected 0x%" PRIx64 ", got 0x%" PRIx64,
                         st->max, m->max_events_per_nc);
    if (st->call == API_OPTIONS_GET) {
        if (st->has_opt_nc && !m->has_options_nc_idx)
            report_absent(r, subid, "nc_idx", "options_nc_idx");
        else if (st->has_opt_nc && m->options_nc_idx != st->opt_nc)
            ntsim_report_add(r, subid, "nc_idx", "expected %" PRId64 ", got %" PRId64,
                             st->opt_nc, m->options_nc_idx);
        return;
    }
    if (st->check_ncs)
        compare_set(r, subid, "ncs", "NC", st->ncs, &m->ncs_enabled, NTSIM_NC_COUNT);
    if (st->check_types)
        compare_set(r, subid, "types", "type", st->types, &m->types_enabled,
                    NRT_SYS_TRACE_EVENT_TYPE_COUNT);
}

static void check_names(const api_step_t *st, const NtsimTestee__ApiReply *m, const char *subid,
                        ntsim_report_t *r)
{
    if (!m->has_count && (st->has_count || st->name_count > 0))
        report_absent(r, subid, "count", "count");
    if (!m->has_count)
        return; /* a failed call, or NULL arguments: no names */
    uint64_t want = st->count_is_types ? NRT_SYS_TRACE_EVENT_TYPE_COUNT : st->count;
    if (st->has_count && m->count != want)
        ntsim_report_add(r, subid, "count", "expected %" PRIu64 ", got %" PRIu64, want,
                         m->count);
    for (size_t i = 0; i < st->name_count; i++) {
        const api_name_want_t *w = &st->names[i];
        char field[64];
        snprintf(field, sizeof field, "names[%zu]", w->index);
        if (w->index >= m->n_names)
            ntsim_report_add(r, subid, field, "expected '%s', got no entry (count %" PRIu64 ")",
                             w->name, m->count);
        else if (strcmp(m->names[w->index], w->name) != 0)
            ntsim_report_add(r, subid, field, "expected '%s', got '%s'", w->name,
                             m->names[w->index]);
    }
}

/* What facts §2 says of every document, then what the step says of this one. */
static void check_document(const api_step_t *st, const NtsimTestee__ApiReply *m,
                           const char *subid, ntsim_report_t *r)
{
    const ProtobufCBinaryData *b = &m->buffer;
    const uint8_t *nul = b->len > 0 ? memchr(b->data, '\0', b->len) : NULL;
    size_t len = nul != NULL ? (size_t)(nul - b->data) : b->len;
    if (nul == NULL || len != m->written_size)
        ntsim_report_add(r, subid, "written_size",
                         "expected the NUL right after written_size bytes (facts §2), got a "
                         "document of %zu bytes%s and written_size %" PRIu64,
                         len, nul == NULL ? " without a NUL" : "", m->written_size);
    if (st->has_written_size && !m->has_written_size)
        report_absent(r, subid, "written_size", "written_size");
    else if (st->has_written_size && m->written_size != st->written_size)
        ntsim_report_add(r, subid, "written_size", "expected %" PRIu64 ", got %" PRIu64,
                         st->written_size, m->written_size);
    char *doc = ntsim_testee_text(&(ProtobufCBinaryData){len, b->data});
    if (doc == NULL) {
        ntsim_report_add(r, subid, "json", "out of memory");
        return;
    }
    if (st->json != NULL && strcmp(st->json, doc) != 0)
        ntsim_report_json_diff(r, subid, "json", st->json, doc);
    /* Past the bound a document is reported by its size, not parsed (that
     * would cost as much as diffing it); without an expected text, the bound
     * is the slack itself, and a document past it is one the runner cannot
     * check: a mismatch, not a pass. */
    if (ntsim_report_too_long(st->json != NULL ? strlen(st->json) : 0, len)) {
        if (st->json == NULL)
            ntsim_report_add(r, subid, "json", "expected a document of at most %zu KiB to check, "
                                               "got %zu bytes",
                             NTSIM_REPORT_DIFF_SLACK >> 10, len);
        free(doc);
        return;
    }
    json_error_t err;
    /* INT_AS_REAL: jansson holds integers as int64; valid JSON may exceed it. */
    json_t *parsed = json_loadb(doc, len, JSON_DECODE_INT_AS_REAL, &err);
    if (parsed == NULL)
        ntsim_report_add(r, subid, "json", "expected valid JSON, got a parse error at %d:%d: %s",
                         err.line, err.column, err.text);
    json_decref(parsed);
    free(doc);
}

static void check_fetch(const api_step_t *st, const NtsimTestee__ApiReply *m, const char *subid,
                        ntsim_report_t *r)
{
    bool ok = m->has_status && m->status == NRT_SUCCESS;
    if (!(ok && m->has_buffer) && !m->has_buffer_changed)
        report_absent(r, subid, "buffer", "buffer_changed");
    else if (ok && m->has_buffer)
        check_document(st, m, subid, r);
    else if (!ok && m->buffer_changed)
        ntsim_report_add(r, subid, "buffer", "expected *buffer left as it was (%s), got another",
                         st->preset_buffer ? "the caller's" : "NULL");
    else if (ok)
        ntsim_report_add(r, subid, "buffer", "expected a new document, got *buffer %s",
                         m->buffer_changed ? "set to NULL" : "unchanged");
}

static void check_stats(const api_step_t *st, const NtsimTestee__ApiReply *m, const char *subid,
                        ntsim_report_t *r)
{
    const NtsimTestee__NcStats *s = m->stats;
    if (s == NULL || s->status != NRT_SUCCESS)
        return; /* the status is compared by the caller (stats absent: none) */
    const uint64_t got[API_STATS] = {s->capacity, s->created, s->pushed,     s->overwritten,
                                     s->drained,  s->in_ring, s->lost_at_stop};
    const protobuf_c_boolean there[API_STATS] = {
        s->has_capacity, s->has_created, s->has_pushed,      s->has_overwritten,
        s->has_drained,  s->has_in_ring, s->has_lost_at_stop};
    char field[64];
    for (size_t i = 0; i < API_STATS; i++)
        if (st->stat_has[i] && !there[i]) {
            snprintf(field, sizeof field, "stats.%s", ntsim_api_stat_names[i]);
            report_absent(r, subid, ntsim_api_stat_names[i], field);
        } else if (st->stat_has[i] && got[i] != st->stat_want[i])
            ntsim_report_add(r, subid, ntsim_api_stat_names[i],
                             "expected %" PRIu64 ", got %" PRIu64, st->stat_want[i], got[i]);
}

/* The call's own outputs. */
static void check_outputs(const api_step_t *st, const NtsimTestee__ApiReply *m,
                          const char *subid, ntsim_report_t *r)
{
    switch (st->call) {
    case API_CONFIG_GET:
    case API_OPTIONS_GET:
        check_get(st, m, subid, r);
        break;
    case API_CONFIG_GET_ENABLED_TYPES:
    case API_GET_EVENT_TYPES:
        check_names(st, m, subid, r);
        break;
    case API_EMIT:
        if (st->has_returns && !m->has_returns)
            report_absent(r, subid, "returns", "returns");
        else if (st->has_returns && m->returns != st->returns)
            ntsim_report_add(r, subid, "returns", "expected 0x%" PRIx64 ", got 0x%" PRIx64,
                             st->returns, m->returns);
        break;
    case API_FETCH:
        check_fetch(st, m, subid, r);
        break;
    case API_NC_STATS:
        check_stats(st, m, subid, r);
        break;
    case API_CATEGORY:
        if (!m->has_category || m->category != st->category)
            ntsim_report_add(r, subid, "category", "expected %s, got %s (%d)",
                             ntsim_api_category_names[st->category],
                             m->has_category && (unsigned)m->category < 3
                                 ? ntsim_api_category_names[m->category]
                                 : "not a category",
                             m->category);
        break;
    case API_STATUS_STR:
        if (m->text == NULL || strcmp(m->text, st->text) != 0)
            ntsim_report_add(r, subid, "text", "expected '%s', got '%s'", st->text,
                             m->text ? m->text : "(null)");
        break;
    default:
        break;
    }
}

/* log: what the call logged (log_expect.h). */
static void check_logged(const api_step_t *st, const NtsimTestee__ApiReply *m,
                         const char *subid, ntsim_report_t *r)
{
    if (!st->log.given)
        return;
    if (m->log == NULL)
        report_absent(r, subid, "log", "log");
    else
        ntsim_vec_check_log(&st->log, m->log->lines, m->log->n_lines, m->log->count, subid, r);
}

/* Compares one reply; false when the status differs (the calls after it
 * assumed it worked, so they are not made). */
static bool judge_step(const api_step_t *st, const NtsimTestee__ApiReply *m, bool log,
                       const char *subid, bool more, ntsim_report_t *r)
{
    check_outputs(st, m, subid, r);
    if (log)
        check_logged(st, m, subid, r);
    NRT_STATUS got = st->call == API_NC_STATS && m->stats != NULL
                         ? (NRT_STATUS)m->stats->status
                         : (NRT_STATUS)m->status;
    bool has = st->call == API_NC_STATS ? m->stats != NULL : m->has_status;
    if (!st->check_status || (has && got == st->status))
        return true;
    char want_name[48], got_name[48];
    ntsim_report_add(r, subid, "status", "expected %s, got %s%s",
                     ntsim_api_status_name(st->status, want_name, sizeof want_name),
                     has ? ntsim_api_status_name(got, got_name, sizeof got_name) : "none",
                     more ? " (the calls after it were not run)" : "");
    return false;
}

/* Asks one attempt of a step (allowed: a sweep's allocations); the reply
 * or NULL after reporting why. */
static NtsimTestee__Response *ask_step(ntsim_testee_t *t, const api_step_t *st, bool log,
                                       uint64_t allowed, const char *subid, ntsim_report_t *r)
{
    ntsim_arena_t a;
    ntsim_arena_init(&a);
    NtsimTestee__ApiRequest api = NTSIM_TESTEE__API_REQUEST__INIT;
    api.step_case = NTSIM_TESTEE__API_REQUEST__STEP_CALL;
    api.call = call_request(st, log, allowed, &a);
    NtsimTestee__Response *resp = NULL;
    if (api.call == NULL)
        ntsim_report_add(r, subid, "call", "out of memory");
    else
        resp = ask_api(t, &api, subid, r);
    ntsim_arena_free(&a);
    return resp;
}

/* --- blocks: what a call kept of the allocator's (D-ALLOCATOR) ----------------------- */

/* The attempts of one call that ran out of memory, and the first that
 * left blocks held. */
typedef struct oom_blocks {
    uint64_t attempts;   /* returned NRT_RESOURCE */
    uint64_t kept_some;  /*   and kept blocks, or gave back some they found */
    bool limited;        /* the first such: made with failing allocations, */
    uint64_t allowed;    /*   this many allowed, */
    int64_t kept;        /*   and what it kept */
    bool absent_said;    /* a reply without blocks_kept was reported */
} oom_blocks_t;

/* Whether the blocks of reply m can be judged: the capability announced
 * (else noted as left out) and the field there (else one mismatch). */
static bool blocks_given(ntsim_testee_t *t, const NtsimTestee__ApiReply *m, bool *absent_said,
                         const char *subid, ntsim_report_t *r)
{
    if (!(ntsim_testee_caps(t) & NTSIM_TESTEE_CAP_BLOCKS)) {
        ntsim_testee_note_unjudged(t, NTSIM_TESTEE_CAP_BLOCKS);
        return false;
    }
    if (m->has_blocks_kept)
        return true;
    if (!*absent_said)
        report_absent(r, subid, "blocks", "blocks_kept");
    *absent_said = true;
    return false;
}

/* One attempt's reply: counted when it ran out of memory. */
static void oom_attempt(ntsim_testee_t *t, const api_step_t *st, const NtsimTestee__ApiReply *m,
                        uint64_t allowed, oom_blocks_t *ob, const char *subid,
                        ntsim_report_t *r)
{
    if (!m->has_status || m->status != NRT_RESOURCE ||
        !blocks_given(t, m, &ob->absent_said, subid, r))
        return;
    ob->attempts++;
    if (m->blocks_kept == 0 || ob->kept_some++ > 0)
        return;
    ob->limited = st->alloc_sweep || st->fail_allocs;
    ob->allowed = allowed;
    ob->kept = m->blocks_kept;
}

/* "start ran out of memory (NRT_RESOURCE) with 3 allocations allowed and left
 * 1 block more held than before it". */
static void oom_report(const api_step_t *st, const oom_blocks_t *ob, const char *subid,
                       ntsim_report_t *r)
{
    if (ob->kept_some == 0)
        return;
    char allowed[64] = "";
    if (ob->limited)
        snprintf(allowed, sizeof allowed, " with %" PRIu64 " allocation%s allowed", ob->allowed,
                 ob->allowed == 1 ? "" : "s");
    uint64_t n = ob->kept > 0 ? (uint64_t)ob->kept : 0 - (uint64_t)ob->kept;
    char others[96] = "";
    if (ob->attempts > 1)
        snprintf(others, sizeof others, " (%" PRIu64 " of its %" PRIu64 " attempts that ran out "
                                        "of memory did so)",
                 ob->kept_some, ob->attempts);
    ntsim_report_add(r, subid, "blocks",
                     "%s ran out of memory (NRT_RESOURCE)%s and left %" PRIu64 " block%s %s "
                     "held than before it%s; expected as many as before (D-ALLOCATOR: an "
                     "out-of-memory path gives back every block it took, no more)",
                     ntsim_api_call_name(st->call), allowed, n, n == 1 ? "" : "s",
                     ob->kept > 0 ? "more" : "fewer", others);
}

/* A call that succeeded: the blocks a source gives the caller. */
static void check_kept(ntsim_testee_t *t, const api_step_t *st, const NtsimTestee__ApiReply *m,
                       const char *subid, ntsim_report_t *r)
{
    bool ok = m->has_status && m->status == NRT_SUCCESS, absent_said = false;
    if (st->call == API_GET_EVENT_TYPES && ok && m->has_count) {
        if (!blocks_given(t, m, &absent_said, subid, r))
            return;
        /* Compared as signed: a count past INT64_MAX is no count of blocks. */
        if (m->count >= INT64_MAX || m->blocks_kept != (int64_t)m->count + 1)
            ntsim_report_add(r, subid, "blocks",
                             "expected the %" PRIu64 " blocks get_event_types gives the caller "
                             "kept (facts §4: the array and one strdup per name, 1 + count), "
                             "got %" PRId64, m->count + 1, m->blocks_kept);
    } else if (st->call == API_FETCH && ok && m->has_buffer) {
        if (!blocks_given(t, m, &absent_said, subid, r))
            return;
        if (m->blocks_kept < 1)
            ntsim_report_add(r, subid, "blocks",
                             "expected at least the document's block kept (the caller frees it "
                             "with nrt_sys_trace_buffer_free, F2.output.buffer_free), got %" PRId64,
                             m->blocks_kept);
    }
}

/* kind_api.h */
bool ntsim_api_out_of_memory(api_call_t call, const NtsimTestee__ApiReply *m)
{
    if (!m->has_status || m->status != NRT_RESOURCE)
        return false;
    return call != API_FETCH || (m->has_buffer_changed && !m->buffer_changed);
}

/* One call: asked (a sweep's attempts first) and judged; false to stop the
 * sequence. */
static bool step(ntsim_testee_t *t, const api_step_t *st, const char *subid, bool more,
                 ntsim_report_t *r)
{
    unsigned caps = ntsim_testee_caps(t);
    bool log = (caps & NTSIM_TESTEE_CAP_LOG) != 0;
    if (!log && st->log.given)
        ntsim_testee_note_unjudged(t, NTSIM_TESTEE_CAP_LOG);
    if (st->call == API_NC_STATS && !(caps & NTSIM_TESTEE_CAP_STATS)) {
        ntsim_testee_note_unjudged(t, NTSIM_TESTEE_CAP_STATS);
        return true; /* reads counters only: the calls after it do not depend on it */
    }
    NtsimTestee__Response *resp = NULL;
    oom_blocks_t ob = {0};
    for (uint64_t allowed = 0;; allowed++) {
        resp = ask_step(t, st, log, allowed, subid, r);
        if (resp != NULL)
            oom_attempt(t, st, resp->api, st->alloc_sweep ? allowed : st->allocs_ok, &ob, subid,
                        r);
        if (resp == NULL || !st->alloc_sweep || !ntsim_api_out_of_memory(st->call, resp->api))
            break;
        ntsim_testee_reply_free(resp);
        resp = NULL;
        if (allowed + 1 == NTSIM_API_SWEEP_MAX) {
            oom_report(st, &ob, subid, r);
            ntsim_report_add(r, subid, "fail_allocations",
                             "expected the call to get past running out of memory within %d "
                             "allocations, got NRT_RESOURCE at each%s",
                             NTSIM_API_SWEEP_MAX, more ? " (the calls after it were not run)" : "");
            return false;
        }
    }
    oom_report(st, &ob, subid, r);
    if (resp != NULL)
        check_kept(t, st, resp->api, subid, r);
    bool go_on = resp != NULL && judge_step(st, resp->api, log, subid, more, r);
    ntsim_testee_reply_free(resp);
    return go_on;
}

void ntsim_api_judge(const ntsim_vector_t *v, ntsim_testee_t *t, ntsim_report_t *r)
{
    const api_body_t *b = v->body;
    NtsimTestee__ApiBegin begin = NTSIM_TESTEE__API_BEGIN__INIT;
    begin.clock_start_ns = b->clock_start;
    begin.clock_step_ns = b->clock_step;
    begin.thread_id = b->thread_id;
    NtsimTestee__ApiRequest api = NTSIM_TESTEE__API_REQUEST__INIT;
    api.step_case = NTSIM_TESTEE__API_REQUEST__STEP_BEGIN;
    api.begin = &begin;
    NtsimTestee__Response *resp = ask_api(t, &api, v->id, r);
    if (resp == NULL)
        return;
    ntsim_testee_reply_free(resp);
    for (size_t i = 0; i < b->step_count; i++) {
        char subid[256];
        snprintf(subid, sizeof subid, "%s.calls[%zu]", v->id, i);
        if (!step(t, &b->steps[i], subid, i + 1 < b->step_count, r))
            break;
    }
    NtsimTestee__ApiEnd end = NTSIM_TESTEE__API_END__INIT;
    api.step_case = NTSIM_TESTEE__API_REQUEST__STEP_END;
    api.end = &end;
    /* A testee restarted by a failed call has no session left to end. */
    if (ntsim_testee_alive(t))
        ntsim_testee_reply_free(ask_api(t, &api, v->id, r));
}

unsigned ntsim_api_needs(const ntsim_vector_t *v)
{
    const api_body_t *b = v->body;
    for (size_t i = 0; i < b->step_count; i++)
        if (b->steps[i].fail_allocs || b->steps[i].alloc_sweep)
            return NTSIM_TESTEE_CAP_FAIL_ALLOCATIONS;
    return 0;
}
