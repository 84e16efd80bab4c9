/*
 * conformance/unit/engine/timeline/check_output_formats.c: the one registry
 * of output formats (engine/timeline/output_formats.h; D-TIMELINE) and what
 * is made from it or checked against it: each format listed once, found by
 * its extensions, its writer writing to the caller's stream (and saying
 * when the stream refuses), its own test suite and its decision (its row in
 * the README's table: conformance/proofs/readme_formats.sh). A format added
 * to the registry without the rest fails here (make add-format-check proves
 * it).
 */
#include <stdio.h>
#include <string.h>

#include "check_timeline.h"

/* Each format has its own tests (the suite named after it, whose exact
 * bytes pin it) and a decision saying what it holds. */
START_TEST(test_every_output_format_has_its_suite_and_its_decision)
{
    size_t count;
    const ntsim_output_format_t *f = ntsim_output_formats(&count);
    ck_assert_uint_gt(count, 0);
    for (size_t i = 0; i < count; i++) {
        ck_assert_msg(ntsim_check_has_suite(f[i].name),
                      "output format %s: no suite \"%s\" (check_%s.c, check_main.c's table)",
                      f[i].name, f[i].name, f[i].name);
        ck_assert_msg(ntsim_facts_has_decision(&ntsim_check_facts, f[i].decision,
                                               strlen(f[i].decision)),
                      "output format %s: %s is not in docs/decisions.md", f[i].name,
                      f[i].decision);
    }
}
END_TEST

/* Listed once: no two formats share a name, a file or an extension; every
 * extension starts with '.', every field is there. */
START_TEST(test_output_formats_are_listed_once)
{
    size_t count;
    const ntsim_output_format_t *f = ntsim_output_formats(&count);
    for (size_t i = 0; i < count; i++) {
        ck_assert(f[i].name[0] && f[i].title[0] && f[i].file[0] && f[i].description[0]);
        ck_assert(f[i].write != NULL);
        ck_assert_msg(strchr(f[i].description, '\n') == NULL, "%s: one line", f[i].name);
        for (size_t j = 0; j < i; j++) {
            ck_assert_str_ne(f[i].name, f[j].name);
            ck_assert_str_ne(f[i].file, f[j].file);
        }
        ck_assert_ptr_eq(ntsim_output_format_named(f[i].name), &f[i]);
        /* Each extension picks its format, wherever it is listed. */
        for (const char *s = f[i].extensions; *s != '\0';) {
            size_t m = strcspn(s, " ");
            ck_assert_msg(s[0] == '.' && m > 1, "%s: extension %.*s", f[i].name, (int)m, s);
            char path[80];
            snprintf(path, sizeof path, "dir.x/out%.*s", (int)m, s);
            ck_assert_msg(ntsim_output_format_for_path(path) == &f[i], "%s picks %s", path,
                          ntsim_output_format_for_path(path)
                              ? ntsim_output_format_for_path(path)->name
                              : "nothing");
            s += m;
            s += strspn(s, " ");
        }
        /* Its own file is written in it. */
        ck_assert_ptr_eq(ntsim_output_format_for_path(f[i].file), &f[i]);
    }
    ck_assert_ptr_null(ntsim_output_format_for_path("out.txt"));
    ck_assert_ptr_null(ntsim_output_format_for_path(""));
    ck_assert_ptr_null(ntsim_output_format_named("no such format"));
}
END_TEST

/* A writer writes to the caller's stream: to a file the same bytes as to
 * memory; a stream that refuses the bytes is NRT_FAILURE, a NULL one or NULL
 * records NRT_INVALID, nothing written. */
START_TEST(test_output_writers_write_to_the_callers_stream)
{
    nrt_sys_trace_event_t a[16];
    size_t na = trace_a(a), count;
    const ntsim_output_format_t *f = ntsim_output_formats(&count);
    for (size_t i = 0; i < count; i++) {
        char *mem = NULL;
        size_t mem_len = 0;
        FILE *m = open_memstream(&mem, &mem_len);
        ck_assert_ptr_nonnull(m);
        ck_assert_int_eq(f[i].write(a, na, NULL, m), NRT_SUCCESS);
        ck_assert_int_eq(fclose(m), 0);
        ck_assert_uint_gt(mem_len, 0);
        FILE *t = tmpfile();
        ck_assert_ptr_nonnull(t);
        ck_assert_int_eq(f[i].write(a, na, NULL, t), NRT_SUCCESS);
        ck_assert_int_eq(fflush(t), 0);
        ck_assert_int_eq(ftell(t), (long)mem_len);
        rewind(t);
        char *back = malloc(mem_len);
        ck_assert_ptr_nonnull(back);
        ck_assert_uint_eq(fread(back, 1, mem_len, t), mem_len);
        ck_assert_mem_eq(back, mem, mem_len);
        fclose(t);
        free(back);
        free(mem);
        FILE *ro = fopen("/dev/null", "r"); /* a stream that refuses every write */
        ck_assert_ptr_nonnull(ro);
        ck_assert_int_eq(f[i].write(a, na, NULL, ro), NRT_FAILURE);
        fclose(ro);
        ck_assert_int_eq(f[i].write(a, na, NULL, NULL), NRT_INVALID);
        FILE *none = tmpfile();
        ck_assert_ptr_nonnull(none);
        ck_assert_int_eq(f[i].write(NULL, 1, NULL, none), NRT_INVALID);
        ck_assert_int_eq(ftell(none), 0);
        fclose(none);
    }
}
END_TEST

/* The formats that had a public serializer before the registry write its
 * bytes exactly (a writer that lost them, or wrote them twice, fails). */
START_TEST(test_serialized_formats_write_their_serializers_bytes)
{
    nrt_sys_trace_event_t b[16];
    size_t nb = trace_b(b);
    uint8_t *pf;
    char *chrome, *html;
    size_t lens[3];
    ck_assert_int_eq(ntsim_pftrace_serialize(b, nb, &options_b, &pf, &lens[0]), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_chrome_trace_serialize(b, nb, &options_b, &chrome, &lens[1]),
                     NRT_SUCCESS);
    ck_assert_int_eq(ntsim_timeline_html_serialize(b, nb, &options_b, &html, &lens[2]),
                     NRT_SUCCESS);
    const void *bytes[3] = {pf, chrome, html};
    static const char *const names[3] = {"pftrace", "chrome_trace", "timeline_html"};
    for (size_t i = 0; i < 3; i++) {
        const ntsim_output_format_t *f = ntsim_output_format_named(names[i]);
        ck_assert_ptr_nonnull(f);
        char *mem = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&mem, &len);
        ck_assert_ptr_nonnull(m);
        ck_assert_int_eq(f->write(b, nb, &options_b, m), NRT_SUCCESS);
        ck_assert_int_eq(fclose(m), 0);
        ck_assert_uint_eq(len, lens[i]);
        ck_assert_mem_eq(mem, bytes[i], len);
        free(mem);
    }
    ntsim_buffer_free(pf);
    ntsim_buffer_free(chrome);
    ntsim_buffer_free(html);
}
END_TEST

Suite *make_output_formats_suite(void)
{
    Suite *s = suite_create("output_formats");
    TCase *tc = tcase_create("output_formats");
    tcase_add_checked_fixture(tc, host_setup, host_teardown);
    tcase_add_test(tc, test_every_output_format_has_its_suite_and_its_decision);
    tcase_add_test(tc, test_output_formats_are_listed_once);
    tcase_add_test(tc, test_output_writers_write_to_the_callers_stream);
    tcase_add_test(tc, test_serialized_formats_write_their_serializers_bytes);
    suite_add_tcase(s, tc);
    return s;
}
