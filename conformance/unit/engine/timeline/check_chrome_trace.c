/*
 * conformance/unit/engine/timeline/check_chrome_trace.c: the Chrome JSON
 * (engine/timeline/chrome_trace.c, D-CHROME-JSON): the exact bytes of traces
 * A and B, flows and their ids, long times, the origin, long names, and an
 * execute whose only flow goes to a model switch; then a document read back
 * with jansson.
 */
#include <jansson.h>

#include "check_timeline.h"

/* --- Chrome JSON (D-CHROME-JSON) ------------------------------------------------ */

/* ts_origin_ns = t_min - 1000 = 4000; ts and dur in us with three decimals.
 * No options: the device process is "neuron device (unknown)" (the records
 * name no device, D-TIMELINE-ORDER). */
static const char *const chrome_a[] = {
    "{\"traceEvents\":[\n",
    "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"ntsim host\"}},\n",
    "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":1,\"tid\":0,\"args\":{\"sort_index\":0}},\n",
    "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":2130706432,\"tid\":0,\"args\":{\"name\":\"neuron device (unknown)\"}},\n",
    "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":2130706432,\"tid\":0,\"args\":{\"sort_index\":1}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":7,\"args\":{\"name\":\"thread 7\"}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":1,\"tid\":7,\"args\":{\"sort_index\":0}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":2097152000,\"args\":{\"name\":\"thread 7 (overlap 1)\"}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":1,\"tid\":2097152000,\"args\":{\"sort_index\":1}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":9,\"args\":{\"name\":\"thread 9\"}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":1,\"tid\":9,\"args\":{\"sort_index\":2}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":2130706432,\"tid\":2113929216,\"args\":{\"name\":\"NC 0\"}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":2130706432,\"tid\":2113929216,\"args\":{\"sort_index\":3}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 0 events lost\",\"pid\":2130706432,\"tid\":0,\"ts\":1.000,\"args\":{\"events\":0}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 0 events pushed\",\"pid\":2130706432,\"tid\":0,\"ts\":1.000,\"args\":{\"events\":1}},\n",
    "{\"ph\":\"X\",\"name\":\"nrt_execute\",\"cat\":\"host\",\"pid\":1,\"tid\":7,\"ts\":1.000,\"dur\":0.600,\"args\":{\"model_id\":11,\"stop.model_id\":11,\"tracking_id\":100,\"thread_id\":7,\"nc_idx\":0,\"id\":1000,\"exec_id\":42}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 0 events lost\",\"pid\":2130706432,\"tid\":0,\"ts\":1.050,\"args\":{\"events\":2}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 0 events pushed\",\"pid\":2130706432,\"tid\":0,\"ts\":1.050,\"args\":{\"events\":10}},\n",
    "{\"ph\":\"I\",\"name\":\"kmgr_exec_core (unmatched stop)\",\"cat\":\"host\",\"pid\":1,\"tid\":7,\"ts\":1.050,\"s\":\"t\",\"args\":{\"exec_id\":5,\"model_id\":11,\"tracking_id\":77,\"thread_id\":7,\"nc_idx\":0,\"id\":1009,\"unmatched\":\"stop: no START with this tracking_id\"}},\n",
    "{\"ph\":\"I\",\"name\":\"events lost\",\"cat\":\"device\",\"pid\":2130706432,\"tid\":2113929216,\"ts\":1.050,\"s\":\"t\",\"args\":{\"lost_events\":2,\"next_nc_local_id\":9,\"nc_idx\":0}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 0 events pushed\",\"pid\":2130706432,\"tid\":0,\"ts\":1.100,\"args\":{\"events\":2}},\n",
    "{\"ph\":\"X\",\"name\":\"kbl_exec_pre\",\"cat\":\"host\",\"pid\":1,\"tid\":7,\"ts\":1.100,\"dur\":0.200,\"args\":{\"exec_id\":42,\"model_id\":11,\"stop.exec_id\":42,\"stop.model_id\":11,\"tracking_id\":42,\"thread_id\":7,\"nc_idx\":0,\"id\":1001}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 0 events pushed\",\"pid\":2130706432,\"tid\":0,\"ts\":1.200,\"args\":{\"events\":3}},\n",
    "{\"ph\":\"I\",\"name\":\"nrt_model_submit\",\"cat\":\"host\",\"pid\":1,\"tid\":7,\"ts\":1.200,\"s\":\"t\",\"args\":{\"model_id\":11,\"tracking_id\":0,\"thread_id\":7,\"nc_idx\":0,\"id\":1002}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 0 events pushed\",\"pid\":2130706432,\"tid\":0,\"ts\":1.300,\"args\":{\"events\":4}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 0 events pushed\",\"pid\":2130706432,\"tid\":0,\"ts\":1.500,\"args\":{\"events\":5}},\n",
    "{\"ph\":\"X\",\"name\":\"nrt_tensor_read\",\"cat\":\"host\",\"pid\":1,\"tid\":2097152000,\"ts\":1.500,\"dur\":0.200,\"args\":{\"tensor_id\":3,\"size\":64,\"stop.tensor_id\":3,\"stop.size\":64,\"tracking_id\":7,\"thread_id\":7,\"nc_idx\":0,\"id\":1004}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 0 events pushed\",\"pid\":2130706432,\"tid\":0,\"ts\":1.600,\"args\":{\"events\":6}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 0 events pushed\",\"pid\":2130706432,\"tid\":0,\"ts\":1.700,\"args\":{\"events\":7}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 0 events pushed\",\"pid\":2130706432,\"tid\":0,\"ts\":1.800,\"args\":{\"events\":11}},\n",
    "{\"ph\":\"I\",\"name\":\"enc_barrier (unmatched start)\",\"cat\":\"host\",\"pid\":1,\"tid\":9,\"ts\":1.800,\"s\":\"t\",\"args\":{\"peer_id\":-3,\"exec_id\":42,\"nec_dev_id\":1,\"tracking_id\":55,\"thread_id\":9,\"nc_idx\":0,\"id\":1010,\"unmatched\":\"start: no STOP with this tracking_id\"}}\n",
    "],\"otherData\":{\"ts_origin_ns\":\"4000\",\"clock\":\"host CLOCK_REALTIME\",\"spans\":3,\"instants\":1,\"unmatched\":2,\"drops\":1}}\n",
    NULL};

