/*
 * ntsim/read.h: the files ntsim writes, read back (D-READ): a JSON fetch
 * document (what nrt_sys_trace_fetch_events returns, a run's trace.json), an
 * NTFF ntrace_info (trace.ntff, notifications.ntff, an inspect session's
 * ntrace.pb) or a raw dump of 112-byte records (`ntsim run --records`), and
 * `ntsim decode`'s printers. Compiles as C11 and as C++.
 *
 * The format is told by the bytes, never by the file's name (D-READ), in
 * this order: NTFF when the first bytes read as protobuf fields of an
 * ntrace_info; JSON when the first byte that is not JSON whitespace is '{'
 * or '['; anything else is a record dump. ntsim's own timelines (a Perfetto
 * trace, a Chrome trace JSON, the HTML page) are recognised and refused by
 * name, in the words of ntsim_output_formats().
 *
 * Limits (D-TRACE-READER): a file larger than max_bytes is refused before a
 * byte is read, and a trace of more than max_events events before their
 * records are kept. Memory: the input, the records (NTFF: and its trace
 * infos and names), and a constant beside them: JSON is read value by value,
 * NTFF one event at a time. JSON nests at most 64 deep.
 *
 * Errors: NRT_INVALID with the problem in err (err_cap bytes, always
 * NUL-terminated when err_cap > 0), as `where: message`, where is a JSON
 * line:column, `events[i].key` or `events[i].data.key` for an event's value,
 * `events[i].attributes.key` for an NTFF attribute, `offset N` for NTFF and
 * record dumps; ntsim_trace_read_file puts `FILE: ` before it.
 * NRT_RESOURCE with "out of memory" when memory runs out. Every block goes
 * through ntsim_replace_allocator's functions (D-ALLOCATOR).
 */
#ifndef NTSIM_READ_H
#define NTSIM_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "nrt/nrt_status.h"
#include "nrt/nrt_sys_trace_event.h"
#include "ntsim/convert.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a file's bytes are (ntsim_trace_format_detect). */
typedef enum ntsim_trace_format {
    NTSIM_TRACE_FORMAT_JSON = 1,    /* a JSON fetch document: read */
    NTSIM_TRACE_FORMAT_NTFF,        /* an NTFF ntrace_info: read */
    NTSIM_TRACE_FORMAT_RECORDS,     /* a dump of 112-byte records: read */
    NTSIM_TRACE_FORMAT_PERFETTO,    /* a Perfetto trace (a timeline ntsim writes): refused */
    NTSIM_TRACE_FORMAT_CHROME_JSON, /* a Chrome trace JSON (likewise): refused */
    NTSIM_TRACE_FORMAT_HTML         /* an HTML page (likewise): refused */
} ntsim_trace_format_t;

/* The defaults of ntsim_read_limits_t. */
#define NTSIM_READ_MAX_BYTES ((uint64_t)256 << 20)
#define NTSIM_READ_MAX_EVENTS UINT64_C(4000000)

typedef struct ntsim_read_limits {
    uint64_t max_bytes;  /* the largest file ntsim_trace_read_file reads, in bytes */
    uint64_t max_events; /* the most events a trace may hold */
} ntsim_read_limits_t;

/* An interned name of an NTFF file (interned_data: id -> name). */
typedef struct ntsim_trace_name {
    uint32_t kind;         /* its interned_data's kind (0: event names) */
    uint64_t id;           /* libnrt's interned id (ntsim_intern_name_id) */
    const char *name;      /* NUL-terminated; the bytes as written (no NUL inside) */
} ntsim_trace_name_t;

/* A trace read back. Every pointer is owned by the trace (ntsim_trace_free).
 * What a format does not keep is 0 (D-READ lists it, field by field). */
typedef struct ntsim_trace {
    ntsim_trace_format_t format;
    nrt_sys_trace_event_t *events; /* the records, in the file's order; NULL when none */
    size_t event_count;
    /* NTFF only (0 and NULL for the others): */
    ntsim_trace_info_t *infos;     /* collected_profiles; each payload owned by the trace */
    size_t info_count;
    ntsim_trace_name_t *names;     /* the interned names, in the file's order */
    size_t name_count;
    const char *arch;              /* ntrace_info.arch; NULL when absent */
    uint32_t pid;                  /* ntrace_info's scalars; 0 when absent */
    uint64_t session_id;
    uint32_t data_version;
    uint32_t logical_nc_size;
    /* NTFF: the device (nd_idx) of each NC 0..255, 256 entries (0 for an NC
     * with no event), when the events of every NC agree on theirs; NULL
     * otherwise and for the other formats, whose records name no device.
     * A timeline's options.nd_idx_by_nc (ntsim/convert.h). */
    const uint32_t *nd_idx_by_nc;
} ntsim_trace_t;

