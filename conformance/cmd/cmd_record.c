/*
 * conformance/cmd/cmd_record.c: `ntsim record` — run a scenario and write
 * a `scenario` vector: every count the summary shows, digests of the three
 * output files, and the first and last records in full. Counts are what a
 * reviewer checks by hand against the scenario before committing the
 * vector; digests pin the bytes (D-SCENARIO-DIGEST).
 *
 * Every scalar goes through libyaml's emitter, which quotes and escapes
 * what needs it: a scenario name or path holding a newline, ": ", "#",
 * quotes or control characters comes back byte for byte when the vector is
 * read (numbers are plain scalars, as the strict reader wants them). The
 * only text written by hand is the fixed comment at the top.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "cli.h"
#include "event_table.h"
#include "ntsim/convert.h"
#include "facts.h"
#include "run_counts.h"

/* What every recorded scenario rests on; a re-recorded vector keeps its own
 * list through --source (conformance/proofs/add_type.sh passes it). */
#define DEFAULT_SOURCE "D-SIM, D-SIM-RNG, D-SCENARIO-DIGEST"

static const char *const usage_record =
    "usage: ntsim record SCENARIO -o FILE.yaml [--id ID] [--source IDS]\n"
    "\n"
    "Runs SCENARIO and writes a scenario vector to FILE.yaml: the run's counts (per type,\n"
    "per NC, notifications), digests of trace.json, trace.ntff and notifications.ntff, and\n"
    "the first and last records. Check the counts against the scenario before committing.\n"
    "\n"
    "  -o, --output FILE   the vector file to write (required)\n"
    "  --id ID             the vector id (default: scenario.<scenario name>)\n"
    "  --source IDS        the vector's source: the fact and decision ids it pins,\n"
    "                      \"S5.subscribe.tpb, D-SIM\" (default: " DEFAULT_SOURCE ")\n"
    NTSIM_CLI_MAX_EVENTS_USAGE;

static void hex_of(const void *data, size_t n, char *out)
{
    const uint8_t *b = data;
    for (size_t i = 0; i < n; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
}

/* Whether "scenario.<name>" is a vector id (the loader's grammar). */
static bool id_is_plain(const char *name)
{
    if (*name == '\0')
        return false;
    for (const char *c = name; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_' || *c == '.' ||
              *c == '-'))
            return false;
    return name[strlen(name) - 1] != '.';
}

/* --- writing YAML with libyaml's emitter ------------------------------------------ */

typedef struct ywriter {
    yaml_emitter_t em;
    yaml_event_t ev;
    bool ok;                 /* false after the first failed event */
} ywriter_t;

static void y_emit(ywriter_t *w)
{
    /* yaml_emitter_emit consumes the event whether or not it succeeds. */
    if (w->ok && !yaml_emitter_emit(&w->em, &w->ev))
        w->ok = false;
}

/* A scalar the emitter may quote (strings), or a plain one (numbers). */
static void y_scalar(ywriter_t *w, const char *text, bool plain)
{
    if (!w->ok)
        return;
    if (!yaml_scalar_event_initialize(&w->ev, NULL, NULL, (yaml_char_t *)text, (int)strlen(text),
                                      1, 1, plain ? YAML_PLAIN_SCALAR_STYLE
                                                  : YAML_ANY_SCALAR_STYLE)) {
        w->ok = false;
        return;
    }
    y_emit(w);
}

