/*
 * conformance/generate/gen_payload.c: event types, phases, payloads and
 * records, drawn from the one table (engine/event_table.h): which payload a
 * (type, phase) carries and its fields come from ntsim__event_types and
 * ntsim__payloads, never from a list of the generator's own, so a new type
 * or field is generated the day it is added.
 */
#include <string.h>

#include "event_table.h"
#include "gen_int.h"

enum { PHASES = NRT_SYS_TRACE_EVENT_PHASE_COUNT, TYPES = NRT_SYS_TRACE_EVENT_TYPE_COUNT };

/* A type past the enum: COUNT itself, just above it, or far above. */
static uint32_t type_past(ntsim_gen_rng_t *r)
{
    switch (ntsim_gen_below(r, 4)) {
    case 0: return TYPES;
    case 1: return TYPES + 1 + (uint32_t)ntsim_gen_below(r, 16);
    case 2: return UINT32_MAX;
    default: return (uint32_t)ntsim_gen_range(r, TYPES, UINT32_MAX);
    }
}

static uint32_t phase_past(ntsim_gen_rng_t *r)
{
    switch (ntsim_gen_below(r, 3)) {
    case 0: return PHASES;
    case 1: return UINT32_MAX;
    default: return (uint32_t)ntsim_gen_range(r, PHASES, UINT32_MAX);
    }
}

void ntsim_gen_anchor(ntsim_gen_rng_t *r, uint64_t j, uint32_t *type, uint32_t *phase)
{
    uint64_t slot = j % NTSIM_GEN_ANCHORS;
    uint64_t t = slot / NTSIM_GEN_ANCHOR_PHASES, p = slot % NTSIM_GEN_ANCHOR_PHASES;
    *type = t < TYPES ? (uint32_t)t : type_past(r);
    *phase = p < PHASES ? (uint32_t)p : phase_past(r);
}

uint32_t ntsim_gen_type(ntsim_gen_rng_t *r)
{
    return ntsim_gen_chance(r, 92) ? (uint32_t)ntsim_gen_below(r, TYPES) : type_past(r);
}

uint32_t ntsim_gen_phase(ntsim_gen_rng_t *r)
{
    return ntsim_gen_chance(r, 95) ? (uint32_t)ntsim_gen_below(r, PHASES) : phase_past(r);
}

static void put(uint8_t *p, size_t off, uint64_t v, size_t size)
{
    memcpy(p + off, &v, size); /* little-endian: the low bytes of v */
}

void ntsim_gen_payload(ntsim_gen_rng_t *r, uint32_t type, uint32_t phase, nrt_sys_trace_event_data_t *out)
{
    uint8_t *p = (uint8_t *)out;
    if (ntsim_gen_chance(r, 10)) {
        /* Raw bytes: bools that are neither 0 nor 1, garbage in the holes. */
        for (size_t i = 0; i < sizeof *out; i++)
            p[i] = (uint8_t)ntsim_gen_next(r);
        return;
    }
    static const uint8_t fills[] = {0x00, 0x00, 0xff, 0xaa};
    uint8_t fill = ntsim_gen_chance(r, 80) ? fills[ntsim_gen_below(r, sizeof fills)] : (uint8_t)ntsim_gen_next(r);
    memset(p, fill, sizeof *out);
    const ntsim_payload_desc_t *d = &ntsim__payloads[ntsim__event_payload(type, phase)];
    for (size_t i = 0; i < d->field_count; i++) {
        const ntsim_field_desc_t *f = &d->fields[i];
        switch (f->kind) {
        case NTSIM_FIELD_BOOL:
            p[f->offset] = (uint8_t)ntsim_gen_below(r, 2);
            break;
        case NTSIM_FIELD_SYNC_INFO:
            for (size_t k = 0; k < 2; k++)
                put(p, f->offset + ntsim__sync_info_fields[k].offset, ntsim_gen_value(r, 8), 8);
            break;
        case NTSIM_FIELD_INT: {
            int32_t v = ntsim_gen_int(r);
            memcpy(p + f->offset, &v, 4);
            break;
        }
        case NTSIM_FIELD_USAGE_TYPE:
            /* Mostly a member of the enum (0 .. MAX), sometimes past it. */
            put(p, f->offset,
                ntsim_gen_chance(r, 85) ? ntsim_gen_below(r, DMA_MEM_USAGE_TYPE_MAX + 1) : ntsim_gen_value(r, 4), 4);
            break;
        default:
            put(p, f->offset, ntsim_gen_value(r, (unsigned)f->size), f->size);
            break;
        }
    }
}

