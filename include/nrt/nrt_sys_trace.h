/*
 * nrt/nrt_sys_trace.h: the public sys_trace C API, at the path libnrt's
 * clients include.
 *
 * This header carries the record ABI (nrt/nrt_sys_trace_event.h), the status
 * codes (nrt/nrt_status.h) and the two plain-data structs the API passes
 * around: the capture config and the fetch options. Both layouts come from
 * facts §2 and §4 and are pinned by static asserts here and by layout vectors.
 * Compiles as C11 and as C++ (extern "C").
 */
#ifndef NRT_NRT_SYS_TRACE_H
#define NRT_NRT_SYS_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "nrt/nrt_status.h"
#include "nrt/nrt_sys_trace_event.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One capture context per possible nc_idx (facts §5: CONTEXTS[256]); also the
 * length of capture_enabled_for_nc. Ours: libnrt has no public name for it. */
#define NTSIM_NC_COUNT 256

/* The capture config (facts §4: 312 bytes; embedded at +48 of the 624-byte
 * inspect config). Defaults: every NC and every type enabled, max_events_per_nc
 * 0x100000. start() clamps max_events_per_nc to [1024, 0x100000]. The two
 * arrays are indexed by nc_idx and by nrt_sys_trace_event_type_t. */
typedef struct nrt_sys_trace_config {
    uint64_t max_events_per_nc;                          /* ring capacity, events */
    bool capture_enabled_for_nc[NTSIM_NC_COUNT];         /* indexed by nc_idx */
    bool capture_enabled_for_event_type[NRT_SYS_TRACE_EVENT_TYPE_COUNT]; /* by type */
    /* 2 bytes of tail padding */
} nrt_sys_trace_config_t;
NTSIM_ABI_SIZE(nrt_sys_trace_config_t, 312);
NTSIM_ABI_OFFSET(nrt_sys_trace_config_t, max_events_per_nc, 0);
NTSIM_ABI_OFFSET(nrt_sys_trace_config_t, capture_enabled_for_nc, 8);
NTSIM_ABI_OFFSET(nrt_sys_trace_config_t, capture_enabled_for_event_type, 264);

/* The fetch options (facts §2: a 16-byte POD). nc_idx -1 selects every NC;
 * max_events_per_nc 0 means unlimited. A NULL options pointer means both. */
typedef struct nrt_sys_trace_fetch_options {
    uint64_t max_events_per_nc; /* events popped per NC, 0 = unlimited */
    int32_t nc_idx;             /* one NC, or -1 for all; 4 bytes tail padding */
} nrt_sys_trace_fetch_options_t;
NTSIM_ABI_SIZE(nrt_sys_trace_fetch_options_t, 16);
NTSIM_ABI_OFFSET(nrt_sys_trace_fetch_options_t, max_events_per_nc, 0);
NTSIM_ABI_OFFSET(nrt_sys_trace_fetch_options_t, nc_idx, 8);

/* ------------------------------------------------------------------------ */
/* The public API (facts §4). Status codes: docs/decisions.md D-STATUS and   */
/* D-LIFECYCLE. Names of event types are the interned event names (D-NAMES), */
/* the JSON event_type strings: "hw_notify", "nc_exec_running".             */
/* ------------------------------------------------------------------------ */

/* Allocates a config set to the defaults. The caller frees it with
 * nrt_sys_trace_config_free. NRT_INVALID if config is NULL, NRT_RESOURCE
 * when out of memory. */
NTSIM_EXPORT NRT_STATUS nrt_sys_trace_config_allocate(nrt_sys_trace_config_t **config);
/* Every NC and every type enabled, max_events_per_nc 0x100000. */
NTSIM_EXPORT void nrt_sys_trace_config_set_defaults(nrt_sys_trace_config_t *config);
NTSIM_EXPORT void nrt_sys_trace_config_free(nrt_sys_trace_config_t *config);
/* Stored as given; start() clamps it to [1024, 0x100000]. */
NTSIM_EXPORT void nrt_sys_trace_config_set_max_events_per_nc(nrt_sys_trace_config_t *config,
                                                uint64_t max_events_per_nc);
/* nc_idx >= 256 is ignored with a warning. */
NTSIM_EXPORT void nrt_sys_trace_config_set_capture_enabled_for_nc(nrt_sys_trace_config_t *config,
                                                     uint32_t nc_idx, bool enabled);
/* event_type is one of the 46 interned names nrt_sys_trace_get_event_types
 * returns ("nc_exec_running", not "device_exec"). NRT_INVALID for a NULL argument
 * or an unknown name (logged), and the config is left unchanged. */
