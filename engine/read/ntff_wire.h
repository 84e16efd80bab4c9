/*
 * engine/read/ntff_wire.h: protobuf fields walked on the wire, so that a
 * reader can count an ntrace_info's events and unpack them one at a time
 * (protobuf-c unpacks a whole message at once: 10M empty events, 20 MB of
 * file, took 2.5 GB), and tell a file's format from its first bytes
 * (read.c). Shared by the NTFF reader (read_ntff.c), `ntsim decode`
 * (decode.c) and the format's detection. Internal.
 */
#ifndef NTSIM_ENGINE_NTFF_WIRE_H
#define NTSIM_ENGINE_NTFF_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One field: its number and wire type, and where its bytes are (for a
 * length-delimited field, its payload without key and length). */
typedef struct ntsim_wire_field {
    uint32_t number;
    unsigned wire;              /* 0 varint, 1 eight bytes, 2 length-delimited, 5 four bytes */
    size_t start, end;          /* the whole field, key included */
    size_t value, value_len;    /* a length-delimited field's payload */
} ntsim_wire_field_t;

/* A field's key at *i of b[0..len) into f (number, wire, start), *i past
 * it. False when the bytes end inside it, it is longer than 10 bytes, its
 * number is 0 or past 2^32 - 1, or its wire type is none ntff.proto uses
 * (groups, 6, 7). */
bool ntsim__ntff_wire_key(const uint8_t *b, size_t len, size_t *i, ntsim_wire_field_t *f);
/* The value of f (its key read) at *i, *i past it, and f's value and end.
 * False when the bytes end inside it (a payload's value and value_len, its
 * declared length, are set once its length is read). */
bool ntsim__ntff_wire_value(const uint8_t *b, size_t len, size_t *i, ntsim_wire_field_t *f);

/* The whole field at *i (its key, then its value), and *i past it. */
bool ntsim__ntff_wire_next(const uint8_t *b, size_t len, size_t *i, ntsim_wire_field_t *f);

/* Whether f is an event: field 1 of ntrace_info, length-delimited (an event
 * message). A field 1 of another wire type is not, and protobuf-c refuses
 * it when the rest of the message is unpacked. */
bool ntsim__ntff_wire_is_event(const ntsim_wire_field_t *f);

#endif /* NTSIM_ENGINE_NTFF_WIRE_H */
