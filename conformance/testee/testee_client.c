/*
 * conformance/testee/testee_client.c: the runner's side of the testee protocol
 * (testee.h): request ids, hello, the in-process testee, restarts, and the
 * verdicts on a testee that misbehaves.
 *
 * An exchange, in either mode: the request gets the next id and is packed;
 * the bytes go to the handler (in process: ntsim_testee_engine_serve, the
 * function `ntsim testee` calls per frame) or over the pipe; the bytes that
 * come back are unpacked and must carry the same id. A process that fails
 * any step is stopped; the next exchange starts it again.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "kind_map.h"
#include "testee_int.h"

static const char *body_name(NtsimTestee__Request__BodyCase c)
{
    switch (c) {
    case NTSIM_TESTEE__REQUEST__BODY_HELLO: return "hello";
#define NTSIM_KIND_BODY_NAME(name, how, body) \
    NTSIM_KIND_IF_JUDGED(how, case NTSIM_TESTEE__REQUEST__BODY_##body : return #name;)
        NTSIM_KIND_MAP(NTSIM_KIND_BODY_NAME)
#undef NTSIM_KIND_BODY_NAME
    default: return "no body";
    }
}

/* --- the hello ------------------------------------------------------------------ */

/* The bits of the names in table (bit b: table[b]); false, with why, for a
 * name the table lacks: a misspelled kind ("Layout", "json ") must not
 * quietly become a testee that answers nothing. */
static bool name_bits(char **names, size_t n, const char *const *table, const char *what,
                      unsigned *bits, char *why, size_t cap)
{
    *bits = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned b = 0;
        while (table[b] != NULL && strcmp(names[i], table[b]) != 0)
            b++;
        if (table[b] == NULL) {
            char shown[4 * 64 + 4], known[256] = "";
            ntsim_text_escape(names[i], strlen(names[i]), 64, shown);
            for (unsigned k = 0; table[k] != NULL; k++)
                snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s",
                         k ? ", " : "", table[k]);
            snprintf(why, cap, "its hello names an unknown %s '%s' (known: %s)", what, shown,
                     known);
            return false;
        }
        *bits |= 1u << b;
    }
    return true;
}

static NRT_STATUS roundtrip(ntsim_testee_t *t, NtsimTestee__Request *req,
                            NtsimTestee__Response **out, char *why, size_t cap);

static NRT_STATUS hello(ntsim_testee_t *t, char *why, size_t cap)
{
    NtsimTestee__Hello h = NTSIM_TESTEE__HELLO__INIT;
    h.protocol_version = NTSIM_TESTEE_PROTOCOL;
    NtsimTestee__Request req = NTSIM_TESTEE__REQUEST__INIT;
    req.body_case = NTSIM_TESTEE__REQUEST__BODY_HELLO;
    req.hello = &h;
    NtsimTestee__Response *resp = NULL;
    char what[512];
    if (roundtrip(t, &req, &resp, what, sizeof what) != NRT_SUCCESS) {
        snprintf(why, cap, "its hello failed: it %s", what);
        return NRT_FAILURE;
    }
    NRT_STATUS st = NRT_FAILURE;
    if (resp->body_case != NTSIM_TESTEE__RESPONSE__BODY_HELLO)
        snprintf(why, cap, "it answered hello with another reply (field %d)",
                 (int)resp->body_case);
    else if (resp->hello->protocol_version != NTSIM_TESTEE_PROTOCOL)
        snprintf(why, cap, "it speaks protocol %u, the runner %d",
                 resp->hello->protocol_version, NTSIM_TESTEE_PROTOCOL);
    else {
        const NtsimTestee__HelloReply *h2 = resp->hello;
        /* The name is printed in the run's header: escaped, as all text from
         * a testee is (it must not forge a line of the runner's output). */
        if (h2->name != NULL)
            ntsim_text_escape(h2->name, strlen(h2->name), (sizeof t->name - 4) / 4, t->name);
        else
            snprintf(t->name, sizeof t->name, "(no name)");
        if (name_bits(h2->kinds, h2->n_kinds, ntsim_testee_kind_names, "kind", &t->kinds, why,
                      cap) &&
            name_bits(h2->capabilities, h2->n_capabilities, ntsim_testee_cap_names, "capability",
                      &t->caps, why, cap))
            st = NRT_SUCCESS;
    }
    ntsim_testee_reply_free(resp);
    if (st != NRT_SUCCESS && t->command != NULL)
        (void)ntsim_testee_pipe_stop(t, false); /* killed: its status says nothing */
    return st;
}

