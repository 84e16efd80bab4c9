/*
 * conformance/testee/testee_pipe.c: the testee protocol's transport: frames on a
 * file descriptor, and a testee process spoken to over two pipes.
 *
 * Frames (testee.proto): a 4-byte little-endian length, then that many
 * bytes. Every wait is a poll() against one deadline for the whole
 * exchange, so a testee that stops reading its stdin or stops writing its
 * stdout is caught the same way: the deadline passes, the process group is
 * killed, and the verdict says so.
 *
 * The process runs `/bin/sh -c 'exec CMD'` in its own process group (so
 * that killing it reaches whatever it started: a valgrind, a wrapper
 * script), with SIGPIPE back at its default, stdin and stdout the pipes and
 * stderr the runner's.
 */
#include "testee_pipe.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
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

/* Waits for fd to be ready for `events`; false when the deadline passed. */
static bool wait_fd(int fd, short events, int64_t deadline)
{
    for (;;) {
        int64_t left = deadline < 0 ? -1 : deadline - now_ms();
        if (deadline >= 0 && left <= 0)
            return false;
        struct pollfd p = {fd, events, 0};
        int n = poll(&p, 1, left < 0 ? -1 : left > 60000 ? 60000 : (int)left);
        if (n > 0)
            return true; /* readable, writable, or hung up: read/write will say */
        if (n < 0 && errno != EINTR)
            return true; /* let the read or write report the error */
    }
}

/* --- frames ----------------------------------------------------------------------- */

/* Reads exactly n bytes; *got counts what came. */
static ntsim_frame_status_t read_exact(int fd, uint8_t *buf, size_t n, int64_t deadline,
                                       size_t *got)
{
    *got = 0;
    while (*got < n) {
        if (!wait_fd(fd, POLLIN, deadline))
            return NTSIM_FRAME_TIMEOUT;
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

static ntsim_frame_status_t write_exact(int fd, const uint8_t *buf, size_t n, int64_t deadline)
{
    size_t done = 0;
    while (done < n) {
        if (!wait_fd(fd, POLLOUT, deadline))
            return NTSIM_FRAME_TIMEOUT;
        ssize_t k = write(fd, buf + done, n - done);
        if (k > 0)
            done += (size_t)k;
        else if (k < 0 && errno != EINTR && errno != EAGAIN)
            return NTSIM_FRAME_IO_ERROR;
    }
    return NTSIM_FRAME_OK;
}

static ntsim_frame_status_t frame_read_until(int fd, int64_t deadline, uint8_t **out,
                                             size_t *len)
{
    uint8_t head[4];
    size_t got;
    *out = NULL;
    *len = 0;
    ntsim_frame_status_t st = read_exact(fd, head, sizeof head, deadline, &got);
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
    st = read_exact(fd, buf, n, deadline, &got);
    if (st != NTSIM_FRAME_OK) {
        free(buf);
        *len = got;
        return st;
    }
    *out = buf;
    return NTSIM_FRAME_OK;
}

static ntsim_frame_status_t frame_write_until(int fd, const uint8_t *buf, size_t len,
                                              int64_t deadline)
{
    if (len > NTSIM_TESTEE_MAX_FRAME)
        return NTSIM_FRAME_TOO_LONG;
    uint8_t head[4] = {(uint8_t)len, (uint8_t)(len >> 8), (uint8_t)(len >> 16),
                       (uint8_t)(len >> 24)};
    ntsim_frame_status_t st = write_exact(fd, head, sizeof head, deadline);
    return st == NTSIM_FRAME_OK ? write_exact(fd, buf, len, deadline) : st;
}

ntsim_frame_status_t ntsim_frame_read(int fd, int timeout_ms, uint8_t **out, size_t *len)
{
    return frame_read_until(fd, deadline_after(timeout_ms), out, len);
}

ntsim_frame_status_t ntsim_frame_write(int fd, const uint8_t *buf, size_t len, int timeout_ms)
{
    return frame_write_until(fd, buf, len, deadline_after(timeout_ms));
}

/* --- the process -------------------------------------------------------------------- */

static const char *signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGKILL: return "SIGKILL";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGTERM: return "SIGTERM";
    case SIGPIPE: return "SIGPIPE";
    default: return "another signal";
    }
}

/* Waits for the process to end, up to wait_ms; true with *status when it did. */
static bool reap_within(pid_t pid, int wait_ms, int *status)
{
    int64_t deadline = now_ms() + wait_ms;
    for (;;) {
        pid_t r = waitpid(pid, status, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR))
            return r == pid;
        if (now_ms() >= deadline)
            return false;
        struct timespec ten_ms = {0, 10 * 1000 * 1000};
        (void)nanosleep(&ten_ms, NULL); /* an early wake-up only shortens one wait */
    }
}

static void close_fds(ntsim_testee_t *t)
{
    if (t->to_fd >= 0)
        (void)close(t->to_fd); /* a pipe: nothing buffered to lose */
    if (t->from_fd >= 0)
        (void)close(t->from_fd);
    t->to_fd = t->from_fd = -1;
}