/* ts_origin_ns = 9000 - 1000 = 8000. The flows' "s" is on the nrt_execute,
 * the "f" on nc_exec_running (both spans "exec"); the flows to
 * nc_model_switch and cc_running are the .pftrace's only. */
static const char *const chrome_b[] = {
    "{\"traceEvents\":[\n",
    "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":77,\"tid\":0,\"args\":{\"name\":\"h\\\"<&>'\"}},\n",
    "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":77,\"tid\":0,\"args\":{\"sort_index\":0}},\n",
    "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":2130706435,\"tid\":0,\"args\":{\"name\":\"neuron device 3\"}},\n",
    "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":2130706435,\"tid\":0,\"args\":{\"sort_index\":1}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":77,\"tid\":7,\"args\":{\"name\":\"thread 7\"}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":77,\"tid\":7,\"args\":{\"sort_index\":0}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":2130706435,\"tid\":2113929216,\"args\":{\"name\":\"NC 1 core 0\"}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":2130706435,\"tid\":2113929216,\"args\":{\"sort_index\":1}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":2130706435,\"tid\":2113929217,\"args\":{\"name\":\"NC 1 core 1\"}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":2130706435,\"tid\":2113929217,\"args\":{\"sort_index\":2}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":2130706435,\"tid\":2113929218,\"args\":{\"name\":\"NC 1 (no core)\"}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":2130706435,\"tid\":2113929218,\"args\":{\"sort_index\":3}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":2130706435,\"tid\":2113929219,\"args\":{\"name\":\"NC 1 notifications & DMA\"}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":2130706435,\"tid\":2113929219,\"args\":{\"sort_index\":4}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":2130706435,\"tid\":2113929220,\"args\":{\"name\":\"NC 2\"}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":2130706435,\"tid\":2113929220,\"args\":{\"sort_index\":5}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 1 events lost\",\"pid\":2130706435,\"tid\":0,\"ts\":1.000,\"args\":{\"events\":0}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 1 events pushed\",\"pid\":2130706435,\"tid\":0,\"ts\":1.000,\"args\":{\"events\":1}},\n",
    "{\"ph\":\"X\",\"name\":\"nrt_execute\",\"cat\":\"exec\",\"pid\":77,\"tid\":7,\"ts\":1.000,\"dur\":4.000,\"args\":{\"model_id\":12,\"stop.model_id\":12,\"tracking_id\":200,\"thread_id\":7,\"nc_idx\":1,\"id\":2000,\"exec_id\":43}},\n",
    "{\"ph\":\"s\",\"name\":\"execute\",\"cat\":\"exec\",\"id\":1,\"pid\":77,\"tid\":7,\"ts\":1.000},\n",
    "{\"ph\":\"C\",\"name\":\"NC 2 events lost\",\"pid\":2130706435,\"tid\":0,\"ts\":1.050,\"args\":{\"events\":0}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 2 events pushed\",\"pid\":2130706435,\"tid\":0,\"ts\":1.050,\"args\":{\"events\":1}},\n",
    "{\"ph\":\"I\",\"name\":\"hw_notify\",\"cat\":\"device\",\"pid\":2130706435,\"tid\":2113929220,\"ts\":1.050,\"s\":\"t\",\"args\":{\"device_core_idx\":0,\"hint\":1,\"custom_data\":0,\"nc_timestamp_ns\":777,\"exec_id\":0,\"tracking_id\":0,\"thread_id\":7,\"nc_idx\":2,\"id\":2013,\"device_ns\":777,\"aligned\":false}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 1 events pushed\",\"pid\":2130706435,\"tid\":0,\"ts\":1.100,\"args\":{\"events\":2}},\n",
    "{\"ph\":\"X\",\"name\":\"kbl_exec_pre\",\"cat\":\"host\",\"pid\":77,\"tid\":7,\"ts\":1.100,\"dur\":0.100,\"args\":{\"exec_id\":43,\"model_id\":12,\"stop.exec_id\":43,\"stop.model_id\":12,\"tracking_id\":43,\"thread_id\":7,\"nc_idx\":1,\"id\":2001}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 1 events pushed\",\"pid\":2130706435,\"tid\":0,\"ts\":1.200,\"args\":{\"events\":3}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 1 events pushed\",\"pid\":2130706435,\"tid\":0,\"ts\":1.300,\"args\":{\"events\":4}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 1 events pushed\",\"pid\":2130706435,\"tid\":0,\"ts\":1.400,\"args\":{\"events\":5}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 1 events pushed\",\"pid\":2130706435,\"tid\":0,\"ts\":1.500,\"args\":{\"events\":6}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 1 events pushed\",\"pid\":2130706435,\"tid\":0,\"ts\":1.600,\"args\":{\"events\":7}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 1 events pushed\",\"pid\":2130706435,\"tid\":0,\"ts\":1.700,\"args\":{\"events\":8}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 1 events pushed\",\"pid\":2130706435,\"tid\":0,\"ts\":1.800,\"args\":{\"events\":9}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 1 events pushed\",\"pid\":2130706435,\"tid\":0,\"ts\":1.900,\"args\":{\"events\":10}},\n",
    "{\"ph\":\"X\",\"name\":\"nc_exec_running\",\"cat\":\"exec\",\"pid\":2130706435,\"tid\":2113929216,\"ts\":2.000,\"dur\":2.048,\"args\":{\"device_core_idx\":0,\"exec_id\":43,\"nc_timestamp_ns\":11000,\"model_id\":0,\"stop.nc_timestamp_ns\":13050,\"tracking_id\":300,\"thread_id\":7,\"nc_idx\":1,\"id\":2003,\"device_ns\":11000,\"aligned\":true}},\n",
    "{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"execute\",\"cat\":\"exec\",\"id\":1,\"pid\":2130706435,\"tid\":2113929216,\"ts\":2.000},\n",
    "{\"ph\":\"C\",\"name\":\"NC 1 events pushed\",\"pid\":2130706435,\"tid\":0,\"ts\":2.100,\"args\":{\"events\":11}},\n",
    "{\"ph\":\"X\",\"name\":\"nrt_dma_mem_alloc\",\"cat\":\"dma\",\"pid\":2130706435,\"tid\":2113929219,\"ts\":2.100,\"dur\":0.100,\"args\":{\"hbm_idx\":1,\"is_nc_hbm\":true,\"is_aligned\":false,\"mla_idx\":2,\"usage_type\":\"weight\",\"stop.allocated_bytes\":4096,\"stop.total_bytes\":16384,\"stop.usage_type_total_bytes\":8192,\"stop.return_code\":0,\"stop.physical_address\":\"0xabc0\",\"tracking_id\":303,\"thread_id\":7,\"nc_idx\":1,\"id\":2010}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 1 events pushed\",\"pid\":2130706435,\"tid\":0,\"ts\":2.200,\"args\":{\"events\":12}},\n",
    "{\"ph\":\"X\",\"name\":\"nc_model_switch\",\"cat\":\"device\",\"pid\":2130706435,\"tid\":2113929217,\"ts\":2.500,\"dur\":0.200,\"args\":{\"device_core_idx\":1,\"model_id\":12,\"exec_id\":43,\"nc_timestamp_ns\":12500,\"stop.nc_timestamp_ns\":12700,\"tracking_id\":301,\"thread_id\":7,\"nc_idx\":1,\"id\":2004,\"device_ns\":12500,\"aligned\":true}},\n",
    "{\"ph\":\"I\",\"name\":\"hw_notify\",\"cat\":\"device\",\"pid\":2130706435,\"tid\":2113929216,\"ts\":3.000,\"s\":\"t\",\"args\":{\"device_core_idx\":0,\"hint\":7,\"custom_data\":9,\"nc_timestamp_ns\":12001,\"exec_id\":43,\"tracking_id\":5,\"thread_id\":7,\"nc_idx\":1,\"id\":2006,\"device_ns\":12001,\"aligned\":true}},\n",
    "{\"ph\":\"X\",\"name\":\"cc_running\",\"cat\":\"device\",\"pid\":2130706435,\"tid\":2113929218,\"ts\":3.150,\"dur\":0.100,\"args\":{\"gid\":2,\"op_id\":5,\"nc_timestamp_ns\":12300,\"exec_id\":43,\"algorithm\":\"3\",\"stop.nc_timestamp_ns\":12400,\"tracking_id\":302,\"thread_id\":7,\"nc_idx\":1,\"id\":2008,\"device_ns\":12300,\"aligned\":true}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 1 events pushed\",\"pid\":2130706435,\"tid\":0,\"ts\":5.000,\"args\":{\"events\":13}}\n",
    "],\"otherData\":{\"ts_origin_ns\":\"8000\",\"clock\":\"host CLOCK_REALTIME\",\"spans\":6,\"instants\":2,\"unmatched\":0,\"drops\":0}}\n",
    NULL};

