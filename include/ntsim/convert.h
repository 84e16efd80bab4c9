/*
 * ntsim/convert.h: the readers of the records: JSON, NTFF, the timelines
 * (Perfetto, Chrome JSON, an HTML page, and the registry of those output
 * formats) and the device-notification converter. Compiles as C11 and as
 * C++.
 */
#ifndef NTSIM_CONVERT_H
#define NTSIM_CONVERT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "nrt/nrt_status.h"
#include "nrt/nrt_sys_trace_event.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* JSON                                                                     */
/* ------------------------------------------------------------------------ */

/* The nc_idx -> worker_gid mapping used at fetch time (libnrt:
 * vnc_idx_to_gid for i < visible_vnc_count, -1 beyond). ntsim's default is
 * the identity for all 256 NCs (D-WORKER-GID). `map` is copied; NULL
 * restores the default; count > 256 is NRT_INVALID. */
NTSIM_EXPORT NRT_STATUS ntsim_json_set_gid_map(const int32_t *map, size_t count);

/* The model an execution ran, as the runtime knows it: the exporters ask it
 * for the model_id key of DEVICE_EXEC START and NUM_ERR, whose payloads hold
 * an exec_id but no model_id (facts §2 lists the key; D-JSON-MODEL-ID).
 * Returns 0 when the execution is unknown. */
typedef uint64_t (*ntsim_model_lookup_fn)(uint64_t exec_id, void *ctx);

/* Installs the runtime's lookup (NULL: none, every such model_id is 0). The
 * function is called with the exporter's lock held: it must not call back into
 * the exporters. Always NRT_SUCCESS. */
NTSIM_EXPORT NRT_STATUS ntsim_json_set_model_lookup(ntsim_model_lookup_fn fn, void *ctx);

/* What the JSON and NTFF exporters could not write as the facts describe. */
typedef struct ntsim_json_stats {
    /* Records of a (type, phase) the exporter has no arm for (facts §2: a
     * phase mismatch; "data":{} written): all types, and per type. */
    uint64_t phase_mismatch;
    uint64_t phase_mismatch_by_type[NRT_SYS_TRACE_EVENT_TYPE_COUNT];
} ntsim_json_stats_t;

/* The counters since the process started, the last start() or
 * ntsim_json_reset_stats (each also re-arms the once-per-type warning).
 * NRT_INVALID for NULL. */
NTSIM_EXPORT NRT_STATUS ntsim_json_stats(ntsim_json_stats_t *stats);
NTSIM_EXPORT void ntsim_json_reset_stats(void);

/* Serializes any array of records (not only the live rings) into the same
 * document fetch_events returns. *out is freed with nrt_sys_trace_buffer_free.
 * NRT_INVALID for NULL out pointers or NULL events with count > 0,
 * NRT_RESOURCE when out of memory. */
NTSIM_EXPORT NRT_STATUS ntsim_json_serialize(const nrt_sys_trace_event_t *events, size_t count, char **out,
                                size_t *len);

/* The event objects ntsim_json_serialize would write, comma-separated,
 * without the document around them, so that a long trace can be written a
 * batch at a time: NTSIM_JSON_DOC_OPEN, each batch's events (a comma between
 * two non-empty batches), NTSIM_JSON_DOC_CLOSE give the same bytes as one
 * ntsim_json_serialize of every record. "" for count 0. Errors and freeing as
 * ntsim_json_serialize. */
NTSIM_EXPORT NRT_STATUS ntsim_json_serialize_events(const nrt_sys_trace_event_t *events,
                                                    size_t count, char **out, size_t *len);
#define NTSIM_JSON_DOC_OPEN "{\"events\":["
#define NTSIM_JSON_DOC_CLOSE "],\"data_version\":2}"

/* Writes s as a JSON string literal, quotes included, into out (cap bytes,
 * NUL-terminated); returns the length it needs (without the NUL), like
 * snprintf. Escapes \" \\ \b \t \n \f \r, other bytes < 0x20 as \u00xx. */
NTSIM_EXPORT size_t ntsim_json_escape(const char *s, size_t len, char *out, size_t cap);

/* ------------------------------------------------------------------------ */
/* NTFF                                                                     */
/* ------------------------------------------------------------------------ */

/* The NTFF data_version ntsim writes (D-NTFF-FIELDS; distinct from JSON's 2). */
#define NTSIM_NTFF_DATA_VERSION 1

