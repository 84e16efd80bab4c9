/*
 * conformance/unit/engine/timeline/check_timeline_writers.c: what the timeline writers
 * share: outputs that grow past their first reservation, ntsim__text_put
 * (timeline.h), and the out-of-memory paths of every writer and of the stats
 * (D-ALLOCATOR): every allocation failing in turn gives NRT_RESOURCE with
 * nothing left allocated, or the same bytes as without a failure.
 */
#define _GNU_SOURCE /* open_memstream */
#include <stdio.h>
#include <wchar.h>

#include "alloc.h"
#include "check_timeline.h"

/* n MODEL_SUBMIT instants on NC 0, record i on thread 1000 + i at
 * (i + 1) ms, with tracking id, nc_local_id and id i: one lane each. The
 * caller frees the array. */
static nrt_sys_trace_event_t *instants_on_threads(size_t n)
{
    nrt_sys_trace_event_t *r = malloc(n * sizeof *r);
    ck_assert_ptr_nonnull(r);
    for (size_t i = 0; i < n; i++)
        r[i] = rec(TY(MODEL_SUBMIT), I, 0, 1000 + i, i, 1000000 * (i + 1), i, i);
    return r;
}

/* Outputs past what the writers reserve up front (the Chrome JSON's 200 bytes
 * per edge, the page's 100 per item do not cover the lanes' names): 300
 * threads, one instant each, 1 ms apart. D-TIMELINE-ORDER: 300 lanes; NC 0's
 * 300 records give a lost sample and pushed samples every second record
 * (300 / 256 + 1 = 2) and at the last: 150 + 1. So the Chrome JSON holds 4
 * process and 600 thread metadata events, 300 instants and 152 samples. */
START_TEST(test_writers_grow_past_their_first_reservation)
{
    nrt_sys_trace_event_t *r = instants_on_threads(300);
    char *doc = NULL;
    size_t len;
    ck_assert_int_eq(ntsim_chrome_trace_serialize(r, 300, NULL, &doc, &len), NRT_SUCCESS);
    size_t events = 0;
    for (const char *p = doc; (p = strstr(p, "{\"ph\":")) != NULL; p++)
        events++;
    ck_assert_uint_eq(events, 4 + 600 + 300 + 152);
    ck_assert_ptr_nonnull(strstr(doc, "\"name\":\"thread_name\",\"pid\":1,\"tid\":1299,"
                                      "\"args\":{\"name\":\"thread 1299\"}}"));
    ck_assert_ptr_nonnull(strstr(doc, "\"ts\":299001.000,\"s\":\"t\""));
    ck_assert_str_eq(doc + len - 2, "}\n");
    ntsim_buffer_free(doc);
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, 300, NULL, &doc, &len), NRT_SUCCESS);
    size_t lanes = 0;
    for (const char *p = doc; (p = strstr(p, "\n[\"thread ")) != NULL; p++)
        lanes++;
    ck_assert_uint_eq(lanes, 300);
    ck_assert_ptr_nonnull(strstr(doc, "\n[\"thread 1299\",1]],\n\"items\":["));
    ck_assert_str_eq(doc + len - strlen("</body></html>\n"), "</body></html>\n");
    ntsim_buffer_free(doc);
    free(r);
}
END_TEST

/* ntsim__text_put (timeline.h): a piece goes where it fits with its NUL,
 * else the buffer grows and it goes there; the first failure sticks. The
 * growbuf's first capacity is 4096 (growbuf.h): after 10 bytes, a piece of
 * 4086 fills it to the last byte, so it (with its NUL) needs the next
 * capacity, and comes out whole. */
