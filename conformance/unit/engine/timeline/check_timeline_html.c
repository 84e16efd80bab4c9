/*
 * conformance/unit/engine/timeline/check_timeline_html.c: the HTML page
 * (engine/timeline/timeline_html.c, D-TIMELINE-HTML): the exact page of traces
 * A and B, the data's integers, depths and flows, a mark with no data keys,
 * the title, the data kept inside its <script>, the limit past which the
 * page sends to Perfetto, a page made whatever one allocation is refused;
 * then a page that fetches nothing. What the script draws is judged in chromium (make view-check).
 */

#include "check_timeline.h"
#include "timeline_page.h"

/* --- the HTML page (D-TIMELINE-HTML) --------------------------------------------------- */

/* The page, exactly: the head (its <title> the same text as its <h1>), the
 * style (timeline_page.c's constant lines), the middle worked out by hand
 * below (from <h1> to the end of the data's <script>), and the script.
 *
 * An earlier page was an SVG drawn in C (a <rect> per span at x = 230 + (t -
 * t_min) * 1100 / span, a <line> per flow); at 33,000 marks it took a second
 * per zoom step and drew every flow over every lane (issue 38), so the page
 * now carries the timeline as data and its script draws what is in view.
 * What these bytes pin is what the data must hold: the lanes and their rows,
 * the groups, each mark's lane, depth, times and details, the flows by the
 * marks' places. Where the marks land on screen is the script's, and make
 * view-check judges it in chromium. */
static char *expected_page(const char *title, const char *const *middle)
{
    ntsim_textout_t o = {{NULL, 0, 0}, NRT_SUCCESS};
    ntsim__text_put(&o, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                        "<title>ntsim timeline: %s</title>\n<style>", title);
    for (const char *const *l = ntsim__timeline_page_style; *l != NULL; l++)
        ntsim__text_put(&o, "%s", *l);
    ntsim__text_put(&o, "</style></head>\n<body>\n");
    for (const char *const *l = middle; *l != NULL; l++)
        ntsim__text_put(&o, "%s", *l);
    ntsim__text_put(&o, "<script>\n");
    for (const char *const *l = ntsim__timeline_page_script; *l != NULL; l++)
        ntsim__text_put(&o, "%s", *l);
    ntsim__text_put(&o, "</script>\n</body></html>\n");
    ntsim__text_put(&o, "%c", '\0');
    ck_assert_int_eq(o.st, NRT_SUCCESS);
    return (char *)o.b.data;
}

static void check_page(const char *what, const char *title, const char *const *middle,
                       const char *page, size_t len)
{
    char *want = expected_page(title, middle);
    check_text(what, want, page, len);
    free(want);
}

#define CONTROLS                                                                                   \
    "<noscript><p>This page draws the timeline with its script: allow JavaScript, or open the "    \
    "trace's .pftrace in Perfetto.</p></noscript>\n"                                               \
    "<div id=\"controls\"><button id=\"zoom-in\">+</button><button id=\"zoom-out\">&#8722;"        \
    "</button><button id=\"zoom-reset\">reset</button><button id=\"flows\" aria-pressed=\"false\">" \
    "all flows</button><button id=\"expand\">expand all</button><button id=\"collapse\">collapse " \
    "all</button> wheel over the plot to zoom, drag to pan, shift+wheel to scroll; point at a "    \
    "mark for its details and flows, click to keep them</div>\n"
#define KEY(hue, name) "<span class=\"key\"><i style=\"background:hsl(" #hue ",60%,55%)\"></i>" name "</span>"
#define LEGEND_END                                                                                 \
    "<span class=\"key\"><i class=\"flagged\"></i>events lost, unmatched edge</span><span "        \
    "class=\"key\"><i class=\"flow\"></i>flow: nrt_execute to its device spans</span></details>\n" \
    "<div id=\"detail\"></div>\n<div id=\"view\"><div id=\"scroller\"><div id=\"rows\"></div>"     \
    "</div><div id=\"origin\"></div><canvas id=\"plot\"></canvas><canvas id=\"over\"></canvas>"    \
    "</div>\n"
#define DATA_OPEN "<script type=\"application/json\" id=\"timeline-data\">"
#define TYPE(t, hue, name, n) "[" #t ",\"" name "\",\"hsl(" #hue ",60%,55%)\"," #n "]"

