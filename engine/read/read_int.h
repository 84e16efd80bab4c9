/*
 * engine/read/read_int.h: what the read stage's files share (ntsim/read.h is
 * its public face; D-READ, D-TRACE-READER). Internal.
 *
 *   read.c          the entry points: a file or bytes, the format told by
 *                   content, record dumps, the trace freed
 *   read_values.c   a written value back into its field, exactly; the
 *                   records grown; errors
 *   read_json.c     a JSON fetch document (json_reader.c pulls its values)
 *   read_ntff.c     an NTFF ntrace_info (ntff_wire.c walks its fields)
 *   decode.c        ntsim decode's printers
 */
#ifndef NTSIM_ENGINE_READ_INT_H
#define NTSIM_ENGINE_READ_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data_view.h"
#include "json_reader.h"
#include <protobuf-c/protobuf-c.h>
#include "ntsim/read.h"

/* One read in progress: the trace it fills and where a problem goes. */
typedef struct ntsim__read {
    ntsim_trace_t *trace;  /* being filled; freed by the caller on failure */
    size_t events_cap;     /* records trace->events has room for */
    uint64_t max_events;
    char *err;             /* the problem, "where: message" */
    size_t cap;
    /* A scan (ntsim_trace_scan_file): the records go to fn a batch at a time
     * and are not kept; trace->events holds the batch being filled, and
     * `passed` counts the records already handed on. NULL fn: a read. */
    ntsim_trace_batch_fn fn;
    void *ctx;
    uint64_t passed;
} ntsim__read_t;

/* Writes the problem into rd->err; returns NRT_INVALID. */
NRT_STATUS ntsim__read_fail(ntsim__read_t *rd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "out of memory" into rd->err; returns NRT_RESOURCE. */
NRT_STATUS ntsim__read_out_of_memory(ntsim__read_t *rd);
/* Room for one more record after the `have` kept, growing the array
 * geometrically up to `most` records in all; in a scan, a full batch is
 * handed on first (trace->event_count is then 0). */
NRT_STATUS ntsim__read_reserve(ntsim__read_t *rd, size_t have, uint64_t most);
/* The index in the file of the next record (its events[i] in messages). */
uint64_t ntsim__read_index(const ntsim__read_t *rd);
/* In a scan, hands the records of trace->events on (count 0: nothing). */
NRT_STATUS ntsim__read_flush(ntsim__read_t *rd);
/* "fetch JSON, NTFF or record dumps": the formats read, for messages. */
const char *ntsim__read_formats_read(void);
/* "events: more than N events (the --max-events limit)". */
NRT_STATUS ntsim__read_too_many(ntsim__read_t *rd);

/* --- values and the fields they go to -------------------------------------------- */

/* A destination: `size` bytes (1, 2, 4 or 8), C int or unsigned. */
typedef struct ntsim__field_shape {
    size_t size;
    bool is_signed;
} ntsim__field_shape_t;

typedef enum { NTSIM__VAL_OK, NTSIM__VAL_BAD, NTSIM__VAL_RANGE } ntsim__val_t;

/* The shape of a data key's payload field. */
ntsim__field_shape_t ntsim__read_key_shape(const ntsim_data_key_t *k);
/* An integer as written (a JSON number, a decimal string) into the field's
 * 64-bit pattern (a signed field's value sign-extended, as the writers widen
 * it): VAL_RANGE when it does not fit. */
ntsim__val_t ntsim__read_integer(ntsim__field_shape_t f, const ntsim_json_number_t *n,
                                 uint64_t *v);
/* A key's text (an NTFF attribute, a JSON string value) as its raw value:
 * true/false, a dma_mem_usage_type_t name, "0x..." hex or a decimal. */
ntsim__val_t ntsim__read_text(const ntsim_data_key_t *k, const char *s, size_t len, uint64_t *v);
/* "a 4-byte unsigned field: 0..4294967295", for a refused value. */
const char *ntsim__read_range_text(ntsim__field_shape_t f, char *out, size_t cap);
/* Stores v's low bytes into the key's payload field of r. */
void ntsim__read_store(nrt_sys_trace_event_t *r, const ntsim_data_key_t *k, uint64_t v);

/* --- the formats ---------------------------------------------------------------- */

/* A JSON fetch document into rd->trace's records. */
NRT_STATUS ntsim__read_json(ntsim__read_t *rd, const char *data, size_t len);
/* An NTFF ntrace_info into rd->trace: records, infos, names, scalars. */
NRT_STATUS ntsim__read_ntff(ntsim__read_t *rd, const uint8_t *data, size_t len);

/* protobuf-c's allocator over the replaceable one (D-ALLOCATOR), which
 * remembers a refused block: protobuf-c's unpack says NULL for a bad message
 * and for no memory alike, and `failed` tells them apart. */
typedef struct ntsim__pb_heap {
    ProtobufCAllocator allocator;
    bool failed;
} ntsim__pb_heap_t;
void ntsim__pb_heap_init(ntsim__pb_heap_t *h);

#endif /* NTSIM_ENGINE_READ_INT_H */
