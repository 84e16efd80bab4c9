/*
 * conformance/unit/engine/timeline/check_timeline_html.c: the HTML page
 * (engine/timeline/timeline_html.c, D-TIMELINE-HTML): the exact page of traces
 * A and B, titles, the drawing of spans, instants and flow ends, a page made
 * whatever one allocation is refused; then a page that fetches nothing.
 */

#include "check_timeline.h"

/* --- the HTML page (D-TIMELINE-HTML) --------------------------------------------------- */

/* From <h1> to </svg>: the style and the script before and after are
 * constants. x = 230 + (t - t_min) * 1100 / (t_max - t_min) ("%.2f"); lane
 * l's top y_l = 28 + 4 + the rows above it (rows * 14 + 8 each), a lane
 * having as many rows as its deepest nesting (at least 1); a mark at depth d
 * (open spans on its lane when it begins) sits at y_l + 14 d: a span's rect
 * at y + 1, 12 high, class "span [device] t<type % 12>"; an instant's circle
 * at y + 7, r 4, class "instant [device] [flagged]"; a flow's line from and
 * to y + 7. The lane's background rect at y_l - 2, rows * 14 + 4 high; its
 * name at y_l + 11. Times in data-b/e and the title as ns/us after t_min.
 *
 * A: span 800, x = 230 + 1.375 (t - 5000). Depths in edge order: i0 0, i4 1,
 * i1 1, i2 2 on lane 0 (3 rows, y 32); i3 0 on lane 1 (y 32 + 50 = 82); i5
 * on lane 2 (y 104); the drop on lane 3 (y 126); height 126 - 4 + 22 = 144. */
#define LANE(name, pid, tid, spans, instants, bg, h, ty)                                         \
    "<g class=\"lane\" data-lane=\"" name "\" data-pid=\"" #pid "\" data-tid=\"" #tid            \
    "\" data-spans=\"" #spans "\" data-instants=\"" #instants "\">\n"                             \
    "<rect class=\"lane-bg\" x=\"0\" y=\"" #bg "\" width=\"1340\" height=\"" #h "\"/>"             \
    "<text class=\"lane-name\" x=\"4\" y=\"" #ty "\">" name "</text>\n"
#define RECT(cls, x, y, w, b, e) \
    "<rect class=\"" cls "\" x=\"" #x "\" y=\"" #y "\" width=\"" #w "\" height=\"12\" data-b=\"" #b "\" data-e=\"" #e "\">"
#define CIRCLE(cls, x, y, b) \
    "<circle class=\"" cls "\" cx=\"" #x "\" cy=\"" #y "\" r=\"4\" data-b=\"" #b "\" data-e=\"" #b "\">"

