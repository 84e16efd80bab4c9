/*
 * conformance/kinds/ntff_protoc.c: NTFF bytes decoded by the real protobuf
 * compiler (`protoc --decode`), for the ntff kind and the generator
 * (kinds.h: ntsim_ntff_decode).
 *
 * No shell: protoc is started with an argument vector (posix_spawnp), so a
 * --proto DIR holding a quote, a space or `'; touch F; '` is only a path.
 *
 * The schema is frozen: ntff.proto is read into memory once
 * (ntsim_ntff_schema_freeze, which the runner calls before any testee
 * process exists), and each decode writes that text, with the bytes, into a
 * fresh private directory (mkdtemp, mode 0700) that protoc reads. A testee
 * that rewrites engine/convert/ntff.proto while it runs cannot change how its
 * own bytes are read. The file is the runner's --proto DIR's, or found by
 * the locator (sim/locate.h) from where the program is.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "input.h"
#include "kinds.h"
#include "locate.h"

extern char **environ;

/* The schema's text, once read; or why it could not be. */
static char *g_schema;
static size_t g_schema_len;
static char g_schema_error[512];
static bool g_schema_tried;

NRT_STATUS ntsim_ntff_schema_freeze(char *why, size_t cap)
{
    if (!g_schema_tried) {
        g_schema_tried = true;
        char err[256] = "";
        char *located = ntsim_check_ntff_proto != NULL
                            ? NULL
                            : ntsim_data_path(NTSIM_DATA_NTFF_PROTO, err, sizeof err);
        const char *path = ntsim_check_ntff_proto != NULL ? ntsim_check_ntff_proto : located;
        if (path == NULL) {
            snprintf(g_schema_error, sizeof g_schema_error, "the NTFF schema: %.300s", err);
        } else if (ntsim_read_input(path, NTSIM_INPUT_DOC, &g_schema, &g_schema_len, err,
                                    sizeof err) != NRT_SUCCESS) {
            g_schema = NULL;
            snprintf(g_schema_error, sizeof g_schema_error, "%.300s: %.200s", path,
                     err[0] ? err : "out of memory");
        }
        free(located);
    }
    if (g_schema != NULL)
        return NRT_SUCCESS;
    snprintf(why, cap, "%s", g_schema_error);
    return NRT_FAILURE;
}

static void schema_forget(void)
{
    free(g_schema);
    g_schema = NULL;
    g_schema_len = 0;
    g_schema_tried = false;
}

/* DIR/NAME holding exactly len bytes of data; false with why. */
static bool write_file(const char *dir, const char *name, const void *data, size_t len,
                       char *why, size_t cap)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0) {
        snprintf(why, cap, "cannot create a temporary file: %s", strerror(errno));
        return false;
    }
    const char *p = data;
    size_t done = 0;
    while (done < len) {
        ssize_t k = write(fd, p + done, len - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            snprintf(why, cap, "cannot write a temporary file: %s", strerror(errno));
            (void)close(fd);
            return false;
        }
        done += (size_t)k;
    }
    if (close(fd) != 0) {
        snprintf(why, cap, "cannot write a temporary file: %s", strerror(errno));
        return false;
    }
    return true;
}

/* protoc with argv, stdin from in_path, stdout and stderr into *text (at
 * most 64 MiB); its wait status in *status. false with why when it could
 * not be run or read. */
static bool spawn_protoc(char *const argv[], const char *in_path, char **text, int *status,
                         char *why, size_t cap)
{
    int out[2];
    if (pipe(out) != 0) {
        snprintf(why, cap, "cannot run protoc: pipe: %s", strerror(errno));
        return false;
    }
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    sigset_t def;
    (void)sigemptyset(&def);
    (void)sigaddset(&def, SIGPIPE); /* the runner ignores it; protoc should not */
    bool ready = posix_spawn_file_actions_init(&fa) == 0;
    if (ready && posix_spawnattr_init(&at) != 0) {
        (void)posix_spawn_file_actions_destroy(&fa);
        ready = false;
    }
    int rc = ENOMEM;
    pid_t pid = -1;
    if (ready) {
        if (posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, in_path, O_RDONLY, 0) == 0 &&
            posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO) == 0 &&
            posix_spawn_file_actions_adddup2(&fa, out[1], STDERR_FILENO) == 0 &&
            posix_spawn_file_actions_addclose(&fa, out[0]) == 0 &&
            posix_spawn_file_actions_addclose(&fa, out[1]) == 0 &&
            posix_spawnattr_setsigdefault(&at, &def) == 0 &&
            posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF) == 0)
            rc = posix_spawnp(&pid, argv[0], &fa, &at, argv, environ);
        (void)posix_spawn_file_actions_destroy(&fa);
        (void)posix_spawnattr_destroy(&at);
    }
    (void)close(out[1]); /* ours: protoc holds its own copy */
    if (rc != 0) {
        (void)close(out[0]);
        snprintf(why, cap, "cannot run protoc: %s", strerror(rc));
        return false;
    }
    FILE *f = fdopen(out[0], "r");
    size_t n = 0;
    bool ok = f != NULL && ntsim_read_stream(f, (size_t)64 << 20, text, &n) == NRT_SUCCESS;
    if (f != NULL)
        (void)fclose(f); /* a pipe read to its end: nothing to lose */
    else
        (void)close(out[0]);
    while (waitpid(pid, status, 0) < 0 && errno == EINTR)
        ;
    if (!ok) {
        snprintf(why, cap, "cannot read protoc's output");
        return false;
    }
    return true;
}

