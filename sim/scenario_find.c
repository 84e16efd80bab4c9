/*
 * sim/scenario_find.c: scenario arguments into files (scenario_load.h,
 * D-SCENARIO-NAMES): a path as it is, a name among the shipped scenarios,
 * found from where the program is (locate.h), never from the working
 * directory; a vector's relative path from the vector file's directory.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input.h"
#include "locate.h"
#include "scenario_load.h"

#define SUFFIX ".yaml"

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of dir's *.yaml files, sorted, joined by ", "; NULL with why. */
static char *list_names(const char *dir, char *why, size_t cap)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        snprintf(why, cap, "%s: cannot list: %s", dir, strerror(errno));
        return NULL;
    }
    char **names = NULL, *out = NULL;
    size_t n = 0, room = 0, bytes = 1;
    bool oom = false;
    for (struct dirent *e; !oom && (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || !ntsim_ends_with(e->d_name, SUFFIX))
            continue;
        if (n == room) {
            room = room ? room * 2 : 16;
            char **grown = realloc(names, room * sizeof *grown);
            if (grown == NULL) {
                oom = true;
                break;
            }
            names = grown;
        }
        if ((names[n] = ntsim_strdup(e->d_name)) == NULL) {
            oom = true;
            break;
        }
        names[n][len - strlen(SUFFIX)] = '\0';
        bytes += strlen(names[n]) + 2;
        n++;
    }
    closedir(d);
    if (!oom && (out = malloc(bytes)) != NULL) {
        qsort(names, n, sizeof *names, by_name);
        size_t used = 0;
        out[0] = '\0';
        for (size_t i = 0; i < n; i++)
            used += (size_t)snprintf(out + used, bytes - used, "%s%s", i ? ", " : "", names[i]);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    if (out == NULL)
        snprintf(why, cap, "out of memory");
    return out;
}

char *ntsim_scenario_shipped(char **dir, char *why, size_t cap)
{
    *dir = ntsim_data_path(NTSIM_DATA_SCENARIOS, why, cap);
    if (*dir == NULL)
        return NULL;
    char *names = list_names(*dir, why, cap);
    if (names == NULL) {
        free(*dir);
        *dir = NULL;
    }
    return names;
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 || errno != ENOENT;
}

/* "ARG: no such file...", listing the shipped scenarios when it can. */
static void not_found(const char *arg, bool named, ntsim_errors_t *errors)
{
    char why[512], shown[4 * 128 + 4];
    char *dir = NULL, *names = ntsim_scenario_shipped(&dir, why, sizeof why);
    ntsim_text_escape(arg, strlen(arg), 128, shown);
    const char *what = named ? "no such file, and no shipped scenario of that name"
                             : "no such file";
    if (names != NULL)
        (void)ntsim_errors_add(errors, "%s: %s; the shipped scenarios (%s): %s", shown, what, dir,
                               names[0] ? names : "none");
    else
        (void)ntsim_errors_add(errors, "%s: %s (and the shipped scenarios cannot be listed: %s)",
                               shown, what, why);
    free(names);
    free(dir);
}

/* arg as a file: itself when absolute or when base is NULL, else
 * base/arg; malloc'd, NULL when out of memory. */
static char *file_of(const char *arg, const char *base)
{
    if (base == NULL || arg[0] == '/')
        return ntsim_strdup(arg);
    size_t n = strlen(base) + 1 + strlen(arg) + 1;
    char *p = malloc(n);
    if (p != NULL)
        snprintf(p, n, "%s/%s", base, arg);
    return p;
}

char *ntsim_scenario_find_in(const char *arg, const char *base, ntsim_errors_t *errors)
{
    bool is_path = strchr(arg, '/') != NULL || ntsim_ends_with(arg, SUFFIX);
    char *file = file_of(arg, base);
    if (file == NULL) {
        (void)ntsim_errors_add(errors, "out of memory");
        return NULL;
    }
    if (is_path) {
        if (exists(file))
            return file;
        not_found(file, false, errors);
        free(file);
        return NULL;
    }
    char why[512];
    char *dir = ntsim_data_path(NTSIM_DATA_SCENARIOS, why, sizeof why);
    if (dir != NULL && arg[0] != '\0') {
        size_t n = strlen(dir) + 1 + strlen(arg) + sizeof SUFFIX;
        char *path = malloc(n);
        if (path != NULL) {
            snprintf(path, n, "%s/%s%s", dir, arg, SUFFIX);
            if (exists(path)) {
                free(dir);
                free(file);
                return path;
            }
        }
        free(path);
    }
    free(dir);
    if (arg[0] != '\0' && exists(file))
        return file;
    not_found(arg, true, errors);
    free(file);
    return NULL;
}

char *ntsim_scenario_find(const char *arg, ntsim_errors_t *errors)
{
    return ntsim_scenario_find_in(arg, NULL, errors);
}