NTSIM_EXPORT NRT_STATUS nrt_sys_trace_config_set_capture_enabled_for_event_type(nrt_sys_trace_config_t *config,
                                                                  const char *event_type,
                                                                  bool enabled);
/* The interned names of the enabled types, ascending by value, as a malloc'd
 * array of malloc'd strings (free with nrt_sys_trace_free_event_types).
 * With none enabled: *event_types = NULL, *count = 0. The config is only
 * read, but the pointer is not const: libnrt's header declares it so, and a
 * client holding this function in a pointer of libnrt's type must compile
 * (D-API-SIGNATURES). */
NTSIM_EXPORT NRT_STATUS nrt_sys_trace_config_get_enabled_event_types(nrt_sys_trace_config_t *config,
                                                        const char ***event_types, size_t *count);

/* All 46 interned names, index = enum value (facts §4: slot i is
 * strdup(nrt_interned_string_db_get_event_name(i))); free with nrt_sys_trace_free_event_types
 * (or free() each string and the array). NRT_INVALID for NULL, NRT_RESOURCE
 * when out of memory (nothing is left allocated). */
NTSIM_EXPORT NRT_STATUS nrt_sys_trace_get_event_types(const char ***event_types, size_t *count);
NTSIM_EXPORT void nrt_sys_trace_free_event_types(const char **event_types, size_t count);

/* Starts capturing: one ring of max_events_per_nc records (clamped to
 * [1024, 0x100000]) per enabled NC, the per-type enable bytes copied from the
 * config. NRT_INVALID for NULL; NRT_FAILURE (with a warning) when already
 * capturing; NRT_RESOURCE when a ring cannot be mapped (nothing started).
 * The config is only read; not const, as in libnrt's header (D-API-SIGNATURES).
 * A child forked while capturing starts with no session (stop() there is
 * NRT_FAILURE, a drain finds nothing) and may start its own; the parent's
 * session is untouched (D-FORK). */
NTSIM_EXPORT NRT_STATUS nrt_sys_trace_start(nrt_sys_trace_config_t *config);
/* Stops capturing and drops every record not yet drained (counted per NC as
 * lost_at_stop). Waits for emitters already inside an emit to leave.
 * NRT_FAILURE (with a warning, and no other effect) when not capturing, and
 * (with an error logged) when called from inside an emit, i.e. from a clock or
 * thread-id hook: that thread cannot wait for its own emit. */
NTSIM_EXPORT NRT_STATUS nrt_sys_trace_stop(void);

/* Fetch options: defaults max_events_per_nc 0 (unlimited), nc_idx -1 (all). */
NTSIM_EXPORT NRT_STATUS nrt_sys_trace_fetch_options_allocate(nrt_sys_trace_fetch_options_t **options);
NTSIM_EXPORT void nrt_sys_trace_fetch_options_set_defaults(nrt_sys_trace_fetch_options_t *options);
NTSIM_EXPORT void nrt_sys_trace_fetch_options_free(nrt_sys_trace_fetch_options_t *options);
NTSIM_EXPORT void nrt_sys_trace_fetch_options_set_max_events_per_nc(nrt_sys_trace_fetch_options_t *options,
                                                       uint64_t max_events_per_nc);
/* UINT64_MAX (that is, (uint64_t)-1) selects every NC; values 0..255 one NC;
 * anything else is kept as out of range and makes a fetch fail (D-FETCH-NC). */
NTSIM_EXPORT void nrt_sys_trace_fetch_options_set_nc_idx(nrt_sys_trace_fetch_options_t *options,
                                            uint64_t nc_idx);

/* Drains the rings (every NC ascending, or the one NC of the options; at
 * most max_events_per_nc each, 0 = unlimited; NULL options = all NCs,
 * unlimited) and returns the JSON document {"events":[...],"data_version":2}
 * in *buffer, NUL-terminated, *written_size bytes without the NUL. Fetched
 * events are gone from the rings. Free the buffer only with
 * nrt_sys_trace_buffer_free. NRT_INVALID (nothing drained) for NULL out
 * pointers, a non-NULL *buffer on entry, or an nc_idx that is neither -1
 * nor 0..255; NRT_RESOURCE (nothing drained) when the document's memory
 * cannot be reserved. Not capturing: an empty events array, NRT_SUCCESS. */
NTSIM_EXPORT NRT_STATUS nrt_sys_trace_fetch_events(char **buffer, size_t *written_size,
                                      const nrt_sys_trace_fetch_options_t *options);
NTSIM_EXPORT void nrt_sys_trace_buffer_free(char *buffer);

#ifdef __cplusplus
}
#endif

#endif /* NRT_NRT_SYS_TRACE_H */
