/*
 * conformance/generate/gen_api_check.c: a generated `api` case's expected
 * values (each call's status, outputs and warnings, from the reference's
 * replies: begin, one reply per call made, end), its invariants (nc_stats
 * counters balance as D-RING says; get_event_types gives COUNT names) and
 * its shrinking (docs/generative.md).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gen_api.h"
#include "input.h"
#include "kind_api.h"

/* One call's expected values from its reply. */
static bool take_step(api_step_case_t *s, const NtsimTestee__ApiReply *m, char *why, size_t cap)
{
    ntsim_gen_api_drop_step(s);
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
    if (m->log != NULL && !ntsim_gen_log_entries(m->log, &s->log, &s->n_log, why, cap))
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

/* The replies to the calls made, one per call: begin, then per call its
 * reply (after a sweep's attempts that ran out of memory, as the api kind
 * skips them), then end. *made: how many calls have one. */
static void call_replies(const api_case_t *c, const ntsim_gen_replies_t *g,
                         const NtsimTestee__ApiReply *out[MAX_CALLS], size_t *made)
{
    size_t pos = 1, last = g->count >= 1 ? g->count - 1 : 0; /* past begin, before end */
    *made = 0;
    for (size_t i = 0; i < c->n && pos < last; i++, pos++) {
        const api_step_case_t *s = &c->steps[i];
        while (ntsim_gen_api_sweeps(s) && pos + 1 < last && g->items[pos]->body_case == NTSIM_TESTEE__RESPONSE__BODY_API &&
               ntsim_api_out_of_memory(s->call, g->items[pos]->api))
            pos++;
        const NtsimTestee__Response *resp = g->items[pos];
        out[(*made)++] = resp->body_case == NTSIM_TESTEE__RESPONSE__BODY_API ? resp->api : NULL;
    }
}

ntsim_gen_expect_status_t ntsim_gen_api_expect(void *p, const ntsim_gen_replies_t *ref, char *why, size_t cap)
{
    api_case_t *c = p;
    const NtsimTestee__ApiReply *replies[MAX_CALLS];
    size_t made;
    call_replies(c, ref, replies, &made);
    for (size_t i = 0; i < made; i++) {
        if (replies[i] == NULL) {
            snprintf(why, cap, "the reference's reply to calls[%zu] is not an api reply", i);
            return NTSIM_GEN_EXPECT_NONE;
        }
        if (!take_step(&c->steps[i], replies[i], why, cap))
            return NTSIM_GEN_EXPECT_NONE;
        const char *word = c->steps[i].has_status ? ntsim_gen_api_status_word(c->steps[i].status) : "";
        if (word == NULL) {
            snprintf(why, cap, "calls[%zu] returned status %d, which the api grammar cannot name",
                     i, c->steps[i].status);
            return NTSIM_GEN_EXPECT_NONE;
        }
    }
    return made < c->n ? NTSIM_GEN_EXPECT_AGAIN : NTSIM_GEN_EXPECT_DONE;
}

void ntsim_gen_api_check(const void *p, const ntsim_gen_replies_t *got, const char *who, const char *id,
                      ntsim_report_t *r)
{
    const api_case_t *c = p;
    const NtsimTestee__ApiReply *replies[MAX_CALLS];
    size_t made;
    call_replies(c, got, replies, &made);
    for (size_t i = 0; i < made; i++) {
        const NtsimTestee__ApiReply *m = replies[i];
        if (m == NULL)
            continue;
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

void *ntsim_gen_api_shrink(const void *p, size_t k)
{
    api_case_t *c = ntsim_gen_api_copy(p);
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
    ntsim_gen_api_free(c);
    return NULL;
}

size_t ntsim_gen_api_size(const void *p)
{
    return ((const api_case_t *)p)->n;
}

void ntsim_gen_api_cover(const void *p, ntsim_gen_cov_t *cov, const ntsim_gen_replies_t *ref)
{
    (void)ref;
    const api_case_t *c = p;
    for (size_t i = 0; i < c->n; i++) {
        cov->api_calls[c->steps[i].call]++;
        if (c->steps[i].call == API_EMIT)
            ntsim_gen_cov_type_phase(cov, c->steps[i].type, c->steps[i].phase);
    }
}

