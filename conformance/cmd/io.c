/*
 * conformance/cmd/io.c: what the ntsim command reads and writes: the
 * scenario (or the built-in default), the output directory and its files,
 * written beside their names and renamed into place together (D-OUTPUT).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "input.h"
#include "scenario_load.h"

int ntsim_cli_load_scenario(const char *arg, ntsim_scenario_t *sc, FILE *err)
{
    if (arg == NULL) {
        ntsim_scenario_default(sc);
        return NTSIM_EXIT_OK;
    }
    ntsim_errors_t found;
    ntsim_errors_init(&found);
    char *path = ntsim_scenario_find(arg, &found);
    for (size_t i = 0; i < found.count; i++)
        fprintf(err, "ntsim: %s\n", found.items[i]);
    if (path == NULL && found.count == 0)
        fprintf(err, "ntsim: out of memory\n");
    ntsim_errors_free(&found);
    if (path == NULL)
        return NTSIM_EXIT_INPUT;
    /* An input: no output of the command may be written over it. */
    if (ntsim_output_input(path, "the scenario") != NRT_SUCCESS) {
        fprintf(err, "ntsim: out of memory\n");
        free(path);
        return NTSIM_EXIT_FAIL;
    }
    char errors[8192];
    NRT_STATUS st = ntsim_scenario_load(path, sc, errors, sizeof errors);
    if (st != NRT_SUCCESS) {
        fprintf(err, "%s", errors);
        fprintf(err, "ntsim: %s: not a valid scenario\n", path);
    }
    free(path);
    return st == NRT_SUCCESS ? NTSIM_EXIT_OK : NTSIM_EXIT_INPUT;
}

/* "dir/name", malloc'd (whole, whatever its length); NULL when out of memory. */
static char *join(const char *dir, const char *name)
{
    size_t len = strlen(dir) + strlen(name) + 2;
    char *p = malloc(len);
    if (p != NULL)
        snprintf(p, len, "%s/%s", dir, name);
    return p;
}

int ntsim_cli_run_files_check(ntsim_cli_run_files_t *f, const char *dir, const char *records_path,
                              const char *inspect_path, FILE *err)
{
    size_t nformats;
    const ntsim_output_format_t *formats = ntsim_output_formats(&nformats);
    *f = (ntsim_cli_run_files_t){.dir = dir, .records_path = records_path, .lock_fd = -1};
    f->timeline = calloc(nformats, sizeof *f->timeline);
    f->timeline_out = calloc(nformats, sizeof *f->timeline_out);
    f->timeline_bytes = calloc(nformats, sizeof *f->timeline_bytes);
    f->removed = calloc(nformats, sizeof *f->removed);
    const char **all = calloc(NTSIM_CLI_TRACE_FILES + nformats + 2, sizeof *all);
    bool oom = f->timeline == NULL || f->timeline_out == NULL || f->timeline_bytes == NULL ||
               f->removed == NULL || all == NULL;
    size_t n = 0;
    for (size_t i = 0; i < NTSIM_CLI_TRACE_FILES && !oom; i++)
        oom = (all[n++] = f->trace[i] = join(dir, ntsim_sim_trace_files[i])) == NULL;
    for (size_t i = 0; i < nformats && !oom; i++, f->timelines++)
        oom = (all[n++] = f->timeline[i] = join(dir, formats[i].file)) == NULL;
    if (records_path != NULL)
        all[n++] = records_path;
    if (inspect_path != NULL)
        all[n++] = inspect_path;
    /* Every output against every input and each other, before any is
     * opened (D-OUTPUT): the scenario is never written over. */
    char why[2048];
    NRT_STATUS st = oom ? NRT_RESOURCE : ntsim_output_check(all, n, why, sizeof why);
    free(all);
    if (st == NRT_SUCCESS)
        return NTSIM_EXIT_OK;
    if (st == NRT_RESOURCE)
        fprintf(err, "ntsim run: out of memory\n");
    else
        fprintf(err, "ntsim run: %s\n", why);
    return st == NRT_INVALID ? NTSIM_EXIT_USAGE : NTSIM_EXIT_FAIL;
}

int ntsim_cli_run_files_open(ntsim_cli_run_files_t *f, ntsim_output_files_t *files, FILE *err)
{
    *files = (ntsim_output_files_t){NULL, NULL, NULL, NULL, true}; /* ntsim run prints no digest */
    if (ntsim_mkdir_p(f->dir) != 0) {
        fprintf(err, "ntsim run: %s: cannot create the output directory: %s\n", f->dir,
                strerror(errno));
        return -1;
    }
    char why[2048];
    /* One run at a time writes into DIR: it holds one run's files. */
    if (ntsim_output_dir_lock(f->dir, &f->lock_fd, why, sizeof why) != NRT_SUCCESS) {
        fprintf(err, "ntsim run: %s\n", why);
        return -1;
    }
    FILE **slot[NTSIM_CLI_TRACE_FILES + 1] = {&files->json, &files->ntff, &files->notif,
                                              &files->records};
    for (size_t i = 0; i < NTSIM_CLI_TRACE_FILES + 1; i++) {
        const char *path = i < NTSIM_CLI_TRACE_FILES ? f->trace[i] : f->records_path;
        if (path == NULL)
            continue;
        NRT_STATUS st = ntsim_output_open(&f->out[i], path, why, sizeof why);
        if (st != NRT_SUCCESS) {
            if (st == NRT_RESOURCE)
                fprintf(err, "ntsim run: out of memory\n");
            else
                fprintf(err, "ntsim run: %s\n", why);
            return -1;
        }
        *slot[i] = ntsim_output_file(f->out[i]);
        /* The run writes a batch at a time: 1 MiB buffers make that a
         * write(2) per megabyte rather than per 4 KiB. Full buffering is
         * already the default; only the size changes, so a refusal is
         * harmless. */
        (void)setvbuf(*slot[i], NULL, _IOFBF, 1 << 20);
    }
    return 0;
}

