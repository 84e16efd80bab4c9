/*
 * conformance/testee/builtin/testee_engine.h: the built-in testee, the real engine behind
 * the testee protocol (conformance/testee/testee.proto).
 *
 * One function answers one request: the bytes of a request frame in, the
 * bytes of its response frame out. `ntsim testee` calls it for every frame
 * it reads; `make check`'s in-process run calls it directly (testee.h), so
 * both judge exactly the same code. The answers run the engine as the
 * harness always has: on the capture fixture's virtual clock and log sink
 * (capture_fixture.h), with ntsim's counters.
 */
#ifndef NTSIM_CONFORMANCE_TESTEE_ENGINE_H
#define NTSIM_CONFORMANCE_TESTEE_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "nrt/nrt_status.h"

/* The name the built-in testee gives in its hello. */
#define NTSIM_TESTEE_ENGINE_NAME "ntsim " NTSIM_TESTEE_ENGINE_VERSION
#define NTSIM_TESTEE_ENGINE_VERSION "0.1.0"

/* Answers the request in req[0..len) with *resp (malloc'd, *resp_len bytes;
 * the caller frees it). A request that cannot be unpacked or answered gets
 * an Error response (id 0 when even the id cannot be read). NRT_SUCCESS,
 * or NRT_RESOURCE when memory runs out (no response). */
NRT_STATUS ntsim_testee_engine_serve(const uint8_t *req, size_t len, uint8_t **resp,
                                     size_t *resp_len);

struct ntsim_testee;
/* The built-in testee in process (testee.h's ntsim_testee_local answered
 * by ntsim_testee_engine_serve): what make check judges when no --testee
 * is given. */
struct ntsim_testee *ntsim_testee_builtin(void);

/* Releases what an unfinished api session holds (a config, fetch options,
 * a running capture): a testee calls it at EOF. */
void ntsim_testee_engine_reset(void);

#endif /* NTSIM_CONFORMANCE_TESTEE_ENGINE_H */
