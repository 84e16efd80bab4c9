/*
 * engine/analyze/diff.c: two traces compared event by event, field by field
 * (ntsim/analyze.h; D-DIFF).
 *
 *   1. index    each trace's events by (nc_idx, nc_local_id, place in the
 *               file): an NC's events in the order the NC pushed them
 *   2. match    per NC, ascending, the two lists merged: equal nc_local_ids
 *               match; where they differ, events of one (type, phase,
 *               tracking_id) match (a port that numbers its ids otherwise
 *               still lines up); else the lower id is in its trace only
 *   3. compare  a matched pair field by field, each rendered as the fetch
 *               document writes it (D-JSON-DATA), in the document's order;
 *               the fields the two formats do not both keep (D-READ) are
 *               left out, and the summary says which
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "data_view.h"
#include "event_table.h"
#include "ntsim/analyze.h"
#include "suggest.h"

/* --- the fields ------------------------------------------------------------------- */

/* The record's own fields, in the document's order; the data keys go
 * between thread_id and timestamp_ns, as the document writes them. */
enum { F_TYPE, F_PHASE, F_ID, F_LOCAL, F_TRACKING, F_THREAD, F_DATA, F_TIME, F_SEQ, F_COUNT };
static const char *const g_field_names[F_COUNT] = {
    "event_type", "phase", "id", "nc_local_id", "tracking_id", "thread_id", "data",
    "timestamp_ns", "nrta_seq_id"};

/* Every data key of every (type, phase), once, sorted, as "data.KEY". */
enum { DATA_KEYS_MAX = 160 };
static char g_data_fields[DATA_KEYS_MAX][56];
static size_t g_data_field_count;
static pthread_once_t g_data_once = PTHREAD_ONCE_INIT;

