/* conformance/bench/lttng_tp.c: instantiates the LTTng-UST tracepoint provider. */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "conformance/bench/lttng_tp.h"
