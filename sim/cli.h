/*
 * sim/cli.h: the pieces of the `ntsim` command (sim/ntsim_main.c dispatches).
 *
 * Exit codes, every subcommand:
 *   0  success
 *   1  the run or the check failed (a vector failed, an invariant broke, a
 *      file could not be written)
 *   2  bad usage (unknown option, missing argument)
 *   3  bad input (a scenario, vector or file to decode is malformed; the
 *      message names file:line:col: field where there is one)
 */
#ifndef NTSIM_SIM_CLI_H
#define NTSIM_SIM_CLI_H

#include <stdio.h>

#include "sim.h"

enum { NTSIM_EXIT_OK = 0, NTSIM_EXIT_FAIL = 1, NTSIM_EXIT_USAGE = 2, NTSIM_EXIT_INPUT = 3 };

typedef struct ntsim_outputs {
    char *json;
    size_t json_len;
    uint8_t *ntff;
    size_t ntff_len;
    uint8_t *notif;
    size_t notif_len;
} ntsim_outputs_t;

/* summary.c */
NRT_STATUS ntsim_cli_outputs(const ntsim_scenario_t *sc, const ntsim_run_result_t *r,
                             ntsim_outputs_t *o);
void ntsim_cli_outputs_free(ntsim_outputs_t *o);
int ntsim_cli_write_outputs(const char *dir, const ntsim_outputs_t *o, FILE *err);
void ntsim_cli_summary(FILE *out, const ntsim_scenario_t *sc, const ntsim_run_result_t *r,
                       const ntsim_outputs_t *o, const char *dir);
/* A 64-bit digest of bytes (SipHash-1-3, fixed key): pins outputs in vectors. */
uint64_t ntsim_digest(const void *data, size_t len);

/* Loads SCENARIO (NULL: the built-in default); on error prints it and
 * returns NTSIM_EXIT_INPUT. */
int ntsim_cli_load_scenario(const char *path, ntsim_scenario_t *sc, FILE *err);

/* decode.c: the two decoders, on memory. Output to `out`; on error a
 * message (without the file name) in err and NRT_INVALID (bad input) or
 * NRT_RESOURCE. */
NRT_STATUS ntsim_decode_records(const uint8_t *data, size_t len, bool text, FILE *out, char *err,
                                size_t cap);
NRT_STATUS ntsim_decode_ntff(const uint8_t *data, size_t len, FILE *out, char *err, size_t cap);

/* Subcommands. */
int ntsim_cmd_run(int argc, char **argv);
int ntsim_cmd_record(int argc, char **argv);   /* cmd_vectors.c */
int ntsim_cmd_replay(int argc, char **argv);   /* cmd_vectors.c */
int ntsim_cmd_decode(int argc, char **argv);   /* decode.c */

#endif /* NTSIM_SIM_CLI_H */
