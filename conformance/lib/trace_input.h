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

#include "nrt/nrt_status.h"
#include "nrt/nrt_sys_trace_event.h"

/* Reads `path` (ntsim_read_input's checks, limit NTSIM_INPUT_TRACE) into a
 * malloc'd array of records (*recs, free() it; NULL when *n is 0). On bad
 * input: NRT_INVALID and err holds "where: message" without the path (a
 * JSON syntax error as "line:column: message", an event as
 * "events[i].key: message", NTFF as "offset 0: ..."); NRT_RESOURCE on OOM. */
NRT_STATUS ntsim_trace_input_read(const char *path, nrt_sys_trace_event_t **recs, size_t *n,
                                  char *err, size_t cap);

/* The same on bytes in memory; `kind` is the file name whose extension
 * picks the format. */
NRT_STATUS ntsim_trace_input_parse(const char *kind, const char *data, size_t len,
                                   nrt_sys_trace_event_t **recs, size_t *n, char *err,
                                   size_t cap);

#endif /* NTSIM_CONFORMANCE_TRACE_INPUT_H */
