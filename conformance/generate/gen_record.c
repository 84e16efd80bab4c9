/*
 * conformance/generate/gen_record.c: generated `record` cases: a session
 * (capturing or not, a ring small enough to overflow, some NCs, some types
 * disabled, the virtual clock and thread id), emit calls of every (type,
 * phase) with random payloads, NCs past 255 and types past the enum, a drain
 * into a buffer of some capacity, stop(), the counters and the log; written
 * in the record kind's grammar (conformance/kinds/kind_record.c).
 *
 * Invariants checked on each side's reply (D-RING, D-IDS, D-PAYLOAD-HOLES):
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
#include "gen_int.h"
#include "input.h"
#include "ntsim/capture.h"

typedef struct rec_emit {
    uint32_t type, phase, nc_idx;
    uint64_t tracking_id;
    bool has_seq;
    uint64_t seq;
    bool has_data;
    nrt_sys_trace_event_data_t data;
    uint64_t repeat;
    bool has_returns;         /* expected: the tracking id the call returns */
    uint64_t returns;
} rec_emit_t;

typedef struct rec_case {
    bool capturing;
    uint64_t max_events;
    bool ncs[NTSIM_NC_COUNT];
    bool disabled[NRT_SYS_TRACE_EVENT_TYPE_COUNT];
    uint64_t clock_start, clock_step, thread_id;
    rec_emit_t *emits;
    size_t n_emits;
    int drain_nc;             /* -1: no drain */
    uint64_t drain_max;       /* >= 1 */
    bool stop;
    int stats_nc;             /* -1: no stats */
    bool global, log;
    /* expected, from the reference */
    bool expected;
    nrt_sys_trace_event_t *records;
    size_t n_records;
    ntsim_nc_stats_t stats;
    uint64_t invalid_type, clamped;
    char **lines;
    size_t n_lines;
} rec_case_t;

static void drop_expected(rec_case_t *c)
{
    free(c->records);
    c->records = NULL;
    c->n_records = 0;
    for (size_t i = 0; i < c->n_lines; i++)
        free(c->lines[i]);
    free(c->lines);
    c->lines = NULL;
    c->n_lines = 0;
    for (size_t i = 0; i < c->n_emits; i++)
        c->emits[i].has_returns = false;
    c->expected = false;
}

static void rec_free(void *p)
{
    rec_case_t *c = p;
    if (c == NULL)
        return;
    drop_expected(c);
    free(c->emits);
    free(c);
}

static void *rec_copy(const void *p)
{
    const rec_case_t *s = p;
    rec_case_t *c = malloc(sizeof *c);
    if (c == NULL)
        return NULL;
    *c = *s;
    c->records = NULL;
    c->n_records = 0;
    c->lines = NULL;
    c->n_lines = 0;
    c->expected = false;
    c->emits = malloc((s->n_emits ? s->n_emits : 1) * sizeof *c->emits);
    if (c->emits == NULL) {
        free(c);
        return NULL;
    }
    memcpy(c->emits, s->emits, s->n_emits * sizeof *c->emits);
    for (size_t i = 0; i < c->n_emits; i++)
        c->emits[i].has_returns = false;
    return c;
}

/* start()'s clamp of the ring size (facts §4: [1024, 0x100000]). */
static uint64_t capacity_of(uint64_t max)
{
    return max < 1024 ? 1024 : max > 0x100000 ? 0x100000 : max;
}

static uint32_t some_enabled_nc(gen_rng_t *r, const rec_case_t *c)
{
    uint32_t list[NTSIM_NC_COUNT], n = 0;
    for (uint32_t i = 0; i < NTSIM_NC_COUNT; i++)
        if (c->ncs[i])
            list[n++] = i;
    return n > 0 ? list[gen_below(r, n)] : 0;
}

