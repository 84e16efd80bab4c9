/*
 * conformance/unit/engine/check_services.c: the services under the API: the log sink
 * (D-LOG), the replaceable allocator (D-ALLOCATOR) and the blocks the
 * type-name lists are made of (facts §4: calloc(46, 8), one strdup per
 * name, unwound on out-of-memory). Every value is worked out from those
 * entries; the allocator probe (alloc_probe.h) counts the blocks.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "alloc.h"
#include "alloc_probe.h"
#include "capture_fixture.h"
#include "check_suites.h"
#include "nrt/nrt_sys_trace.h"
#include "ntsim/convert.h"
#include "session.h"
#include "suggest.h"

static void setup(void)
{
    ntsim_fixture_begin(1000, 10, 4242);
}

static void teardown(void)
{
    ntsim_probe_end();
    ntsim_fixture_end();
}

/* Runs fn with stderr going to a file; out gets what it wrote. */
static void capture_stderr(void (*fn)(void), char *out, size_t cap)
{
    fflush(stderr);
    FILE *tmp = tmpfile();
    ck_assert_ptr_nonnull(tmp);
    int saved = dup(STDERR_FILENO);
    ck_assert_int_ge(saved, 0);
    ck_assert_int_ge(dup2(fileno(tmp), STDERR_FILENO), 0);
    fn();
    fflush(stderr);
    ck_assert_int_ge(dup2(saved, STDERR_FILENO), 0);
    close(saved);
    rewind(tmp);
    size_t n = fread(out, 1, cap - 1, tmp);
    out[n] = '\0';
    fclose(tmp);
}

/* One message of each level through the default sink: an error (an unknown
 * type name, D-SETTER-NAMES), a warning (stop while not capturing, facts §4)
 * and the info start logs (the ring memory, facts §5). */
static void log_one_of_each_level(void)
{
    ntsim_log_set_sink(NULL, NULL);
    nrt_sys_trace_config_t cfg;
    static const uint32_t nc0[] = {0};
    ntsim_fixture_config(&cfg, 1024, nc0, 1);
    ck_assert_int_eq(nrt_sys_trace_config_set_capture_enabled_for_event_type(&cfg, "no_such_type",
                                                                              true),
                     NRT_INVALID);
    ck_assert_int_ne(nrt_sys_trace_stop(), NRT_SUCCESS);
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
}

/* D-LOG: errors and warnings reach stderr as "ntsim: <level>: <message>",
 * one line each; info does not. */
START_TEST(test_default_log_sink_prints_errors_and_warnings_not_info)
{
    char text[2048];
    capture_stderr(log_one_of_each_level, text, sizeof text);
    const char *nl = strchr(text, '\n');
    ck_assert_ptr_nonnull(nl);
    ck_assert_msg(strncmp(text, "ntsim: error: ", 14) == 0, "first line: %s", text);
    ck_assert_ptr_nonnull(strstr(text, "no_such_type"));
    ck_assert_msg(strstr(text, "no_such_type") < nl, "the error is one line: %s", text);
    ck_assert_msg(strncmp(nl + 1, "ntsim: warning: ", 16) == 0, "second line: %s", nl + 1);
    const char *nl2 = strchr(nl + 1, '\n');
    ck_assert_ptr_nonnull(nl2);
    ck_assert_msg(nl2[1] == '\0', "only two lines (no info): %s", text);
}
END_TEST

static size_t g_logged_len;
static unsigned g_logged;

static void length_sink(ntsim_log_level_t level, const char *message, void *ctx)
{
    (void)level;
    (void)ctx;
    g_logged_len = strlen(message);
    g_logged++;
}

/* D-LOG: a message is cut at 511 bytes; a short one arrives whole. */
START_TEST(test_log_message_is_cut_at_511_bytes)
{
    nrt_sys_trace_config_t cfg;
    nrt_sys_trace_config_set_defaults(&cfg);
    char name[601];
    memset(name, 'x', 600);
    name[600] = '\0';
    g_logged = 0;
    ntsim_log_set_sink(length_sink, NULL);
    ck_assert_int_eq(nrt_sys_trace_config_set_capture_enabled_for_event_type(&cfg, name, true),
                     NRT_INVALID);
    ck_assert_uint_eq(g_logged, 1);
    ck_assert_uint_eq(g_logged_len, 511);
    name[10] = '\0';
    ck_assert_int_eq(nrt_sys_trace_config_set_capture_enabled_for_event_type(&cfg, name, true),
                     NRT_INVALID);
    ck_assert_uint_eq(g_logged, 2);
    ck_assert_uint_gt(g_logged_len, 10);
    ck_assert_uint_lt(g_logged_len, 100);
}
END_TEST

