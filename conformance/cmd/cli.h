/*
 * conformance/cmd/cli.h: the pieces of the `ntsim` command (main.c
 * dispatches to one cmd_<name>.c per subcommand).
 *
 * Exit codes, every subcommand:
 *   0  success
 *   1  the run or the check failed (a vector failed, an invariant broke, a
 *      file could not be written)
 *   2  bad usage (unknown option, missing argument)
 *   3  bad input (a scenario, vector or file to decode is malformed; the
 *      message names file:line:col: field where there is one)
 */
#ifndef NTSIM_CONFORMANCE_NTSIM_CLI_H
#define NTSIM_CONFORMANCE_NTSIM_CLI_H

#include <stdio.h>

#include "ntsim/read.h"
#include "output.h"
#include "sim.h"
#include "sim_run.h"

enum { NTSIM_EXIT_OK = 0, NTSIM_EXIT_FAIL = 1, NTSIM_EXIT_USAGE = 2, NTSIM_EXIT_INPUT = 3 };

/* io.c: loads SCENARIO, a path or the name of a shipped scenario
 * (ntsim_scenario_find; NULL: the built-in default); on error prints it
 * (a name not found with the shipped names) and returns NTSIM_EXIT_INPUT. */
int ntsim_cli_load_scenario(const char *path, ntsim_scenario_t *sc, FILE *err);
/* io.c: the files one `ntsim run` writes (D-OUTPUT): DIR/trace.json,
 * trace.ntff and notifications.ntff, the record dump (--records), the
 * timelines (each output format's file in DIR) and the inspect session's
 * ntrace.pb. Each is written beside its name; all are renamed into place
 * together once the run succeeded, with DIR locked against another run, and
 * a timeline this run did not write is removed: DIR holds one run's files,
 * each whole, and a failed or interrupted run leaves the earlier ones. */
enum { NTSIM_CLI_TRACE_FILES = NTSIM_SIM_TRACE_FILES }; /* sim.h's list */
typedef struct ntsim_cli_run_files {
    const char *dir, *records_path;           /* records_path NULL: no dump */
    char *trace[NTSIM_CLI_TRACE_FILES];       /* DIR/trace.json, trace.ntff, notifications.ntff */
    char **timeline;                          /* DIR/FILE, one per output format */
    size_t timelines;
    ntsim_output_t *out[NTSIM_CLI_TRACE_FILES + 1]; /* open: the trace files, the dump */
    ntsim_output_t **timeline_out;            /* written, not yet committed; NULL: not */
    size_t *timeline_bytes;                   /* each timeline's size; 0: not written */
    bool *removed;                            /* an earlier run's timeline, removed */
    int lock_fd;                              /* DIR's lock, or -1 */
} ntsim_cli_run_files_t;
/* Makes the paths and checks them and inspect_path (NULL: none) against the
 * registered inputs and each other, before anything is opened. 0, or the
 * exit status after printing why (NTSIM_EXIT_USAGE: an output refused).
 * Free *f with ntsim_cli_run_files_free whatever happens. */
int ntsim_cli_run_files_check(ntsim_cli_run_files_t *f, const char *dir, const char *records_path,
                              const char *inspect_path, FILE *err);
/* Creates DIR, locks it, and opens the trace files and the dump for the run
 * to stream into (*files); 0, or -1 after printing why. */
int ntsim_cli_run_files_open(ntsim_cli_run_files_t *f, ntsim_output_files_t *files, FILE *err);
/* Writes every timeline beside its name; 0, or -1 after printing why. */
int ntsim_cli_run_files_timelines(ntsim_cli_run_files_t *f, const nrt_sys_trace_event_t *recs,
                                  size_t n, const ntsim_timeline_options_t *opt, FILE *err);
/* Renames every file written, and `also` (ntrace.pb; NULL: none), into
 * place as one, and removes the timelines not written; 0, or -1 after
 * printing why (nothing renamed, unless the file system failed a rename part
 * way). `also` is committed or aborted either way. */
int ntsim_cli_run_files_commit(ntsim_cli_run_files_t *f, ntsim_output_t *also, FILE *err);
/* "wrote DIR/trace.pftrace (N bytes): ..." for each timeline written. */
void ntsim_cli_run_files_report(const ntsim_cli_run_files_t *f, FILE *out);
/* Removes what is still open (an earlier file stays), unlocks DIR, frees. */
void ntsim_cli_run_files_free(ntsim_cli_run_files_t *f);
/* io.c: a count or a size in bytes: decimal digits with an optional K, M or G
 * (powers of 1024). False on anything else or on overflow. */