START_TEST(test_text_put_fills_its_buffer_to_the_last_byte)
{
    ntsim_textout_t o = {{NULL, 0, 0}, NRT_SUCCESS};
    ntsim__text_put(&o, "%s", "0123456789");
    ck_assert_int_eq(o.st, NRT_SUCCESS);
    ck_assert_uint_eq(o.b.len, 10);
    ck_assert_uint_eq(o.b.cap, 4096);
    char *piece = malloc(4087);
    ck_assert_ptr_nonnull(piece);
    memset(piece, 'p', 4086);
    piece[4086] = '\0';
    ntsim__text_put(&o, "%s", piece);
    ck_assert_int_eq(o.st, NRT_SUCCESS);
    ck_assert_uint_eq(o.b.len, 4096);
    ck_assert_uint_eq(o.b.cap, 8192);
    ck_assert(memcmp(o.b.data, "0123456789", 10) == 0);
    ck_assert(memcmp(o.b.data + 10, piece, 4086) == 0);
    ck_assert_int_eq(o.b.data[4096], '\0');
    ntsim__text_put(&o, "%s", ""); /* nothing: a no-op */
    ck_assert_uint_eq(o.b.len, 4096);
    /* Out of memory while growing: NRT_RESOURCE, and it sticks. The first
     * piece fits in the 8192 (8182 bytes and the NUL), the second does not. */
    ntsim_probe_begin(0);
    ntsim__text_put(&o, "%s", piece);
    ck_assert_int_eq(o.st, NRT_SUCCESS);
    ck_assert_uint_eq(o.b.len, 8182);
    ntsim__text_put(&o, "%s", piece);
    ck_assert_int_eq(o.st, NRT_RESOURCE);
    ck_assert_uint_eq(o.b.len, 8182);
    ntsim_probe_end();
    ntsim__text_put(&o, "%s", "x");
    ck_assert_int_eq(o.st, NRT_RESOURCE);
    ck_assert_uint_eq(o.b.len, 8182);
    ntsim__free(o.b.data);
    free(piece);
}
END_TEST

/* --- out of memory (D-ALLOCATOR) -------------------------------------------------------- */

typedef NRT_STATUS (*writer_fn)(const nrt_sys_trace_event_t *, size_t,
                                const ntsim_timeline_options_t *, void **, size_t *);

/* The registry's format under test (writer_fn takes no context). */
static const ntsim_output_format_t *g_format;

/* g_format's writer into a memory stream (libc's blocks, not the engine's):
 * *out is the file's bytes, malloc'd. */
static NRT_STATUS write_format(const nrt_sys_trace_event_t *r, size_t n,
                               const ntsim_timeline_options_t *o, void **out, size_t *len)
{
    char *bytes = NULL;
    FILE *f = open_memstream(&bytes, len);
    ck_assert_ptr_nonnull(f);
    NRT_STATUS st = g_format->write(r, n, o, f);
    ck_assert_int_eq(fclose(f), 0);
    if (st != NRT_SUCCESS) {
        free(bytes);
        return st;
    }
    *out = bytes;
    return NRT_SUCCESS;
}

static NRT_STATUS write_chrome(const nrt_sys_trace_event_t *r, size_t n,
                               const ntsim_timeline_options_t *o, void **out, size_t *len)
{
    return ntsim_chrome_trace_serialize(r, n, o, (char **)out, len);
}

static NRT_STATUS write_stats(const nrt_sys_trace_event_t *r, size_t n,
                              const ntsim_timeline_options_t *o, void **out, size_t *len)
{
    ntsim_timeline_stats_t *st = malloc(sizeof *st);
    ck_assert_ptr_nonnull(st);
    NRT_STATUS rc = ntsim_timeline_stats(r, n, o, st);
    if (rc != NRT_SUCCESS) {
        free(st);
        return rc;
    }
    *out = st;
    *len = sizeof *st;
    return NRT_SUCCESS;
}

/* Every allocation of a writer failing in turn: NRT_RESOURCE and nothing
 * left allocated, until enough are allowed; then the same bytes as with no
 * limit, and only the output left allocated when it is the engine's block
 * (`output_block`; a stream's or the stats' are libc's). */
