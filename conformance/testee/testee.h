/*
 * conformance/testee/testee.h: the runner's side of the testee protocol
 * (conformance/testee/testee.proto, conformance/testee/TESTEE.md).
 *
 * Every vector kind an implementation answers (layout, enum, event_type,
 * record, json, ntff, notify, api) judges its vectors the same way: it
 * builds requests, asks a testee, and compares the replies with the vector.
 * The testee is either
 *   - in process: a handler called directly (the built-in one,
 *     builtin/testee_engine.h: ntsim_testee_builtin()), with every request
 *     and reply packed and unpacked as on the wire, so `make check` runs
 *     exactly the code `ntsim testee` serves; or
 *   - a process (testee_pipe.c): `check_ntsim --testee 'CMD ARGS'` runs CMD
 *     with /bin/sh and speaks frames over its stdin and stdout.
 *
 * A testee process that crashes, does not answer within the timeout,
 * writes a malformed frame or answers out of order fails the vector it was
 * answering, with a verdict saying which; it is killed and started again
 * (with a new hello) for the next request. After three starts in a row
 * fail, NTSIM_TESTEE_MAX_TIMEOUTS requests in a row time out (hellos aside;
 * ntsim_testee_set_max_timeouts), or NTSIM_TESTEE_MAX_TOTAL_TIMEOUTS
 * exchanges time out in all (ntsim_testee_set_max_total_timeouts), it is not
 * started again and every later request fails at once.
 */
#ifndef NTSIM_CONFORMANCE_TESTEE_H
#define NTSIM_CONFORMANCE_TESTEE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report.h"
#include "testee_msg.h"

typedef struct ntsim_testee ntsim_testee_t;

/* The timeouts in a row after which a testee process is given up on, by
 * default: a testee that hangs on every request then costs three timeouts,
 * not one per vector (486 x 10 s). */
#define NTSIM_TESTEE_MAX_TIMEOUTS 3
/* The timeouts in all (hellos included) after which it is given up on, by
 * default: one that answers once and then hangs, again after each restart,
 * never makes three in a row, and cost 80 timeouts (41 minutes) over the
 * suite and without end under --generate. With both bounds a testee costs
 * at most 10 timeouts (and their kills) over a whole run. */
#define NTSIM_TESTEE_MAX_TOTAL_TIMEOUTS 10

/* A handler of the in-process testee: one request frame's bytes in, its
 * response frame out (*resp malloc'd, the caller frees); NRT_RESOURCE when
 * memory runs out. ntsim_testee_engine_serve is the built-in one. */
typedef NRT_STATUS (*ntsim_testee_serve_fn)(const uint8_t *req, size_t len, uint8_t **resp,
                                            size_t *resp_len);
/* The in-process testee answered by serve: one per process, made on the
 * first call (later calls get the same one, whatever they pass). Its hello
 * comes from the handler's constants; if it fails anyway, its name says so. */
ntsim_testee_t *ntsim_testee_local(ntsim_testee_serve_fn serve);

/* Starts `command` (run by /bin/sh -c, exec'd when it is a simple command,
 * in its own process group, with only
 * its stdin, stdout and stderr open) and exchanges hello. timeout_ms bounds
 * every request. NRT_SUCCESS with *out, or NRT_FAILURE with the reason in
 * why (the testee is freed), NRT_RESOURCE. Ignores SIGPIPE for the process
 * (a testee that dies must not kill the runner) and, on Linux, makes it a
 * child subreaper, so that what a testee leaves behind comes back to it to
 * be ended (testee_proc.c); each stop ends the testee's process group. */
NRT_STATUS ntsim_testee_spawn(const char *command, unsigned timeout_ms, ntsim_testee_t **out,
                              char *why, size_t cap);
/* Closes a process's stdin and waits (up to the request timeout) for it to
 * exit: NRT_SUCCESS when it exits 0 (or is not running: its end was
 * reported then), else NRT_FAILURE with how it ended in why (a testee run
 * under valgrind --error-exitcode reports its errors this way). The
 * in-process testee always succeeds. */
NRT_STATUS ntsim_testee_close(ntsim_testee_t *t, char *why, size_t cap);
/* Closes a process (as ntsim_testee_close, its status ignored) and frees
 * it. Nothing for the in-process testee or NULL. */
void ntsim_testee_free(ntsim_testee_t *t);