bool ntsim_cli_parse_size(const char *text, uint64_t *out);
/* io.c: a command's --max-events for the scenarios it runs (the estimated
 * events of one run, D-SCENARIO-BUDGET; 0: no budget). False after printing
 * why `text` is not a count, as "ntsim CMD: --max-events: ...". */
bool ntsim_cli_set_scenario_budget(const char *cmd, const char *text);
/* The usage lines of that option, for every command that takes it. */
#define NTSIM_CLI_MAX_EVENTS_USAGE                                                          \
    "  --max-events N     refuse a scenario whose run would emit more than N events,\n"    \
    "                     estimated before it starts (default 20M; K, M, G suffixes;\n"    \
    "                     0: no limit)\n"
/* run_log.c: the engine's log while `ntsim run` runs (D-RUN-LOG): the
 * errors the scenario's invalid_notification faults cause on purpose are
 * counted, every other message printed as it comes. */
typedef struct ntsim_cli_run_log {
    int faults;                            /* the invalid_notification faults */
    int32_t type[NTSIM_MAX_FAULTS];        /* each one's notification_type */
    uint64_t count[NTSIM_MAX_FAULTS];      /* how many it posts */
    uint64_t seen[NTSIM_MAX_FAULTS];       /* its messages counted so far */
    uint64_t expected;                     /* all of them */
} ntsim_cli_run_log_t;
/* Installs the sink (the engine's log goes to it until end). */
void ntsim_cli_run_log_begin(ntsim_cli_run_log_t *l, const ntsim_scenario_t *sc);
void ntsim_cli_run_log_end(ntsim_cli_run_log_t *l);
/* The summary's one line on the expected errors (nothing when none). */
void ntsim_cli_run_log_summary(FILE *out, const ntsim_cli_run_log_t *l);
/* summary.c: what `ntsim run` prints after a run (log: the run's, or NULL). */
void ntsim_cli_summary(FILE *out, const ntsim_scenario_t *sc, const ntsim_run_result_t *r,
                       const ntsim_outputs_t *o, const char *dir, const ntsim_cli_run_log_t *log);

/* timelines.c: the timeline files (D-TIMELINE), in the formats of the
 * engine's one registry (ntsim_output_formats, ntsim/convert.h): `ntsim run`
 * writes every one, `ntsim export` the one OUT's extension picks
 * (ntsim_output_format_for_path), `ntsim view` the page. The usage texts
 * below are made from the registry. */
/* Each format's own extension and description, one line each
 * ("  .pftrace   Perfetto's ..."). */
void ntsim_cli_timeline_usage(FILE *out);
/* The formats' own extensions as a list (".pftrace, .json or .html"). */
void ntsim_cli_timeline_suffixes(FILE *out);
/* The files ntsim run writes, each after `dir` ("DIR/trace.pftrace,
 * DIR/timeline.html" with dir "DIR/"), `sep` between two and `last`
 * before the last. */
void ntsim_cli_timeline_files(FILE *out, const char *dir, const char *sep, const char *last);
/* After a trace at path was refused: when it is one of ntsim's timelines
 * (D-READ tells them by content), says so on stderr and names the trace to
 * give instead (the run's trace.json or trace.ntff beside it, when there
 * is one). Nothing for any other file. */
void ntsim_cli_timeline_hint(const char *cmd, const char *path);
/* The page `ntsim view` writes (the registry's timeline_html). */
const ntsim_output_format_t *ntsim_cli_timeline_page(void);
/* Writes one timeline in `format` onto o's stream (the caller commits o);
 * 0, or -1 after printing why to err. *bytes (if not NULL) gets its size. */
int ntsim_cli_timeline_into(ntsim_output_t *o, const ntsim_output_format_t *format,
                            const nrt_sys_trace_event_t *recs, size_t n,
                            const ntsim_timeline_options_t *opt, size_t *bytes, FILE *err);
/* The same into the file at path, written beside it and renamed into place
 * (export, view); 0, or -1 after printing why (an earlier file stays). */
int ntsim_cli_write_timeline(const char *path, const ntsim_output_format_t *format,
                             const nrt_sys_trace_event_t *recs, size_t n,
                             const ntsim_timeline_options_t *opt, size_t *bytes, FILE *err);
