/*
 * conformance/lib/output.c: checked output (output.h): stdout, and files
 * written beside themselves and renamed into place.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"

struct ntsim_output {
    char *path; /* the file to write */
    char *temp; /* beside it, until commit renames it */
    char *dir;  /* their directory, fsync'd after the rename */
    FILE *f;
};

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

/* path's directory ("." when it has no '/'), malloc'd. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (slash == NULL)
        return ntsim_strdup(".");
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    char *d = malloc(n + 1);
    if (d != NULL) {
        memcpy(d, path, n);
        d[n] = '\0';
    }
    return d;
}

NRT_STATUS ntsim_output_check(const char *path, const char *const *inputs, size_t n, char *why,
                              size_t cap)
{
    struct stat st, in;
    if (path[0] == '\0') {
        snprintf(why, cap, "an empty path: cannot write it");
        return NRT_INVALID;
    }
    if (stat(path, &st) == 0) {
        /* A device, a FIFO, a directory: a rename would put a file where it
         * is (root may replace /dev/full), or fail; never written. */
        if (!S_ISREG(st.st_mode)) {
            snprintf(why, cap, "%s: not a regular file (%s): cannot write it", path,
                     ntsim_file_type_name(st.st_mode));
            return NRT_INVALID;
        }
        for (size_t i = 0; i < n; i++)
            if (inputs[i] != NULL && stat(inputs[i], &in) == 0 && in.st_dev == st.st_dev &&
                in.st_ino == st.st_ino) {
                snprintf(why, cap, "%s: is %s, an input of this run: refusing to write over it",
                         path, inputs[i]);
                return NRT_INVALID;
            }
    }
    char *dir = dir_of(path);
    if (dir == NULL) {
        snprintf(why, cap, "out of memory");
        return NRT_RESOURCE;
    }
    NRT_STATUS rc = NRT_SUCCESS;
    if (access(dir, W_OK | X_OK) != 0) {
        snprintf(why, cap, "%s: cannot write: %s: %s", path, dir, strerror(errno));
        rc = NRT_INVALID;
    }
    free(dir);
    return rc;
}

void ntsim_output_abort(ntsim_output_t *o)
{
    if (o == NULL)
        return;
    if (o->f != NULL)
        (void)fclose(o->f); /* abandoned: what it held is not wanted */
    if (o->temp != NULL)
        (void)unlink(o->temp);
    free(o->path);
    free(o->temp);
    free(o->dir);
    free(o);
}

NRT_STATUS ntsim_output_open(ntsim_output_t **out, const char *path, const char *const *inputs,
                             size_t n, char *why, size_t cap)
{
    *out = NULL;
    NRT_STATUS st = ntsim_output_check(path, inputs, n, why, cap);
    if (st != NRT_SUCCESS)
        return st;
    /* A symlink is written through: its target is the file replaced (as
     * git's lockfile does), the link stays. */
    struct stat lst;
    char *target = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) ? realpath(path, NULL) : NULL;
    if (target != NULL)
        path = target;
    ntsim_output_t *o = calloc(1, sizeof *o);
    const char *base = strrchr(path, '/') != NULL ? strrchr(path, '/') + 1 : path;
    if (o == NULL || (o->path = ntsim_strdup(path)) == NULL || (o->dir = dir_of(path)) == NULL ||
        (o->temp = malloc(strlen(o->dir) + strlen(base) + 16)) == NULL) {
        free(target);
        ntsim_output_abort(o);
        snprintf(why, cap, "out of memory");
        return NRT_RESOURCE;
    }
    sprintf(o->temp, "%s/.%s.XXXXXX", o->dir, base);
    free(target); /* base pointed into it: used last just above */
    int fd = mkstemp(o->temp);
    if (fd < 0) {
        snprintf(why, cap, "%s: cannot write: a temporary file beside it: %s", path,
                 strerror(errno));
        free(o->temp);
        o->temp = NULL; /* nothing was created */
        ntsim_output_abort(o);
        return NRT_FAILURE;
    }
    /* mkstemp makes it 0600; the file gets what a new file would get (the
     * old one's mode when it exists). */
    struct stat old;
    mode_t mask = umask(0);
    (void)umask(mask);
    mode_t mode = stat(path, &old) == 0 ? (old.st_mode & 07777) : (0666 & ~mask);
    if (fchmod(fd, mode) != 0 || (o->f = fdopen(fd, "w")) == NULL) {
        snprintf(why, cap, "%s: cannot write: %s", path, strerror(errno));
        (void)close(fd);
        ntsim_output_abort(o);
        return NRT_FAILURE;
    }
    *out = o;
    return NRT_SUCCESS;
}

FILE *ntsim_output_file(ntsim_output_t *o)
{
    return o->f;
}

NRT_STATUS ntsim_output_commit(ntsim_output_t *o, char *why, size_t cap)
{
    /* The error flag covers every earlier write; fflush and fsync put the
     * bytes on the disk before the rename makes them the file. */
    bool earlier = ferror(o->f) != 0;
    errno = 0;
    int err = fflush(o->f) != 0 || fsync(fileno(o->f)) != 0 ? errno : 0;
    if (fclose(o->f) != 0 && err == 0)
        err = errno;
    o->f = NULL;
    if (!earlier && err == 0 && rename(o->temp, o->path) != 0)
        err = errno;
    if (earlier || err != 0) {
        snprintf(why, cap, "%s: cannot write: %s", o->path,
                 err != 0 ? strerror(err) : "a write failed");
        ntsim_output_abort(o);
        return NRT_FAILURE;
    }
    /* The rename is durable once the directory is: best effort (a file
     * system that cannot fsync a directory still renamed it). */
    int dfd = open(o->dir, O_RDONLY);
    if (dfd >= 0) {
        (void)fsync(dfd);
        (void)close(dfd);
    }
    free(o->temp);
    o->temp = NULL; /* renamed: nothing to remove */
    ntsim_output_abort(o);
    return NRT_SUCCESS;
}
