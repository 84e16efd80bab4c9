/*
 * conformance/cmd/run_log.c: the engine's log during `ntsim run`
 * (D-RUN-LOG). A scenario's invalid_notification faults make the converter
 * log `Invalid notification type: N` on purpose (D-NOTIFY), once per
 * notification; printed one by one they looked like the run failing, and
 * `-q` printed them still. While the run goes, this sink counts each such
 * message the scenario's faults account for (type N, up to the fault's
 * count) and prints every other message as the engine's default sink does
 * (`ntsim: error: ...`, `ntsim: warning: ...`; info dropped): an error the
 * scenario did not ask for is never hidden, -q or not. The summary says
 * the expected ones once.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char *const level_names[] = {"error", "warning", "info"};

/* The fault that accounts for an `Invalid notification type: N` message,
 * or -1. */
static int fault_of(const ntsim_cli_run_log_t *l, const char *message)
{
    static const char prefix[] = "Invalid notification type: ";
    if (strncmp(message, prefix, sizeof prefix - 1) != 0)
        return -1;
    const char *num = message + sizeof prefix - 1;
    char shown[16];
    for (int i = 0; i < l->faults; i++) {
        snprintf(shown, sizeof shown, "%" PRId32, l->type[i]);
        if (strcmp(num, shown) == 0 && l->seen[i] < l->count[i])
            return i;
    }
    return -1;
}

static void run_sink(ntsim_log_level_t level, const char *message, void *ctx)
{
    ntsim_cli_run_log_t *l = ctx;
    int f = level == NTSIM_LOG_ERROR ? fault_of(l, message) : -1;
    if (f >= 0) {
        l->seen[f]++;
        l->expected++;
        return;
    }
    if (level != NTSIM_LOG_ERROR && level != NTSIM_LOG_WARN)
        return;
    fprintf(stderr, "ntsim: %s: %s\n", level_names[level], message);
}

void ntsim_cli_run_log_begin(ntsim_cli_run_log_t *l, const ntsim_scenario_t *sc)
{
    memset(l, 0, sizeof *l);
    for (uint32_t i = 0; i < sc->fault_count; i++) {
        const ntsim_fault_t *f = &sc->faults[i];
        if (f->kind != NTSIM_FAULT_INVALID_NOTIFICATION || l->faults == NTSIM_MAX_FAULTS)
            continue;
        l->type[l->faults] = f->type;
        l->count[l->faults] = f->count;
        l->faults++;
    }
    ntsim_log_set_sink(run_sink, l);
}

void ntsim_cli_run_log_end(ntsim_cli_run_log_t *l)
{
    (void)l;
    ntsim_log_set_sink(NULL, NULL);
}

void ntsim_cli_run_log_summary(FILE *out, const ntsim_cli_run_log_t *l)
{
    if (l->expected == 0)
        return;
    fprintf(out, "  expected: %" PRIu64 " engine error%s \"Invalid notification type: N\" (N =",
            l->expected, l->expected == 1 ? "" : "s");
    bool first = true;
    for (int i = 0; i < l->faults; i++) {
        if (l->seen[i] == 0)
            continue;
        fprintf(out, "%s%" PRId32, first ? " " : ", ", l->type[i]);
        if (l->seen[i] > 1)
            fprintf(out, " x%" PRIu64, l->seen[i]);
        first = false;
    }
    fputs("): the scenario's faults post them on purpose; not printed one by one (D-RUN-LOG)\n",
          out);
}