START_TEST(test_chrome_json_of_trace_a)
{
    nrt_sys_trace_event_t r[16];
    size_t n = trace_a(r);
    char *doc = NULL;
    size_t len = 0;
    ck_assert_int_eq(ntsim_chrome_trace_serialize(r, n, NULL, &doc, &len), NRT_SUCCESS);
    check_lines("chrome.a", chrome_a, doc, len);
    ntsim_buffer_free(doc);
}
END_TEST

START_TEST(test_chrome_json_of_trace_b)
{
    nrt_sys_trace_event_t r[16];
    size_t n = trace_b(r);
    char *doc = NULL;
    size_t len = 0;
    ck_assert_int_eq(ntsim_chrome_trace_serialize(r, n, &options_b, &doc, &len), NRT_SUCCESS);
    check_lines("chrome.b", chrome_b, doc, len);
    ntsim_buffer_free(doc);
}
END_TEST

/* The first five records of traces C and D: an nrt_execute START at 1 ms
 * on thread 7 (model 1), its kbl_exec_pre [1000100, 1000200] naming
 * exec_id 1, and an nc_model_switch [1000300, 1000400] of exec_id 1 whose
 * pairs have dev - cpu = 5000 - 1000300. */
static void execute_with_a_model_switch(nrt_sys_trace_event_t r[5])
{
    r[0] = rec(TY(EXECUTE_API), S, 0, 7, 1, 1000000, 0, 0);
    r[0].data.nrt_exec.model_id = 1;
    exec_pre_span(r, 1, 0, 7, 2, 1000100, 1000200, 1);
    r[3] = rec(TY(NC_MODEL_SWITCH), S, 0, 7, 3, 1000300, 3, 3);
    r[3].data.nc_model_switch_start.exec_id = 1;
    r[3].data.nc_model_switch_start.sync_info.nc_timestamp_ns = 5000;
    r[3].data.nc_model_switch_start.sync_info.cpu_timestamp_ns = 1000300;
    r[4] = rec(TY(NC_MODEL_SWITCH), T, 0, 7, 3, 1000400, 4, 4);
    r[4].data.nc_model_switch_stop.sync_info.nc_timestamp_ns = 5100;
    r[4].data.nc_model_switch_stop.sync_info.cpu_timestamp_ns = 1000400;
}

