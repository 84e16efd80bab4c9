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

#ifdef __cplusplus
}
#endif

#endif /* NRT_NRT_SYS_TRACE_H */
