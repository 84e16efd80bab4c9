/*
 * conformance/unit/engine/check_output.c: files written beside themselves
 * and renamed into place, inputs never written over (engine/output.[ch],
 * D-OUTPUT). Each test works in a fresh directory of its own under /tmp.
 */
#define _GNU_SOURCE /* mkdtemp */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_suites.h"
#include "output.h"

static char g_dir[64];

static void setup(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/ntsim-output-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(g_dir));
}

static void teardown(void)
{
    ntsim_output_inputs_clear();
    DIR *d = opendir(g_dir);
    struct dirent *e;
    char p[600];
    while (d != NULL && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(p, sizeof p, "%s/%s", g_dir, e->d_name);
        (void)unlink(p);
    }
    if (d != NULL)
        closedir(d);
    (void)rmdir(g_dir);
}

/* g_dir/name, in a static buffer of four (enough for one call's paths). */
static const char *at(const char *name)
{
    static char buf[4][600];
    static int next;
    char *p = buf[next++ % 4];
    snprintf(p, sizeof buf[0], "%s/%s", g_dir, name);
    return p;
}

static void put_file(const char *path, const char *text, mode_t mode)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fputs(text, f) >= 0, 1);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(chmod(path, mode), 0);
}

/* The file's whole text (at most 255 bytes), or "(none)". */
static const char *text_of(const char *path)
{
    static char buf[256];
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return "(none)";
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* The names in g_dir, sorted, one space after each. */
static const char *listing(void)
{
    static char out[1024];
    struct dirent **names;
    int n = scandir(g_dir, &names, NULL, alphasort);
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (strcmp(names[i]->d_name, ".") != 0 && strcmp(names[i]->d_name, "..") != 0) {
            strncat(out, names[i]->d_name, sizeof out - strlen(out) - 2);
            strcat(out, " ");
        }
        free(names[i]);
    }
    free(names);
    return out;
}

/* Failures no directory can cause (fdopen's allocation, a mode the system
 * will not set; we run as root): this program's own fdopen and fchmod, which
 * the engine's calls reach, pass on to the C library's unless a test arms
 * them to fail once. */
static int g_fail_fdopen, g_fail_fchmod;

FILE *fdopen(int fd, const char *mode)
{
    if (g_fail_fdopen) {
        g_fail_fdopen = 0;
        errno = ENOMEM;
        return NULL;
    }
    FILE *(*next)(int, const char *);
    *(void **)&next = dlsym(RTLD_NEXT, "fdopen");
    return next(fd, mode);
}

int fchmod(int fd, mode_t mode)
{
    if (g_fail_fchmod) {
        g_fail_fchmod = 0;
        errno = EPERM;
        return -1;
    }
    int (*next)(int, mode_t);
    *(void **)&next = dlsym(RTLD_NEXT, "fchmod");
    return next(fd, mode);
}

/* The lowest descriptor free: a descriptor a call kept open takes it. */
static int lowest_free_fd(void)
{
    int fd = dup(2);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(close(fd), 0);
    return fd;
}

START_TEST(test_output_commit_replaces_the_file_whole_keeping_its_mode)
{
    put_file(at("f"), "old", 0600);
    ntsim_output_t *o;
    char why[512];
    ck_assert_int_eq(ntsim_output_open(&o, at("f"), why, sizeof why), NRT_SUCCESS);
    ck_assert_uint_eq(ntsim_output_temps_listed(), 1); /* a signal would remove it */
    ck_assert_int_eq(fputs("new text", ntsim_output_file(o)) >= 0, 1);
    /* Until the commit, the old file is the file; the new one is beside it. */
    ck_assert_str_eq(text_of(at("f")), "old");
    ck_assert_int_eq(strncmp(listing(), ".f.", 3), 0);
    ck_assert_int_eq(ntsim_output_commit(o, why, sizeof why), NRT_SUCCESS);
    ck_assert_uint_eq(ntsim_output_temps_listed(), 0);
    ck_assert_str_eq(text_of(at("f")), "new text");
    ck_assert_str_eq(listing(), "f ");
    struct stat st;
    ck_assert_int_eq(stat(at("f"), &st), 0);
    ck_assert_uint_eq(st.st_mode & 07777, 0600); /* a private file stays private */
}
END_TEST