/* A (D-TIMELINE-ORDER's worked model): lanes thread 7 (3 rows: i0 at depth
 * 0; i4, the unmatched kmgr_exec_core STOP at 5050, and i1 at depth 1; i2 at
 * depth 2), its overlap lane (i3), thread 9 (i5), NC 0 (the drop of 2 before
 * nc_local_id 9, at 5050). Groups: the host's three lanes, NC 0's one. No
 * options: the title names the records' one NC and no device. Times after
 * t0 = 5000; hues 137 t mod 360: nrt_execute (3) 51, nrt_tensor_read (9)
 * 153, enc_barrier (16) 32, kbl_exec_pre (17) 169, kmgr_exec_core (18) 306,
 * nrt_model_submit (22) 134. Key lists by (type, phase) in the order the
 * marks use them: execute START, exec_core STOP, exec_pre START, submit
 * INSTANT, tensor read START, enc_barrier START. Flags: span 1, unmatched
 * start 2, unmatched stop 4, drop 32. */
static const char *const html_a[] = {
    "<h1>ntsim timeline: ntsim host, 1 NC (0)</h1>\n",
    "<p id=\"summary\">3 spans, 1 instants, 2 unmatched, 1 drops (2 events lost), 0 flows, 4 lanes "
    "in 2 groups, 0 device clocks (worst sync residual 0.0 ns); time is the host clock from 5000 "
    "ns, device times aligned.</p>\n",
    CONTROLS,
    "<details id=\"legend\" open><summary>colours</summary>",
    KEY(51, "nrt_execute 1") KEY(153, "nrt_tensor_read 1") KEY(32, "enc_barrier 1")
    KEY(169, "kbl_exec_pre 1") KEY(306, "kmgr_exec_core 1") KEY(134, "nrt_model_submit 1"),
    LEGEND_END,
    DATA_OPEN "{\"t0\":\"5000\",\"span\":800,\"marks\":7,\"shown\":7,\"cut\":800,\n",
    "\"types\":[" TYPE(3, 51, "nrt_execute", 1) "," TYPE(9, 153, "nrt_tensor_read", 1) ","
    TYPE(16, 32, "enc_barrier", 1) "," TYPE(17, 169, "kbl_exec_pre", 1) ","
    TYPE(18, 306, "kmgr_exec_core", 1) "," TYPE(22, 134, "nrt_model_submit", 1) "],\n",
    "\"keys\":[[\"model_id\"],[\"exec_id\",\"model_id\"],[\"exec_id\",\"model_id\"],"
    "[\"model_id\"],[\"tensor_id\",\"size\"],[\"peer_id\",\"exec_id\",\"nec_dev_id\"]],\n",
    "\"groups\":[[\"ntsim host\",0,3],[\"NC 0\",3,1]],\n",
    "\"lanes\":[\n[\"thread 7\",3],\n[\"thread 7 (overlap 1)\",1],\n[\"thread 9\",1],\n"
    "[\"NC 0\",1]],\n",
    "\"items\":[\n",
    "[0,0,0,600,3,1,0,7,100,42,0,0,\"11\"],\n",
    "[0,1,50,0,18,4,0,7,77,5,0,1,\"5,11\"],\n",
    "[0,1,100,200,17,1,0,7,42,42,0,2,\"42,11\"],\n",
    "[0,2,200,0,22,0,0,7,0,0,0,3,\"11\"],\n",
    "[1,0,500,200,9,1,0,7,7,0,0,4,\"3,64\"],\n",
    "[2,0,800,0,16,2,0,9,55,42,0,5,\"-3,42,1\"],\n",
    "[3,0,50,0,-1,32,0,2,9]],\n",
    "\"flows\":[]}</script>\n",
    NULL};

/* B: options (pid 77, nd_idx 3, host h"<&>'), so the title ends "on neuron
 * device 3"; NCs 1 and 2. Lanes: thread 7 (2 rows: i1 inside i0), NC 1
 * core 0 (2 rows: the hw_notify inside the exec), NC 1 core 1, NC 1 (no
 * core), NC 1 notifications & DMA, NC 2; groups: the host's, NC 1's four, NC
 * 2's one. Times after t0 = 9000. A device mark's dev is its device clock
 * minus its aligned begin: exec 11000 - 10000 = 1000, hw_notify 12001 -
 * 11000 = 1001, switch 12500 - 10500 = 2000, cc 12300 - 11150 = 1150, NC 2's
 * unaligned hw_notify 777 - 9050 = -8273. Flags: span 1, device 8,
 * unaligned 16. Hues: nc_exec_running (7) 239, cc_running (8) 16, hw_notify
 * (24) 48, nc_model_switch (26) 322, nrt_dma_mem_alloc (34) 338. Flows from
 * the nrt_execute (place 0) to the exec (2), the switch (4), the cc (5). The
 * host's name, escaped for HTML in the head and for a JSON string in a
 * <script> in the data (\u003c \u0026 \u003e). */
