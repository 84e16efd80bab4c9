/*
 * conformance/testee/testee_proc.c: a testee process's life: started in its
 * own process group with nothing of the runner's but its two pipes, watched
 * while it answers, and ended with everything it started.
 *
 * What the runner holds to:
 *   - The child keeps file descriptors 0 (the request pipe), 1 (the reply
 *     pipe) and 2 (the runner's stderr) and no other: were it to keep the
 *     runner's ends of the pipes (or any other descriptor of the runner's),
 *     a testee that closes its stdout would never read as closed.
 *   - The testee is the process the runner starts (its *leader*): when it
 *     ends, the testee has ended, whoever still holds its pipes (a helper
 *     it left behind). testee_pipe.c asks ntsim_testee_leader_ended between
 *     short waits, so a leader that crashes is reported at once.
 *   - It runs in its own process group. Every stop, gentle or not, ends with
 *     SIGKILL to that group, so a helper left behind does not outlive it.
 *   - On Linux the runner is a child subreaper (prctl PR_SET_CHILD_SUBREAPER):
 *     a process that left the group (setsid, setpgid) is reparented to the
 *     runner when its parent dies, not to init. After the group is ended,
 *     every child of the runner outside the runner's own process group that
 *     is not another live testee is killed and reaped, round after round
 *     (a killed process's own children come to the runner in turn), for at
 *     most 2 s. Out of reach: a process that is no descendant of the testee
 *     (one started through a service manager or another daemon), one that
 *     joined the runner's own process group (setpgid within the session),
 *     and, on a system without the prctl, any process that left the group.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "output.h"
#include "testee_int.h"

/* --- waiting for a process ---------------------------------------------------------- */

static int64_t proc_now_ms(void)
{
    struct timespec ts;
    (void)clock_gettime(CLOCK_MONOTONIC, &ts); /* CLOCK_MONOTONIC always exists on Linux */
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000 * 1000};
    (void)nanosleep(&ts, NULL); /* an early wake-up only shortens one wait */
}

/* Waits for the process to end, up to wait_ms; true with *status when it did. */
static bool reap_within(pid_t pid, int wait_ms, int *status)
{
    int64_t deadline = proc_now_ms() + wait_ms;
    for (;;) {
        pid_t r = waitpid(pid, status, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR))
            return r == pid;
        if (proc_now_ms() >= deadline)
            return false;
        sleep_ms(10);
    }
}

bool ntsim_testee_leader_ended(ntsim_testee_t *t)
{
    if (t->exited)
        return true;
    int status;
    if (waitpid(t->pid, &status, WNOHANG) != t->pid)
        return false;
    t->exited = true;
    t->exit_status = status;
    return true;
}

/* --- the live testees, which a sweep must spare ------------------------------------- */

/* Read by the signal handler below: sig_atomic_t, so that it never sees a
 * pid half written. */
_Static_assert(sizeof(sig_atomic_t) >= sizeof(pid_t), "a pid fits a sig_atomic_t");
enum { LIVE_MAX = 32 };
static volatile sig_atomic_t g_live[LIVE_MAX];

static void live_set(pid_t old, pid_t now)
{
    for (size_t i = 0; i < LIVE_MAX; i++)
        if (g_live[i] == old) {
            g_live[i] = now;
            return;
        }
}

static bool live(pid_t pid)
{
    for (size_t i = 0; i < LIVE_MAX; i++)
        if (g_live[i] == pid)
            return true;
    return false;
}

/* --- the runner's own end ------------------------------------------------------------ */

/* SIGINT, SIGTERM, SIGHUP or SIGQUIT to the runner: every live testee's
 * group is killed and the files being written are removed, their earlier
 * versions kept (D-OUTPUT; async-signal-safe: kill and unlink only), then the signal is
 * raised again with its default action, so that the runner ends as it
 * would have (its status says which signal). Without this, Ctrl-C never
 * reaches a testee (it is in a group of its own) and it would run on,
 * reparented to init. */
