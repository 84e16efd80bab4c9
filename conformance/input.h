/*
 * conformance/input.h: reading the harness's inputs (vector files, scenario
 * files, dumps to decode) into memory.
 *
 * Every reader of a file goes through here, so that what may be read (a
 * regular file, within a size limit) is decided in one place.
 */
#ifndef NTSIM_CONFORMANCE_INPUT_H
#define NTSIM_CONFORMANCE_INPUT_H

#include <stddef.h>
#include <stdio.h>

#include "nrt/nrt_status.h"

/* strdup for C11: a malloc'd copy of s, or NULL when out of memory. */
char *ntsim_strdup(const char *s);

/* Reads f to its end into a malloc'd buffer with a NUL after the *len bytes
 * read (so text can be used as a string). NRT_RESOURCE when memory runs out,
 * NRT_FAILURE on a read error (errno says why); *out is untouched then. */
NRT_STATUS ntsim_read_stream(FILE *f, char **out, size_t *len);

#endif /* NTSIM_CONFORMANCE_INPUT_H */
