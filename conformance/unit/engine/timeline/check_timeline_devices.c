/*
 * conformance/unit/engine/timeline/check_timeline_devices.c: the timeline's
 * devices (issue 38; D-TIMELINE-ORDER): a caller's map of NCs to devices
 * (ntsim_timeline_options_t.nd_idx_by_nc) makes a process per device, named
 * for it, holding its NCs' lanes and counters, in every writer, and the page
 * groups lanes by device; without options the records name no device. The
 * map a trace read back gives (NTFF's per-event nd_idx) is pinned here too.
 *
 * Trace B (check_timeline.h) with the options {77, 3, its host name} and the
 * map NC 1 -> 4, NC 2 -> 9 (every other NC 0), by hand:
 *   devices: NCs 1 and 2 have records, on devices 4 and 9: processes
 *     0 host (pid 77, uuid 1), 1 "neuron device 4" (pid 0x7F000004 =
 *     2130706436, uuid 2), 2 "neuron device 9" (0x7F000009 = 2130706441,
 *     uuid 3);
 *   lanes (keys by process first, then NC: the same order as without the
 *     map): 0 "thread 7" (process 0), 1-4 NC 1's core 0, core 1, (no core),
 *     notifications & DMA (process 1), 5 "NC 2" (process 2);
 *   counters: NC 1's pushed and lost on process 1, NC 2's on process 2;
 *   Chrome JSON: a process_name and a process_sort_index per process, the
 *     devices' sort indices 1 and 2; NC 2's thread_name under 2130706441;
 *   the page: groups [host, 0, 1], ["neuron device 4", 1, 4], ["neuron device
 *     9", 5, 1], and the title "..., 2 NCs (1-2) on 2 neuron devices (4, 9)".
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "check_timeline.h"
#include "ntsim/read.h"

static const uint32_t *map_b(void)
{
    static uint32_t map[256];
    memset(map, 0, sizeof map);
    map[1] = 4;
    map[2] = 9;
    return map;
}

START_TEST(test_timeline_with_a_device_map_has_a_process_per_device)
{
    nrt_sys_trace_event_t r[16];
    size_t n = trace_b(r);
    ntsim_timeline_options_t opt = options_b;
    opt.nd_idx_by_nc = map_b();
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, n, &opt, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nprocesses, 3);
    ck_assert(tl.by_device);
    ck_assert_uint_eq(tl.processes[0].pid, 77);
    ck_assert_uint_eq(tl.processes[1].pid, UINT32_C(0x7F000004));
    ck_assert_uint_eq(tl.processes[1].uuid, 2);
    ck_assert_str_eq(tl.processes[1].name, "neuron device 4");
    ck_assert_uint_eq(tl.processes[2].pid, UINT32_C(0x7F000009));
    ck_assert_uint_eq(tl.processes[2].uuid, 3);
    ck_assert_str_eq(tl.processes[2].name, "neuron device 9");
    ck_assert_uint_eq(tl.nlanes, 6);
    static const char *const names[6] = {"thread 7", "NC 1 core 0", "NC 1 core 1",
                                         "NC 1 (no core)", "NC 1 notifications & DMA", "NC 2"};
    static const uint32_t process[6] = {0, 1, 1, 1, 1, 2};
    for (size_t l = 0; l < 6; l++) {
        ck_assert_str_eq(tl.lanes[l].name, names[l]);
        ck_assert_uint_eq(tl.lanes[l].process, process[l]);
        ck_assert_uint_eq(tl.lanes[l].pid, tl.processes[process[l]].pid);
    }
    ck_assert_uint_eq(tl.ncounters, 4);
    for (size_t c = 0; c < 4; c++)
        ck_assert_uint_eq(tl.counters[c].process, tl.counters[c].nc == 1 ? 1 : 2);
    ntsim__timeline_free(&tl);
    /* one device for both NCs: one process, as without a map but named */
    static uint32_t one[256];
    one[1] = one[2] = 4;
    opt.nd_idx_by_nc = one;
    ck_assert_int_eq(ntsim__timeline_build(r, n, &opt, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nprocesses, 2);
    ck_assert_str_eq(tl.processes[1].name, "neuron device 4");
    ntsim__timeline_free(&tl);
}
END_TEST

/* Without options the records name no device (the 112-byte record has no
 * device index): "neuron device (unknown)", not a device 0 it may not be. */
START_TEST(test_timeline_without_options_names_no_device)
{
    nrt_sys_trace_event_t r[16];
    size_t n = trace_b(r);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, n, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nprocesses, 2);
    ck_assert(!tl.by_device);
    ck_assert_str_eq(tl.processes[1].name, "neuron device (unknown)");
    ck_assert_uint_eq(tl.processes[1].pid, UINT32_C(0x7F000000));
    ntsim__timeline_free(&tl);
}
END_TEST

/* An NC past 255 is on options.nd_idx (the map has 256 entries): NC 0 on
 * device 2 by the map, NC 300 on 7. */
START_TEST(test_an_nc_past_255_is_on_the_options_device)
{
    nrt_sys_trace_event_t r[2];
    r[0] = rec(TY(HW_NOTIFY), I, 0, 7, 1, 1000, 0, 1);
    r[1] = rec(TY(HW_NOTIFY), I, 300, 7, 2, 2000, 0, 2);
    static uint32_t map[256];
    map[0] = 2;
    ntsim_timeline_options_t opt = {0, 7, NULL, map};
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 2, &opt, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nprocesses, 3);
    ck_assert_str_eq(tl.processes[1].name, "neuron device 2");
    ck_assert_str_eq(tl.processes[2].name, "neuron device 7");
    ck_assert_uint_eq(tl.nlanes, 2);
    ck_assert_str_eq(tl.lanes[0].name, "NC 0");
    ck_assert_uint_eq(tl.lanes[0].process, 1);
    ck_assert_str_eq(tl.lanes[1].name, "NC 300");
    ck_assert_uint_eq(tl.lanes[1].process, 2);
    ntsim__timeline_free(&tl);
}
END_TEST

