/*
 * conformance/unit/sim/check_rng.c: one random stream per purpose
 * (sim/rng.h, D-SIM-RNG): a draw added for one purpose changes nothing
 * another purpose draws, in the streams and in a whole run.
 */
#include <stdlib.h>
#include <string.h>

#include "capture_fixture.h"
#include "check_suites.h"
#include "rng.h"
#include "scenario_load.h"
#include "sim.h"

/* SplitMix64's published first outputs from state 0 (Vigna's splitmix64.c,
 * whose next() adds the increment, then mixes): the generator is the one
 * its name says. */
START_TEST(test_rng_mix_is_splitmix64)
{
    const uint64_t g = UINT64_C(0x9E3779B97F4A7C15);
    ck_assert_uint_eq(ntsim_rng_mix(g), UINT64_C(0xE220A8397B1DCDAF));
    ck_assert_uint_eq(ntsim_rng_mix(2 * g), UINT64_C(0x6E789E6AA1B965F4));
    ck_assert_uint_eq(ntsim_rng_mix(3 * g), UINT64_C(0x06C45D188009454F));
    /* A stream's draw i is the mix of its key plus (i + 1) increments. */
    ntsim_rng_t r = ntsim_rng_stream(1, NTSIM_RNG_EXEC_JITTER, 2);
    uint64_t key = r.key;
    ck_assert_uint_eq(ntsim_rng_next(&r), ntsim_rng_mix(key + g));
    ck_assert_uint_eq(ntsim_rng_next(&r), ntsim_rng_mix(key + 2 * g));
}
END_TEST

/* Eight draws of every (purpose, entity) stream, for one seed. */
static void draws(uint64_t seed, uint64_t out[NTSIM_RNG_PURPOSE_COUNT][4][8])
{
    for (int p = 0; p < NTSIM_RNG_PURPOSE_COUNT; p++)
        for (uint64_t e = 0; e < 4; e++) {
            ntsim_rng_t r = ntsim_rng_stream(seed, (ntsim_rng_purpose_t)p, e);
            for (int i = 0; i < 8; i++)
                out[p][e][i] = ntsim_rng_next(&r);
        }
}

/* Extra draws on one purpose (any number, from any entity's stream) leave
 * every other purpose's values as they were; and the streams differ by
 * seed, purpose and entity. */
START_TEST(test_rng_extra_draw_on_one_purpose_leaves_another_unchanged)
{
    static uint64_t before[NTSIM_RNG_PURPOSE_COUNT][4][8], after[NTSIM_RNG_PURPOSE_COUNT][4][8];
    draws(42, before);
    for (int extra = 0; extra < NTSIM_RNG_PURPOSE_COUNT; extra++) {
        ntsim_rng_t r = ntsim_rng_stream(42, (ntsim_rng_purpose_t)extra, 1);
        for (int i = 0; i < 1000; i++)
            (void)ntsim_rng_next(&r);
        draws(42, after);
        ck_assert_msg(memcmp(before, after, sizeof before) == 0,
                      "1000 more draws of %s changed another stream",
                      ntsim_rng_purpose_name((ntsim_rng_purpose_t)extra));
    }
    for (int p = 0; p < NTSIM_RNG_PURPOSE_COUNT; p++)
        for (int q = 0; q < NTSIM_RNG_PURPOSE_COUNT; q++)
            for (uint64_t e = 0; e < 4; e++)
                ck_assert_msg(p == q || before[p][e][0] != before[q][e][0],
                              "%s and %s draw the same for entity %llu",
                              ntsim_rng_purpose_name((ntsim_rng_purpose_t)p),
                              ntsim_rng_purpose_name((ntsim_rng_purpose_t)q),
                              (unsigned long long)e);
    ck_assert_uint_ne(before[0][0][0], before[0][1][0]);
    draws(43, after);
    ck_assert_uint_ne(before[0][0][0], after[0][0][0]);
}
END_TEST