static void make_session(gen_rng_t *r, rec_case_t *c)
{
    static const uint64_t sizes[] = {0, 10, 1024, 1024, 1025, 1100, 1500, 2000, 2048, 3000, 4096};
    c->capturing = gen_chance(r, 97);
    c->max_events = gen_chance(r, 85) ? sizes[gen_below(r, sizeof sizes / sizeof sizes[0])]
                                      : gen_below(r, 5000);
    static const uint32_t usual[] = {0, 1, 2, 3, 7, 255};
    for (uint64_t k = 1 + gen_below(r, 3); k > 0; k--)
        c->ncs[gen_chance(r, 80) ? usual[gen_below(r, 6)] : gen_below(r, NTSIM_NC_COUNT)] = true;
    if (gen_chance(r, 25))
        for (uint64_t k = 1 + gen_below(r, 3); k > 0; k--)
            c->disabled[gen_below(r, NRT_SYS_TRACE_EVENT_TYPE_COUNT)] = true;
    c->clock_start = gen_chance(r, 60) ? 1000 : gen_chance(r, 30) ? 0 : gen_value(r, 8);
    static const uint64_t steps[] = {0, 1, 7, 1000};
    c->clock_step = gen_chance(r, 85) ? steps[gen_below(r, 4)] : gen_value(r, 4);
    c->thread_id = gen_chance(r, 60) ? 4242 : gen_value(r, 8);
}

static void make_emit(gen_rng_t *r, rec_case_t *c, rec_emit_t *e, uint64_t calls_so_far)
{
    uint64_t pick = gen_below(r, 100);
    if (pick < 75)
        e->nc_idx = some_enabled_nc(r, c);
    else if (pick < 85)
        e->nc_idx = (uint32_t)gen_below(r, NTSIM_NC_COUNT);
    else {
        static const uint32_t past[] = {256, 257, 1000, UINT32_MAX};
        e->nc_idx = gen_chance(r, 70) ? past[gen_below(r, 4)]
                                      : (uint32_t)gen_range(r, 256, UINT32_MAX);
    }
    e->tracking_id = gen_chance(r, 55) ? 0 : gen_value(r, 8);
    if ((e->has_seq = gen_chance(r, 25)))
        e->seq = gen_value(r, 8);
    if ((e->has_data = gen_chance(r, 92)))
        gen_payload(r, e->type, e->phase, &e->data);
    pick = gen_below(r, 100);
    uint64_t cap = capacity_of(c->max_events);
    if (pick < 80)
        e->repeat = 1;
    else if (pick < 92)
        e->repeat = gen_range(r, 2, 20);
    else /* enough to overflow the ring */
        e->repeat = (cap > calls_so_far ? cap - calls_so_far : 1) + gen_range(r, 1, 300);
}

static void *rec_make(gen_rng_t *r, uint64_t j)
{
    rec_case_t *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    make_session(r, c);
    c->n_emits = 1 + gen_below(r, 8);
    if ((c->emits = calloc(c->n_emits, sizeof *c->emits)) == NULL) {
        free(c);
        return NULL;
    }
    uint64_t calls = 0;
    for (size_t i = 0; i < c->n_emits; i++) {
        rec_emit_t *e = &c->emits[i];
        if (i == 0)
            gen_anchor(r, j, &e->type, &e->phase);
        else {
            e->type = gen_type(r);
            e->phase = gen_phase(r);
        }
        make_emit(r, c, e, calls);
        calls += e->repeat;
    }
    c->drain_nc = -1;
    c->stats_nc = -1;
    if (gen_chance(r, 85)) {
        uint32_t target = c->emits[gen_below(r, c->n_emits)].nc_idx;
        c->drain_nc = (int)(gen_chance(r, 70) && target < NTSIM_NC_COUNT ? target
                                                                         : some_enabled_nc(r, c));
        /* Mostly a few records; now and then the whole ring (a vector of
         * thousands of records costs milliseconds to write and read). */
        uint64_t pick = gen_below(r, 100);
        c->drain_max = pick < 64   ? gen_range(r, 1, 16)
                       : pick < 96 ? gen_range(r, 17, 64)
                                   : capacity_of(c->max_events) + 8;
    }
    c->stop = c->capturing && gen_chance(r, 25);
    if (gen_chance(r, 85))
        c->stats_nc = c->drain_nc >= 0 && gen_chance(r, 80) ? c->drain_nc
                                                            : (int)some_enabled_nc(r, c);
    c->global = gen_chance(r, 60);
    c->log = gen_chance(r, 80);
    return c;
}

/* --- the vector text --------------------------------------------------------------------- */