START_TEST(test_output_abort_keeps_the_earlier_file_and_leaves_nothing)
{
    put_file(at("f"), "old", 0644);
    ntsim_output_t *o;
    ck_assert_int_eq(ntsim_output_open(&o, at("f"), NULL, 0), NRT_SUCCESS);
    ck_assert_int_eq(fputs("half", ntsim_output_file(o)) >= 0, 1);
    ck_assert_uint_eq(ntsim_output_temps_listed(), 1);
    ntsim_output_abort(o);
    ck_assert_uint_eq(ntsim_output_temps_listed(), 0);
    ck_assert_str_eq(text_of(at("f")), "old");
    ck_assert_str_eq(listing(), "f ");
    ntsim_output_abort(NULL); /* nothing */
}
END_TEST

START_TEST(test_output_refuses_an_input_by_every_name)
{
    put_file(at("in"), "input", 0644);
    ck_assert_int_eq(link(at("in"), at("hard")), 0);
    ck_assert_int_eq(symlink("in", at("soft")), 0);
    ck_assert_int_eq(ntsim_output_input(at("in"), "the scenario"), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_output_input(at("absent"), "the scenario"), NRT_SUCCESS);
    char why[512], dotted[600];
    snprintf(dotted, sizeof dotted, "%s/./in", g_dir);
    const char *names[] = {at("in"), at("hard"), at("soft"), dotted};
    for (size_t i = 0; i < 4; i++) {
        ntsim_output_t *o = (ntsim_output_t *)1;
        ck_assert_int_eq(ntsim_output_open(&o, names[i], why, sizeof why), NRT_INVALID);
        ck_assert_ptr_null(o);
        ck_assert_msg(strstr(why, "refusing to write over the scenario") != NULL, "%s", why);
        ck_assert_int_eq(ntsim_output_check(&names[i], 1, why, sizeof why), NRT_INVALID);
    }
    ck_assert_str_eq(text_of(at("in")), "input");
    ck_assert_str_eq(listing(), "hard in soft ");
    /* A file that did not exist when registered is no input. */
    ntsim_output_t *o;
    ck_assert_int_eq(ntsim_output_open(&o, at("absent"), why, sizeof why), NRT_SUCCESS);
    ntsim_output_abort(o);
    ntsim_output_inputs_clear();
    ck_assert_int_eq(ntsim_output_open(&o, at("hard"), why, sizeof why), NRT_SUCCESS);
    ntsim_output_abort(o);
}
END_TEST

START_TEST(test_output_check_finds_one_file_named_twice)
{
    char why[512], a[600], b[600];
    /* Existing or not, and in a directory still to be made. */
    const char *pairs[][2] = {{"x", "./x"}, {"new/x", "new//x"}, {"new/y/", "new/./y"}};
    for (size_t i = 0; i < 3; i++) {
        snprintf(a, sizeof a, "%s/%s", g_dir, pairs[i][0]);
        snprintf(b, sizeof b, "%s/%s", g_dir, pairs[i][1]);
        const char *two[] = {a, b};
        ck_assert_int_eq(ntsim_output_check(two, 2, why, sizeof why), NRT_INVALID);
        ck_assert_msg(strstr(why, "are the same file") != NULL, "%s", why);
    }
    const char *twice[] = {at("x"), at("x")};
    ck_assert_int_eq(ntsim_output_check(twice, 2, why, sizeof why), NRT_INVALID);
    ck_assert_msg(strstr(why, "is named twice") != NULL, "%s", why);
    const char *apart[] = {at("x"), at("new/x"), at("y")};
    ck_assert_int_eq(ntsim_output_check(apart, 3, why, sizeof why), NRT_SUCCESS);
    /* The parts still to be made are told apart by where the '/' falls. */
    const char *split[] = {at("new/x/y"), at("new/xy")};
    ck_assert_int_eq(ntsim_output_check(split, 2, why, sizeof why), NRT_SUCCESS);
    const char *dir[] = {g_dir};
    ck_assert_int_eq(ntsim_output_check(dir, 1, why, sizeof why), NRT_INVALID);
    ck_assert_msg(strstr(why, "it is a directory") != NULL, "%s", why);
    ck_assert_str_eq(listing(), "");
}
END_TEST

