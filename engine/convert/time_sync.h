/*
 * engine/convert/time_sync.h: hardware timestamps moved to the CPU clock, as
 * the runtime does for the JSON system trace (D-JSON-TIME).
 *
 * The public guide ("Adjusting Hardware Timestamps"): for each hardware
 * event the runtime uses the TIMESTAMP_SYNC (timestamp_sync_point) with the
 * same exec_id on that NeuronCore, and writes
 *
 *     timestamp_ns = sync.cpu_timestamp_ns + (nc_timestamp_ns - sync.nc_timestamp_ns)
 *
 * (mod 2^64). Where no such sync point is known, the serde exporter's rule
 * remains (facts §2): timestamp_ns = nc_timestamp_ns. A TIMESTAMP_SYNC is
 * its own sync point (its timestamp_ns is its cpu_timestamp_ns). A STOP
 * whose payload has no exec_id (a bare sync_info) takes the exec_id of its
 * START: the same type, nc_idx and tracking_id.
 *
 * The table holds what the converter has learnt of sync points and STARTs:
 * the records of the collection being written (learnt before any is
 * written, so a sync point may come after the events it serves), and, for a
 * table that lives through a session, those of earlier collections. It is
 * bounded (NTSIM_SYNC_TABLE_ENTRIES); past that the oldest entry is
 * forgotten first. Not thread-safe: one writer at a time. Internal.
 */
#ifndef NTSIM_ENGINE_TIME_SYNC_H
#define NTSIM_ENGINE_TIME_SYNC_H

#include <stddef.h>
#include <stdint.h>

#include "data_view.h"
#include "nrt/nrt_status.h"
#include "nrt/nrt_sys_trace_event.h"

/* Sync points and STARTs remembered, at most (the oldest go first). */
#define NTSIM_SYNC_TABLE_ENTRIES 8192u

typedef struct ntsim__sync_table ntsim__sync_table_t;

/* A new, empty table; NULL when out of memory. */
ntsim__sync_table_t *ntsim__sync_table_new(void);
void ntsim__sync_table_free(ntsim__sync_table_t *t);
/* Forgets everything (a new session). */
void ntsim__sync_table_clear(ntsim__sync_table_t *t);

/* Learns the sync points (TIMESTAMP_SYNC) and the device STARTs with an
 * exec_id among n records, in order (a later sync point of the same NC and
 * exec_id replaces an earlier one). */
void ntsim__sync_table_learn(ntsim__sync_table_t *t, const nrt_sys_trace_event_t *e, size_t n);

/* The JSON timestamp_ns of record e, whose data view is v: the emit time for
 * a record with no nc_timestamp_ns key; else the CPU-adjusted device time,
 * or the raw device time when t knows no sync point for it (t may be NULL). */
uint64_t ntsim__sync_event_time(const ntsim__sync_table_t *t, const nrt_sys_trace_event_t *e,
                                const ntsim_data_view_t *v);

#endif /* NTSIM_ENGINE_TIME_SYNC_H */
