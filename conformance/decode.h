/*
 * conformance/decode.h: the two decoders of `ntsim decode` and the `decode`
 * vector kind (D-DECODE), on memory.
 *
 * Output goes to `out`; on bad input nothing is printed, a message (without the
 * file name) is written to err (cap bytes) and the status is NRT_INVALID;
 * NRT_RESOURCE when memory runs out.
 */
#ifndef NTSIM_CONFORMANCE_DECODE_H
#define NTSIM_CONFORMANCE_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "nrt/nrt_status.h"

/* A dump of whole 112-byte records: the JSON fetch document of them, or with
 * `text` one line per record. A size that is not a multiple of 112 is
 * refused. */
NRT_STATUS ntsim_decode_records(const uint8_t *data, size_t len, bool text, FILE *out, char *err,
                                size_t cap);
/* An NTFF ntrace_info, in protobuf text format (the layout of
 * `protoc --decode=ntff.ntrace_info`). */
NRT_STATUS ntsim_decode_ntff(const uint8_t *data, size_t len, FILE *out, char *err, size_t cap);

#endif /* NTSIM_CONFORMANCE_DECODE_H */