/* --- Chrome JSON details (D-CHROME-JSON, D-TIMELINE-ORDER) ---------------------------- */

/* Trace C: an nrt_execute [1 ms, 3001 ms] (exec_id 1 from its kbl_exec_pre)
 * whose first flow goes to an nc_model_switch (item 2, flow 1) and second to
 * an nc_exec_running (item 3, flow 2): the span binds flows ("exec") because
 * one of them ends on nc_exec_running, and only flow 2 is written ("s" on the
 * nrt_execute, "f" on the device span). The device records' pairs all have
 * dev - cpu = 5000 - 1000300 = -995300: b = 0, aligned times are the cpus.
 * ts_origin_ns = 1000000 - 1000 = 999000; the nrt_execute lasts 3e9 ns =
 * 3000000.000 us; the last pushed sample (id 7, count 8) is at 3001000000,
 * 3000001.000 us after the origin. */
START_TEST(test_chrome_json_flows_ids_and_long_times)
{
    nrt_sys_trace_event_t r[8];
    execute_with_a_model_switch(r);
    r[5] = rec(TY(DEVICE_EXEC), S, 0, 7, 4, 1000500, 5, 5);
    r[5].data.nc_exec_start.exec_id = 1;
    r[5].data.nc_exec_start.sync_info.nc_timestamp_ns = 5200;
    r[5].data.nc_exec_start.sync_info.cpu_timestamp_ns = 1000500;
    r[6] = rec(TY(DEVICE_EXEC), T, 0, 7, 4, 1000600, 6, 6);
    r[6].data.nc_exec_stop.sync_info.nc_timestamp_ns = 5300;
    r[6].data.nc_exec_stop.sync_info.cpu_timestamp_ns = 1000600;
    r[7] = rec(TY(EXECUTE_API), T, 0, 7, 1, UINT64_C(3001000000), 7, 7);
    r[7].data = r[0].data;
    char *doc = NULL;
    size_t len;
    ck_assert_int_eq(ntsim_chrome_trace_serialize(r, 8, NULL, &doc, &len), NRT_SUCCESS);
    static const char *const want[] = {
        "{\"ph\":\"X\",\"name\":\"nrt_execute\",\"cat\":\"exec\",\"pid\":1,\"tid\":7,\"ts\":1.000,"
        "\"dur\":3000000.000,\"args\":{\"model_id\":1,\"stop.model_id\":1,\"tracking_id\":1,"
        "\"thread_id\":7,\"nc_idx\":0,\"id\":0,\"exec_id\":1}},\n"
        "{\"ph\":\"s\",\"name\":\"execute\",\"cat\":\"exec\",\"id\":2,\"pid\":1,\"tid\":7,\"ts\":1.000},\n",
        "{\"ph\":\"X\",\"name\":\"nc_model_switch\",\"cat\":\"device\",\"pid\":2130706432,"
        "\"tid\":2113929216,\"ts\":1.300,\"dur\":0.100,",
        "{\"ph\":\"X\",\"name\":\"nc_exec_running\",\"cat\":\"exec\",\"pid\":2130706432,"
        "\"tid\":2113929216,\"ts\":1.500,\"dur\":0.100,",
        "{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"execute\",\"cat\":\"exec\",\"id\":2,\"pid\":2130706432,"
        "\"tid\":2113929216,\"ts\":1.500}",
        "{\"ph\":\"C\",\"name\":\"NC 0 events pushed\",\"pid\":2130706432,\"tid\":0,"
        "\"ts\":3000001.000,\"args\":{\"events\":8}}",
        "\"ts_origin_ns\":\"999000\"",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(strstr(doc, want[i]) != NULL, "missing: %s\nin: %s", want[i], doc);
    ck_assert_ptr_null(strstr(doc, "\"id\":1,\"pid\""));
    ntsim_buffer_free(doc);
}
END_TEST

/* D-CHROME-JSON: the origin is 1 us before the first item, 0 when that is
 * earlier than 1 us; a name whose JSON string takes 256 bytes or more (the
 * host name is the caller's) is written "?". */
START_TEST(test_chrome_json_origin_and_long_names)
{
    static const struct {
        uint64_t t;
        const char *origin, *ts;
    } at[] = {{500, "\"ts_origin_ns\":\"0\"", "\"ts\":0.500,"},
              {999, "\"ts_origin_ns\":\"0\"", "\"ts\":0.999,"},
              {1000, "\"ts_origin_ns\":\"0\"", "\"ts\":1.000,"},
              {1001, "\"ts_origin_ns\":\"1\"", "\"ts\":1.000,"}};
    for (size_t i = 0; i < 4; i++) {
        nrt_sys_trace_event_t e = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, at[i].t, 0, 0);
        char *doc = NULL;
        size_t len;
        ck_assert_int_eq(ntsim_chrome_trace_serialize(&e, 1, NULL, &doc, &len), NRT_SUCCESS);
        ck_assert_msg(strstr(doc, at[i].origin) && strstr(doc, at[i].ts), "t %llu: %s",
                      (unsigned long long)at[i].t, doc);
        ntsim_buffer_free(doc);
    }
    /* The model keeps 63 bytes of a name (D-TIMELINE-ORDER); a control byte
     * takes 6 in JSON (\u0001): 42 of them, the quotes and 1 or 2 more
     * bytes need 255 (written) or 256 ("?"). */
    char name[64];
    for (size_t plain = 1; plain <= 2; plain++) {
        memset(name, 1, 42);
        memset(name + 42, 'h', plain);
        name[42 + plain] = '\0';
        ntsim_timeline_options_t opt = {0, 0, name, NULL};
        nrt_sys_trace_event_t e = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 5000, 0, 0);
        char *doc = NULL;
        size_t len;
        ck_assert_int_eq(ntsim_chrome_trace_serialize(&e, 1, &opt, &doc, &len), NRT_SUCCESS);
        char want[320] = "\"process_name\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"";
        for (int i = 0; i < 42 && plain == 1; i++)
            strcat(want, "\\u0001");
        strcat(want, plain == 1 ? "h\"}}" : "?\"}}");
        ck_assert_msg(strstr(doc, want) != NULL, "%zu: %.400s", plain, doc);
        ntsim_buffer_free(doc);
    }
    /* ... and cuts a longer host name at 63 bytes. */
    char longer[100];
    memset(longer, 'h', 99);
    longer[99] = '\0';
    ntsim_timeline_options_t opt = {0, 0, longer, NULL};
    nrt_sys_trace_event_t e = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 5000, 0, 0);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(&e, 1, &opt, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(strlen(tl.processes[0].name), 63);
    ntsim__timeline_free(&tl);
}
END_TEST