static void write_emit(const rec_emit_t *e, gen_text_t *t)
{
    char tw[64], pw[32];
    gen_printf(t, "      - {type: %s, phase: %s, nc_idx: %u", gen_type_word(e->type, tw, sizeof tw),
               gen_phase_word(e->phase, pw, sizeof pw), e->nc_idx);
    if (e->tracking_id != 0)
        gen_printf(t, ", tracking_id: 0x%" PRIx64, e->tracking_id);
    if (e->has_seq)
        gen_printf(t, ", nrta_seq_id: 0x%" PRIx64, e->seq);
    if (e->has_data)
        gen_data_yaml(t, e->type, e->phase, &e->data);
    if (e->repeat != 1)
        gen_printf(t, ", repeat: %" PRIu64, e->repeat);
    if (e->has_returns)
        gen_printf(t, ", returns: 0x%" PRIx64, e->returns);
    gen_printf(t, "}\n");
}

static void rec_write(const void *p, gen_text_t *t)
{
    const rec_case_t *c = p;
    gen_printf(t, "    expect: valid\n    session: {capturing: %s, max_events_per_nc: %" PRIu64
                  ", ncs: [",
               c->capturing ? "true" : "false", c->max_events);
    const char *sep = "";
    for (int i = 0; i < NTSIM_NC_COUNT; i++)
        if (c->ncs[i]) {
            gen_printf(t, "%s%d", sep, i);
            sep = ", ";
        }
    gen_printf(t, "], disabled_types: [");
    sep = "";
    for (uint32_t i = 0; i < NRT_SYS_TRACE_EVENT_TYPE_COUNT; i++)
        if (c->disabled[i]) {
            char tw[64];
            gen_printf(t, "%s%s", sep, gen_type_word(i, tw, sizeof tw));
            sep = ", ";
        }
    gen_printf(t, "], clock_start_ns: %" PRIu64 ", clock_step_ns: %" PRIu64
                  ", thread_id: %" PRIu64 "}\n    emits:\n",
               c->clock_start, c->clock_step, c->thread_id);
    for (size_t i = 0; i < c->n_emits; i++)
        write_emit(&c->emits[i], t);
    if (c->drain_nc >= 0) {
        gen_printf(t, "    drain: %d\n    drain_max: %" PRIu64 "\n    records:%s\n", c->drain_nc,
                   c->drain_max, c->n_records == 0 ? " []" : "");
        for (size_t i = 0; i < c->n_records; i++) {
            gen_printf(t, "      - ");
            gen_record_hex(t, &c->records[i]);
            gen_printf(t, "\n");
        }
    }
    if (c->stop)
        gen_printf(t, "    stop: true\n");
    if (c->stats_nc >= 0) {
        gen_printf(t, "    stats: {nc_idx: %d", c->stats_nc);
        const ntsim_nc_stats_t *s = &c->stats;
        if (c->expected)
            gen_printf(t,
                       ", capacity: %" PRIu64 ", created: %" PRIu64 ", pushed: %" PRIu64
                       ", overwritten: %" PRIu64 ", drained: %" PRIu64 ", in_ring: %" PRIu64
                       ", busy: %" PRIu64 ", lost_at_stop: %" PRIu64
                       ", first_overwrite_ns: %" PRIu64 ", last_overwrite_ns: %" PRIu64,
                       s->capacity, s->created, s->pushed, s->overwritten, s->drained,
                       s->in_ring, s->busy, s->lost_at_stop, s->first_overwrite_ns,
                       s->last_overwrite_ns);
        gen_printf(t, "}\n");
    }
    if (c->global)
        gen_printf(t, "    global: {invalid_type: %" PRIu64 ", clamped_nc_idx: %" PRIu64 "}\n",
                   c->invalid_type, c->clamped);
    if (c->log) {
        gen_printf(t, "    log: [");
        for (size_t i = 0; i < c->n_lines; i++) {
            gen_printf(t, "%s", i ? ", " : "");
            gen_quoted(t, c->lines[i], strlen(c->lines[i]));
        }
        gen_printf(t, "]\n");
    }
}

/* The facts a vector checks, and only those (vectors/README.md, "Sources"):
 * the record's layout and payloads when records are drained, the tracking
 * id rule when returns are pinned, the ring's policy when it overflows. */