static const char *const html_b[] = {
    "<h1>ntsim timeline: h&quot;&lt;&amp;&gt;&#39;, 2 NCs (1-2) on neuron device 3</h1>\n",
    "<p id=\"summary\">6 spans, 2 instants, 0 unmatched, 0 drops (0 events lost), 3 flows, 6 lanes "
    "in 3 groups, 4 device clocks (worst sync residual 0.0 ns); time is the host clock from 9000 "
    "ns, device times aligned.</p>\n",
    CONTROLS,
    "<details id=\"legend\" open><summary>colours</summary>",
    KEY(51, "nrt_execute 1") KEY(239, "nc_exec_running 1") KEY(16, "cc_running 1")
    KEY(169, "kbl_exec_pre 1") KEY(48, "hw_notify 2") KEY(322, "nc_model_switch 1")
    KEY(338, "nrt_dma_mem_alloc 1"),
    LEGEND_END,
    DATA_OPEN "{\"t0\":\"9000\",\"span\":4000,\"marks\":8,\"shown\":8,\"cut\":4000,\n",
    "\"types\":[" TYPE(3, 51, "nrt_execute", 1) "," TYPE(7, 239, "nc_exec_running", 1) ","
    TYPE(8, 16, "cc_running", 1) "," TYPE(17, 169, "kbl_exec_pre", 1) ","
    TYPE(24, 48, "hw_notify", 2) "," TYPE(26, 322, "nc_model_switch", 1) ","
    TYPE(34, 338, "nrt_dma_mem_alloc", 1) "],\n",
    "\"keys\":[[\"model_id\"],[\"exec_id\",\"model_id\"],"
    "[\"device_core_idx\",\"exec_id\",\"nc_timestamp_ns\",\"model_id\"],"
    "[\"device_core_idx\",\"hint\",\"custom_data\",\"nc_timestamp_ns\",\"exec_id\"],"
    "[\"device_core_idx\",\"model_id\",\"exec_id\",\"nc_timestamp_ns\"],"
    "[\"gid\",\"op_id\",\"nc_timestamp_ns\",\"exec_id\",\"algorithm\"],"
    "[\"hbm_idx\",\"is_nc_hbm\",\"is_aligned\",\"mla_idx\",\"usage_type\"]],\n",
    "\"groups\":[[\"h\\\"\\u003c\\u0026\\u003e'\",0,1],[\"NC 1\",1,4],[\"NC 2\",5,1]],\n",
    "\"lanes\":[\n[\"thread 7\",2],\n[\"NC 1 core 0\",2],\n[\"NC 1 core 1\",1],\n"
    "[\"NC 1 (no core)\",1],\n[\"NC 1 notifications \\u0026 DMA\",1],\n[\"NC 2\",1]],\n",
    "\"items\":[\n",
    "[0,0,0,4000,3,1,1,7,200,43,0,0,\"12\"],\n",
    "[0,1,100,100,17,1,1,7,43,43,0,1,\"43,12\"],\n",
    "[1,0,1000,2048,7,9,1,7,300,43,1000,2,\"0,43,11000,0\"],\n",
    "[1,1,2000,0,24,8,1,7,5,43,1001,3,\"0,7,9,12001,43\"],\n",
    "[2,0,1500,200,26,9,1,7,301,43,2000,4,\"1,12,43,12500\"],\n",
    "[3,0,2150,100,8,9,1,7,302,43,1150,5,\"2,5,12300,43,3\"],\n",
    "[4,0,1100,100,34,1,1,7,303,0,0,6,\"1,true,false,2,weight\"],\n",
    "[5,0,50,0,24,24,2,7,0,0,-8273,3,\"0,1,0,777,0\"]],\n",
    "\"flows\":[\n[0,2],\n[0,4],\n[0,5]]}</script>\n",
    NULL};

START_TEST(test_html_of_trace_a)
{
    nrt_sys_trace_event_t r[16];
    size_t n = trace_a(r);
    char *page = NULL;
    size_t len = 0;
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, n, NULL, &page, &len), NRT_SUCCESS);
    check_page("html.a", "ntsim host, 1 NC (0)", html_a, page, len);
    ntsim_buffer_free(page);
}
END_TEST

