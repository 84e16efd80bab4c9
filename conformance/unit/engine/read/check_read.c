/*
 * conformance/unit/engine/read/check_read.c: the read stage (ntsim/read.h,
 * json_reader.c; D-READ, D-TRACE-READER): the format told by content,
 * JSON as RFC 8259 defines it, integers exact over the whole u64 range, a
 * value that does not fit its field refused at its place (never narrowed or
 * wrapped), and the event limit. The expected values come from the integer
 * widths (2^64 - 1, 2^32 - 1, -2^31), the Unicode encodings and the field
 * types of include/nrt/nrt_sys_trace_event.h, not from the reader's output.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_suites.h"
#include "json_reader.h"
#include "ntff.pb-c.h"
#include "ntsim/convert.h"
#include "ntsim/read.h"

/* The public reader on bytes, its records copied into *recs (free() them;
 * NULL when there are none or on failure). */
static NRT_STATUS read_back(const void *data, size_t len, uint64_t max_events,
                            nrt_sys_trace_event_t **recs, size_t *n, char *err, size_t cap)
{
    ntsim_read_limits_t limits = {NTSIM_READ_MAX_BYTES, max_events};
    ntsim_trace_t *t = NULL;
    *recs = NULL;
    *n = 0;
    NRT_STATUS st = ntsim_trace_read(data, len, &limits, &t, err, cap);
    if (st != NRT_SUCCESS) {
        ck_assert_ptr_null(t);
        return st;
    }
    if (t->event_count > 0) {
        *recs = malloc(t->event_count * sizeof **recs);
        ck_assert_ptr_nonnull(*recs);
        memcpy(*recs, t->events, t->event_count * sizeof **recs);
    }
    *n = t->event_count;
    ntsim_trace_free(t);
    return st;
}

/* --- the JSON reader -------------------------------------------------------------- */

