/*
 * engine/output.h: writing files so that none is lost or cut, and knowing
 * that what a program printed reached stdout (docs/decisions.md, D-OUTPUT).
 * Every writer of a file goes through here: the ntsim command's outputs,
 * the inspect session's ntrace.pb, ntsim_ntff_write_file, check_ntsim's
 * saved failures.
 *
 * The rule, git's lockfile.c's: a file is written under a temporary name
 * beside it (same directory, hence same file system; created new, O_EXCL)
 * and renamed onto its name only once every write, the flush, fsync and
 * close succeeded. A failure, or a signal, removes the temporary file: the
 * old file stays as it was, whole, and no partial file is left. An output
 * that is one of the program's inputs (the same device and inode: a hard
 * link, a symlink or another spelling of the path) is refused before
 * anything is opened for writing.
 *
 *     ntsim_output_input(path, "the scenario")     each input, first
 *     ntsim_output_check(paths, n, why, cap)       every output, before any opens
 *     ntsim_output_t *o;
 *     ntsim_output_open(&o, path, why, cap)        the temporary file beside path
 *     fwrite(..., ntsim_output_file(o))            write; errors kept by stdio
 *     ntsim_output_commit(o, why, cap)             or ntsim_output_abort(o)
 *
 * A path that exists and is not a regular file (a device such as /dev/null
 * or /dev/full, a FIFO) has no contents to keep: it is written in place,
 * each write and the close still checked. A symlink is followed: the file
 * it names is replaced (its mode kept), the link stays.
 *
 * Errors: NRT_SUCCESS, NRT_INVALID (refused: an input, a directory),
 * NRT_FAILURE (the system said no: errno is its reason) or NRT_RESOURCE
 * (out of memory); why, when not NULL, gets "PATH: cannot write: REASON"
 * or the refusal, whole up to cap bytes.
 */
#ifndef NTSIM_ENGINE_OUTPUT_H
#define NTSIM_ENGINE_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "nrt/nrt_status.h"

/* --- the program's inputs ------------------------------------------------------ */

/* Registers a file the program reads, by device and inode, with what it is
 * ("the scenario", "the input"; a literal or a string that outlives the
 * registry) for the refusal's message. A path that does not exist is not an
 * input (nothing to protect). NRT_RESOURCE when out of memory. */
NRT_STATUS ntsim_output_input(const char *path, const char *role);
/* Forgets every registered input. */
void ntsim_output_inputs_clear(void);

/* Checks that each of paths[0..n) may be written before any is opened: none
 * is a registered input, none names the same file as another (by device
 * and inode where it exists; where it does not, by its nearest existing
 * directory and the rest of its path), none is a directory. NRT_SUCCESS,
 * or NRT_INVALID with the first refusal in why ("OUT is IN itself: refusing
 * to write over the scenario"), NRT_RESOURCE when out of memory. */
NRT_STATUS ntsim_output_check(const char *const *paths, size_t n, char *why, size_t cap);

/* --- one file, written beside itself ------------------------------------------------ */

typedef struct ntsim_output ntsim_output_t;

/* Refuses path when it is a registered input or a directory; otherwise
 * opens a new temporary file beside it (".NAME.PID.N.tmp", mode 0666 less
 * the umask, or the existing file's mode) and registers it for removal on
 * a signal. *out is NULL unless NRT_SUCCESS. */
NRT_STATUS ntsim_output_open(ntsim_output_t **out, const char *path, char *why, size_t cap);
/* The stream to write (stdio's buffering: a caller may setvbuf first). */
FILE *ntsim_output_file(const ntsim_output_t *o);
/* The path as given to open. */
const char *ntsim_output_path(const ntsim_output_t *o);
/* Finishes the file (no earlier write failed, flush, fsync, close) and
 * renames it onto its path; frees o, whatever the result. On failure the
 * temporary file is removed and the old file is untouched. */
NRT_STATUS ntsim_output_commit(ntsim_output_t *o, char *why, size_t cap);
/* Commits several files as one: each is finished first, and only when all
 * are whole are they renamed, in order, with SIGINT, SIGTERM, SIGHUP and
 * SIGQUIT held until the last (a signal then ends the program with every
 * file committed); then each of remove[0..n_remove) that exists is
 * removed (the files of an earlier run this one did not write). One
 * failing to finish aborts them all. Frees every o[i]. A rename refused
 * part way (only a fault of the file system can) leaves the files renamed
 * before it; why names the one that failed. */
NRT_STATUS ntsim_output_commit_all(ntsim_output_t *const *o, size_t n,
                                   const char *const *remove, size_t n_remove, char *why,
                                   size_t cap);
/* Gives the finished file the name path only if no file has it (link(2),
 * so never over another file; path in the same directory as o's). NRT_SUCCESS,
 * o freed; NRT_INVALID with errno EEXIST when path exists, o kept (try
 * another name, or abort it); otherwise the temporary file is removed, o
 * freed, and NRT_FAILURE. For files that must never replace one
 * (check_ntsim --save-failures). */
NRT_STATUS ntsim_output_commit_new(ntsim_output_t *o, const char *path, char *why, size_t cap);
/* Closes and removes the temporary file (a file written in place is only
 * closed); frees o. NULL does nothing. */
void ntsim_output_abort(ntsim_output_t *o);

/* --- signals and directories ---------------------------------------------------------- */

/* Removes every temporary file still open in this process (async-signal-
 * safe: unlink only). A signal handler of the program's own calls it. */
void ntsim_output_remove_temps(void);
/* How many temporary files are listed for that removal: those open and not
 * yet committed or aborted (the tests check that none is left listed). */
size_t ntsim_output_temps_listed(void);
/* Installs, for SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGPIPE (each not
 * ignored), a handler that removes the temporary files, then ends the
 * program by the same signal; and ignores SIGXFSZ, so that a file past
 * `ulimit -f` is a write error (EFBIG) the program reports. */
void ntsim_output_catch_signals(void);

/* Takes an exclusive lock on directory dir (flock on the directory itself:
 * no lock file, released when the program ends however it ends). *fd is
 * the descriptor to give to ntsim_output_dir_unlock. NRT_INVALID with why
 * when another process holds it; a file system without flock (EOPNOTSUPP,
 * ENOLCK) is not locked and is NRT_SUCCESS with *fd -1. */
NRT_STATUS ntsim_output_dir_lock(const char *dir, int *fd, char *why, size_t cap);
void ntsim_output_dir_unlock(int fd);

/* --- stdout and command lines ---------------------------------------------------------- */

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

#endif /* NTSIM_ENGINE_OUTPUT_H */
