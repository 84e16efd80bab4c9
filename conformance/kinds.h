/*
 * conformance/kinds.h: the vector kinds this build knows. Each lives in its
 * own kind_<name>.c; conformance/kinds.c lists them for the loader.
 */
#ifndef NTSIM_CONFORMANCE_KINDS_H
#define NTSIM_CONFORMANCE_KINDS_H

#include <stdio.h>

#include "vector.h"

extern const ntsim_vector_kind_t ntsim_kind_layout;     /* kind_layout.c */
extern const ntsim_vector_kind_t ntsim_kind_enum;       /* kind_enum.c */
extern const ntsim_vector_kind_t ntsim_kind_event_type; /* kind_event_type.c */
extern const ntsim_vector_kind_t ntsim_kind_record;     /* kind_record.c */
extern const ntsim_vector_kind_t ntsim_kind_json;       /* kind_json.c */
extern const ntsim_vector_kind_t ntsim_kind_ntff;       /* kind_ntff.c */
extern const ntsim_vector_kind_t ntsim_kind_notify;     /* kind_notify.c */
extern const ntsim_vector_kind_t ntsim_kind_scenario;   /* kind_scenario.c */
extern const ntsim_vector_kind_t ntsim_kind_decode;     /* kind_decode.c */
extern const ntsim_vector_kind_t ntsim_kind_api;        /* kind_api.c, api_args.c, api_run.c */
extern const ntsim_vector_kind_t ntsim_kind_inspect;    /* kind_inspect.c, inspect_env.c */

/* Runs one vector: a kind an implementation answers is judged through the
 * testee t (NULL: the in-process one, testee.h), a harness kind runs
 * itself. */
void ntsim_vector_run(const ntsim_vector_t *v, struct ntsim_testee *t, ntsim_report_t *r);
/* Why testee t cannot judge v, into buf ("a harness kind", "the testee does
 * not answer json", "needs the testee's fail_allocations"), or NULL when it
 * can. t NULL: in process (every harness kind runs there too). */
const char *ntsim_vector_skip_reason(const ntsim_vector_t *v, const struct ntsim_testee *t,
                                     char *buf, size_t cap);

/* Directory holding ntff.proto, for the ntff kind's protoc --decode
 * (default "engine", relative to the working directory). */
extern const char *ntsim_check_proto_dir;

#endif /* NTSIM_CONFORMANCE_KINDS_H */
