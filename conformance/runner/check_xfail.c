/*
 * conformance/runner/check_xfail.c: the expected failures (--xfail FILE; by
 * default ntsim's own list in process, located by check_data.c, and none
 * with a testee): "ID reason" per line. A listed vector must fail (a listed
 * one that passes fails the run: check_vectors.c), and a listed id no
 * vector has, or a line without a reason, is a failure of its own, so that
 * the list cannot go stale.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"

typedef struct xfail {
    char *id;
    char *reason;
    unsigned line;
    bool matched;     /* a loaded vector has this id */
} xfail_t;

static xfail_t *g_xfail;
static size_t g_xfail_count;
static const char *g_xfail_path;
static unsigned long g_xfail_errors;

const char *ntsim_check_xfail_reason(const char *id)
{
    for (size_t i = 0; i < g_xfail_count; i++)
        if (strcmp(g_xfail[i].id, id) == 0)
            return g_xfail[i].reason;
    return NULL;
}

/* "ID reason..." per line, lines of any length (getline: a long reason is
 * never cut into a second entry); '#' starts a comment; blank lines
 * ignored. A line without a reason is an error: every listed failure says
 * why. */
int ntsim_check_xfail_load(const char *path, bool required)
{
    g_xfail_path = path;
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        if (!required)
            return 0;
        fprintf(stderr, "%s: cannot open the expected-failures list\n", path);
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    unsigned lineno = 0;
    int rc = 0;
    while (getline(&line, &cap, f) >= 0) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash != NULL)
            *hash = '\0';
        char *id = strtok(line, " \t\r\n");
        if (id == NULL)
            continue;
        char *reason = strtok(NULL, "\r\n");
        while (reason != NULL && (*reason == ' ' || *reason == '\t'))
            reason++;
        if (reason == NULL || *reason == '\0') {
            char msg[1024];
            snprintf(msg, sizeof msg, "%s:%u: %s: an expected failure needs a reason after its id",
                     path, lineno, id);
            printf("FAIL %s\n", msg);
            ntsim_check_junit_failure("xfail", id, msg);
            g_xfail_errors++;
            continue;
        }
        xfail_t *n = realloc(g_xfail, (g_xfail_count + 1) * sizeof *n);
        char *id_copy = ntsim_strdup(id), *reason_copy = ntsim_strdup(reason);
        if (n != NULL)
            g_xfail = n;
        if (n == NULL || id_copy == NULL || reason_copy == NULL) {
            free(id_copy);
            free(reason_copy);
            rc = -1;
            break;
        }
        g_xfail[g_xfail_count++] = (xfail_t){id_copy, reason_copy, lineno, false};
    }
    if (rc == 0 && ferror(f)) {
        fprintf(stderr, "%s: cannot read the expected-failures list\n", path);
        rc = -1;
    } else if (rc != 0) {
        fprintf(stderr, "%s: out of memory reading the expected-failures list\n", path);
    }
    free(line);
    (void)fclose(f); /* read-only: nothing to lose */
    return rc;
}

/* Listed ids that no loaded vector has: each a failure, so the list cannot
 * go stale (not checked when a filter chose the vectors). */
unsigned long ntsim_check_print_stale_xfails(void)
{
    unsigned long stale = g_xfail_errors;
    for (size_t i = 0; !ntsim_check_filtered && i < g_xfail_count; i++)
        if (!g_xfail[i].matched) {
            char line[1024];
            snprintf(line, sizeof line, "%s:%u: %s: listed as an expected failure, but no vector "
                     "has this id: remove its line", g_xfail_path, g_xfail[i].line, g_xfail[i].id);
            printf("FAIL %s\n", line);
            ntsim_check_junit_failure("xfail", g_xfail[i].id, line);
            stale++;
        }
    return stale;
}

const char *ntsim_check_xfail_list_name(void)
{
    const char *slash = g_xfail_path != NULL ? strrchr(g_xfail_path, '/') : NULL;
    return slash != NULL ? slash + 1 : g_xfail_path != NULL ? g_xfail_path : "(no list)";
}

void ntsim_check_xfail_free(void)
{
    for (size_t i = 0; i < g_xfail_count; i++) {
        free(g_xfail[i].id);
        free(g_xfail[i].reason);
    }
    free(g_xfail);
}

void ntsim_check_xfail_match(const ntsim_vector_set_t *set)
{
    for (size_t i = 0; i < g_xfail_count; i++)
        for (size_t j = 0; j < set->count && !g_xfail[i].matched; j++)
            g_xfail[i].matched = strcmp(set->vectors[j].id, g_xfail[i].id) == 0;
}
