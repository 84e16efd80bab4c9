/*
 * conformance/unit/include/exit_client.c: a program using the engine as the
 * README shows, in C: it starts a capture (libnrt's API), emits from its main
 * thread and from a thread that ends (the runtime's emit, ntsim/capture.h),
 * fetches, and exits without stopping and without shutting the engine down.
 * `make memcheck` runs it under valgrind memcheck, which must
 * report no error and no block definitely, indirectly or possibly lost: what
 * the library keeps for the process (the record of every thread that
 * emitted) must stay reachable at exit (issue 27: the main thread's record
 * was "possibly lost", reached only through an interior pointer).
 */
#include <pthread.h>
#include <stdio.h>

#include "nrt/nrt.h"
#include "nrt/nrt_sys_trace.h"
#include "ntsim/capture.h"

static void *emit_and_end(void *arg)
{
    (void)arg;
    nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC, NRT_SYS_TRACE_EVENT_PHASE_INSTANT,
                            1, NULL, 0);
    return NULL;
}

int main(void)
{
    nrt_sys_trace_config_t *cfg = NULL;
    if (nrt_sys_trace_config_allocate(&cfg) != NRT_SUCCESS)
        return 1;
    nrt_sys_trace_config_set_max_events_per_nc(cfg, 0x1000);
    if (nrt_sys_trace_start(cfg) != NRT_SUCCESS)
        return 1;
    nrt_sys_trace_config_free(cfg);
    nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC, NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0,
                            NULL, 0);
    pthread_t t;
    if (pthread_create(&t, NULL, emit_and_end, NULL) != 0 || pthread_join(t, NULL) != 0)
        return 1;
    char *doc = NULL;
    size_t len = 0;
    if (nrt_sys_trace_fetch_events(&doc, &len, NULL) != NRT_SUCCESS)
        return 1;
    printf("exit_client: fetched %zu bytes; exiting with the capture running\n", len);
    nrt_sys_trace_buffer_free(doc);
    return 0;
}
