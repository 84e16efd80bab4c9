/*
 * conformance/lib/decode.h: the two decoders of `ntsim decode` and the `decode`
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

/* The default --max-events of ntsim decode: an NTFF file with more events is
 * refused before anything is printed. */
#define NTSIM_DECODE_MAX_EVENTS UINT64_C(4000000)

/* A dump of whole 112-byte records, `size` bytes read from `in`: the JSON
 * fetch document of them, or with `text` one line per record, converted and
 * printed 4096 records at a time (memory does not grow with the dump). A size
 * that is not a multiple of 112 is refused before anything is printed. */
NRT_STATUS ntsim_decode_record_stream(FILE *in, uint64_t size, bool text, FILE *out, char *err,
                                      size_t cap);
/* The same, for bytes in memory. */
NRT_STATUS ntsim_decode_records(const uint8_t *data, size_t len, bool text, FILE *out, char *err,
                                size_t cap);
/* An NTFF ntrace_info, in protobuf text format (the layout of
 * `protoc --decode=ntff.ntrace_info`). The whole file is checked before a
 * line is printed, and memory holds one unpacked event at a time; more than
 * max_events events is refused. */
NRT_STATUS ntsim_decode_ntff(const uint8_t *data, size_t len, uint64_t max_events, FILE *out,
                             char *err, size_t cap);

#endif /* NTSIM_CONFORMANCE_DECODE_H */
