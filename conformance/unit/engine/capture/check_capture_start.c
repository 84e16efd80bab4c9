/*
 * conformance/unit/engine/capture/check_capture_start.c: what a session's start does
 * (engine/capture/capture.c; D-LIFECYCLE, D-RING-MEMORY, D-GRACE): it counts the
 * session and resets the session's counters and warnings, maps the rings on
 * first touch only over the ring budget, picks membarrier where the kernel
 * offers it, and frees what it made when a ring cannot be mapped. Each value
 * is worked out from facts §4/§5 or a decision in docs/decisions.md.
 */
#define _GNU_SOURCE /* syscall, SYS_membarrier */
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/membarrier.h>

#include "check_capture.h"
#include "grace.h"
#include "ntsim/convert.h"
#include "ring.h"

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CHECK_HAS_TSAN 1
#endif
#endif
#ifndef CHECK_HAS_TSAN
#define CHECK_HAS_TSAN 0
#endif

/* D-JSON-DATA: the exporter's phase-mismatch count and its once-per-type
 * warning reset at each start(). A NUM_ERR START (no arm: facts §2) is
 * counted once and warned once; after a new start() the same record is
 * counted from zero and warned again. */
START_TEST(test_start_resets_the_json_phase_mismatch_counts_and_warnings)
{
    nrt_sys_trace_event_t r;
    memset(&r, 0, sizeof r);
    r.trace_type = NRT_SYS_TRACE_EVENT_TYPE_NUM_ERR;
    r.phase = NRT_SYS_TRACE_EVENT_PHASE_START;
    for (int session = 0; session < 2; session++) {
        start_small();
        unsigned warned_before = ntsim_fixture.warnings;
        char *doc = NULL;
        size_t n;
        ck_assert_int_eq(ntsim_json_serialize(&r, 1, &doc, &n), NRT_SUCCESS);
        nrt_sys_trace_buffer_free(doc);
        ntsim_json_stats_t st;
        ck_assert_int_eq(ntsim_json_stats(&st), NRT_SUCCESS);
        ck_assert_uint_eq(st.phase_mismatch, 1);
        ck_assert_uint_eq(st.phase_mismatch_by_type[NRT_SYS_TRACE_EVENT_TYPE_NUM_ERR], 1);
        ck_assert_uint_eq(ntsim_fixture.warnings, warned_before + 1);
        ck_assert_ptr_nonnull(strstr(ntsim_fixture.last_message, "NumericalErr"));
        ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    }
}
END_TEST

/* D-RING-MEMORY, F5.start.log_size: start logs the ring memory, 112·n/2^30
 * GB; rings within the 1 GiB budget are mapped in full, above it on first
 * touch, and the log says which. 1 NC x 1024 records (128 KiB of slots) is
 * within it: no "first touch"; 9 NCs x 0x100000 records (9 x 128 MiB) is
 * over it: 112 x 9 x 2^20 / 2^30 = 0.984375, "0.984 GB", and "first touch". */
START_TEST(test_start_logs_first_touch_mapping_only_over_the_ring_budget)
{
    nrt_sys_trace_config_t cfg;
    const uint32_t one[] = {0};
    ntsim_fixture_config(&cfg, 1024, one, 1);
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    ck_assert_uint_ge(ntsim_fixture.log_count, 1);
    ck_assert_ptr_nonnull(strstr(ntsim_fixture.log[0], "sys trace: 1 NCs x 1024 events"));
    ck_assert_ptr_null(strstr(ntsim_fixture.log[0], "first touch"));
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);

    const uint32_t nine[] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    ntsim_fixture_config(&cfg, 0x100000, nine, 9);
    size_t at = ntsim_fixture.log_count;
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    ck_assert_uint_lt(at, NTSIM_FIXTURE_LOG_MAX);
    ck_assert_uint_gt(ntsim_fixture.log_count, at);
    ck_assert_ptr_nonnull(strstr(ntsim_fixture.log[at], "sys trace: 9 NCs x 1048576 events: 0.984 GB"));
    ck_assert_ptr_nonnull(strstr(ntsim_fixture.log[at], "first touch"));
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
}
END_TEST

