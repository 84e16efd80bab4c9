/*
 * conformance/cmd/main.c: the `ntsim` command: dispatches to the
 * subcommands (cmd_<name>.c), nothing else. The subcommands are one table,
 * g_commands: its rows are the dispatch, the usage's list of commands and
 * the names an unknown command is matched against (did you mean).
 *
 * Exit codes: cli.h. Whatever the command, what it printed must have reached
 * stdout (D-OUTPUT): a write or the close failing makes a success exit 1.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "output.h"
#include "suggest.h"

/* The files `ntsim run` writes (its line of the usage goes on with them). */
static void run_files(FILE *out)
{
    fputs("                              ", out);
    ntsim_cli_timeline_files(out, "DIR/", ", ", ", ");
    fputc('\n', out);
}

/* The extensions `ntsim export` picks a format by. */
static void export_suffixes(FILE *out)
{
    fputs("                              ", out);
    ntsim_cli_timeline_suffixes(out);
    fputc('\n', out);
}

/* One subcommand: its name, what runs it, its usage lines (the first after
 * "  NAME ARGS" padded, the rest as they are), and a printer of lines made
 * from the engine's registry of output formats that follow them (or NULL). */
static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *args;
    const char *what;
    void (*more)(FILE *out);
} g_commands[] = {
    {"run", ntsim_cmd_run, "[SCENARIO] [-o DIR]",
     "simulate SCENARIO (default: the built-in one) and write\n"
     "                              DIR/trace.json, DIR/trace.ntff, DIR/notifications.ntff,\n",
     run_files},
    {NULL, NULL, "run --stress [...]", "load the engine from real threads; check its counters\n",
     NULL},
    {"record", ntsim_cmd_record, "SCENARIO -o FILE",
     "run SCENARIO and write a scenario vector to FILE\n", NULL},
    {"replay", ntsim_cmd_replay, "VECTOR...",
     "replay vector files; report each failure with a diff\n", NULL},
    {"decode", ntsim_cmd_decode, "FILE", "print an NTFF file or a raw 112-byte record dump\n",
     NULL},
    {"export", ntsim_cmd_export, "FILE -o OUT",
     "convert a trace (fetch JSON, NTFF, records) into OUT:\n", export_suffixes},
    {"view", ntsim_cmd_view, "FILE [-o OUT]", "draw a trace as one self-contained HTML page\n",
     NULL},
    {"stats", ntsim_cmd_stats, "TRACE [--json]",
     "a trace at a glance: durations per event type, the\n"
     "                              slowest spans, per NC its losses and busy time\n",
     NULL},
    {"diff", ntsim_cmd_diff, "A B",
     "compare two traces (any formats) event by event, field\n"
     "                              by field; exit 0 same, 1 different\n",
     NULL},
    {"testee", ntsim_cmd_testee, "",
     "the built-in testee: answer the conformance suite's\n"
     "                              testee protocol on stdin/stdout (conformance/testee/TESTEE.md)\n",
     NULL},
};
enum { COMMAND_COUNT = sizeof g_commands / sizeof g_commands[0] };

static void print_usage(FILE *out)
{
    fputs("usage: ntsim <command> [options]\n"
          "\n"
          "A simulated Neuron device feeding the real sys_trace capture engine.\n"
          "\n"
          "commands:\n",
          out);
    for (size_t i = 0; i < COMMAND_COUNT; i++) {
        const struct command *c = &g_commands[i];
        char head[64];
        snprintf(head, sizeof head, "%s%s%s", c->name ? c->name : "", c->name && *c->args ? " " : "",
                 c->args);
        fprintf(out, "  %-26s  %s", head, c->what);
        if (c->more != NULL)
            c->more(out);
    }
    fputs("  help [COMMAND]              this text, or a command's\n"
          "\n"
          "exit codes: 0 ok, 1 failed (a vector, an invariant, an output), 2 bad usage,\n"
          "3 bad input (the message names file:line:col: field)\n",
          out);
}

/* A command that is none of the table's: said in one line, with the
 * nearest name (D-CLI-USAGE). */
static int unknown_command(const char *cmd)
{
    ntsim_suggest_t s;
    ntsim_suggest_init(&s, cmd, strlen(cmd));
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        ntsim_suggest_add_z(&s, g_commands[i].name);
    ntsim_suggest_add_z(&s, "help");
    const char *best = ntsim_suggest_best(&s, NULL);
    fprintf(stderr, "ntsim: unknown command '%s'", cmd);
    if (best != NULL)
        fprintf(stderr, " (did you mean %s?)", best);
    fputs("\n(ntsim --help lists the commands)\n", stderr);
    return NTSIM_EXIT_USAGE;
}

/* Runs the subcommand argv names; its exit status. */
static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        fputs("ntsim: which command?\n(ntsim --help lists the commands)\n", stderr);
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
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        if (g_commands[i].name != NULL && strcmp(cmd, g_commands[i].name) == 0)
            return g_commands[i].run(argc, argv);
    return unknown_command(cmd);
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
