/*
 * conformance/generate/gen_record_check.c: the invariants of a generated
 * `record` case, checked on each side's reply (D-RING, D-IDS,
 * D-PAYLOAD-HOLES), and its shrinking (docs/generative.md).
 *
 * The invariants:
 * created == pushed + busy, pushed == drained + overwritten + in_ring +
 * lost_at_stop, no overwrite time without an overwrite, in_ring within the
 * capacity and 0 after stop, busy 0 (one thread); every drained record is
 * of the drained NC and the session's thread, has ids that grow by NC and
 * id = nc_local_id | nc << 50, times that do not go back (when the clock
 * cannot wrap), a type of the table, and zeros outside its payload's fields
 * and in its padding (no torn record).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "event_table.h"
#include "gen_record.h"

static void check_stats(const rec_case_t *c, const NtsimTestee__NcStats *s, const char *who,
                        const char *id, ntsim_report_t *r)
{
    char sub[300];
    snprintf(sub, sizeof sub, "%s.invariant.%s.stats", id, who);
    if (s->created != s->pushed + s->busy)
        ntsim_report_add(r, sub, "created", "expected pushed + busy = %" PRIu64 ", got %" PRIu64
                         " (D-RING)", s->pushed + s->busy, s->created);
    uint64_t out = s->drained + s->overwritten + s->in_ring + s->lost_at_stop;
    if (s->pushed != out)
        ntsim_report_add(r, sub, "pushed",
                         "expected drained + overwritten + in_ring + lost_at_stop = %" PRIu64
                         ", got %" PRIu64 " (D-RING)", out, s->pushed);
    if (s->overwritten == 0 && (s->first_overwrite_ns != 0 || s->last_overwrite_ns != 0))
        ntsim_report_add(r, sub, "first_overwrite_ns", "expected 0 with no overwrite, got %" PRIu64
                         " .. %" PRIu64, s->first_overwrite_ns, s->last_overwrite_ns);
    if (s->capacity > 0 && s->in_ring > s->capacity)
        ntsim_report_add(r, sub, "in_ring", "expected at most the capacity %" PRIu64 ", got %"
                         PRIu64, s->capacity, s->in_ring);
    if (c->stop && s->in_ring != 0)
        ntsim_report_add(r, sub, "in_ring", "expected 0 after stop, got %" PRIu64, s->in_ring);
    if (s->busy != 0)
        ntsim_report_add(r, sub, "busy", "expected 0 with one thread (D-RING), got %" PRIu64,
                         s->busy);
}

/* The bytes of a drained record that must be zero: padding, and every byte of
 * data outside the fields of the member its (type, phase) carries. */
static bool torn(const nrt_sys_trace_event_t *rec, size_t *at)
{
    const uint8_t *b = (const uint8_t *)rec;
    bool field[sizeof rec->data] = {false};
    const ntsim_payload_desc_t *d =
        &ntsim__payloads[ntsim__event_payload((uint32_t)rec->trace_type, (uint32_t)rec->phase)];
    for (size_t i = 0; i < d->field_count; i++)
        for (size_t k = 0; k < d->fields[i].size; k++)
            field[d->fields[i].offset + k] = true;
    size_t data = offsetof(nrt_sys_trace_event_t, data);
    for (size_t i = 0; i < sizeof rec->data; i++)
        if (!field[i] && b[data + i] != 0)
            return *at = data + i, true;
    for (size_t i = 4; i < 8; i++)
        if (b[i] != 0)
            return *at = i, true;
    for (size_t i = offsetof(nrt_sys_trace_event_t, has_nrta_seq_id) + 1; i < sizeof *rec; i++)
        if (b[i] != 0)
            return *at = i, true;
    return false;
}