START_TEST(test_html_of_trace_b)
{
    nrt_sys_trace_event_t r[16];
    size_t n = trace_b(r);
    char *page = NULL;
    size_t len = 0;
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, n, &options_b, &page, &len), NRT_SUCCESS);
    check_page("html.b", "h&quot;&lt;&amp;&gt;&#39;, 2 NCs (1-2) on neuron device 3", html_b,
               page, len);
    ntsim_buffer_free(page);
}
END_TEST

/* The page's items, parsed back: the first six fields of each (lane,
 * depth, b, d, type, flags); false past `cap` or when a line is not one. */
typedef struct page_item {
    unsigned lane, depth;
    unsigned long long b, d;
    int type;
    unsigned flags;
} page_item_t;

static size_t page_items(const char *page, page_item_t *out, size_t cap)
{
    const char *at = strstr(page, "\"items\":[\n");
    ck_assert_ptr_nonnull(at);
    at += strlen("\"items\":[\n");
    size_t n = 0;
    while (*at == '[') {
        ck_assert_uint_lt(n, cap);
        page_item_t *it = &out[n++];
        ck_assert_int_eq(sscanf(at, "[%u,%u,%llu,%llu,%d,%u", &it->lane, &it->depth, &it->b, &it->d,
                                &it->type, &it->flags),
                         6);
        at = strchr(at, '\n');
        if (at == NULL)
            break;
        at++;
    }
    return n;
}

/* D-TIMELINE-HTML: times are ns after t0 ("t0" a string: it is past 2^53),
 * and any integer past 2^53 is written as a string, so that the script's
 * numbers hold it exactly. By hand: two instants at T0 and T0 + 2^53 + 1:
 * b 0 and "9007199254740993", the span "9007199254740993"; one at T0 +
 * 2^53 would be a number (9007199254740992 is a double). Tracking id 2^60
 * (a string), thread 2^53 (a number): lane 1, after thread 7's (lanes in
 * ascending thread id). */
START_TEST(test_html_writes_integers_past_2_53_as_strings)
{
    nrt_sys_trace_event_t r[3];
    r[0] = rec(TY(MODEL_SUBMIT), I, 0, UINT64_C(1) << 53, UINT64_C(1) << 60, T0, 0, 0);
    r[1] = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, T0 + (UINT64_C(1) << 53), 1, 1);
    r[2] = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, T0 + (UINT64_C(1) << 53) + 1, 2, 2);
    char *page = NULL;
    size_t len = 0;
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, 3, NULL, &page, &len), NRT_SUCCESS);
    static const char *const want[] = {
        "{\"t0\":\"1700000000000000000\",\"span\":\"9007199254740993\",",
        "\n[0,0,9007199254740992,0,22,0,0,7,0,0,0,0,\"0\"]",
        "\n[0,0,\"9007199254740993\",0,22,0,0,7,0,0,0,0,\"0\"]",
        "\n[1,0,0,0,22,0,0,9007199254740992,\"1152921504606846976\",0,0,0,\"0\"]",
    };
    for (size_t i = 0; i < 4; i++)
        ck_assert_msg(strstr(page, want[i]) != NULL, "missing: %s", want[i]);
    ntsim_buffer_free(page);
}
END_TEST

/* D-TIMELINE-HTML: "a span of at least 1 ns": a page whose marks all sit at
 * one time (one instant, so t_max = t_min) has span 1, its mark b 0, d 0. */
START_TEST(test_html_span_of_a_single_instant_is_one_ns)
{
    nrt_sys_trace_event_t r[1];
    r[0] = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 5000, 0, 0);
    char *page = NULL;
    size_t len = 0;
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, 1, NULL, &page, &len), NRT_SUCCESS);
    ck_assert_ptr_nonnull(strstr(page, "{\"t0\":\"5000\",\"span\":1,\"marks\":1,\"shown\":1,"));
    ck_assert_ptr_nonnull(strstr(page, "\"items\":[\n[0,0,0,0,22,0,0,7,0,0,0,0,\"0\"]],"));
    ntsim_buffer_free(page);
}
END_TEST

