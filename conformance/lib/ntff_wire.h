/*
 * conformance/lib/ntff_wire.h: an ntrace_info walked field by field on the
 * protobuf wire, so that a reader can count its events and unpack them one
 * at a time (protobuf-c unpacks a whole message at once: 10M empty events,
 * 20 MB of file, took 2.5 GB). Shared by `ntsim decode` (decode.c) and the
 * trace readers of export and view (trace_input.c).
 */
#ifndef NTSIM_CONFORMANCE_NTFF_WIRE_H
#define NTSIM_CONFORMANCE_NTFF_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One top-level field of an ntrace_info: its number, and where its bytes
 * are (for a length-delimited field, its payload without key and length). */
typedef struct ntsim_wire_field {
    uint32_t number;
    size_t start, end;          /* the whole field, key included */
    size_t value, value_len;    /* a length-delimited field's payload */
} ntsim_wire_field_t;

/* The field at *i of b[0..len), and *i past it. False on a bad key, a
 * truncated field, or a wire type ntff.proto does not use (groups, 6, 7). */
bool ntsim_ntff_wire_next(const uint8_t *b, size_t len, size_t *i, ntsim_wire_field_t *f);

/* Whether f is an event: field 1 of ntrace_info, length-delimited (an event
 * message). A field 1 of another wire type is not, and protobuf-c refuses
 * it when the rest of the message is unpacked. */
bool ntsim_ntff_wire_is_event(const ntsim_wire_field_t *f);

#endif /* NTSIM_CONFORMANCE_NTFF_WIRE_H */
