/* engine/log.h: the engine's messages, routed to the sink of
 * ntsim_log_set_sink (ntsim/capture.h). Internal. */
#ifndef NTSIM_ENGINE_LOG_H
#define NTSIM_ENGINE_LOG_H

#include "ntsim/capture.h"

void ntsim__log(ntsim_log_level_t level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif /* NTSIM_ENGINE_LOG_H */