/* Reads the file at path into a new trace (*out; free it with
 * ntsim_trace_free). The file must be a regular file of at most
 * limits->max_bytes (NULL limits: the defaults above). Errors: above, with
 * `path: ` first ("path: cannot open: No such file or directory", "path:
 * not a regular file (a directory)"); *out is NULL then. NRT_INVALID for a
 * NULL path or out. */
NTSIM_EXPORT NRT_STATUS ntsim_trace_read_file(const char *path, const ntsim_read_limits_t *limits,
                                              ntsim_trace_t **out, char *err, size_t err_cap);

/* The same on len bytes in memory (copied as needed; data may be freed after
 * the call). limits->max_bytes is not applied. NRT_INVALID for NULL out, or
 * NULL data with len > 0. */
NTSIM_EXPORT NRT_STATUS ntsim_trace_read(const void *data, size_t len,
                                         const ntsim_read_limits_t *limits, ntsim_trace_t **out,
                                         char *err, size_t err_cap);

/* A scan's callback: `count` records (1..NTSIM_READ_BATCH) in the file's
 * order, valid during the call only. NRT_SUCCESS goes on; any other status
 * stops the scan, which returns it (NRT_RESOURCE: "out of memory" in err). */
#define NTSIM_READ_BATCH 4096
typedef NRT_STATUS (*ntsim_trace_batch_fn)(const nrt_sys_trace_event_t *events, size_t count,
                                           void *ctx);

/* ntsim_trace_read_file without keeping the records: they go to fn a batch
 * at a time as they are read, so that memory is the file's bytes and one
 * batch (4096 records, 448 KiB), however many events it holds; the limits
 * are the same. A file bad at its event i is refused after fn has seen the
 * records before i (a caller that prints must wait for the end). When out
 * is not NULL it gets the trace without its records (events NULL,
 * event_count the records scanned; NTFF's infos, names and scalars), on
 * success only; free it with ntsim_trace_free. Errors as
 * ntsim_trace_read_file; NRT_INVALID for a NULL path or fn. */
NTSIM_EXPORT NRT_STATUS ntsim_trace_scan_file(const char *path, const ntsim_read_limits_t *limits,
                                              ntsim_trace_batch_fn fn, void *ctx,
                                              ntsim_trace_t **out, char *err, size_t err_cap);

/* Frees a trace and all it owns; NULL is a no-op. */
NTSIM_EXPORT void ntsim_trace_free(ntsim_trace_t *trace);

/* What a file of `size` bytes is, from `head`, its first len bytes (the
 * rule, D-READ, looks at no more than NTSIM_READ_DETECT_BYTES of them; len
 * must be min(size, that) or more): a record dump when they are no other
 * format. A JSON object is a fetch document unless "traceEvents" is a key of
 * it before "events" (in those bytes); a JSON array is a Chrome trace. NULL
 * head: a record dump. */
#define NTSIM_READ_DETECT_BYTES 4096
NTSIM_EXPORT ntsim_trace_format_t ntsim_trace_format_detect(const void *head, size_t len,
                                                            uint64_t size);

/* What messages call a format ("a JSON fetch document", "an NTFF
 * ntrace_info", "a record dump", and the timelines' titles from
 * ntsim_output_formats); "an unknown format" past the enum. */
NTSIM_EXPORT const char *ntsim_trace_format_title(ntsim_trace_format_t format);

/* ------------------------------------------------------------------------ */
/* ntsim decode: NTFF and record dumps printed (D-DECODE)                    */
/* ------------------------------------------------------------------------ */

/* On bad input nothing is printed, err gets the message (without a file
 * name) and the status is NRT_INVALID; NRT_RESOURCE ("out of memory" in
 * err) when memory runs out; NRT_FAILURE when out cannot be written. */

/* A dump of whole 112-byte records, `size` bytes read from `in`: the JSON
 * fetch document of them, or with `text` one line per record, converted and
 * printed 4096 records at a time (memory does not grow with the dump). A size
 * that is not a multiple of 112 is refused before anything is printed. */
NTSIM_EXPORT NRT_STATUS ntsim_decode_record_stream(FILE *in, uint64_t size, bool text, FILE *out,
                                                   char *err, size_t err_cap);
/* The same, for bytes in memory. */
NTSIM_EXPORT NRT_STATUS ntsim_decode_records(const uint8_t *data, size_t len, bool text,
                                             FILE *out, char *err, size_t err_cap);
/* An NTFF ntrace_info, in protobuf text format (the layout of
 * `protoc --decode=ntff.ntrace_info`). The whole file is checked before a
 * line is printed, and memory holds one unpacked event at a time; more than
 * max_events events is refused. */
NTSIM_EXPORT NRT_STATUS ntsim_decode_ntff(const uint8_t *data, size_t len, uint64_t max_events,
                                          FILE *out, char *err, size_t err_cap);

#ifdef __cplusplus
}
#endif

#endif /* NTSIM_READ_H */