static const char *const html_a[] = {
    "<h1>ntsim timeline: ntsim host, neuron device 0</h1>\n",
    "<p id=\"summary\">3 spans, 1 instants, 2 unmatched, 1 drops (2 events lost), 0 flows, 4 lanes, "
    "0 device clocks (worst sync residual 0.0 ns); time is the host clock from 5000 ns, device "
    "times aligned.</p>\n",
    "<div id=\"controls\"><button id=\"zoom-in\">+</button><button id=\"zoom-out\">&#8722;</button>"
    "<button id=\"zoom-reset\">reset</button> wheel to zoom, drag to pan, point at a mark for its "
    "details</div>\n<div id=\"detail\"></div>\n",
    "<svg id=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"1340\" height=\"144\" "
    "data-label=\"230\" data-plot=\"1100\" data-span=\"800\" data-t0=\"5000\" data-spans=\"3\" "
    "data-lanes=\"4\">\n<g id=\"ticks\"></g>\n",
    LANE("thread 7", 1, 7, 2, 2, 30, 46, 43),
    RECT("span t3", 230.00, 33, 825.00, 0, 600)
    "<title>nrt_execute&#10;at +0.000 us, 0.600 us&#10;nc 0, thread 7, tracking_id 100, exec_id 42"
    "&#10;model_id: 11</title></rect>\n",
    CIRCLE("instant flagged", 298.75, 53, 50)
    "<title>kmgr_exec_core (unmatched stop: no START with its tracking_id)&#10;at +0.050 us"
    "&#10;nc 0, thread 7, tracking_id 77, exec_id 5&#10;exec_id: 5&#10;model_id: 11</title></circle>\n",
    RECT("span t5", 367.50, 47, 275.00, 100, 300)
    "<title>kbl_exec_pre&#10;at +0.100 us, 0.200 us&#10;nc 0, thread 7, tracking_id 42, exec_id 42"
    "&#10;exec_id: 42&#10;model_id: 11</title></rect>\n",
    CIRCLE("instant", 505.00, 67, 200)
    "<title>nrt_model_submit&#10;at +0.200 us&#10;nc 0, thread 7, tracking_id 0&#10;model_id: 11"
    "</title></circle>\n",
    "</g>\n",
    LANE("thread 7 (overlap 1)", 1, 2097152000, 1, 0, 80, 18, 93),
    RECT("span t9", 917.50, 83, 275.00, 500, 700)
    "<title>nrt_tensor_read&#10;at +0.500 us, 0.200 us&#10;nc 0, thread 7, tracking_id 7"
    "&#10;tensor_id: 3&#10;size: 64</title></rect>\n",
    "</g>\n",
    LANE("thread 9", 1, 9, 0, 1, 102, 18, 115),
    CIRCLE("instant flagged", 1330.00, 111, 800)
    "<title>enc_barrier (unmatched start: no STOP with its tracking_id)&#10;at +0.800 us"
    "&#10;nc 0, thread 9, tracking_id 55, exec_id 42&#10;peer_id: -3&#10;exec_id: 42"
    "&#10;nec_dev_id: 1</title></circle>\n",
    "</g>\n",
    LANE("NC 0", 2130706432, 2113929216, 0, 1, 124, 18, 137),
    CIRCLE("instant flagged", 298.75, 133, 50)
    "<title>events lost: 2 (nc_local_id before 9 missing on NC 0)</title></circle>\n",
    "</g>\n",
    "<g class=\"flows\">\n</g>\n</svg>\n",
    NULL};

/* B: span 4000, x = 230 + 0.275 (t - 9000). Rows: lane 0 2 (i1 inside i0),
 * lane 1 2 (i4 inside i2), the others 1: y 32, 68, 104, 126, 148, 170;
 * height 188. Flows from i0 (y 32 + 7) to i2, i3, i5. */
