/*
 * conformance/kinds/kinds.h: the vector kinds this build knows, one per
 * NTSIM_KIND_MAP entry (lib/kind_map.h). Each lives in its own
 * kind_<name>.c (with helpers kind_<name>_*.c); kinds.c lists them for the
 * loader.
 */
#ifndef NTSIM_CONFORMANCE_KINDS_H
#define NTSIM_CONFORMANCE_KINDS_H

#include <stdint.h>
#include <stdio.h>

#include "kind_map.h"
#include "vector.h"

/* ntsim_kind_layout, ntsim_kind_enum, ...: kind_<name>.c each. */
#define NTSIM_KIND_DECLARE(name, how, body) extern const ntsim_vector_kind_t ntsim_kind_##name;
NTSIM_KIND_MAP(NTSIM_KIND_DECLARE)
#undef NTSIM_KIND_DECLARE

/* Runs one vector: a kind an implementation answers is judged through the
 * testee t (the in-process built-in one is ntsim_testee_builtin(),
 * builtin/testee_engine.h), a harness kind runs itself (t unused). */
void ntsim_vector_run(const ntsim_vector_t *v, struct ntsim_testee *t, ntsim_report_t *r);
/* Why testee t cannot judge v, into buf ("a harness kind", "the testee does
 * not answer json", NTSIM_OWN_CHECK_REASON, "needs the testee's
 * fail_allocations"), or NULL when it can. t NULL: in process (every harness
 * kind and own check runs there too). */
#define NTSIM_OWN_CHECK_REASON "the harness's own check: it asks the testee nothing"
const char *ntsim_vector_skip_reason(const ntsim_vector_t *v, const struct ntsim_testee *t,
                                     char *buf, size_t cap);

/* ntff_protoc.c: `protoc --decode=ntff.<message>` of the bytes, with the
 * frozen ntff.proto (below), started without a shell: protoc's output
 * (malloc'd; the caller frees it), or NULL with the reason in why. The last
 * few successful decodes are remembered (an equal input gives the same
 * text without running protoc); ntsim_ntff_decode_forget releases them and
 * the frozen schema. */
char *ntsim_ntff_decode(const char *message, const uint8_t *bytes, size_t len, char *why,
                        size_t why_cap);
void ntsim_ntff_decode_forget(void);
/* Reads ntff.proto (ntsim_check_ntff_proto) into memory, once: every later
 * decode uses that text, whatever happens to the file (the runner calls it
 * before a testee process exists; a decode calls it on first use).
 * NRT_FAILURE with the reason in why (the same reason at every later call). */
NRT_STATUS ntsim_ntff_schema_freeze(char *why, size_t cap);
/* Whether protoc runs here (`protoc --version`): the runner's own tool, so
 * that a machine without it is the harness's error, not every ntff
 * verdict's. NRT_FAILURE with why. */
NRT_STATUS ntsim_ntff_protoc_check(char *why, size_t cap);

/* The path of ntff.proto, for the ntff kind's protoc --decode (the
 * runner's --proto DIR gives DIR/ntff.proto); NULL: where the locator finds
 * the NTFF schema (sim/locate.h), from any working directory. */
extern const char *ntsim_check_ntff_proto;

#endif /* NTSIM_CONFORMANCE_KINDS_H */
