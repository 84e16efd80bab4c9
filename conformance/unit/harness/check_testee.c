/*
 * conformance/unit/harness/check_testee.c: the testee protocol's transport and verdicts
 * (testee.h, testee_pipe.h, testee_engine.h): frames and their limits, the
 * built-in handler's hello and errors, a testee process answering byte for
 * byte as the in-process one does, and what the runner says of a testee
 * process that crashes, hangs, cannot start or keeps failing to start (the
 * process's `ntsim testee --break=...` from --ntsim). The end-to-end runs
 * (broken testees through check_ntsim) are conformance/cli/testee_check.sh's.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check_suites.h"
#include "testee.h"
#include "testee_engine.h"
#include "testee_int.h"
#include "testee_pipe.h"

/* A string is compared with its length: a NUL inside one, at any depth, is
 * found and named; a NUL in bytes (a record) is no string's. */
START_TEST(test_reply_string_with_a_nul_is_found_where_it_is)
{
    NtsimTestee__LayoutField f0 = NTSIM_TESTEE__LAYOUT_FIELD__INIT;
    NtsimTestee__LayoutField f1 = NTSIM_TESTEE__LAYOUT_FIELD__INIT;
    f0.name = (char *)"cpu_timestamp_ns";
    f0.type = (char *)"uint64";
    f1.name = (char *)"nc_timestamp_nX";
    f1.type = (char *)"uint64";
    NtsimTestee__LayoutField *fields[] = {&f0, &f1};
    NtsimTestee__LayoutReply l = NTSIM_TESTEE__LAYOUT_REPLY__INIT;
    l.n_fields = 2;
    l.fields = fields;
    NtsimTestee__Response r = NTSIM_TESTEE__RESPONSE__INIT;
    r.id = 2;
    r.body_case = NTSIM_TESTEE__RESPONSE__BODY_LAYOUT;
    r.layout = &l;
    size_t len = 0;
    uint8_t *bytes = ntsim_testee_pack(&r.base, &len);
    ck_assert_ptr_nonnull(bytes);
    char where[128];
    ck_assert(!ntsim_testee_nul_string(&ntsim_testee__response__descriptor, bytes, len, where,
                                       sizeof where));
    uint8_t *x = memchr(bytes, 'X', len);
    ck_assert_ptr_nonnull(x);
    *x = '\0';
    ck_assert(ntsim_testee_nul_string(&ntsim_testee__response__descriptor, bytes, len, where,
                                      sizeof where));
    ck_assert_str_eq(where, "layout.fields[1].name (byte 14 of 15)");
    free(bytes);
}
END_TEST

/* A --testee command is exec'd where that keeps it the process the runner
 * starts (after its assignments), and run as written when it is more than
 * one simple command. */