static void check_records(const rec_case_t *c, const NtsimTestee__RecordReply *m, const char *who,
                          const char *id, ntsim_report_t *r)
{
    char sub[300];
    if (m->n_records > c->drain_max)
        ntsim_report_add(r, id, "invariant", "%s: %zu records drained into a buffer of %" PRIu64,
                         who, m->n_records, c->drain_max);
    uint64_t calls = 0;
    for (size_t i = 0; i < c->n_emits; i++)
        calls += c->emits[i].repeat;
    /* The clock's last value cannot wrap: times must not go back. */
    bool no_wrap = c->clock_step == 0 || (UINT64_MAX - c->clock_start) / c->clock_step >= calls;
    nrt_sys_trace_event_t prev;
    memset(&prev, 0, sizeof prev); /* read only from the second record on */
    for (size_t i = 0; i < m->n_records; i++) {
        if (m->records[i].len != sizeof prev)
            return; /* the judge says so */
        nrt_sys_trace_event_t e;
        memcpy(&e, m->records[i].data, sizeof e);
        snprintf(sub, sizeof sub, "%s.invariant.%s.records[%zu]", id, who, i);
        size_t at;
        if ((uint32_t)e.trace_type >= NRT_SYS_TRACE_EVENT_TYPE_COUNT)
            ntsim_report_add(r, sub, "trace_type", "expected a type of the table, got %u",
                             (unsigned)e.trace_type);
        else if (torn(&e, &at))
            ntsim_report_add(r, sub, "bytes", "expected zero at +0x%02zx (padding or outside the "
                             "payload's fields: D-PAYLOAD-HOLES), got %02x", at,
                             ((const uint8_t *)&e)[at]);
        if (e.nc_idx != (uint32_t)c->drain_nc)
            ntsim_report_add(r, sub, "nc_idx", "expected the drained NC %d, got %u", c->drain_nc,
                             e.nc_idx);
        if (e.thread_id != c->thread_id)
            ntsim_report_add(r, sub, "thread_id", "expected %" PRIu64 ", got %" PRIu64,
                             c->thread_id, e.thread_id);
        if (e.id != (e.nc_local_id | (uint64_t)e.nc_idx << 50))
            ntsim_report_add(r, sub, "id", "expected nc_local_id | nc_idx << 50 (D-IDS), got 0x%"
                             PRIx64, e.id);
        if (i > 0 && e.nc_local_id <= prev.nc_local_id)
            ntsim_report_add(r, sub, "nc_local_id", "expected more than the previous %" PRIu64
                             ", got %" PRIu64, prev.nc_local_id, e.nc_local_id);
        if (i > 0 && no_wrap && e.timestamp_ns < prev.timestamp_ns)
            ntsim_report_add(r, sub, "timestamp_ns", "expected at least the previous %" PRIu64
                             ", got %" PRIu64, prev.timestamp_ns, e.timestamp_ns);
        prev = e;
    }
    if (c->stats_nc == c->drain_nc && m->stats != NULL && m->stats->status == 0 &&
        m->stats->drained != m->n_records)
        ntsim_report_add(r, id, "invariant", "%s: stats.drained %" PRIu64 " after one drain of %zu "
                         "records", who, m->stats->drained, m->n_records);
}

void ntsim_gen_record_check(const void *p, const ntsim_gen_replies_t *got, const char *who, const char *id,
                      ntsim_report_t *r)
{
    const rec_case_t *c = p;
    const NtsimTestee__RecordReply *m = ntsim_gen_record_reply(got);
    if (m == NULL)
        return; /* the judge reported what the testee did instead */
    if (m->stats != NULL && m->stats->status == 0)
        check_stats(c, m->stats, who, id, r);
    if (c->drain_nc >= 0 && m->has_drain_status && m->drain_status == 0)
        check_records(c, m, who, id, r);
    for (size_t i = 0; i < c->n_emits && i < m->n_emits; i++) {
        uint64_t want = c->emits[i].tracking_id, ret = m->emits[i]->returns;
        if (want != 0 && ret != 0 && ret != want)
            ntsim_report_add(r, id, "invariant",
                             "%s: emits[%zu] returned 0x%" PRIx64 ", neither 0 nor the caller's "
                             "tracking id 0x%" PRIx64 " (S1.record.tracking_id)",
                             who, i, ret, want);
    }
}

/* --- shrinking --------------------------------------------------------------------------- */

static void remove_emits(rec_case_t *c, size_t from, size_t n)
{
    memmove(&c->emits[from], &c->emits[from + n], (c->n_emits - from - n) * sizeof *c->emits);
    c->n_emits -= n;
}