static void on_end_signal(int sig)
{
    for (size_t i = 0; i < LIVE_MAX; i++)
        if (g_live[i] > 0)
            (void)kill(-(pid_t)g_live[i], SIGKILL);
    ntsim_output_remove_temps();
    (void)signal(sig, SIG_DFL);
    (void)raise(sig);
}

/* The handler above for each end signal the runner does not ignore (one
 * ignored, as SIGINT in a shell's background job, ends nothing). Called at
 * every start and exchange: Check installs its own SIGINT and SIGTERM
 * handlers while its suites run, which kill the runner's own process group
 * (the shell that started it included) and never reach a testee. */
void ntsim_testee_catch_end_signals(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old, sa;
        if (sigaction(sigs[i], NULL, &old) != 0 || (old.sa_flags & SA_SIGINFO) != 0 ||
            old.sa_handler == SIG_IGN || old.sa_handler == on_end_signal)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_end_signal;
        (void)sigemptyset(&sa.sa_mask);
        (void)sigaction(sigs[i], &sa, NULL); /* only fails for an invalid signal */
    }
}

/* --- ending a group, and what escaped it ----------------------------------------------- */

#ifdef __linux__
/* ppid and pgrp of /proc/<name>/stat; false when it is gone or unreadable.
 * The command name (field 2) may hold spaces and ')': the fields after it
 * start after its last ')'. */
static bool proc_stat(const char *name, pid_t *ppid, pid_t *pgrp)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%s/stat", name);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return false;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    (void)close(fd); /* read-only: nothing to lose */
    if (n <= 0)
        return false;
    buf[n] = '\0';
    char *close_paren = strrchr(buf, ')');
    int a, b;
    char state;
    if (close_paren == NULL || sscanf(close_paren + 1, " %c %d %d", &state, &a, &b) != 3)
        return false;
    *ppid = a;
    *pgrp = b;
    return true;
}

/* One round: kills and reaps the runner's children outside its own group
 * (but live testees): *killed when there was any; *in_group when a process
 * of group `pgid` is still there. */
static void sweep_round(pid_t pgid, bool *killed, bool *in_group)
{
    *killed = *in_group = false;
    DIR *d = opendir("/proc");
    if (d == NULL)
        return;
    pid_t self = getpid(), own_group = getpgrp();
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        pid_t ppid, pgrp, pid = (pid_t)atol(e->d_name);
        if (!proc_stat(e->d_name, &ppid, &pgrp))
            continue;
        *in_group |= pgrp == pgid;
        if (ppid != self || pgrp == own_group || live(pid))
            continue;
        *killed = true;
        (void)kill(pid, SIGKILL); /* a zombie already: nothing to do */
        int ignored;
        (void)reap_within(pid, 1000, &ignored);
    }
    (void)closedir(d);
}
#endif

/* SIGKILL to the group, then (Linux) the sweep: the group's members and
 * what escaped it come to the runner as their parents die; bounded at 2 s.
 * The group is signalled again only while the sweep still sees a member:
 * once it is empty, its number may be another's. */
static void end_group(pid_t pgid)
{
    (void)kill(-pgid, SIGKILL); /* fails only when nothing is left in it */
#ifdef __linux__
    int64_t deadline = proc_now_ms() + 2000;
    bool killed, in_group;
    do {
        sweep_round(pgid, &killed, &in_group);
        if (in_group) {
            (void)kill(-pgid, SIGKILL); /* one that joined the group since */
            sleep_ms(1);
        }
    } while ((killed || in_group) && proc_now_ms() < deadline);
#endif
}

/* --- starting and stopping ----------------------------------------------------------- */

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
    if (gentle && !t->exited) {
        (void)close(t->to_fd); /* EOF: the testee's cue to exit */
        t->to_fd = -1;
        int status;
        if (reap_within(t->pid, (int)t->timeout_ms, &status)) {
            t->exited = true;
            t->exit_status = status;
        }
    }
    int status = t->exited ? t->exit_status : -1;
    if (!t->exited) {
        (void)kill(-t->pid, SIGKILL); /* its group: fails only if it is gone already */
        int ignored;
        (void)reap_within(t->pid, 5000, &ignored);
    }
    live_set(t->pid, 0);
    end_group(t->pid); /* whatever it left behind, gentle or not */
    close_fds(t);
    t->running = t->exited = false;
    return status;
}