void ntsim_gen_record(ntsim_gen_rng_t *r, uint32_t type, uint32_t phase, nrt_sys_trace_event_t *out)
{
    memset(out, 0, sizeof *out);
    out->trace_type = (nrt_sys_trace_event_type_t)type;
    out->phase = (nrt_sys_trace_event_phase_t)phase;
    out->nc_idx = ntsim_gen_chance(r, 85) ? (uint32_t)ntsim_gen_below(r, 8) : (uint32_t)ntsim_gen_value(r, 4);
    uint64_t seq = ntsim_gen_chance(r, 70) ? ntsim_gen_below(r, 2000) : ntsim_gen_value(r, 8);
    /* Mostly what an engine writes (D-IDS), sometimes anything. */
    out->nc_local_id = seq;
    out->id = ntsim_gen_chance(r, 75) ? seq | (uint64_t)out->nc_idx << 50 : ntsim_gen_value(r, 8);
    out->tracking_id = ntsim_gen_chance(r, 60) ? out->id : ntsim_gen_value(r, 8);
    out->thread_id = ntsim_gen_chance(r, 50) ? 4242 : ntsim_gen_value(r, 8);
    out->timestamp_ns = ntsim_gen_chance(r, 60) ? ntsim_gen_range(r, 1000, 10000000) : ntsim_gen_value(r, 8);
    if (ntsim_gen_chance(r, 30)) {
        out->has_nrta_seq_id = true;
        out->nrta_seq_id = ntsim_gen_value(r, 8);
    }
    ntsim_gen_payload(r, type, phase, &out->data);
    if (ntsim_gen_chance(r, 4)) {
        /* Garbage in the record's padding and a has_nrta_seq_id byte that is
         * neither 0 nor 1 (D-FOREIGN-BOOL): written as {hex: ...}. */
        uint8_t *b = (uint8_t *)out;
        for (size_t i = 4; i < 8; i++)
            b[i] = (uint8_t)ntsim_gen_next(r);
        size_t flag = offsetof(nrt_sys_trace_event_t, has_nrta_seq_id);
        for (size_t i = flag + 1; i < sizeof *out; i++)
            b[i] = (uint8_t)ntsim_gen_next(r);
        if (ntsim_gen_chance(r, 50))
            b[flag] = (uint8_t)ntsim_gen_range(r, 2, 255);
    }
}

bool ntsim_gen_payload_simpler(const nrt_sys_trace_event_data_t *in, uint32_t type, uint32_t phase,
                         size_t k, nrt_sys_trace_event_data_t *out)
{
    *out = *in;
    uint8_t *p = (uint8_t *)out;
    const ntsim_payload_desc_t *d = &ntsim__payloads[ntsim__event_payload(type, phase)];
    if (k == 0) {
        memset(out, 0, sizeof *out);
        return memcmp(in, out, sizeof *out) != 0;
    }
    k--;
    /* Then one field at a time: zeroed. */
    if (k < d->field_count) {
        const ntsim_field_desc_t *f = &d->fields[k];
        memset(p + f->offset, 0, f->size);
        return memcmp(in, out, sizeof *out) != 0;
    }
    k -= d->field_count;
    if (k == 0) {
        /* The bytes outside the fields zeroed, the fields kept. */
        nrt_sys_trace_event_data_t z;
        memset(&z, 0, sizeof z);
        for (size_t i = 0; i < d->field_count; i++)
            memcpy((uint8_t *)&z + d->fields[i].offset, p + d->fields[i].offset,
                   d->fields[i].size);
        *out = z;
        return memcmp(in, out, sizeof *out) != 0;
    }
    return false;
}

void ntsim_gen_source_payload(ntsim_gen_text_t *t, uint32_t type, uint32_t phase)
{
    ntsim_payload_id_t pid = ntsim__event_payload(type, phase);
    if (pid != NTSIM_PAYLOAD_NONE)
        ntsim_gen_printf(t, ", S3.%s", ntsim__payloads[pid].member);
    else if (type < TYPES && phase < PHASES)
        ntsim_gen_printf(t, ", S2.no_payload.types, S2.no_payload.stale, D-PHASE");
    else if (type < TYPES)
        ntsim_gen_printf(t, ", D-PHASE"); /* a phase past the enum carries nothing */
}

void ntsim_gen_cov_type_phase(ntsim_gen_cov_t *c, uint32_t type, uint32_t phase)
{
    if (type >= TYPES)
        c->type_past++;
    else if (phase >= PHASES)
        c->phase_past++;
    else
        c->type_phase[type][phase]++;
}