static const char *const html_b[] = {
    "<h1>ntsim timeline: h&quot;&lt;&amp;&gt;&#39;, neuron device 3</h1>\n",
    "<p id=\"summary\">6 spans, 2 instants, 0 unmatched, 0 drops (0 events lost), 3 flows, 6 lanes, "
    "4 device clocks (worst sync residual 0.0 ns); time is the host clock from 9000 ns, device "
    "times aligned.</p>\n",
    "<div id=\"controls\"><button id=\"zoom-in\">+</button><button id=\"zoom-out\">&#8722;</button>"
    "<button id=\"zoom-reset\">reset</button> wheel to zoom, drag to pan, point at a mark for its "
    "details</div>\n<div id=\"detail\"></div>\n",
    "<svg id=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"1340\" height=\"188\" "
    "data-label=\"230\" data-plot=\"1100\" data-span=\"4000\" data-t0=\"9000\" data-spans=\"6\" "
    "data-lanes=\"6\">\n<g id=\"ticks\"></g>\n",
    LANE("thread 7", 77, 7, 2, 0, 30, 32, 43),
    RECT("span t3", 230.00, 33, 1100.00, 0, 4000)
    "<title>nrt_execute&#10;at +0.000 us, 4.000 us&#10;nc 1, thread 7, tracking_id 200, exec_id 43"
    "&#10;model_id: 12</title></rect>\n",
    RECT("span t5", 257.50, 47, 27.50, 100, 200)
    "<title>kbl_exec_pre&#10;at +0.100 us, 0.100 us&#10;nc 1, thread 7, tracking_id 43, exec_id 43"
    "&#10;exec_id: 43&#10;model_id: 12</title></rect>\n",
    "</g>\n",
    LANE("NC 1 core 0", 2130706435, 2113929216, 1, 1, 66, 32, 79),
    RECT("span device t7", 505.00, 69, 563.20, 1000, 3048)
    "<title>nc_exec_running&#10;at +1.000 us, 2.048 us&#10;nc 1, thread 7, tracking_id 300, "
    "exec_id 43&#10;device clock 11000 ns, aligned&#10;device_core_idx: 0&#10;exec_id: 43"
    "&#10;nc_timestamp_ns: 11000&#10;model_id: 0</title></rect>\n",
    CIRCLE("instant device", 780.00, 89, 2000)
    "<title>hw_notify&#10;at +2.000 us&#10;nc 1, thread 7, tracking_id 5, exec_id 43"
    "&#10;device clock 12001 ns, aligned&#10;device_core_idx: 0&#10;hint: 7&#10;custom_data: 9"
    "&#10;nc_timestamp_ns: 12001&#10;exec_id: 43</title></circle>\n",
    "</g>\n",
    LANE("NC 1 core 1", 2130706435, 2113929217, 1, 0, 102, 18, 115),
    RECT("span device t2", 642.50, 105, 55.00, 1500, 1700)
    "<title>nc_model_switch&#10;at +1.500 us, 0.200 us&#10;nc 1, thread 7, tracking_id 301, "
    "exec_id 43&#10;device clock 12500 ns, aligned&#10;device_core_idx: 1&#10;model_id: 12"
    "&#10;exec_id: 43&#10;nc_timestamp_ns: 12500</title></rect>\n",
    "</g>\n",
    LANE("NC 1 (no core)", 2130706435, 2113929218, 1, 0, 124, 18, 137),
    RECT("span device t8", 821.25, 127, 27.50, 2150, 2250)
    "<title>cc_running&#10;at +2.150 us, 0.100 us&#10;nc 1, thread 7, tracking_id 302, exec_id 43"
    "&#10;device clock 12300 ns, aligned&#10;gid: 2&#10;op_id: 5&#10;nc_timestamp_ns: 12300"
    "&#10;exec_id: 43&#10;algorithm: 3</title></rect>\n",
    "</g>\n",
    LANE("NC 1 notifications &amp; DMA", 2130706435, 2113929219, 1, 0, 146, 18, 159),
    RECT("span t10", 532.50, 149, 27.50, 1100, 1200)
    "<title>nrt_dma_mem_alloc&#10;at +1.100 us, 0.100 us&#10;nc 1, thread 7, tracking_id 303"
    "&#10;hbm_idx: 1&#10;is_nc_hbm: true&#10;is_aligned: false&#10;mla_idx: 2"
    "&#10;usage_type: weight</title></rect>\n",
    "</g>\n",
    LANE("NC 2", 2130706435, 2113929220, 0, 1, 168, 18, 181),
    CIRCLE("instant device", 243.75, 177, 50)
    "<title>hw_notify&#10;at +0.050 us&#10;nc 2, thread 7, tracking_id 0&#10;device clock 777 ns "
    "(no sync pair: not aligned)&#10;device_core_idx: 0&#10;hint: 1&#10;custom_data: 0"
    "&#10;nc_timestamp_ns: 777&#10;exec_id: 0</title></circle>\n",
    "</g>\n",
    "<g class=\"flows\">\n",
    "<line class=\"flow\" x1=\"230.00\" y1=\"39\" x2=\"505.00\" y2=\"75\" data-b=\"0\" data-e=\"1000\"/>\n",
    "<line class=\"flow\" x1=\"230.00\" y1=\"39\" x2=\"642.50\" y2=\"111\" data-b=\"0\" data-e=\"1500\"/>\n",
    "<line class=\"flow\" x1=\"230.00\" y1=\"39\" x2=\"821.25\" y2=\"133\" data-b=\"0\" data-e=\"2150\"/>\n",
    "</g>\n</svg>\n",
    NULL};

/* The page around the part worked out above: a document with its style and
 * script inline, the middle exactly as expected. */
static void check_page(const char *what, const char *const *middle, const char *page, size_t len)
{
    ck_assert_uint_eq(strlen(page), len);
    static const char head[] = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                               "<title>ntsim timeline</title>\n<style>";
    ck_assert(strncmp(page, head, sizeof head - 1) == 0);
    const char *h1 = strstr(page, "</style></head>\n<body>\n<h1>");
    ck_assert_ptr_nonnull(h1);
    h1 += strlen("</style></head>\n<body>\n");
    const char *end = strstr(h1, "</svg>\n");
    ck_assert_ptr_nonnull(end);
    end += strlen("</svg>\n");
    ck_assert(strncmp(end, "<script>", 8) == 0);
    ck_assert_str_eq(page + len - strlen("</script>\n</body></html>\n"),
                     "</script>\n</body></html>\n");
    char *got = strndup(h1, (size_t)(end - h1));
    ck_assert_ptr_nonnull(got);
    check_lines(what, middle, got, strlen(got));
    free(got);
}