enum { LADDER = 24 };

/* The simplifications of one emit, as step k; false when step k changes
 * nothing (later ones may). */
static bool simpler_emit(rec_emit_t *e, size_t k)
{
    nrt_sys_trace_event_data_t d;
    if (k < LADDER)
        return ntsim_gen_ladder(&e->repeat, 1, k);
    k -= LADDER;
    switch (k) {
    case 0: if (!e->has_data) return false; e->has_data = false; return true;
    case 1: if (!e->has_seq) return false; e->has_seq = false; return true;
    case 2: if (e->tracking_id == 0) return false; e->tracking_id = 0; return true;
    case 3: if (e->nc_idx == 0) return false; e->nc_idx = 0; return true;
    default:
        if (!e->has_data || !ntsim_gen_payload_simpler(&e->data, e->type, e->phase, k - 4, &d))
            return false;
        e->data = d;
        return true;
    }
}

void *ntsim_gen_record_shrink(const void *p, size_t k)
{
    const rec_case_t *s = p;
    rec_case_t *c = ntsim_gen_record_copy(s);
    if (c == NULL)
        return NULL;
    size_t n = s->n_emits;
    /* halves, then one emit at a time */
    if (k < 2) {
        if (n >= 2)
            remove_emits(c, k == 0 ? n / 2 : 0, k == 0 ? n - n / 2 : n / 2);
        return c; /* unchanged when there is one: the shrinker skips it */
    }
    k -= 2;
    if (k < n) {
        if (n >= 2)
            remove_emits(c, k, 1);
        return c;
    }
    k -= n;
    enum { PER_EMIT = LADDER + 4 + 12 };
    if (k < n * PER_EMIT) {
        (void)simpler_emit(&c->emits[k / PER_EMIT], k % PER_EMIT);
        return c;
    }
    k -= n * PER_EMIT;
    switch (k) {
    case 0: c->stop = false; return c;
    case 1: c->stats_nc = -1; return c;
    case 2: c->global = false; return c;
    case 3: c->log = false; return c;
    case 4: c->drain_nc = -1; return c;
    case 5:
        for (size_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
            c->disabled[t] = false;
        return c;
    case 6: c->max_events = 0; return c;
    case 7: c->clock_start = 1000; return c;
    case 8: c->clock_step = 0; return c;
    case 9: c->thread_id = 4242; return c;
    default: break;
    }
    k -= 10;
    /* the ring: toward the smallest capacity (1024) that still fails */
    if (k < LADDER) {
        if (c->max_events > 1024)
            (void)ntsim_gen_ladder(&c->max_events, 1024, k);
        return c;
    }
    k -= LADDER;
    if (k < LADDER) {
        (void)ntsim_gen_ladder(&c->drain_max, 1, k);
        return c;
    }
    k -= LADDER;
    /* an NC no emit, drain or stats names, disabled */
    if (k < NTSIM_NC_COUNT) {
        bool used = (int)k == c->drain_nc || (int)k == c->stats_nc;
        for (size_t i = 0; i < c->n_emits; i++)
            used |= c->emits[i].nc_idx == k;
        if (c->ncs[k] && !used)
            c->ncs[k] = false;
        return c;
    }
    ntsim_gen_record_free(c);
    return NULL;
}

size_t ntsim_gen_record_size(const void *p)
{
    const rec_case_t *c = p;
    size_t n = 0;
    for (size_t i = 0; i < c->n_emits; i++)
        n += c->emits[i].repeat;
    return n;
}

void ntsim_gen_record_cover(const void *p, ntsim_gen_cov_t *cov, const ntsim_gen_replies_t *ref)
{
    const rec_case_t *c = p;
    for (size_t i = 0; i < c->n_emits; i++)
        ntsim_gen_cov_type_phase(cov, c->emits[i].type, c->emits[i].phase);
    const NtsimTestee__RecordReply *m = ntsim_gen_record_reply(ref);
    if (m != NULL && m->stats != NULL && m->stats->overwritten > 0)
        cov->overflowed++;
}

