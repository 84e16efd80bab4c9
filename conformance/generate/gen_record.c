/*
 * conformance/generate/gen_record.c: generated `record` cases: a session
 * (capturing or not, a ring small enough to overflow, some NCs, some types
 * disabled, the virtual clock and thread id), emit calls of every (type,
 * phase) with random payloads, NCs past 255 and types past the enum, a drain
 * into a buffer of some capacity, stop(), the counters and the log; written
 * in the record kind's grammar (conformance/kinds/kind_record.c); the
 * invariants and the shrinking are gen_record_check.c's.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "event_table.h"
#include "gen_record.h"
#include "input.h"

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

void ntsim_gen_record_free(void *p)
{
    rec_case_t *c = p;
    if (c == NULL)
        return;
    drop_expected(c);
    free(c->emits);
    free(c);
}

void *ntsim_gen_record_copy(const void *p)
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
uint64_t ntsim_gen_record_capacity(uint64_t max)
{
    return max < 1024 ? 1024 : max > 0x100000 ? 0x100000 : max;
}

static uint32_t some_enabled_nc(ntsim_gen_rng_t *r, const rec_case_t *c)
{
    uint32_t list[NTSIM_NC_COUNT], n = 0;
    for (uint32_t i = 0; i < NTSIM_NC_COUNT; i++)
        if (c->ncs[i])
            list[n++] = i;
    return n > 0 ? list[ntsim_gen_below(r, n)] : 0;
}

static void make_session(ntsim_gen_rng_t *r, rec_case_t *c)
{
    static const uint64_t sizes[] = {0, 10, 1024, 1024, 1025, 1100, 1500, 2000, 2048, 3000, 4096};
    c->capturing = ntsim_gen_chance(r, 97);
    c->max_events = ntsim_gen_chance(r, 85) ? sizes[ntsim_gen_below(r, sizeof sizes / sizeof sizes[0])]
                                      : ntsim_gen_below(r, 5000);
    static const uint32_t usual[] = {0, 1, 2, 3, 7, 255};
    for (uint64_t k = 1 + ntsim_gen_below(r, 3); k > 0; k--)
        c->ncs[ntsim_gen_chance(r, 80) ? usual[ntsim_gen_below(r, 6)] : ntsim_gen_below(r, NTSIM_NC_COUNT)] = true;
    if (ntsim_gen_chance(r, 25))
        for (uint64_t k = 1 + ntsim_gen_below(r, 3); k > 0; k--)
            c->disabled[ntsim_gen_below(r, NRT_SYS_TRACE_EVENT_TYPE_COUNT)] = true;
    c->clock_start = ntsim_gen_chance(r, 60) ? 1000 : ntsim_gen_chance(r, 30) ? 0 : ntsim_gen_value(r, 8);
    static const uint64_t steps[] = {0, 1, 7, 1000};
    c->clock_step = ntsim_gen_chance(r, 85) ? steps[ntsim_gen_below(r, 4)] : ntsim_gen_value(r, 4);
    c->thread_id = ntsim_gen_chance(r, 60) ? 4242 : ntsim_gen_value(r, 8);
}

static void make_emit(ntsim_gen_rng_t *r, rec_case_t *c, rec_emit_t *e, uint64_t calls_so_far)
{
    uint64_t pick = ntsim_gen_below(r, 100);
    if (pick < 75)
        e->nc_idx = some_enabled_nc(r, c);
    else if (pick < 85)
        e->nc_idx = (uint32_t)ntsim_gen_below(r, NTSIM_NC_COUNT);
    else {
        static const uint32_t past[] = {256, 257, 1000, UINT32_MAX};
        e->nc_idx = ntsim_gen_chance(r, 70) ? past[ntsim_gen_below(r, 4)]
                                      : (uint32_t)ntsim_gen_range(r, 256, UINT32_MAX);
    }
    e->tracking_id = ntsim_gen_chance(r, 55) ? 0 : ntsim_gen_value(r, 8);
    if ((e->has_seq = ntsim_gen_chance(r, 25)))
        e->seq = ntsim_gen_value(r, 8);
    if ((e->has_data = ntsim_gen_chance(r, 92)))
        ntsim_gen_payload(r, e->type, e->phase, &e->data);
    pick = ntsim_gen_below(r, 100);
    uint64_t cap = ntsim_gen_record_capacity(c->max_events);
    if (pick < 80)
        e->repeat = 1;
    else if (pick < 92)
        e->repeat = ntsim_gen_range(r, 2, 20);
    else /* enough to overflow the ring */
        e->repeat = (cap > calls_so_far ? cap - calls_so_far : 1) + ntsim_gen_range(r, 1, 300);
}

