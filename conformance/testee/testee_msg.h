/*
 * conformance/testee/testee_msg.h: building testee protocol messages
 * (conformance/testee/testee.proto, generated into testee.pb-c.h).
 *
 * A message under construction points at strings, arrays and sub-messages
 * that all come from one arena and are freed together after the message is
 * packed: the runner builds requests this way (kind_*.c), the built-in
 * testee its responses (testee_engine*.c). Messages read off the wire are
 * protobuf-c's own (ntsim_testee__*__unpack / __free_unpacked).
 */
#ifndef NTSIM_CONFORMANCE_TESTEE_MSG_H
#define NTSIM_CONFORMANCE_TESTEE_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nrt/nrt_status.h"
#include "nrt/nrt_sys_trace_event.h"
#include "testee.pb-c.h"

/* The protocol version both sides speak (HelloReply.protocol_version). */
#define NTSIM_TESTEE_PROTOCOL 1
/* The longest frame either side accepts, in bytes (testee.proto). */
#define NTSIM_TESTEE_MAX_FRAME ((size_t)64 << 20)
/* The most the runner holds for the replies it has read (unpacked), in
 * bytes as malloc holds them: twice a frame, enough for a frame of 112-byte
 * records; a frame of millions of tiny elements needs more and is refused
 * as "out of memory" (testee.h: ntsim_testee_reply_unpack). */
#define NTSIM_TESTEE_REPLY_BUDGET (2 * NTSIM_TESTEE_MAX_FRAME)

/* Blocks of one message under construction; ntsim_arena_free frees them
 * all. On allocation failure every function returns NULL (or false) and
 * the arena stays valid. */
typedef struct ntsim_arena {
    void **blocks;
    size_t count, cap;
} ntsim_arena_t;

void ntsim_arena_init(ntsim_arena_t *a);
void ntsim_arena_free(ntsim_arena_t *a);
/* n zeroed bytes (n may be 0). */
void *ntsim_arena_alloc(ntsim_arena_t *a, size_t n);
/* count zeroed elements of size bytes (count may be 0); NULL on overflow. */
void *ntsim_arena_array(ntsim_arena_t *a, size_t count, size_t size);
char *ntsim_arena_strdup(ntsim_arena_t *a, const char *s);
/* A copy of n bytes as protobuf-c bytes; false when out of memory. */
bool ntsim_arena_bytes(ntsim_arena_t *a, const void *data, size_t n, ProtobufCBinaryData *out);
/* `count` records as repeated bytes (112 each). */
bool ntsim_arena_records(ntsim_arena_t *a, const nrt_sys_trace_event_t *recs, size_t count,
                         ProtobufCBinaryData **out, size_t *n_out);
/* Repeated bytes of exactly 112 each back into records (malloc'd; the
 * caller frees). False with *bad the index of the first entry of another
 * size, or SIZE_MAX when out of memory. */
bool ntsim_testee_records_read(ProtobufCBinaryData *in, size_t n, nrt_sys_trace_event_t **out,
                               size_t *bad);

/* A NUL-terminated malloc'd copy of bytes (the caller frees); NULL when out
 * of memory. */
char *ntsim_testee_text(const ProtobufCBinaryData *b);

/* Whether the wire bytes of a message of descriptor d (a reply that
 * unpacked) hold a `string` field with a NUL byte, at any depth: protobuf-c
 * gives a string as a C string, so "layout\0junk" would read as "layout"
 * and pass. Where it is ("layout.fields[2].name (byte 6 of 11)"), into
 * where. */
bool ntsim_testee_nul_string(const ProtobufCMessageDescriptor *d, const uint8_t *bytes,
                             size_t len, char *where, size_t cap);

/* Packs a message into a malloc'd buffer; NULL when out of memory. */
uint8_t *ntsim_testee_pack(const ProtobufCMessage *m, size_t *len);

/* The vector kinds a testee may answer, in protocol names, and the
 * optional capabilities (bit i of a mask is entry i). */
extern const char *const ntsim_testee_kind_names[]; /* NULL-terminated */
enum {
    NTSIM_TESTEE_CAP_LOG = 1u << 0,              /* "log" */
    NTSIM_TESTEE_CAP_STATS = 1u << 1,            /* "stats" */
    NTSIM_TESTEE_CAP_FAIL_ALLOCATIONS = 1u << 2, /* "fail_allocations" */
    NTSIM_TESTEE_CAP_JSON_ESCAPE = 1u << 3,      /* "json_escape" */
    NTSIM_TESTEE_CAP_BLOCKS = 1u << 4,           /* "blocks" */
    NTSIM_TESTEE_CAP_COUNT = 5,
    NTSIM_TESTEE_CAP_ALL = (1u << NTSIM_TESTEE_CAP_COUNT) - 1
};
extern const char *const ntsim_testee_cap_names[]; /* NULL-terminated, by bit */
/* "log, stats" for a mask, into buf. */
const char *ntsim_testee_caps_text(unsigned caps, char *buf, size_t cap);

#endif /* NTSIM_CONFORMANCE_TESTEE_MSG_H */
