/* engine/log.c: one sink for every engine message. */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>

static const char *const level_names[] = {"error", "warning", "info"};

static void default_sink(ntsim_log_level_t level, const char *message, void *ctx)
{
    (void)ctx;
    if (level <= NTSIM_LOG_WARN)
        fprintf(stderr, "ntsim: %s: %s\n", level_names[level], message);
}

static ntsim_log_fn g_sink = default_sink;
static void *g_sink_ctx;

void ntsim_log_set_sink(ntsim_log_fn fn, void *ctx)
{
    g_sink = fn != NULL ? fn : default_sink;
    g_sink_ctx = fn != NULL ? ctx : NULL;
}

void ntsim__log(ntsim_log_level_t level, const char *fmt, ...)
{
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    g_sink(level, message, g_sink_ctx);
}