/* D-OUTPUT: the temporary file is .NAME.PID.N.tmp beside the target, NAME
 * cut to its first 200 bytes, N counting the files the process opened. */
START_TEST(test_output_temporary_name_is_the_name_the_pid_and_a_count)
{
    char name[202], prefix[260], expect[300];
    memset(name, 'n', 201);
    name[201] = '\0';
    ntsim_output_t *o;
    ck_assert_int_eq(ntsim_output_open(&o, at(name), NULL, 0), NRT_SUCCESS);
    snprintf(prefix, sizeof prefix, ".%.200s.%ld.", name, (long)getpid());
    const char *l = listing();
    ck_assert_msg(strncmp(l, prefix, strlen(prefix)) == 0, "%s", l);
    char *end;
    unsigned long n = strtoul(l + strlen(prefix), &end, 10);
    ck_assert_str_eq(end, ".tmp ");
    ntsim_output_abort(o);
    ck_assert_int_eq(ntsim_output_open(&o, at("b"), NULL, 0), NRT_SUCCESS);
    snprintf(expect, sizeof expect, ".b.%ld.%lu.tmp ", (long)getpid(), n + 1);
    ck_assert_str_eq(listing(), expect);
    ntsim_output_abort(o);
    ck_assert_str_eq(listing(), "");
}
END_TEST

/* Descriptor 0 is one like any other: with stdin closed the temporary file
 * takes it, and it is still the one renamed into place, nothing left beside. */
START_TEST(test_output_writes_with_stdin_closed)
{
    int saved = dup(0);
    ck_assert_int_ge(saved, 0);
    ck_assert_int_eq(close(0), 0);
    ntsim_output_t *o;
    NRT_STATUS st = ntsim_output_open(&o, at("f"), NULL, 0);
    int took = st == NRT_SUCCESS ? fileno(ntsim_output_file(o)) : -1;
    if (st == NRT_SUCCESS) {
        fputs("text", ntsim_output_file(o));
        st = ntsim_output_commit(o, NULL, 0);
    }
    ck_assert_int_eq(dup2(saved, 0), 0);
    ck_assert_int_eq(close(saved), 0);
    ck_assert_int_eq(st, NRT_SUCCESS);
    ck_assert_str_eq(listing(), "f ");
    ck_assert_str_eq(text_of(at("f")), "text");
    ck_assert_int_eq(took, 0); /* the case this test is about */
}
END_TEST

/* A failure after the temporary file was made (its mode not kept, no
 * stream for it) or in opening a device: the reason, the file that was
 * there, nothing beside it, no descriptor left open. */
START_TEST(test_output_open_failing_late_leaves_nothing_open)
{
    put_file(at("f"), "old", 0600);
    ntsim_output_t *o = NULL;
    char why[512], expect[700];
    int fd = lowest_free_fd();
    g_fail_fchmod = 1;
    ck_assert_int_eq(ntsim_output_open(&o, at("f"), why, sizeof why), NRT_FAILURE);
    ck_assert_int_eq(errno, EPERM);
    snprintf(expect, sizeof expect, "%s: cannot write: cannot keep its mode: %s", at("f"),
             strerror(EPERM));
    ck_assert_str_eq(why, expect);
    ck_assert_int_eq(lowest_free_fd(), fd);
    ck_assert_str_eq(listing(), "f ");
    g_fail_fdopen = 1;
    ck_assert_int_eq(ntsim_output_open(&o, at("f"), why, sizeof why), NRT_FAILURE);
    ck_assert_int_eq(errno, ENOMEM);
    snprintf(expect, sizeof expect, "%s: cannot write: %s", at("f"), strerror(ENOMEM));
    ck_assert_str_eq(why, expect);
    ck_assert_int_eq(lowest_free_fd(), fd);
    ck_assert_str_eq(listing(), "f ");
    g_fail_fdopen = 1;
    ck_assert_int_eq(ntsim_output_open(&o, "/dev/null", why, sizeof why), NRT_FAILURE);
    ck_assert_int_eq(errno, ENOMEM);
    snprintf(expect, sizeof expect, "/dev/null: cannot write: %s", strerror(ENOMEM));
    ck_assert_str_eq(why, expect);
    ck_assert_int_eq(lowest_free_fd(), fd);
    ck_assert_ptr_null(o);
    ck_assert_uint_eq(ntsim_output_temps_listed(), 0);
    ck_assert_str_eq(text_of(at("f")), "old");
}
END_TEST