/* Starts the process and says hello; counts the failures in a row. */
static NRT_STATUS start(ntsim_testee_t *t, char *why, size_t cap)
{
    t->starts++;
    t->next_id = 1;
    NRT_STATUS st = ntsim_testee_pipe_start(t, why, cap);
    if (st == NRT_SUCCESS)
        st = hello(t, why, cap);
    if (st == NRT_SUCCESS) {
        t->failed_starts = 0;
        return st;
    }
    t->failed_starts++;
    snprintf(t->start_error, sizeof t->start_error, "%s", why);
    return st;
}

/* --- testees -------------------------------------------------------------------------- */

ntsim_testee_t *ntsim_testee_local(ntsim_testee_serve_fn serve)
{
    static ntsim_testee_t local;
    static bool ready;
    if (!ready) {
        local.serve = serve;
        local.to_fd = local.from_fd = -1;
        local.running = true;
        local.starts = 1;
        local.next_id = 1;
        char why[256];
        /* The handler answers hello from constants: it cannot fail. */
        if (hello(&local, why, sizeof why) != NRT_SUCCESS)
            snprintf(local.name, sizeof local.name, "in process (hello failed: %.100s)", why);
        ready = true;
    }
    return &local;
}

void ntsim_testee_set_timeout(ntsim_testee_t *t, unsigned timeout_ms)
{
    t->timeout_ms = timeout_ms;
}

void ntsim_testee_set_max_timeouts(ntsim_testee_t *t, unsigned max_timeouts)
{
    t->max_timeouts = max_timeouts;
}

void ntsim_testee_set_max_total_timeouts(ntsim_testee_t *t, unsigned max_total)
{
    t->max_total_timeouts = max_total;
}

/* Why t is given up on, into why; false when it is not. */
static bool given_up(const ntsim_testee_t *t, char *why, size_t cap)
{
    if (t->command == NULL)
        return false;
    if (t->max_timeouts > 0 && t->timeouts >= t->max_timeouts)
        snprintf(why, cap, "is given up on: %u requests in a row were not answered within %u ms",
                 t->timeouts, t->timeout_ms);
    else if (t->max_total_timeouts > 0 && t->total_timeouts >= t->max_total_timeouts)
        snprintf(why, cap, "is given up on: %u requests in all were not answered within %u ms "
                           "(--testee-max-total-timeouts)",
                 t->total_timeouts, t->timeout_ms);
    else if (!t->running && t->failed_starts >= NTSIM_TESTEE_MAX_FAILED_STARTS)
        snprintf(why, cap, "is not running: its last %u starts failed (%s)", t->failed_starts,
                 t->start_error);
    else
        return false;
    return true;
}

bool ntsim_testee_given_up(const ntsim_testee_t *t)
{
    char why[8];
    return given_up(t, why, sizeof why);
}