/* Each EXEC_CORE span's length is its execute's jittered device time. */
typedef struct spans {
    uint64_t start[64], length[64]; /* by exec id */
    uint64_t executes;
} spans_t;

static NRT_STATUS keep_spans(void *ctx, const nrt_sys_trace_event_t *recs, size_t n)
{
    spans_t *s = ctx;
    for (size_t i = 0; i < n; i++) {
        if (recs[i].trace_type != NRT_SYS_TRACE_EVENT_TYPE_EXEC_CORE)
            continue;
        uint64_t e = recs[i].data.exec_core.exec_id;
        ck_assert_uint_lt(e, 64);
        if (recs[i].phase == NRT_SYS_TRACE_EVENT_PHASE_START)
            s->start[e] = recs[i].timestamp_ns;
        else
            s->length[e] = recs[i].timestamp_ns - s->start[e];
        s->executes += recs[i].phase == NRT_SYS_TRACE_EVENT_PHASE_STOP;
    }
    return NRT_SUCCESS;
}

static void run_spans(const char *text, spans_t *out)
{
    ntsim_scenario_t *sc = malloc(sizeof *sc);
    ntsim_run_result_t *r = malloc(sizeof *r);
    char errors[1024];
    ck_assert_msg(ntsim_scenario_load_string("rng", text, strlen(text), sc, errors,
                                             sizeof errors) == NRT_SUCCESS, "%s", errors);
    memset(out, 0, sizeof *out);
    ntsim_sim_sink_t sink = {keep_spans, NULL, out};
    ck_assert_int_eq(ntsim_sim_run(sc, &sink, NULL, NULL, r), NRT_SUCCESS);
    free(r);
    free(sc);
    ntsim_capture_shutdown();
}

/* A model given collectives draws once more per execute (whether its TopSP
 * posts TOPSP_ERROR); every execute's jittered device time stays what it
 * was, execute by execute (with one stream for the run, each extra draw
 * shifted every later execute's jitter). */
START_TEST(test_rng_collectives_draws_change_no_execute_time)
{
    static const char plain[] = "version: 1\nname: a\nseed: 7\ncores: 1\nduration_ns: 1000000\n"
                                "host: {threads: 1, request_interval_ns: 1000}\n"
                                "models:\n  - {id: 1, exec_ns: 30000}\n";
    static const char cc[] = "version: 1\nname: b\nseed: 7\ncores: 1\nduration_ns: 1000000\n"
                             "host: {threads: 1, request_interval_ns: 1000}\n"
                             "models:\n  - {id: 1, exec_ns: 30000, collectives: true}\n";
    spans_t *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    ntsim_log_set_sink(ntsim_check_quiet_log, NULL);
    run_spans(plain, a);
    run_spans(cc, b);
    ntsim_log_set_sink(NULL, NULL);
    ck_assert_uint_gt(a->executes, 10);
    ck_assert_uint_eq(a->executes, b->executes);
    size_t distinct = 0;
    for (uint64_t e = 1; e <= a->executes; e++) {
        ck_assert_msg(a->length[e] == b->length[e], "execute %llu: %llu ns, with collectives %llu",
                      (unsigned long long)e, (unsigned long long)a->length[e],
                      (unsigned long long)b->length[e]);
        distinct += e > 1 && a->length[e] != a->length[e - 1];
    }
    ck_assert_uint_gt(distinct, 0); /* the jitter did draw */
    free(a);
    free(b);
}
END_TEST

Suite *make_rng_suite(void)
{
    Suite *s = suite_create("rng");
    TCase *tc = tcase_create("streams");
    tcase_add_test(tc, test_rng_mix_is_splitmix64);
    tcase_add_test(tc, test_rng_extra_draw_on_one_purpose_leaves_another_unchanged);
    tcase_add_test(tc, test_rng_collectives_draws_change_no_execute_time);
    suite_add_tcase(s, tc);
    return s;
}