static void *rec_make(ntsim_gen_rng_t *r, uint64_t j)
{
    rec_case_t *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    make_session(r, c);
    c->n_emits = 1 + ntsim_gen_below(r, 8);
    if ((c->emits = calloc(c->n_emits, sizeof *c->emits)) == NULL) {
        free(c);
        return NULL;
    }
    uint64_t calls = 0;
    for (size_t i = 0; i < c->n_emits; i++) {
        rec_emit_t *e = &c->emits[i];
        if (i == 0)
            ntsim_gen_anchor(r, j, &e->type, &e->phase);
        else {
            e->type = ntsim_gen_type(r);
            e->phase = ntsim_gen_phase(r);
        }
        make_emit(r, c, e, calls);
        calls += e->repeat;
    }
    c->drain_nc = -1;
    c->stats_nc = -1;
    if (ntsim_gen_chance(r, 85)) {
        uint32_t target = c->emits[ntsim_gen_below(r, c->n_emits)].nc_idx;
        c->drain_nc = (int)(ntsim_gen_chance(r, 70) && target < NTSIM_NC_COUNT ? target
                                                                         : some_enabled_nc(r, c));
        /* Mostly a few records; now and then the whole ring (a vector of
         * thousands of records costs milliseconds to write and read). */
        uint64_t pick = ntsim_gen_below(r, 100);
        c->drain_max = pick < 64   ? ntsim_gen_range(r, 1, 16)
                       : pick < 96 ? ntsim_gen_range(r, 17, 64)
                                   : ntsim_gen_record_capacity(c->max_events) + 8;
    }
    c->stop = c->capturing && ntsim_gen_chance(r, 25);
    if (ntsim_gen_chance(r, 85))
        c->stats_nc = c->drain_nc >= 0 && ntsim_gen_chance(r, 80) ? c->drain_nc
                                                            : (int)some_enabled_nc(r, c);
    c->global = ntsim_gen_chance(r, 60);
    c->log = ntsim_gen_chance(r, 80);
    return c;
}

/* --- the vector text --------------------------------------------------------------------- */

static void write_emit(const rec_emit_t *e, ntsim_gen_text_t *t)
{
    char tw[64], pw[32];
    ntsim_gen_printf(t, "      - {type: %s, phase: %s, nc_idx: %u", ntsim_gen_type_word(e->type, tw, sizeof tw),
               ntsim_gen_phase_word(e->phase, pw, sizeof pw), e->nc_idx);
    if (e->tracking_id != 0)
        ntsim_gen_printf(t, ", tracking_id: 0x%" PRIx64, e->tracking_id);
    if (e->has_seq)
        ntsim_gen_printf(t, ", nrta_seq_id: 0x%" PRIx64, e->seq);
    if (e->has_data)
        ntsim_gen_data_yaml(t, e->type, e->phase, &e->data);
    if (e->repeat != 1)
        ntsim_gen_printf(t, ", repeat: %" PRIu64, e->repeat);
    if (e->has_returns)
        ntsim_gen_printf(t, ", returns: 0x%" PRIx64, e->returns);
    ntsim_gen_printf(t, "}\n");
}

