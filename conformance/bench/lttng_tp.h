/*
 * conformance/bench/lttng_tp.h: the LTTng-UST peer of the capture benchmark: one
 * tracepoint carrying the same 112 bytes an ntsim record holds.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER ntsim_bench

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "conformance/bench/lttng_tp.h"

#if !defined(NTSIM_BENCH_LTTNG_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define NTSIM_BENCH_LTTNG_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

LTTNG_UST_TRACEPOINT_EVENT(
    ntsim_bench, record,
    LTTNG_UST_TP_ARGS(const uint8_t *, rec),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_array(uint8_t, rec, rec, 112)
    )
)

#endif /* NTSIM_BENCH_LTTNG_TP_H */

#include <lttng/tracepoint-event.h>
