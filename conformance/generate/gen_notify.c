/*
 * conformance/generate/gen_notify.c: generated `notify` cases: every input of
 * the notification_type converter (0 .. 10, negative, past 10, the int32
 * extremes) and EXPLICIT collections (1 to 8 TopSPs, sometimes 256, appends
 * of 0 to 8 bytes in any order); written in the notify kind's grammar
 * (conformance/kinds/kind_notify.c): a conversion as its trace_type and
 * block_type, a drop as `expect: invalid` with the message and the reason.
 *
 * Invariants on each side: one conversion or one drop per converter request
 * (converted + dropped = 1, the drop counted under exactly one reason, the
 * outputs untouched on a drop); an EXPLICIT collection gives one trace_info
 * per TopSP, each for its own index, and drops nothing.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gen_int.h"
#include "input.h"
#include "kinds.h"

enum { MAX_APPENDS = 8, MAX_BYTES = 8, SLOTS = 14 };

typedef struct notify_append {
    uint32_t topsp;
    uint8_t bytes[MAX_BYTES];
    size_t len;
} notify_append_t;

typedef struct notify_info {
    int32_t trace_type, block_type;
    uint32_t nc_idx;
    uint8_t *payload;
    size_t len;
} notify_info_t;

typedef struct notify_case {
    bool is_explicit;
    int32_t type;
    uint32_t num_topsp;
    notify_append_t appends[MAX_APPENDS];
    size_t n_appends;
    /* expected, from the reference */
    bool expected, dropped;
    int32_t trace_type, block_type;
    const char *reason;          /* cc_status, max, out_of_range (static) */
    char *error;                 /* the message logged for a drop */
    notify_info_t *infos;
    size_t n_infos;
} notify_case_t;

static void drop_expected(notify_case_t *c)
{
    for (size_t i = 0; i < c->n_infos; i++)
        free(c->infos[i].payload);
    free(c->infos);
    free(c->error);
    c->infos = NULL;
    c->n_infos = 0;
    c->error = NULL;
    c->expected = c->dropped = false;
}

static void notify_free_case(void *p)
{
    notify_case_t *c = p;
    if (c == NULL)
        return;
    drop_expected(c);
    free(c);
}

static void *notify_copy(const void *p)
{
    notify_case_t *c = malloc(sizeof *c);
    if (c == NULL)
        return NULL;
    *c = *(const notify_case_t *)p;
    c->infos = NULL;
    c->n_infos = 0;
    c->error = NULL;
    c->expected = c->dropped = false;
    return c;
}

static void *notify_make(ntsim_gen_rng_t *r, uint64_t j)
{
    notify_case_t *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    uint64_t slot = j % SLOTS;
    if (slot <= 10) {
        c->type = (int32_t)slot;
    } else if (slot == 11) {
        static const int32_t below[] = {INT32_MIN, -1, -2, -9};
        c->type = ntsim_gen_chance(r, 60) ? below[ntsim_gen_below(r, 4)] : -(int32_t)ntsim_gen_range(r, 1, INT32_MAX);
    } else if (slot == 12) {
        static const int32_t above[] = {11, 12, 255, 256, INT32_MAX};
        c->type = ntsim_gen_chance(r, 60) ? above[ntsim_gen_below(r, 5)] : (int32_t)ntsim_gen_range(r, 11, INT32_MAX);
    } else {
        c->is_explicit = true;
        c->num_topsp = ntsim_gen_chance(r, 90) ? (uint32_t)ntsim_gen_range(r, 1, 8)
                                         : (ntsim_gen_chance(r, 50) ? 256 : (uint32_t)ntsim_gen_range(r, 9, 256));
        c->n_appends = 1 + ntsim_gen_below(r, MAX_APPENDS); /* the grammar needs one */
        for (size_t i = 0; i < c->n_appends; i++) {
            notify_append_t *a = &c->appends[i];
            a->topsp = (uint32_t)ntsim_gen_below(r, c->num_topsp);
            a->len = ntsim_gen_below(r, MAX_BYTES + 1);
            for (size_t b = 0; b < a->len; b++)
                a->bytes[b] = (uint8_t)ntsim_gen_next(r);
        }
    }
    return c;
}

