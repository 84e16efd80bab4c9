/*
 * conformance/cmd/inspect.c: `ntsim run`'s side of the inspect session
 * (sim/inspect_session.h, D-INSPECT-ENV): the session's lines printed behind
 * "ntsim run: ", its statuses made exit codes. What the session reads, keeps
 * and writes is the simulator's.
 */
#include <stdio.h>

#include "cli.h"
#include "inspect_session.h"

extern char **environ;

/* Prints the lines of one list, each behind `lead`. */
static void print_lines(FILE *to, const char *lead, const ntsim_errors_t *lines)
{
    for (size_t i = 0; i < lines->count; i++)
        fprintf(to, "ntsim run: %s%s\n", lead, lines->items[i]);
}

int ntsim_cli_inspect_begin(ntsim_scenario_t *sc, ntsim_cli_inspect_t **out, FILE *err)
{
    ntsim_errors_t errors, warnings;
    ntsim_errors_init(&errors);
    ntsim_errors_init(&warnings);
    NRT_STATUS st = ntsim_inspect_session_begin(environ, sc, out, &errors, &warnings);
    print_lines(err, "warning: ", &warnings);
    print_lines(err, "", &errors);
    int rc = NTSIM_EXIT_OK;
    if (st == NRT_INVALID)
        fprintf(err, "ntsim run: nothing was run: %zu NEURON_RT_INSPECT_* problem%s above "
                     "(D-INSPECT-ENV)\n", errors.count, errors.count == 1 ? "" : "s");
    else if (st == NRT_RESOURCE)
        fprintf(err, "ntsim run: out of memory\n");
    if (st == NRT_INVALID)
        rc = NTSIM_EXIT_USAGE;
    else if (st != NRT_SUCCESS)
        rc = NTSIM_EXIT_FAIL;
    ntsim_errors_free(&errors);
    ntsim_errors_free(&warnings);
    return rc;
}

const char *ntsim_cli_inspect_path(const ntsim_cli_inspect_t *in)
{
    return ntsim_inspect_session_path(in);
}

int ntsim_cli_inspect_open(ntsim_cli_inspect_t *in, const ntsim_scenario_t *sc, FILE *err)
{
    ntsim_errors_t errors;
    ntsim_errors_init(&errors);
    NRT_STATUS st = ntsim_inspect_session_open(in, sc, &errors);
    print_lines(err, "", &errors);
    ntsim_errors_free(&errors);
    if (st == NRT_RESOURCE)
        fprintf(err, "ntsim run: out of memory\n");
    return st == NRT_SUCCESS ? 0 : -1;
}

ntsim_sim_sink_t ntsim_cli_inspect_sink(ntsim_cli_inspect_t *in)
{
    return ntsim_inspect_session_sink(in);
}

int ntsim_cli_inspect_end(ntsim_cli_inspect_t *in, ntsim_output_t **done, FILE *err)
{
    ntsim_errors_t errors;
    ntsim_errors_init(&errors);
    NRT_STATUS st = ntsim_inspect_session_end(in, &errors);
    print_lines(err, "", &errors);
    ntsim_errors_free(&errors);
    if (st == NRT_RESOURCE)
        fprintf(err, "ntsim run: out of memory\n");
    *done = st == NRT_SUCCESS ? ntsim_inspect_session_take(in) : NULL;
    return st == NRT_SUCCESS ? 0 : -1;
}

void ntsim_cli_inspect_report(const ntsim_cli_inspect_t *in, FILE *out)
{
    ntsim_inspect_session_report(in, out);
}

void ntsim_cli_inspect_free(ntsim_cli_inspect_t *in)
{
    ntsim_inspect_session_free(in);
}
