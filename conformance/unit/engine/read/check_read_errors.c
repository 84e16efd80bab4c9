/*
 * conformance/unit/engine/read/check_read_errors.c: the read stage on what it
 * must refuse (ntsim/read.h; D-READ, D-TRACE-READER): each problem of a
 * fetch document and of an NTFF file named where it is, as `where: message`
 * (JSON's line:column, events[i].key, events[i].data.key,
 * events[i].attributes.key, offset N); the longest value a message shows;
 * and a read of the first len bytes of a file that does not depend on the
 * bytes after them. The NTFF files are written here byte by byte from
 * engine/convert/ntff.proto's field numbers (a key is number << 3 | wire
 * type), and every expected column is the offending byte's offset plus one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_probe.h"
#include "check_suites.h"
#include "ntsim/convert.h"
#include "ntsim/read.h"

#define U64_RANGE "an 8-byte unsigned field: 0..18446744073709551615"
#define U32_RANGE "a 4-byte unsigned field: 0..4294967295"

/* --- a read's whole outcome, as text ------------------------------------------------ */

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * UINT64_C(1099511628211);
    return h;
}

/* The status, the message and everything the trace holds (hashed). */
static void outcome(const void *data, size_t len, char *out, size_t cap)
{
    ntsim_trace_t *t = NULL;
    char err[512] = "";
    NRT_STATUS st = ntsim_trace_read(data, len, NULL, &t, err, sizeof err);
    uint64_t h = UINT64_C(14695981039346656037);
    if (t != NULL) {
        h = fnv(h, t->events, t->event_count * sizeof *t->events);
        for (size_t i = 0; i < t->info_count; i++) {
            h = fnv(h, &t->infos[i].trace_type, 12);
            h = fnv(h, t->infos[i].payload, t->infos[i].payload_len);
        }
        for (size_t i = 0; i < t->name_count; i++) {
            h = fnv(h, &t->names[i].kind, sizeof t->names[i].kind);
            h = fnv(h, &t->names[i].id, sizeof t->names[i].id);
            h = fnv(h, t->names[i].name, strlen(t->names[i].name) + 1);
        }
        if (t->arch != NULL)
            h = fnv(h, t->arch, strlen(t->arch) + 1);
        snprintf(out, cap, "%d %s | format %d, %zu events, %zu infos, %zu names, pid %u, "
                           "session %llu, version %u, lnc %u, %016llx",
                 (int)st, err, (int)t->format, t->event_count, t->info_count, t->name_count,
                 t->pid, (unsigned long long)t->session_id, t->data_version, t->logical_nc_size,
                 (unsigned long long)h);
        ntsim_trace_free(t);
    } else {
        snprintf(out, cap, "%d %s", (int)st, err);
    }
}

/* Records of three types, with and without nrta_seq_id, values at the edges. */
static void some_records(nrt_sys_trace_event_t r[3])
{
    memset(r, 0, 3 * sizeof *r);
    for (size_t i = 0; i < 3; i++) {
        r[i].id = (UINT64_C(1) << 50) + i;
        r[i].nc_local_id = i;
        r[i].nc_idx = 1;
        r[i].tracking_id = UINT64_MAX - i;
        r[i].thread_id = 77;
        r[i].timestamp_ns = 1000 + i;
    }
    r[0].trace_type = NRT_SYS_TRACE_EVENT_TYPE_ENC_BARRIER;
    r[0].phase = NRT_SYS_TRACE_EVENT_PHASE_INSTANT;
    r[0].data.enc_barrier.peer_id = -2;
    r[0].data.enc_barrier.exec_id = 9;
    r[1].trace_type = NRT_SYS_TRACE_EVENT_TYPE_DMA_MEM_ALLOC;
    r[1].phase = NRT_SYS_TRACE_EVENT_PHASE_START;
    r[1].data.dma_mem_alloc_start.mla_idx = 3;
    r[1].data.dma_mem_alloc_start.usage_type = DMA_MEM_USAGE_TYPE_WEIGHT;
    r[1].data.dma_mem_alloc_start.is_nc_hbm = true;
    r[1].nrta_seq_id = 12;
    r[1].has_nrta_seq_id = true;
    r[2].trace_type = NRT_SYS_TRACE_EVENT_TYPE_DMA_MEM_DEALLOC;
    r[2].phase = NRT_SYS_TRACE_EVENT_PHASE_START;
    r[2].data.dma_mem_dealloc_start.physical_address = UINT64_C(0xabcdef);
}