START_TEST(test_output_commit_all_renames_none_when_one_fails)
{
    put_file(at("a"), "old a", 0644);
    ntsim_output_t *o[2];
    char why[512];
    ck_assert_int_eq(ntsim_output_open(&o[0], at("a"), why, sizeof why), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_output_open(&o[1], "/dev/full", why, sizeof why), NRT_SUCCESS);
    fputs("new a", ntsim_output_file(o[0]));
    fputs("cannot", ntsim_output_file(o[1]));
    const char *stale[] = {at("a")};
    ck_assert_uint_eq(ntsim_output_temps_listed(), 1); /* /dev/full has no temporary file */
    ck_assert_int_eq(ntsim_output_commit_all(o, 2, stale, 1, why, sizeof why), NRT_FAILURE);
    ck_assert_int_eq(errno, ENOSPC);
    ck_assert_uint_eq(ntsim_output_temps_listed(), 0);
    ck_assert_str_eq(why, "/dev/full: cannot write: No space left on device");
    ck_assert_str_eq(text_of(at("a")), "old a");
    ck_assert_str_eq(listing(), "a ");
    /* All whole: renamed, and the earlier run's file removed. */
    put_file(at("stale"), "earlier run", 0644);
    ck_assert_int_eq(ntsim_output_open(&o[0], at("a"), why, sizeof why), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_output_open(&o[1], at("b"), why, sizeof why), NRT_SUCCESS);
    fputs("new a", ntsim_output_file(o[0]));
    fputs("new b", ntsim_output_file(o[1]));
    const char *old[] = {at("stale"), at("never-there")};
    ck_assert_int_eq(ntsim_output_commit_all(o, 2, old, 2, why, sizeof why), NRT_SUCCESS);
    ck_assert_uint_eq(ntsim_output_temps_listed(), 0);
    ck_assert_str_eq(listing(), "a b ");
    ck_assert_str_eq(text_of(at("b")), "new b");
}
END_TEST

static volatile sig_atomic_t g_xfsz_seen = -1; /* temporary files listed when it came */

static void on_xfsz(int sig)
{
    (void)sig;
    g_xfsz_seen = (sig_atomic_t)ntsim_output_temps_listed();
}

/* Leaves all ones where the next call's locals will be: a set the commit
 * forgot to empty would hold every signal. */
__attribute__((noinline)) static void dirty_the_stack(void)
{
    volatile unsigned char junk[8192];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = 0xff;
}

/* The commit holds the end signals alone (D-OUTPUT): a signal of the
 * program's own, here SIGXFSZ as a file that was not finished is closed past
 * ulimit -f, is handled when it comes, while the later files are still
 * listed, not after the commit. */
START_TEST(test_output_commit_all_holds_the_end_signals_alone)
{
    ntsim_output_t *o[3];
    char why[512];
    ck_assert_int_eq(ntsim_output_open(&o[0], "/dev/full", why, sizeof why), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_output_open(&o[1], at("big"), why, sizeof why), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_output_open(&o[2], at("c"), why, sizeof why), NRT_SUCCESS);
    fputs("full", ntsim_output_file(o[0]));
    for (int i = 0; i < 10; i++)
        fputs("0123456789", ntsim_output_file(o[1])); /* 100 bytes, still in the buffer */
    fputs("c", ntsim_output_file(o[2]));
    struct rlimit old, small;
    ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
    small = old;
    small.rlim_cur = 10;
    struct sigaction sa, before;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_xfsz;
    (void)sigemptyset(&sa.sa_mask);
    ck_assert_int_eq(sigaction(SIGXFSZ, &sa, &before), 0);
    /* No check's assertion while the limit holds: it writes a file too. */
    int limited = setrlimit(RLIMIT_FSIZE, &small);
    dirty_the_stack();
    NRT_STATUS st = ntsim_output_commit_all(o, 3, NULL, 0, why, sizeof why);
    int err = errno;
    ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
    ck_assert_int_eq(sigaction(SIGXFSZ, &before, NULL), 0);
    ck_assert_int_eq(limited, 0);
    ck_assert_int_eq(st, NRT_FAILURE);
    ck_assert_int_eq(err, ENOSPC);
    ck_assert_int_eq(g_xfsz_seen, 2); /* big's and c's temporary files */
    ck_assert_uint_eq(ntsim_output_temps_listed(), 0);
    ck_assert_str_eq(listing(), "");
}
END_TEST

