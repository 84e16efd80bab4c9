/*
 * conformance/lib/output.h: what the harness and the ntsim command write, and
 * how a program knows that it was written (docs/decisions.md, D-OUTPUT).
 *
 * The rule: a program reports success only for output that reached its
 * destination whole. Every write and every close is checked, stdout's too: a
 * report printed to a full disk or to /dev/full is a failed run (exit 1,
 * the error named on stderr), never a green one with nothing behind it.
 *
 * Built now: stdout. A program prints with stdio as usual and, last, calls
 * ntsim_output_stdout_close(); a write that failed earlier (stdio keeps the
 * error flag), the final flush or the close failing is one line on stderr,
 * "PROGRAM: cannot write stdout: REASON", and NRT_FAILURE.
 *
 * To come here (issue 35, items 1 and 3-5), one writer for every file a
 * command writes, so that none is lost or cut:
 *
 *     ntsim_output_t *o;
 *     ntsim_output_open(&o, path, inputs, n_inputs, why, cap)
 *         refuses a path that is one of the command's inputs (same device
 *         and inode), then opens a temporary file beside it (same directory,
 *         hence same file system: the rename below is atomic);
 *     ntsim_output_file(o)   the FILE * to write;
 *     ntsim_output_commit(o, why, cap)
 *         checks every write, flushes, closes, renames onto path: the old
 *         file stays whole until then;
 *     ntsim_output_abort(o)  closes and removes the temporary file; a
 *         failed or interrupted command leaves the old file as it was.
 *
 * Their errors will use the same form ("PATH: cannot write: REASON") and the
 * same status convention (NRT_SUCCESS, or NRT_FAILURE with the reason).
 */
#ifndef NTSIM_CONFORMANCE_OUTPUT_H
#define NTSIM_CONFORMANCE_OUTPUT_H

#include <stdbool.h>

#include "nrt/nrt_status.h"

/* Flushes and closes stdout. NRT_SUCCESS when everything written to it
 * since the start reached it; otherwise prints "PROGRAM: cannot write
 * stdout: REASON" on stderr and returns NRT_FAILURE (the caller exits 1,
 * or keeps a worse status it already has). stdout must not be used after. */
NRT_STATUS ntsim_output_stdout_close(const char *program);

/* A command line's word as /bin/sh reads it back: `s` itself when it is
 * made of [A-Za-z0-9_./:=,+@%-] only (and not empty) and `always` is false,
 * else in single quotes ('it'\''s'). The whole of it, whatever its length
 * (a repro line must replay what ran, never a cut path). malloc'd; NULL
 * when out of memory. */
char *ntsim_output_shell_word(const char *s, bool always);

#endif /* NTSIM_CONFORMANCE_OUTPUT_H */