/* D-ALLOCATOR: all four NULL restores libc's, free included: a block the
 * probe handed out and the engine frees afterwards goes to libc's free, not
 * to the probe's. */
START_TEST(test_all_null_allocator_restores_every_function)
{
    nrt_sys_trace_config_t *cfg = NULL;
    ntsim_probe_begin(UINT64_MAX);
    ck_assert_int_eq(nrt_sys_trace_config_allocate(&cfg), NRT_SUCCESS);
    ntsim_probe_end();
    ck_assert_uint_eq(ntsim_probe.allocs, 1);
    ck_assert_uint_eq(ntsim_probe.live, 1);
    nrt_sys_trace_config_free(cfg); /* libc's free: the probe wraps malloc */
    ck_assert_uint_eq(ntsim_probe.frees, 0);
    ck_assert_uint_eq(ntsim_probe.live, 1);
}
END_TEST

/* facts §4: get_event_types is calloc(46, 8), then slot i = strdup(name i):
 * strlen + 1 bytes each, in slot order. */
START_TEST(test_get_event_types_allocates_as_calloc_and_strdup)
{
    const char **names = NULL;
    size_t count = 0;
    ntsim_probe_begin(UINT64_MAX);
    ck_assert_int_eq(nrt_sys_trace_get_event_types(&names, &count), NRT_SUCCESS);
    ntsim_probe_end();
    ck_assert_uint_eq(count, NRT_SYS_TRACE_EVENT_TYPE_COUNT);
    ck_assert_uint_eq(ntsim_probe.ncalls, NRT_SYS_TRACE_EVENT_TYPE_COUNT + 1);
    ck_assert_int_eq(ntsim_probe.calls[0].kind, NTSIM_PROBE_CALLOC);
    ck_assert_uint_eq(ntsim_probe.calls[0].count, NRT_SYS_TRACE_EVENT_TYPE_COUNT);
    ck_assert_uint_eq(ntsim_probe.calls[0].size, 8);
    for (size_t i = 0; i < count; i++) {
        ck_assert_int_eq(ntsim_probe.calls[i + 1].kind, NTSIM_PROBE_MALLOC);
        ck_assert_uint_eq(ntsim_probe.calls[i + 1].size, strlen(names[i]) + 1);
    }
    for (size_t i = 0; i < count; i++)
        free((void *)names[i]); /* facts §4: the caller frees with libc */
    free((void *)names);
}
END_TEST

/* facts §4: free_event_types frees what get_event_types (or
 * config_get_enabled_event_types) returned: every name and the array. */
START_TEST(test_free_event_types_frees_every_name_and_the_array)
{
    const char **names = NULL;
    size_t count = 0;
    ntsim_probe_begin(UINT64_MAX);
    ck_assert_int_eq(nrt_sys_trace_get_event_types(&names, &count), NRT_SUCCESS);
    ck_assert_uint_eq(ntsim_probe.live, count + 1);
    nrt_sys_trace_free_event_types(names, count);
    ck_assert_uint_eq(ntsim_probe.live, 0);
    ck_assert_uint_eq(ntsim_probe.frees, count + 1);

    nrt_sys_trace_config_t cfg;
    nrt_sys_trace_config_set_defaults(&cfg);
    ck_assert_int_eq(nrt_sys_trace_config_set_capture_enabled_for_event_type(&cfg, "hw_notify",
                                                                              false),
                     NRT_SUCCESS);
    ck_assert_int_eq(nrt_sys_trace_config_get_enabled_event_types(&cfg, &names, &count),
                     NRT_SUCCESS);
    ck_assert_uint_eq(count, NRT_SYS_TRACE_EVENT_TYPE_COUNT - 1);
    nrt_sys_trace_free_event_types(names, count);
    ntsim_probe_end();
    ck_assert_uint_eq(ntsim_probe.live, 0);
}
END_TEST

/* facts §4: out of memory at any of the 47 allocations, get_event_types
 * unwinds (everything it took is freed) and returns NRT_RESOURCE. */
START_TEST(test_get_event_types_out_of_memory_frees_what_it_took)
{
    for (uint64_t allow = 0; allow <= NRT_SYS_TRACE_EVENT_TYPE_COUNT; allow++) {
        const char **names = NULL;
        size_t count = 7;
        ntsim_probe_begin(allow);
        NRT_STATUS st = nrt_sys_trace_get_event_types(&names, &count);
        ntsim_probe_end();
        ck_assert_int_eq(st, NRT_RESOURCE);
        ck_assert_uint_eq(ntsim_probe.allocs, allow);
        ck_assert_msg(ntsim_probe.live == 0, "allow %u: %zu blocks leaked", (unsigned)allow,
                      ntsim_probe.live);
    }
}
END_TEST