/* D-RING-MEMORY: rings are prefaulted when the session's rings take at
 * most 1 GiB at 128 bytes a record, one slot. 8 NCs x 2^20 records is
 * 8 x 2^20 x 128 = 2^30 bytes exactly: within the budget, so no
 * first-touch note; 112 x 2^23 / 2^30 = 0.875 GB of records. (One record
 * more would be over it: 9 NCs above.) */
START_TEST(test_start_prefaults_a_session_of_exactly_the_ring_budget)
{
    nrt_sys_trace_config_t cfg;
    const uint32_t eight[] = {0, 1, 2, 3, 4, 5, 6, 7};
    ntsim_fixture_config(&cfg, 0x100000, eight, 8);
    size_t at = ntsim_fixture.log_count;
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    ck_assert_uint_lt(at, NTSIM_FIXTURE_LOG_MAX);
    ck_assert_uint_gt(ntsim_fixture.log_count, at);
    ck_assert_ptr_nonnull(strstr(ntsim_fixture.log[at], "sys trace: 8 NCs x 1048576 events: 0.875 GB"));
    ck_assert_ptr_null(strstr(ntsim_fixture.log[at], "first touch"));
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
}
END_TEST

/* F5.emit.seq: a warning once seq >= 2^50, where the derived tracking id
 * seq | nc_idx << 50 (D-IDS) starts to collide with the NC bits. The ring
 * of NC 3 is moved to position 2^50 - 1024 (as if that many events had been
 * captured and drained; 1024 is its capacity), so by hand: the 1024 events
 * after it are seq 2^50 - 1024 .. 2^50 - 1, silent, the last one's id
 * (2^50 - 1) | 3 << 50; the next is seq 2^50 = 1125899906842624, warned,
 * its id 2^50 | 3 << 50 = 3 << 50; the one after is not warned again. */
START_TEST(test_seq_warning_starts_exactly_at_two_to_the_fifty)
{
    const uint64_t limit = UINT64_C(1) << 50, nc3 = UINT64_C(3) << 50;
    start_small();
    ck_assert(ntsim__capture_skip_to(3, limit - 1024));
    size_t at = ntsim_fixture.log_count;
    uint64_t id = 0;
    for (int i = 0; i < 1024; i++)
        id = nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                     NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 3, NULL, 0);
    ck_assert_uint_eq(id, (limit - 1) | nc3);
    ck_assert_uint_eq(ntsim_fixture.log_count, at);
    id = nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                 NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 3, NULL, 0);
    ck_assert_uint_eq(id, nc3);
    ck_assert_uint_eq(ntsim_fixture.log_count, at + 1);
    ck_assert_uint_lt(at, NTSIM_FIXTURE_LOG_MAX);
    ck_assert_ptr_nonnull(strstr(ntsim_fixture.log[at],
                                 "NC 3: seq reached 2^50 (1125899906842624): derived tracking "
                                 "ids now collide with nc_idx"));
    id = nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                 NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 3, NULL, 0);
    ck_assert_uint_eq(id, (limit + 1) | nc3);
    ck_assert_uint_eq(ntsim_fixture.log_count, at + 1);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
}
END_TEST

/* D-LOG, D-LIFECYCLE: start(NULL) is NRT_INVALID and says why, as an error
 * (the fixture counts errors with warnings). */
START_TEST(test_start_with_a_null_config_logs_an_error)
{
    ck_assert_int_eq(nrt_sys_trace_start(NULL), NRT_INVALID);
    ck_assert_uint_eq(ntsim_fixture.warnings, 1);
    ck_assert_uint_eq(ntsim_fixture.log_count, 1);
    ck_assert_str_eq(ntsim_fixture.log[0], "error: nrt_sys_trace_start: config is NULL");
}
END_TEST