START_TEST(test_json_reader_integers_are_exact_over_u64)
{
    static const struct {
        const char *text;
        bool ok, integer, negative, too_wide;
        uint64_t magnitude;
    } cases[] = {
        {"0", true, true, false, false, 0},
        {"-0", true, true, true, false, 0},
        {"18446744073709551615", true, true, false, false, UINT64_MAX},
        {"18446744073709551616", true, true, false, true, 0},
        {"99999999999999999999999", true, true, false, true, 0},
        {"9223372036854775808", true, true, false, false, UINT64_C(1) << 63},
        {"-9223372036854775808", true, true, true, false, UINT64_C(1) << 63},
        {"99999999999", true, true, false, false, UINT64_C(99999999999)},
        {"1.5", true, false, false, false, 0},
        {"1e3", true, false, false, false, 0},
        {"-2E-1", true, false, true, false, 0},
        {"01", false, false, false, false, 0},
        {"-", false, false, false, false, 0},
        {"1.", false, false, false, false, 0},
        {"1e", false, false, false, false, 0},
        {"+1", false, false, false, false, 0},
        {" 1", false, false, false, false, 0},
        {"1 ", false, false, false, false, 0},
        {"0x10", false, false, false, false, 0},
        {"", false, false, false, false, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ntsim_json_number_t n;
        ntsim_json_reader_t r;
        const char *t = cases[i].text;
        /* parse_integer: an integer token alone; the reader: any number. */
        bool whole = ntsim__json_parse_integer(t, strlen(t), &n);
        ck_assert_msg(whole == (cases[i].ok && cases[i].integer), "%s: parse_integer %d", t,
                      whole);
        ntsim__json_reader_init(&r, t, strlen(t));
        bool ok = ntsim__json_number(&r, &n) && ntsim__json_end(&r);
        ck_assert_msg(ok == cases[i].ok || t[0] == ' ' || t[strlen(t) - 1] == ' ',
                      "%s: read %d (%s)", t, ok, r.msg);
        if (!cases[i].ok || !ok)
            continue;
        ck_assert_msg(n.integer == cases[i].integer && n.negative == cases[i].negative &&
                          n.too_wide == cases[i].too_wide,
                      "%s: integer %d negative %d too_wide %d", t, n.integer, n.negative,
                      n.too_wide);
        ck_assert_uint_eq(n.magnitude, cases[i].magnitude);
        ck_assert_uint_eq(n.len, strlen(t));
    }
}
END_TEST

START_TEST(test_json_reader_strings_decode_and_refuse)
{
    char buf[32];
    size_t len;
    ntsim_json_reader_t r;
    /* a, U+00E9 (C3 A9), U+1F600 as the surrogate pair D83D DE00 (F0 9F 98 80),
     * the seven short escapes, and raw UTF-8 passed through. */
    static const char in[] = "\"a\\u00e9\\ud83d\\ude00\\\"\\\\\\/\\b\\f\\n\\r\\t\xc3\xa9\"";
    static const char want[] = "a\xc3\xa9\xf0\x9f\x98\x80\"\\/\b\f\n\r\t\xc3\xa9";
    ntsim__json_reader_init(&r, in, strlen(in));
    ck_assert_msg(ntsim__json_string(&r, buf, sizeof buf, &len), "%s", r.msg);
    ck_assert_uint_eq(len, strlen(want));
    ck_assert_mem_eq(buf, want, len);
    /* A longer string: its whole length, the first cap - 1 bytes kept. */
    ntsim__json_reader_init(&r, "\"abcdefghij\"", 12);
    ck_assert(ntsim__json_string(&r, buf, 5, &len));
    ck_assert_uint_eq(len, 10);
    ck_assert_str_eq(buf, "abcd");
    static const struct {
        const char *text, *msg;
        size_t at;
    } bad[] = {
        {"\"\\u0000\"", "\\u0000 is not allowed", 1},
        {"\"\\ud800\"", "a UTF-16 high surrogate \\ud800 without its low half", 1},
        {"\"\\ud800\\u0041\"", "a UTF-16 high surrogate \\ud800 without its low half", 1},
        {"\"\\udc00\"", "a lone UTF-16 low surrogate \\udc00", 1},
        {"\"\\u12g4\"", "\\u needs four hex digits", 1},
        {"\"\\x\"", "invalid escape '\\x'", 1},
        {"\"a\x01\"", "control character in a string (byte 0x01)", 2},
        {"\"\xff\"", "invalid UTF-8 (byte 0xff)", 1},
        {"\"\xc0\xaf\"", "invalid UTF-8 (byte 0xc0)", 1},         /* overlong '/' */
        {"\"\xe0\x80\xaf\"", "invalid UTF-8 (byte 0xe0)", 1},     /* overlong, 3 bytes */
        {"\"\xed\xa0\x80\"", "invalid UTF-8 (byte 0xed)", 1},     /* U+D800 encoded */
        {"\"\xf4\x90\x80\x80\"", "invalid UTF-8 (byte 0xf4)", 1}, /* past U+10FFFF */
        {"\"\xc3\"", "invalid UTF-8 (byte 0xc3)", 1},             /* truncated */
        {"\"abc", "unterminated string", 0},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ntsim__json_reader_init(&r, bad[i].text, strlen(bad[i].text));
        ck_assert_msg(!ntsim__json_string(&r, buf, sizeof buf, &len), "%zu: accepted", i);
        ck_assert_str_eq(r.msg, bad[i].msg);
        ck_assert_uint_eq(r.at, bad[i].at);
    }
}
END_TEST

START_TEST(test_json_reader_structure_depth_and_position)
{
    ntsim_json_reader_t r;
    char text[200];
    /* 64 nested arrays pass; a 65th is refused where it opens (column 65). */
    memset(text, '[', 64);
    memset(text + 64, ']', 64);
    ntsim__json_reader_init(&r, text, 128);
    ck_assert_msg(ntsim__json_skip(&r) && ntsim__json_end(&r), "%s", r.msg);
    memset(text, '[', 65);
    memset(text + 65, ']', 65);
    ntsim__json_reader_init(&r, text, 130);
    ck_assert(!ntsim__json_skip(&r));
    ck_assert_str_eq(r.msg, "nesting deeper than 64");
    unsigned long line, col;
    ntsim__json_position(&r, r.at, &line, &col);
    ck_assert_uint_eq(line, 1);
    ck_assert_uint_eq(col, 65);
    static const struct {
        const char *text, *msg;
        unsigned long line, col;
    } bad[] = {
        {"{\"a\":1,}", "expected a string, got '}'", 1, 8},
        {"[1,]", "expected a value, got ']'", 1, 4},
        {"[1 2]", "expected ',' or ']', got '2'", 1, 4},
        {"{\"a\" 1}", "expected ':' after a key, got '1'", 1, 6},
        {"{\n  \"\xc3\xa9\": tru}", "expected a value, got 't'", 2, 8},
        {"[nul]", "expected a value, got 'n'", 1, 2},
        {"{\"a\":1} x", "'x' after the document", 1, 9},
        {"", "expected a value, got the end of the input", 1, 1},
        {"[", "expected a value or ']', got the end of the input", 1, 2},
        {"[1", "expected ',' or ']', got the end of the input", 1, 3},
        {"{", "expected a key or '}', got the end of the input", 1, 2},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ntsim__json_reader_init(&r, bad[i].text, strlen(bad[i].text));
        ck_assert_msg(!(ntsim__json_skip(&r) && ntsim__json_end(&r)), "%zu: accepted", i);
        ck_assert_str_eq(r.msg, bad[i].msg);
        ntsim__json_position(&r, r.at, &line, &col);
        ck_assert_msg(line == bad[i].line && col == bad[i].col, "%zu: at %lu:%lu, want %lu:%lu",
                      i, line, col, bad[i].line, bad[i].col);
    }
}
END_TEST

/* --- values back into records ------------------------------------------------------ */

/* Records whose every id and time is at the top of its range, and whose
 * payload fields are at the edges of their C types. */
static void edge_records(nrt_sys_trace_event_t r[3])
{
    memset(r, 0, 3 * sizeof *r);
    for (size_t i = 0; i < 3; i++) {
        r[i].thread_id = UINT64_MAX;
        r[i].id = UINT64_MAX - i;
        r[i].nc_local_id = UINT64_MAX - 10 - i;
        r[i].tracking_id = UINT64_MAX;
        r[i].timestamp_ns = UINT64_MAX - 100 + i;
        r[i].nc_idx = 1;
        r[i].nrta_seq_id = UINT64_MAX;
        r[i].has_nrta_seq_id = true;
    }
    r[0].trace_type = NRT_SYS_TRACE_EVENT_TYPE_DMA_MEM_ALLOC;
    r[0].phase = NRT_SYS_TRACE_EVENT_PHASE_START;
    r[0].data.dma_mem_alloc_start.hbm_idx = UINT32_MAX;
    r[0].data.dma_mem_alloc_start.mla_idx = UINT32_MAX;
    r[0].data.dma_mem_alloc_start.usage_type = DMA_MEM_USAGE_TYPE_WEIGHT;
    r[0].data.dma_mem_alloc_start.is_nc_hbm = true;
    r[1].trace_type = NRT_SYS_TRACE_EVENT_TYPE_DMA_MEM_ALLOC;
    r[1].phase = NRT_SYS_TRACE_EVENT_PHASE_STOP;
    r[1].data.dma_mem_alloc_stop.allocated_bytes = UINT64_MAX;
    r[1].data.dma_mem_alloc_stop.physical_address = UINT64_MAX;
    r[1].data.dma_mem_alloc_stop.return_code = UINT64_MAX - 1;
    r[1].data.dma_mem_alloc_stop.usage_type_total_bytes = UINT64_C(1) << 63;
    r[1].data.dma_mem_alloc_stop.total_bytes = UINT64_MAX;
    r[2].trace_type = NRT_SYS_TRACE_EVENT_TYPE_ENC_BARRIER;
    r[2].phase = NRT_SYS_TRACE_EVENT_PHASE_INSTANT;
    r[2].data.enc_barrier.peer_id = INT_MIN;
    r[2].data.enc_barrier.exec_id = UINT64_MAX;
    r[2].data.enc_barrier.nec_dev_id = INT_MAX;
}

/* What ntsim itself writes reads back exactly: the JSON document record for
 * record (every field the document has), NTFF every value it keeps; and a
 * timeline made from what was read is the one made from the records. */
START_TEST(test_read_reads_u64_max_back_exactly)
{
    nrt_sys_trace_event_t want[3], *got;
    size_t n;
    char err[256] = "";
    edge_records(want);
    char *doc;
    size_t len;
    ck_assert_int_eq(ntsim_json_serialize(want, 3, &doc, &len), NRT_SUCCESS);
    ck_assert_ptr_nonnull(strstr(doc, "\"tracking_id\":18446744073709551615"));
    ck_assert_msg(read_back(doc, len, NTSIM_READ_MAX_EVENTS, &got,
                                          &n, err, sizeof err) == NRT_SUCCESS,
                  "%s", err);
    nrt_sys_trace_buffer_free(doc);
    ck_assert_uint_eq(n, 3);
    for (size_t i = 0; i < 3; i++)
        ck_assert_msg(memcmp(&got[i], &want[i], sizeof want[i]) == 0, "record %zu differs", i);
    char *a, *b;
    size_t alen, blen;
    ck_assert_int_eq(ntsim_chrome_trace_serialize(want, 3, NULL, &a, &alen), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_chrome_trace_serialize(got, n, NULL, &b, &blen), NRT_SUCCESS);
    ck_assert_uint_eq(alen, blen);
    ck_assert_mem_eq(a, b, alen);
    ntsim_buffer_free(a);
    ntsim_buffer_free(b);
    free(got);

    uint8_t *ntff;
    ck_assert_int_eq(ntsim_ntff_serialize(want, 3, NULL, 0, NULL, &ntff, &len), NRT_SUCCESS);
    ck_assert_msg(read_back(ntff, len,
                                          NTSIM_READ_MAX_EVENTS, &got, &n, err,
                                          sizeof err) == NRT_SUCCESS,
                  "%s", err);
    ntsim_buffer_free(ntff);
    ck_assert_uint_eq(n, 3);
    for (size_t i = 0; i < 3; i++) {
        ck_assert_uint_eq(got[i].id, want[i].id);
        ck_assert_uint_eq(got[i].tracking_id, UINT64_MAX);
        ck_assert_uint_eq(got[i].nrta_seq_id, UINT64_MAX);
        ck_assert_uint_eq(got[i].timestamp_ns, want[i].timestamp_ns);
        ck_assert_mem_eq(&got[i].data, &want[i].data, sizeof want[i].data);
    }
    free(got);
}
END_TEST

/* A one-event document: an nrt_dma_mem_alloc START (hbm_idx, mla_idx:
 * uint32_t; is_nc_hbm, is_aligned: bool), with `ids` and `data` spliced in. */
static void alloc_doc(char *out, size_t cap, const char *ids, const char *data)
{
    snprintf(out, cap,
             "{\"events\":[{\"event_type\":\"nrt_dma_mem_alloc\",\"phase\":\"start\",%s,"
             "\"data\":{%s}}],\"data_version\":2}",
             ids ? ids
                 : "\"id\":1,\"nc_idx\":0,\"nc_local_id\":1,\"tracking_id\":2,\"thread_id\":3,"
                   "\"timestamp_ns\":4",
             data ? data
                  : "\"hbm_idx\":0,\"is_nc_hbm\":true,\"is_aligned\":false,\"mla_idx\":0,"
                    "\"usage_type\":\"weight\"");
}

#define IDS_WITH(x) "\"id\":1,\"nc_idx\":0,\"nc_local_id\":1,\"tracking_id\":2," x ",\"timestamp_ns\":4"
#define DATA_WITH(x) "\"hbm_idx\":0,\"is_nc_hbm\":true,\"is_aligned\":false," x ",\"usage_type\":\"weight\""
#define U64_RANGE "an 8-byte unsigned field: 0..18446744073709551615"
#define U32_RANGE "a 4-byte unsigned field: 0..4294967295"
#define I32_RANGE "a 4-byte signed field: -2147483648..2147483647"

START_TEST(test_read_refuses_what_does_not_fit)
{
    static const struct {
        const char *ids, *data, *want;
    } cases[] = {
        {IDS_WITH("\"thread_id\":-2"), NULL,
         "events[0].thread_id: -2 is out of range (" U64_RANGE ")"},
        {IDS_WITH("\"thread_id\":18446744073709551616"), NULL,
         "events[0].thread_id: 18446744073709551616 is out of range (" U64_RANGE ")"},
        {"\"id\":1,\"nc_idx\":4294967296,\"nc_local_id\":1,\"tracking_id\":2,\"thread_id\":3,"
         "\"timestamp_ns\":4",
         NULL, "events[0].nc_idx: 4294967296 is out of range (" U32_RANGE ")"},
        {"\"id\":1.5,\"nc_idx\":0,\"nc_local_id\":1,\"tracking_id\":2,\"thread_id\":3,"
         "\"timestamp_ns\":4",
         NULL, "events[0].id: 1.5 is not an integer"},
        {"\"id\":1,\"id\":1,\"nc_idx\":0,\"nc_local_id\":1,\"tracking_id\":2,\"thread_id\":3,"
         "\"timestamp_ns\":4",
         NULL, "events[0].id: listed twice"},
        {IDS_WITH("\"thread_id\":\"3\""), NULL, "events[0].thread_id: missing or not an integer"},
        {NULL, DATA_WITH("\"mla_idx\":99999999999"),
         "events[0].data.mla_idx: 99999999999 is out of range (" U32_RANGE ")"},
        {NULL, DATA_WITH("\"mla_idx\":4294967296"),
         "events[0].data.mla_idx: 4294967296 is out of range (" U32_RANGE ")"},
        {NULL, DATA_WITH("\"mla_idx\":-1"),
         "events[0].data.mla_idx: -1 is out of range (" U32_RANGE ")"},
        {NULL, DATA_WITH("\"mla_idx\":\"-1\""),
         "events[0].data.mla_idx: \"-1\" is out of range (" U32_RANGE ")"},
        {NULL, DATA_WITH("\"mla_idx\":1e3"), "events[0].data.mla_idx: not a value of this key"},
        {NULL, DATA_WITH("\"mla_idx\":null"), "events[0].data.mla_idx: not a value of this key"},
        {NULL, DATA_WITH("\"mla_idx\":1,\"mla_idx\":2"), "events[0].data.mla_idx: listed twice"},
        {NULL, "\"hbm_idx\":0,\"is_nc_hbm\":5,\"is_aligned\":false,\"mla_idx\":0,"
               "\"usage_type\":\"weight\"",
         "events[0].data.is_nc_hbm: not a value of this key"},
        {NULL, DATA_WITH("\"mla_idx\":4294967295") ",\"usage_type\":\"weight\"",
         "events[0].data.usage_type: listed twice"},
    };
    char text[1024], err[256];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        nrt_sys_trace_event_t *recs;
        size_t n;
        alloc_doc(text, sizeof text, cases[i].ids, cases[i].data);
        ck_assert_int_eq(read_back(text, strlen(text),
                                                 NTSIM_READ_MAX_EVENTS, &recs, &n, err,
                                                 sizeof err),
                         NRT_INVALID);
        ck_assert_str_eq(err, cases[i].want);
        ck_assert_ptr_null(recs);
    }
    /* The edges themselves are values: u32 max in mla_idx, u64 max in thread_id. */
    nrt_sys_trace_event_t *recs;
    size_t n;
    alloc_doc(text, sizeof text, IDS_WITH("\"thread_id\":18446744073709551615"),
              DATA_WITH("\"mla_idx\":4294967295"));
    ck_assert_msg(read_back(text, strlen(text), 1, &recs, &n, err,
                                          sizeof err) == NRT_SUCCESS,
                  "%s", err);
    ck_assert_uint_eq(recs[0].thread_id, UINT64_MAX);
    ck_assert_uint_eq(recs[0].data.dma_mem_alloc_start.mla_idx, UINT32_MAX);
    free(recs);
    /* A signed C int: -2^31 .. 2^31 - 1 (enc_barrier's peer_id). */
    static const struct {
        const char *peer, *want;
    } ints[] = {
        {"2147483648", "events[0].data.peer_id: 2147483648 is out of range (" I32_RANGE ")"},
        {"-2147483649", "events[0].data.peer_id: -2147483649 is out of range (" I32_RANGE ")"},
        {"-2147483648", NULL},
    };
    for (size_t i = 0; i < 3; i++) {
        snprintf(text, sizeof text,
                 "{\"events\":[{\"event_type\":\"enc_barrier\",\"phase\":\"instant\",\"id\":1,"
                 "\"nc_idx\":0,\"nc_local_id\":1,\"tracking_id\":2,\"thread_id\":3,"
                 "\"timestamp_ns\":4,\"data\":{\"peer_id\":%s,\"exec_id\":5,\"nec_dev_id\":6}}]}",
                 ints[i].peer);
        NRT_STATUS st = read_back(text, strlen(text), 1, &recs, &n, err,
                                                sizeof err);
        if (ints[i].want != NULL) {
            ck_assert_int_eq(st, NRT_INVALID);
            ck_assert_str_eq(err, ints[i].want);
        } else {
            ck_assert_msg(st == NRT_SUCCESS, "%s", err);
            ck_assert_int_eq(recs[0].data.enc_barrier.peer_id, INT_MIN);
            free(recs);
        }
    }
}
END_TEST

