/* conformance/bench/lttng_peer.c: the one call site of the LTTng-UST tracepoint, kept
 * out of bench_capture.c so that file builds with the project's flags. */
#include "conformance/bench/lttng_tp.h"

int ntsim_bench_lttng_enabled(void)
{
    return lttng_ust_tracepoint_enabled(ntsim_bench, record) ? 1 : 0;
}

void ntsim_bench_lttng_emit(const uint8_t *rec)
{
    lttng_ust_tracepoint(ntsim_bench, record, rec);
}