START_TEST(test_html_of_trace_a)
{
    nrt_sys_trace_event_t r[16];
    size_t n = trace_a(r);
    char *page = NULL;
    size_t len = 0;
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, n, NULL, &page, &len), NRT_SUCCESS);
    check_page("html.a", html_a, page, len);
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
    check_page("html.b", html_b, page, len);
    ntsim_buffer_free(page);
}
END_TEST

/* D-TIMELINE-HTML: a mark's title gives its time after t_min in us with
 * three decimals. By hand: the second instant is 1999500 ns after the
 * first, 1999500 / 1000 = 1999 us and 1999500 % 1000 = 500 ns: "+1999.500
 * us"; the first is at +0.000 us. */
START_TEST(test_html_title_gives_the_time_in_us_with_three_decimals)
{
    nrt_sys_trace_event_t r[2];
    r[0] = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 5000, 0, 0);
    r[1] = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 5000 + 1999500, 1, 1);
    char *page = NULL;
    size_t len = 0;
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, 2, NULL, &page, &len), NRT_SUCCESS);
    static const char *const want[] = {
        "<title>nrt_model_submit&#10;at +0.000 us&#10;nc 0, thread 7, tracking_id 0",
        "<title>nrt_model_submit&#10;at +1999.500 us&#10;nc 0, thread 7, tracking_id 0",
    };
    for (size_t i = 0; i < 2; i++)
        ck_assert_msg(strstr(page, want[i]) != NULL, "missing: %s", want[i]);
    ntsim_buffer_free(page);
}
END_TEST

/* D-TIMELINE-HTML: x = 230 + (t - t_min) * 1100 / span with "a span of at
 * least 1 ns": a page whose marks all sit at one time (one instant, so t_max
 * = t_min) has data-span 1, and its mark at x = 230 + 0 * 1100 / 1 = 230.00,
 * data-b = data-e = 0. */
START_TEST(test_html_span_of_a_single_instant_is_one_ns)
{
    nrt_sys_trace_event_t r[1];
    r[0] = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 5000, 0, 0);
    char *page = NULL;
    size_t len = 0;
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, 1, NULL, &page, &len), NRT_SUCCESS);
    ck_assert_ptr_nonnull(strstr(page, " data-span=\"1\" "));
    ck_assert_ptr_nonnull(strstr(page, " cx=\"230.00\" "));
    ck_assert_ptr_nonnull(strstr(page, " data-b=\"0\" data-e=\"0\">"));
    ck_assert_ptr_null(strstr(page, "nan"));
    ntsim_buffer_free(page);
}
END_TEST

/* D-TIMELINE-HTML, the layout by hand, on a trace with no counter samples
 * (host records of NC 256 make none, D-TIMELINE-ORDER), so that the first
 * edge is a span's begin. Thread 7: nrt_execute A [1000, 3200]; inside it
 * tensor read B [1001, 3000] (1999 ns: "1.999 us"), inside B tensor read C
 * [2000, 2000] (length 0), and after B ends, still inside A, tensor read D
 * [3100, 3103]. One lane, y_l = 32, depths A 0, B 1, C 2, D 1 (B's end
 * closed it): 3 rows. Span 2200 ns, x = 230 + (t - 1000) / 2:
 * A x 230.00 y 33 w 1100.00; B x 230.50 y 47 w 999.50; C x 730.00 y 61,
 * w 0 drawn 1.00 wide; D x 1280.00 y 47 w 1.50 (at least 1: kept). */
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
    static const char *const want[] = {
        RECT("span t3", 230.00, 33, 1100.00, 0, 2200) "<title>nrt_execute&#10;at +0.000 us, "
                                                      "2.200 us&#10;nc 256, thread 7, tracking_id 1",
        RECT("span t9", 230.50, 47, 999.50, 1, 2000) "<title>nrt_tensor_read&#10;at +0.001 us, "
                                                     "1.999 us&#10;nc 256, thread 7, tracking_id 2",
        RECT("span t9", 730.00, 61, 1.00, 1000, 1000) "<title>nrt_tensor_read&#10;at +1.000 us, "
                                                      "0.000 us&#10;nc 256, thread 7, tracking_id 3",
        RECT("span t9", 1280.00, 47, 1.50, 2100, 2103) "<title>nrt_tensor_read&#10;at +2.100 us, "
                                                       "0.003 us&#10;nc 256, thread 7, tracking_id 4",
    };
    ck_assert_ptr_nonnull(strstr(page, LANE("thread 7", 1, 7, 4, 0, 30, 46, 43)));
    const char *at = page;
    for (size_t i = 0; i < 4; i++) {
        at = strstr(at, "<rect class=\"span");
        ck_assert_msg(at != NULL, "span %zu missing", i);
        ck_assert_msg(strncmp(at, want[i], strlen(want[i])) == 0, "span %zu: want %s, got %.200s",
                      i, want[i], at);
        at++;
    }
    ck_assert_ptr_null(strstr(at, "<rect class=\"span"));
    ntsim_buffer_free(page);
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