/* The first len bytes of a fetch document, an NTFF file and a record dump
 * read alone give what they give followed by the rest of the file, by
 * bytes that would continue it, or by nothing (a block of exactly len
 * bytes: ASan sees a read past it). */
START_TEST(test_read_sees_nothing_past_its_length)
{
    nrt_sys_trace_event_t r[3];
    some_records(r);
    char *doc;
    uint8_t *ntff;
    size_t jlen, nlen;
    ck_assert_int_eq(ntsim_json_serialize(r, 3, &doc, &jlen), NRT_SUCCESS);
    const ntsim_trace_info_t infos[2] = {{1, 0, 3, (const uint8_t *)"abc", 3},
                                         {2, 1, 0, NULL, 0}};
    const ntsim_ntff_options_t opt = {.nd_idx = 1, .arch = "trn2", .pid = 7, .session_id = 9,
                                      .logical_nc_size = 2};
    ck_assert_int_eq(ntsim_ntff_serialize(r, 3, infos, 2, &opt, &ntff, &nlen), NRT_SUCCESS);
    const struct {
        const void *bytes;
        size_t len;
    } files[] = {{doc, jlen}, {ntff, nlen}, {r, sizeof r}};
    static const unsigned char tails[] = {0x00, 0x0a, '{', '[', '"', '0', ' ', ']', '}', 0xff,
                                          0x01, 0x80};
    char in_file[1024], v[1024];
    for (size_t f = 0; f < 3; f++) {
        const unsigned char *bytes = files[f].bytes;
        for (size_t len = 0; len <= files[f].len; len++) {
            outcome(bytes, len, in_file, sizeof in_file);
            unsigned char *alone = malloc(len > 0 ? len : 1);
            ck_assert_ptr_nonnull(alone);
            memcpy(alone, bytes, len);
            outcome(alone, len, v, sizeof v);
            free(alone);
            ck_assert_msg(strcmp(v, in_file) == 0, "file %zu, %zu bytes: '%s' alone, '%s' in the file",
                          f, len, v, in_file);
            unsigned char *padded = malloc(len + 16);
            ck_assert_ptr_nonnull(padded);
            memcpy(padded, bytes, len);
            for (size_t k = 0; k < sizeof tails; k++) {
                memset(padded + len, tails[k], 16);
                outcome(padded, len, v, sizeof v);
                ck_assert_msg(strcmp(v, in_file) == 0,
                              "file %zu, %zu bytes, then 0x%02x: '%s', not '%s'", f, len, tails[k],
                              v, in_file);
            }
            free(padded);
        }
    }
    nrt_sys_trace_buffer_free(doc);
    ntsim_buffer_free(ntff);
}
END_TEST

/* --- fetch documents ------------------------------------------------------------------ */

#define IDS "\"id\":1,\"nc_idx\":0,\"nc_local_id\":1,\"tracking_id\":2,\"thread_id\":3,\"timestamp_ns\":4"
#define ENC_DATA "\"data\":{\"peer_id\":-1,\"exec_id\":5,\"nec_dev_id\":6}"
#define ENC_HEAD "{\"event_type\":\"enc_barrier\",\"phase\":\"instant\","
#define ENC ENC_HEAD IDS "," ENC_DATA "}"
#define DOC(events) "{\"events\":[" events "]}"
#define E_X2 "\\xc3\\xa9\\xc3\\xa9" /* U+00E9 twice, as a message shows it */
#define E_X10 E_X2 E_X2 E_X2 E_X2 E_X2 /* ten times */
#define E_40 E_X10 E_X10 /* U+00E9 twenty times: its 40 bytes shown as \xNN */
#define EACUTE_8 "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
#define EACUTE_40 EACUTE_8 EACUTE_8 EACUTE_8 EACUTE_8 EACUTE_8 /* 80 bytes */
#define DIGITS_10 "1234567890"
#define DIGITS_40 DIGITS_10 DIGITS_10 DIGITS_10 DIGITS_10