START_TEST(test_output_commit_new_never_replaces_a_file)
{
    put_file(at("v.yaml"), "someone's", 0644);
    ntsim_output_t *o;
    char why[512];
    ck_assert_int_eq(ntsim_output_open(&o, at("v.yaml"), why, sizeof why), NRT_SUCCESS);
    fputs("mine", ntsim_output_file(o));
    ck_assert_int_eq(ntsim_output_commit_new(o, at("v.yaml"), why, sizeof why), NRT_INVALID);
    ck_assert_int_eq(errno, EEXIST);
    ck_assert_uint_eq(ntsim_output_temps_listed(), 1); /* kept for another name */
    ck_assert_int_eq(ntsim_output_commit_new(o, at("v-2.yaml"), why, sizeof why), NRT_SUCCESS);
    ck_assert_uint_eq(ntsim_output_temps_listed(), 0);
    ck_assert_str_eq(text_of(at("v.yaml")), "someone's");
    ck_assert_str_eq(text_of(at("v-2.yaml")), "mine");
    ck_assert_str_eq(listing(), "v-2.yaml v.yaml ");
}
END_TEST

START_TEST(test_output_writes_a_device_in_place_and_follows_a_symlink)
{
    ntsim_output_t *o;
    char why[512];
    ck_assert_int_eq(ntsim_output_open(&o, "/dev/null", why, sizeof why), NRT_SUCCESS);
    fputs("gone", ntsim_output_file(o));
    ck_assert_int_eq(ntsim_output_commit(o, why, sizeof why), NRT_SUCCESS);
    struct stat st;
    ck_assert_int_eq(stat("/dev/null", &st), 0);
    ck_assert(S_ISCHR(st.st_mode));
    /* A symlink: the file it names is replaced, the link stays a link. */
    put_file(at("target"), "old", 0640);
    ck_assert_int_eq(symlink("target", at("link")), 0);
    ck_assert_int_eq(ntsim_output_open(&o, at("link"), why, sizeof why), NRT_SUCCESS);
    fputs("through the link", ntsim_output_file(o));
    ck_assert_int_eq(ntsim_output_commit(o, why, sizeof why), NRT_SUCCESS);
    ck_assert_str_eq(text_of(at("target")), "through the link");
    ck_assert_int_eq(lstat(at("link"), &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    ck_assert_str_eq(listing(), "link target ");
    /* Where no file can be made: the system's reason, errno kept. */
    ck_assert_int_eq(ntsim_output_open(&o, at("no/such/dir/f"), why, sizeof why), NRT_FAILURE);
    ck_assert_int_eq(errno, ENOENT);
}
END_TEST

/* A signal while a file is being written: its temporary file goes, the
 * earlier file stays, and the program ends by that signal. */
START_TEST(test_output_signal_removes_the_temporary_file)
{
    put_file(at("f"), "old", 0644);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        ntsim_output_catch_signals();
        ntsim_output_t *o;
        if (ntsim_output_open(&o, at("f"), NULL, 0) != NRT_SUCCESS)
            _exit(1);
        fputs("half", ntsim_output_file(o));
        fflush(ntsim_output_file(o));
        raise(SIGTERM);
        _exit(2); /* not reached */
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM, "status %d", status);
    ck_assert_str_eq(text_of(at("f")), "old");
    ck_assert_str_eq(listing(), "f ");
}
END_TEST

START_TEST(test_output_directory_lock_refuses_a_second_holder)
{
    int fd, second;
    char why[512];
    ck_assert_int_eq(ntsim_output_dir_lock(g_dir, &fd, why, sizeof why), NRT_SUCCESS);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(ntsim_output_dir_lock(g_dir, &second, why, sizeof why), NRT_INVALID);
    ck_assert_int_eq(second, -1);
    ck_assert_msg(strstr(why, "another run is writing into this directory") != NULL, "%s", why);
    ntsim_output_dir_unlock(fd);
    ck_assert_int_eq(ntsim_output_dir_lock(g_dir, &second, why, sizeof why), NRT_SUCCESS);
    ntsim_output_dir_unlock(second);
}
END_TEST

/* What ntsim_output_stdout_close says, from a child whose stdout is `out`
 * (its stderr in g_dir/err): the status and the line. */
static NRT_STATUS stdout_close_in_child(const char *out, bool unbuffered_then_null,
                                        const char **said)
{
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int fd = open(out, O_WRONLY), err = open(at("err"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0 || err < 0 || dup2(fd, 1) < 0 || dup2(err, 2) < 0)
            _exit(9);
        if (unbuffered_then_null) {
            /* A write that failed, then a stdout that takes the rest: the
             * error flag alone says it. */
            setvbuf(stdout, NULL, _IONBF, 0);
            fputs("lost", stdout);
            int null = open("/dev/null", O_WRONLY);
            if (null < 0 || dup2(null, 1) < 0)
                _exit(9);
        } else {
            fputs("report", stdout);
        }
        _exit(ntsim_output_stdout_close("prog") == NRT_SUCCESS ? 0 : 1);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) <= 1);
    *said = text_of(at("err"));
    return WEXITSTATUS(status) == 0 ? NRT_SUCCESS : NRT_FAILURE;
}

