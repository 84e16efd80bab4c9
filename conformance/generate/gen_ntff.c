/*
 * conformance/generate/gen_ntff.c: generated `ntff` cases: records of every
 * (type, phase) with random payloads, trace_infos (any trace and block
 * type, payloads of 0 to 16 bytes), and the ntrace_info options; written in
 * the ntff kind's grammar (conformance/kinds/kind_ntff.c). The expected
 * values are the reference's bytes and protoc's reading of them; the kind's
 * judge decodes the testee's bytes with protoc and compares both.
 *
 * Invariant on each side: the bytes are not empty when there is anything to
 * encode, and protoc reads one `events` entry per record (the reference's
 * reading is its decode; the testee's, when its bytes differ, is protoc's
 * again).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gen_int.h"
#include "kinds.h"

enum { MAX_INFOS = 4, MAX_PAYLOAD = 16 };

typedef struct ntff_info_case {
    int32_t trace_type, block_type;
    uint32_t nc_idx;
    uint8_t payload[MAX_PAYLOAD];
    size_t len;
} ntff_info_case_t;

typedef struct ntff_case {
    nrt_sys_trace_event_t *records;
    size_t n_records;
    ntff_info_case_t infos[MAX_INFOS];
    size_t n_infos;
    uint32_t nd_idx, pid, lnc;
    uint64_t session_id;
    const char *arch;           /* a static string, or NULL */
    /* expected, from the reference */
    bool expected;
    char *decode;
    uint8_t *bytes;
    size_t n_bytes;
} ntff_case_t;

static void drop_expected(ntff_case_t *c)
{
    free(c->decode);
    free(c->bytes);
    c->decode = NULL;
    c->bytes = NULL;
    c->n_bytes = 0;
    c->expected = false;
}

static void ntff_free_case(void *p)
{
    ntff_case_t *c = p;
    if (c == NULL)
        return;
    drop_expected(c);
    free(c->records);
    free(c);
}

static void *ntff_copy(const void *p)
{
    const ntff_case_t *s = p;
    ntff_case_t *c = malloc(sizeof *c);
    if (c == NULL)
        return NULL;
    *c = *s;
    c->decode = NULL;
    c->bytes = NULL;
    c->expected = false;
    c->records = malloc((s->n_records ? s->n_records : 1) * sizeof *c->records);
    if (c->records == NULL) {
        free(c);
        return NULL;
    }
    memcpy(c->records, s->records, s->n_records * sizeof *c->records);
    return c;
}

static void *ntff_make(ntsim_gen_rng_t *r, uint64_t j)
{
    ntff_case_t *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->n_records = ntsim_gen_chance(r, 8) ? 0 : 1 + ntsim_gen_below(r, 4);
    c->records = calloc(c->n_records ? c->n_records : 1, sizeof *c->records);
    if (c->records == NULL) {
        free(c);
        return NULL;
    }
    for (size_t i = 0; i < c->n_records; i++) {
        uint32_t type, phase;
        if (i == 0)
            ntsim_gen_anchor(r, j, &type, &phase);
        else {
            type = ntsim_gen_type(r);
            phase = ntsim_gen_phase(r);
        }
        ntsim_gen_record(r, type, phase, &c->records[i]);
    }
    if (ntsim_gen_chance(r, 40)) {
        c->n_infos = 1 + ntsim_gen_below(r, MAX_INFOS);
        for (size_t i = 0; i < c->n_infos; i++) {
            ntff_info_case_t *x = &c->infos[i];
            x->trace_type = ntsim_gen_chance(r, 70) ? (int32_t)ntsim_gen_below(r, 8) : ntsim_gen_int(r);
            x->block_type = ntsim_gen_chance(r, 70) ? (int32_t)ntsim_gen_below(r, 5) : ntsim_gen_int(r);
            x->nc_idx = ntsim_gen_chance(r, 80) ? (uint32_t)ntsim_gen_below(r, 8) : (uint32_t)ntsim_gen_value(r, 4);
            x->len = ntsim_gen_below(r, MAX_PAYLOAD + 1);
            for (size_t b = 0; b < x->len; b++)
                x->payload[b] = (uint8_t)ntsim_gen_next(r);
        }
    }
    static const char *const arches[] = {"trn1", "trn2", "inf2", ""};
    c->arch = ntsim_gen_chance(r, 60) ? arches[ntsim_gen_below(r, 4)] : NULL;
    c->nd_idx = ntsim_gen_chance(r, 70) ? (uint32_t)ntsim_gen_below(r, 16) : (uint32_t)ntsim_gen_value(r, 4);
    c->pid = ntsim_gen_chance(r, 50) ? 4242 : (uint32_t)ntsim_gen_value(r, 4);
    c->session_id = ntsim_gen_value(r, 8);
    c->lnc = ntsim_gen_chance(r, 70) ? (uint32_t)ntsim_gen_below(r, 3) : (uint32_t)ntsim_gen_value(r, 4);
    return c;
}