/* D-TIMELINE-HTML: a mark's keys is -1 when its (type, phase) writes no
 * data key (the generic type's arms are all ""), and the lists are numbered
 * over the marks that have keys only. By hand: a generic instant at 5000,
 * then an nrt_model_submit instant at 5001, both thread 7 on NC 0: one key
 * list, submit's ["model_id"], numbered 0; the generic mark's keys -1 and
 * its values empty, the submit's 0 and "0". */
START_TEST(test_html_a_mark_without_data_keys_names_no_key_list)
{
    nrt_sys_trace_event_t r[2];
    r[0] = rec(TY(GENERIC), I, 0, 7, 0, 5000, 0, 0);
    r[1] = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 5001, 1, 1);
    char *page = NULL;
    size_t len = 0;
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, 2, NULL, &page, &len), NRT_SUCCESS);
    ck_assert_ptr_nonnull(strstr(page, "\"keys\":[[\"model_id\"]],\n"));
    ck_assert_ptr_nonnull(strstr(page, "\"items\":[\n[0,0,0,0,0,0,0,7,0,0,0,-1,\"\"],\n"
                                       "[0,0,1,0,22,0,0,7,0,0,0,0,\"0\"]],"));
    ntsim_buffer_free(page);
}
END_TEST

/* D-TIMELINE-HTML, the depths by hand, on a trace with no counter samples
 * (host records of NC 256 make none, D-TIMELINE-ORDER), so that the first
 * edge is a span's begin. Thread 7: nrt_execute A [1000, 3200]; inside it
 * tensor read B [1001, 3000], inside B tensor read C [2000, 2000] (length
 * 0), and after B ends, still inside A, tensor read D [3100, 3103]. One
 * lane of 3 rows; depths A 0, B 1, C 2, D 1 (B's end closed it); b and d
 * after t0 = 1000: A 0 2200, B 1 1999, C 1000 0, D 2100 3. */
START_TEST(test_html_lays_nested_and_following_spans_from_the_first_edge)
{
    nrt_sys_trace_event_t r[8];
    r[0] = rec(TY(EXECUTE_API), S, 256, 7, 1, 1000, 0, 0);
    r[1] = rec(TY(TENSOR_READ), S, 256, 7, 2, 1001, 0, 1);
    r[2] = rec(TY(TENSOR_READ), S, 256, 7, 3, 2000, 0, 2);
    r[3] = rec(TY(TENSOR_READ), T, 256, 7, 3, 2000, 0, 3);
    r[4] = rec(TY(TENSOR_READ), T, 256, 7, 2, 3000, 0, 4);
    r[5] = rec(TY(TENSOR_READ), S, 256, 7, 4, 3100, 0, 5);
    r[6] = rec(TY(TENSOR_READ), T, 256, 7, 4, 3103, 0, 6);
    r[7] = rec(TY(EXECUTE_API), T, 256, 7, 1, 3200, 0, 7);
    char *page = NULL;
    size_t len = 0;
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, 8, NULL, &page, &len), NRT_SUCCESS);
    ck_assert_ptr_nonnull(strstr(page, "\"lanes\":[\n[\"thread 7\",3]],\n"));
    page_item_t it[8];
    ck_assert_uint_eq(page_items(page, it, 8), 4);
    static const page_item_t want[] = {
        {0, 0, 0, 2200, 3, 1}, {0, 1, 1, 1999, 9, 1}, {0, 2, 1000, 0, 9, 1}, {0, 1, 2100, 3, 9, 1}};
    for (size_t i = 0; i < 4; i++) {
        ck_assert_uint_eq(it[i].lane, want[i].lane);
        ck_assert_uint_eq(it[i].depth, want[i].depth);
        ck_assert_uint_eq(it[i].b, want[i].b);
        ck_assert_uint_eq(it[i].d, want[i].d);
        ck_assert_int_eq(it[i].type, want[i].type);
        ck_assert_uint_eq(it[i].flags, want[i].flags);
    }
    ntsim_buffer_free(page);
}
END_TEST

/* The title says which NCs the records name, as ranges, and names no
 * device when the caller gave no options: the records carry no device
 * index (issue 38: "neuron device 0" for 16 devices). By hand: NCs 0-3, 5
 * and 7-8, in any order and repeated: 7 NCs in 3 ranges. Then NCs 0, 2,
 * ..., 18 (ten ranges of one): the first eight, then ", ...". */
