/*
 * engine/output.c: files written beside themselves and renamed into place,
 * inputs never written over, stdout checked (output.h, D-OUTPUT).
 *
 * The temporary files still open are listed in a fixed table of atomic
 * pointers, so that a signal handler can walk it and unlink each one (the
 * only async-signal-safe way to know them). A file registered in it is
 * removed on a signal; a table that is full (more than 64 files open at
 * once) leaves the extra ones unregistered: they are still written and
 * renamed as well, only a signal would leave them behind.
 */
#define _GNU_SOURCE /* flock, realpath with NULL */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"

/* --- messages ---------------------------------------------------------------------- */

__attribute__((format(printf, 3, 4))) static void say(char *why, size_t cap, const char *fmt,
                                                      ...)
{
    if (why == NULL || cap == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(why, cap, fmt, ap);
    va_end(ap);
}

/* A copy of s[0..n) through the engine's allocator; NULL when out of memory. */
static char *copy_n(const char *s, size_t n)
{
    char *c = ntsim__malloc(n + 1);
    if (c != NULL) {
        memcpy(c, s, n);
        c[n] = '\0';
    }
    return c;
}

/* --- the program's inputs ------------------------------------------------------------ */

typedef struct input {
    dev_t dev;
    ino_t ino;
    char *path;               /* libc's: the registry outlives any replaced allocator */
    const char *role;
} input_t;

static pthread_mutex_t g_inputs_lock = PTHREAD_MUTEX_INITIALIZER;
static input_t *g_inputs;
static size_t g_input_count, g_input_cap;

NRT_STATUS ntsim_output_input(const char *path, const char *role)
{
    struct stat st;
    if (path == NULL)
        return NRT_INVALID;
    if (stat(path, &st) != 0)
        return NRT_SUCCESS; /* nothing there to protect */
    char *copy = malloc(strlen(path) + 1);
    if (copy == NULL)
        return NRT_RESOURCE;
    strcpy(copy, path);
    pthread_mutex_lock(&g_inputs_lock);
    if (g_input_count == g_input_cap) {
        size_t cap = g_input_cap != 0 ? 2 * g_input_cap : 8;
        input_t *grown = realloc(g_inputs, cap * sizeof *grown);
        if (grown == NULL) {
            pthread_mutex_unlock(&g_inputs_lock);
            free(copy);
            return NRT_RESOURCE;
        }
        g_inputs = grown;
        g_input_cap = cap;
    }
    g_inputs[g_input_count++] = (input_t){st.st_dev, st.st_ino, copy, role != NULL ? role : "an input"};
    pthread_mutex_unlock(&g_inputs_lock);
    return NRT_SUCCESS;
}

void ntsim_output_inputs_clear(void)
{
    pthread_mutex_lock(&g_inputs_lock);
    for (size_t i = 0; i < g_input_count; i++)
        free(g_inputs[i].path);
    free(g_inputs);
    g_inputs = NULL;
    g_input_count = g_input_cap = 0;
    pthread_mutex_unlock(&g_inputs_lock);
}

/* NRT_INVALID, with why, when path (which exists as *st) is a registered
 * input or a directory. */
static NRT_STATUS refuse(const char *path, const struct stat *st, char *why, size_t cap)
{
    if (S_ISDIR(st->st_mode)) {
        say(why, cap, "%s: cannot write: it is a directory", path);
        errno = EISDIR;
        return NRT_INVALID;
    }
    NRT_STATUS result = NRT_SUCCESS;
    pthread_mutex_lock(&g_inputs_lock);
    for (size_t i = 0; i < g_input_count && result == NRT_SUCCESS; i++) {
        const input_t *in = &g_inputs[i];
        if (in->dev != st->st_dev || in->ino != st->st_ino)
            continue;
        if (strcmp(in->path, path) == 0)
            say(why, cap, "%s: refusing to write over %s", path, in->role);
        else
            say(why, cap, "%s is %s itself: refusing to write over %s", path, in->path, in->role);
        errno = EEXIST;
        result = NRT_INVALID;
    }
    pthread_mutex_unlock(&g_inputs_lock);
    return result;
}

/* Which file a path names, existing or not: the device and inode of the
 * path itself, or of its nearest existing directory and the rest of the
 * path (normalized: no empty or "." parts), so that two spellings of a file
 * still to be made are one. */
typedef struct file_id {
    dev_t dev;
    ino_t ino;
    char *rest; /* "" when the path exists */
} file_id_t;

static NRT_STATUS file_id(const char *path, file_id_t *id)
{
    size_t cut = strlen(path);
    struct stat st;
    for (;;) {
        char *prefix = cut == 0 ? copy_n(path[0] == '/' ? "/" : ".", 1) : copy_n(path, cut);
        if (prefix == NULL)
            return NRT_RESOURCE;
        int found = stat(prefix, &st);
        ntsim__free(prefix);
        if (found == 0)
            break;
        if (cut == 0)
            return NRT_FAILURE; /* not even "." */
        while (cut > 0 && path[cut - 1] == '/')
            cut--; /* trailing slashes */
        while (cut > 0 && path[cut - 1] != '/')
            cut--; /* the last part */
    }
    /* The rest, its parts joined by one '/'. */
    const char *r = path + cut;
    char *rest = ntsim__malloc(strlen(r) + 1), *w = rest;
    if (rest == NULL)
        return NRT_RESOURCE;
    while (*r != '\0') {
        size_t n = strcspn(r, "/");
        if (n > 0 && !(n == 1 && r[0] == '.')) {
            if (w != rest)
                *w++ = '/';
            memcpy(w, r, n);
            w += n;
        }
        r += n;
        r += *r == '/';
    }
    *w = '\0';
    *id = (file_id_t){st.st_dev, st.st_ino, rest};
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_output_check(const char *const *paths, size_t n, char *why, size_t cap)
{
    file_id_t *ids = ntsim__calloc(n > 0 ? n : 1, sizeof *ids); /* rest NULL: no id */
    if (ids == NULL)
        return NRT_RESOURCE;
    NRT_STATUS st = NRT_SUCCESS;
    for (size_t i = 0; i < n && st == NRT_SUCCESS; i++) {
        struct stat s;
        if (stat(paths[i], &s) == 0 && (st = refuse(paths[i], &s, why, cap)) != NRT_SUCCESS)
            break;
        /* No directory of it exists: it cannot be written, nor be another. */
        NRT_STATUS found = file_id(paths[i], &ids[i]);
        if (found != NRT_SUCCESS) {
            st = found == NRT_RESOURCE ? NRT_RESOURCE : NRT_SUCCESS;
            continue;
        }
        for (size_t j = 0; j < i && st == NRT_SUCCESS; j++) {
            if (ids[j].rest != NULL && ids[j].dev == ids[i].dev && ids[j].ino == ids[i].ino &&
                strcmp(ids[j].rest, ids[i].rest) == 0) {
                if (strcmp(paths[j], paths[i]) == 0)
                    say(why, cap, "%s is named twice: each output must be a file of its own",
                        paths[i]);
                else
                    say(why, cap, "%s and %s are the same file: each output must be a file of "
                                  "its own", paths[j], paths[i]);
                st = NRT_INVALID;
            }
        }
    }
    for (size_t i = 0; i < n; i++)
        ntsim__free(ids[i].rest);
    ntsim__free(ids);
    return st;
}

/* --- the temporary files a signal removes -------------------------------------------- */

#define TEMP_SLOTS 64
static _Atomic(const char *) g_temps[TEMP_SLOTS];
static _Atomic pid_t g_temps_pid; /* the process that listed them (a forked child is not it) */
static _Atomic unsigned long g_temp_serial;

static int temp_list(const char *path)
{
    atomic_store_explicit(&g_temps_pid, getpid(), memory_order_relaxed);
    for (int i = 0; i < TEMP_SLOTS; i++) {
        const char *none = NULL;
        /* seq_cst: the path is whole before a handler can load it. */
        if (atomic_compare_exchange_strong(&g_temps[i], &none, path))
            return i;
    }
    return -1;
}

static void temp_unlist(int slot)
{
    if (slot >= 0)
        atomic_store(&g_temps[slot], NULL);
}

void ntsim_output_remove_temps(void)
{
    if (atomic_load_explicit(&g_temps_pid, memory_order_relaxed) != getpid())
        return;
    for (int i = 0; i < TEMP_SLOTS; i++) {
        const char *p = atomic_load(&g_temps[i]);
        if (p != NULL)
            (void)unlink(p);
    }
}

size_t ntsim_output_temps_listed(void)
{
    size_t n = 0;
    for (int i = 0; i < TEMP_SLOTS; i++)
        n += atomic_load(&g_temps[i]) != NULL;
    return n;
}

static const int g_end_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};

static void on_end_signal(int sig)
{
    int saved = errno;
    ntsim_output_remove_temps();
    (void)signal(sig, SIG_DFL);
    (void)raise(sig); /* held until the handler returns, then the default action */
    errno = saved;
}

void ntsim_output_catch_signals(void)
{
    for (size_t i = 0; i < sizeof g_end_signals / sizeof g_end_signals[0]; i++) {
        struct sigaction old, sa;
        if (sigaction(g_end_signals[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
            continue; /* ignored, as SIGINT in a background job: it ends nothing */
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_end_signal;
        (void)sigemptyset(&sa.sa_mask);
        (void)sigaction(g_end_signals[i], &sa, NULL);
    }
    (void)signal(SIGXFSZ, SIG_IGN);
}

/* --- one file ---------------------------------------------------------------------- */

struct ntsim_output {
    FILE *f;
    char *path;     /* as given */
    char *target;   /* the file renamed onto: path, or the file its symlink names */
    char *temp;     /* NULL: written in place (not a regular file) */
    int slot;       /* in g_temps, or -1 */
    bool finished;  /* whole under its temporary name, closed (commit_new) */
};

static void output_free(ntsim_output_t *o)
{
    ntsim__free(o->path);
    ntsim__free(o->target);
    ntsim__free(o->temp);
    ntsim__free(o);
}

/* The system's refusal: the message, ": REASON", and errno kept for the
 * caller. */
__attribute__((format(printf, 4, 5))) static NRT_STATUS failed(int err, char *why, size_t cap,
                                                               const char *fmt, ...)
{
    if (why != NULL && cap > 0) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(why, cap, fmt, ap);
        va_end(ap);
        if (n >= 0 && (size_t)n < cap)
            snprintf(why + n, cap - (size_t)n, ": %s", strerror(err));
    }
    errno = err;
    return NRT_FAILURE;
}

/* The target, and a new temporary file beside it. */
static NRT_STATUS open_beside(ntsim_output_t *o, const struct stat *old, char *why, size_t cap)
{
    const char *slash = strrchr(o->target, '/');
    const char *base = slash != NULL ? slash + 1 : o->target;
    size_t dir_len = (size_t)(base - o->target), base_len = strlen(base);
    if (base_len == 0) {
        say(why, cap, "%s: cannot write: not a file name", o->path);
        errno = EISDIR;
        return NRT_INVALID;
    }
    if (base_len > 200)
        base_len = 200; /* ".NAME.PID.N.tmp" within NAME_MAX */
    size_t cap_temp = dir_len + base_len + 64;
    if ((o->temp = ntsim__malloc(cap_temp)) == NULL)
        return NRT_RESOURCE;
    int fd = -1;
    for (int tries = 0; fd < 0 && tries < 100; tries++) {
        unsigned long serial = atomic_fetch_add(&g_temp_serial, 1);
        snprintf(o->temp, cap_temp, "%.*s.%.*s.%ld.%lu.tmp", (int)dir_len, o->target,
                 (int)base_len, base, (long)getpid(), serial);
        fd = open(o->temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0)
        return failed(errno, why, cap, "%s: cannot write: cannot create a file beside it",
                      o->path);
    o->slot = temp_list(o->temp);
    /* The new file keeps the old one's permissions (a private file stays
     * private), not the umask's. */
    if (old != NULL && fchmod(fd, old->st_mode & 07777) != 0) {
        int err = errno;
        (void)close(fd);
        (void)unlink(o->temp);
        return failed(err, why, cap, "%s: cannot write: cannot keep its mode", o->path);
    }
    if ((o->f = fdopen(fd, "wb")) == NULL) {
        int err = errno;
        (void)close(fd);
        (void)unlink(o->temp);
        return failed(err, why, cap, "%s: cannot write", o->path);
    }
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_output_open(ntsim_output_t **out, const char *path, char *why, size_t cap)
{
    if (out == NULL)
        return NRT_INVALID;
    *out = NULL;
    if (path == NULL)
        return NRT_INVALID;
    struct stat st, lst;
    bool exists = stat(path, &st) == 0;
    NRT_STATUS rc;
    if (exists && (rc = refuse(path, &st, why, cap)) != NRT_SUCCESS)
        return rc;
    ntsim_output_t *o = ntsim__calloc(1, sizeof *o);
    if (o == NULL || (o->path = copy_n(path, strlen(path))) == NULL) {
        ntsim__free(o);
        return NRT_RESOURCE;
    }
    o->slot = -1;
    if (exists && !S_ISREG(st.st_mode)) {
        /* A device or a FIFO: nothing to keep, nothing to rename onto. */
        int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        int err = errno;
        if (fd < 0 || (o->f = fdopen(fd, "wb")) == NULL) {
            if (fd >= 0) {
                err = errno;
                (void)close(fd);
            }
            output_free(o);
            return failed(err, why, cap, "%s: cannot write", path);
        }
        *out = o;
        return NRT_SUCCESS;
    }
    /* A symlink to a file: that file is replaced, the link stays. */
    char *real = exists && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) ? realpath(path, NULL)
                                                                         : NULL;
    o->target = copy_n(real != NULL ? real : path, strlen(real != NULL ? real : path));
    free(real); /* libc's */
    rc = o->target == NULL ? NRT_RESOURCE : open_beside(o, exists ? &st : NULL, why, cap);
    if (rc != NRT_SUCCESS) {
        int err = errno;
        temp_unlist(o->slot);
        output_free(o);
        errno = err;
        return rc;
    }
    *out = o;
    return NRT_SUCCESS;
}

FILE *ntsim_output_file(const ntsim_output_t *o)
{
    return o != NULL ? o->f : NULL;
}

const char *ntsim_output_path(const ntsim_output_t *o)
{
    return o != NULL ? o->path : NULL;
}

/* Everything written reached the file: no earlier write failed, the flush,
 * fsync (a regular file) and close succeeded. o->f is closed either way. */
static NRT_STATUS finish(ntsim_output_t *o, char *why, size_t cap)
{
    if (o->finished)
        return NRT_SUCCESS;
    o->finished = true;
    FILE *f = o->f;
    o->f = NULL;
    bool earlier = ferror(f) != 0;
    errno = 0;
    int err = fflush(f) != 0 ? (errno != 0 ? errno : EIO) : 0;
    if (err == 0 && o->temp != NULL && fsync(fileno(f)) != 0)
        err = errno;
    if (fclose(f) != 0 && err == 0)
        err = errno != 0 ? errno : EIO;
    if (err == 0 && earlier)
        err = EIO; /* stdio kept the flag, not the reason: the writer reported it */
    if (err == 0)
        return NRT_SUCCESS;
    if (o->temp != NULL)
        (void)unlink(o->temp);
    return failed(err, why, cap, "%s: cannot write", o->path);
}

/* Renames the finished temporary file onto its target. */
static NRT_STATUS rename_onto(ntsim_output_t *o, char *why, size_t cap)
{
    if (o->temp == NULL || rename(o->temp, o->target) == 0)
        return NRT_SUCCESS;
    int err = errno;
    (void)unlink(o->temp);
    return failed(err, why, cap, "%s: cannot write: cannot rename the finished file onto it",
                  o->path);
}

static void release(ntsim_output_t *o)
{
    temp_unlist(o->slot);
    output_free(o);
}

NRT_STATUS ntsim_output_commit(ntsim_output_t *o, char *why, size_t cap)
{
    if (o == NULL)
        return NRT_INVALID;
    return ntsim_output_commit_all(&o, 1, NULL, 0, why, cap);
}

NRT_STATUS ntsim_output_commit_all(ntsim_output_t *const *o, size_t n,
                                   const char *const *remove, size_t n_remove, char *why,
                                   size_t cap)
{
    NRT_STATUS st = NRT_SUCCESS;
    int err = 0;
    for (size_t i = 0; i < n; i++) {
        if (o[i] == NULL) {
            st = NRT_INVALID;
            continue;
        }
        if (st == NRT_SUCCESS && (st = finish(o[i], why, cap)) != NRT_SUCCESS)
            err = errno;
    }
    /* The renames, and the removals, as one step: a signal in between would
     * leave the files of two runs side by side. */
    sigset_t hold, before;
    (void)sigemptyset(&hold);
    for (size_t i = 0; i < 4; i++)
        (void)sigaddset(&hold, g_end_signals[i]);
    (void)pthread_sigmask(SIG_BLOCK, &hold, &before);
    for (size_t i = 0; i < n && st == NRT_SUCCESS; i++)
        if ((st = rename_onto(o[i], why, cap)) != NRT_SUCCESS)
            err = errno;
    for (size_t i = 0; i < n_remove && st == NRT_SUCCESS; i++) {
        if (unlink(remove[i]) != 0 && errno != ENOENT) {
            err = errno;
            st = failed(err, why, cap, "%s: cannot remove the earlier run's file", remove[i]);
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (o[i] == NULL)
            continue;
        if (o[i]->f != NULL)
            (void)fclose(o[i]->f); /* not finished: an earlier one failed */
        if (o[i]->temp != NULL)
            (void)unlink(o[i]->temp); /* ENOENT once renamed */
        release(o[i]);
    }
    (void)pthread_sigmask(SIG_SETMASK, &before, NULL);
    errno = err;
    return st;
}

NRT_STATUS ntsim_output_commit_new(ntsim_output_t *o, const char *path, char *why, size_t cap)
{
    if (o == NULL || path == NULL)
        return NRT_INVALID;
    if (o->temp == NULL) {
        ntsim_output_abort(o);
        say(why, cap, "%s: cannot write a new file in place of a device", path);
        errno = EINVAL;
        return NRT_INVALID;
    }
    NRT_STATUS st = finish(o, why, cap);
    int err = errno;
    if (st == NRT_SUCCESS) {
        if (link(o->temp, path) == 0) {
            (void)unlink(o->temp);
            release(o);
            return NRT_SUCCESS;
        }
        err = errno;
        if (err == EEXIST) {
            say(why, cap, "%s: exists", path);
            errno = err;
            return NRT_INVALID; /* o kept: another name may be free */
        }
        (void)unlink(o->temp);
        st = failed(err, why, cap, "%s: cannot write", path);
    }
    release(o);
    errno = err;
    return st;
}

void ntsim_output_abort(ntsim_output_t *o)
{
    if (o == NULL)
        return;
    int saved = errno;
    if (o->f != NULL)
        (void)fclose(o->f);
    if (o->temp != NULL)
        (void)unlink(o->temp);
    release(o);
    errno = saved;
}

/* --- directories ------------------------------------------------------------------------ */

NRT_STATUS ntsim_output_dir_lock(const char *dir, int *fd, char *why, size_t cap)
{
    *fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (*fd < 0)
        return failed(errno, why, cap, "%s: cannot lock the directory", dir);
    if (flock(*fd, LOCK_EX | LOCK_NB) == 0)
        return NRT_SUCCESS;
    int err = errno;
    (void)close(*fd);
    *fd = -1;
    if (err == EOPNOTSUPP || err == ENOLCK || err == EINVAL)
        return NRT_SUCCESS; /* no locks here: each file is still whole (rename) */
    if (err == EWOULDBLOCK) {
        say(why, cap, "%s: another run is writing into this directory: refused, so that it holds "
                      "one run's files (wait for that run to end, or choose another directory)",
            dir);
        errno = err;
        return NRT_INVALID;
    }
    return failed(err, why, cap, "%s: cannot lock the directory", dir);
}

void ntsim_output_dir_unlock(int fd)
{
    if (fd >= 0)
        (void)close(fd); /* releases the flock */
}

/* --- stdout and command lines ------------------------------------------------------------ */

NRT_STATUS ntsim_output_stdout_close(const char *program)
{
    /* stdio keeps the error flag of a write that failed while printing (a
     * full buffer flushed to a full disk), but not its errno: the flush
     * below tries again what is still buffered and names the reason. */
    bool earlier = ferror(stdout) != 0;
    errno = 0;
    int err = fflush(stdout) != 0 ? errno : 0;
    if (fclose(stdout) != 0 && err == 0)
        err = errno;
    if (!earlier && err == 0)
        return NRT_SUCCESS;
    fprintf(stderr, "%s: cannot write stdout: %s\n", program,
            err != 0 ? strerror(err) : "a write failed");
    return NRT_FAILURE;
}

char *ntsim_output_shell_word(const char *s, bool always)
{
    size_t n = strlen(s), quotes = 0;
    bool plain = !always && n > 0;
    for (const char *c = s; *c != '\0'; c++) {
        quotes += *c == '\'';
        plain &= (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                 (*c >= '0' && *c <= '9') || strchr("_./:=,+@%-", *c) != NULL;
    }
    char *out = malloc(n + 3 * quotes + 3);
    if (out == NULL || plain) {
        if (out != NULL)
            memcpy(out, s, n + 1);
        return out;
    }
    char *o = out;
    *o++ = '\'';
    for (const char *c = s; *c != '\0'; c++) {
        if (*c == '\'') {
            memcpy(o, "'\\''", 4); /* close, an escaped quote, open again */
            o += 4;
        } else {
            *o++ = *c;
        }
    }
    *o++ = '\'';
    *o = '\0';
    return out;
}