/* An .ntff of one START of `type` whose one attribute `key` is `value`. */
static uint8_t *start_ntff(nrt_sys_trace_event_type_t type, const char *key, const char *value,
                           size_t *len)
{
    Ntff__NtraceEvent__AttributesEntry entry = NTFF__NTRACE_EVENT__ATTRIBUTES_ENTRY__INIT;
    Ntff__NtraceEvent__AttributesEntry *entries[1] = {&entry};
    Ntff__NtraceEvent ev = NTFF__NTRACE_EVENT__INIT;
    Ntff__NtraceEvent *events[1] = {&ev};
    Ntff__NtraceInfo info = NTFF__NTRACE_INFO__INIT;
    entry.key = (char *)key;
    entry.value = (char *)value;
    ev.has_event_type = 1;
    ev.event_type = (uint32_t)type;
    ev.has_phase = 1;
    ev.phase = NTFF__NTRACE_EVENT_PHASE_TYPE__START;
    ev.n_attributes = 1;
    ev.attributes = entries;
    info.n_events = 1;
    info.events = events;
    *len = ntff__ntrace_info__get_packed_size(&info);
    uint8_t *out = malloc(*len);
    ck_assert_ptr_nonnull(out);
    ntff__ntrace_info__pack(&info, out);
    return out;
}

