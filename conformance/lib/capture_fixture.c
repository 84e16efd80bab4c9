/* conformance/lib/capture_fixture.c: see capture_fixture.h. */
#include "capture_fixture.h"

#include <stdio.h>
#include <string.h>

ntsim_fixture_t ntsim_fixture;

static uint64_t fixture_now(void *ctx)
{
    ntsim_fixture_t *f = ctx;
    uint64_t t = f->now_ns;
    f->now_ns += f->step_ns;
    return t;
}

static uint64_t fixture_tid(void *ctx)
{
    return ((ntsim_fixture_t *)ctx)->thread_id;
}

static void fixture_sink(ntsim_log_level_t level, const char *message, void *ctx)
{
    static const char *const level_names[] = {"error", "warning", "info"};
    ntsim_fixture_t *f = ctx;
    if (f->log_count < NTSIM_FIXTURE_LOG_MAX)
        snprintf(f->log[f->log_count], sizeof f->log[0], "%s: %s",
                 (unsigned)level <= NTSIM_LOG_INFO ? level_names[level] : "?", message);
    f->log_count++;
    if (level > NTSIM_LOG_WARN)
        return;
    f->warnings++;
    snprintf(f->last_message, sizeof f->last_message, "%s", message);
}

void ntsim_fixture_begin(uint64_t start_ns, uint64_t step_ns, uint64_t thread_id)
{
    memset(&ntsim_fixture, 0, sizeof ntsim_fixture);
    ntsim_fixture.now_ns = start_ns;
    ntsim_fixture.step_ns = step_ns;
    ntsim_fixture.thread_id = thread_id;
    ntsim_capture_hooks_t hooks = {fixture_now, fixture_tid, &ntsim_fixture};
    /* Fixtures begin between sessions (after ntsim_fixture_end's shutdown),
     * when installing hooks cannot fail. */
    (void)ntsim_capture_set_hooks(&hooks);
    ntsim_log_set_sink(fixture_sink, &ntsim_fixture);
}

void ntsim_fixture_config(nrt_sys_trace_config_t *cfg, uint64_t max, const uint32_t *ncs,
                          size_t nc_count)
{
    nrt_sys_trace_config_set_defaults(cfg);
    nrt_sys_trace_config_set_max_events_per_nc(cfg, max);
    for (uint32_t nc = 0; nc < NTSIM_NC_COUNT; nc++)
        nrt_sys_trace_config_set_capture_enabled_for_nc(cfg, nc, false);
    for (size_t i = 0; i < nc_count; i++)
        nrt_sys_trace_config_set_capture_enabled_for_nc(cfg, ncs[i], true);
}

void ntsim_fixture_log_begin(void)
{
    memset(&ntsim_fixture, 0, sizeof ntsim_fixture);
    ntsim_log_set_sink(fixture_sink, &ntsim_fixture);
}

void ntsim_fixture_log_end(void)
{
    ntsim_log_set_sink(NULL, NULL);
}

void ntsim_fixture_end(void)
{
    ntsim_capture_shutdown();
    (void)ntsim_capture_set_hooks(NULL); /* shut down: not capturing, cannot fail */
    ntsim_log_set_sink(NULL, NULL);
}