START_TEST(test_writers_draw_a_process_per_device)
{
    nrt_sys_trace_event_t r[16];
    size_t n = trace_b(r);
    ntsim_timeline_options_t opt = options_b;
    opt.nd_idx_by_nc = map_b();
    char *text;
    size_t len;
    ck_assert_int_eq(ntsim_chrome_trace_serialize(r, n, &opt, &text, &len), NRT_SUCCESS);
    static const char *const want[] = {
        "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":2130706436,\"tid\":0,\"args\":{\"name\":"
        "\"neuron device 4\"}},\n{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":2130706436,"
        "\"tid\":0,\"args\":{\"sort_index\":1}},\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":"
        "2130706441,\"tid\":0,\"args\":{\"name\":\"neuron device 9\"}},\n{\"ph\":\"M\",\"name\":"
        "\"process_sort_index\",\"pid\":2130706441,\"tid\":0,\"args\":{\"sort_index\":2}},\n",
        "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":2130706441,\"tid\":2113929220,\"args\":"
        "{\"name\":\"NC 2\"}},\n",
        "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":2130706436,\"tid\":2113929216,\"args\":"
        "{\"name\":\"NC 1 core 0\"}},\n",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(strstr(text, want[i]) != NULL, "chrome: lacks %s", want[i]);
    ntsim_buffer_free(text);
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, n, &opt, &text, &len), NRT_SUCCESS);
    ck_assert_ptr_nonnull(strstr(text, "<h1>ntsim timeline: h&quot;&lt;&amp;&gt;&#39;, 2 NCs "
                                       "(1-2) on 2 neuron devices (4, 9)</h1>\n"));
    ck_assert_ptr_nonnull(strstr(text, "\"groups\":[[\"h\\\"\\u003c\\u0026\\u003e'\",0,1],"
                                       "[\"neuron device 4\",1,4],[\"neuron device 9\",5,1]],"));
    ck_assert_ptr_nonnull(strstr(text, "6 lanes in 3 groups"));
    ntsim_buffer_free(text);
}
END_TEST

/* NTFF keeps each event's nd_idx (ntrace_event.nd_idx): a file read back
 * gives the map it was written with, for the NCs with events; a file whose
 * NC names two devices gives none, and a fetch document none. Two NTFF
 * byte strings one after the other are one ntrace_info (protobuf merges
 * them: the events of both). */
START_TEST(test_read_gives_the_ntff_device_map)
{
    nrt_sys_trace_event_t r[16];
    size_t n = trace_b(r);
    uint32_t map[256] = {0}, other[256] = {0};
    map[1] = 4;
    map[2] = 9;
    other[1] = 5;
    other[2] = 9;
    ntsim_ntff_options_t opt = {0, NULL, 0, 0, 0, map};
    uint8_t *a, *b;
    size_t alen, blen;
    ck_assert_int_eq(ntsim_ntff_serialize(r, n, NULL, 0, &opt, &a, &alen), NRT_SUCCESS);
    opt.nd_idx_by_nc = other;
    ck_assert_int_eq(ntsim_ntff_serialize(r, n, NULL, 0, &opt, &b, &blen), NRT_SUCCESS);
    ntsim_trace_t *t;
    char err[256];
    ck_assert_int_eq(ntsim_trace_read(a, alen, NULL, &t, err, sizeof err), NRT_SUCCESS);
    ck_assert_ptr_nonnull(t->nd_idx_by_nc);
    ck_assert_mem_eq(t->nd_idx_by_nc, map, sizeof map);
    ntsim_trace_free(t);
    uint8_t *both = malloc(alen + blen);
    ck_assert_ptr_nonnull(both);
    memcpy(both, a, alen);
    memcpy(both + alen, b, blen);
    ck_assert_int_eq(ntsim_trace_read(both, alen + blen, NULL, &t, err, sizeof err), NRT_SUCCESS);
    ck_assert_uint_eq(t->event_count, 2 * n);
    ck_assert_ptr_null(t->nd_idx_by_nc); /* NC 1 on 4 and on 5 */
    ntsim_trace_free(t);
    free(both);
    char *json;
    size_t jlen;
    ck_assert_int_eq(ntsim_json_serialize(r, n, &json, &jlen), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_trace_read(json, jlen, NULL, &t, err, sizeof err), NRT_SUCCESS);
    ck_assert_ptr_null(t->nd_idx_by_nc);
    ntsim_trace_free(t);
    nrt_sys_trace_buffer_free(json);
    ntsim_buffer_free(a);
    ntsim_buffer_free(b);
}
END_TEST

Suite *make_timeline_devices_suite(void)
{
    Suite *s = suite_create("timeline_devices");
    TCase *tc = tcase_create("timeline_devices");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_timeline_with_a_device_map_has_a_process_per_device);
    tcase_add_test(tc, test_timeline_without_options_names_no_device);
    tcase_add_test(tc, test_an_nc_past_255_is_on_the_options_device);
    tcase_add_test(tc, test_writers_draw_a_process_per_device);
    tcase_add_test(tc, test_read_gives_the_ntff_device_map);
    suite_add_tcase(s, tc);
    return s;
}
