/*
 * engine/input.h: reading inputs (vector files, scenario
 * files, the facts, dumps to decode) into memory. (The traces export and view
 * read go through the read stage's own limits: ntsim/read.h.)
 *
 * Every reader of a file goes through here, so what may be read is decided in
 * one place: a regular file (a directory, a FIFO, a device such as /dev/zero
 * is refused with what it is), no larger than the limit of its kind, checked
 * before a byte is read and again while reading (a file that grows past the
 * limit is refused too). The limits are documented in README.md ("Inputs and
 * their limits") and can be raised per run (--max-input-bytes).
 */
#ifndef NTSIM_ENGINE_INPUT_H
#define NTSIM_ENGINE_INPUT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "nrt/nrt_status.h"

/* The input kinds and their default size limits, in bytes. */
typedef enum ntsim_input_kind {
    NTSIM_INPUT_VECTOR,    /* a vector file: 16 MiB (the largest today is about 120 KiB) */
    NTSIM_INPUT_SCENARIO,  /* a scenario file: 1 MiB */
    NTSIM_INPUT_DOC,       /* docs/spec_facts.md, docs/decisions.md: 4 MiB */
    NTSIM_INPUT_NTFF,      /* an .ntff to decode: 256 MiB (unpacked whole) */
    NTSIM_INPUT_KIND_COUNT
} ntsim_input_kind_t;

/* The limit of a kind (NTSIM_INPUT_KIND_COUNT: none). */
size_t ntsim_input_limit(ntsim_input_kind_t kind);
/* Sets every kind's limit to `bytes` (a command's --max-input-bytes). */
void ntsim_input_set_limit_all(size_t bytes);

/* strdup for C11: a malloc'd copy of s, or NULL when out of memory. */
char *ntsim_strdup(const char *s);
/* A malloc'd vsnprintf of fmt, or NULL when out of memory (or fmt fails). */
__attribute__((format(printf, 1, 0))) char *ntsim_vformat(const char *fmt, va_list ap);
/* Whether s ends with tail. */
bool ntsim_ends_with(const char *s, const char *tail);
/* s[0..len) as a message shows text from outside (a value, a testee's
 * name): at most max bytes of it, each byte outside printable ASCII as
 * \xNN, "..." when it was longer; so it cannot break a line or reach the
 * terminal. out needs 4 * max + 4 bytes; returns out. */
char *ntsim_text_escape(const char *s, size_t len, size_t max, char *out);

/* Opens `path` for reading if it is a regular file no larger than `limit`
 * (SIZE_MAX: any size); *size is its size. On refusal writes the reason into
 * err (cap bytes, without the path: "cannot open: No such file or
 * directory", "not a regular file (a directory)", "file too large (N bytes,
 * limit M)") and returns NULL with errno set. */
FILE *ntsim_open_input(const char *path, size_t limit, uint64_t *size, char *err, size_t cap);

/* What a file of this mode is, for messages: "a directory", "a FIFO", "a
 * character device"... */
const char *ntsim_file_type_name(mode_t mode);

/* Reads a whole input file (ntsim_open_input's checks, then its bytes) into a
 * malloc'd buffer with a NUL after the *len bytes. NRT_INVALID with the
 * reason in err when the file is refused or cannot be read, NRT_RESOURCE
 * when memory runs out. */
NRT_STATUS ntsim_read_input(const char *path, ntsim_input_kind_t kind, char **out, size_t *len,
                            char *err, size_t cap);

/* Reads f to its end, at most `limit` bytes, into a malloc'd buffer with a
 * NUL after the *len bytes read. NRT_RESOURCE when memory runs out,
 * NRT_FAILURE on a read error (errno says why), NRT_INVALID when there is
 * more than `limit`; *out is untouched then. */
NRT_STATUS ntsim_read_stream(FILE *f, size_t limit, char **out, size_t *len);

#endif /* NTSIM_ENGINE_INPUT_H */