/* D-ALLOCATOR: an aligned block (the capture engine's per-thread record)
 * comes from the replaceable malloc, one block per call, freed through the
 * replaceable free; its address is a multiple of the alignment asked for
 * (at least a pointer's), and all `size` bytes are the caller's: writing
 * them all and freeing must leave the heap sound (ASan, valgrind). */
START_TEST(test_aligned_blocks_are_aligned_and_come_from_the_replaceable_allocator)
{
    static const size_t aligns[] = {1, 2, 8, 16, 64, 4096};
    static const size_t sizes[] = {0, 1, 63, 64, 65, 4097};
    for (size_t i = 0; i < sizeof aligns / sizeof aligns[0]; i++)
        for (size_t j = 0; j < sizeof sizes / sizeof sizes[0]; j++) {
            size_t want = aligns[i] < sizeof(void *) ? sizeof(void *) : aligns[i];
            ntsim_probe_begin(UINT64_MAX);
            unsigned char *p = ntsim__aligned_malloc(aligns[i], sizes[j]);
            ck_assert_ptr_nonnull(p);
            ck_assert_uint_eq((uintptr_t)p % want, 0);
            ck_assert_uint_eq(ntsim_probe.allocs, 1);
            ck_assert_uint_eq(ntsim_probe.live, 1);
            memset(p, 0xA5, sizes[j]);
            ntsim__aligned_free(p);
            ntsim_probe_end();
            ck_assert_uint_eq(ntsim_probe.frees, 1);
            ck_assert_uint_eq(ntsim_probe.live, 0);
        }
}
END_TEST

/* The same, when memory is short: NULL with nothing held, whether the
 * allocator refuses or the size cannot be padded within size_t; freeing
 * NULL frees nothing. The largest size that can be padded (64-byte
 * alignment: size + 63 + a pointer is SIZE_MAX - 1) is still asked of the
 * allocator, for at least that many bytes (a wrapped request would be a
 * small block handed out as a huge one). */
START_TEST(test_aligned_block_without_memory_is_null_and_holds_nothing)
{
    ntsim_probe_begin(0);
    ck_assert_ptr_null(ntsim__aligned_malloc(64, 64));
    ck_assert_uint_eq(ntsim_probe.refused, 1);
    ntsim_probe_end();
    const size_t largest = SIZE_MAX - 64 - sizeof(void *);
    ntsim_probe_begin(0);
    ck_assert_ptr_null(ntsim__aligned_malloc(64, largest));
    ck_assert_uint_eq(ntsim_probe.refused, 1);
    ck_assert_uint_eq(ntsim_probe.ncalls, 1);
    ck_assert_uint_ge(ntsim_probe.calls[0].size, largest);
    ntsim_probe_end();
    ntsim_probe_begin(UINT64_MAX);
    ck_assert_ptr_null(ntsim__aligned_malloc(64, SIZE_MAX));
    ck_assert_ptr_null(ntsim__aligned_malloc(64, largest + 1));
    ntsim__aligned_free(NULL);
    ntsim_probe_end();
    ck_assert_uint_eq(ntsim_probe.allocs, 0);
    ck_assert_uint_eq(ntsim_probe.frees, 0);
    ck_assert_uint_eq(ntsim_probe.live, 0);
}
END_TEST

/* An aligned block is held by its start while it lives (alloc.c: valgrind
 * then counts the rings and thread records a process exits with as
 * reachable, issue 27), and let go when freed, in any order; a refused one
 * is not held. A capture holds one block per enabled NC's ring until stop. */
START_TEST(test_aligned_blocks_are_held_by_their_start_while_they_live)
{
    size_t before = ntsim__aligned_live();
    void *a = ntsim__aligned_malloc(64, 100), *b = ntsim__aligned_malloc(4096, 10);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert_uint_eq(ntsim__aligned_live(), before + 2);
    ntsim__aligned_free(a);
    ck_assert_uint_eq(ntsim__aligned_live(), before + 1);
    ntsim__aligned_free(b);
    ck_assert_uint_eq(ntsim__aligned_live(), before);
    ntsim_probe_begin(0);
    ck_assert_ptr_null(ntsim__aligned_malloc(64, 64));
    ntsim_probe_end();
    ck_assert_uint_eq(ntsim__aligned_live(), before);

    nrt_sys_trace_config_t cfg;
    static const uint32_t three[] = {0, 7, 255};
    ntsim_fixture_config(&cfg, 1024, three, 3);
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    ck_assert_uint_eq(ntsim__aligned_live(), before + 3);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    ck_assert_uint_eq(ntsim__aligned_live(), before);
}
END_TEST