static void check_out_of_memory(writer_fn w, bool output_block, const nrt_sys_trace_event_t *r,
                                size_t n, const ntsim_timeline_options_t *o)
{
    void *whole = NULL;
    size_t whole_len = 0;
    ck_assert_int_eq(w(r, n, o, &whole, &whole_len), NRT_SUCCESS);
    for (uint64_t allow = 0;; allow++) {
        ck_assert_uint_lt(allow, 10000);
        void *out = NULL;
        size_t len = 0;
        ntsim_probe_begin(allow);
        NRT_STATUS st = w(r, n, o, &out, &len);
        ntsim_probe_end();
        if (st != NRT_SUCCESS) {
            ck_assert_int_eq(st, NRT_RESOURCE);
            ck_assert_msg(ntsim_probe.live == 0, "allow %u: %zu blocks left", (unsigned)allow,
                          ntsim_probe.live);
            continue;
        }
        ck_assert_uint_eq(ntsim_probe.refused, 0);
        ck_assert_uint_eq(ntsim_probe.live, output_block ? 1 : 0);
        ck_assert_uint_eq(len, whole_len);
        ck_assert(memcmp(out, whole, len) == 0);
        if (output_block)
            ntsim_buffer_free(out);
        else
            free(out);
        break;
    }
    if (output_block)
        ntsim_buffer_free(whole);
    else
        free(whole);
}

/* Every format of the registry (however many it lists), and the stats. */
START_TEST(test_writers_run_out_of_memory_cleanly)
{
    nrt_sys_trace_event_t a[16], b[16];
    size_t na = trace_a(a), nb = trace_b(b), count;
    const ntsim_output_format_t *formats = ntsim_output_formats(&count);
    /* 300 instants on 300 threads: outputs past the writers' first
     * reservation, so they grow. */
    nrt_sys_trace_event_t *many = malloc(300 * sizeof *many);
    ck_assert_ptr_nonnull(many);
    for (size_t i = 0; i < 300; i++)
        many[i] = rec(TY(MODEL_SUBMIT), I, 0, 1000 + i, i, 1000 + 10 * i, i, i);
    for (size_t i = 0; i <= count; i++) {
        writer_fn w = i < count ? write_format : write_stats;
        g_format = i < count ? &formats[i] : NULL;
        check_out_of_memory(w, false, a, na, NULL);
        check_out_of_memory(w, false, b, nb, &options_b);
        check_out_of_memory(w, false, many, 300, NULL);
    }
    free(many);
}
END_TEST

/* An allocator as C 7.22.3 lets malloc be: a request of zero bytes may give
 * NULL. The writers ask for no empty block (an empty trace included), so
 * such a NULL is never taken for running out of memory. */
static void *malloc_null_for_zero(size_t n)
{
    return n == 0 ? NULL : malloc(n);
}

static void *calloc_null_for_zero(size_t count, size_t n)
{
    return count == 0 || n == 0 ? NULL : calloc(count, n);
}

/* An allocator that refuses, once, the first new block of 8 KiB or more (a
 * writer's first output buffer), and then gives what is asked. */
static bool g_refused_big;

static void *realloc_refuse_first_big(void *p, size_t n)
{
    if (p == NULL && n >= 8192 && !g_refused_big) {
        g_refused_big = true;
        return NULL;
    }
    return realloc(p, n);
}

/* facts §4, D-ALLOCATOR: a failed allocation gives NRT_RESOURCE with
 * nothing lost, or, when the writer does without the block, the same bytes
 * as without the failure; never a write through the NULL it got. Every
 * format of the registry. */
START_TEST(test_writers_take_no_empty_block_and_survive_a_refused_first_buffer)
{
    nrt_sys_trace_event_t r[2];
    r[0] = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 5000, 0, 0);
    r[1] = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 6000, 1, 1);
    ntsim_probe_end();
    size_t count;
    const ntsim_output_format_t *formats = ntsim_output_formats(&count);
    for (size_t w = 0; w < count; w++) {
        g_format = &formats[w];
        for (size_t n = 0; n <= 2; n += 2) {
            void *want = NULL, *got = NULL;
            size_t want_len = 0, got_len = 0;
            ck_assert_int_eq(write_format(r, n, NULL, &want, &want_len), NRT_SUCCESS);
            ck_assert_int_eq(ntsim_replace_allocator(malloc_null_for_zero, realloc,
                                                     calloc_null_for_zero, free),
                             NRT_SUCCESS);
            NRT_STATUS st = write_format(r, n, NULL, &got, &got_len);
            ck_assert_msg(st == NRT_SUCCESS, "%s, %zu records: %d", g_format->name, n, (int)st);
            ck_assert(got_len == want_len && memcmp(got, want, want_len) == 0);
            free(got);
            got = NULL;
            g_refused_big = false;
            ck_assert_int_eq(ntsim_replace_allocator(malloc, realloc_refuse_first_big, calloc,
                                                     free),
                             NRT_SUCCESS);
            st = write_format(r, n, NULL, &got, &got_len);
            ck_assert_int_eq(ntsim_replace_allocator(NULL, NULL, NULL, NULL), NRT_SUCCESS);
            if (st == NRT_SUCCESS)
                ck_assert(got_len == want_len && memcmp(got, want, want_len) == 0);
            else
                ck_assert_msg(st == NRT_RESOURCE && got == NULL, "%s: %d", g_format->name,
                              (int)st);
            free(got);
            free(want);
        }
    }
}
END_TEST