static void notify_write(const void *p, ntsim_gen_text_t *t)
{
    const notify_case_t *c = p;
    if (c->is_explicit) {
        ntsim_gen_printf(t, "    expect: valid\n    explicit:\n      num_topsp: %u\n      appends:%s\n",
                   c->num_topsp, c->n_appends == 0 ? " []" : "");
        for (size_t i = 0; i < c->n_appends; i++) {
            ntsim_gen_printf(t, "        - {topsp: %u, bytes: \"", c->appends[i].topsp);
            ntsim_gen_hex(t, c->appends[i].bytes, c->appends[i].len, 0);
            ntsim_gen_printf(t, "\"}\n");
        }
        ntsim_gen_printf(t, "    infos:\n");
        if (c->n_infos == 0) /* before the reference answers: the loader wants one */
            ntsim_gen_printf(t, "      - {trace_type: 0, block_type: 0, nc_idx: 0, payload: \"\"}\n");
        for (size_t i = 0; i < c->n_infos; i++) {
            const notify_info_t *x = &c->infos[i];
            ntsim_gen_printf(t, "      - {trace_type: %d, block_type: %d, nc_idx: %u, payload: \"",
                       x->trace_type, x->block_type, x->nc_idx);
            ntsim_gen_hex(t, x->payload, x->len, 0);
            ntsim_gen_printf(t, "\"}\n");
        }
        return;
    }
    if (c->expected && c->dropped) {
        ntsim_gen_printf(t, "    expect: invalid\n    error: ");
        ntsim_gen_quoted(t, c->error, strlen(c->error));
        ntsim_gen_printf(t, "\n    notification_type: %d\n    dropped_reason: %s\n", c->type, c->reason);
        return;
    }
    ntsim_gen_printf(t, "    expect: valid\n    notification_type: %d\n    trace_type: %d\n"
                  "    block_type: %d\n", c->type, c->trace_type, c->block_type);
}

static void notify_source(const void *p, ntsim_gen_text_t *t)
{
    const notify_case_t *c = p;
    if (c->is_explicit) {
        ntsim_gen_printf(t, ", F3.explicit.append, F3.explicit.per_topsp, S5.explicit.direct, "
                      "F1.convert.no_explicit, D-EXPLICIT-BLOCK");
        return;
    }
    ntsim_gen_printf(t, ", S5.convert.signature, F1.convert.table, S5.notification_type, "
                  "S5.notification_trace_type, S5.block_type, D-NOTIFY");
    static const char *const arm[] = {"S5.convert.trace", "S5.convert.event",
                                      "S5.convert.error", "S5.convert.infer_status",
                                      "S5.convert.dma", "S5.convert.throttle",
                                      "S5.convert.topsp_trace", "S5.convert.topsp_event",
                                      "S5.convert.topsp_error"};
    if (c->type >= 0 && c->type <= 8)
        ntsim_gen_printf(t, ", %s", arm[c->type]);
    else
        ntsim_gen_printf(t, ", S5.convert.default, S5.convert.range_check, S5.convert.default_outputs, "
                      "S5.convert.drop_message, F1.convert.default, D-LOG-CONTRACT");
}

static const NtsimTestee__NotifyReply *notify_reply(const ntsim_gen_replies_t *g)
{
    for (size_t i = 0; i < g->count; i++)
        if (g->items[i]->body_case == NTSIM_TESTEE__RESPONSE__BODY_NOTIFY)
            return g->items[i]->notify;
    return NULL;
}


static ntsim_gen_expect_status_t notify_expect(void *p, const ntsim_gen_replies_t *ref, char *why, size_t cap)
{
    notify_case_t *c = p;
    const NtsimTestee__NotifyReply *m = notify_reply(ref);
    drop_expected(c);
    if (m == NULL) {
        snprintf(why, cap, "the reference gave no notify reply");
        return NTSIM_GEN_EXPECT_NONE;
    }
    if (c->is_explicit) {
        if ((c->infos = calloc(m->n_infos + 1, sizeof *c->infos)) == NULL)
            return NTSIM_GEN_EXPECT_NONE;
        for (size_t i = 0; i < m->n_infos; i++) {
            const NtsimTestee__TraceInfo *x = m->infos[i];
            notify_info_t *w = &c->infos[c->n_infos++];
            w->trace_type = x->trace_type;
            w->block_type = x->block_type;
            w->nc_idx = x->nc_idx;
            w->len = x->has_payload ? x->payload.len : 0;
            if ((w->payload = malloc(w->len ? w->len : 1)) == NULL)
                return NTSIM_GEN_EXPECT_NONE;
            if (w->len > 0)
                memcpy(w->payload, x->payload.data, w->len);
        }
    } else if (m->status == 0 && m->info != NULL) {
        c->trace_type = m->info->trace_type;
        c->block_type = m->info->block_type;
    } else {
        const NtsimTestee__NotifyCounts *n = m->counts;
        /* `error` is the text the spec quotes, as the catalogue reads it out
         * of the reference's one error (D-LOG-CONTRACT), not its sentence. */
        ntsim_log_entry_t e = {0};
        NRT_STATUS st = m->log != NULL && m->log->n_lines == 1
                            ? ntsim_log_catalog_entry(m->log->lines[0], &e)
                            : NRT_INVALID;
        bool quoted = st == NRT_SUCCESS && e.level == NTSIM_LOG_ERROR && e.n_parts == 1 &&
                      e.parts[0].kind == NTSIM_LOG_PART_TEXT;
        c->error = quoted ? ntsim_strdup(e.parts[0].text) : NULL;
        ntsim_log_entry_free(&e);
        if (n == NULL || !quoted) {
            snprintf(why, cap, "the reference's drop has no %s",
                     n == NULL ? "counts" : "one error holding a quoted text");
            return NTSIM_GEN_EXPECT_NONE;
        }
        c->dropped = true;
        c->reason = n->dropped_cc_status ? "cc_status" : n->dropped_max ? "max" : "out_of_range";
        if (c->error == NULL)
            return NTSIM_GEN_EXPECT_NONE;
    }
    c->expected = true;
    return NTSIM_GEN_EXPECT_DONE;
}