static int cmp_str(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

static void data_fields_build(void)
{
    for (uint32_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        for (uint32_t p = 0; p < NRT_SYS_TRACE_EVENT_PHASE_COUNT; p++) {
            const ntsim_data_view_t *v = ntsim__data_view(t, p);
            for (size_t k = 0; k < v->count; k++) {
                char name[56];
                snprintf(name, sizeof name, "data.%s", v->keys[k].key_z);
                size_t i = 0;
                while (i < g_data_field_count && strcmp(g_data_fields[i], name) != 0)
                    i++;
                if (i == g_data_field_count && i < DATA_KEYS_MAX)
                    memcpy(g_data_fields[g_data_field_count++], name, sizeof name);
            }
        }
    qsort(g_data_fields, g_data_field_count, sizeof g_data_fields[0], cmp_str);
}

/* The static "data.KEY" of a key. */
static const char *data_field(const ntsim_data_key_t *k)
{
    pthread_once(&g_data_once, data_fields_build);
    for (size_t i = 0; i < g_data_field_count; i++)
        if (strcmp(g_data_fields[i] + 5, k->key_z) == 0)
            return g_data_fields[i];
    return "data.?"; /* unreachable: every view's keys are listed */
}

bool ntsim_diff_field_check(const char *field, const char **nearest)
{
    pthread_once(&g_data_once, data_fields_build);
    if (nearest != NULL)
        *nearest = NULL;
    if (field == NULL)
        return false;
    ntsim_suggest_t s;
    ntsim_suggest_init(&s, field, strlen(field));
    for (size_t i = 0; i < F_COUNT; i++) {
        if (strcmp(field, g_field_names[i]) == 0)
            return true;
        ntsim_suggest_add_z(&s, g_field_names[i]);
    }
    const char *bare = NULL; /* a data key named without its "data." */
    for (size_t i = 0; i < g_data_field_count; i++) {
        if (strcmp(field, g_data_fields[i]) == 0)
            return true;
        if (strcmp(field, g_data_fields[i] + 5) == 0)
            bare = g_data_fields[i];
        ntsim_suggest_add_z(&s, g_data_fields[i]);
    }
    if (nearest != NULL)
        *nearest = bare != NULL ? bare : ntsim_suggest_best(&s, NULL);
    return false;
}

/* --- the index -------------------------------------------------------------------- */

typedef struct slot {
    uint32_t nc;
    uint64_t local;
    size_t at;                /* its place in the file */
} slot_t;

static int cmp_slot(const void *pa, const void *pb)
{
    const slot_t *a = pa, *b = pb;
    if (a->nc != b->nc)
        return a->nc < b->nc ? -1 : 1;
    if (a->local != b->local)
        return a->local < b->local ? -1 : 1;
    return (a->at > b->at) - (a->at < b->at);
}

static slot_t *index_trace(const ntsim_trace_t *t)
{
    slot_t *s = ntsim__malloc((t->event_count + 1) * sizeof *s);
    if (s == NULL)
        return NULL;
    for (size_t i = 0; i < t->event_count; i++)
        s[i] = (slot_t){t->events[i].nc_idx, t->events[i].nc_local_id, i};
    qsort(s, t->event_count, sizeof *s, cmp_slot);
    return s;
}

/* --- comparing ------------------------------------------------------------------ */

typedef struct diff {
    const ntsim_diff_options_t *opt;
    bool ignore[F_COUNT];
    bool json_time;           /* one trace is JSON, the other not: D-JSON-TIME */
    bool ntff_thread;         /* one trace is NTFF, the other not: thread_id is a uint32 */
    ntsim_diff_fn fn;
    void *ctx;
    ntsim_diff_summary_t *sum;
    size_t count_cap;
    NRT_STATUS st;
} diff_t;

static const char *phase_name(uint32_t phase)
{
    static const char *const names[] = {"start", "stop", "instant"};
    return phase < 3 ? names[phase] : "unknown"; /* D-READ: a phase past INSTANT */
}

static const char *type_name(uint32_t type)
{
    const ntsim_event_type_desc_t *d = ntsim__event_type_desc(type);
    return d != NULL ? d->json_name : "unknown";
}

/* The rank of a field in the document's order, for the per-field counts. */
static size_t field_rank(const char *field)
{
    for (size_t i = 0; i < F_COUNT; i++)
        if (strcmp(field, g_field_names[i]) == 0)
            return i * (DATA_KEYS_MAX + 1);
    for (size_t i = 0; i < g_data_field_count; i++)
        if (field == g_data_fields[i])
            return F_DATA * (DATA_KEYS_MAX + 1) + 1 + i;
    return F_COUNT * (DATA_KEYS_MAX + 1);
}

static void count_field(diff_t *d, const char *field)
{
    ntsim_diff_summary_t *s = d->sum;
    for (size_t i = 0; i < s->field_count; i++)
        if (s->fields[i].field == field) {
            s->fields[i].count++;
            return;
        }
    if (s->field_count == d->count_cap) {
        size_t cap = d->count_cap ? d->count_cap * 2 : 16;
        ntsim_diff_count_t *grown = ntsim__realloc(s->fields, cap * sizeof *grown);
        if (grown == NULL) {
            d->st = NRT_RESOURCE;
            return;
        }
        s->fields = grown;
        d->count_cap = cap;
    }
    s->fields[s->field_count++] = (ntsim_diff_count_t){field, 1};
}

static void report(diff_t *d, const nrt_sys_trace_event_t *e, uint64_t event, const char *field,
                   const char *a, const char *b)
{
    if (d->st != NRT_SUCCESS)
        return;
    if (field != NULL) {
        d->sum->differences++;
        count_field(d, field);
    }
    ntsim_diff_item_t item = {e->nc_idx, event, type_name((uint32_t)e->trace_type),
                              phase_name((uint32_t)e->phase), field, a, b};
    if (d->fn != NULL && d->st == NRT_SUCCESS)
        d->st = d->fn(&item, d->ctx);
}

static bool is_time_field(const char *field)
{
    size_t n = strlen(field);
    return n >= 3 && strcmp(field + n - 3, "_ns") == 0;
}

/* One value of each side, as text; a field is reported when they differ
 * (NULL: absent), numbers of a time field within the tolerance equal. */
static bool values_differ(const diff_t *d, const char *field, const char *a, uint64_t va,
                          const char *b, uint64_t vb, bool numbers)
{
    if (a == NULL || b == NULL)
        return a != b;
    if (strcmp(a, b) == 0)
        return false;
    if (numbers && is_time_field(field))
        return (va > vb ? va - vb : vb - va) > d->opt->time_tolerance_ns;
    return true;
}

/* The record's own field f of e, into buf (NULL when the document leaves it
 * out); *v its number. */
static const char *own_field(const diff_t *d, const nrt_sys_trace_event_t *e, int f, char *buf,
                             size_t cap, uint64_t *v)
{
    *v = 0;
    switch (f) {
    case F_TYPE: return type_name((uint32_t)e->trace_type);
    case F_PHASE: return phase_name((uint32_t)e->phase);
    case F_ID: *v = e->id; break;
    case F_LOCAL: *v = e->nc_local_id; break;
    case F_TRACKING: *v = e->tracking_id; break;
    case F_THREAD: *v = d->ntff_thread ? e->thread_id & UINT32_MAX : e->thread_id; break;
    case F_TIME: *v = e->timestamp_ns; break;
    case F_SEQ:
        if (!ntsim__record_has_seq(e))
            return NULL;
        *v = e->nrta_seq_id;
        break;
    default: return NULL;
    }
    snprintf(buf, cap, "%llu", (unsigned long long)*v);
    return buf;
}

/* The key named k of view v, or NULL. */
static const ntsim_data_key_t *key_in(const ntsim_data_view_t *v, const ntsim_data_key_t *k)
{
    for (size_t i = 0; i < v->count; i++)
        if (strcmp(v->keys[i].key_z, k->key_z) == 0)
            return &v->keys[i];
    return NULL;
}

static bool ignored(const diff_t *d, const char *field)
{
    for (size_t i = 0; i < d->opt->ignore_count; i++)
        if (strcmp(d->opt->ignore[i], field) == 0)
            return true;
    return false;
}

/* The data keys of a and b: a's in its order, then b's that a has not. */
static void compare_data(diff_t *d, const nrt_sys_trace_event_t *a, const nrt_sys_trace_event_t *b,
                         uint64_t event)
{
    const ntsim_data_view_t *va = ntsim__data_view((uint32_t)a->trace_type, (uint32_t)a->phase);
    const ntsim_data_view_t *vb = ntsim__data_view((uint32_t)b->trace_type, (uint32_t)b->phase);
    for (int side = 0; side < 2; side++) {
        const ntsim_data_view_t *v = side == 0 ? va : vb, *w = side == 0 ? vb : va;
        for (size_t i = 0; i < v->count; i++) {
            const ntsim_data_key_t *k = &v->keys[i], *ka, *kb;
            if (k->exec_model) /* the runtime's lookup, not the record's */
                continue;
            const ntsim_data_key_t *other = key_in(w, k);
            if (side == 1 && other != NULL)
                continue; /* compared from a's side */
            ka = side == 0 ? k : other;
            kb = side == 0 ? other : k;
            const char *field = data_field(k);
            if (ignored(d, field))
                continue;
            char ta[40], tb[40];
            uint64_t xa = ka ? ntsim__data_value(ka, &a->data) : 0;
            uint64_t xb = kb ? ntsim__data_value(kb, &b->data) : 0;
            const char *sa = ka && ntsim__data_format(ka, xa, ta, sizeof ta) ? ta : NULL;
            const char *sb = kb && ntsim__data_format(kb, xb, tb, sizeof tb) ? tb : NULL;
            bool numbers = ka && kb && ka->fmt == NTSIM_FMT_NUMBER && kb->fmt == NTSIM_FMT_NUMBER;
            if (values_differ(d, field, sa, xa, sb, xb, numbers))
                report(d, a, event, field, sa, sb);
        }
    }
}

/* A matched pair, field by field; the pair counted as differing or not. */
static void compare(diff_t *d, const nrt_sys_trace_event_t *a, const nrt_sys_trace_event_t *b)
{
    uint64_t before = d->sum->differences;
    const ntsim_data_view_t *va = ntsim__data_view((uint32_t)a->trace_type, (uint32_t)a->phase);
    const ntsim_data_view_t *vb = ntsim__data_view((uint32_t)b->trace_type, (uint32_t)b->phase);
    bool device_time = d->json_time && (va->nc_timestamp || vb->nc_timestamp);
    for (int f = 0; f < F_COUNT; f++) {
        if (f == F_DATA) {
            if (!d->ignore[F_DATA])
                compare_data(d, a, b, a->nc_local_id);
            continue;
        }
        if (d->ignore[f] || (f == F_TIME && device_time))
            continue;
        char ta[24], tb[24];
        uint64_t xa, xb;
        const char *sa = own_field(d, a, f, ta, sizeof ta, &xa);
        const char *sb = own_field(d, b, f, tb, sizeof tb, &xb);
        if (values_differ(d, g_field_names[f], sa, xa, sb, xb, f != F_TYPE && f != F_PHASE))
            report(d, a, a->nc_local_id, g_field_names[f], sa, sb);
    }
    d->sum->matched++;
    d->sum->differing += d->sum->differences != before;
}

static bool same_key(const nrt_sys_trace_event_t *a, const nrt_sys_trace_event_t *b)
{
    return a->trace_type == b->trace_type && a->phase == b->phase &&
           a->tracking_id == b->tracking_id;
}

/* The events of one NC: a[0..na) and b[0..nb), each in nc_local_id order. */
static void match_nc(diff_t *d, const ntsim_trace_t *ta, const slot_t *a, size_t na,
                     const ntsim_trace_t *tb, const slot_t *b, size_t nb)
{
    size_t i = 0, j = 0;
    while ((i < na || j < nb) && d->st == NRT_SUCCESS) {
        const nrt_sys_trace_event_t *ea = i < na ? &ta->events[a[i].at] : NULL;
        const nrt_sys_trace_event_t *eb = j < nb ? &tb->events[b[j].at] : NULL;
        if (ea != NULL && eb != NULL &&
            (ea->nc_local_id == eb->nc_local_id || same_key(ea, eb))) {
            compare(d, ea, eb);
            i++;
            j++;
        } else if (eb == NULL || (ea != NULL && ea->nc_local_id < eb->nc_local_id)) {
            d->sum->only_a++;
            report(d, ea, ea->nc_local_id, NULL, "", NULL);
            i++;
        } else {
            d->sum->only_b++;
            report(d, eb, eb->nc_local_id, NULL, NULL, "");
            j++;
        }
    }
}

/* --- the entry point -------------------------------------------------------------- */

static int cmp_count(const void *pa, const void *pb)
{
    const ntsim_diff_count_t *a = pa, *b = pb;
    size_t ra = field_rank(a->field), rb = field_rank(b->field);
    return (ra > rb) - (ra < rb);
}

/* What a format does not keep and the other does (D-READ), said once. */
static const char *not_compared(bool json_time, bool ntff_thread)
{
    if (json_time && ntff_thread)
        return "the timestamp_ns of device events (a JSON document moves them onto the host "
               "clock, D-JSON-TIME) and thread_id's high 32 bits (NTFF keeps a uint32)";
    if (json_time)
        return "the timestamp_ns of device events (a JSON document moves them onto the host "
               "clock, D-JSON-TIME)";
    if (ntff_thread)
        return "thread_id's high 32 bits (NTFF keeps a uint32)";
    return NULL;
}

NRT_STATUS ntsim_trace_diff(const ntsim_trace_t *a, const ntsim_trace_t *b,
                            const ntsim_diff_options_t *options, ntsim_diff_fn fn, void *ctx,
                            ntsim_diff_summary_t *out)
{
    static const ntsim_diff_options_t none = {NULL, 0, 0};
    if (a == NULL || b == NULL || out == NULL)
        return NRT_INVALID;
    memset(out, 0, sizeof *out);
    diff_t d = {options ? options : &none, {false}, false, false, fn, ctx, out, 0, NRT_SUCCESS};
    for (size_t i = 0; i < d.opt->ignore_count; i++) {
        if (!ntsim_diff_field_check(d.opt->ignore[i], NULL))
            return NRT_INVALID;
        for (int f = 0; f < F_COUNT; f++)
            d.ignore[f] |= strcmp(d.opt->ignore[i], g_field_names[f]) == 0;
    }
    bool ja = a->format == NTSIM_TRACE_FORMAT_JSON, jb = b->format == NTSIM_TRACE_FORMAT_JSON;
    bool na = a->format == NTSIM_TRACE_FORMAT_NTFF, nb = b->format == NTSIM_TRACE_FORMAT_NTFF;
    d.json_time = ja != jb;
    d.ntff_thread = na != nb;
    out->not_compared = not_compared(d.json_time, d.ntff_thread);
    slot_t *sa = index_trace(a), *sb = index_trace(b);
    if (sa == NULL || sb == NULL) {
        ntsim__free(sa);
        ntsim__free(sb);
        return NRT_RESOURCE;
    }
    size_t i = 0, j = 0;
    while ((i < a->event_count || j < b->event_count) && d.st == NRT_SUCCESS) {
        uint32_t nc = i < a->event_count && (j == b->event_count || sa[i].nc <= sb[j].nc)
                          ? sa[i].nc
                          : sb[j].nc;
        size_t i2 = i, j2 = j;
        while (i2 < a->event_count && sa[i2].nc == nc)
            i2++;
        while (j2 < b->event_count && sb[j2].nc == nc)
            j2++;
        match_nc(&d, a, sa + i, i2 - i, b, sb + j, j2 - j);
        i = i2;
        j = j2;
    }
    ntsim__free(sa);
    ntsim__free(sb);
    if (out->field_count > 1)
        qsort(out->fields, out->field_count, sizeof *out->fields, cmp_count);
    return d.st;
}

void ntsim_diff_summary_free(ntsim_diff_summary_t *s)
{
    if (s == NULL)
        return;
    ntsim__free(s->fields);
    s->fields = NULL;
    s->field_count = 0;
}
