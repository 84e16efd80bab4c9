/* engine/log.h: the engine's messages, routed to the sink of
 * ntsim_log_set_sink (ntsim/capture.h). Internal. */
#ifndef NTSIM_ENGINE_LOG_H
#define NTSIM_ENGINE_LOG_H

#ifndef NTSIM_ENGINE_INTERNAL
#error "engine-private header: only engine/ and conformance/unit/ may include it (make layers)"
#endif

#include "ntsim/capture.h"

void ntsim__log(ntsim_log_level_t level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif /* NTSIM_ENGINE_LOG_H */