/* include/ntsim/capture.h: invalid_type, clamped_nc_idx and reentrant count
 * "this session", sessions "successful starts since process start". A
 * session that counted one of each is stopped (its counts stay readable),
 * then a new start counts from zero again and adds exactly 1 to sessions;
 * refused starts (NULL, already running) add nothing. */
START_TEST(test_start_counts_one_session_and_resets_the_session_counters)
{
    ntsim_capture_stats_t g;
    ck_assert_int_eq(ntsim_capture_global_stats(&g), NRT_SUCCESS);
    const uint64_t s0 = g.sessions;
    start_small();
    ck_assert_int_eq(ntsim_capture_global_stats(&g), NRT_SUCCESS);
    ck_assert_uint_eq(g.sessions, s0 + 1);
    nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_COUNT, NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0,
                            NULL, 1);
    nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC, NRT_SYS_TRACE_EVENT_PHASE_INSTANT,
                            256, NULL, 1);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_capture_global_stats(&g), NRT_SUCCESS);
    ck_assert_uint_eq(g.invalid_type, 1);
    ck_assert_uint_eq(g.clamped_nc_idx, 1);
    ck_assert_int_eq(nrt_sys_trace_start(NULL), NRT_INVALID);
    start_small();
    nrt_sys_trace_config_t cfg;
    ntsim_fixture_config(&cfg, 1024, only_nc0_and_3, 2);
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_FAILURE); /* already running */
    ck_assert_int_eq(ntsim_capture_global_stats(&g), NRT_SUCCESS);
    ck_assert_uint_eq(g.sessions, s0 + 2);
    ck_assert_uint_eq(g.invalid_type, 0);
    ck_assert_uint_eq(g.clamped_nc_idx, 0);
    ck_assert_uint_eq(g.reentrant, 0);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_capture_global_stats(&g), NRT_SUCCESS);
    ck_assert_uint_eq(g.sessions, s0 + 2);
}
END_TEST

/* D-WARN-ONCE: the seq warning is logged once per session, so a second
 * session that reaches seq 2^50 on the same NC warns again. NC 3's ring is
 * moved to 2^50 (its first event is then seq 2^50 = 1125899906842624,
 * derived id 2^50 | 3 << 50 = 3 << 50) in each of two sessions. */
START_TEST(test_seq_warning_is_logged_again_in_the_next_session)
{
    const uint64_t limit = UINT64_C(1) << 50, nc3 = UINT64_C(3) << 50;
    for (int session = 0; session < 2; session++) {
        start_small();
        ck_assert(ntsim__capture_skip_to(3, limit));
        size_t at = ntsim_fixture.log_count;
        ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                                  NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 3, NULL, 0),
                          nc3);
        ck_assert_uint_eq(ntsim_fixture.log_count, at + 1);
        ck_assert_uint_lt(at, NTSIM_FIXTURE_LOG_MAX);
        ck_assert_str_eq(ntsim_fixture.log[at],
                         "warning: NC 3: seq reached 2^50 (1125899906842624): derived tracking "
                         "ids now collide with nc_idx");
        ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                                  NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 3, NULL, 0),
                          (limit + 1) | nc3);
        ck_assert_uint_eq(ntsim_fixture.log_count, at + 1);
        ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    }
}
END_TEST

/* D-RING-MEMORY: the budget is 128 bytes a record, not a byte less. 9 NCs
 * x 932068 records = 8388612 records, 4 more than 2^23: 8388612 x 128 =
 * 1073742336 bytes, 512 over 2^30, so first touch (at 127 bytes a record
 * they would fit: 1065353724). 112 x 8388612 / 2^30 = 0.8750004, "0.875 GB". */
