/*
 * conformance/unit/engine/capture/check_concurrency_settings.c: the JSON exporter's
 * settings changed while another thread serializes (D-WORKER-GID,
 * D-JSON-MODEL-ID), a case of the concurrency suite (make tsan runs that
 * suite).
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>

#include "check_suites.h"
#include "ntsim/capture.h"
#include "ntsim/convert.h"
#include "ring.h"

static void teardown(void)
{
    ntsim_capture_shutdown();
}

/* The exporters' settings change while another thread serializes: the gid
 * map (ntsim_json_set_gid_map) and the model lookup (ntsim_json_set_model_
 * lookup) are each read as one snapshot under their lock (D-WORKER-GID,
 * D-JSON-MODEL-ID), so every document shows one whole map and each lookup
 * function with its own context. Under TSan (make tsan) an unlocked side is
 * a reported race. */
enum { SETTINGS_ROUNDS = 200 };
static const uint64_t tag_a = 100, tag_b = 200;
static _Atomic bool settings_done;

static uint64_t lookup_a(uint64_t exec_id, void *ctx)
{
    (void)exec_id;
    return ctx == &tag_a ? tag_a : 999;
}

static uint64_t lookup_b(uint64_t exec_id, void *ctx)
{
    (void)exec_id;
    return ctx == &tag_b ? tag_b : 999;
}

static void *flip_settings(void *arg)
{
    (void)arg;
    static int32_t map_a[NTSIM_NC_COUNT], map_b[NTSIM_NC_COUNT];
    for (int i = 0; i < NTSIM_NC_COUNT; i++) {
        map_a[i] = 1000;
        map_b[i] = 2000;
    }
    for (int r = 0; r < SETTINGS_ROUNDS; r++) {
        (void)ntsim_json_set_gid_map(r % 2 ? map_b : map_a, NTSIM_NC_COUNT);
        (void)ntsim_json_set_model_lookup(r % 2 ? lookup_b : lookup_a,
                                          (void *)(r % 2 ? &tag_b : &tag_a));
    }
    atomic_store(&settings_done, true);
    return NULL;
}

START_TEST(test_exporter_settings_change_while_serializing)
{
    int32_t map_a[NTSIM_NC_COUNT];
    for (int i = 0; i < NTSIM_NC_COUNT; i++)
        map_a[i] = 1000;
    ck_assert_int_eq(ntsim_json_set_gid_map(map_a, NTSIM_NC_COUNT), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_json_set_model_lookup(lookup_a, (void *)&tag_a), NRT_SUCCESS);
    nrt_sys_trace_event_t r[8];
    memset(r, 0, sizeof r);
    for (int i = 0; i < 8; i++) {
        r[i].trace_type = NRT_SYS_TRACE_EVENT_TYPE_DEVICE_EXEC; /* model_id=@exec_id */
        r[i].phase = NRT_SYS_TRACE_EVENT_PHASE_START;
        r[i].nc_idx = (uint32_t)(i * 36);
    }
    atomic_store(&settings_done, false);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, flip_settings, NULL), 0);
    unsigned torn = 0, unpaired = 0, docs = 0;
    while (!atomic_load(&settings_done) || docs == 0) {
        char *doc = NULL;
        size_t n;
        ck_assert_int_eq(ntsim_json_serialize(r, 8, &doc, &n), NRT_SUCCESS);
        docs++;
        bool a = strstr(doc, "\"worker_gid\":1000") != NULL;
        bool b = strstr(doc, "\"worker_gid\":2000") != NULL;
        torn += a && b;
        unpaired += strstr(doc, "\"model_id\":999") != NULL;
        nrt_sys_trace_buffer_free(doc);
    }
    pthread_join(t, NULL);
    ck_assert_msg(torn == 0, "%u of %u documents mixed two gid maps", torn, docs);
    ck_assert_msg(unpaired == 0, "%u of %u documents ran a lookup with another's ctx", unpaired,
                  docs);
    (void)ntsim_json_set_gid_map(NULL, 0);
    (void)ntsim_json_set_model_lookup(NULL, NULL);
}
END_TEST

/* D-JSON-MODEL-ID: a new lookup and its context replace the old pair at once.
 * A change made while a lookup runs (the first one here blocks 5 ms, holding
 * the exporter's lookup lock) waits for it: no later lookup of the document
 * may run the new function with the old context, whichever of the two
 * threads takes the lock next. */
static _Atomic bool slow_lookup_armed, slow_lookup_running;

static uint64_t lookup_slow_a(uint64_t exec_id, void *ctx)
{
    (void)exec_id;
    if (atomic_exchange(&slow_lookup_armed, false)) {
        atomic_store(&slow_lookup_running, true);
        nanosleep(&(struct timespec){0, 5000000}, NULL);
    }
    return ctx == &tag_a ? tag_a : 999;
}

static void *set_lookup_b_during_the_slow_one(void *arg)
{
    (void)arg;
    while (!atomic_load(&slow_lookup_running))
        sched_yield();
    (void)ntsim_json_set_model_lookup(lookup_b, (void *)&tag_b);
    return NULL;
}

START_TEST(test_model_lookup_change_waits_for_a_lookup_in_progress)
{
    nrt_sys_trace_event_t r[4];
    memset(r, 0, sizeof r);
    for (int i = 0; i < 4; i++) {
        r[i].trace_type = NRT_SYS_TRACE_EVENT_TYPE_DEVICE_EXEC; /* model_id=@exec_id */
        r[i].phase = NRT_SYS_TRACE_EVENT_PHASE_START;
    }
    for (int round = 0; round < 20; round++) {
        ck_assert_int_eq(ntsim_json_set_model_lookup(lookup_slow_a, (void *)&tag_a),
                         NRT_SUCCESS);
        atomic_store(&slow_lookup_running, false);
        atomic_store(&slow_lookup_armed, true);
        pthread_t t;
        ck_assert_int_eq(pthread_create(&t, NULL, set_lookup_b_during_the_slow_one, NULL), 0);
        char *doc = NULL;
        size_t n;
        ck_assert_int_eq(ntsim_json_serialize(r, 4, &doc, &n), NRT_SUCCESS);
        pthread_join(t, NULL);
        ck_assert_msg(strstr(doc, "\"model_id\":999") == NULL,
                      "round %d: a lookup ran with another's ctx", round);
        ck_assert_ptr_nonnull(strstr(doc, "\"model_id\":100"));
        nrt_sys_trace_buffer_free(doc);
    }
    (void)ntsim_json_set_model_lookup(NULL, NULL);
}
END_TEST

void ntsim_check_add_concurrency_settings(Suite *s)
{
    TCase *tc = tcase_create("concurrency_settings");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_set_timeout(tc, 120); /* valgrind and TSan run this serially and slowly */
    tcase_add_test(tc, test_exporter_settings_change_while_serializing);
    tcase_add_test(tc, test_model_lookup_change_waits_for_a_lookup_in_progress);
    suite_add_tcase(s, tc);
}