START_TEST(test_output_stdout_close_names_what_failed)
{
    const char *said;
    ck_assert_int_eq(stdout_close_in_child("/dev/null", false, &said), NRT_SUCCESS);
    ck_assert_str_eq(said, "");
    ck_assert_int_eq(stdout_close_in_child("/dev/full", false, &said), NRT_FAILURE);
    ck_assert_str_eq(said, "prog: cannot write stdout: No space left on device\n");
    ck_assert_int_eq(stdout_close_in_child("/dev/full", true, &said), NRT_FAILURE);
    ck_assert_str_eq(said, "prog: cannot write stdout: a write failed\n");
}
END_TEST

/* A word sh reads back as it was: plain words as they are, anything else in
 * single quotes, a quote inside as '\'' (close, an escaped one, open again). */
START_TEST(test_output_shell_word_quotes_for_sh)
{
    const char *cases[][2] = {
        {"dir/v-1.yaml", "dir/v-1.yaml"},
        {"a b", "'a b'"},
        {"", "''"},
        {"0123456789abcdef's", "'0123456789abcdef'\\''s'"},
        {"''", "''\\'''\\'''"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        /* The block it will get held other bytes before: each is written. */
        char *junk = malloc(24);
        ck_assert_ptr_nonnull(junk);
        memset(junk, 'x', 24);
        free(junk);
        char *w = ntsim_output_shell_word(cases[i][0], false);
        ck_assert_ptr_nonnull(w);
        ck_assert_str_eq(w, cases[i][1]);
        free(w);
    }
    char *w = ntsim_output_shell_word("plain", true);
    ck_assert_ptr_nonnull(w);
    ck_assert_str_eq(w, "'plain'");
    free(w);
}
END_TEST

Suite *make_output_suite(void)
{
    Suite *s = suite_create("output");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_output_commit_replaces_the_file_whole_keeping_its_mode);
    tcase_add_test(tc, test_output_abort_keeps_the_earlier_file_and_leaves_nothing);
    tcase_add_test(tc, test_output_refuses_an_input_by_every_name);
    tcase_add_test(tc, test_output_check_finds_one_file_named_twice);
    tcase_add_test(tc, test_output_temporary_name_is_the_name_the_pid_and_a_count);
    tcase_add_test(tc, test_output_writes_with_stdin_closed);
    tcase_add_test(tc, test_output_open_failing_late_leaves_nothing_open);
    tcase_add_test(tc, test_output_commit_all_renames_none_when_one_fails);
    tcase_add_test(tc, test_output_commit_all_holds_the_end_signals_alone);
    tcase_add_test(tc, test_output_commit_new_never_replaces_a_file);
    tcase_add_test(tc, test_output_writes_a_device_in_place_and_follows_a_symlink);
    tcase_add_test(tc, test_output_signal_removes_the_temporary_file);
    tcase_add_test(tc, test_output_directory_lock_refuses_a_second_holder);
    tcase_add_test(tc, test_output_stdout_close_names_what_failed);
    tcase_add_test(tc, test_output_shell_word_quotes_for_sh);
    suite_add_tcase(s, tc);
    return s;
}