/* inspect.c: the inspect session of `ntsim run` (sim/inspect_session.h,
 * D-INSPECT-ENV), its messages printed. begin reads NEURON_RT_INSPECT_* from
 * the environment and prints its warnings; malformed variables are printed
 * and NTSIM_EXIT_USAGE returned (nothing may run). An enabled session's
 * filters replace sc's; path is the ntrace.pb it will write (NULL: none),
 * for the run to check against its inputs; open makes OUTPUT_DIR and opens
 * ntrace.pb beside its name (-1 after naming what could not be made). *out
 * is set whatever happens; free it with ntsim_cli_inspect_free. The sink
 * takes the run's drained records; end finishes ntrace.pb and hands it over
 * in *done for the run to commit with its files (0), or names the file that
 * could not be written (-1, *done NULL); report prints what the session did. */
typedef struct ntsim_inspect_session ntsim_cli_inspect_t; /* sim/inspect_session.h */
int ntsim_cli_inspect_begin(ntsim_scenario_t *sc, ntsim_cli_inspect_t **out, FILE *err);
const char *ntsim_cli_inspect_path(const ntsim_cli_inspect_t *in);
int ntsim_cli_inspect_open(ntsim_cli_inspect_t *in, const ntsim_scenario_t *sc, FILE *err);
ntsim_sim_sink_t ntsim_cli_inspect_sink(ntsim_cli_inspect_t *in);
int ntsim_cli_inspect_end(ntsim_cli_inspect_t *in, ntsim_output_t **done, FILE *err);
void ntsim_cli_inspect_report(const ntsim_cli_inspect_t *in, FILE *out);
void ntsim_cli_inspect_free(ntsim_cli_inspect_t *in);

/* testee_faults.c: what `ntsim testee --break=LIST` does wrong, so that the
 * runner's verdicts on a broken testee can be tested. Wrong answers:
 * json_key_order (phase before event_type in every event object),
 * record_byte (a bit of every drained record's thread_id flipped),
 * enum_value (every enum's last member one higher); nul_names (every
 * string of a layout, enum or event_type reply with "\0junk" after it: a
 * reader of C strings sees the right name); forge (a hello name and
 * an Error for every other request whose text holds line breaks, an ESC and
 * a summary line of the runner's: what a testee that wants a green report
 * would print). Subtle ones, each wrong in one corner that the committed
 * vectors of their time did not reach (issue 29; docs/generative.md has what
 * the generator made of them): overwrite_count (a ring whose capacity is
 * not a power of two reports one overwrite fewer than it made: counters in
 * record and api replies), json_key_order_rare (the START arm of one rare
 * type, nrt_async_sema_wait, writes its two data keys in the other order:
 * documents of json and api replies), escape_1e (the escaper writes the one
 * control byte 0x1e as \u001E, upper case: documents and string literals).
 * Logs (testee_reword.c): reword (every message in other words with the same
 * level, quoted text and values: not wrong, it must pass what the plain
 * testee passes, D-LOG-CONTRACT), log_unlisted (every log counts two
 * messages more than it shows); no_body (every reply but hello's a
 * Response with no body); and oom_leak (every api call that ran out of
 * memory reports one block more kept than it found: the blocks_kept of a
 * port whose out-of-memory path forgets one free, D-ALLOCATOR). A
 * misbehaving process,
 * at its N-th request (hello is the first; counted again after a restart):
 * crash=N (SIGSEGV), hang=N (never answers), exit=N (exits 3), garbage=N (a
 * frame that is not a Response), disorder=N (the reply carries another id),
 * close_stdout=N (closes its stdout and stays). What it leaves behind:
 * helper (a child that holds its pipes and sleeps 30 s), escape (the same
 * child, in a session of its own: out of the testee's process group); each
 * says "ntsim testee: helper PID" on stderr. And fds: says the descriptors
 * it was started with ("ntsim testee: open descriptors: 0 1 2");
 * stdout_forge: at its start, writes a summary line of the runner's through
 * /proc/PPID/fd/1 (the runner's stdout, when it may), and says on stderr
 * what came of it. */
