// conformance/unit/include/client_test.cc: a libnrt trace client compiles and runs
// against ntsim unchanged (issue 9 §5; docs/decisions.md D-STATUS-STR).
//
// Part 1, namespace client, is written the way libnrt's users write a trace
// client (after aws-neuron/nkipy, spike/src/include/error.h and
// spike/src/sys_trace.cpp): it includes exactly
//
//     #include <nrt/nrt.h>            NRT_STATUS, nrt_get_status_as_str
//     #include <nrt/nrt_sys_trace.h>  config, start/stop, fetch
//
// and nothing of ntsim: an error class that names the status with
// nrt_get_status_as_str, and a capture session that starts, fetches the JSON
// document and stops. Part 2, the test, plays the device: it emits events
// through ntsim's shim (ntsim/capture.h, which a client never includes) on a
// fixed clock, so every document below is known exactly.
//
// Built with -std=c++17 and linked against libntsim.so, so every function the
// client calls must be exported. Exit status 0 on success.
#include <nrt/nrt.h>
#include <nrt/nrt_sys_trace.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

// --- part 1: the client ------------------------------------------------------

namespace client {

class NrtError : public std::runtime_error {
public:
    NrtError(NRT_STATUS status, const std::string &what)
        : std::runtime_error(describe(status, what)), status_(status) {}
    NRT_STATUS status() const { return status_; }

private:
    static std::string describe(NRT_STATUS status, const std::string &what)
    {
        std::ostringstream os;
        os << "NRT Error " << nrt_get_status_as_str(status) << "(" << status << "): " << what;
        return os.str();
    }
    NRT_STATUS status_;
};

inline void check(NRT_STATUS status, const char *what)
{
    if (status != NRT_SUCCESS)
        throw NrtError(status, what);
}

// Captures from construction to destruction; fetches one NC or all of them.
class TraceSession {
public:
    explicit TraceSession(uint64_t max_events_per_nc, std::optional<uint32_t> nc = std::nullopt)
        : nc_(nc)
    {
        nrt_sys_trace_config_t *config = nullptr;
        check(nrt_sys_trace_config_allocate(&config), "allocate the trace config");
        nrt_sys_trace_config_set_max_events_per_nc(config, max_events_per_nc);
        NRT_STATUS status = nrt_sys_trace_start(config);
        nrt_sys_trace_config_free(config);
        check(status, "start the trace");
        started_ = true;
    }
    ~TraceSession() { stop(); }
    TraceSession(const TraceSession &) = delete;
    TraceSession &operator=(const TraceSession &) = delete;

    void stop()
    {
        if (started_)
            (void)nrt_sys_trace_stop(); // a destructor does not throw
        started_ = false;
    }

    // The events captured since the last fetch, as libnrt's JSON document.
    std::string fetch_json()
    {
        nrt_sys_trace_fetch_options_t *options = nullptr;
        check(nrt_sys_trace_fetch_options_allocate(&options), "allocate the fetch options");
        if (nc_.has_value())
            nrt_sys_trace_fetch_options_set_nc_idx(options, *nc_);
        char *buffer = nullptr;
        size_t written_size = 0;
        NRT_STATUS status = nrt_sys_trace_fetch_events(&buffer, &written_size, options);
        nrt_sys_trace_fetch_options_free(options);
        check(status, "fetch the trace events");
        std::string json(buffer, written_size);
        nrt_sys_trace_buffer_free(buffer);
        return json;
    }

private:
    std::optional<uint32_t> nc_;
    bool started_ = false;
};

} // namespace client

// --- part 2: the test, playing the device ------------------------------------

#include "ntsim/capture.h"

static int failures;

static void expect_str(const std::string &got, const std::string &want, int line)
{
    if (got != want) {
        std::fprintf(stderr, "cxx client_test: line %d:\n  expected %s\n  got      %s\n", line,
                     want.c_str(), got.c_str());
        failures++;
    }
}
#define EXPECT_STR(got, want) expect_str((got), (want), __LINE__)

static uint64_t fixed_clock(void *) { return 1000; }
static uint64_t fixed_tid(void *) { return 4242; }
static unsigned warnings;
static void count_warnings(ntsim_log_level_t level, const char *, void *)
{
    warnings += level <= NTSIM_LOG_WARN ? 1 : 0;
}

