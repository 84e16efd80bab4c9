/*
 * conformance/lib/trace_input.h: a trace file read back into records, for
 * `ntsim export` and `ntsim view` (D-TIMELINE-INPUT).
 *
 *   FILE.json    the JSON fetch document (what nrt_sys_trace_fetch_events
 *                returns, or a run's trace.json)
 *   FILE.ntff    an ntrace_info (a run's trace.ntff)
 *   anything else  a raw dump of 112-byte records (ntsim run --records)
 *
 * Each event becomes the record the writers would have been given: type,
 * phase, ids, thread, NC and its data keys back in the payload fields they
 * came from. What the format does not keep is rebuilt as D-TIMELINE-INPUT
 * says: a JSON device event's timestamp_ns is the host time of its own sync
 * pair (D-JSON-TIME), so it becomes the pair's cpu_timestamp_ns; NTFF keeps
 * only the device time, so such a pair has no host time and the clock fit
 * uses TIMESTAMP_SYNC's pairs; nc_local_id comes from NTFF's id (D-IDS).
 */
#ifndef NTSIM_CONFORMANCE_TRACE_INPUT_H
#define NTSIM_CONFORMANCE_TRACE_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "decode.h"
#include "nrt/nrt_status.h"
#include "nrt/nrt_sys_trace_event.h"

/* The default of export's and view's --max-events: decode's. */
#define NTSIM_TRACE_INPUT_MAX_EVENTS NTSIM_DECODE_MAX_EVENTS

/* Reads `path` (ntsim_read_input's checks, limit NTSIM_INPUT_TRACE) into a
 * malloc'd array of records (*recs, free() it; NULL when *n is 0). A file
 * of more than max_events events is refused before their records are kept.
 * Every value must fit its field exactly (D-TRACE-READER). On bad input:
 * NRT_INVALID and err holds "where: message" without the path (a JSON
 * syntax error as "line:column: message", an event's value as
 * "events[i].key: message" or "events[i].data.key: message", an NTFF
 * attribute as "events[i].attributes.key: message", a malformed NTFF as
 * "offset N: ..."); NRT_RESOURCE with "out of memory" when memory runs out.
 * Memory: the input, the records, and a constant beside them. */
NRT_STATUS ntsim_trace_input_read(const char *path, uint64_t max_events,
                                  nrt_sys_trace_event_t **recs, size_t *n, char *err, size_t cap);

/* The same on bytes in memory; `kind` is the file name whose extension
 * picks the format. */
NRT_STATUS ntsim_trace_input_parse(const char *kind, const char *data, size_t len,
                                   uint64_t max_events, nrt_sys_trace_event_t **recs, size_t *n,
                                   char *err, size_t cap);

#endif /* NTSIM_CONFORMANCE_TRACE_INPUT_H */