typedef struct ntsim_ntff_options {
    uint32_t nd_idx;          /* device index written in every event */
    const char *arch;         /* ntrace_info.arch; NULL writes none */
    uint32_t pid;             /* ntrace_info.pid (0: not written) */
    uint64_t session_id;      /* ntrace_info.session_id (0: not written) */
    uint32_t logical_nc_size; /* ntrace_info.logical_nc_size (0: not written) */
    /* NULL: nd_idx in every event. Else an event's nd_idx is
     * nd_idx_by_nc[its nc_idx] (256 entries; the array must outlive the
     * writer): the device of each logical NC on a multi-device instance. */
    const uint32_t *nd_idx_by_nc;
} ntsim_ntff_options_t;

/* One device notification wrapped for NTFF (a trace_info message). */
typedef struct ntsim_trace_info {
    int32_t trace_type;       /* enum notification_trace_type */
    int32_t block_type;       /* enum block_type */
    uint32_t nc_idx;
    const uint8_t *payload;   /* the notification's bytes (may be NULL if len is 0) */
    size_t payload_len;
} ntsim_trace_info_t;

/* Encodes one ntrace_info (engine/convert/ntff.proto): `events` through
 * event_to_proto, `infos` as collected_profiles, the interned names the
 * events use, and the options' scalars. Either array may be empty. *out is
 * malloc'd; free it with ntsim_buffer_free. The result decodes with
 * `protoc --decode=ntff.ntrace_info ntff.proto`. NRT_INVALID for NULL out
 * pointers or a NULL array with a nonzero count, NRT_RESOURCE on OOM. */
NTSIM_EXPORT NRT_STATUS ntsim_ntff_serialize(const nrt_sys_trace_event_t *events, size_t event_count,
                                const ntsim_trace_info_t *infos, size_t info_count,
                                const ntsim_ntff_options_t *options, uint8_t **out, size_t *len);

/* An ntrace_info written in pieces, for traces too long to hold: the events
 * in batches, then the collected profiles, then the tail (the interned names
 * the events used, and the options' scalars). Each call returns its piece in
 * *bytes (owned by the writer, valid until its next call); appended in order,
 * the pieces are exactly ntsim_ntff_serialize's bytes of all the events and
 * infos. NRT_INVALID for NULL pointers or a call after finish, NRT_RESOURCE
 * on OOM. */
typedef struct ntsim_ntff_writer ntsim_ntff_writer_t;
NTSIM_EXPORT NRT_STATUS ntsim_ntff_writer_create(const ntsim_ntff_options_t *options,
                                                 ntsim_ntff_writer_t **out);
NTSIM_EXPORT NRT_STATUS ntsim_ntff_writer_events(ntsim_ntff_writer_t *w,
                                                 const nrt_sys_trace_event_t *events,
                                                 size_t count, const uint8_t **bytes,
                                                 size_t *len);
NTSIM_EXPORT NRT_STATUS ntsim_ntff_writer_infos(ntsim_ntff_writer_t *w,
                                                const ntsim_trace_info_t *infos, size_t count,
                                                const uint8_t **bytes, size_t *len);
NTSIM_EXPORT NRT_STATUS ntsim_ntff_writer_finish(ntsim_ntff_writer_t *w, const uint8_t **bytes,
                                                 size_t *len);
NTSIM_EXPORT void ntsim_ntff_writer_free(ntsim_ntff_writer_t *w);

/* Writes ntsim_ntff_serialize's bytes to `path`: under a temporary name
 * beside it, renamed onto it once whole (an existing file is replaced whole
 * or, on failure, left as it was; a device such as /dev/null is written in
 * place). NRT_FAILURE (with errno kept) when the file cannot be written. */
NTSIM_EXPORT NRT_STATUS ntsim_ntff_write_file(const char *path, const nrt_sys_trace_event_t *events,
                                 size_t event_count, const ntsim_trace_info_t *infos,
                                 size_t info_count, const ntsim_ntff_options_t *options);

/* libnrt's interned id of a name (facts §5: SipHash-1-3 of the bytes and
 * 0xFF with zero keys, low 50 bits, plus 1), whatever its length; 0 (never
 * an id) only for NULL. */
NTSIM_EXPORT uint64_t ntsim_intern_name_id(const char *name);

NTSIM_EXPORT void ntsim_buffer_free(void *buffer);

/* ------------------------------------------------------------------------ */
/* Timelines: Perfetto .pftrace, Chrome trace-event JSON, an offline page    */
/* ------------------------------------------------------------------------ */

/* All three are drawn from one model of the records (D-TIMELINE): START and
 * STOP paired by (type, nc_idx, tracking_id), an unmatched one kept as a
 * flagged instant; a lane per host thread, per NeuronCore (per physical core
 * when an NC has several) and per NC for notification drains and DMA; device
 * times moved onto the host timeline by a least-squares fit of each device
 * clock over the records' sync pairs, drift included (D-PFTRACE-CLOCK); a
 * flow from each host nrt_execute to the device spans of its exec_id; per NC
 * counters of events pushed and lost, and an instant at each loss. */
