/*
 * conformance/lib/output.h: what the harness and the ntsim command write, and
 * how a program knows that it was written (docs/decisions.md, D-OUTPUT).
 *
 * The rule: a program reports success only for output that reached its
 * destination whole. Every write and every close is checked, stdout's too: a
 * report printed to a full disk or to /dev/full is a failed run (exit 1,
 * the error named on stderr), never a green one with nothing behind it.
 *
 * stdout: a program prints with stdio as usual and, last, calls
 * ntsim_output_stdout_close(); a write that failed earlier (stdio keeps the
 * error flag), the final flush or the close failing is one line on stderr,
 * "PROGRAM: cannot write stdout: REASON", and NRT_FAILURE.
 *
 * A file (git's lockfile, in four calls), so that none is lost or cut:
 *
 *     ntsim_output_t *o;
 *     ntsim_output_open(&o, path, inputs, n_inputs, why, cap)
 *         refuses a path that is one of the command's inputs (same device
 *         and inode) or not a regular file (a directory, a device), writes
 *         through a symlink to its target, then creates a temporary file beside
 *         it (same directory, hence same file system: the rename below is
 *         atomic), ".NAME.XXXXXX";
 *     ntsim_output_file(o)   the FILE * to write;
 *     ntsim_output_commit(o, why, cap)
 *         checks every write, flushes, fsyncs, closes, renames onto path:
 *         the old file stays whole until then; frees o;
 *     ntsim_output_abort(o)  closes and removes the temporary file, frees
 *         o: a failed or interrupted command leaves the old file as it was.
 *
 * Errors read "PATH: cannot write: REASON" (or why a path is refused), with
 * the status convention of the rest (NRT_SUCCESS; NRT_INVALID for a refused
 * path; NRT_FAILURE when the system failed; NRT_RESOURCE out of memory).
 * ntsim_output_check makes open's refusals without creating anything, so a
 * program can refuse a bad output path before it works (check_ntsim
 * --junit: before the run, the file written after it).
 */
#ifndef NTSIM_CONFORMANCE_OUTPUT_H
#define NTSIM_CONFORMANCE_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "nrt/nrt_status.h"

typedef struct ntsim_output ntsim_output_t;

/* Refuses path when it is not a regular file or the same file (device and inode)
 * as one of inputs[0..n) (each a path; one that does not exist is skipped),
 * or when its directory cannot be written; NRT_INVALID with why then. */
NRT_STATUS ntsim_output_check(const char *path, const char *const *inputs, size_t n, char *why,
                              size_t cap);
/* ntsim_output_check, then a temporary file beside path: *out to write
 * through ntsim_output_file, and to end with commit or abort. */
NRT_STATUS ntsim_output_open(ntsim_output_t **out, const char *path, const char *const *inputs,
                             size_t n, char *why, size_t cap);
FILE *ntsim_output_file(ntsim_output_t *o);
/* Everything written, flushed, fsync'd, closed and renamed onto the path;
 * on any failure the temporary file is removed and the path left as it
 * was. Frees o either way. */
NRT_STATUS ntsim_output_commit(ntsim_output_t *o, char *why, size_t cap);
/* The temporary file removed, the path untouched; frees o (NULL: nothing). */
void ntsim_output_abort(ntsim_output_t *o);

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