START_TEST(test_read_refuses_ntff_attributes_that_do_not_fit)
{
    static const struct {
        const char *key, *value, *want;
    } cases[] = {
        {"mla_idx", "99999999999",
         "events[0].attributes.mla_idx: \"99999999999\" is out of range (" U32_RANGE ")"},
        {"mla_idx", "4294967296",
         "events[0].attributes.mla_idx: \"4294967296\" is out of range (" U32_RANGE ")"},
        {"hbm_idx", "-1", "events[0].attributes.hbm_idx: \"-1\" is out of range (" U32_RANGE ")"},
        {"hbm_idx", "007", "events[0].attributes.hbm_idx: \"007\" is not its value"},
        {"hbm_idx", " 7", "events[0].attributes.hbm_idx: \" 7\" is not its value"},
        {"is_nc_hbm", "1", "events[0].attributes.is_nc_hbm: \"1\" is not its value"},
        {"usage_type", "4294967296",
         "events[0].attributes.usage_type: \"4294967296\" is out of range (" U32_RANGE ")"},
        {"mla_idx", "4294967295", NULL},
        {"usage_type", "4294967295", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len, n;
        uint8_t *ntff =
            start_ntff(NRT_SYS_TRACE_EVENT_TYPE_DMA_MEM_ALLOC, cases[i].key, cases[i].value, &len);
        nrt_sys_trace_event_t *recs;
        char err[256] = "";
        NRT_STATUS st = read_back(ntff, len, 1, &recs, &n,
                                                err, sizeof err);
        free(ntff);
        if (cases[i].want != NULL) {
            ck_assert_int_eq(st, NRT_INVALID);
            ck_assert_str_eq(err, cases[i].want);
            continue;
        }
        ck_assert_msg(st == NRT_SUCCESS, "%s", err);
        ck_assert_uint_eq(n, 1);
        ck_assert_uint_eq(strcmp(cases[i].key, "mla_idx") == 0
                              ? recs[0].data.dma_mem_alloc_start.mla_idx
                              : (uint32_t)recs[0].data.dma_mem_alloc_start.usage_type,
                          UINT32_MAX);
        free(recs);
    }
    /* physical_address%hex of the dealloc START: 16 hex digits fit u64, 17 do not. */
    static const struct {
        const char *value;
        bool ok;
    } hex[] = {{"0xffffffffffffffff", true}, {"0x00000000000000001", true},
               {"0x10000000000000000", false}, {"0x", false}, {"0xg", false}};
    for (size_t i = 0; i < sizeof hex / sizeof hex[0]; i++) {
        size_t len, n;
        uint8_t *ntff = start_ntff(NRT_SYS_TRACE_EVENT_TYPE_DMA_MEM_DEALLOC, "physical_address",
                                   hex[i].value, &len);
        nrt_sys_trace_event_t *recs;
        char err[256] = "";
        NRT_STATUS st = read_back(ntff, len, 1, &recs, &n,
                                                err, sizeof err);
        free(ntff);
        ck_assert_msg((st == NRT_SUCCESS) == hex[i].ok, "%s: %s", hex[i].value, err);
        if (st == NRT_SUCCESS)
            ck_assert_uint_eq(recs[0].data.dma_mem_dealloc_start.physical_address,
                              i == 0 ? UINT64_MAX : 1);
        else
            ck_assert_str_eq(err, i == 2 ? "events[0].attributes.physical_address: "
                                           "\"0x10000000000000000\" is out of range (" U64_RANGE ")"
                                         : hex[i].value[2] == '\0'
                                               ? "events[0].attributes.physical_address: \"0x\" "
                                                 "is not its value"
                                               : "events[0].attributes.physical_address: \"0xg\" "
                                                 "is not its value");
        free(recs);
    }
}
END_TEST

/* More events than max_events is refused in each format, before the records
 * are kept; exactly max_events is read. */
START_TEST(test_read_counts_events_against_the_limit)
{
    nrt_sys_trace_event_t want[3], *got;
    edge_records(want);
    char *doc;
    uint8_t *ntff;
    size_t jlen, nlen, n;
    char err[256];
    ck_assert_int_eq(ntsim_json_serialize(want, 3, &doc, &jlen), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_ntff_serialize(want, 3, NULL, 0, NULL, &ntff, &nlen), NRT_SUCCESS);
    const struct {
        const char *kind;
        const void *data;
        size_t len;
        const char *want;
    } files[] = {
        {"t.json", doc, jlen, "events: more than 2 events (the --max-events limit)"},
        {"t.ntff", ntff, nlen, "events: more than 2 events (the --max-events limit)"},
        {"t.records", want, sizeof want,
         "events: more than 2 events (the --max-events limit; the dump holds 3 records)"},
    };
    for (size_t f = 0; f < 3; f++) {
        ck_assert_int_eq(read_back(files[f].data, files[f].len, 2,
                                                 &got, &n, err, sizeof err),
                         NRT_INVALID);
        ck_assert_str_eq(err, files[f].want);
        ck_assert_ptr_null(got);
        ck_assert_msg(read_back(files[f].data, files[f].len, 3, &got,
                                              &n, err, sizeof err) == NRT_SUCCESS,
                      "%s: %s", files[f].kind, err);
        ck_assert_uint_eq(n, 3);
        free(got);
    }
    nrt_sys_trace_buffer_free(doc);
    ntsim_buffer_free(ntff);
}
END_TEST

/* --- a scan ------------------------------------------------------------------------ */

/* What a scan's callback saw: the batch sizes and the records' ids in order. */
typedef struct {
    size_t batches, records, sizes[4];
    bool in_order;
    const char *grow; /* a path to add a record to during the first batch, or NULL */
} scan_seen_t;

static NRT_STATUS see_batch(const nrt_sys_trace_event_t *events, size_t count, void *ctx)
{
    scan_seen_t *s = ctx;
    for (size_t i = 0; i < count; i++)
        s->in_order = s->in_order && events[i].id == s->records + i + 1;
    if (s->batches < 4)
        s->sizes[s->batches] = count;
    s->batches++;
    s->records += count;
    if (s->grow != NULL && s->batches == 1) {
        FILE *f = fopen(s->grow, "ab");
        nrt_sys_trace_event_t more = {0};
        ck_assert_ptr_nonnull(f);
        ck_assert_uint_eq(fwrite(&more, sizeof more, 1, f), 1);
        ck_assert_int_eq(fclose(f), 0);
    }
    return NRT_SUCCESS;
}

/* D-READ, a scan: a record dump of NTSIM_READ_BATCH + 1 records goes to the
 * callback as a batch of 4096 then one of 1, in the file's order; the trace
 * handed back has no records and counts the 4097 scanned (ntsim/read.h). The
 * dump is read from the file a batch at a time (memory: one batch), so a
 * record added to it while its first batch is handed on is seen: the scan
 * says the file changed while it was read, after handing on its records. */
START_TEST(test_scan_file_hands_on_a_dump_a_batch_at_a_time)
{
    enum { N = NTSIM_READ_BATCH + 1 };
    nrt_sys_trace_event_t *recs = calloc(N, sizeof *recs);
    ck_assert_ptr_nonnull(recs);
    for (size_t i = 0; i < N; i++) {
        recs[i].trace_type = NRT_SYS_TRACE_EVENT_TYPE_EXECUTE_API;
        recs[i].id = i + 1;
    }
    char dir[] = "/tmp/ntsim_scan_XXXXXX", path[64], err[512];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/dump", dir);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(recs, sizeof *recs, N, f), N);
    ck_assert_int_eq(fclose(f), 0);
    scan_seen_t seen = {0, 0, {0}, true, NULL};
    ntsim_trace_t *t = NULL;
    ck_assert_msg(ntsim_trace_scan_file(path, NULL, see_batch, &seen, &t, err, sizeof err) ==
                      NRT_SUCCESS, "%s", err);
    ck_assert_uint_eq(seen.batches, 2);
    ck_assert_uint_eq(seen.sizes[0], NTSIM_READ_BATCH);
    ck_assert_uint_eq(seen.sizes[1], 1);
    ck_assert(seen.in_order);
    ck_assert_int_eq(t->format, NTSIM_TRACE_FORMAT_RECORDS);
    ck_assert_ptr_null(t->events);
    ck_assert_uint_eq(t->event_count, N);
    ntsim_trace_free(t);
    scan_seen_t grows = {0, 0, {0}, true, path};
    t = (ntsim_trace_t *)&t;
    ck_assert_int_eq(ntsim_trace_scan_file(path, NULL, see_batch, &grows, &t, err, sizeof err),
                     NRT_INVALID);
    ck_assert_ptr_null(t);
    ck_assert_uint_eq(grows.records, N);
    char want[256];
    snprintf(want, sizeof want, "%s: the file changed while it was read", path);
    ck_assert_str_eq(err, want);
    free(recs);
    ck_assert_int_eq(remove(path), 0);
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

Suite *make_read_suite(void)
{
    Suite *s = suite_create("read");
    TCase *tc = tcase_create("read");
    tcase_add_test(tc, test_json_reader_integers_are_exact_over_u64);
    tcase_add_test(tc, test_json_reader_strings_decode_and_refuse);
    tcase_add_test(tc, test_json_reader_structure_depth_and_position);
    tcase_add_test(tc, test_read_reads_u64_max_back_exactly);
    tcase_add_test(tc, test_read_refuses_what_does_not_fit);
    tcase_add_test(tc, test_read_refuses_ntff_attributes_that_do_not_fit);
    tcase_add_test(tc, test_read_counts_events_against_the_limit);
    tcase_add_test(tc, test_scan_file_hands_on_a_dump_a_batch_at_a_time);
    suite_add_tcase(s, tc);
    return s;
}