static void rec_write(const void *p, ntsim_gen_text_t *t)
{
    const rec_case_t *c = p;
    ntsim_gen_printf(t, "    expect: valid\n    session: {capturing: %s, max_events_per_nc: %" PRIu64
                  ", ncs: [",
               c->capturing ? "true" : "false", c->max_events);
    const char *sep = "";
    for (int i = 0; i < NTSIM_NC_COUNT; i++)
        if (c->ncs[i]) {
            ntsim_gen_printf(t, "%s%d", sep, i);
            sep = ", ";
        }
    ntsim_gen_printf(t, "], disabled_types: [");
    sep = "";
    for (uint32_t i = 0; i < NRT_SYS_TRACE_EVENT_TYPE_COUNT; i++)
        if (c->disabled[i]) {
            char tw[64];
            ntsim_gen_printf(t, "%s%s", sep, ntsim_gen_type_word(i, tw, sizeof tw));
            sep = ", ";
        }
    ntsim_gen_printf(t, "], clock_start_ns: %" PRIu64 ", clock_step_ns: %" PRIu64
                  ", thread_id: %" PRIu64 "}\n    emits:\n",
               c->clock_start, c->clock_step, c->thread_id);
    for (size_t i = 0; i < c->n_emits; i++)
        write_emit(&c->emits[i], t);
    if (c->drain_nc >= 0) {
        ntsim_gen_printf(t, "    drain: %d\n    drain_max: %" PRIu64 "\n    records:%s\n", c->drain_nc,
                   c->drain_max, c->n_records == 0 ? " []" : "");
        for (size_t i = 0; i < c->n_records; i++) {
            ntsim_gen_printf(t, "      - ");
            ntsim_gen_record_hex(t, &c->records[i]);
            ntsim_gen_printf(t, "\n");
        }
    }
    if (c->stop)
        ntsim_gen_printf(t, "    stop: true\n");
    if (c->stats_nc >= 0) {
        ntsim_gen_printf(t, "    stats: {nc_idx: %d", c->stats_nc);
        const ntsim_nc_stats_t *s = &c->stats;
        if (c->expected)
            ntsim_gen_printf(t,
                       ", capacity: %" PRIu64 ", created: %" PRIu64 ", pushed: %" PRIu64
                       ", overwritten: %" PRIu64 ", drained: %" PRIu64 ", in_ring: %" PRIu64
                       ", busy: %" PRIu64 ", lost_at_stop: %" PRIu64
                       ", first_overwrite_ns: %" PRIu64 ", last_overwrite_ns: %" PRIu64,
                       s->capacity, s->created, s->pushed, s->overwritten, s->drained,
                       s->in_ring, s->busy, s->lost_at_stop, s->first_overwrite_ns,
                       s->last_overwrite_ns);
        ntsim_gen_printf(t, "}\n");
    }
    if (c->global)
        ntsim_gen_printf(t, "    global: {invalid_type: %" PRIu64 ", clamped_nc_idx: %" PRIu64 "}\n",
                   c->invalid_type, c->clamped);
    if (c->log) {
        ntsim_gen_log_write(t, "    ", c->lines, c->n_lines);
        ntsim_gen_printf(t, "\n");
    }
}

/* The facts a vector checks, and only those (vectors/README.md, "Sources"):
 * the record's layout and payloads when records are drained, the tracking
 * id rule when returns are pinned, the ring's policy when it overflows. */
static void rec_source(const void *p, ntsim_gen_text_t *t)
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
        ntsim_gen_printf(t, ", F5.emit.state_gate");
    if (returns)
        ntsim_gen_printf(t, ", S1.record.tracking_id, F5.emit.tracking_id, F5.new_event.returns_tracking, "
                      "D-TRACKING-ZERO");
    if (c->drain_nc >= 0) {
        ntsim_gen_printf(t, ", S1.record.layout, S1.record.padding, F5.emit.seq, F5.emit.thread_id, "
                      "F5.emit.timestamp, D-IDS, D-PAYLOAD-HOLES, D-CLOCK-READ");
        for (size_t i = 0; i < c->n_emits; i++)
            ntsim_gen_source_payload(t, c->emits[i].type, c->emits[i].phase);
        if (seq)
            ntsim_gen_printf(t, ", S1.record.nrta_seq");
    }
    if (past_type)
        ntsim_gen_printf(t, ", F5.emit.drop, D-WARN-ONCE");
    if (clamp)
        ntsim_gen_printf(t, ", F5.emit.nc_clamp, D-WARN-ONCE");
    if (calls > ntsim_gen_record_capacity(c->max_events))
        ntsim_gen_printf(t, ", F5.emit.force_push, D-RING, D-CLOCK-READ");
    if (c->max_events < 1024 || c->max_events > 0x100000)
        ntsim_gen_printf(t, ", F4.config.clamp_lower, F4.config.clamp_upper, D-LIFECYCLE");
    if (c->stop)
        ntsim_gen_printf(t, ", F5.stop, D-LIFECYCLE");
    if (c->stats_nc >= 0)
        ntsim_gen_printf(t, ", F6.capture.dropped_accounting, D-RING");
    if (c->log || c->global)
        ntsim_gen_printf(t, ", D-LOG, D-LOG-CONTRACT, D-WARN-ONCE, D-EMIT-GATES");
}