NRT_STATUS ntsim_ntff_protoc_check(char *why, size_t cap)
{
    char *argv[] = {(char *)"protoc", (char *)"--version", NULL};
    char *text = NULL;
    int status = 0;
    if (!spawn_protoc(argv, "/dev/null", &text, &status, why, cap))
        return NRT_FAILURE;
    bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!ok)
        snprintf(why, cap, "protoc --version did not succeed: %.200s", text != NULL ? text : "");
    free(text);
    return ok ? NRT_SUCCESS : NRT_FAILURE;
}

/* Runs protoc on the bytes as ntff.<message>; returns its stdout (malloc'd)
 * or NULL with why. */
static char *protoc_run(const char *message, const uint8_t *bytes, size_t len, char *why,
                        size_t why_cap)
{
    if (ntsim_ntff_schema_freeze(why, why_cap) != NRT_SUCCESS)
        return NULL;
    char dir[] = "/tmp/ntsim-protoc-XXXXXX";
    if (mkdtemp(dir) == NULL) {
        snprintf(why, why_cap, "mkdtemp: %s", strerror(errno));
        return NULL;
    }
    char proto[sizeof dir + 16], in[sizeof dir + 16], include[sizeof dir + 4];
    snprintf(proto, sizeof proto, "%s/ntff.proto", dir);
    snprintf(in, sizeof in, "%s/in.bin", dir);
    snprintf(include, sizeof include, "-I%s", dir);
    size_t dn = strlen(message) + sizeof "--decode=ntff.";
    char *decode = malloc(dn);
    if (decode != NULL)
        snprintf(decode, dn, "--decode=ntff.%s", message);
    char *text = NULL;
    int status = 0;
    if (decode == NULL) {
        snprintf(why, why_cap, "out of memory");
    } else if (write_file(dir, "ntff.proto", g_schema, g_schema_len, why, why_cap) &&
               write_file(dir, "in.bin", bytes, len, why, why_cap)) {
        char *argv[] = {(char *)"protoc", decode, include, proto, NULL};
        if (spawn_protoc(argv, in, &text, &status, why, why_cap) &&
            !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
            if (WIFEXITED(status))
                snprintf(why, why_cap, "protoc exited %d: %.200s", WEXITSTATUS(status), text);
            else
                snprintf(why, why_cap, "protoc was killed by signal %d", WTERMSIG(status));
            free(text);
            text = NULL;
        }
    }
    free(decode);
    (void)unlink(proto); /* our own private directory: nothing else is in it */
    (void)unlink(in);
    (void)rmdir(dir);
    return text;
}

/* The last few decodes, by message and bytes: the generator (conformance/
 * generate/) decodes the reference's bytes for a vector's `decode` and then
 * judges a testee that, when right, answers the same bytes; protoc is
 * deterministic, so an equal input is its earlier output again, without the
 * ~10 ms of a process start. Only successful decodes are kept. */
enum { DECODE_CACHE = 4 };
static struct {
    char message[64];
    uint8_t *bytes;
    size_t len;
    char *text;
} g_decoded[DECODE_CACHE];
static size_t g_decoded_next;

char *ntsim_ntff_decode(const char *message, const uint8_t *bytes, size_t len, char *why,
                        size_t why_cap)
{
    for (size_t i = 0; i < DECODE_CACHE; i++)
        if (g_decoded[i].text != NULL && g_decoded[i].len == len &&
            strcmp(g_decoded[i].message, message) == 0 &&
            (len == 0 || memcmp(g_decoded[i].bytes, bytes, len) == 0))
            return ntsim_strdup(g_decoded[i].text);
    char *text = protoc_run(message, bytes, len, why, why_cap);
    if (text == NULL || strlen(message) >= sizeof g_decoded[0].message)
        return text;
    size_t k = g_decoded_next++ % DECODE_CACHE;
    free(g_decoded[k].bytes);
    free(g_decoded[k].text);
    g_decoded[k].bytes = malloc(len ? len : 1);
    g_decoded[k].text = ntsim_strdup(text);
    if (g_decoded[k].bytes == NULL || g_decoded[k].text == NULL) {
        free(g_decoded[k].bytes);
        free(g_decoded[k].text);
        g_decoded[k].bytes = NULL;
        g_decoded[k].text = NULL;
        return text;
    }
    if (len > 0)
        memcpy(g_decoded[k].bytes, bytes, len);
    g_decoded[k].len = len;
    snprintf(g_decoded[k].message, sizeof g_decoded[k].message, "%s", message);
    return text;
}

void ntsim_ntff_decode_forget(void)
{
    for (size_t i = 0; i < DECODE_CACHE; i++) {
        free(g_decoded[i].bytes);
        free(g_decoded[i].text);
        g_decoded[i].bytes = NULL;
        g_decoded[i].text = NULL;
    }
    schema_forget();
}