static void ntff_write(const void *p, ntsim_gen_text_t *t)
{
    const ntff_case_t *c = p;
    ntsim_gen_printf(t, "    expect: valid\n    options: {nd_idx: %u", c->nd_idx);
    if (c->arch != NULL) {
        ntsim_gen_printf(t, ", arch: ");
        ntsim_gen_quoted(t, c->arch, strlen(c->arch));
    }
    ntsim_gen_printf(t, ", pid: %u, session_id: %" PRIu64 ", logical_nc_size: %u}\n", c->pid,
               c->session_id, c->lnc);
    ntsim_gen_printf(t, "    records:%s\n", c->n_records == 0 ? " []" : "");
    for (size_t i = 0; i < c->n_records; i++) {
        ntsim_gen_printf(t, "      - ");
        ntsim_gen_record_yaml(t, &c->records[i]);
        ntsim_gen_printf(t, "\n");
    }
    if (c->n_infos > 0) {
        ntsim_gen_printf(t, "    infos:\n");
        for (size_t i = 0; i < c->n_infos; i++) {
            const ntff_info_case_t *x = &c->infos[i];
            ntsim_gen_printf(t, "      - {trace_type: %d, block_type: %d, nc_idx: %u, payload: \"",
                       x->trace_type, x->block_type, x->nc_idx);
            ntsim_gen_hex(t, x->payload, x->len, 0);
            ntsim_gen_printf(t, "\"}\n");
        }
    }
    ntsim_gen_printf(t, "    decode: ");
    if (c->expected)
        ntsim_gen_quoted(t, c->decode, strlen(c->decode));
    else
        ntsim_gen_printf(t, "\"(the reference's)\"");
    ntsim_gen_printf(t, "\n");
    if (c->expected) {
        ntsim_gen_printf(t, "    bytes: \"");
        ntsim_gen_hex(t, c->bytes, c->n_bytes, 0);
        ntsim_gen_printf(t, "\"\n");
    }
}

static void ntff_source(const void *p, ntsim_gen_text_t *t)
{
    const ntff_case_t *c = p;
    ntsim_gen_printf(t, ", F3.ntrace_info.fields, F3.ntrace_event.fields, F3.event_to_proto.switch, "
                  "F3.event_to_proto.flow, F3.map_entries, F3.interned_data_db.id_map, "
                  "F6.ntff.field_numbers, D-NTFF-SYNTAX, D-NTFF-FIELDS, D-NTFF-EVENT, "
                  "D-NTFF-EVENT-TYPE, D-NTFF-INTERN, D-JSON-DATA");
    for (size_t i = 0; i < c->n_records; i++)
        ntsim_gen_source_payload(t, (uint32_t)c->records[i].trace_type, (uint32_t)c->records[i].phase);
    if (c->n_infos > 0)
        ntsim_gen_printf(t, ", F3.trace_info.fields");
}

static const NtsimTestee__NtffReply *ntff_reply(const ntsim_gen_replies_t *g)
{
    for (size_t i = 0; i < g->count; i++)
        if (g->items[i]->body_case == NTSIM_TESTEE__RESPONSE__BODY_NTFF)
            return g->items[i]->ntff;
    return NULL;
}

static ntsim_gen_expect_status_t ntff_expect(void *p, const ntsim_gen_replies_t *ref, char *why, size_t cap)
{
    ntff_case_t *c = p;
    const NtsimTestee__NtffReply *m = ntff_reply(ref);
    drop_expected(c);
    if (m == NULL || m->status != 0 || !m->has_ntff) {
        snprintf(why, cap, "the reference did not encode (status %d)", m ? m->status : -1);
        return NTSIM_GEN_EXPECT_NONE;
    }
    if ((c->bytes = malloc(m->ntff.len ? m->ntff.len : 1)) == NULL)
        return NTSIM_GEN_EXPECT_NONE;
    memcpy(c->bytes, m->ntff.data, m->ntff.len);
    c->n_bytes = m->ntff.len;
    char err[512];
    if ((c->decode = ntsim_ntff_decode("ntrace_info", c->bytes, c->n_bytes, err, sizeof err)) ==
        NULL) {
        snprintf(why, cap, "protoc cannot read the reference's bytes: %s", err);
        return NTSIM_GEN_EXPECT_NONE;
    }
    c->expected = true;
    return NTSIM_GEN_EXPECT_DONE;
}

