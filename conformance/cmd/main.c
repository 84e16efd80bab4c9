/*
 * conformance/cmd/main.c: the `ntsim` command: dispatches to the
 * subcommands (cmd_<name>.c), nothing else.
 *
 *   ntsim run [SCENARIO] [-o DIR]           simulate, write DIR/trace.json, trace.ntff,
 *                                           notifications.ntff, print the summary
 *   ntsim run --stress [--threads N] [--ncs N] [--seconds S]
 *   ntsim record SCENARIO -o FILE.yaml      run and write a scenario vector
 *   ntsim replay VECTOR... [--id ID]        replay vectors, report pass/fail with a diff
 *   ntsim decode FILE [--text]              print an NTFF file or a raw record dump
 *   ntsim export FILE -o OUT                a trace as a timeline, by OUT's extension
 *   ntsim view FILE [-o OUT]                a trace as one offline HTML page
 *   ntsim testee [--break=FAULT,...]        the built-in testee (conformance/testee/TESTEE.md)
 *
 * Exit codes: cli.h. Whatever the command, what it printed must have reached
 * stdout (D-OUTPUT): a write or the close failing makes a success exit 1.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "output.h"

/* The usage, in three pieces around the lines made from the engine's
 * registry of output formats (timelines.c). */
static const char *const usage_head =
    "usage: ntsim <command> [options]\n"
    "\n"
    "A simulated Neuron device feeding the real sys_trace capture engine.\n"
    "\n"
    "commands:\n"
    "  run [SCENARIO] [-o DIR]     simulate SCENARIO (default: the built-in one) and write\n"
    "                              DIR/trace.json, DIR/trace.ntff, DIR/notifications.ntff,\n"
    "                              ";
static const char *const usage_middle =
    "\n"
    "  run --stress [...]          load the engine from real threads; check its counters\n"
    "  record SCENARIO -o FILE     run SCENARIO and write a scenario vector to FILE\n"
    "  replay VECTOR...            replay vector files; report each failure with a diff\n"
    "  decode FILE                 print an NTFF file or a raw 112-byte record dump\n"
    "  export FILE -o OUT          convert a trace (fetch JSON, NTFF, records) into OUT:\n"
    "                              ";
static const char *const usage_tail =
    "\n"
    "  view FILE [-o OUT]          draw a trace as one self-contained HTML page\n"
    "  testee                      the built-in testee: answer the conformance suite's\n"
    "                              testee protocol on stdin/stdout (conformance/testee/TESTEE.md)\n"
    "  help [COMMAND]              this text, or a command's\n"
    "\n"
    "exit codes: 0 ok, 1 failed (a vector, an invariant, an output), 2 bad usage,\n"
    "3 bad input (the message names file:line:col: field)\n";

static void print_usage(FILE *out)
{
    fputs(usage_head, out);
    ntsim_cli_timeline_files(out, "DIR/", ", ", ", ");
    fputs(usage_middle, out);
    ntsim_cli_timeline_suffixes(out);
    fputs(usage_tail, out);
}

/* Runs the subcommand argv names; its exit status. */
static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        print_usage(stderr);
        return NTSIM_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    char *help[3] = {NULL, (char *)"--help", NULL};
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        print_usage(stdout);
        return NTSIM_EXIT_OK;
    }
    if (strcmp(cmd, "help") == 0) {
        if (argc < 3) {
            print_usage(stdout);
            return NTSIM_EXIT_OK;
        }
        help[0] = argv[2];
        cmd = argv[2];
        argv = help;
        argc = 2;
    } else {
        argv++;
        argc--;
    }
    if (strcmp(cmd, "run") == 0)
        return ntsim_cmd_run(argc, argv);
    if (strcmp(cmd, "record") == 0)
        return ntsim_cmd_record(argc, argv);
    if (strcmp(cmd, "replay") == 0)
        return ntsim_cmd_replay(argc, argv);
    if (strcmp(cmd, "decode") == 0)
        return ntsim_cmd_decode(argc, argv);
    if (strcmp(cmd, "export") == 0)
        return ntsim_cmd_export(argc, argv);
    if (strcmp(cmd, "view") == 0)
        return ntsim_cmd_view(argc, argv);
    if (strcmp(cmd, "testee") == 0)
        return ntsim_cmd_testee(argc, argv);
    fprintf(stderr, "ntsim: unknown command '%s'\n\n", cmd);
    print_usage(stderr);
    return NTSIM_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    /* A signal removes the temporary files of the outputs being written:
     * the files they would replace stay as they were (D-OUTPUT). */
    ntsim_output_catch_signals();
    int rc = dispatch(argc, argv);
    ntsim_output_inputs_clear();
    char program[48]; /* "ntsim decode: cannot write stdout: ..." */
    snprintf(program, sizeof program, "ntsim%s%.32s", argc > 1 ? " " : "", argc > 1 ? argv[1] : "");
    return ntsim_output_stdout_close(program) != NRT_SUCCESS && rc == NTSIM_EXIT_OK
               ? NTSIM_EXIT_FAIL
               : rc;
}