/* D-TIMELINE-HTML: a flow is a line between its two marks' y + 7, each at
 * its depth. By hand: thread 7 (NC 1) holds tensor read [1000, 5000],
 * inside it nrt_execute X [1100, 4000] (depth 1), inside X kbl_exec_pre
 * [1200, 1300] with exec_id 43 (depth 2): 3 rows, lane 0 at y 32, lane 1 at
 * 28 + 3 * 14 + 8 + 4 = 82. NC 1 core 0 holds nc_exec_running [2000, 3500]
 * (depth 0) and inside it nc_model_switch [2100, 2200] (depth 1), both exec
 * 43 and without a sync pair (host times kept). Span 4000, x = 230 +
 * 0.275 (t - 1000). Flows from X (y 32 + 14 + 7 = 53, x 257.50) to the exec
 * (y 82 + 7 = 89, x 505.00) and to the switch (y 82 + 14 + 7 = 103, x
 * 532.50). */
START_TEST(test_html_flow_ends_sit_at_their_marks_depth)
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
    static const char want[] =
        "<g class=\"flows\">\n"
        "<line class=\"flow\" x1=\"257.50\" y1=\"53\" x2=\"505.00\" y2=\"89\" data-b=\"100\" "
        "data-e=\"1000\"/>\n"
        "<line class=\"flow\" x1=\"257.50\" y1=\"53\" x2=\"532.50\" y2=\"103\" data-b=\"100\" "
        "data-e=\"1100\"/>\n"
        "</g>\n";
    ck_assert_msg(strstr(page, want) != NULL, "flows: %s", strstr(page, "<g class=\"flows\">"));
    ntsim_buffer_free(page);
}
END_TEST

START_TEST(test_html_is_self_contained_and_draws_every_span)
{
    nrt_sys_trace_event_t r[16];
    size_t n = pairing_records(r);
    char *out;
    size_t len;
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, n, NULL, &out, &len), NRT_SUCCESS);
    ck_assert_uint_eq(strlen(out), len);
    size_t spans = 0, flagged = 0;
    for (const char *p = out; (p = strstr(p, "<rect class=\"span")) != NULL; p++)
        spans++;
    for (const char *p = out; (p = strstr(p, "flagged\"")) != NULL; p++)
        flagged++;
    ck_assert_uint_eq(spans, 4);
    ck_assert_uint_eq(flagged, 2);
    /* Nothing to fetch: no src= or href=, and the only URL is the SVG namespace. */
    ck_assert_ptr_null(strstr(out, "src="));
    ck_assert_ptr_null(strstr(out, "href="));
    for (const char *p = out; (p = strstr(p, "http")) != NULL; p++)
        ck_assert_int_eq(strncmp(p, "http://www.w3.org/2000/svg", 26), 0);
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
    tcase_add_test(tc, test_html_title_gives_the_time_in_us_with_three_decimals);
    tcase_add_test(tc, test_html_span_of_a_single_instant_is_one_ns);
    tcase_add_test(tc, test_html_survives_any_one_refused_allocation);
    tcase_add_test(tc, test_html_lays_nested_and_following_spans_from_the_first_edge);
    tcase_add_test(tc, test_html_flow_ends_sit_at_their_marks_depth);
    suite_add_tcase(s, tc);
    tc = tcase_create("timeline_html_read_back");
    tcase_add_checked_fixture(tc, host_setup, host_teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_html_is_self_contained_and_draws_every_span);
    suite_add_tcase(s, tc);
    return s;
}