static void notify_check(const void *p, const ntsim_gen_replies_t *got, const char *who,
                         const char *id, ntsim_report_t *r)
{
    const notify_case_t *c = p;
    const NtsimTestee__NotifyReply *m = notify_reply(got);
    if (m == NULL)
        return;
    const NtsimTestee__NotifyCounts *n = m->counts;
    if (c->is_explicit) {
        if (m->status != 0)
            return;
        if (m->n_infos != c->num_topsp)
            ntsim_report_add(r, id, "invariant", "%s: %zu trace_infos for %u TopSPs "
                             "(F3.explicit.per_topsp)", who, m->n_infos, c->num_topsp);
        for (size_t i = 0; i < m->n_infos; i++)
            if (m->infos[i]->nc_idx != i) {
                ntsim_report_add(r, id, "invariant", "%s: infos[%zu] is for TopSP %u "
                                 "(D-EXPLICIT-BLOCK)", who, i, m->infos[i]->nc_idx);
                break;
            }
        if (n != NULL && n->dropped != 0)
            ntsim_report_add(r, id, "invariant", "%s: the EXPLICIT path counted %" PRIu64
                             " drops (S5.explicit.direct)", who, n->dropped);
        return;
    }
    if (n != NULL) {
        if (n->converted + n->dropped != 1)
            ntsim_report_add(r, id, "invariant", "%s: one request counted %" PRIu64
                             " conversions and %" PRIu64 " drops (D-NOTIFY)", who, n->converted,
                             n->dropped);
        if (n->dropped != n->dropped_cc_status + n->dropped_max + n->dropped_out_of_range)
            ntsim_report_add(r, id, "invariant", "%s: %" PRIu64 " drops, %" PRIu64 " by reason "
                             "(D-NOTIFY)", who, n->dropped,
                             n->dropped_cc_status + n->dropped_max + n->dropped_out_of_range);
        if ((m->status == 0) != (n->converted == 1))
            ntsim_report_add(r, id, "invariant", "%s: status %d with %" PRIu64 " conversions",
                             who, m->status, n->converted);
    }
    if (m->status != 0 && (!m->has_outputs_untouched || !m->outputs_untouched))
        ntsim_report_add(r, id, "invariant", "%s: a drop touched the outputs "
                         "(S5.convert.default_outputs)", who);
}

static void *notify_shrink(const void *p, size_t k)
{
    notify_case_t *c = notify_copy(p);
    if (c == NULL)
        return NULL;
    if (!c->is_explicit) {
        notify_free_case(c);
        return NULL; /* one converter input is already the smallest case */
    }
    size_t n = c->n_appends;
    if (k < n) {
        if (n < 2)
            return c; /* the grammar needs one append */
        memmove(&c->appends[k], &c->appends[k + 1], (n - k - 1) * sizeof *c->appends);
        c->n_appends--;
        return c;
    }
    k -= n;
    if (k < n) {
        c->appends[k].len /= 2;
        return c;
    }
    k -= n;
    if (k == 0) {
        /* the fewest TopSPs the appends need */
        uint32_t need = 1;
        for (size_t i = 0; i < n; i++)
            if (c->appends[i].topsp + 1 > need)
                need = c->appends[i].topsp + 1;
        c->num_topsp = need;
        return c;
    }
    notify_free_case(c);
    return NULL;
}

static size_t notify_size(const void *p)
{
    const notify_case_t *c = p;
    return c->is_explicit ? c->n_appends : 1;
}

static void notify_cover(const void *p, ntsim_gen_cov_t *cov, const ntsim_gen_replies_t *ref)
{
    (void)ref;
    const notify_case_t *c = p;
    if (c->is_explicit)
        cov->notify_explicit++;
    else if (c->type < 0)
        cov->notify_below++;
    else if (c->type > 10)
        cov->notify_above++;
    else
        cov->notify_in[c->type]++;
}

const ntsim_gen_kind_t ntsim_gen_kind_notify = {
    .name = "notify",
    .weight = 2,
    .make = notify_make,
    .free = notify_free_case,
    .copy = notify_copy,
    .write = notify_write,
    .source = notify_source,
    .expect = notify_expect,
    .check = notify_check,
    .shrink = notify_shrink,
    .size = notify_size,
    .size_unit = "requests or appends",
    .cover = notify_cover,
};
