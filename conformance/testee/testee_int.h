/*
 * conformance/testee/testee_int.h: what testee_client.c (the protocol),
 * testee_pipe.c (the transport) and testee_proc.c (the process) share. Not
 * for the kinds: they use testee.h.
 */
#ifndef NTSIM_CONFORMANCE_TESTEE_INT_H
#define NTSIM_CONFORMANCE_TESTEE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "testee.h"

/* After this many failed starts in a row, a testee is given up on. */
#define NTSIM_TESTEE_MAX_FAILED_STARTS 3

struct ntsim_testee {
    char *command;          /* NULL: in process */
    ntsim_testee_serve_fn serve; /* in process: the handler */
    unsigned timeout_ms;    /* per request */
    pid_t pid;              /* the process (its group leader) */
    bool exited;            /* it ended and was reaped, its wait status in exit_status */
    int exit_status;
    int to_fd, from_fd;     /* its stdin, its stdout */
    bool running;
    bool via_shell;         /* not a simple command: its shell is the process watched */
    unsigned starts;        /* successful and failed */
    unsigned failed_starts; /* in a row */
    unsigned max_timeouts;  /* given up on after this many timeouts in a row (0: never) */
    unsigned timeouts;      /* requests (not hellos) in a row that timed out */
    unsigned max_total_timeouts; /* ... or this many in all, hellos too (0: never) */
    unsigned total_timeouts;     /* exchanges, hellos included, that timed out */
    bool timed_out;         /* the last exchange's deadline passed */
    char start_error[256];  /* the last failed start's reason */
    uint64_t next_id;       /* the next request's id (1 after each start) */
    char name[128];         /* HelloReply.name */
    unsigned kinds;         /* bit i: ntsim_testee_kind_names[i] */
    unsigned caps;          /* NTSIM_TESTEE_CAP_* */
    unsigned unjudged;      /* caps whose checks were left out, since taken */
    ntsim_testee_tap_fn tap; /* sees every answered exchange, or NULL */
    void *tap_ctx;
};

/* testee_pipe.c: one frame out and one back within t->timeout_ms.
 * NRT_SUCCESS with *resp (malloc'd, the caller frees); otherwise the process
 * has been stopped (t->running false) and why says what it did: crashed,
 * exited, closed its stdout, did not answer in time, wrote a malformed
 * frame. */
NRT_STATUS ntsim_testee_pipe_roundtrip(ntsim_testee_t *t, const uint8_t *req, size_t len,
                                       uint8_t **resp, size_t *resp_len, char *why, size_t cap);

/* testee_proc.c: starts the process (t->command) in its own process group
 * with only its stdin, stdout and stderr open; t->running on success;
 * NRT_FAILURE with why. On Linux, makes the runner a child subreaper (once). */
NRT_STATUS ntsim_testee_pipe_start(ntsim_testee_t *t, char *why, size_t cap);
/* Stops the process: gentle (close its stdin and wait up to the request
 * timeout for it to exit) or not (SIGKILL to its group at once); reaps it;
 * then, either way, SIGKILL to its group and the sweep of what escaped it
 * (testee_proc.c). Returns its wait status, or -1 when it was killed (or was
 * not running). */
int ntsim_testee_pipe_stop(ntsim_testee_t *t, bool gentle);
/* testee_proc.c: SIGINT, SIGTERM, SIGHUP and SIGQUIT (those not ignored)
 * kill every live testee's group, then end the runner as they would have.
 * Idempotent; called at each start and exchange, as Check replaces the
 * handlers of SIGINT and SIGTERM while its suites run. */
void ntsim_testee_catch_end_signals(void);
/* Whether the process the runner started has ended (reaped: t->exited and
 * t->exit_status); never blocks. */
bool ntsim_testee_leader_ended(ntsim_testee_t *t);
/* Its stdout ended (or its process did): how it ended, into why (waiting up
 * to 1 s, or the request timeout when shorter, for an exit; "closed its stdout without exiting (killed)" when none
 * came), and the process stopped. */
void ntsim_testee_describe_end(ntsim_testee_t *t, char *why, size_t cap);
/* "exited with status 3", "crashed (killed by signal 11, SIGSEGV)"; with
 * via_shell, a status of 128+N says what a shell says by it. */
void ntsim_testee_describe_status(int status, bool via_shell, char *why, size_t cap);
/* Where `exec ` goes into a --testee command so that the shell replaces
 * itself with the testee: the offset of its command word (after any
 * leading NAME=value assignments), or -1 when it is no simple command (a
 * list, a pipeline, a subshell, a compound command) or execs itself. */
long ntsim__testee_exec_point(const char *command);

#endif /* NTSIM_CONFORMANCE_TESTEE_INT_H */