/* --- the per-session hooks (engine/session.h) ---------------------------------------- */

static unsigned g_hook_starts, g_hook_shutdowns;
static void hook_start(void) { g_hook_starts++; }
static void hook_shutdown(void) { g_hook_shutdowns++; }

/* A stage above capture registers for a session's start and the engine's
 * shutdown; capture runs each registered set once per call (registering the
 * same set again adds nothing), and knows none of them by name. */
START_TEST(test_session_hooks_run_once_per_start_and_shutdown)
{
    static const ntsim__session_hooks_t hooks = {hook_start, hook_shutdown};
    ck_assert(ntsim__session_register(&hooks));
    ck_assert(ntsim__session_register(&hooks));
    g_hook_starts = g_hook_shutdowns = 0;
    nrt_sys_trace_config_t cfg;
    ntsim_fixture_config(&cfg, 1024, (const uint32_t[]){0}, 1);
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    ck_assert_uint_eq(g_hook_starts, 1);
    ck_assert_uint_eq(g_hook_shutdowns, 0);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    ck_assert_uint_eq(g_hook_starts, 1); /* stop resets nothing */
    ntsim_capture_shutdown();
    ck_assert_uint_eq(g_hook_shutdowns, 1);
}
END_TEST

/* In a child process, so that the registry it fills is the child's: the
 * sets up to NTSIM_SESSION_HOOKS_MAX are taken, the next is refused with an
 * error, and one already there is still taken. Returns 0, or the step that
 * failed (no ck_assert in the child: it would unwind into the runner). */
static unsigned g_fill_errors;
static char g_fill_message[256];

static void fill_sink(ntsim_log_level_t level, const char *message, void *ctx)
{
    (void)ctx;
    if (level == NTSIM_LOG_ERROR) {
        g_fill_errors++;
        snprintf(g_fill_message, sizeof g_fill_message, "%s", message);
    }
}

static int fill_the_registry(void)
{
    static const ntsim__session_hooks_t sets[NTSIM_SESSION_HOOKS_MAX + 1];
    ntsim_log_set_sink(fill_sink, NULL);
    size_t before = ntsim__session_count(), taken = 0, i = 0;
    while (i <= NTSIM_SESSION_HOOKS_MAX && ntsim__session_register(&sets[i]))
        taken++, i++;
    if (before + taken != NTSIM_SESSION_HOOKS_MAX || ntsim__session_count() != before + taken)
        return 1;
    char want[64];
    snprintf(want, sizeof want, "more than %d sets of session hooks", NTSIM_SESSION_HOOKS_MAX);
    if (g_fill_errors != 1 || strstr(g_fill_message, want) == NULL)
        return 2;
    if (taken > 0 && !ntsim__session_register(&sets[0]))
        return 3; /* already there */
    return g_fill_errors == 1 ? 0 : 4;
}

START_TEST(test_session_registry_refuses_a_set_past_its_capacity_and_says_so)
{
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0)
        _exit(fill_the_registry());
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status));
    ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

/* The exporter's session table (D-JSON-TIME), made by its first batch, is
 * freed by ntsim_capture_shutdown() through the exporter's shutdown hook:
 * nothing it took is left. */
START_TEST(test_shutdown_frees_what_the_exporters_session_holds)
{
    nrt_sys_trace_event_t r;
    memset(&r, 0, sizeof r);
    ntsim_capture_shutdown(); /* a table an earlier test made, freed unseen */
    ntsim_probe_begin(UINT64_MAX);
    char *doc = NULL;
    size_t len;
    ck_assert_int_eq(ntsim_json_serialize_events(&r, 1, &doc, &len), NRT_SUCCESS);
    nrt_sys_trace_buffer_free(doc);
    ck_assert_uint_ge(ntsim_probe.live, 1); /* the table */
    ntsim_capture_shutdown();
    ntsim_probe_end();
    ck_assert_uint_eq(ntsim_probe.live, 0);
}
END_TEST

/* engine/suggest.h: the optimal string alignment distance, by hand (a swap
 * of neighbours is one edit, case folded), and the name it suggests: the
 * nearest within 1 (up to 4 bytes), 2 (up to 8) or 3, the first of equals. */
static const char *nearest(const char *word, const char *const *names)
{
    ntsim_suggest_t s;
    ntsim_suggest_init(&s, word, strlen(word));
    for (; *names != NULL; names++)
        ntsim_suggest_add_z(&s, *names);
    return ntsim_suggest_best(&s, NULL);
}