typedef struct ntsim_testee_faults {
    bool json_key_order, record_byte, enum_value, forge, helper, escape, fds;
    bool nul_names;    /* "\0junk" after every string of layout, enum, event_type replies */
    bool stdout_forge; /* writes a summary line into /proc/PPID/fd/1: the runner's stdout */
    bool overwrite_count, json_key_order_rare, escape_1e;
    bool reword, log_unlisted; /* testee_reword.c */
    bool no_body;  /* every reply but hello's a Response with no body set */
    bool oom_leak; /* an api reply of NRT_RESOURCE keeps one block more (blocks_kept) */
    bool empty; /* every reply but hello's of its own body case, with nothing in it */
    char omit[64]; /* omit=FIELD: that field of every reply's body left out ("": none) */
    int flood;     /* flood=WHAT[:BYTES]: testee_flood.c's table entry + 1; 0: none */
    size_t flood_bytes; /* how much it stuffs */
    uint64_t crash_at, hang_at, exit_at, garbage_at, disorder_at, close_stdout_at; /* 0: never */
    /* --kinds, --capabilities: what the hello announces instead of
     * everything (comma-separated; "" for none), NULL: unchanged. */
    const char *kinds, *capabilities;
} ntsim_testee_faults_t;
/* "name,name=N,..." into *f (added to what it holds); false with why. */
bool ntsim_testee_faults_parse(const char *list, ntsim_testee_faults_t *f, char *why,
                               size_t cap);
/* testee_flood.c: flood=WHAT[:BYTES] (log, unknown, fields, records, emits,
 * json; 60 MB unless BYTES says less) into f; false when it is none of them. */
bool ntsim_testee_flood_parse(const char *what, ntsim_testee_faults_t *f);
/* Writes the reply `resp` as f's flood makes it, as one frame on fd: 1 when
 * it did, 0 when no flood applies to this reply (the caller writes it), -1
 * when out of memory or the write failed. */
int ntsim_testee_flood_write(const ntsim_testee_faults_t *f, const uint8_t *resp, size_t len,
                             int fd);
/* testee_reword.c: reword and log_unlisted applied to the log of the
 * unpacked reply m; false when out of memory. */
struct NtsimTestee__Response;
bool ntsim_testee_reword_reply(const ntsim_testee_faults_t *f, struct NtsimTestee__Response *m);
/* At the start, before the first request: lists its descriptors, forks the
 * helper, when asked to. */
void ntsim_testee_faults_start(const ntsim_testee_faults_t *f);
/* Before answering request n: crashes, hangs or exits when asked to. */
void ntsim_testee_faults_before(const ntsim_testee_faults_t *f, uint64_t n);
/* The response frame of request n as the faults make it: *resp rewritten
 * (freed and replaced) when one applies. NRT_RESOURCE when out of memory. */
NRT_STATUS ntsim_testee_faults_apply(const ntsim_testee_faults_t *f, uint64_t n, uint8_t **resp,
                                     size_t *len);

/* usage.c: bad usage, said in one line and where the help is
 * ("ntsim CMD: MESSAGE" then "(ntsim CMD --help says more)"), never the whole
 * help (D-CLI-USAGE). Returns NTSIM_EXIT_USAGE. */
int ntsim_cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* After getopt_long (opterr 0, optstring starting with ':') returned c, '?'
 * or ':': the option it could not take, named, with the known option
 * nearest it (did you mean); NTSIM_EXIT_USAGE. */
struct option;
int ntsim_cli_bad_option(const char *cmd, int c, char **argv, const struct option *opts);

/* The subcommands, one file each (cmd_<name>.c); main.c dispatches. */
int ntsim_cmd_run(int argc, char **argv);
int ntsim_cmd_record(int argc, char **argv);
int ntsim_cmd_replay(int argc, char **argv);
int ntsim_cmd_decode(int argc, char **argv);
int ntsim_cmd_export(int argc, char **argv);
int ntsim_cmd_view(int argc, char **argv);
int ntsim_cmd_testee(int argc, char **argv);
int ntsim_cmd_stats(int argc, char **argv);
int ntsim_cmd_diff(int argc, char **argv);
/* cmd_export.c, shared with cmd_view.c: the two commands' options (-1 to go
 * on, else the exit status; *out set by -o, *limits by --max-events and
 * --max-input-bytes or their defaults), and the conversion itself. */
int ntsim_cli_convert_options(const char *cmd, int argc, char **argv, void (*usage)(FILE *),
                              const char **out, ntsim_read_limits_t *limits);
int ntsim_cli_convert(const char *cmd, const char *in, const char *out,
                      const ntsim_output_format_t *format, const ntsim_read_limits_t *limits);
/* The limits export and view take, for their usage. */
#define NTSIM_CLI_CONVERT_LIMITS_USAGE                                                      \
    "  --max-events N       a FILE of more than N events is refused before they are\n"     \
    "                       kept (default 4000000, as ntsim decode; K, M, G suffixes)\n"   \
    "  --max-input-bytes N  the largest FILE read (default 256M; K, M, G suffixes)\n"

#endif /* NTSIM_CONFORMANCE_NTSIM_CLI_H */
