/*
 * conformance/testee/builtin/testee_engine.c: the built-in testee's dispatcher (see
 * testee_engine.h): unpack a request, answer it with the engine
 * (testee_abi.c, testee_capture.c, testee_convert.c, testee_api.c), pack
 * the response. The hello lists every kind and every capability.
 */
#include "testee_engine.h"

#include <string.h>

#include "capture_fixture.h"
#include "kind_map.h"
#include "testee.h"
#include "testee_engine_int.h"

static NRT_STATUS answer_hello(const NtsimTestee__Request *q, ntsim_arena_t *a,
                               NtsimTestee__Response *out, char *err, size_t cap)
{
    (void)q; /* any version asks the same: the reply says which this one speaks */
    (void)err;
    (void)cap;
    NtsimTestee__HelloReply *h = ntsim_arena_alloc(a, sizeof *h);
    size_t nk = 0, nc = 0;
    while (ntsim_testee_kind_names[nk] != NULL)
        nk++;
    while (ntsim_testee_cap_names[nc] != NULL)
        nc++;
    char **kinds = ntsim_arena_array(a, nk, sizeof *kinds);
    char **caps = ntsim_arena_array(a, nc, sizeof *caps);
    char *name = ntsim_arena_strdup(a, NTSIM_TESTEE_ENGINE_NAME);
    if (h == NULL || kinds == NULL || caps == NULL || name == NULL)
        return NRT_RESOURCE;
    ntsim_testee__hello_reply__init(h);
    /* The tables' strings outlive the packing: no copies needed. */
    memcpy(kinds, ntsim_testee_kind_names, nk * sizeof *kinds);
    memcpy(caps, ntsim_testee_cap_names, nc * sizeof *caps);
    h->protocol_version = NTSIM_TESTEE_PROTOCOL;
    h->name = name;
    h->kinds = kinds;
    h->n_kinds = nk;
    h->capabilities = caps;
    h->n_capabilities = nc;
    out->body_case = NTSIM_TESTEE__RESPONSE__BODY_HELLO;
    out->hello = h;
    return NRT_SUCCESS;
}

/* Indexed by the request's body case (its field number). */
static ntsim_testee_answer_fn answer_for(NtsimTestee__Request__BodyCase c)
{
    switch (c) {
    case NTSIM_TESTEE__REQUEST__BODY_HELLO: return answer_hello;
#define NTSIM_KIND_ANSWER(name, how, body) \
    NTSIM_KIND_IF_JUDGED(how, case NTSIM_TESTEE__REQUEST__BODY_##body : return ntsim__testee_##name;)
        NTSIM_KIND_MAP(NTSIM_KIND_ANSWER)
#undef NTSIM_KIND_ANSWER
    default: return NULL;
    }
}

static NRT_STATUS error_reply(ntsim_arena_t *a, NtsimTestee__Response *out, const char *why)
{
    NtsimTestee__Error *e = ntsim_arena_alloc(a, sizeof *e);
    char *msg = ntsim_arena_strdup(a, why);
    if (e == NULL || msg == NULL)
        return NRT_RESOURCE;
    ntsim_testee__error__init(e);
    e->message = msg;
    out->body_case = NTSIM_TESTEE__RESPONSE__BODY_ERROR;
    out->error = e;
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_testee_engine_serve(const uint8_t *req, size_t len, uint8_t **resp,
                                     size_t *resp_len)
{
    NtsimTestee__Request *q = ntsim_testee__request__unpack(NULL, len, req);
    NtsimTestee__Response out = NTSIM_TESTEE__RESPONSE__INIT;
    ntsim_arena_t a;
    ntsim_arena_init(&a);
    char err[512] = "";
    NRT_STATUS st;
    if (q == NULL) {
        st = error_reply(&a, &out, "the request is not a Request message");
    } else {
        out.id = q->id;
        ntsim_testee_answer_fn fn = answer_for(q->body_case);
        st = fn != NULL ? fn(q, &a, &out, err, sizeof err) : NRT_INVALID;
        if (fn == NULL)
            snprintf(err, sizeof err, "no request in the Request (body field %d)",
                     (int)q->body_case);
        if (st == NRT_INVALID) {
            out.body_case = NTSIM_TESTEE__RESPONSE__BODY__NOT_SET;
            st = error_reply(&a, &out, err);
        }
    }
    *resp = st == NRT_SUCCESS ? ntsim_testee_pack(&out.base, resp_len) : NULL;
    ntsim_arena_free(&a);
    if (q != NULL)
        ntsim_testee__request__free_unpacked(q, NULL);
    return *resp != NULL ? NRT_SUCCESS : NRT_RESOURCE;
}

void ntsim_testee_engine_reset(void)
{
    ntsim__testee_api_reset();
}

/* --- shared by the answers ---------------------------------------------------------- */

NtsimTestee__Log *ntsim__testee_log(ntsim_arena_t *a)
{
    size_t kept = ntsim_fixture.log_count < NTSIM_FIXTURE_LOG_MAX ? ntsim_fixture.log_count
                                                                  : NTSIM_FIXTURE_LOG_MAX;
    NtsimTestee__Log *log = ntsim_arena_alloc(a, sizeof *log);
    char **lines = ntsim_arena_array(a, kept, sizeof *lines);
    if (log == NULL || lines == NULL)
        return NULL;
    ntsim_testee__log__init(log);
    for (size_t i = 0; i < kept; i++)
        if ((lines[i] = ntsim_arena_strdup(a, ntsim_fixture.log[i])) == NULL)
            return NULL;
    log->lines = lines;
    log->n_lines = kept;
    log->count = ntsim_fixture.log_count;
    return log;
}

NtsimTestee__NcStats *ntsim__testee_nc_stats(ntsim_arena_t *a, uint32_t nc_idx)
{
    NtsimTestee__NcStats *m = ntsim_arena_alloc(a, sizeof *m);
    if (m == NULL)
        return NULL;
    ntsim_testee__nc_stats__init(m);
    ntsim_nc_stats_t s;
    m->status = ntsim_capture_nc_stats(nc_idx, &s);
    if (m->status != NRT_SUCCESS)
        return m;
#define NTSIM_TESTEE_STAT(f) (m->has_##f = 1, m->f = s.f)
    NTSIM_TESTEE_STAT(capacity);
    NTSIM_TESTEE_STAT(created);
    NTSIM_TESTEE_STAT(pushed);
    NTSIM_TESTEE_STAT(overwritten);
    NTSIM_TESTEE_STAT(drained);
    NTSIM_TESTEE_STAT(in_ring);
    NTSIM_TESTEE_STAT(busy);
    NTSIM_TESTEE_STAT(lost_at_stop);
    NTSIM_TESTEE_STAT(first_overwrite_ns);
    NTSIM_TESTEE_STAT(last_overwrite_ns);
#undef NTSIM_TESTEE_STAT
    return m;
}

NRT_STATUS ntsim__testee_data(protobuf_c_boolean has, const ProtobufCBinaryData *in,
                              nrt_sys_trace_event_data_t *buf,
                              const nrt_sys_trace_event_data_t **data, char *err, size_t cap)
{
    *data = NULL;
    if (!has)
        return NRT_SUCCESS;
    if (in->len != sizeof *buf) {
        snprintf(err, cap, "data has %zu bytes, not the union's %zu", in->len, sizeof *buf);
        return NRT_INVALID;
    }
    memcpy(buf, in->data, sizeof *buf);
    *data = buf;
    return NRT_SUCCESS;
}

struct ntsim_testee *ntsim_testee_builtin(void)
{
    return ntsim_testee_local(ntsim_testee_engine_serve);
}