START_TEST(test_html_title_names_the_ncs_and_no_device_it_was_not_told)
{
    static const uint32_t ncs[] = {8, 0, 3, 1, 5, 2, 7, 0, 8};
    nrt_sys_trace_event_t r[10];
    for (size_t i = 0; i < 9; i++)
        r[i] = rec(TY(MODEL_SUBMIT), I, ncs[i], 7, 0, 5000 + i, 0, i);
    char *page = NULL;
    size_t len = 0;
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, 9, NULL, &page, &len), NRT_SUCCESS);
    ck_assert_ptr_nonnull(strstr(page, "<title>ntsim timeline: ntsim host, 7 NCs (0-3, 5, 7-8)"
                                       "</title>\n"));
    ck_assert_ptr_nonnull(strstr(page, "<h1>ntsim timeline: ntsim host, 7 NCs (0-3, 5, 7-8)"
                                       "</h1>\n"));
    ck_assert_ptr_null(strstr(page, "neuron device"));
    ntsim_buffer_free(page);
    for (size_t i = 0; i < 10; i++)
        r[i] = rec(TY(MODEL_SUBMIT), I, (uint32_t)(2 * i), 7, 0, 5000 + i, 0, i);
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, 10, NULL, &page, &len), NRT_SUCCESS);
    ck_assert_ptr_nonnull(
        strstr(page, "<h1>ntsim timeline: ntsim host, 10 NCs (0, 2, 4, 6, 8, 10, 12, 14, ...)</h1>"));
    ntsim_buffer_free(page);
}
END_TEST

/* Text of the trace inside the data's <script> cannot end it: a host named
 * "</script><!--" is written \u003c/script\u003e\u003c!-- there, so the
 * page holds exactly two "</script>", the data's and the script's. */
START_TEST(test_html_data_cannot_close_its_script)
{
    nrt_sys_trace_event_t r[1];
    r[0] = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 5000, 0, 0);
    ntsim_timeline_options_t opt = {0, 0, "</script><!--", NULL};
    char *page = NULL;
    size_t len = 0;
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, 1, &opt, &page, &len), NRT_SUCCESS);
    ck_assert_ptr_nonnull(strstr(page, "\"groups\":[[\"\\u003c/script\\u003e\\u003c!--\",0,1]]"));
    size_t closes = 0;
    for (const char *p = page; (p = strstr(p, "</script")) != NULL; p++)
        closes++;
    ck_assert_uint_eq(closes, 2);
    ck_assert_ptr_null(strstr(page, "<!--"));
    ntsim_buffer_free(page);
}
END_TEST

/* D-TIMELINE-HTML: past NTSIM_TIMELINE_PAGE_MAX_MARKS marks the page holds
 * the first ones in time order and says to open the .pftrace in Perfetto.
 * By hand: MAX instants on NC 0 at 1000 + i ns and one more at 1000 +
 * 1234005 ns: marks MAX + 1, shown MAX, the one left out begins 1234005 ns
 * after t0 ("+1234.005 us": whole microseconds, then three digits of ns),
 * and the last item written is i = MAX - 1, at b 199999. */
START_TEST(test_html_past_its_limit_shows_the_first_marks_and_names_perfetto)
{
    size_t n = NTSIM_TIMELINE_PAGE_MAX_MARKS + 1;
    nrt_sys_trace_event_t *r = calloc(n, sizeof *r);
    ck_assert_ptr_nonnull(r);
    for (size_t i = 0; i < n; i++)
        r[i] = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 1000 + i, i, i);
    r[n - 1].timestamp_ns = 1000 + 1234005;
    char *page = NULL;
    size_t len = 0;
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, n, NULL, &page, &len), NRT_SUCCESS);
    ck_assert_int_eq(NTSIM_TIMELINE_PAGE_MAX_MARKS, 200000);
    ck_assert_ptr_nonnull(strstr(page, "\"marks\":200001,\"shown\":200000,\"cut\":1234005,"));
    ck_assert_ptr_nonnull(strstr(
        page, "<p id=\"too-large\">This trace has 200001 marks, more than the 200000 this page "
              "draws: it shows the first 200000, up to +1234.005 us. Open the trace's .pftrace "
              "(trace.pftrace beside this page, or ntsim export TRACE -o FILE.pftrace) in "
              "Perfetto (ui.perfetto.dev) for all of it.</p>\n"));
    ck_assert_ptr_nonnull(strstr(page, "\n[0,0,199999,0,22,0,0,7,0,0,0,0,\"0\"]],\n\"flows\""));
    ntsim_buffer_free(page);
    /* One mark fewer: all of them, and no note. */
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, n - 1, NULL, &page, &len), NRT_SUCCESS);
    ck_assert_ptr_nonnull(strstr(page, "\"marks\":200000,\"shown\":200000,\"cut\":199999,"));
    ck_assert_ptr_null(strstr(page, "<p id=\"too-large\">"));
    ntsim_buffer_free(page);
    free(r);
}
END_TEST