__attribute__((format(printf, 2, 3))) static void y_number(ywriter_t *w, const char *fmt, ...)
{
    char text[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    y_scalar(w, text, true);
}

static void y_key(ywriter_t *w, const char *key)
{
    y_scalar(w, key, true);
}

static void y_map(ywriter_t *w, bool flow)
{
    if (w->ok && !yaml_mapping_start_event_initialize(
                     &w->ev, NULL, NULL, 1, flow ? YAML_FLOW_MAPPING_STYLE
                                                 : YAML_BLOCK_MAPPING_STYLE))
        w->ok = false;
    y_emit(w);
}

static void y_seq(ywriter_t *w, bool flow)
{
    if (w->ok && !yaml_sequence_start_event_initialize(
                     &w->ev, NULL, NULL, 1, flow ? YAML_FLOW_SEQUENCE_STYLE
                                                 : YAML_BLOCK_SEQUENCE_STYLE))
        w->ok = false;
    y_emit(w);
}

static void y_end_map(ywriter_t *w)
{
    if (w->ok && !yaml_mapping_end_event_initialize(&w->ev))
        w->ok = false;
    y_emit(w);
}

static void y_end_seq(ywriter_t *w)
{
    if (w->ok && !yaml_sequence_end_event_initialize(&w->ev))
        w->ok = false;
    y_emit(w);
}

static void y_u64(ywriter_t *w, const char *key, uint64_t v)
{
    y_key(w, key);
    y_number(w, "%" PRIu64, v);
}

/* --- the vector ------------------------------------------------------------------- */

/* counts:, from the run's lists (sim/run_counts.h), in their order. */
static void write_counts(ywriter_t *w, const ntsim_scenario_t *sc, const ntsim_run_result_t *r)
{
    uint64_t v = 0;
    y_key(w, "counts");
    y_map(w, false);
    for (const char *const *k = ntsim_run_count_names(NTSIM_COUNTS_RUN); *k != NULL; k++)
        if (ntsim_run_count(r, NTSIM_COUNTS_RUN, *k, 0, &v))
            y_u64(w, *k, v);
    uint64_t types = ntsim_run_types_present(r);
    y_key(w, "per_type");
    y_map(w, types == 0);
    for (size_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        if (r->per_type[t] != 0) /* the enum suffix: after "NRT_SYS_TRACE_EVENT_TYPE_" */
            y_u64(w, ntsim__event_types[t].enum_name + strlen("NRT_SYS_TRACE_EVENT_TYPE_"),
                  r->per_type[t]);
    y_end_map(w);
    y_key(w, "ncs");
    y_seq(w, false);
    for (uint32_t nc = 0; nc < sc->cores; nc++) {
        y_map(w, true);
        y_u64(w, "nc", nc);
        for (const char *const *k = ntsim_run_count_names(NTSIM_COUNTS_NC); *k != NULL; k++)
            if (ntsim_run_count(r, NTSIM_COUNTS_NC, *k, nc, &v))
                y_u64(w, *k, v);
        y_end_map(w);
    }
    y_end_seq(w);
    y_key(w, "notifications");
    y_map(w, true);
    for (const char *const *k = ntsim_run_count_names(NTSIM_COUNTS_NOTIFY); *k != NULL; k++)
        if (ntsim_run_count(r, NTSIM_COUNTS_NOTIFY, *k, 0, &v))
            y_u64(w, *k, v);
    y_end_map(w);
    y_end_map(w);
    /* The notification types each block's queues posted (spec §5's subscribe
     * lists, to be checked by hand against them). */
    y_key(w, "subscribed");
    y_map(w, true);
    const uint64_t *posted[2] = {r->posted_tpb, r->posted_topsp};
    for (size_t k = 0; k < 2; k++) {
        y_key(w, k == 0 ? "tpb" : "topsp");
        y_seq(w, true);
        for (int t = 0; t <= NOTIFICATION_TYPE_MAX; t++)
            if (posted[k][t] > 0)
                y_number(w, "%d", t);
        y_end_seq(w);
    }
    y_end_map(w);
}

static void write_digests_and_events(ywriter_t *w, const ntsim_run_result_t *r,
                                     const ntsim_outputs_t *o, const ntsim_run_picks_t *picks)
{
    y_key(w, "digests");
    y_map(w, false);
    y_key(w, "json");
    y_number(w, "0x%016" PRIx64, o->json_digest);
    y_key(w, "ntff");
    y_number(w, "0x%016" PRIx64, o->ntff_digest);
    y_key(w, "notifications");
    y_number(w, "0x%016" PRIx64, o->notif_digest);
    y_end_map(w);
    if (r->record_count == 0)
        return;
    y_key(w, "events");
    y_seq(w, false);
    uint64_t index[2] = {0, r->record_count - 1};
    const nrt_sys_trace_event_t *rec[2] = {&picks->first, &picks->last};
    for (size_t i = 0; i < (r->record_count > 1 ? 2u : 1u); i++) {
        char hex[2 * sizeof(nrt_sys_trace_event_t) + 1];
        hex_of(rec[i], sizeof(nrt_sys_trace_event_t), hex);
        y_map(w, true);
        y_u64(w, "index", index[i]);
        y_key(w, "hex");
        y_scalar(w, hex, false);
        y_end_map(w);
    }
    y_end_seq(w);
}

/* What the vector's `scenario:` says: a name as it is; a path relative to
 * the vector file's own directory, where the scenario kind looks for it
 * (D-DATA-LOCATE), so that the two move together and run from anywhere.
 * malloc'd; NULL when out of memory. */
static char *scenario_for_vector(const char *arg, const char *out_path)
{
    bool is_path = strchr(arg, '/') != NULL || ntsim_ends_with(arg, ".yaml");
    char *dir = is_path ? ntsim_strdup(out_path) : NULL;
    char *slash = dir != NULL ? strrchr(dir, '/') : NULL;
    if (slash != NULL)
        slash[slash == dir] = '\0'; /* "/x.yaml": the root */
    char *to = is_path ? realpath(arg, NULL) : NULL;
    char *from = dir != NULL ? realpath(slash != NULL ? dir : ".", NULL) : NULL;
    char *out = NULL;
    if (to == NULL || from == NULL) {
        out = ntsim_strdup(arg); /* a name, or a path that cannot be resolved: as given */
    } else {
        /* The longest common prefix of whole components, then ".." for each
         * of from's components past it. */
        size_t common = 0;
        for (size_t i = 0;; i++) {
            bool end_to = to[i] == '\0' || to[i] == '/', end_from = from[i] == '\0' || from[i] == '/';
            if (end_to && end_from)
                common = i;
            if (to[i] != from[i] || to[i] == '\0')
                break;
        }
        size_t ups = 0;
        for (const char *p = from + common; *p != '\0'; p++)
            ups += *p == '/' && p[1] != '\0'; /* "/" itself (the root) has no component */
        const char *rest = to + common + (to[common] == '/');
        if ((out = malloc(3 * ups + strlen(rest) + 1)) != NULL) {
            out[0] = '\0';
            for (size_t u = 0; u < ups; u++)
                strcat(out, "../");
            strcat(out, rest);
        }
    }
    free(to);
    free(from);
    free(dir);
    return out;
}

/* The whole vector file, event by event. 0 when written; an errno value when
 * the stream could not be written; -1 when libyaml refused an event (a text
 * that is not UTF-8, such as a path): errno says nothing then. */
static int write_vector(FILE *f, const char *id, const char *source,
                         const char *scenario_path, const ntsim_scenario_t *sc,
                         const ntsim_run_result_t *r, const ntsim_outputs_t *o,
                         const ntsim_run_picks_t *picks)
{
    ywriter_t w;
    memset(&w, 0, sizeof w);
    if (!yaml_emitter_initialize(&w.em))
        return ENOMEM;
    w.ok = true;
    yaml_emitter_set_output_file(&w.em, f);
    yaml_emitter_set_unicode(&w.em, 1);
    yaml_emitter_set_width(&w.em, -1); /* never fold a long hex string */
    if (!yaml_stream_start_event_initialize(&w.ev, YAML_UTF8_ENCODING))
        w.ok = false;
    y_emit(&w);
    if (w.ok && !yaml_document_start_event_initialize(&w.ev, NULL, NULL, NULL, 1))
        w.ok = false;
    y_emit(&w);
    char text[512];
    y_map(&w, false);
    y_u64(&w, "version", 1);
    y_key(&w, "kind");
    y_scalar(&w, "scenario", false);
    y_key(&w, "comment");
    /* The name in a comment, which is one line: quoted and escaped as JSON
     * when it is not a plain identifier (a name may hold a newline). */
    char shown[sizeof sc->name * 6 + 3];
    if (id_is_plain(sc->name))
        snprintf(shown, sizeof shown, "%s", sc->name);
    else
        (void)ntsim_json_escape(sc->name, strlen(sc->name), shown, sizeof shown);
    snprintf(text, sizeof text, "the %s scenario, replayed", shown);
    y_scalar(&w, text, false);
    y_key(&w, "vectors");
    y_seq(&w, false);
    y_map(&w, false);
    y_key(&w, "id");
    y_scalar(&w, id, false);
    y_key(&w, "comment");
    snprintf(text, sizeof text, "%s run through the simulator and the real engine", shown);
    y_scalar(&w, text, false);
    y_key(&w, "source");
    y_scalar(&w, source, false);
    y_key(&w, "flags");
    y_seq(&w, true);
    y_scalar(&w, "decision", true);
    y_end_seq(&w);
    y_key(&w, "expect");
    y_scalar(&w, "valid", true);
    y_key(&w, "scenario");
    y_scalar(&w, scenario_path, false);
    write_counts(&w, sc, r);
    write_digests_and_events(&w, r, o, picks);
    y_end_map(&w);
    y_end_seq(&w);
    y_end_map(&w);
    if (w.ok && !yaml_document_end_event_initialize(&w.ev, 1))
        w.ok = false;
    y_emit(&w);
    if (w.ok && !yaml_stream_end_event_initialize(&w.ev))
        w.ok = false;
    y_emit(&w);
    errno = 0;
    bool ok = w.ok && yaml_emitter_flush(&w.em);
    /* Only a writer error leaves errno meaningful; an earlier value (a stat
     * of the output that did not exist yet) must not be reported. */
    int why = ok ? 0 : w.em.error == YAML_WRITER_ERROR && errno != 0 ? errno : -1;
    yaml_emitter_delete(&w.em);
    return why;
}

/* ntsim record: options, the run, the vector written; ~85 lines because the
 * goto ladder at its end frees what each step took, in one place. */
int ntsim_cmd_record(int argc, char **argv)
{
    const char *out_path = NULL, *id = NULL, *source = DEFAULT_SOURCE;
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                         {"id", required_argument, NULL, 'i'},
                                         {"source", required_argument, NULL, 's'},
                                         {"max-events", required_argument, NULL, 'E'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o': out_path = optarg; break;
        case 'i': id = optarg; break;
        case 's': source = optarg; break;
        case 'E':
            if (!ntsim_cli_set_scenario_budget("record", optarg))
                return NTSIM_EXIT_USAGE;
            break;
        case 'h': fputs(usage_record, stdout); return NTSIM_EXIT_OK;
        default: return ntsim_cli_bad_option("record", c, argv, opts);
        }
    }
    if (argc - optind != 1)
        return ntsim_cli_usage_error("record", argc == optind ? "which SCENARIO?"
                                                              : "one SCENARIO at a time");
    if (out_path == NULL)
        return ntsim_cli_usage_error("record", "-o FILE is missing: the vector file to write");
    if (!ntsim_source_each_id(source, NULL, NULL)) {
        fprintf(stderr, "ntsim record: --source '%s' must list fact and decision ids "
                        "(S5.subscribe.tpb, D-SIM)\n", source);
        return NTSIM_EXIT_USAGE;
    }
    const char *scenario_path = argv[optind];
    ntsim_scenario_t *sc = malloc(sizeof *sc);
    ntsim_run_result_t *r = calloc(1, sizeof *r);
    ntsim_outputs_t o = {0};
    ntsim_output_t *out = NULL;
    char err[2048];
    int rc = NTSIM_EXIT_FAIL;
    if (sc == NULL || r == NULL) {
        fprintf(stderr, "ntsim record: out of memory\n");
        goto free_all;
    }
    if ((rc = ntsim_cli_load_scenario(scenario_path, sc, stderr)) != NTSIM_EXIT_OK)
        goto free_all;
    /* The scenario (by whatever name it was found) is never written over. */
    NRT_STATUS refused = ntsim_output_check(&out_path, 1, err, sizeof err);
    if (refused != NRT_SUCCESS) {
        fprintf(stderr, "ntsim record: %s\n", refused == NRT_RESOURCE ? "out of memory" : err);
        rc = refused == NRT_INVALID ? NTSIM_EXIT_USAGE : NTSIM_EXIT_FAIL;
        goto free_all;
    }
    char default_id[96];
    snprintf(default_id, sizeof default_id, "scenario.%s", sc->name);
    if (id == NULL && !id_is_plain(sc->name)) {
        fprintf(stderr, "ntsim record: the scenario name makes no vector id (ids are "
                        "scenario.[a-z0-9_.-]): give one with --id\n");
        rc = NTSIM_EXIT_USAGE;
        goto free_all;
    }
    rc = NTSIM_EXIT_FAIL;
    /* The outputs are digested as they stream by, not kept; the first and
     * last records are picked out on the way. */
    ntsim_run_picks_t picks = {NULL, 0, NULL, NULL, {0}, {0}};
    ntsim_run_io_t io = {{NULL, NULL, NULL, NULL, false}, &picks, NULL, NULL, NULL, NULL, 0};
    NRT_STATUS st = ntsim_run_scenario(sc, &io, r, &o);
    if (st != NRT_SUCCESS) {
        fprintf(stderr, "ntsim record: the simulation failed: %s\n",
                st == NRT_RESOURCE ? "out of memory" : nrt_get_status_as_str(st));
        goto free_all;
    }
    /* Written beside out_path and renamed onto it once whole: a failure
     * keeps the vector that was there (D-OUTPUT). */
    NRT_STATUS opened = ntsim_output_open(&out, out_path, err, sizeof err);
    if (opened != NRT_SUCCESS) {
        fprintf(stderr, "ntsim record: %s\n", opened == NRT_RESOURCE ? "out of memory" : err);
        goto free_all;
    }
    char *in_vector = scenario_for_vector(scenario_path, out_path);
    FILE *f = ntsim_output_file(out);
    errno = 0;
    int why = in_vector == NULL ? ENOMEM : fputs("# Recorded by `ntsim record`. The counts below were checked by hand\n"
                    "# against the scenario (sim/scenarios/README.md); the digests pin the "
                    "bytes\n# of trace.json, trace.ntff and notifications.ntff "
                    "(D-SCENARIO-DIGEST).\n",
                    f) < 0
                  ? (errno != 0 ? errno : EIO)
                  : write_vector(f, id ? id : default_id, source, in_vector, sc, r, &o, &picks);
    free(in_vector);
    if (why != 0) {
        fprintf(stderr, "ntsim record: %s: cannot write: %s\n", out_path,
                why > 0 ? strerror(why)
                        : "the YAML emitter failed (a text that is not UTF-8, such as a path)");
        goto free_all; /* the half-written vector goes, never committed */
    }
    NRT_STATUS committed = ntsim_output_commit(out, err, sizeof err);
    out = NULL;
    if (committed != NRT_SUCCESS) {
        fprintf(stderr, "ntsim record: %s\n", committed == NRT_RESOURCE ? "out of memory" : err);
        goto free_all;
    }
    printf("ntsim record: wrote %s\n", out_path);
    rc = NTSIM_EXIT_OK;
free_all:
    ntsim_output_abort(out);
    free(r);
    free(sc);
    ntsim_capture_shutdown();
    return rc;
}