START_TEST(test_start_maps_on_first_touch_just_over_the_ring_budget)
{
    nrt_sys_trace_config_t cfg;
    const uint32_t nine[] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    ntsim_fixture_config(&cfg, 932068, nine, 9);
    size_t at = ntsim_fixture.log_count;
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    ck_assert_uint_lt(at, NTSIM_FIXTURE_LOG_MAX);
    ck_assert_uint_gt(ntsim_fixture.log_count, at);
    ck_assert_str_eq(ntsim_fixture.log[at],
                     "info: sys trace: 9 NCs x 932068 events: 0.875 GB of rings (mapped on first "
                     "touch: over the prefault budget)");
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
}
END_TEST

/* D-GRACE, engine/capture/grace.h: the emit path's mode (membarrier, or the seq_cst
 * exchange without it) starts as the always-safe fence mode and is chosen by
 * start. Put back to that initial value between sessions, a start must pick
 * membarrier again wherever the kernel offers it (the test asks the kernel,
 * as test_emitters_use_membarrier_where_the_kernel_offers_it does). */
START_TEST(test_start_picks_membarrier_where_the_kernel_offers_it)
{
    atomic_store(&ntsim__grace_fence_mode, true); /* no session: no emitter reads it */
    start_small();
    bool fence = true;
#if !defined(__SANITIZE_THREAD__) && !CHECK_HAS_TSAN
    long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (cmds > 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0 &&
        syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0)
        fence = false;
#endif
    ck_assert_int_eq(atomic_load(&ntsim__grace_fence_mode), fence);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
}
END_TEST

/* The address space in use, from /proc/self/status (VmSize, KiB), or 0. */
static uint64_t address_space_bytes(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (f == NULL)
        return 0;
    char line[256];
    unsigned long long kib = 0;
    while (fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "VmSize: %llu kB", &kib) == 1)
            break;
    fclose(f);
    return (uint64_t)kib * 1024;
}

/* The child of test_start_that_cannot_map_a_ring_frees_the_others: its exit
 * status is 0, or the number of the first check that failed. */
static int start_with_room_for_two_rings(void)
{
    const uint64_t records = UINT64_C(1) << 18, ring = records * 128; /* D-RING-MEMORY */
    uint64_t used = address_space_bytes();
    if (used == 0)
        return 10;
    struct rlimit lim = {.rlim_cur = used + 2 * ring + ring / 2, .rlim_max = RLIM_INFINITY};
    if (setrlimit(RLIMIT_AS, &lim) != 0)
        return 11;
    const uint32_t three[] = {0, 1, 2};
    nrt_sys_trace_config_t cfg;
    ntsim_fixture_config(&cfg, records, three, 3);
    size_t at = ntsim_fixture.log_count;
    if (nrt_sys_trace_start(&cfg) != NRT_RESOURCE)
        return 1;
    if (ntsim_capture_is_capturing())
        return 2;
    if (ntsim_fixture.log_count != at + 1 || at >= NTSIM_FIXTURE_LOG_MAX ||
        strcmp(ntsim_fixture.log[at], "error: cannot allocate the ring of NC 2 (262144 events)") != 0)
        return 3;
    /* Both rings mapped before the failure were unmapped: two fit again.
     * (A leaked one would leave room for one at most.) */
    const uint32_t two[] = {0, 1};
    ntsim_fixture_config(&cfg, records, two, 2);
    if (nrt_sys_trace_start(&cfg) != NRT_SUCCESS) /* a lock left held would hang here */
        return 4;
    ntsim_nc_stats_t st;
    if (ntsim_capture_nc_stats(1, &st) != NRT_SUCCESS || st.capacity != records)
        return 5;
    if (nrt_sys_trace_stop() != NRT_SUCCESS)
        return 6;
    return 0;
}

/* D-ALLOCATOR's promise for start: a start that cannot map the ring of one
 * NC returns NRT_RESOURCE, logs which, frees the rings it mapped for the
 * NCs before it and leaves the lifecycle free for the next start. In a
 * child whose address space has room for two rings of 2^18 records (32 MiB
 * each) and a half, a start of three NCs maps NC 0's and NC 1's and fails
 * on NC 2's; then a start of two NCs must fit. */