typedef struct ntsim_timeline_options {
    uint32_t pid;             /* the host process id written (0: 1) */
    uint32_t nd_idx;          /* the device: its process is "neuron device N" */
    const char *host_name;    /* the host process's name (NULL: "ntsim host") */
    /* NULL: every NC on the device nd_idx. Else an NC's device is
     * nd_idx_by_nc[its nc_idx] (256 entries, as ntsim_ntff_options_t's; an
     * NC past 255 is on nd_idx): a process per device, "neuron device N",
     * holds its NCs' lanes and counters, and the page groups lanes by device.
     * With NULL options the records name no device: the one device process
     * is "neuron device (unknown)". */
    const uint32_t *nd_idx_by_nc;
} ntsim_timeline_options_t;

typedef struct ntsim_timeline_stats {
    uint64_t spans;           /* START/STOP pairs */
    uint64_t instants;        /* INSTANT records */
    uint64_t unmatched_start; /* STARTs without their STOP: flagged instants */
    uint64_t unmatched_stop;  /* STOPs without their START: flagged instants */
    uint64_t drops;           /* gaps in an NC's nc_local_id: "events lost" instants */
    uint64_t lost_events;     /* events those gaps are missing */
    uint64_t flows;           /* nrt_execute -> device span arrows */
    uint64_t lanes;           /* threads written (host threads, NC lanes, overflow lanes) */
    uint64_t clocks;          /* device clocks */
    uint64_t sync_pairs;      /* distinct (cpu, device) pairs the clock fits used */
    uint64_t unaligned;       /* device items whose clock had no sync pair (emit time kept) */
    double max_residual_ns;   /* worst |fit(device) - cpu| over every sync pair */
} ntsim_timeline_stats_t;

/* What the timeline of `count` records holds. NULL options: the defaults.
 * NRT_INVALID for NULL stats or NULL events with count > 0, NRT_RESOURCE on
 * OOM. */
NTSIM_EXPORT NRT_STATUS ntsim_timeline_stats(const nrt_sys_trace_event_t *events, size_t count,
                                             const ntsim_timeline_options_t *options,
                                             ntsim_timeline_stats_t *stats);

/* Perfetto's native trace (a `Trace`: TracePackets framed as field 1), with
 * the subset engine/timeline/perfetto_trace.proto; decodes with
 * `protoc --decode=perfetto.protos.Trace perfetto_trace.proto`. *out is
 * malloc'd; free it with ntsim_buffer_free. NRT_INVALID for NULL out
 * pointers or NULL events with count > 0, NRT_RESOURCE on OOM. */
NTSIM_EXPORT NRT_STATUS ntsim_pftrace_serialize(const nrt_sys_trace_event_t *events, size_t count,
                                                const ntsim_timeline_options_t *options,
                                                uint8_t **out, size_t *len);

/* The Chrome trace-event JSON of the same timeline: M names, X spans, I
 * instants, C counters, s/f flows; ts and dur in microseconds with three
 * decimals (exact ns) from 1 us before the first item. NUL-terminated; free
 * with ntsim_buffer_free. Errors as ntsim_pftrace_serialize. */
NTSIM_EXPORT NRT_STATUS ntsim_chrome_trace_serialize(const nrt_sys_trace_event_t *events,
                                                     size_t count,
                                                     const ntsim_timeline_options_t *options,
                                                     char **out, size_t *len);

/* One self-contained HTML page (no network, no external script): the
 * timeline as data its inline script draws on a canvas, lanes grouped by the
 * host and by NC, with zoom, details and flows on pointing (D-TIMELINE-HTML;
 * past 200,000 marks, the first ones and a note to open the .pftrace).
 * NUL-terminated; free with ntsim_buffer_free. Errors as
 * ntsim_pftrace_serialize. */
NTSIM_EXPORT NRT_STATUS ntsim_timeline_html_serialize(const nrt_sys_trace_event_t *events,
                                                      size_t count,
                                                      const ntsim_timeline_options_t *options,
                                                      char **out, size_t *len);

/* The output formats: one registry of the timelines above, each with its
 * writer (engine/timeline/output_formats.h). A writer writes the whole file
 * of `count` records to `out`, a stream the caller opened and closes (the
 * writer neither opens nor names a file): NRT_SUCCESS; NRT_INVALID for a
 * NULL out or NULL events with count > 0; NRT_RESOURCE when memory runs out
 * (nothing written); NRT_FAILURE when out refuses a write (errno kept). */
