// conformance/unit/include/api_test.cc: libnrt's headers must build unchanged as C++.
//
// Code written against libnrt's nrt/nrt_sys_trace.h is C++ as often as C.
// This program includes every public header from C++, checks the ABI sizes
// again with C++'s own static_assert, and drives one capture session through
// the C API, linking against libntsim. Exit status 0 on success.
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "nrt/nrt_profile_notification.h"
#include "nrt/nrt_status.h"
#include "nrt/nrt_sys_trace.h"
#include "nrt/nrt_sys_trace_event.h"
#include "ntsim/analyze.h"
#include "ntsim/capture.h"

static_assert(sizeof(nrt_sys_trace_event_t) == 112, "record is 112 bytes in C++ too");
static_assert(sizeof(nrt_sys_trace_event_data_t) == 40, "union is 40 bytes in C++ too");
static_assert(offsetof(nrt_sys_trace_event_t, data) == 48, "data at +48 in C++ too");
static_assert(sizeof(nrt_sys_trace_config_t) == 312, "config is 312 bytes in C++ too");
static_assert(NRT_SYS_TRACE_EVENT_TYPE_COUNT == 46, "46 types");

// Every public function of libnrt's nrt/nrt_sys_trace.h, with the type libnrt's
// header gives it (transcribed from that header, facts §4; D-API-SIGNATURES).
// A client that stores these functions in pointers typed from libnrt's header
// (a dispatch table, dlsym) compiles against ntsim only if each matches
// exactly: C++ converts no function pointer, not even to add a const.
#define NTSIM_LIBNRT_SIGNATURE(fn, type)                                          \
    static_assert(std::is_same<decltype(&fn), type>::value,                       \
                  #fn " must have libnrt's type " #type)
NTSIM_LIBNRT_SIGNATURE(nrt_sys_trace_config_allocate, NRT_STATUS (*)(nrt_sys_trace_config_t **));
NTSIM_LIBNRT_SIGNATURE(nrt_sys_trace_config_set_defaults, void (*)(nrt_sys_trace_config_t *));
NTSIM_LIBNRT_SIGNATURE(nrt_sys_trace_config_free, void (*)(nrt_sys_trace_config_t *));
NTSIM_LIBNRT_SIGNATURE(nrt_sys_trace_config_set_max_events_per_nc,
                       void (*)(nrt_sys_trace_config_t *, uint64_t));
NTSIM_LIBNRT_SIGNATURE(nrt_sys_trace_config_set_capture_enabled_for_nc,
                       void (*)(nrt_sys_trace_config_t *, uint32_t, bool));
NTSIM_LIBNRT_SIGNATURE(nrt_sys_trace_config_set_capture_enabled_for_event_type,
                       NRT_STATUS (*)(nrt_sys_trace_config_t *, const char *, bool));
NTSIM_LIBNRT_SIGNATURE(nrt_sys_trace_get_event_types, NRT_STATUS (*)(const char ***, size_t *));
NTSIM_LIBNRT_SIGNATURE(nrt_sys_trace_free_event_types, void (*)(const char **, size_t));
NTSIM_LIBNRT_SIGNATURE(nrt_sys_trace_config_get_enabled_event_types,
                       NRT_STATUS (*)(nrt_sys_trace_config_t *, const char ***, size_t *));
NTSIM_LIBNRT_SIGNATURE(nrt_sys_trace_start, NRT_STATUS (*)(nrt_sys_trace_config_t *));
NTSIM_LIBNRT_SIGNATURE(nrt_sys_trace_stop, NRT_STATUS (*)());
NTSIM_LIBNRT_SIGNATURE(nrt_sys_trace_fetch_options_allocate,
                       NRT_STATUS (*)(nrt_sys_trace_fetch_options_t **));
NTSIM_LIBNRT_SIGNATURE(nrt_sys_trace_fetch_options_set_defaults,
                       void (*)(nrt_sys_trace_fetch_options_t *));
NTSIM_LIBNRT_SIGNATURE(nrt_sys_trace_fetch_options_free, void (*)(nrt_sys_trace_fetch_options_t *));
NTSIM_LIBNRT_SIGNATURE(nrt_sys_trace_fetch_options_set_max_events_per_nc,
                       void (*)(nrt_sys_trace_fetch_options_t *, uint64_t));
NTSIM_LIBNRT_SIGNATURE(nrt_sys_trace_fetch_options_set_nc_idx,
                       void (*)(nrt_sys_trace_fetch_options_t *, uint64_t));
NTSIM_LIBNRT_SIGNATURE(nrt_sys_trace_fetch_events,
                       NRT_STATUS (*)(char **, size_t *, const nrt_sys_trace_fetch_options_t *));
NTSIM_LIBNRT_SIGNATURE(nrt_sys_trace_buffer_free, void (*)(char *));

// The same, as a client holds them: a table of pointers of libnrt's types.
struct libnrt_sys_trace_table {
    NRT_STATUS (*start)(nrt_sys_trace_config_t *);
    NRT_STATUS (*get_enabled)(nrt_sys_trace_config_t *, const char ***, size_t *);
};
static const libnrt_sys_trace_table table = {nrt_sys_trace_start,
                                             nrt_sys_trace_config_get_enabled_event_types};

// S5.enum.disjoint: notification_type (0..10), nrt_sys_trace_event_type (0..45)
// and the NTFF enums are distinct types with their own discriminant spaces;
// the converter takes a notification_type and writes the NTFF enums, so a
// sys_trace type passed to it does not compile in C++.
static_assert(!std::is_same<enum notification_type, nrt_sys_trace_event_type_t>::value,
              "notification_type is not the sys_trace event type");
static_assert(!std::is_same<enum notification_trace_type, enum notification_type>::value,
              "notification_trace_type is its own enum");
static_assert(std::is_same<decltype(&nrt_profile_convert_trace_type_from_ntff_params),
                           NRT_STATUS (*)(enum notification_type, enum notification_trace_type *,
                                          enum block_type *)>::value,
              "the converter maps notification_type to the NTFF enums");
static_assert(!std::is_convertible<nrt_sys_trace_event_type_t, enum notification_type>::value,
              "a sys_trace type cannot be passed where a notification_type is expected");

static int failures;
#define EXPECT(cond)                                                         \
    do {                                                                     \
        if (!(cond)) {                                                       \
            std::fprintf(stderr, "cxx api_test: %s:%d: %s\n", __FILE__,      \
                         __LINE__, #cond);                                   \
            failures++;                                                      \
        }                                                                    \
    } while (0)

int main()
{
    nrt_sys_trace_config_t *cfg = nullptr;
    EXPECT(nrt_sys_trace_config_allocate(&cfg) == NRT_SUCCESS);
    nrt_sys_trace_config_set_max_events_per_nc(cfg, 1024);
    for (uint32_t nc = 1; nc < NTSIM_NC_COUNT; nc++)
        nrt_sys_trace_config_set_capture_enabled_for_nc(cfg, nc, false);
    EXPECT(table.start(cfg) == NRT_SUCCESS);

    nrt_sys_trace_event_data_t data;
    std::memset(&data, 0, sizeof data);
    data.hw_notify.hint = 0xbeef;
    uint64_t id = nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_HW_NOTIFY,
                                          NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, &data, 77);
    EXPECT(id == 77);

    nrt_sys_trace_event_t out[4];
    size_t n = 0;
    EXPECT(nrt_sys_trace_drain_events(0, out, 4, &n) == NRT_SUCCESS);
    EXPECT(n == 1);
    EXPECT(out[0].data.hw_notify.hint == 0xbeef);
    EXPECT(nrt_sys_trace_get_event_type_category(NRT_SYS_TRACE_EVENT_TYPE_HW_NOTIFY) ==
           NRT_SYS_TRACE_EVENT_CATEGORY_HARDWARE);
    EXPECT(nrt_sys_trace_stop() == NRT_SUCCESS);
    nrt_sys_trace_config_free(cfg);
    ntsim_capture_shutdown();

    // ntsim/analyze.h (with ntsim/read.h and ntsim/convert.h): the drained
    // record through ntsim stats, from C++.
    ntsim_stats_t *stats = nullptr;
    ntsim_stats_report_t *report = nullptr;
    EXPECT(ntsim_stats_create(1, &stats) == NRT_SUCCESS);
    EXPECT(ntsim_stats_add(stats, out, n) == NRT_SUCCESS);
    EXPECT(ntsim_stats_report(stats, &report) == NRT_SUCCESS);
    EXPECT(report->events == 1 && report->type_count == 1);
    EXPECT(std::strcmp(report->types[0].name, "hw_notify") == 0);
    ntsim_stats_report_free(report);
    ntsim_stats_free(stats);

    enum notification_trace_type explicit_type = NOTIFICATION_TRACE_TYPE_EXPLICIT;
    EXPECT(explicit_type == 3);
    if (failures == 0)
        std::printf("cxx api_test: headers build as C++ and the API links: ok\n");
    return failures == 0 ? 0 : 1;
}