/* The command line (NULL in process) and the name its hello gave. */
const char *ntsim_testee_command(const ntsim_testee_t *t);
const char *ntsim_testee_name(const ntsim_testee_t *t);
/* Whether the testee's hello listed the kind; its capabilities. */
bool ntsim_testee_answers(const ntsim_testee_t *t, const char *kind);
unsigned ntsim_testee_caps(const ntsim_testee_t *t);
/* Whether the process is running (true in process): false after a failed
 * exchange, until the next one starts it again. */
bool ntsim_testee_alive(const ntsim_testee_t *t);
/* Whether the command is no simple command (cd d && cmd, ulimit -v N;
 * cmd): /bin/sh runs it as written and is the process watched, so its exit
 * status stands for the testee's. A simple one (FOO=1 cmd args) is exec'd:
 * the testee is the process the runner starts. */
bool ntsim_testee_via_shell(const ntsim_testee_t *t);
/* How many times the process was started (1 after spawn). */
unsigned ntsim_testee_starts(const ntsim_testee_t *t);
/* Gives the process up after max_timeouts requests in a row time out: a
 * well-formed reply starts the count again, a crash or a malformed frame
 * neither counts nor resets it; hellos are not counted (three failed starts
 * give it up already). 0: never. */
void ntsim_testee_set_max_timeouts(ntsim_testee_t *t, unsigned max_timeouts);
/* Gives the process up after max_total exchanges time out in all, hellos
 * included, whatever came between them (NTSIM_TESTEE_MAX_TOTAL_TIMEOUTS by
 * default; 0: never). */
void ntsim_testee_set_max_total_timeouts(ntsim_testee_t *t, unsigned max_total);
/* Whether the process is given up on (too many timeouts, or its last starts
 * failed): every later request fails at once. Never for the in-process one. */
bool ntsim_testee_given_up(const ntsim_testee_t *t);
/* Sets the bound of every later request (restarts' hellos included); the
 * in-process testee has none. A test that pins a short timeout sets it after
 * the spawn, so that a start slowed by a loaded machine is not what it
 * measures. */
void ntsim_testee_set_timeout(ntsim_testee_t *t, unsigned timeout_ms);

/* One exchange: sets req->id, sends it, waits for the response. On
 * NRT_SUCCESS *out is the response with the same id (free it with
 * ntsim_testee_reply_free); otherwise why holds the verdict ("crashed
 * (killed by signal 11, SIGSEGV) while answering request 7 (record);
 * restarted for the next request") and *out is NULL. NRT_INVALID: the reply
 * came in step but is refused (a string field holding a NUL byte: protobuf
 * strings are compared with their length), and the process is kept. */
NRT_STATUS ntsim_testee_call(ntsim_testee_t *t, NtsimTestee__Request *req,
                             NtsimTestee__Response **out, char *why, size_t cap);
/* A reply's bytes unpacked within NTSIM_TESTEE_REPLY_BUDGET; NULL with why
 * ("wrote a malformed frame: ...", "... out of memory"). Free with
 * ntsim_testee_reply_free (and nothing else: the blocks are the budget's). */
NtsimTestee__Response *ntsim_testee_reply_unpack(const uint8_t *bytes, size_t len, char *why,
                                                 size_t cap);
void ntsim_testee_reply_free(NtsimTestee__Response *resp);

/* For the kinds' judges: asks, and expects a reply of the request's own
 * body case. Anything else (the verdict of ntsim_testee_call, an Error
 * reply, another reply) is one mismatch "<id>: testee: <what>" in r, and
 * NULL is returned. */
NtsimTestee__Response *ntsim_testee_ask(ntsim_testee_t *t, NtsimTestee__Request *req,
                                        const char *id, ntsim_report_t *r);

/* A tap sees every exchange that got a response (ntsim_testee_call's,
 * hence every judge's): the request with its id set, and the response,
 * which the tap must copy if it keeps anything (both are freed after).
 * The generator (conformance/generate/) keeps the reference's replies this
 * way, so that it asks exactly what the kinds' judges ask. NULL removes it. */
typedef void (*ntsim_testee_tap_fn)(const NtsimTestee__Request *req,
                                    const NtsimTestee__Response *resp, void *ctx);
void ntsim_testee_set_tap(ntsim_testee_t *t, ntsim_testee_tap_fn fn, void *ctx);

/* A judge left out checks that need capabilities the testee lacks; the
 * runner takes the mask after each vector to count them per kind. */
void ntsim_testee_note_unjudged(ntsim_testee_t *t, unsigned caps);
unsigned ntsim_testee_take_unjudged(ntsim_testee_t *t);

#endif /* NTSIM_CONFORMANCE_TESTEE_H */
