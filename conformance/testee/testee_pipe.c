/*
 * conformance/testee/testee_pipe.c: the testee protocol's transport: frames on a
 * file descriptor, and one exchange with a testee process over its two pipes
 * (the process itself: testee_proc.c).
 *
 * Frames (testee.proto): a 4-byte little-endian length, then that many
 * bytes. Every wait is a poll() against one deadline for the whole
 * exchange, so a testee that stops reading its stdin or stops writing its
 * stdout is caught the same way: the deadline passes, the process group is
 * killed, and the verdict says so. While it waits on a testee process, the
 * runner wakes every 50 ms to ask whether the process it started is still
 * there: one that died is reported at once, even when a helper it left
 * behind still holds the pipes (no end of file would ever come).
 */
#include "testee_pipe.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "testee_int.h"

/* --- deadlines ------------------------------------------------------------------ */

static int64_t now_ms(void)
{
    struct timespec ts;
    (void)clock_gettime(CLOCK_MONOTONIC, &ts); /* CLOCK_MONOTONIC always exists on Linux */
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t deadline_after(int timeout_ms)
{
    return timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
}

typedef enum wait_result { WAIT_READY, WAIT_TIMEOUT, WAIT_GONE } wait_result_t;

/* How often a wait on a testee process looks at the process, in ms. */
enum { WATCH_SLICE_MS = 50 };

/* Waits for fd to be ready for `events` until the deadline. With a testee
 * (`watch`, NULL for a bare descriptor), WAIT_GONE when the process it
 * started has ended and nothing is ready on fd. */
static wait_result_t wait_fd(int fd, short events, int64_t deadline, ntsim_testee_t *watch)
{
    for (;;) {
        int64_t left = deadline < 0 ? -1 : deadline - now_ms();
        if (deadline >= 0 && left <= 0)
            return WAIT_TIMEOUT;
        int64_t cap = watch != NULL ? WATCH_SLICE_MS : 60000;
        struct pollfd p = {fd, events, 0};
        int n = poll(&p, 1, left < 0 || left > cap ? (int)cap : (int)left);
        if (n > 0)
            return WAIT_READY; /* readable, writable, or hung up: read/write will say */
        if (n < 0 && errno != EINTR)
            return WAIT_READY; /* let the read or write report the error */
        if (watch != NULL && ntsim_testee_leader_ended(watch)) {
            /* What it wrote before it ended still counts. */
            struct pollfd last = {fd, events, 0};
            return poll(&last, 1, 0) > 0 ? WAIT_READY : WAIT_GONE;
        }
    }
}

/* --- frames ----------------------------------------------------------------------- */

/* Reads exactly n bytes; *got counts what came. */
static ntsim_frame_status_t read_exact(int fd, uint8_t *buf, size_t n, int64_t deadline,
                                       ntsim_testee_t *watch, size_t *got)
{
    *got = 0;
    while (*got < n) {
        wait_result_t w = wait_fd(fd, POLLIN, deadline, watch);
        if (w != WAIT_READY)
            return w == WAIT_TIMEOUT ? NTSIM_FRAME_TIMEOUT : NTSIM_FRAME_TRUNCATED;
        ssize_t k = read(fd, buf + *got, n - *got);
        if (k > 0)
            *got += (size_t)k;
        else if (k == 0)
            return NTSIM_FRAME_TRUNCATED;
        else if (errno != EINTR && errno != EAGAIN)
            return NTSIM_FRAME_IO_ERROR;
    }
    return NTSIM_FRAME_OK;
}

static ntsim_frame_status_t write_exact(int fd, const uint8_t *buf, size_t n, int64_t deadline,
                                        ntsim_testee_t *watch)
{
    size_t done = 0;
    while (done < n) {
        wait_result_t w = wait_fd(fd, POLLOUT, deadline, watch);
        if (w != WAIT_READY)
            return w == WAIT_TIMEOUT ? NTSIM_FRAME_TIMEOUT : NTSIM_FRAME_IO_ERROR;
        ssize_t k = write(fd, buf + done, n - done);
        if (k > 0)
            done += (size_t)k;
        else if (k < 0 && errno != EINTR && errno != EAGAIN)
            return NTSIM_FRAME_IO_ERROR;
    }
    return NTSIM_FRAME_OK;
}

static ntsim_frame_status_t frame_read_until(int fd, int64_t deadline, ntsim_testee_t *watch,
                                             uint8_t **out, size_t *len)
{
    uint8_t head[4];
    size_t got;
    *out = NULL;
    *len = 0;
    ntsim_frame_status_t st = read_exact(fd, head, sizeof head, deadline, watch, &got);
    if (st == NTSIM_FRAME_TRUNCATED && got == 0)
        return NTSIM_FRAME_EOF;
    if (st != NTSIM_FRAME_OK) {
        *len = got;
        return st;
    }
    size_t n = (size_t)head[0] | (size_t)head[1] << 8 | (size_t)head[2] << 16 |
               (size_t)head[3] << 24;
    *len = n;
    if (n > NTSIM_TESTEE_MAX_FRAME)
        return NTSIM_FRAME_TOO_LONG;
    uint8_t *buf = malloc(n ? n : 1);
    if (buf == NULL)
        return NTSIM_FRAME_NO_MEMORY;
    st = read_exact(fd, buf, n, deadline, watch, &got);
    if (st != NTSIM_FRAME_OK) {
        free(buf);
        *len = got;
        return st;
    }
    *out = buf;
    return NTSIM_FRAME_OK;
}

static ntsim_frame_status_t frame_write_until(int fd, const uint8_t *buf, size_t len,
                                              int64_t deadline, ntsim_testee_t *watch)
{
    if (len > NTSIM_TESTEE_MAX_FRAME)
        return NTSIM_FRAME_TOO_LONG;
    uint8_t head[4] = {(uint8_t)len, (uint8_t)(len >> 8), (uint8_t)(len >> 16),
                       (uint8_t)(len >> 24)};
    ntsim_frame_status_t st = write_exact(fd, head, sizeof head, deadline, watch);
    return st == NTSIM_FRAME_OK ? write_exact(fd, buf, len, deadline, watch) : st;
}

ntsim_frame_status_t ntsim_frame_read(int fd, int timeout_ms, uint8_t **out, size_t *len)
{
    return frame_read_until(fd, deadline_after(timeout_ms), NULL, out, len);
}

ntsim_frame_status_t ntsim_frame_write(int fd, const uint8_t *buf, size_t len, int timeout_ms)
{
    return frame_write_until(fd, buf, len, deadline_after(timeout_ms), NULL);
}

/* --- one exchange with a testee process ------------------------------------------- */

NRT_STATUS ntsim_testee_pipe_roundtrip(ntsim_testee_t *t, const uint8_t *req, size_t len,
                                       uint8_t **resp, size_t *resp_len, char *why, size_t cap)
{
    int64_t deadline = now_ms() + t->timeout_ms;
    t->timed_out = false;
    ntsim_testee_catch_end_signals(); /* ours again, should Check have put its own */
    ntsim_frame_status_t st = frame_write_until(t->to_fd, req, len, deadline, t);
    if (st == NTSIM_FRAME_OK)
        st = frame_read_until(t->from_fd, deadline, t, resp, resp_len);
    switch (st) {
    case NTSIM_FRAME_OK:
        return NRT_SUCCESS;
    case NTSIM_FRAME_EOF:
    case NTSIM_FRAME_TRUNCATED:
    case NTSIM_FRAME_IO_ERROR: /* EPIPE: it closed its stdin, or died */
        ntsim_testee_describe_end(t, why, cap);
        return NRT_FAILURE;
    case NTSIM_FRAME_TIMEOUT:
        snprintf(why, cap, "did not answer within %u ms (killed)", t->timeout_ms);
        t->timed_out = true;
        break;
    case NTSIM_FRAME_TOO_LONG:
        snprintf(why, cap, "wrote a malformed frame: its length %zu is above the limit of %zu",
                 *resp_len, NTSIM_TESTEE_MAX_FRAME);
        break;
    case NTSIM_FRAME_NO_MEMORY:
        snprintf(why, cap, "sent a frame of %zu bytes the runner ran out of memory reading",
                 *resp_len);
        break;
    }
    (void)ntsim_testee_pipe_stop(t, false); /* killed: its status says nothing */
    return NRT_FAILURE;
}