/* timeline.h: ntsim__text_put's "first failure sticks in st and later calls
 * do nothing" holds for a failed format too, not only for out of memory: a
 * wide character no charset encodes ((wchar_t)-1, refused by wcrtomb in the C
 * locale and in UTF-8 alike) makes vsnprintf fail. That is an output (I/O)
 * failure, not out of memory: NRT_FAILURE (D-STATUS). The text before it
 * stays, nothing after it is added. */
START_TEST(test_text_put_format_failure_sticks_as_nrt_failure)
{
    static const wchar_t unencodable[] = {(wchar_t)-1, 0};
    ntsim_textout_t o = {{NULL, 0, 0}, NRT_SUCCESS};
    ntsim__text_put(&o, "%s", "ab");
    ck_assert_int_eq(o.st, NRT_SUCCESS);
    ck_assert_uint_eq(o.b.len, 2);
    ntsim__text_put(&o, "%ls", unencodable);
    ck_assert_int_eq(o.st, NRT_FAILURE);
    ck_assert_uint_eq(o.b.len, 2);
    ntsim__text_put(&o, "%s", "cd");
    ck_assert_int_eq(o.st, NRT_FAILURE);
    ck_assert_uint_eq(o.b.len, 2);
    ck_assert(memcmp(o.b.data, "ab", 2) == 0);
    ntsim__free(o.b.data);
}
END_TEST

/* D-ALLOCATOR for the Chrome JSON when the memory runs out while the
 * document grows past its first reservation, not only before it: 400
 * threads, one instant each, 1 ms apart (the records of
 * test_writers_grow_past_their_first_reservation, 100 more: about 390 bytes
 * of output per thread, while the first capacity, 256 + 200 per edge rounded
 * up to a power of two from 4096, is 131072 for these ~600 edges). Every
 * refused allocation gives NRT_RESOURCE with nothing left allocated, the
 * half-written document included; then the same bytes as with no limit. */
START_TEST(test_chrome_json_out_of_memory_while_growing_leaks_nothing)
{
    nrt_sys_trace_event_t *r = instants_on_threads(400);
    char *doc = NULL;
    size_t len = 0;
    ck_assert_int_eq(ntsim_chrome_trace_serialize(r, 400, NULL, &doc, &len), NRT_SUCCESS);
    ck_assert_uint_gt(len, 131072);
    ntsim_buffer_free(doc);
    check_out_of_memory(write_chrome, true, r, 400, NULL);
    free(r);
}
END_TEST

Suite *make_timeline_writers_suite(void)
{
    Suite *s = suite_create("timeline_writers");
    TCase *tc = tcase_create("timeline_writers");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_writers_grow_past_their_first_reservation);
    tcase_add_test(tc, test_text_put_fills_its_buffer_to_the_last_byte);
    tcase_add_test(tc, test_writers_run_out_of_memory_cleanly);
    tcase_add_test(tc, test_writers_take_no_empty_block_and_survive_a_refused_first_buffer);
    tcase_add_test(tc, test_text_put_format_failure_sticks_as_nrt_failure);
    tcase_add_test(tc, test_chrome_json_out_of_memory_while_growing_leaks_nothing);
    suite_add_tcase(s, tc);
    return s;
}
