/*
 * conformance/lib/usage.c: what a program says about bad usage (D-CLI-USAGE):
 * the problem in one line, the option it meant when a known one is near
 * (engine/suggest.h), and where the help is; never the whole help, which
 * buried the one useful line under 40 others.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "suggest.h"
#include "usage.h"

int ntsim_usage_verror(const char *who, const char *fmt, va_list ap)
{
    fprintf(stderr, "%s: ", who);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n(%s --help says more)\n", who);
    return NTSIM_USAGE_EXIT;
}

int ntsim_usage_error(const char *who, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = ntsim_usage_verror(who, fmt, ap);
    va_end(ap);
    return rc;
}

int ntsim_usage_bad_option(const char *who, int c, char **argv, const struct option *opts)
{
    const char *arg = optind > 0 ? argv[optind - 1] : "";
    if (c == ':') /* an option that takes a value, given none */
        return ntsim_usage_error(who, "%s needs a value", arg);
    if (optopt != 0 && strncmp(arg, "--", 2) != 0)
        return ntsim_usage_error(who, "unknown option '-%c'", optopt);
    /* A long option: its name up to any "=value", against the known ones. */
    const char *name = arg + (strncmp(arg, "--", 2) == 0 ? 2 : 0);
    size_t len = strcspn(name, "=");
    ntsim_suggest_t s;
    ntsim_suggest_init(&s, name, len);
    for (const struct option *o = opts; o != NULL && o->name != NULL; o++)
        ntsim_suggest_add_z(&s, o->name);
    size_t blen, prefixed = 0;
    const char *best = ntsim_suggest_best(&s, &blen);
    if (optopt != 0) /* a known option given a value it does not take */
        return ntsim_usage_error(who, "%.*s takes no value", (int)(len + 2), arg);
    for (const struct option *o = opts; o != NULL && o->name != NULL; o++)
        prefixed += strncmp(o->name, name, len) == 0;
    if (prefixed > 1 && len > 0) { /* getopt takes a prefix of one option only */
        fprintf(stderr, "%s: '%s' is ambiguous:", who, arg);
        for (const struct option *o = opts; o->name != NULL; o++)
            if (strncmp(o->name, name, len) == 0)
                fprintf(stderr, " --%s", o->name);
        fprintf(stderr, "\n(%s --help says more)\n", who);
        return NTSIM_USAGE_EXIT;
    }
    if (best != NULL)
        return ntsim_usage_error(who, "unknown option '%s' (did you mean --%.*s?)", arg,
                                 (int)blen, best);
    return ntsim_usage_error(who, "unknown option '%s'", arg);
}
