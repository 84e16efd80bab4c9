/*
 * conformance/cmd/io.c: what the ntsim command reads and writes: the
 * scenario (or the built-in default), the output directory and its files.
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
    char errors[8192];
    NRT_STATUS st = ntsim_scenario_load(path, sc, errors, sizeof errors);
    if (st != NRT_SUCCESS) {
        fprintf(err, "%s", errors);
        fprintf(err, "ntsim: %s: not a valid scenario\n", path);
    }
    free(path);
    return st == NRT_SUCCESS ? NTSIM_EXIT_OK : NTSIM_EXIT_INPUT;
}

static const char *const output_names[3] = {"trace.json", "trace.ntff", "notifications.ntff"};

int ntsim_cli_open_outputs(const char *dir, const char *records_path, ntsim_output_files_t *f,
                           FILE *err)
{
    *f = (ntsim_output_files_t){NULL, NULL, NULL, NULL, true}; /* ntsim run prints no digest */
    if (ntsim_mkdir_p(dir) != 0) {
        fprintf(err, "ntsim: %s: cannot create the output directory: %s\n", dir,
                strerror(errno));
        return -1;
    }
    FILE **slot[3] = {&f->json, &f->ntff, &f->notif};
    for (size_t i = 0; i < 3; i++) {
        char path[4200]; /* PATH_MAX and a file name */
        int len = snprintf(path, sizeof path, "%s/%s", dir, output_names[i]);
        if (len < 0 || (size_t)len >= sizeof path) {
            /* Cut, the path would name another file: refused. */
            fprintf(err, "ntsim: %s: the output directory's path is too long\n", dir);
            (void)ntsim_cli_close_outputs(f, dir, NULL);
            return -1;
        }
        if ((*slot[i] = fopen(path, "wb")) == NULL) {
            fprintf(err, "ntsim: %s: cannot write: %s\n", path, strerror(errno));
            (void)ntsim_cli_close_outputs(f, dir, NULL);
            return -1;
        }
        /* The run writes a batch at a time: 1 MiB buffers make that a
         * write(2) per megabyte rather than per 4 KiB. Full buffering is
         * already the default; only the size changes, so a refusal is
         * harmless. */
        (void)setvbuf(*slot[i], NULL, _IOFBF, 1 << 20);
    }
    if (records_path != NULL && (f->records = fopen(records_path, "wb")) == NULL) {
        fprintf(err, "ntsim: %s: cannot write the record dump: %s\n", records_path,
                strerror(errno));
        (void)ntsim_cli_close_outputs(f, dir, NULL);
        return -1;
    }
    return 0;
}

int ntsim_cli_close_outputs(ntsim_output_files_t *f, const char *dir, FILE *err)
{
    FILE **slot[4] = {&f->json, &f->ntff, &f->notif, &f->records};
    int rc = 0;
    for (size_t i = 0; i < 4; i++) {
        if (*slot[i] == NULL)
            continue;
        if (fclose(*slot[i]) != 0 && rc == 0) {
            rc = -1;
            if (err != NULL)
                fprintf(err, "ntsim: %s/%s: cannot write: %s\n", dir,
                        i < 3 ? output_names[i] : "(record dump)", strerror(errno));
        }
        *slot[i] = NULL;
    }
    return rc;
}

bool ntsim_cli_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
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
