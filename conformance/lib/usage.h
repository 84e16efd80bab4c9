/*
 * conformance/lib/usage.h: what a program says about bad usage
 * (D-CLI-USAGE), shared by the ntsim command and check_ntsim: the problem in
 * one line, "WHO: MESSAGE", then where the help is, "(WHO --help says
 * more)"; never the whole help. WHO is what the user typed to run it
 * ("ntsim run", "check_ntsim").
 */
#ifndef NTSIM_CONFORMANCE_USAGE_H
#define NTSIM_CONFORMANCE_USAGE_H

#include <stdarg.h>

/* The exit status of every usage error: 2, as both programs document. */
enum { NTSIM_USAGE_EXIT = 2 };

int ntsim_usage_verror(const char *who, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
int ntsim_usage_error(const char *who, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* After getopt_long (opterr 0, optstring starting with ':') returned c, '?'
 * or ':': the option it could not take, named, with the known option
 * nearest it (did you mean) or every option an ambiguous prefix starts;
 * NTSIM_USAGE_EXIT. */
struct option;
int ntsim_usage_bad_option(const char *who, int c, char **argv, const struct option *opts);

#endif