/* Each problem of a fetch document, where it is. A syntax problem (one with
 * `at`) is at line 1, the column of the first byte of `at` in the document
 * ("$": its end), plus `delta`. */
START_TEST(test_read_names_each_problem_of_a_fetch_document)
{
    static const struct {
        const char *doc, *want, *at;
        size_t delta;
    } cases[] = {
        {"{}", "events: not an array (not a fetch document)", NULL, 0},
        {"{\"events\":{}}", "events: not an array (not a fetch document)", NULL, 0},
        {"{\"events\":\"x\"}", "events: not an array (not a fetch document)", NULL, 0},
        {"{\"data_version\":2}", "events: not an array (not a fetch document)", NULL, 0},
        {"{\"events\":[],\"events\":[]}", "events: listed twice", NULL, 0},
        {"{\"events\":[]} x", "'x' after the document", "x", 0},
        {"{\"events\":[] x", "expected ',' or '}', got 'x'", "x", 0},
        {"{\"events\":[" ENC " " ENC "]}", "expected ',' or ']', got '{'", "} {", 2},
        {"{\"events\":[" ENC, "expected ',' or ']', got the end of the input", "$", 0},
        {"{\"events\":}", "expected a value, got '}'", "}", 0},
        {"{\"a\":tru,\"events\":[]}", "expected a value, got 't'", "t", 0},
        {"{\"events\":[],\"traceEvents\":[]}",
         "a Chrome trace JSON: ntsim reads fetch JSON, NTFF or record dumps", NULL, 0},
        {DOC("1"), "events[0]: not an event (event_type and phase strings)", NULL, 0},
        {DOC("[]"), "events[0]: not an event (event_type and phase strings)", NULL, 0},
        {DOC(ENC ",{}"), "events[1]: not an event (event_type and phase strings)", NULL, 0},
        {DOC("{\"event_type\":1,\"phase\":\"instant\"}"),
         "events[0]: not an event (event_type and phase strings)", NULL, 0},
        {DOC("{\"event_type\":\"enc_barrier\",\"phase\":2}"),
         "events[0]: not an event (event_type and phase strings)", NULL, 0},
        {DOC("{\"phase\":\"instant\"," IDS "," ENC_DATA "}"),
         "events[0]: not an event (event_type and phase strings)", NULL, 0},
        {DOC("{\"event_type\":\"enc_barrier\"," IDS "," ENC_DATA "}"),
         "events[0]: not an event (event_type and phase strings)", NULL, 0},
        {DOC("{\"event_type\":\"nope\",\"phase\":\"instant\"," IDS "," ENC_DATA "}"),
         "events[0].event_type: \"nope\" is no event type", NULL, 0},
        {DOC("{\"event_type\":\"" EACUTE_40 "\",\"phase\":\"instant\"," IDS "," ENC_DATA "}"),
         "events[0].event_type: \"" E_40 "...\" is no event type", NULL, 0},
        {DOC("{\"event_type\":\"enc_barrier\",\"phase\":\"begin\"," IDS "," ENC_DATA "}"),
         "events[0].phase: not start, stop, instant or unknown", NULL, 0},
        {DOC(ENC_HEAD "\"phase\":\"stop\"," IDS "," ENC_DATA "}"), "events[0].phase: listed twice",
         NULL, 0},
        {DOC(ENC_HEAD "\"id\":1," IDS "," ENC_DATA "}"), "events[0].id: listed twice", NULL, 0},
        {DOC(ENC_HEAD "\"nc_idx\":0,\"nc_local_id\":1,\"tracking_id\":2,\"thread_id\":3,"
                      "\"timestamp_ns\":4," ENC_DATA "}"),
         "events[0].id: missing or not an integer", NULL, 0},
        {DOC(ENC_HEAD "\"id\":1,\"nc_idx\":0,\"nc_local_id\":1,\"tracking_id\":2,\"thread_id\":3,"
                      ENC_DATA "}"),
         "events[0].timestamp_ns: missing or not an integer", NULL, 0},
        {DOC(ENC_HEAD "\"id\":\"1\"}"), "events[0].id: missing or not an integer", NULL, 0},
        {DOC(ENC_HEAD "\"id\":1e5}"), "events[0].id: 1e5 is not an integer", NULL, 0},
        {DOC(ENC_HEAD "\"id\":-1}"), "events[0].id: -1 is out of range (" U64_RANGE ")", NULL, 0},
        {DOC(ENC_HEAD "\"nc_idx\":-1}"), "events[0].nc_idx: -1 is out of range (" U32_RANGE ")",
         NULL, 0},
        {DOC(ENC_HEAD "\"id\":" DIGITS_40 "123}"),
         "events[0].id: " DIGITS_40 "... is out of range (" U64_RANGE ")", NULL, 0},
        {DOC(ENC_HEAD "\"id\":}"), "expected a value, got '}'", "}", 0},
        {DOC(ENC_HEAD "\"id\":-}"), "a number needs a digit after '-'", "-}", 0},
        {DOC("{\"event_type\":}"), "expected a value, got '}'", "}", 0},
        {DOC(ENC_HEAD IDS "}"), "events[0].data: not an object", NULL, 0},
        {DOC(ENC_HEAD IDS ",\"data\":[]}"), "events[0].data: not an object", NULL, 0},
        {DOC(ENC_HEAD IDS ",\"data\":}"), "expected a value, got '}'", "\"data\":}", 7},
        {DOC(ENC_HEAD IDS ",\"data\":{\"peer_id\":-1,\"exec_id\":5}}"),
         "events[0].data.nec_dev_id: missing", NULL, 0},
        {DOC(ENC_HEAD IDS ",\"data\":{\"peer_id\":true,\"exec_id\":5,\"nec_dev_id\":6}}"),
         "events[0].data.peer_id: not a value of this key", NULL, 0},
        {DOC(ENC_HEAD IDS ",\"data\":{\"peer_id\":1.5,\"exec_id\":5,\"nec_dev_id\":6}}"),
         "events[0].data.peer_id: not a value of this key", NULL, 0},
        {DOC(ENC_HEAD IDS ",\"data\":{\"peer_id\":null,\"exec_id\":5,\"nec_dev_id\":6}}"),
         "events[0].data.peer_id: not a value of this key", NULL, 0},
        {DOC(ENC_HEAD IDS ",\"data\":{\"peer_id\":{},\"exec_id\":5,\"nec_dev_id\":6}}"),
         "events[0].data.peer_id: not a value of this key", NULL, 0},
        {DOC(ENC_HEAD IDS ",\"data\":{\"peer_id\":\"" EACUTE_40 "\",\"exec_id\":5,\"nec_dev_id\":6}}"),
         "events[0].data.peer_id: not a value of this key", NULL, 0},
        {DOC(ENC_HEAD IDS ",\"data\":{\"peer_id\":\"2147483648\",\"exec_id\":5,\"nec_dev_id\":6}}"),
         "events[0].data.peer_id: \"2147483648\" is out of range (a 4-byte signed field: "
         "-2147483648..2147483647)", NULL, 0},
        {DOC(ENC_HEAD IDS ",\"data\":{\"exec_id\":" DIGITS_40 "1,\"peer_id\":1,\"nec_dev_id\":6}}"),
         "events[0].data.exec_id: " DIGITS_40 "... is out of range (" U64_RANGE ")", NULL, 0},
        {DOC(ENC_HEAD IDS ",\"data\":{\"peer_id\":-}}"), "a number needs a digit after '-'",
         "-}", 0},
        {DOC(ENC_HEAD IDS ",\"data\":{\"peer_id\":\"\x01\"}}"),
         "control character in a string (byte 0x01)", "\x01", 0},
        {DOC(ENC_HEAD IDS ",\"data\":{\"peer_id\":[1,}}"), "expected a value, got '}'",
         ",}", 1},
        {DOC(ENC_HEAD IDS ",\"data\":{\"peer_id\":}}"), "expected a value, got '}'", "}}", 0},
        {DOC(ENC_HEAD IDS ",\"data\":{\"zz\":[1,}}"), "expected a value, got '}'", ",}", 1},
        {DOC(ENC_HEAD IDS ",\"data\":{\"peer_id\":1 \"exec_id\":5}}"),
         "expected ',' or '}', got '\"'", " \"", 1},
        {DOC(ENC_HEAD IDS ",\"data\":{\"peer_id\":1,\"peer_id\":1}}"),
         "events[0].data.peer_id: listed twice", NULL, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *doc = cases[i].doc;
        char want[512], err[512] = "";
        if (cases[i].at != NULL) {
            const char *p = strcmp(cases[i].at, "$") == 0 ? doc + strlen(doc) /* the end */
                                                          : strstr(doc, cases[i].at);
            ck_assert_ptr_nonnull(p);
            snprintf(want, sizeof want, "1:%zu: %s", (size_t)(p - doc) + cases[i].delta + 1,
                     cases[i].want);
        } else {
            snprintf(want, sizeof want, "%s", cases[i].want);
        }
        ntsim_trace_t *t = (ntsim_trace_t *)&t;
        ck_assert_int_eq(ntsim_trace_read(doc, strlen(doc), NULL, &t, err, sizeof err),
                         NRT_INVALID);
        ck_assert_msg(strcmp(err, want) == 0, "%zu: '%s', want '%s'", i, err, want);
        ck_assert_ptr_null(t);
    }
}
END_TEST

/* What a fetch document may hold beside its events (other keys, anywhere),
 * and what each event may: keys passed over (worker_gid, a later
 * runtime's), nrta_seq_id or none, a decimal string, the type and phase
 * "unknown". */
START_TEST(test_read_passes_over_what_it_does_not_keep)
{
    static const char doc[] =
        "{\"data_version\":2,\"x\":{\"events\":1,\"y\":[true,null]},\"events\":["
        "{\"worker_gid\":[1,{\"a\":\"b\"}],\"event_type\":\"enc_barrier\",\"phase\":\"instant\","
        "\"id\":1,\"nc_idx\":4294967295,\"nc_local_id\":2,\"tracking_id\":3,\"thread_id\":4,"
        "\"timestamp_ns\":5,\"nrta_seq_id\":18446744073709551615,"
        "\"data\":{\"zz\":{\"peer_id\":1},\"peer_id\":\"-7\",\"exec_id\":8,\"nec_dev_id\":9}},"
        "{\"event_type\":\"unknown\",\"phase\":\"unknown\",\"id\":6,\"nc_idx\":0,"
        "\"nc_local_id\":0,\"tracking_id\":0,\"thread_id\":0,\"timestamp_ns\":0,\"data\":{\"q\":1}}"
        "],\"after\":[]}";
    ntsim_trace_t *t = NULL;
    char err[256] = "";
    ck_assert_msg(ntsim_trace_read(doc, sizeof doc - 1, NULL, &t, err, sizeof err) == NRT_SUCCESS,
                  "%s", err);
    ck_assert_int_eq(t->format, NTSIM_TRACE_FORMAT_JSON);
    ck_assert_uint_eq(t->event_count, 2);
    const nrt_sys_trace_event_t *e = &t->events[0];
    ck_assert_int_eq(e->trace_type, NRT_SYS_TRACE_EVENT_TYPE_ENC_BARRIER);
    ck_assert_int_eq(e->phase, NRT_SYS_TRACE_EVENT_PHASE_INSTANT);
    ck_assert_uint_eq(e->id, 1);
    ck_assert_uint_eq(e->nc_idx, UINT32_MAX);
    ck_assert_uint_eq(e->nc_local_id, 2);
    ck_assert_uint_eq(e->tracking_id, 3);
    ck_assert_uint_eq(e->thread_id, 4);
    ck_assert_uint_eq(e->timestamp_ns, 5);
    ck_assert_uint_eq(e->nrta_seq_id, UINT64_MAX);
    ck_assert(e->has_nrta_seq_id);
    ck_assert_int_eq(e->data.enc_barrier.peer_id, -7);
    ck_assert_uint_eq(e->data.enc_barrier.exec_id, 8);
    ck_assert_int_eq(e->data.enc_barrier.nec_dev_id, 9);
    e = &t->events[1];
    ck_assert_int_eq(e->trace_type, NRT_SYS_TRACE_EVENT_TYPE_COUNT); /* D-READ: type 46 */
    ck_assert_int_eq(e->phase, 3);
    ck_assert_uint_eq(e->id, 6);
    ck_assert(!e->has_nrta_seq_id);
    ck_assert_uint_eq(e->nrta_seq_id, 0);
    static const nrt_sys_trace_event_data_t zero;
    ck_assert_mem_eq(&e->data, &zero, sizeof zero);
    ntsim_trace_free(t);
}
END_TEST

/* --- NTFF ----------------------------------------------------------------------------- */

/* A protobuf field's key and, for a length-delimited one, its length:
 * appended to b at *n. */
static void put_varint(uint8_t *b, size_t *n, uint64_t v)
{
    while (v >= 0x80) {
        b[(*n)++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b[(*n)++] = (uint8_t)v;
}

static void put_bytes(uint8_t *b, size_t *n, uint32_t number, const void *p, size_t len)
{
    put_varint(b, n, (uint64_t)number << 3 | 2);
    put_varint(b, n, len);
    memcpy(b + *n, p, len);
    *n += len;
}

/* An event message of type `type` (none: UINT32_MAX), phase `phase` (none:
 * UINT32_MAX) and one attribute entry (its message's bytes, none: NULL). */
static size_t event_bytes(uint8_t *b, uint32_t type, uint32_t phase, const void *entry,
                          size_t entry_len)
{
    size_t n = 0;
    if (type != UINT32_MAX) {
        put_varint(b, &n, 5 << 3 | 0); /* event_type */
        put_varint(b, &n, type);
    }
    if (entry != NULL)
        put_bytes(b, &n, 12, entry, entry_len); /* attributes */
    if (phase != UINT32_MAX) {
        put_varint(b, &n, 13 << 3 | 0); /* phase */
        put_varint(b, &n, phase);
    }
    return n;
}

/* A map entry's message: key (field 1) and value (field 2), each left out
 * when NULL. */
static size_t entry_bytes(uint8_t *b, const char *key, const char *value)
{
    size_t n = 0;
    if (key != NULL)
        put_bytes(b, &n, 1, key, strlen(key));
    if (value != NULL)
        put_bytes(b, &n, 2, value, strlen(value));
    return n;
}

/* One ntrace_info of the given events, in order. */
static size_t info_of_events(uint8_t *out, const uint8_t *const *events, const size_t *lens,
                             size_t count)
{
    size_t n = 0;
    for (size_t i = 0; i < count; i++)
        put_bytes(out, &n, 1, events[i], lens[i]);
    return n;
}

static void assert_ntff_refused(const uint8_t *b, size_t n, const char *want)
{
    ntsim_trace_t *t = (ntsim_trace_t *)&t;
    char err[512] = "";
    ck_assert_int_eq(ntsim_trace_format_detect(b, n, n), NTSIM_TRACE_FORMAT_NTFF);
    ck_assert_int_eq(ntsim_trace_read(b, n, NULL, &t, err, sizeof err), NRT_INVALID);
    ck_assert_str_eq(err, want);
    ck_assert_ptr_null(t);
}

/* Each problem of an NTFF event, where it is. */
START_TEST(test_read_names_each_problem_of_an_ntff_event)
{
    uint8_t ev[512], ev2[64], entry[256], file[1024];
    const uint8_t *evs[2] = {ev, ev2};
    size_t lens[2], n;
    const uint32_t start = 1, alloc = NRT_SYS_TRACE_EVENT_TYPE_DMA_MEM_ALLOC;
    /* No phase, and phase INVALID (0). */
    lens[0] = event_bytes(ev, alloc, UINT32_MAX, NULL, 0);
    n = info_of_events(file, evs, lens, 1);
    assert_ntff_refused(file, n, "events[0].phase: missing or INVALID");
    lens[0] = event_bytes(ev, alloc, 0, NULL, 0);
    n = info_of_events(file, evs, lens, 1);
    assert_ntff_refused(file, n, "events[0].phase: missing or INVALID");
    /* A second event's problem names it. */
    lens[0] = event_bytes(ev, alloc, start, NULL, 0);
    lens[1] = event_bytes(ev2, alloc, UINT32_MAX, NULL, 0);
    n = info_of_events(file, evs, lens, 2);
    assert_ntff_refused(file, n, "events[1].phase: missing or INVALID");
    /* A map entry without its key or its value. */
    size_t e = entry_bytes(entry, NULL, "1");
    lens[0] = event_bytes(ev, alloc, start, entry, e);
    n = info_of_events(file, evs, lens, 1);
    assert_ntff_refused(file, n, "events[0].attributes[0]: an entry without its key");
    e = entry_bytes(entry, "mla_idx", NULL);
    lens[0] = event_bytes(ev, alloc, start, entry, e);
    n = info_of_events(file, evs, lens, 1);
    assert_ntff_refused(file, n, "events[0].attributes[0]: an entry without its value");
    /* A key the type does not have: by its JSON name, "unknown" past the
     * table; the key shown as at most 40 bytes, each \xNN when not printable. */
    e = entry_bytes(entry, "zz", "1");
    lens[0] = event_bytes(ev, alloc, start, entry, e);
    n = info_of_events(file, evs, lens, 1);
    assert_ntff_refused(file, n, "events[0].attributes.zz: not a key of nrt_dma_mem_alloc");
    lens[0] = event_bytes(ev, NRT_SYS_TRACE_EVENT_TYPE_COUNT, start, entry, e);
    n = info_of_events(file, evs, lens, 1);
    assert_ntff_refused(file, n, "events[0].attributes.zz: not a key of unknown");
    char key[42];
    memset(key, 0x01, 41);
    key[41] = '\0';
    e = entry_bytes(entry, key, "1");
    lens[0] = event_bytes(ev, alloc, start, entry, e);
    n = info_of_events(file, evs, lens, 1);
    char want[512] = "events[0].attributes.";
    for (size_t i = 0; i < 40; i++)
        strcat(want, "\\x01");
    strcat(want, "...: not a key of nrt_dma_mem_alloc");
    assert_ntff_refused(file, n, want);
    /* A value shown as at most 40 bytes too. */
    e = entry_bytes(entry, "mla_idx", DIGITS_40 "5");
    lens[0] = event_bytes(ev, alloc, start, entry, e);
    n = info_of_events(file, evs, lens, 1);
    assert_ntff_refused(file, n,
                        "events[0].attributes.mla_idx: \"" DIGITS_40 "...\" is out of range ("
                        U32_RANGE ")");
    char value[42];
    memset(value, 0x01, 41);
    value[41] = '\0';
    e = entry_bytes(entry, "mla_idx", value);
    lens[0] = event_bytes(ev, alloc, start, entry, e);
    n = info_of_events(file, evs, lens, 1);
    snprintf(want, sizeof want, "events[0].attributes.mla_idx: \"");
    for (size_t i = 0; i < 40; i++)
        strcat(want, "\\x01");
    strcat(want, "...\" is not its value");
    assert_ntff_refused(file, n, want);
    /* model_id=@exec_id is the runtime's lookup, not payload: passed over,
     * whatever it holds (D-JSON-MODEL-ID). */
    e = entry_bytes(entry, "model_id", "not a number");
    lens[0] = event_bytes(ev, NRT_SYS_TRACE_EVENT_TYPE_DEVICE_EXEC, start, entry, e);
    n = info_of_events(file, evs, lens, 1);
    ntsim_trace_t *t = NULL;
    char err[256] = "";
    ck_assert_msg(ntsim_trace_read(file, n, NULL, &t, err, sizeof err) == NRT_SUCCESS, "%s", err);
    ck_assert_uint_eq(t->event_count, 1);
    ck_assert_int_eq(t->events[0].trace_type, NRT_SYS_TRACE_EVENT_TYPE_DEVICE_EXEC);
    ck_assert_int_eq(t->events[0].phase, NRT_SYS_TRACE_EVENT_PHASE_START);
    ntsim_trace_free(t);
}
END_TEST

/* Each problem of an NTFF file outside its events: a field key that is no
 * key, a field cut short (past the first 4096 bytes, where the format was
 * told), fields protobuf-c refuses, an interned name without its value. */
START_TEST(test_read_names_each_problem_of_an_ntff_file)
{
    enum { BIG = 5000 };
    uint8_t *file = calloc(1, BIG + 64);
    ck_assert_ptr_nonnull(file);
    size_t n = 0;
    char *arch = malloc(BIG);
    ck_assert_ptr_nonnull(arch);
    memset(arch, 'a', BIG);
    /* arch (field 4) of 5000 bytes, then a key of field number 0. */
    put_bytes(file, &n, 4, arch, BIG);
    ck_assert_uint_eq(n, 3 + BIG); /* 0x22, 5000 as 0x88 0x27 */
    file[n++] = 0x00;
    file[n++] = 0x01;
    assert_ntff_refused(file, n, "offset 5003: not an ntrace_info (a bad field key or a truncated "
                                 "field)");
    /* The same arch cut 500 bytes short. */
    assert_ntff_refused(file, BIG - 500, "offset 0: not an ntrace_info (a bad field key or a "
                                         "truncated field)");
    /* pid (field 5) then field 1 as a varint: whole fields, which
     * protobuf-c refuses as an ntrace_info. */
    static const uint8_t wrong_wire[] = {5 << 3 | 0, 7, 1 << 3 | 0, 1};
    assert_ntff_refused(wrong_wire, sizeof wrong_wire,
                        "offset 0: not an ntrace_info (4 bytes protobuf-c cannot unpack)");
    /* A good event, then one whose phase (field 13) is length-delimited. */
    static const uint8_t bad_event[] = {0x0a, 2, 13 << 3 | 0, 1, 0x0a, 2, 13 << 3 | 2, 0};
    assert_ntff_refused(bad_event, sizeof bad_event,
                        "events[1] (offset 4): not an ntrace_event (protobuf-c cannot unpack it)");
    /* interned_data (field 3): an id_map entry (field 2) with a key (1) and
     * no value. */
    static const uint8_t no_name[] = {3 << 3 | 2, 4, 2 << 3 | 2, 2, 1 << 3 | 0, 5};
    assert_ntff_refused(no_name, sizeof no_name,
                        "interned_data[0].id_map[0]: an entry without its value");
    free(arch);
    free(file);
}
END_TEST

/* ntsim/read.h, D-ALLOCATOR: a dump decoded as JSON with each block it takes
 * failing in turn gives NRT_RESOURCE with "out of memory" in err and nothing
 * left allocated; then it decodes. */
START_TEST(test_decode_records_runs_out_of_memory_cleanly)
{
    nrt_sys_trace_event_t r[2] = {{0}};
    r[0].trace_type = r[1].trace_type = NRT_SYS_TRACE_EVENT_TYPE_EXECUTE_API;
    FILE *out = fopen("/dev/null", "w");
    ck_assert_ptr_nonnull(out);
    for (uint64_t allow = 0;; allow++) {
        char err[128] = "";
        ck_assert_uint_lt(allow, 64);
        ntsim_probe_begin(allow);
        NRT_STATUS st = ntsim_decode_records((const uint8_t *)r, sizeof r, false, out, err,
                                             sizeof err);
        ntsim_probe_end();
        ck_assert_uint_eq(ntsim_probe.live, 0);
        if (st == NRT_SUCCESS)
            break;
        ck_assert_int_eq(st, NRT_RESOURCE);
        ck_assert_str_eq(err, "out of memory");
    }
    ck_assert_int_eq(fclose(out), 0);
}
END_TEST

Suite *make_read_errors_suite(void)
{
    Suite *s = suite_create("read_errors");
    TCase *tc = tcase_create("read_errors");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_read_sees_nothing_past_its_length);
    tcase_add_test(tc, test_read_names_each_problem_of_a_fetch_document);
    tcase_add_test(tc, test_read_passes_over_what_it_does_not_keep);
    tcase_add_test(tc, test_read_names_each_problem_of_an_ntff_event);
    tcase_add_test(tc, test_read_names_each_problem_of_an_ntff_file);
    tcase_add_test(tc, test_decode_records_runs_out_of_memory_cleanly);
    suite_add_tcase(s, tc);
    return s;
}