NRT_STATUS ntsim_testee_spawn(const char *command, unsigned timeout_ms, ntsim_testee_t **out,
                              char *why, size_t cap)
{
    *out = NULL;
    ntsim_testee_t *t = calloc(1, sizeof *t);
    if (t == NULL || (t->command = ntsim_strdup(command)) == NULL) {
        free(t);
        snprintf(why, cap, "out of memory");
        return NRT_RESOURCE;
    }
    t->to_fd = t->from_fd = -1;
    t->timeout_ms = timeout_ms;
    t->max_timeouts = NTSIM_TESTEE_MAX_TIMEOUTS;
    t->max_total_timeouts = NTSIM_TESTEE_MAX_TOTAL_TIMEOUTS;
    /* A testee that dies mid-write must give EPIPE, not kill the runner. */
    (void)signal(SIGPIPE, SIG_IGN);
    NRT_STATUS st = start(t, why, cap);
    if (st != NRT_SUCCESS) {
        ntsim_testee_free(t);
        return st;
    }
    *out = t;
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_testee_close(ntsim_testee_t *t, char *why, size_t cap)
{
    if (t->command == NULL || !t->running)
        return NRT_SUCCESS;
    int status = ntsim_testee_pipe_stop(t, true);
    if (status == 0)
        return NRT_SUCCESS;
    if (status < 0)
        snprintf(why, cap, "did not exit within %u ms of the end of its stdin (killed)",
                 t->timeout_ms);
    else
        ntsim_testee_describe_status(status, t->via_shell, why, cap);
    return NRT_FAILURE;
}

void ntsim_testee_free(ntsim_testee_t *t)
{
    if (t == NULL || t->command == NULL)
        return;
    (void)ntsim_testee_pipe_stop(t, true); /* the status is ntsim_testee_close's to judge */
    free(t->command);
    free(t);
}

const char *ntsim_testee_command(const ntsim_testee_t *t)
{
    return t->command;
}

const char *ntsim_testee_name(const ntsim_testee_t *t)
{
    return t->name;
}

bool ntsim_testee_answers(const ntsim_testee_t *t, const char *kind)
{
    for (unsigned b = 0; ntsim_testee_kind_names[b] != NULL; b++)
        if (strcmp(kind, ntsim_testee_kind_names[b]) == 0)
            return (t->kinds & (1u << b)) != 0;
    return false;
}

unsigned ntsim_testee_caps(const ntsim_testee_t *t)
{
    return t->caps;
}

bool ntsim_testee_alive(const ntsim_testee_t *t)
{
    return t->running;
}

bool ntsim_testee_via_shell(const ntsim_testee_t *t)
{
    return t->via_shell;
}

unsigned ntsim_testee_starts(const ntsim_testee_t *t)
{
    return t->starts;
}

void ntsim_testee_note_unjudged(ntsim_testee_t *t, unsigned caps)
{
    t->unjudged |= caps;
}

void ntsim_testee_set_tap(ntsim_testee_t *t, ntsim_testee_tap_fn fn, void *ctx)
{
    t->tap = fn;
    t->tap_ctx = ctx;
}

unsigned ntsim_testee_take_unjudged(ntsim_testee_t *t)
{
    unsigned u = t->unjudged;
    t->unjudged = 0;
    return u;
}

/* --- reading a reply, within a budget ------------------------------------------------------ */

/* A reply is unpacked from the runner's own heap of NTSIM_TESTEE_REPLY_BUDGET
 * bytes (all replies alive at once): a 60 MB frame of 30 million empty log
 * lines, unknown fields or records would otherwise cost gigabytes (protobuf-c
 * keeps 32 bytes per scanned field, and a block per element). Each block is
 * counted as malloc holds it (its size, a 16-byte header, rounded up to 16,
 * at least 32), so that the budget bounds what the process holds. */
static struct reply_heap {
    size_t live;  /* bytes counted for the blocks alive */
    bool refused; /* the last unpack asked for more than the budget */
    bool failed;  /* the last unpack found malloc out of memory */
} g_heap;

enum { HEAP_HEADER = 16 };

static void *heap_alloc(void *data, size_t n)
{
    (void)data;
    size_t cost = n > NTSIM_TESTEE_REPLY_BUDGET ? SIZE_MAX : (n + HEAP_HEADER + 8 + 15) & ~(size_t)15;
    cost = cost < 32 ? 32 : cost;
    if (cost > NTSIM_TESTEE_REPLY_BUDGET - g_heap.live) {
        g_heap.refused = true;
        return NULL;
    }
    unsigned char *p = malloc(n + HEAP_HEADER);
    if (p == NULL) {
        g_heap.failed = true;
        return NULL;
    }
    memcpy(p, &cost, sizeof cost);
    g_heap.live += cost;
    return p + HEAP_HEADER; /* malloc's alignment (16) kept */
}

static void heap_free(void *data, void *ptr)
{
    (void)data;
    if (ptr == NULL)
        return;
    unsigned char *p = (unsigned char *)ptr - HEAP_HEADER;
    size_t cost;
    memcpy(&cost, p, sizeof cost);
    g_heap.live -= cost;
    free(p);
}

static ProtobufCAllocator g_reply_allocator = {heap_alloc, heap_free, NULL};

NtsimTestee__Response *ntsim_testee_reply_unpack(const uint8_t *bytes, size_t len, char *why,
                                                 size_t cap)
{
    g_heap.refused = g_heap.failed = false;
    NtsimTestee__Response *resp = ntsim_testee__response__unpack(&g_reply_allocator, len, bytes);
    if (resp != NULL)
        return resp;
    if (g_heap.refused)
        snprintf(why, cap, "sent a reply of %zu bytes that needs more than the runner's %zu MiB "
                           "to read: out of memory",
                 len, NTSIM_TESTEE_REPLY_BUDGET >> 20);
    else if (g_heap.failed)
        snprintf(why, cap, "sent a reply of %zu bytes the runner ran out of memory reading", len);
    else
        snprintf(why, cap, "wrote a malformed frame: %zu bytes that are not a Response", len);
    return NULL;
}

void ntsim_testee_reply_free(NtsimTestee__Response *resp)
{
    if (resp != NULL)
        ntsim_testee__response__free_unpacked(resp, &g_reply_allocator);
}

/* --- one exchange ------------------------------------------------------------------------ */

/* Packs, sends, receives, unpacks, and checks the id and the strings: what
 * `it` did, in why. NRT_INVALID: a reply in step but refused (a string with
 * a NUL byte); the process is kept. Any other failure stops it. */
static NRT_STATUS roundtrip(ntsim_testee_t *t, NtsimTestee__Request *req,
                            NtsimTestee__Response **out, char *why, size_t cap)
{
    *out = NULL;
    req->id = t->next_id++;
    size_t len = 0, rlen = 0;
    uint8_t *bytes = ntsim_testee_pack(&req->base, &len), *rbytes = NULL;
    if (bytes == NULL) {
        snprintf(why, cap, "could not be asked: out of memory");
        return NRT_RESOURCE;
    }
    NRT_STATUS st = t->command == NULL
                        ? t->serve(bytes, len, &rbytes, &rlen)
                        : ntsim_testee_pipe_roundtrip(t, bytes, len, &rbytes, &rlen, why, cap);
    free(bytes);
    if (st != NRT_SUCCESS && t->command != NULL && t->timed_out)
        t->total_timeouts++; /* hellos too: each costs the timeout */
    if (st != NRT_SUCCESS) {
        if (t->command == NULL)
            snprintf(why, cap, "could not answer: out of memory");
        return st;
    }
    NtsimTestee__Response *resp = ntsim_testee_reply_unpack(rbytes, rlen, why, cap);
    char where[256];
    bool nul = resp != NULL && resp->id == req->id &&
               ntsim_testee_nul_string(&ntsim_testee__response__descriptor, rbytes, rlen, where,
                                       sizeof where);
    free(rbytes);
    if (resp == NULL)
        ; /* why says it */
    else if (resp->id != req->id)
        snprintf(why, cap, "answered out of order: its reply carries id %llu",
                 (unsigned long long)resp->id);
    else if (nul) {
        /* In step (its id is right): a wrong answer, not a broken testee. */
        snprintf(why, cap, "sent a string with a NUL byte in %s: a name or a text is compared "
                           "whole, and none holds one",
                 where);
        ntsim_testee_reply_free(resp);
        return NRT_INVALID;
    } else {
        *out = resp;
        return NRT_SUCCESS;
    }
    ntsim_testee_reply_free(resp);
    if (t->command != NULL)
        (void)ntsim_testee_pipe_stop(t, false); /* out of step: only a new one is trusted */
    return NRT_FAILURE;
}

NRT_STATUS ntsim_testee_call(ntsim_testee_t *t, NtsimTestee__Request *req,
                             NtsimTestee__Response **out, char *why, size_t cap)
{
    *out = NULL;
    char what[512];
    /* A testee that hangs on every request would cost the timeout per
     * request (hours over the suite), and one that hangs after every
     * restart as much: after max_timeouts in a row, or max_total_timeouts in
     * all, it is not asked again, and every later request fails at once. */
    if (given_up(t, why, cap))
        return NRT_FAILURE;
    if (t->command != NULL && !t->running) {
        if (start(t, what, sizeof what) != NRT_SUCCESS) {
            snprintf(why, cap, "could not be restarted: %s", what);
            return NRT_FAILURE;
        }
    }
    NRT_STATUS st = roundtrip(t, req, out, what, sizeof what);
    if (st == NRT_SUCCESS && t->tap != NULL)
        t->tap(req, *out, t->tap_ctx);
    if (st == NRT_SUCCESS || st == NRT_INVALID) /* a reply in step */
        t->timeouts = 0;
    else if (t->timed_out)
        t->timeouts++;
    if (st != NRT_SUCCESS) {
        char next[96] = "";
        if (t->command != NULL && t->max_timeouts > 0 && t->timeouts >= t->max_timeouts)
            snprintf(next, sizeof next, "; not asked again: %u timeouts in a row", t->timeouts);
        else if (t->command != NULL && t->max_total_timeouts > 0 &&
                 t->total_timeouts >= t->max_total_timeouts)
            snprintf(next, sizeof next, "; not asked again: %u timeouts in all",
                     t->total_timeouts);
        else if (t->command != NULL && st != NRT_INVALID) /* INVALID: in step, kept */
            snprintf(next, sizeof next, "; restarted for the next request");
        snprintf(why, cap, "%s while answering request %llu (%s)%s", what,
                 (unsigned long long)req->id, body_name(req->body_case), next);
    }
    return st;
}

NtsimTestee__Response *ntsim_testee_ask(ntsim_testee_t *t, NtsimTestee__Request *req,
                                        const char *id, ntsim_report_t *r)
{
    NtsimTestee__Response *resp = NULL;
    char why[768];
    if (ntsim_testee_call(t, req, &resp, why, sizeof why) != NRT_SUCCESS) {
        ntsim_report_add(r, id, "testee", "%s", why);
        return NULL;
    }
    if ((int)resp->body_case == (int)req->body_case)
        return resp;
    if (resp->body_case == NTSIM_TESTEE__RESPONSE__BODY_ERROR)
        ntsim_report_add(r, id, "testee", "answered request %llu (%s) with an error: %s",
                         (unsigned long long)req->id, body_name(req->body_case),
                         resp->error->message);
    else if (resp->body_case == NTSIM_TESTEE__RESPONSE__BODY__NOT_SET)
        /* What a port that answers a void call (api begin, end, a setter) with
         * an empty Response sends: the body's field must be set all the same. */
        ntsim_report_add(r, id, "testee", "answered request %llu (%s) with a Response with no "
                                          "body: set the %s reply even when it holds nothing",
                         (unsigned long long)req->id, body_name(req->body_case),
                         body_name(req->body_case));
    else
        ntsim_report_add(r, id, "testee", "answered request %llu (%s) with another reply "
                                          "(Response field %d)",
                         (unsigned long long)req->id, body_name(req->body_case),
                         (int)resp->body_case);
    ntsim_testee_reply_free(resp);
    return NULL;
}