/* An allocator that refuses exactly one request (the k-th malloc, calloc or
 * realloc) and gives every other, counting the blocks it handed out and
 * that are still held. */
static uint64_t g_one_calls, g_one_refuse;
static bool g_one_refused;
static long g_one_live;

static bool one_refuse_now(void)
{
    if (g_one_calls++ != g_one_refuse)
        return false;
    g_one_refused = true;
    return true;
}

static void *one_malloc(size_t n)
{
    if (one_refuse_now())
        return NULL;
    void *p = malloc(n);
    g_one_live += p != NULL;
    return p;
}

static void *one_calloc(size_t count, size_t n)
{
    if (one_refuse_now())
        return NULL;
    void *p = calloc(count, n);
    g_one_live += p != NULL;
    return p;
}

static void *one_realloc(void *old, size_t n)
{
    if (one_refuse_now())
        return NULL;
    void *p = realloc(old, n);
    g_one_live += p != NULL && old == NULL;
    return p;
}

static void one_free(void *p)
{
    g_one_live -= p != NULL;
    free(p);
}

/* facts §4, D-ALLOCATOR: whichever single allocation of the page writer is
 * refused (the later ones given), the call returns NRT_RESOURCE with its
 * output untouched and nothing left allocated, or, when it does without the
 * block (the first-capacity hint), the same page as with no failure; never a
 * write through the NULL it got. */
START_TEST(test_html_survives_any_one_refused_allocation)
{
    nrt_sys_trace_event_t r[3];
    r[0] = rec(TY(MODEL_SUBMIT), S, 0, 7, 1, 1000, 0, 0);
    r[1] = rec(TY(MODEL_SUBMIT), I, 0, 9, 0, 1500, 1, 1);
    r[2] = rec(TY(MODEL_SUBMIT), T, 0, 7, 1, 2000, 2, 2);
    char *want = NULL;
    size_t want_len = 0;
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, 3, NULL, &want, &want_len), NRT_SUCCESS);
    for (uint64_t k = 0;; k++) {
        ck_assert_uint_lt(k, 10000);
        g_one_calls = 0;
        g_one_refuse = k;
        g_one_refused = false;
        g_one_live = 0;
        char *got = NULL;
        size_t got_len = 0;
        ck_assert_int_eq(ntsim_replace_allocator(one_malloc, one_realloc, one_calloc, one_free),
                         NRT_SUCCESS);
        NRT_STATUS st = ntsim_timeline_html_serialize(r, 3, NULL, &got, &got_len);
        ck_assert_int_eq(ntsim_replace_allocator(NULL, NULL, NULL, NULL), NRT_SUCCESS);
        if (st == NRT_SUCCESS) {
            ck_assert(got_len == want_len && memcmp(got, want, want_len) == 0);
            ck_assert_int_eq(g_one_live, 1);
            free(got);
        } else {
            ck_assert_msg(st == NRT_RESOURCE, "refusing request %u: %d", (unsigned)k, (int)st);
            ck_assert_ptr_null(got);
            ck_assert_msg(g_one_live == 0, "refusing request %u: %ld blocks left", (unsigned)k,
                          g_one_live);
        }
        if (!g_one_refused)
            break;
    }
    ntsim_buffer_free(want);
}
END_TEST

/* D-TIMELINE-HTML: a flow is a pair of marks, by their places in the items,
 * each mark at its depth. By hand: thread 7 (NC 1) holds tensor read
 * [1000, 5000] (place 0), inside it nrt_execute X [1100, 4000] (place 1,
 * depth 1), inside X kbl_exec_pre [1200, 1300] with exec_id 43 (place 2,
 * depth 2). NC 1's device lane holds nc_exec_running [2000, 3500] (place 3,
 * depth 0) and inside it nc_model_switch [2100, 2200] (place 4, depth 1),
 * both exec 43: flows [1,3] and [1,4]. */