static void rec_source(const void *p, gen_text_t *t)
{
    const rec_case_t *c = p;
    bool returns = false, past_type = false, clamp = false, seq = false;
    uint64_t calls = 0;
    for (size_t i = 0; i < c->n_emits; i++) {
        const rec_emit_t *e = &c->emits[i];
        returns |= e->repeat == 1;
        past_type |= e->type >= NRT_SYS_TRACE_EVENT_TYPE_COUNT;
        clamp |= e->nc_idx >= NTSIM_NC_COUNT;
        seq |= e->has_seq;
        calls += e->repeat;
    }
    if (!c->capturing)
        gen_printf(t, ", F5.emit.state_gate");
    if (returns)
        gen_printf(t, ", S1.record.tracking_id, F5.emit.tracking_id, F5.new_event.returns_tracking, "
                      "D-TRACKING-ZERO");
    if (c->drain_nc >= 0) {
        gen_printf(t, ", S1.record.layout, S1.record.padding, F5.emit.seq, F5.emit.thread_id, "
                      "F5.emit.timestamp, D-IDS, D-PAYLOAD-HOLES, D-CLOCK-READ");
        for (size_t i = 0; i < c->n_emits; i++)
            gen_source_payload(t, c->emits[i].type, c->emits[i].phase);
        if (seq)
            gen_printf(t, ", S1.record.nrta_seq");
    }
    if (past_type)
        gen_printf(t, ", F5.emit.drop, D-WARN-ONCE");
    if (clamp)
        gen_printf(t, ", F5.emit.nc_clamp, D-WARN-ONCE");
    if (calls > capacity_of(c->max_events))
        gen_printf(t, ", F5.emit.force_push, D-RING, D-CLOCK-READ");
    if (c->max_events < 1024 || c->max_events > 0x100000)
        gen_printf(t, ", F4.config.clamp_lower, F4.config.clamp_upper, D-LIFECYCLE");
    if (c->stop)
        gen_printf(t, ", F5.stop, D-LIFECYCLE");
    if (c->stats_nc >= 0)
        gen_printf(t, ", F6.capture.dropped_accounting, D-RING");
    if (c->log || c->global)
        gen_printf(t, ", D-LOG, D-WARN-ONCE");
}

/* --- expected values, invariants -------------------------------------------------------- */

static const NtsimTestee__RecordReply *record_reply(const gen_replies_t *g)
{
    for (size_t i = 0; i < g->count; i++)
        if (g->items[i]->body_case == NTSIM_TESTEE__RESPONSE__BODY_RECORD)
            return g->items[i]->record;
    return NULL;
}

static gen_expect_status_t rec_expect(void *p, const gen_replies_t *ref, char *why, size_t cap)
{
    rec_case_t *c = p;
    const NtsimTestee__RecordReply *m = record_reply(ref);
    drop_expected(c);
    if (m == NULL) {
        snprintf(why, cap, "the reference gave no record reply");
        return GEN_EXPECT_NONE;
    }
    if (c->capturing && (!m->has_start_status || m->start_status != 0)) {
        snprintf(why, cap, "the reference's start() returned %d", m->start_status);
        return GEN_EXPECT_NONE;
    }
    for (size_t i = 0; i < c->n_emits && i < m->n_emits; i++)
        if (c->emits[i].repeat == 1) {
            c->emits[i].has_returns = true;
            c->emits[i].returns = m->emits[i]->returns;
        }
    if (m->n_records > 0 && (c->records = calloc(m->n_records, sizeof *c->records)) == NULL)
        return GEN_EXPECT_NONE;
    for (size_t i = 0; i < m->n_records; i++) {
        if (m->records[i].len != sizeof *c->records) {
            snprintf(why, cap, "the reference drained a record of %zu bytes", m->records[i].len);
            return GEN_EXPECT_NONE;
        }
        memcpy(&c->records[i], m->records[i].data, sizeof *c->records);
    }
    c->n_records = m->n_records;
    if (c->stats_nc >= 0) {
        const NtsimTestee__NcStats *s = m->stats;
        if (s == NULL || s->status != 0) {
            snprintf(why, cap, "the reference's stats of NC %d failed", c->stats_nc);
            return GEN_EXPECT_NONE;
        }
        c->stats = (ntsim_nc_stats_t){s->capacity, s->created, s->pushed, s->overwritten,
                                      s->drained,  s->in_ring, s->busy,   s->lost_at_stop,
                                      s->first_overwrite_ns, s->last_overwrite_ns};
    }
    if (c->global && m->global_stats != NULL) {
        c->invalid_type = m->global_stats->invalid_type;
        c->clamped = m->global_stats->clamped_nc_idx;
    }
    if (c->log && m->log != NULL) {
        c->lines = calloc(m->log->n_lines + 1, sizeof *c->lines);
        if (c->lines == NULL)
            return GEN_EXPECT_NONE;
        /* Errors and warnings: every one must be listed. Info lines may
         * depend on the process (the environment's), and need not be. */
        for (size_t i = 0; i < m->log->n_lines; i++) {
            const char *l = m->log->lines[i];
            if (strncmp(l, "error: ", 7) == 0 || strncmp(l, "warning: ", 9) == 0)
                if ((c->lines[c->n_lines++] = ntsim_strdup(l)) == NULL)
                    return GEN_EXPECT_NONE;
        }
    }
    c->expected = true;
    return GEN_EXPECT_DONE;
}

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

