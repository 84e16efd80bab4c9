// conformance/bench/ntff_cpp_peer.cc: the C++ libprotobuf peer of the NTFF benchmark.
//
// Encodes the same ntrace_info the C writer produces for the same records
// (the same fields set, the same four attributes per event, strings formatted
// the same way), with an arena, as libnrt's C++ event_to_proto would.
#include <chrono>
#include <cstdio>
#include <string>

#include "ntff.pb.h"

extern "C" {
#include "nrt/nrt_sys_trace_event.h"
}

extern "C" double ntsim_bench_cpp_encode(const nrt_sys_trace_event_t *events, size_t n,
                                         const char *hint, uint64_t name_id,
                                         size_t *bytes_out)
{
    auto t0 = std::chrono::steady_clock::now();
    google::protobuf::Arena arena;
    auto *info = google::protobuf::Arena::CreateMessage<ntff::ntrace_info>(&arena);
    char buf[32];
    for (size_t i = 0; i < n; i++) {
        const nrt_sys_trace_event_t &e = events[i];
        ntff::ntrace_event *ev = info->add_events();
        if (e.timestamp_ns) ev->set_timestamp(e.timestamp_ns);
        ev->set_data(name_id);
        if (e.nc_idx) ev->set_nc_idx(e.nc_idx);
        ev->set_event_type((uint32_t)e.trace_type + 1);
        ev->set_hint(hint);
        if ((uint32_t)e.thread_id) ev->set_thread_id((uint32_t)e.thread_id);
        if (e.id) ev->set_id(e.id);
        if (e.tracking_id) ev->set_tracking_id(e.tracking_id);
        ev->set_phase((ntff::ntrace_event_phase_type)(e.phase + 1));
        auto *attrs = ev->mutable_attributes();
        const auto &c = e.data.dmem_buf_copyin;
        snprintf(buf, sizeof buf, "%llu", (unsigned long long)c.mem_handle);
        (*attrs)["mem_handle"] = buf;
        snprintf(buf, sizeof buf, "%u", (unsigned)c.mem_type);
        (*attrs)["mem_type"] = buf;
        snprintf(buf, sizeof buf, "%u", (unsigned)c.offset);
        (*attrs)["offset"] = buf;
        snprintf(buf, sizeof buf, "%u", (unsigned)c.size);
        (*attrs)["size"] = buf;
    }
    info->set_data_version(1);
    std::string out;
    info->SerializeToString(&out);
    *bytes_out = out.size();
    auto t1 = std::chrono::steady_clock::now();
    return std::chrono::duration<double>(t1 - t0).count();
}