START_TEST(test_suggest_names_the_nearest_known_name)
{
    static const struct {
        const char *a, *b;
        size_t d;
    } cases[] = {
        {"jsn", "json", 1},         {"layuot", "layout", 1},     {"hnit", "hint", 1},
        {"kitten", "sitting", 3},   {"ca", "abc", 3},            {"DEVICE_EXEC", "device_exec", 0},
        {"duraton_ns", "duration_ns", 1}, {"", "abc", 3},        {"abc", "", 3},
        {"abcdef", "badcfe", 3},    {"NEURON_RT_INSPECT_ENABEL", "NEURON_RT_INSPECT_ENABLE", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t got = ntsim_suggest_distance(cases[i].a, strlen(cases[i].a), cases[i].b,
                                            strlen(cases[i].b), 10);
        ck_assert_msg(got == cases[i].d, "%s ~ %s: %zu, want %zu", cases[i].a, cases[i].b, got,
                      cases[i].d);
    }
    /* past the cap: cap + 1 */
    ck_assert_uint_eq(ntsim_suggest_distance("kitten", 6, "sitting", 7, 2), 3);
    static const char *const kinds[] = {"layout", "enum", "json", "ntff", "notify", NULL};
    ck_assert_str_eq(nearest("jsn", kinds), "json");
    ck_assert_str_eq(nearest("notfy", kinds), "notify");
    ck_assert_ptr_null(nearest("xyz", kinds));   /* 3 bytes: within 1 only */
    ck_assert_ptr_null(nearest("nuts", kinds));  /* 2 from ntff, notify: too far for 4 bytes */
    static const char *const two[] = {"abcx", "abcy", NULL};
    ck_assert_str_eq(nearest("abcz", two), "abcx"); /* the first of equally near */
    /* a name given by its length (not NUL-ended): its length comes back */
    ntsim_suggest_t sg;
    size_t len = 99;
    ntsim_suggest_init(&sg, "jsn", 3);
    ntsim_suggest_add(&sg, "json,layout", 4);
    ck_assert_ptr_nonnull(ntsim_suggest_best(&sg, &len));
    ck_assert_uint_eq(len, 4);
    /* names of the longest length measured, 64 bytes: a swap of the last two
     * bytes, the 63-byte prefix against the swapped name (one byte put in)
     * and against the whole (one dropped) are 1 each */
    char w64[65], s64[65];
    for (int i = 0; i < 64; i++)
        w64[i] = s64[i] = (char)('a' + i % 26);
    w64[64] = s64[64] = '\0';
    s64[62] = w64[63];
    s64[63] = w64[62];
    ck_assert_uint_eq(ntsim_suggest_distance(w64, 64, s64, 64, 3), 1);
    ck_assert_uint_eq(ntsim_suggest_distance(w64, 63, s64, 64, 3), 1);
    ck_assert_uint_eq(ntsim_suggest_distance(w64, 64, w64, 63, 3), 1);
    /* past 64 bytes, either side: never near (w64's NUL makes the 65th byte) */
    ck_assert_uint_eq(ntsim_suggest_distance(w64, 65, w64, 64, 3), 4);
    ck_assert_uint_eq(ntsim_suggest_distance(w64, 64, w64, 65, 3), 4);
}
END_TEST

Suite *make_services_suite(void)
{
    Suite *s = suite_create("services");
    TCase *tc = tcase_create("services");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_default_log_sink_prints_errors_and_warnings_not_info);
    tcase_add_test(tc, test_log_message_is_cut_at_511_bytes);
    tcase_add_test(tc, test_all_null_allocator_restores_every_function);
    tcase_add_test(tc, test_get_event_types_allocates_as_calloc_and_strdup);
    tcase_add_test(tc, test_free_event_types_frees_every_name_and_the_array);
    tcase_add_test(tc, test_get_event_types_out_of_memory_frees_what_it_took);
    tcase_add_test(tc, test_aligned_blocks_are_aligned_and_come_from_the_replaceable_allocator);
    tcase_add_test(tc, test_aligned_block_without_memory_is_null_and_holds_nothing);
    tcase_add_test(tc, test_aligned_blocks_are_held_by_their_start_while_they_live);
    tcase_add_test(tc, test_session_hooks_run_once_per_start_and_shutdown);
    tcase_add_test(tc, test_session_registry_refuses_a_set_past_its_capacity_and_says_so);
    tcase_add_test(tc, test_shutdown_frees_what_the_exporters_session_holds);
    tcase_add_test(tc, test_suggest_names_the_nearest_known_name);
    suite_add_tcase(s, tc);
    return s;
}