static void rec_check(const void *p, const gen_replies_t *got, const char *who, const char *id,
                      ntsim_report_t *r)
{
    const rec_case_t *c = p;
    const NtsimTestee__RecordReply *m = record_reply(got);
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

/* A number made smaller, as Hypothesis shrinks integers: step i of a
 * ladder tries v - v/2, v - v/4, ... v - 1 (the big cuts first, then ever
 * closer to v, so that a failure that needs "at least N" is found near N).
 * False when the step changes nothing. */
static bool ladder(uint64_t *v, uint64_t floor, size_t i)
{
    if (*v <= floor || i >= 64)
        return false;
    uint64_t d = (*v - floor) >> (i + 1);
    if (d == 0)
        d = i == 0 ? *v - floor : 0;
    if (d == 0)
        return false;
    *v -= d;
    return true;
}

enum { LADDER = 24 };

/* The simplifications of one emit, as step k; false when step k changes
 * nothing (later ones may). */
static bool simpler_emit(rec_emit_t *e, size_t k)
{
    nrt_sys_trace_event_data_t d;
    if (k < LADDER)
        return ladder(&e->repeat, 1, k);
    k -= LADDER;
    switch (k) {
    case 0: if (!e->has_data) return false; e->has_data = false; return true;
    case 1: if (!e->has_seq) return false; e->has_seq = false; return true;
    case 2: if (e->tracking_id == 0) return false; e->tracking_id = 0; return true;
    case 3: if (e->nc_idx == 0) return false; e->nc_idx = 0; return true;
    default:
        if (!e->has_data || !gen_payload_simpler(&e->data, e->type, e->phase, k - 4, &d))
            return false;
        e->data = d;
        return true;
    }
}

static void *rec_shrink(const void *p, size_t k)
{
    const rec_case_t *s = p;
    rec_case_t *c = rec_copy(s);
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
            (void)ladder(&c->max_events, 1024, k);
        return c;
    }
    k -= LADDER;
    if (k < LADDER) {
        (void)ladder(&c->drain_max, 1, k);
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
    rec_free(c);
    return NULL;
}

static size_t rec_size(const void *p)
{
    const rec_case_t *c = p;
    size_t n = 0;
    for (size_t i = 0; i < c->n_emits; i++)
        n += c->emits[i].repeat;
    return n;
}

static void rec_cover(const void *p, gen_cov_t *cov, const gen_replies_t *ref)
{
    const rec_case_t *c = p;
    for (size_t i = 0; i < c->n_emits; i++)
        gen_cov_type_phase(cov, c->emits[i].type, c->emits[i].phase);
    const NtsimTestee__RecordReply *m = record_reply(ref);
    if (m != NULL && m->stats != NULL && m->stats->overwritten > 0)
        cov->overflowed++;
}

const gen_kind_t gen_kind_record = {
    .name = "record",
    .weight = 4,
    .make = rec_make,
    .free = rec_free,
    .copy = rec_copy,
    .write = rec_write,
    .source = rec_source,
    .expect = rec_expect,
    .check = rec_check,
    .shrink = rec_shrink,
    .size = rec_size,
    .size_unit = "emit calls",
    .cover = rec_cover,
};