int ntsim_cli_run_files_timelines(ntsim_cli_run_files_t *f, const nrt_sys_trace_event_t *recs,
                                  size_t n, const ntsim_timeline_options_t *opt, FILE *err)
{
    size_t count;
    const ntsim_output_format_t *formats = ntsim_output_formats(&count);
    for (size_t i = 0; i < count && i < f->timelines; i++) {
        char why[2048];
        NRT_STATUS st = ntsim_output_open(&f->timeline_out[i], f->timeline[i], why, sizeof why);
        if (st != NRT_SUCCESS) {
            fprintf(err, "ntsim run: %s\n", st == NRT_RESOURCE ? "out of memory" : why);
            return -1;
        }
        if (ntsim_cli_timeline_into(f->timeline_out[i], &formats[i], recs, n, opt,
                                    &f->timeline_bytes[i], err) != 0)
            return -1;
    }
    return 0;
}

int ntsim_cli_run_files_commit(ntsim_cli_run_files_t *f, ntsim_output_t *also, FILE *err)
{
    ntsim_output_t **all = calloc(NTSIM_CLI_TRACE_FILES + 2 + f->timelines, sizeof *all);
    const char **stale = calloc(f->timelines + 1, sizeof *stale);
    if (all == NULL || stale == NULL) {
        free(all);
        free(stale);
        ntsim_output_abort(also); /* the others: ntsim_cli_run_files_free */
        fprintf(err, "ntsim run: out of memory\n");
        return -1;
    }
    size_t n = 0, n_stale = 0;
    for (size_t i = 0; i < NTSIM_CLI_TRACE_FILES + 1; i++)
        if (f->out[i] != NULL)
            all[n++] = f->out[i];
    /* A timeline this run did not write is an earlier run's: it goes, so
     * that DIR holds one run's files (D-OUTPUT). */
    for (size_t i = 0; i < f->timelines; i++) {
        struct stat st;
        if (f->timeline_out[i] != NULL) {
            all[n++] = f->timeline_out[i];
        } else if (lstat(f->timeline[i], &st) == 0) {
            stale[n_stale++] = f->timeline[i];
            f->removed[i] = true;
        }
    }
    if (also != NULL)
        all[n++] = also;
    char why[2048];
    NRT_STATUS st = ntsim_output_commit_all(all, n, stale, n_stale, why, sizeof why);
    /* Committed or aborted: none of them is open any more. */
    memset(f->out, 0, sizeof f->out);
    memset(f->timeline_out, 0, f->timelines * sizeof *f->timeline_out);
    free(all);
    free(stale);
    if (st == NRT_SUCCESS)
        return 0;
    memset(f->removed, 0, f->timelines * sizeof *f->removed);
    fprintf(err, "ntsim run: %s\n", st == NRT_RESOURCE ? "out of memory" : why);
    return -1;
}

void ntsim_cli_run_files_report(const ntsim_cli_run_files_t *f, FILE *out)
{
    size_t count;
    const ntsim_output_format_t *formats = ntsim_output_formats(&count);
    for (size_t i = 0; i < count && i < f->timelines; i++)
        if (f->timeline_bytes[i] > 0) /* "wrote out/trace.pftrace (N bytes): Perfetto's ..." */
            fprintf(out, "wrote %s (%zu bytes): %s\n", f->timeline[i], f->timeline_bytes[i],
                    formats[i].description);
}

void ntsim_cli_run_files_free(ntsim_cli_run_files_t *f)
{
    for (size_t i = 0; i < NTSIM_CLI_TRACE_FILES + 1; i++)
        ntsim_output_abort(f->out[i]);
    for (size_t i = 0; i < NTSIM_CLI_TRACE_FILES; i++)
        free(f->trace[i]);
    for (size_t i = 0; f->timeline != NULL && i < f->timelines; i++) {
        ntsim_output_abort(f->timeline_out[i]);
        free(f->timeline[i]);
    }
    ntsim_output_dir_unlock(f->lock_fd);
    free(f->timeline);
    free(f->timeline_out);
    free(f->timeline_bytes);
    free(f->removed);
    *f = (ntsim_cli_run_files_t){.lock_fd = -1};
}

bool ntsim_cli_set_scenario_budget(const char *cmd, const char *text)
{
    uint64_t events;
    if (!ntsim_cli_parse_size(text, &events)) {
        (void)ntsim_cli_usage_error(cmd, "--max-events: '%s' is not a count", text);
        return false;
    }
    ntsim_scenario_set_event_budget(events);
    return true;
}

bool ntsim_cli_parse_size(const char *text, uint64_t *out)
{
    if (*text < '0' || *text > '9')
        return false;
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno != 0)
        return false;
    unsigned shift = 0;
    if (*end == 'K' || *end == 'k')
        shift = 10;
    else if (*end == 'M' || *end == 'm')
        shift = 20;
    else if (*end == 'G' || *end == 'g')
        shift = 30;
    if (shift != 0)
        end++;
    if (*end != '\0' || (shift != 0 && v > (UINT64_MAX >> shift)))
        return false;
    *out = (uint64_t)v << shift;
    return true;
}