/* The highest descriptor open in the runner (the child closes 3 to it):
 * from /proc/self/fd, else the descriptor limit. */
static int highest_fd(void)
{
    int high = -1;
    DIR *d = opendir("/proc/self/fd");
    if (d != NULL) {
        for (struct dirent *e; (e = readdir(d)) != NULL;)
            if (e->d_name[0] >= '0' && e->d_name[0] <= '9' && atoi(e->d_name) > high)
                high = atoi(e->d_name);
        (void)closedir(d);
        return high;
    }
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        rl.rlim_cur < 1048576)
        return (int)rl.rlim_cur - 1;
    return 65535;
}

/* In the child: only async-signal-safe calls (the runner may have threads). */
static void child_exec(const char *line, int in_fd, int out_fd, int high, pid_t runner)
{
    (void)setpgid(0, 0);
#ifdef __linux__
    /* The testee dies with the runner, whatever ends it (SIGKILL included,
     * which no handler sees); kept across exec. The runner may have died
     * already, before this call: then there is no one to answer. */
    (void)prctl(PR_SET_PDEATHSIG, SIGKILL, 0L, 0L, 0L);
    if (getppid() != runner)
        _exit(127);
#else
    (void)runner;
#endif
    (void)signal(SIGPIPE, SIG_DFL); /* ignored in the runner; exec would keep that */
    if (dup2(in_fd, STDIN_FILENO) < 0 || dup2(out_fd, STDOUT_FILENO) < 0)
        _exit(127);
    for (int fd = STDERR_FILENO + 1; fd <= high; fd++)
        (void)close(fd); /* the pipes' other copies and ends, and all else of the runner's */
    execl("/bin/sh", "sh", "-c", line, (char *)NULL);
    _exit(127);
}

static void close_pair(int p[2])
{
    (void)close(p[0]); /* fresh pipes: nothing to lose */
    (void)close(p[1]);
}

/* Once per runner: orphans of its testees come back to it (Linux); its
 * end signals end its testees too; and, not being root, it cannot be
 * written to through /proc/PID/fd by a testee of the same user. */
static void become_subreaper(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    ntsim_testee_catch_end_signals();
#ifdef __linux__
    (void)prctl(PR_SET_CHILD_SUBREAPER, 1L, 0L, 0L, 0L); /* without it: init reaps */
    /* Not dumpable: /proc/<runner>/fd/1 (its stdout: the report) is then
     * root's, not the user's, so a testee cannot open it to forge lines.
     * It also stops core dumps and a same-user ptrace of the runner. Root
     * keeps every right over it: for a root runner this changes nothing. */
    if (geteuid() != 0)
        (void)prctl(PR_SET_DUMPABLE, 0L, 0L, 0L, 0L);
#endif
}

/* --- the command line ----------------------------------------------------------------- */

static bool name_char(char c, bool first)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           (!first && c >= '0' && c <= '9');
}

/* The end of the shell word at s (quotes and backslashes kept whole); sets
 * *control when the word holds an unquoted control operator (; & | newline,
 * not the & of a >& or <& redirection), a backquote, or a ( that opens no
 * $( or $(( : then the command is no simple command. Conservative: a line
 * it cannot read as one simple command is run as written, which works too. */
static const char *word_end(const char *s, bool *control)
{
    for (char prev = ' ', prev2 = ' '; *s != '\0'; prev2 = prev, prev = *s++) {
        if (*s == '\\' && s[1] != '\0') {
            s++;
        } else if (*s == '\'') {
            const char *q = strchr(s + 1, '\'');
            s = q != NULL ? q : s + strlen(s) - 1;
        } else if (*s == '"') {
            for (s++; *s != '\0' && *s != '"'; s++)
                if (*s == '\\' && s[1] != '\0')
                    s++;
            if (*s == '\0')
                return s;
        } else if (*s == ' ' || *s == '\t') {
            return s;
        } else if (*s == ';' || *s == '|' || *s == '\n' || *s == '`' ||
                   (*s == '&' && prev != '>' && prev != '<') ||
                   (*s == '(' && prev != '$' && !(prev == '(' && prev2 == '$'))) {
            *control = true; /* a list, a pipeline, a background job, a subshell */
        }
    }
    return s;
}