/* --- expected values, invariants -------------------------------------------------------- */

const NtsimTestee__RecordReply *ntsim_gen_record_reply(const ntsim_gen_replies_t *g)
{
    for (size_t i = 0; i < g->count; i++)
        if (g->items[i]->body_case == NTSIM_TESTEE__RESPONSE__BODY_RECORD)
            return g->items[i]->record;
    return NULL;
}

static ntsim_gen_expect_status_t rec_expect(void *p, const ntsim_gen_replies_t *ref, char *why, size_t cap)
{
    rec_case_t *c = p;
    const NtsimTestee__RecordReply *m = ntsim_gen_record_reply(ref);
    drop_expected(c);
    if (m == NULL) {
        snprintf(why, cap, "the reference gave no record reply");
        return NTSIM_GEN_EXPECT_NONE;
    }
    if (c->capturing && (!m->has_start_status || m->start_status != 0)) {
        snprintf(why, cap, "the reference's start() returned %d", m->start_status);
        return NTSIM_GEN_EXPECT_NONE;
    }
    for (size_t i = 0; i < c->n_emits && i < m->n_emits; i++)
        if (c->emits[i].repeat == 1) {
            c->emits[i].has_returns = true;
            c->emits[i].returns = m->emits[i]->returns;
        }
    if (m->n_records > 0 && (c->records = calloc(m->n_records, sizeof *c->records)) == NULL)
        return NTSIM_GEN_EXPECT_NONE;
    for (size_t i = 0; i < m->n_records; i++) {
        if (m->records[i].len != sizeof *c->records) {
            snprintf(why, cap, "the reference drained a record of %zu bytes", m->records[i].len);
            return NTSIM_GEN_EXPECT_NONE;
        }
        memcpy(&c->records[i], m->records[i].data, sizeof *c->records);
    }
    c->n_records = m->n_records;
    if (c->stats_nc >= 0) {
        const NtsimTestee__NcStats *s = m->stats;
        if (s == NULL || s->status != 0) {
            snprintf(why, cap, "the reference's stats of NC %d failed", c->stats_nc);
            return NTSIM_GEN_EXPECT_NONE;
        }
        c->stats = (ntsim_nc_stats_t){s->capacity, s->created, s->pushed, s->overwritten,
                                      s->drained,  s->in_ring, s->busy,   s->lost_at_stop,
                                      s->first_overwrite_ns, s->last_overwrite_ns};
    }
    if (c->global && m->global_stats != NULL) {
        c->invalid_type = m->global_stats->invalid_type;
        c->clamped = m->global_stats->clamped_nc_idx;
    }
    /* Errors and warnings, each by its level and what the contract lets a
     * check demand of it (D-LOG-CONTRACT). */
    if (c->log && m->log != NULL &&
        !ntsim_gen_log_entries(m->log, &c->lines, &c->n_lines, why, cap))
        return NTSIM_GEN_EXPECT_NONE;
    c->expected = true;
    return NTSIM_GEN_EXPECT_DONE;
}

const ntsim_gen_kind_t ntsim_gen_kind_record = {
    .name = "record",
    .weight = 4,
    .make = rec_make,
    .free = ntsim_gen_record_free,
    .copy = ntsim_gen_record_copy,
    .write = rec_write,
    .source = rec_source,
    .expect = rec_expect,
    .check = ntsim_gen_record_check,
    .shrink = ntsim_gen_record_shrink,
    .size = ntsim_gen_record_size,
    .size_unit = "emit calls",
    .cover = ntsim_gen_record_cover,
};