/* How many lines of protoc's text open an `events {` entry at the top level. */
static size_t count_events(const char *text)
{
    size_t n = strncmp(text, "events {", 8) == 0;
    for (const char *p = text; (p = strstr(p, "\nevents {")) != NULL; p++)
        n++;
    return n;
}

static void ntff_check(const void *p, const ntsim_gen_replies_t *got, const char *who, const char *id,
                       ntsim_report_t *r)
{
    const ntff_case_t *c = p;
    const NtsimTestee__NtffReply *m = ntff_reply(got);
    if (m == NULL || m->status != 0 || !m->has_ntff)
        return;
    char err[512];
    char *text = ntsim_ntff_decode("ntrace_info", m->ntff.data, m->ntff.len, err, sizeof err);
    if (text == NULL)
        return; /* the judge says protoc cannot read them */
    size_t n = count_events(text);
    if (n != c->n_records)
        ntsim_report_add(r, id, "invariant", "%s: protoc reads %zu events for %zu records "
                         "(F3.ntrace_info.fields)", who, n, c->n_records);
    free(text);
}

static void *ntff_shrink(const void *p, size_t k)
{
    const ntff_case_t *s = p;
    ntff_case_t *c = ntff_copy(s);
    if (c == NULL)
        return NULL;
    size_t n = c->n_records;
    if (k < 2) {
        if (n >= 2) {
            size_t from = k == 0 ? n / 2 : 0, cut = k == 0 ? n - n / 2 : n / 2;
            memmove(&c->records[from], &c->records[from + cut],
                    (n - from - cut) * sizeof *c->records);
            c->n_records -= cut;
        }
        return c;
    }
    k -= 2;
    if (k < n) {
        memmove(&c->records[k], &c->records[k + 1], (n - k - 1) * sizeof *c->records);
        c->n_records--;
        return c;
    }
    k -= n;
    if (k < c->n_infos) {
        memmove(&c->infos[k], &c->infos[k + 1], (c->n_infos - k - 1) * sizeof *c->infos);
        c->n_infos--;
        return c;
    }
    k -= c->n_infos;
    enum { PER_RECORD = 16 };
    if (k < n * PER_RECORD) {
        nrt_sys_trace_event_t *e = &c->records[k / PER_RECORD];
        size_t step = k % PER_RECORD;
        nrt_sys_trace_event_data_t d;
        if (step == 0)
            e->id = e->nc_local_id = e->tracking_id = 0;
        else if (step == 1)
            e->timestamp_ns = e->thread_id = 0;
        else if (step == 2)
            e->has_nrta_seq_id = false, e->nrta_seq_id = 0;
        else if (ntsim_gen_payload_simpler(&e->data, (uint32_t)e->trace_type, (uint32_t)e->phase,
                                     step - 3, &d))
            e->data = d;
        return c;
    }
    k -= n * PER_RECORD;
    switch (k) {
    case 0: c->arch = NULL; return c;
    case 1: c->nd_idx = c->pid = c->lnc = 0; c->session_id = 0; return c;
    default: ntff_free_case(c); return NULL;
    }
}

static size_t ntff_size(const void *p)
{
    const ntff_case_t *c = p;
    return c->n_records + c->n_infos;
}

static void ntff_cover(const void *p, ntsim_gen_cov_t *cov, const ntsim_gen_replies_t *ref)
{
    (void)ref;
    const ntff_case_t *c = p;
    for (size_t i = 0; i < c->n_records; i++)
        ntsim_gen_cov_type_phase(cov, (uint32_t)c->records[i].trace_type,
                           (uint32_t)c->records[i].phase);
}

const ntsim_gen_kind_t ntsim_gen_kind_ntff = {
    .name = "ntff",
    .weight = 1,
    .make = ntff_make,
    .free = ntff_free_case,
    .copy = ntff_copy,
    .write = ntff_write,
    .source = ntff_source,
    .expect = ntff_expect,
    .check = ntff_check,
    .shrink = ntff_shrink,
    .size = ntff_size,
    .size_unit = "records and trace_infos",
    .cover = ntff_cover,
};
