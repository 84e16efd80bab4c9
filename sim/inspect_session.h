/*
 * sim/inspect_session.h: libnrt's inspect session around one simulated run
 * (D-INSPECT-ENV): its NEURON_RT_INSPECT_* variables read and checked
 * before anything runs, an enabled session's filters in place of the
 * scenario's, and its OUTPUT_DIR/ntrace.pb written while the run drains, the
 * way libnrt's nrt_inspect_stop harvests (facts §3):
 *
 *   gid map            each visible NC's device, through its instance-wide
 *                      id: the events' nd_idx (ntsim_sim_ntff_options, the
 *                      same options as trace.ntff)
 *   drain              the simulator's fetches and its last drain before
 *                      stop, handed over a batch at a time (the run's sink)
 *   event_to_proto     per event (ntsim_ntff_writer_events)
 *   add_interned_data  the names the events used (ntsim_ntff_writer_finish)
 *   ntrace.pb          OUTPUT_DIR/ntrace.pb, written piece by piece beside
 *                      its name and renamed into place by the caller, with
 *                      the run's other files (D-OUTPUT)
 *
 * A failure to write ntrace.pb does not stop the run (its own files go on);
 * ntsim_inspect_session_end reports it and removes the partial file (an
 * earlier ntrace.pb stays as it was). Every
 * message is one line in the caller's list, naming the variable or the path;
 * the caller prints them (the ntsim command behind "ntsim run: ").
 */
#ifndef NTSIM_SIM_INSPECT_SESSION_H
#define NTSIM_SIM_INSPECT_SESSION_H

#include <stdio.h>

#include "inspect_env.h"
#include "output.h"
#include "sim.h"

/* The file the session writes in its OUTPUT_DIR (facts §3). */
#define NTSIM_INSPECT_NTRACE_NAME "ntrace.pb"

typedef struct ntsim_inspect_session ntsim_inspect_session_t;

/* Reads the variables of `env` (an environ-style array, NULL-terminated)
 * with ntsim_inspect_env_read; an enabled session with its system profile on
 * replaces sc's NC and type filters (ntsim_inspect_apply), warns when none of
 * sc's NCs is kept. Nothing is opened yet: the caller checks the session's
 * path against its inputs first. *out is set whatever happens (free it with
 * ntsim_inspect_session_free). Returns NRT_SUCCESS (a session that is off
 * is a success that does nothing), NRT_INVALID when a variable could not be
 * read (its lines in *errors: nothing may run), NRT_RESOURCE when memory ran
 * out. */
NRT_STATUS ntsim_inspect_session_begin(char *const *env, ntsim_scenario_t *sc,
                                       ntsim_inspect_session_t **out, ntsim_errors_t *errors,
                                       ntsim_errors_t *warnings);
/* OUTPUT_DIR/ntrace.pb, the file the session will write; NULL when it
 * harvests nothing. */
const char *ntsim_inspect_session_path(const ntsim_inspect_session_t *s);
/* Creates OUTPUT_DIR and opens ntrace.pb's temporary file beside it (sc's
 * options for the NTFF writer). NRT_SUCCESS (nothing to do when the
 * session harvests nothing), NRT_FAILURE with one line naming the directory
 * or the file, NRT_RESOURCE when memory ran out. */
NRT_STATUS ntsim_inspect_session_open(ntsim_inspect_session_t *s, const ntsim_scenario_t *sc,
                                      ntsim_errors_t *errors);
/* The sink that takes the run's drained records into ntrace.pb (a sink of
 * nothing when the session does not harvest); pass it beside the run's own. */
ntsim_sim_sink_t ntsim_inspect_session_sink(ntsim_inspect_session_t *s);
/* Finishes ntrace.pb's bytes after the run. NRT_SUCCESS (the file is whole
 * under its temporary name: take it and commit it), or NRT_FAILURE with one
 * line in *errors naming the file that could not be written (the temporary
 * file is removed). */
NRT_STATUS ntsim_inspect_session_end(ntsim_inspect_session_t *s, ntsim_errors_t *errors);
/* Hands the finished ntrace.pb to the caller, who commits it
 * (ntsim_output_commit_all) or aborts it; NULL when there is none. */
ntsim_output_t *ntsim_inspect_session_take(ntsim_inspect_session_t *s);
/* What the session did, one paragraph for a run's summary: nothing when it
 * was off. Write errors are the caller's to check on `out`. */
void ntsim_inspect_session_report(const ntsim_inspect_session_t *s, FILE *out);
/* Frees s (NULL: nothing); a ntrace.pb not taken (the run failed) is
 * removed: an earlier one stays as it was. */
void ntsim_inspect_session_free(ntsim_inspect_session_t *s);

#endif /* NTSIM_SIM_INSPECT_SESSION_H */
