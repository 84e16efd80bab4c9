/*
 * conformance/testee/builtin/testee_engine_int.h: the built-in testee's answers, one file
 * per group of kinds, for testee_engine.c's dispatcher.
 *
 * Every answer reads its request and fills `out` (its body case and reply)
 * from the arena. It returns NRT_SUCCESS, NRT_INVALID with the reason in
 * err when the request cannot be answered (the dispatcher sends an Error
 * response instead), or NRT_RESOURCE.
 */
#ifndef NTSIM_CONFORMANCE_TESTEE_ENGINE_INT_H
#define NTSIM_CONFORMANCE_TESTEE_ENGINE_INT_H

#include <stdio.h>

#include "kind_map.h"
#include "testee_msg.h"

typedef NRT_STATUS (*ntsim_testee_answer_fn)(const NtsimTestee__Request *q, ntsim_arena_t *a,
                                             NtsimTestee__Response *out, char *err, size_t cap);

/* ntsim__testee_<name>: the answer to each judged kind of NTSIM_KIND_MAP
 * (kind_map.h), testee_engine.c's dispatcher calls it by the request's body. */
#define NTSIM_KIND_ANSWER_DECLARE(name, how, body)                                            \
    NTSIM_KIND_IF_JUDGED(how, NRT_STATUS ntsim__testee_##name(const NtsimTestee__Request *q,  \
                                                             ntsim_arena_t *a,               \
                                                             NtsimTestee__Response *out,     \
                                                             char *err, size_t cap);)
NTSIM_KIND_MAP(NTSIM_KIND_ANSWER_DECLARE)
#undef NTSIM_KIND_ANSWER_DECLARE
void ntsim__testee_api_reset(void);

/* What the capture fixture's sink kept since it began, as a Log reply
 * (NULL when out of memory). */
NtsimTestee__Log *ntsim__testee_log(ntsim_arena_t *a);
/* NcStats of one NC (ntsim_capture_nc_stats), NULL when out of memory. */
NtsimTestee__NcStats *ntsim__testee_nc_stats(ntsim_arena_t *a, uint32_t nc_idx);
/* A payload of 40 bytes or none: *data NULL when absent; NRT_INVALID with
 * err when present with another length. */
NRT_STATUS ntsim__testee_data(protobuf_c_boolean has, const ProtobufCBinaryData *in,
                              nrt_sys_trace_event_data_t *buf,
                              const nrt_sys_trace_event_data_t **data, char *err, size_t cap);

#endif /* NTSIM_CONFORMANCE_TESTEE_ENGINE_INT_H */