/* D-CHROME-JSON: only the nrt_execute spans that a flow to an
 * nc_exec_running joins have the category "exec"; flows to the other
 * device spans are in the .pftrace only. Here the nrt_execute's one flow
 * (exec_id 1, from its kbl_exec_pre) goes to an nc_model_switch: the span
 * keeps its lane's category, "host", and no "s"/"f" is written. */
START_TEST(test_chrome_json_execute_with_only_a_model_switch_flow_stays_host)
{
    nrt_sys_trace_event_t r[6];
    execute_with_a_model_switch(r);
    r[5] = rec(TY(EXECUTE_API), T, 0, 7, 1, 1000700, 5, 5);
    r[5].data = r[0].data;
    char *doc = NULL;
    size_t len;
    ck_assert_int_eq(ntsim_chrome_trace_serialize(r, 6, NULL, &doc, &len), NRT_SUCCESS);
    static const char want[] = "{\"ph\":\"X\",\"name\":\"nrt_execute\",\"cat\":\"host\",\"pid\":1,"
                               "\"tid\":7,\"ts\":1.000,\"dur\":0.700,";
    ck_assert_msg(strstr(doc, want) != NULL, "missing: %s\nin: %s", want, doc);
    ck_assert_ptr_null(strstr(doc, "\"ph\":\"s\""));
    ck_assert_ptr_null(strstr(doc, "\"ph\":\"f\""));
    ntsim_buffer_free(doc);
}
END_TEST