long ntsim__testee_exec_point(const char *command)
{
    static const char *const reserved[] = {"if", "then", "else", "elif", "fi", "do", "done",
                                           "case", "esac", "while", "until", "for", "in", "{",
                                           "}", "!", "function", "select", "[[", NULL};
    bool control = false;
    long at = -1;
    const char *s = command;
    for (;;) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '\0')
            break;
        const char *w = s;
        bool assignment = name_char(*w, true);
        for (w++; assignment && *w != '=' && *w != '\0'; w++)
            assignment = name_char(*w, false);
        assignment = assignment && *w == '=';
        const char *end = word_end(s, &control);
        if (at < 0 && !assignment) {
            at = (long)(s - command);
            for (size_t i = 0; reserved[i] != NULL; i++)
                if (strlen(reserved[i]) == (size_t)(end - s) &&
                    strncmp(s, reserved[i], (size_t)(end - s)) == 0)
                    control = true; /* a compound command */
        }
        s = end;
    }
    return control ? -1 : at;
}

NRT_STATUS ntsim_testee_pipe_start(ntsim_testee_t *t, char *why, size_t cap)
{
    /* A simple command is run as `exec COMMAND` (after its assignments:
     * FOO=1 exec cmd), so that the testee is the process the runner
     * starts. Anything else (cd d && cmd, ulimit -v N; cmd) is run as
     * written: the shell is then the process watched, and its exit status
     * the testee's (D-TESTEE-BOUNDS). */
    long at = ntsim__testee_exec_point(t->command);
    bool execs = at >= 0 && strncmp(t->command + at, "exec", 4) == 0 &&
                 (t->command[at + 4] == ' ' || t->command[at + 4] == '\t');
    t->via_shell = at < 0;
    size_t n = strlen(t->command) + 6;
    char *line = malloc(n);
    if (line == NULL) {
        snprintf(why, cap, "out of memory");
        return NRT_RESOURCE;
    }
    if (at < 0 || execs) /* as written: a compound command, or one that execs itself */
        snprintf(line, n, "%s", t->command);
    else
        snprintf(line, n, "%.*sexec %s", (int)at, t->command, t->command + at);
    become_subreaper();
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
    int high = highest_fd();
    pid_t runner = getpid();
    pid_t pid = fork();
    if (pid == 0)
        child_exec(line, in[0], out[1], high, runner);
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
    t->exited = false;
    live_set(0, pid);
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

/* --- how it ended ----------------------------------------------------------------------- */

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

void ntsim_testee_describe_status(int status, bool via_shell, char *why, size_t cap)
{
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
    if (WIFSIGNALED(status))
        snprintf(why, cap, "crashed (killed by signal %d, %s)", WTERMSIG(status),
                 signal_name(WTERMSIG(status)));
    else if (via_shell && code > 128 && code < 128 + 65)
        snprintf(why, cap, "exited with status %d (its shell's status for a command killed by "
                           "signal %d, %s)",
                 code, code - 128, signal_name(code - 128));
    else
        snprintf(why, cap, "exited with status %d", code);
}

void ntsim_testee_describe_end(ntsim_testee_t *t, char *why, size_t cap)
{
    int status = 0;
    int wait_ms = t->timeout_ms < 1000 ? (int)t->timeout_ms : 1000;
    if (!t->exited && reap_within(t->pid, wait_ms, &status)) {
        t->exited = true;
        t->exit_status = status;
    }
    if (!t->exited)
        snprintf(why, cap, "closed its stdout without exiting (killed)");
    else
        ntsim_testee_describe_status(t->exit_status, t->via_shell, why, cap);
    (void)ntsim_testee_pipe_stop(t, false); /* its group, and what escaped it */
}
