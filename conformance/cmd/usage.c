/*
 * conformance/cmd/usage.c: the ntsim command's bad usage, said as
 * "ntsim CMD: ..." by the harness's shared usage module
 * (conformance/lib/usage.c, D-CLI-USAGE), which check_ntsim uses too.
 */
#include <stdarg.h>
#include <stdio.h>

#include "cli.h"
#include "usage.h"

/* "ntsim " and the longest subcommand name fit with room to spare. */
static const char *who_of(char *buf, size_t size, const char *cmd)
{
    snprintf(buf, size, "ntsim %s", cmd);
    return buf;
}

int ntsim_cli_usage_error(const char *cmd, const char *fmt, ...)
{
    char who[64];
    va_list ap;
    va_start(ap, fmt);
    int rc = ntsim_usage_verror(who_of(who, sizeof who, cmd), fmt, ap);
    va_end(ap);
    return rc;
}

int ntsim_cli_bad_option(const char *cmd, int c, char **argv, const struct option *opts)
{
    char who[64];
    return ntsim_usage_bad_option(who_of(who, sizeof who, cmd), c, argv, opts);
}