START_TEST(test_start_that_cannot_map_a_ring_frees_the_others)
{
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0)
        _exit(start_with_room_for_two_rings());
    int status = 0;
    pid_t done = 0;
    for (int waited_ms = 0; waited_ms < 30000 && done == 0; waited_ms += 10) {
        done = waitpid(pid, &status, WNOHANG);
        if (done == 0)
            nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    }
    if (done == 0) { /* a start that waits forever: the lifecycle lock was left held */
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        ck_abort_msg("the start after a failed start did not return in 30 s");
    }
    ck_assert_int_eq(done, pid);
    ck_assert(WIFEXITED(status));
    ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

/* S1.enum.per_nc_enable: emission is gated by each NC's own enable byte per
 * type, which start() copies from the config (libnrt's NcContext+0x240+et),
 * not by the caller's config: a config changed after start() changes
 * nothing until the next start. HW_NOTIFY, disabled at start, stays refused
 * on both NCs after the config enables it; DEVICE_EXEC, enabled at start,
 * stays captured after the config disables it; and a new start() takes the
 * config as it is then. */
START_TEST(test_each_nc_gates_types_by_the_bytes_start_copied)
{
    nrt_sys_trace_config_t cfg;
    static const uint32_t ncs[] = {0, 1};
    ntsim_fixture_config(&cfg, 1024, ncs, 2);
    cfg.capture_enabled_for_event_type[NRT_SYS_TRACE_EVENT_TYPE_HW_NOTIFY] = false;
    for (int session = 0; session < 2; session++) {
        ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
        cfg.capture_enabled_for_event_type[NRT_SYS_TRACE_EVENT_TYPE_HW_NOTIFY] = session == 0;
        cfg.capture_enabled_for_event_type[NRT_SYS_TRACE_EVENT_TYPE_DEVICE_EXEC] = session != 0;
        for (uint32_t nc = 0; nc < 2; nc++) {
            bool hw_on = session == 1, dev_on = session == 0;
            ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_HW_NOTIFY,
                                                      NRT_SYS_TRACE_EVENT_PHASE_INSTANT, nc,
                                                      NULL, 5) != 0,
                              hw_on);
            ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_DEVICE_EXEC,
                                                      NRT_SYS_TRACE_EVENT_PHASE_START, nc, NULL,
                                                      6) != 0,
                              dev_on);
            ntsim_nc_stats_t st;
            ck_assert_int_eq(ntsim_capture_nc_stats(nc, &st), NRT_SUCCESS);
            ck_assert_uint_eq(st.created, 1);
        }
        ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    }
}
END_TEST

Suite *make_capture_start_suite(void)
{
    Suite *s = suite_create("capture_start");
    TCase *tc = tcase_create("capture_start");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_start_resets_the_json_phase_mismatch_counts_and_warnings);
    tcase_add_test(tc, test_start_logs_first_touch_mapping_only_over_the_ring_budget);
    tcase_add_test(tc, test_start_prefaults_a_session_of_exactly_the_ring_budget);
    tcase_add_test(tc, test_seq_warning_starts_exactly_at_two_to_the_fifty);
    tcase_add_test(tc, test_start_with_a_null_config_logs_an_error);
    tcase_add_test(tc, test_start_counts_one_session_and_resets_the_session_counters);
    tcase_add_test(tc, test_seq_warning_is_logged_again_in_the_next_session);
    tcase_add_test(tc, test_start_maps_on_first_touch_just_over_the_ring_budget);
    tcase_add_test(tc, test_start_picks_membarrier_where_the_kernel_offers_it);
    tcase_add_test(tc, test_start_that_cannot_map_a_ring_frees_the_others);
    tcase_add_test(tc, test_each_nc_gates_types_by_the_bytes_start_copied);
    suite_add_tcase(s, tc);
    return s;
}