START_TEST(test_html_flows_are_pairs_of_marks_at_their_depth)
{
    nrt_sys_trace_event_t r[10];
    r[0] = rec(TY(TENSOR_READ), S, 1, 7, 10, 1000, 0, 0);
    r[1] = rec(TY(EXECUTE_API), S, 1, 7, 11, 1100, 1, 1);
    exec_pre_span(r, 2, 1, 7, 12, 1200, 1300, 43);
    r[4] = rec(TY(DEVICE_EXEC), S, 1, 7, 20, 2000, 4, 4);
    r[4].data.nc_exec_start.exec_id = 43;
    r[5] = rec(TY(NC_MODEL_SWITCH), S, 1, 7, 21, 2100, 5, 5);
    r[5].data.nc_model_switch_start.exec_id = 43;
    r[6] = rec(TY(NC_MODEL_SWITCH), T, 1, 7, 21, 2200, 6, 6);
    r[7] = rec(TY(DEVICE_EXEC), T, 1, 7, 20, 3500, 7, 7);
    r[8] = rec(TY(EXECUTE_API), T, 1, 7, 11, 4000, 8, 8);
    r[9] = rec(TY(TENSOR_READ), T, 1, 7, 10, 5000, 9, 9);
    char *page = NULL;
    size_t len = 0;
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, 10, NULL, &page, &len), NRT_SUCCESS);
    ck_assert_msg(strstr(page, "\"flows\":[\n[1,3],\n[1,4]]}") != NULL, "flows: %s",
                  strstr(page, "\"flows\":"));
    page_item_t it[8];
    ck_assert_uint_eq(page_items(page, it, 8), 5);
    static const unsigned lanes[] = {0, 0, 0, 1, 1}, depths[] = {0, 1, 2, 0, 1};
    static const int types[] = {9, 3, 17, 7, 26};
    for (size_t i = 0; i < 5; i++) {
        ck_assert_uint_eq(it[i].lane, lanes[i]);
        ck_assert_uint_eq(it[i].depth, depths[i]);
        ck_assert_int_eq(it[i].type, types[i]);
    }
    ntsim_buffer_free(page);
}
END_TEST

START_TEST(test_html_is_self_contained_and_holds_every_span)
{
    nrt_sys_trace_event_t r[16];
    size_t n = pairing_records(r);
    char *out;
    size_t len;
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, n, NULL, &out, &len), NRT_SUCCESS);
    ck_assert_uint_eq(strlen(out), len);
    page_item_t it[16];
    size_t items = page_items(out, it, 16), spans = 0, flagged = 0;
    for (size_t i = 0; i < items; i++) {
        spans += it[i].flags & NTSIM_TL_SPAN ? 1 : 0;
        flagged += it[i].flags & (NTSIM_TL_UNMATCHED_START | NTSIM_TL_UNMATCHED_STOP | NTSIM_TL_DROP)
                       ? 1
                       : 0;
    }
    ck_assert_uint_eq(spans, 4);
    ck_assert_uint_eq(flagged, 2);
    /* Nothing to fetch: no src= or href=, and no URL at all. */
    ck_assert_ptr_null(strstr(out, "src="));
    ck_assert_ptr_null(strstr(out, "href="));
    ck_assert_ptr_null(strstr(out, "http"));
    ck_assert_ptr_null(strstr(out, "url("));
    ntsim_buffer_free(out);
}
END_TEST

Suite *make_timeline_html_suite(void)
{
    Suite *s = suite_create("timeline_html");
    TCase *tc = tcase_create("timeline_html");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_html_of_trace_a);
    tcase_add_test(tc, test_html_of_trace_b);
    tcase_add_test(tc, test_html_writes_integers_past_2_53_as_strings);
    tcase_add_test(tc, test_html_span_of_a_single_instant_is_one_ns);
    tcase_add_test(tc, test_html_a_mark_without_data_keys_names_no_key_list);
    tcase_add_test(tc, test_html_survives_any_one_refused_allocation);
    tcase_add_test(tc, test_html_lays_nested_and_following_spans_from_the_first_edge);
    tcase_add_test(tc, test_html_flows_are_pairs_of_marks_at_their_depth);
    tcase_add_test(tc, test_html_title_names_the_ncs_and_no_device_it_was_not_told);
    tcase_add_test(tc, test_html_data_cannot_close_its_script);
    tcase_add_test(tc, test_html_past_its_limit_shows_the_first_marks_and_names_perfetto);
    suite_add_tcase(s, tc);
    tc = tcase_create("timeline_html_read_back");
    tcase_add_checked_fixture(tc, host_setup, host_teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_html_is_self_contained_and_holds_every_span);
    suite_add_tcase(s, tc);
    return s;
}