typedef NRT_STATUS (*ntsim_output_write_fn)(const nrt_sys_trace_event_t *events, size_t count,
                                           const ntsim_timeline_options_t *options, FILE *out);

typedef struct ntsim_output_format {
    const char *name;         /* "pftrace": the writer's name */
    const char *title;        /* "a Perfetto trace": what messages call it */
    const char *file;         /* "trace.pftrace": its file among ntsim run's outputs */
    const char *extensions;   /* ".pftrace .perfetto-trace": the endings that pick it,
                               * space-separated; the first is its own */
    const char *description;  /* one line: what it is, what opens it */
    const char *decision;     /* "D-PFTRACE": the decision on what it holds */
    ntsim_output_write_fn write;
} ntsim_output_format_t;

/* Every format, in the order ntsim run writes them; *count (when not NULL)
 * gets how many. The table is static: never freed. */
NTSIM_EXPORT const ntsim_output_format_t *ntsim_output_formats(size_t *count);
/* The format whose extension `path` ends with, or NULL (NULL path too). */
NTSIM_EXPORT const ntsim_output_format_t *ntsim_output_format_for_path(const char *path);
/* The format of that name, or NULL (NULL name too). */
NTSIM_EXPORT const ntsim_output_format_t *ntsim_output_format_named(const char *name);

/* ------------------------------------------------------------------------ */
/* Device notifications                                                     */
/* ------------------------------------------------------------------------ */

/* Counters of every notification that went through the converter, since the
 * process started or ntsim_notify_reset_stats. */
typedef struct ntsim_notify_stats {
    uint64_t converted;            /* wrapped into a trace_info */
    uint64_t converted_by_type[9]; /* by notification_type 0..8 */
    uint64_t dropped;              /* refused by the converter: every reason below */
    uint64_t dropped_cc_status;    /* 9 TOPSP_CC_STATUS (belongs to the EXPLICIT path) */
    uint64_t dropped_max;          /* 10 MAX, the sentinel */
    uint64_t dropped_out_of_range; /* any other value (> 10, or negative) */
    uint64_t explicit_infos;       /* EXPLICIT trace_infos made by the collectives path */
} ntsim_notify_stats_t;

/* NRT_INVALID for NULL. */
NTSIM_EXPORT NRT_STATUS ntsim_notify_stats(ntsim_notify_stats_t *stats);
NTSIM_EXPORT void ntsim_notify_reset_stats(void);

/* Converts a device notification and wraps it: out gets the converter's
 * trace_type and block_type, nc_idx and the payload pointer (not copied).
 * On an invalid type: the converter's NRT_INVALID, the drop counted, out
 * untouched. */
NTSIM_EXPORT NRT_STATUS ntsim_notify_wrap(int32_t notification_type, uint32_t nc_idx, const uint8_t *payload,
                             size_t payload_len, ntsim_trace_info_t *out);

/* The EXPLICIT collectives-status path (spec §5 GOTCHA; facts §3:
 * nrt_profile_session_append_cc_notifications). Per execute, the CC-status
 * bytes of each TopSP are appended; at session stop there is one trace_info
 * per TopSP with trace_type EXPLICIT, written directly, never through the
 * converter (which would drop them: TOPSP_CC_STATUS is not in its table). */
typedef struct ntsim_explicit_notifs ntsim_explicit_notifs_t;

/* num_topsp in 1..256. NRT_INVALID otherwise, NRT_RESOURCE on OOM. */
NTSIM_EXPORT NRT_STATUS ntsim_explicit_create(uint32_t num_topsp, ntsim_explicit_notifs_t **out);
/* Appends bytes to TopSP topsp's buffer. NRT_INVALID for topsp >= num_topsp. */
NTSIM_EXPORT NRT_STATUS ntsim_explicit_append(ntsim_explicit_notifs_t *x, uint32_t topsp, const uint8_t *bytes,
                                 size_t len);
/* Fills out[0..num_topsp) with one EXPLICIT trace_info per TopSP (block_type
 * TOPSP, nc_idx = the TopSP index, payload = its bytes, valid until
 * ntsim_explicit_free); *count = num_topsp. */
NTSIM_EXPORT NRT_STATUS ntsim_explicit_collect(const ntsim_explicit_notifs_t *x, ntsim_trace_info_t *out,
                                  size_t capacity, size_t *count);
NTSIM_EXPORT void ntsim_explicit_free(ntsim_explicit_notifs_t *x);

#ifdef __cplusplus
}
#endif

#endif /* NTSIM_CONVERT_H */