static void emit_tensor_read_on_nc1_and_generic_on_nc0()
{
    nrt_sys_trace_event_data_t data;
    std::memset(&data, 0, sizeof data);
    data.exec_tensor_read.tensor_id = 7;
    data.exec_tensor_read.size = 4096;
    nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_TENSOR_READ,
                            NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 1, &data, 0);
    nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC, NRT_SYS_TRACE_EVENT_PHASE_INSTANT,
                            0, nullptr, 0);
}

// Every value is worked out by hand: D-STATUS-STR names a status by its
// enumerator; facts §4 "start while running returns 1"; facts §2 the
// document, NUL-excluded size, consumed events; D-IDS id = seq | nc << 50, so
// NC 1's first event is 2^50 = 1125899906842624 and NC 0's is 0
// (D-TRACKING-ZERO); D-JSON-NAMES 9 nrt_tensor_read, 0 generic;
// D-WORKER-GID worker_gid = nc_idx; the fixed clock 1000.
static void run()
{
    EXPECT_STR(client::NrtError(NRT_INVALID, "fetch").what(), "NRT Error NRT_INVALID(2): fetch");
    EXPECT_STR(nrt_get_status_as_str(NRT_EXEC_HW_ERR_DMA_ABORT), "NRT_EXEC_HW_ERR_DMA_ABORT");
    EXPECT_STR(nrt_get_status_as_str(static_cast<NRT_STATUS>(8)), "UNKNOWN");
    static_assert(NRT_MAJOR_VERSION == 2 && NRT_MINOR_VERSION == 0, "libnrt's API version");

    ntsim_capture_hooks_t hooks = {fixed_clock, fixed_tid, nullptr};
    if (ntsim_capture_set_hooks(&hooks) != NRT_SUCCESS) {
        std::fprintf(stderr, "cxx client_test: cannot install the clock\n");
        failures++;
        return;
    }
    ntsim_log_set_sink(count_warnings, nullptr);
    {
        client::TraceSession all(1024);
        client::TraceSession *one_nc = nullptr;
        try {
            client::TraceSession second(1024, 1u);
            one_nc = &second;
        } catch (const client::NrtError &e) {
            EXPECT_STR(e.what(), "NRT Error NRT_FAILURE(1): start the trace");
        }
        if (one_nc != nullptr) {
            std::fprintf(stderr, "cxx client_test: a second start did not fail\n");
            failures++;
        }
        emit_tensor_read_on_nc1_and_generic_on_nc0();
        EXPECT_STR(all.fetch_json(),
                   "{\"events\":["
                   "{\"event_type\":\"generic\",\"phase\":\"instant\",\"id\":0,\"nc_idx\":0,"
                   "\"nc_local_id\":0,\"tracking_id\":0,\"thread_id\":4242,\"worker_gid\":0,"
                   "\"data\":{},\"timestamp_ns\":1000},"
                   "{\"event_type\":\"nrt_tensor_read\",\"phase\":\"instant\","
                   "\"id\":1125899906842624,\"nc_idx\":1,\"nc_local_id\":0,"
                   "\"tracking_id\":1125899906842624,\"thread_id\":4242,\"worker_gid\":1,"
                   "\"data\":{\"tensor_id\":7,\"size\":4096},\"timestamp_ns\":1000}"
                   "],\"data_version\":2}");
        EXPECT_STR(all.fetch_json(), "{\"events\":[],\"data_version\":2}");

        char previous[] = "the client's previous buffer";
        char *buffer = previous;
        size_t written_size = 0;
        NRT_STATUS status = nrt_sys_trace_fetch_events(&buffer, &written_size, nullptr);
        try {
            client::check(status, "fetch into a used buffer");
        } catch (const client::NrtError &e) {
            EXPECT_STR(e.what(), "NRT Error NRT_INVALID(2): fetch into a used buffer");
        }
        EXPECT_STR(buffer == previous ? "kept" : "replaced", "kept");
    }
    EXPECT_STR(warnings == 2 ? "2 warnings" : std::to_string(warnings) + " warnings",
               "2 warnings"); // the second start, the used buffer (facts §2, §4)
    ntsim_log_set_sink(nullptr, nullptr);
    ntsim_capture_shutdown();
    (void)ntsim_capture_set_hooks(nullptr); // not capturing: cannot fail
}

int main()
{
    run();
    if (failures == 0)
        std::printf("cxx client_test: a libnrt client (<nrt/nrt.h>, <nrt/nrt_sys_trace.h>) "
                    "builds unchanged and runs: ok\n");
    return failures == 0 ? 0 : 1;
}