/* --- the Chrome JSON ------------------------------------------------------------- */

START_TEST(test_chrome_json_times_are_exact_microseconds_from_the_origin)
{
    nrt_sys_trace_event_t r[2];
    r[0] = host_rec(TY(EXEC_PRE), S, 1, T0 + 123);
    r[1] = host_rec(TY(EXEC_PRE), T, 1, T0 + 2500);
    char *out;
    size_t len;
    ck_assert_int_eq(ntsim_chrome_trace_serialize(r, 2, NULL, &out, &len), NRT_SUCCESS);
    /* Origin = first - 1 us: ts 1.000, dur (2500 - 123) ns = 2.377 us. */
    ck_assert_ptr_nonnull(strstr(out, "\"ts\":1.000,\"dur\":2.377"));
    ck_assert_ptr_nonnull(strstr(out, "\"ts_origin_ns\":\"1699999999999999123\""));
    json_error_t je;
    json_t *doc = json_loads(out, 0, &je);
    ck_assert_msg(doc != NULL, "%d:%d: %s", je.line, je.column, je.text);
    size_t x = 0, m = 0, idx;
    json_t *e;
    json_array_foreach(json_object_get(doc, "traceEvents"), idx, e)
    {
        const char *ph = json_string_value(json_object_get(e, "ph"));
        x += strcmp(ph, "X") == 0;
        m += strcmp(ph, "M") == 0;
    }
    ck_assert_uint_eq(x, 1);
    ck_assert_uint_eq(m, 2 * 2 + 2 * 1); /* name + sort index: 2 processes, 1 thread */
    json_decref(doc);
    ntsim_buffer_free(out);
}
END_TEST

Suite *make_chrome_trace_suite(void)
{
    Suite *s = suite_create("chrome_trace");
    TCase *tc = tcase_create("chrome_trace");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_chrome_json_of_trace_a);
    tcase_add_test(tc, test_chrome_json_of_trace_b);
    tcase_add_test(tc, test_chrome_json_flows_ids_and_long_times);
    tcase_add_test(tc, test_chrome_json_origin_and_long_names);
    tcase_add_test(tc, test_chrome_json_execute_with_only_a_model_switch_flow_stays_host);
    suite_add_tcase(s, tc);
    tc = tcase_create("chrome_trace_read_back");
    tcase_add_checked_fixture(tc, host_setup, host_teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_chrome_json_times_are_exact_microseconds_from_the_origin);
    suite_add_tcase(s, tc);
    return s;
}