int ntsim_testee_pipe_stop(ntsim_testee_t *t, bool gentle)
{
    if (!t->running)
        return -1;
    int status = -1;
    if (gentle) {
        (void)close(t->to_fd); /* EOF: the testee's cue to exit */
        t->to_fd = -1;
    }
    if (!gentle || !reap_within(t->pid, (int)t->timeout_ms, &status)) {
        status = -1;
        (void)kill(-t->pid, SIGKILL); /* its group: fails only if it is gone already */
        int ignored;
        (void)reap_within(t->pid, 5000, &ignored);
    }
    close_fds(t);
    t->running = false;
    return status;
}

void ntsim_testee_describe_status(int status, char *why, size_t cap)
{
    if (WIFSIGNALED(status))
        snprintf(why, cap, "crashed (killed by signal %d, %s)", WTERMSIG(status),
                 signal_name(WTERMSIG(status)));
    else
        snprintf(why, cap, "exited with status %d", WEXITSTATUS(status));
}

/* The process ended its stdout: how it ended, into why. */
static void describe_end(ntsim_testee_t *t, char *why, size_t cap)
{
    int status = 0;
    if (!reap_within(t->pid, 1000, &status)) {
        snprintf(why, cap, "closed its stdout without exiting (killed)");
        (void)ntsim_testee_pipe_stop(t, false); /* killed: it never exited */
        return;
    }
    ntsim_testee_describe_status(status, why, cap);
    close_fds(t);
    t->running = false;
}

/* In the child: only async-signal-safe calls (the runner may have threads). */
static void child_exec(const char *line, int in_fd, int out_fd)
{
    (void)setpgid(0, 0);
    (void)signal(SIGPIPE, SIG_DFL); /* ignored in the runner; exec would keep that */
    if (dup2(in_fd, STDIN_FILENO) < 0 || dup2(out_fd, STDOUT_FILENO) < 0)
        _exit(127);
    execl("/bin/sh", "sh", "-c", line, (char *)NULL);
    _exit(127);
}

static void close_pair(int p[2])
{
    (void)close(p[0]); /* fresh pipes: nothing to lose */
    (void)close(p[1]);
}

NRT_STATUS ntsim_testee_pipe_start(ntsim_testee_t *t, char *why, size_t cap)
{
    size_t n = strlen(t->command) + 6;
    char *line = malloc(n);
    if (line == NULL) {
        snprintf(why, cap, "out of memory");
        return NRT_RESOURCE;
    }
    snprintf(line, n, "exec %s", t->command);
    int in[2], out[2];
    if (pipe(in) != 0) {
        snprintf(why, cap, "pipe: %s", strerror(errno));
        free(line);
        return NRT_FAILURE;
    }
    if (pipe(out) != 0) {
        snprintf(why, cap, "pipe: %s", strerror(errno));
        close_pair(in);
        free(line);
        return NRT_FAILURE;
    }
    pid_t pid = fork();
    if (pid == 0) {
        (void)close(in[1]);
        (void)close(out[0]);
        child_exec(line, in[0], out[1]);
    }
    free(line);
    if (pid < 0) {
        snprintf(why, cap, "fork: %s", strerror(errno));
        close_pair(in);
        close_pair(out);
        return NRT_FAILURE;
    }
    (void)setpgid(pid, pid); /* also here: no race with a kill before the child's own */
    (void)close(in[0]);
    (void)close(out[1]);
    t->pid = pid;
    t->to_fd = in[1];
    t->from_fd = out[0];
    /* Non-blocking, close-on-exec: a later testee must not inherit these. */
    (void)fcntl(t->to_fd, F_SETFL, O_NONBLOCK);
    (void)fcntl(t->from_fd, F_SETFL, O_NONBLOCK);
    (void)fcntl(t->to_fd, F_SETFD, FD_CLOEXEC);
    (void)fcntl(t->from_fd, F_SETFD, FD_CLOEXEC);
    t->running = true;
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_testee_pipe_roundtrip(ntsim_testee_t *t, const uint8_t *req, size_t len,
                                       uint8_t **resp, size_t *resp_len, char *why, size_t cap)
{
    int64_t deadline = now_ms() + t->timeout_ms;
    ntsim_frame_status_t st = frame_write_until(t->to_fd, req, len, deadline);
    if (st == NTSIM_FRAME_OK)
        st = frame_read_until(t->from_fd, deadline, resp, resp_len);
    switch (st) {
    case NTSIM_FRAME_OK:
        return NRT_SUCCESS;
    case NTSIM_FRAME_EOF:
    case NTSIM_FRAME_TRUNCATED:
    case NTSIM_FRAME_IO_ERROR: /* EPIPE: it closed its stdin, or died */
        describe_end(t, why, cap);
        return NRT_FAILURE;
    case NTSIM_FRAME_TIMEOUT:
        snprintf(why, cap, "did not answer within %u ms (killed)", t->timeout_ms);
        break;
    case NTSIM_FRAME_TOO_LONG:
        snprintf(why, cap, "wrote a malformed frame: its length %zu is above the limit of %zu",
                 *resp_len, NTSIM_TESTEE_MAX_FRAME);
        break;
    case NTSIM_FRAME_NO_MEMORY:
        snprintf(why, cap, "sent a frame of %zu bytes the runner has no memory for",
                 *resp_len);
        break;
    }
    (void)ntsim_testee_pipe_stop(t, false); /* killed: its status says nothing */
    return NRT_FAILURE;
}