START_TEST(test_testee_command_is_execd_only_when_simple)
{
    static const struct {
        const char *command;
        long at;
    } cases[] = {
        {"build/ntsim testee", 0},
        {"  FOO=1 BAR='a b' cmd x", 18},
        {"A_1=\"x;y\" cmd 'a;b' \"c|d\" e\\;f", 10},
        {"cmd 2>&1 >log <in", 0},
        {"cmd $(cat args) $((1+2))", 0},
        {"exec cmd", 0},
        {"valgrind --error-exitcode=9 cmd", 0},
        {"cd d && cmd", -1},
        {"ulimit -v 100; cmd", -1},
        {"cmd | tee log", -1},
        {"cmd &", -1},
        {"(cmd)", -1},
        {"{ cmd; }", -1},
        {"if true; then cmd; fi", -1},
        {"! cmd", -1},
        {"cmd `x`", -1},
        {"cmd\nother", -1},
        {"FOO=1", -1},
        {"", -1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ck_assert_msg(ntsim__testee_exec_point(cases[i].command) == cases[i].at,
                      "'%s': %ld, want %ld", cases[i].command,
                      ntsim__testee_exec_point(cases[i].command), cases[i].at);
}
END_TEST

/* --- frames ------------------------------------------------------------------------ */

START_TEST(test_frame_roundtrip_eof_and_truncation)
{
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    ck_assert_int_eq(ntsim_frame_write(p[1], (const uint8_t *)"abc", 3, 1000), NTSIM_FRAME_OK);
    uint8_t *got = NULL;
    size_t len = 0;
    ck_assert_int_eq(ntsim_frame_read(p[0], 1000, &got, &len), NTSIM_FRAME_OK);
    ck_assert_uint_eq(len, 3);
    ck_assert_int_eq(memcmp(got, "abc", 3), 0);
    free(got);
    /* Two bytes of a header, then the end: truncated, with what came. */
    ck_assert_int_eq(write(p[1], "\x05\x00", 2), 2);
    ck_assert_int_eq(close(p[1]), 0);
    ck_assert_int_eq(ntsim_frame_read(p[0], 1000, &got, &len), NTSIM_FRAME_TRUNCATED);
    ck_assert_uint_eq(len, 2);
    ck_assert_ptr_null(got);
    ck_assert_int_eq(ntsim_frame_read(p[0], 1000, &got, &len), NTSIM_FRAME_EOF);
    ck_assert_int_eq(close(p[0]), 0);
}
END_TEST

START_TEST(test_frame_too_long_and_timeout)
{
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    uint8_t *got = NULL;
    size_t len = 0;
    struct timespec t0, t1;
    ck_assert_int_eq(clock_gettime(CLOCK_MONOTONIC, &t0), 0);
    ck_assert_int_eq(ntsim_frame_read(p[0], 50, &got, &len), NTSIM_FRAME_TIMEOUT);
    ck_assert_int_eq(clock_gettime(CLOCK_MONOTONIC, &t1), 0);
    long ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
    ck_assert_int_ge(ms, 45);
    ck_assert_int_lt(ms, 2000);
    /* 0x04000001 bytes: one more than the 64 MiB limit. */
    ck_assert_int_eq(write(p[1], "\x01\x00\x00\x04", 4), 4);
    ck_assert_int_eq(ntsim_frame_read(p[0], 1000, &got, &len), NTSIM_FRAME_TOO_LONG);
    ck_assert_uint_eq(len, NTSIM_TESTEE_MAX_FRAME + 1);
    ck_assert_ptr_null(got);
    ck_assert_int_eq(close(p[0]) | close(p[1]), 0);
}
END_TEST

/* A reply is read within NTSIM_TESTEE_REPLY_BUDGET: 3 million unknown fields
 * (9 MB of `c0 3e 00`) would take protobuf-c 96 MB for its scan alone and
 * 24 bytes and a block each; past the budget the verdict says out of memory,
 * and a frame that is no Response is still a malformed one. */
START_TEST(test_reply_is_read_within_its_budget)
{
    enum { N = 3000000 };
    uint8_t *bytes = malloc(2 + 3 * (size_t)N);
    ck_assert_ptr_nonnull(bytes);
    bytes[0] = 0x08; /* id: 1 */
    bytes[1] = 0x01;
    for (size_t i = 0; i < N; i++)
        memcpy(bytes + 2 + 3 * i, "\xc0\x3e\x00", 3);
    char why[256] = "";
    ck_assert_ptr_null(ntsim_testee_reply_unpack(bytes, 2 + 3 * (size_t)N, why, sizeof why));
    ck_assert_str_eq(why, "sent a reply of 9000002 bytes that needs more than the runner's "
                          "128 MiB to read: out of memory");
    /* 1000 of them fit; they are kept as protobuf keeps unknown fields. */
    NtsimTestee__Response *m = ntsim_testee_reply_unpack(bytes, 2 + 3 * 1000, why, sizeof why);
    ck_assert_ptr_nonnull(m);
    ck_assert_uint_eq(m->id, 1);
    ck_assert_uint_eq(m->base.n_unknown_fields, 1000);
    ntsim_testee_reply_free(m);
    ck_assert_ptr_null(ntsim_testee_reply_unpack((const uint8_t *)"\xff\xff", 2, why, sizeof why));
    ck_assert_str_eq(why, "wrote a malformed frame: 2 bytes that are not a Response");
    free(bytes);
}
END_TEST

/* --- the built-in handler ------------------------------------------------------------ */

START_TEST(test_local_testee_says_hello_with_every_kind_and_capability)
{
    ntsim_testee_t *t = ntsim_testee_builtin();
    ck_assert_str_eq(ntsim_testee_name(t), "ntsim 0.1.0");
    ck_assert_ptr_null(ntsim_testee_command(t));
    for (size_t k = 0; ntsim_testee_kind_names[k] != NULL; k++)
        ck_assert_msg(ntsim_testee_answers(t, ntsim_testee_kind_names[k]), "kind %s",
                      ntsim_testee_kind_names[k]);
    ck_assert(!ntsim_testee_answers(t, "scenario"));
    ck_assert(!ntsim_testee_answers(t, "decode"));
    ck_assert_uint_eq(ntsim_testee_caps(t), NTSIM_TESTEE_CAP_ALL);
    ck_assert(ntsim_testee_alive(t));
}
END_TEST

/* The handler's answer to a request, unpacked. */
static NtsimTestee__Response *serve(const NtsimTestee__Request *req)
{
    size_t len = 0, rlen = 0;
    uint8_t *bytes = ntsim_testee_pack(&req->base, &len), *resp = NULL;
    ck_assert_ptr_nonnull(bytes);
    ck_assert_int_eq(ntsim_testee_engine_serve(bytes, len, &resp, &rlen), NRT_SUCCESS);
    free(bytes);
    char why[256] = "";
    NtsimTestee__Response *m = ntsim_testee_reply_unpack(resp, rlen, why, sizeof why);
    free(resp);
    ck_assert_msg(m != NULL, "%s", why);
    return m;
}

static void assert_error(NtsimTestee__Response *m, uint64_t id, const char *text)
{
    ck_assert_uint_eq(m->id, id);
    ck_assert_int_eq(m->body_case, NTSIM_TESTEE__RESPONSE__BODY_ERROR);
    ck_assert_msg(strstr(m->error->message, text) != NULL, "error '%s' lacks '%s'",
                  m->error->message, text);
    ntsim_testee_reply_free(m);
}

START_TEST(test_engine_answers_what_it_cannot_do_with_an_error)
{
    static const uint8_t garbage[] = {0xff, 0xff, 0xff, 0xff, 0xff};
    uint8_t *resp = NULL;
    size_t rlen = 0;
    ck_assert_int_eq(ntsim_testee_engine_serve(garbage, sizeof garbage, &resp, &rlen),
                     NRT_SUCCESS);
    char why[256] = "";
    NtsimTestee__Response *m = ntsim_testee_reply_unpack(resp, rlen, why, sizeof why);
    free(resp);
    ck_assert_msg(m != NULL, "%s", why);
    assert_error(m, 0, "the request is not a Request message");

    NtsimTestee__ApiCall call = NTSIM_TESTEE__API_CALL__INIT;
    call.call = (char *)"stop";
    NtsimTestee__ApiRequest api = NTSIM_TESTEE__API_REQUEST__INIT;
    api.step_case = NTSIM_TESTEE__API_REQUEST__STEP_CALL;
    api.call = &call;
    NtsimTestee__Request req = NTSIM_TESTEE__REQUEST__INIT;
    req.id = 7;
    req.body_case = NTSIM_TESTEE__REQUEST__BODY_API;
    req.api = &api;
    assert_error(serve(&req), 7, "a call outside a session: send begin first");

    NtsimTestee__Session session = NTSIM_TESTEE__SESSION__INIT;
    NtsimTestee__Emit emit = NTSIM_TESTEE__EMIT__INIT, *emits[1] = {&emit};
    uint8_t short_data[39] = {0};
    emit.has_data = 1;
    emit.data.data = short_data;
    emit.data.len = sizeof short_data;
    NtsimTestee__RecordRequest rec = NTSIM_TESTEE__RECORD_REQUEST__INIT;
    rec.session = &session;
    rec.emits = emits;
    rec.n_emits = 1;
    req.id = 8;
    req.body_case = NTSIM_TESTEE__REQUEST__BODY_RECORD;
    req.record = &rec;
    assert_error(serve(&req), 8, "data has 39 bytes, not the union's 40");
}
END_TEST

/* --- testee processes ------------------------------------------------------------------- */

static void layout_request(NtsimTestee__Request *req, NtsimTestee__LayoutRequest *q)
{
    ntsim_testee__layout_request__init(q);
    q->c_type = (char *)"struct nrt_sys_trace_event_data_hw_notify";
    ntsim_testee__request__init(req);
    req->body_case = NTSIM_TESTEE__REQUEST__BODY_LAYOUT;
    req->layout = q;
}

/* `ntsim testee ARGS` (the --ntsim binary) with a timeout in ms. */
static ntsim_testee_t *spawn_ntsim(const char *args, unsigned timeout_ms)
{
    ck_assert_msg(access(ntsim_check_ntsim_path, X_OK) == 0,
                  "%s: no ntsim command to run as a testee (check_ntsim --ntsim PATH)",
                  ntsim_check_ntsim_path);
    char cmd[1024], why[512] = "";
    snprintf(cmd, sizeof cmd, "%s testee %s", ntsim_check_ntsim_path, args);
    ntsim_testee_t *t = NULL;
    ck_assert_msg(ntsim_testee_spawn(cmd, timeout_ms, &t, why, sizeof why) == NRT_SUCCESS,
                  "%s: %s", cmd, why);
    return t;
}

START_TEST(test_process_answers_byte_for_byte_as_in_process)
{
    ntsim_testee_t *t = spawn_ntsim("", 10000);
    ck_assert_str_eq(ntsim_testee_name(t), "ntsim 0.1.0");
    ck_assert_uint_eq(ntsim_testee_caps(t), NTSIM_TESTEE_CAP_ALL);
    NtsimTestee__Request req;
    NtsimTestee__LayoutRequest q;
    layout_request(&req, &q);
    char why[512];
    NtsimTestee__Response *far = NULL, *near = NULL;
    ck_assert_int_eq(ntsim_testee_call(t, &req, &far, why, sizeof why), NRT_SUCCESS);
    ck_assert_uint_eq(far->id, 2); /* hello was 1 */
    ck_assert_int_eq(ntsim_testee_call(ntsim_testee_builtin(), &req, &near, why, sizeof why),
                     NRT_SUCCESS);
    ck_assert(far->layout->found);
    ck_assert_uint_eq(far->layout->size, 40);
    size_t lf = 0, ln = 0;
    uint8_t *bf = ntsim_testee_pack(&far->layout->base, &lf);
    uint8_t *bn = ntsim_testee_pack(&near->layout->base, &ln);
    ck_assert_uint_eq(lf, ln);
    ck_assert_int_eq(memcmp(bf, bn, lf), 0);
    free(bf);
    free(bn);
    ntsim_testee_reply_free(far);
    ntsim_testee_reply_free(near);
    ntsim_testee_free(t);
}
END_TEST

START_TEST(test_process_that_crashes_is_reported_and_restarted)
{
    ntsim_testee_t *t = spawn_ntsim("--break=crash=3", 10000);
    NtsimTestee__Request req;
    NtsimTestee__LayoutRequest q;
    layout_request(&req, &q);
    char why[512];
    NtsimTestee__Response *resp = NULL;
    ck_assert_int_eq(ntsim_testee_call(t, &req, &resp, why, sizeof why), NRT_SUCCESS);
    ntsim_testee_reply_free(resp);
    ck_assert_int_eq(ntsim_testee_call(t, &req, &resp, why, sizeof why), NRT_FAILURE);
    ck_assert_ptr_null(resp);
    ck_assert_str_eq(why, "crashed (killed by signal 11, SIGSEGV) while answering request 3 "
                          "(layout); restarted for the next request");
    ck_assert(!ntsim_testee_alive(t));
    ck_assert_int_eq(ntsim_testee_call(t, &req, &resp, why, sizeof why), NRT_SUCCESS);
    ck_assert_uint_eq(resp->id, 2); /* a new process: hello was 1 again */
    ck_assert(resp->layout->found);
    ck_assert_uint_eq(ntsim_testee_starts(t), 2);
    ntsim_testee_reply_free(resp);
    ntsim_testee_free(t);
}
END_TEST

START_TEST(test_process_that_hangs_is_killed_at_the_timeout)
{
    ntsim_testee_t *t = spawn_ntsim("--break=hang=2", 10000);
    ntsim_testee_set_timeout(t, 200); /* the hello is not what this pins */
    NtsimTestee__Request req;
    NtsimTestee__LayoutRequest q;
    layout_request(&req, &q);
    char why[512];
    NtsimTestee__Response *resp = NULL;
    time_t before = time(NULL);
    ck_assert_int_eq(ntsim_testee_call(t, &req, &resp, why, sizeof why), NRT_FAILURE);
    ck_assert_int_le(time(NULL) - before, 3);
    ck_assert_str_eq(why, "did not answer within 200 ms (killed) while answering request 2 "
                          "(layout); restarted for the next request");
    ntsim_testee_free(t);
}
END_TEST

START_TEST(test_process_that_cannot_start_says_why)
{
    ntsim_testee_t *t = NULL;
    char why[512];
    ck_assert_int_eq(ntsim_testee_spawn("kill -SEGV $$", 2000, &t, why, sizeof why),
                     NRT_FAILURE);
    ck_assert_ptr_null(t);
    ck_assert_str_eq(why, "its hello failed: it crashed (killed by signal 11, SIGSEGV)");
    /* It stays alive after its garbage (cat until its stdin closes), so the
     * frame, not its exit, is what the runner sees first: with a bare echo
     * the exit could win the race. (The runner runs `exec COMMAND`, hence
     * the inner sh: an exec'd echo would end the line there.) */
    ck_assert_int_eq(ntsim_testee_spawn("sh -c 'echo not-a-frame; exec cat >/dev/null'", 2000, &t,
                                        why, sizeof why),
                     NRT_FAILURE);
    ck_assert_str_eq(why, "its hello failed: it wrote a malformed frame: its length 762605422 "
                          "is above the limit of 67108864");
}
END_TEST

/* Started once; every start after it fails: after three, no more tries. */
START_TEST(test_process_is_given_up_after_three_failed_starts)
{
    char dir[] = "/tmp/ntsim-testee-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char cmd[1024], why[512], once[512];
    snprintf(cmd, sizeof cmd, "sh -c 'test -e %s/once && exit 1; : >%s/once; exec %s testee "
                              "--break=exit=2'",
             dir, dir, ntsim_check_ntsim_path);
    ntsim_testee_t *t = NULL;
    ck_assert_int_eq(ntsim_testee_spawn(cmd, 2000, &t, why, sizeof why), NRT_SUCCESS);
    NtsimTestee__Request req;
    NtsimTestee__LayoutRequest q;
    layout_request(&req, &q);
    NtsimTestee__Response *resp = NULL;
    ck_assert_int_eq(ntsim_testee_call(t, &req, &resp, why, sizeof why), NRT_FAILURE);
    ck_assert_str_eq(why, "exited with status 3 while answering request 2 (layout); restarted "
                          "for the next request");
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(ntsim_testee_call(t, &req, &resp, why, sizeof why), NRT_FAILURE);
        ck_assert_str_eq(why, "could not be restarted: its hello failed: it exited with "
                              "status 1");
    }
    ck_assert_int_eq(ntsim_testee_call(t, &req, &resp, why, sizeof why), NRT_FAILURE);
    ck_assert_str_eq(why, "is not running: its last 3 starts failed (its hello failed: it "
                          "exited with status 1)");
    ck_assert_uint_eq(ntsim_testee_starts(t), 4);
    ntsim_testee_free(t);
    snprintf(once, sizeof once, "%s/once", dir);
    ck_assert_int_eq(unlink(once), 0);
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

Suite *make_testee_suite(void)
{
    Suite *s = suite_create("testee");
    TCase *tc = tcase_create("testee_protocol");
    tcase_add_test(tc, test_frame_roundtrip_eof_and_truncation);
    tcase_add_test(tc, test_frame_too_long_and_timeout);
    tcase_add_test(tc, test_reply_is_read_within_its_budget);
    tcase_add_test(tc, test_reply_string_with_a_nul_is_found_where_it_is);
    tcase_add_test(tc, test_testee_command_is_execd_only_when_simple);
    tcase_add_test(tc, test_local_testee_says_hello_with_every_kind_and_capability);
    tcase_add_test(tc, test_engine_answers_what_it_cannot_do_with_an_error);
    suite_add_tcase(s, tc);
    TCase *proc = tcase_create("testee_process");
    tcase_set_timeout(proc, 30); /* spawns, and waits out a timeout on purpose */
    tcase_add_test(proc, test_process_answers_byte_for_byte_as_in_process);
    tcase_add_test(proc, test_process_that_crashes_is_reported_and_restarted);
    tcase_add_test(proc, test_process_that_hangs_is_killed_at_the_timeout);
    tcase_add_test(proc, test_process_that_cannot_start_says_why);
    tcase_add_test(proc, test_process_is_given_up_after_three_failed_starts);
    suite_add_tcase(s, proc);
    return s;
}
