/*
 * sim/locate.c: the data ntsim ships, found from the program's own path
 * (locate.h).
 */
#include "locate.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"

static const struct {
    const char *tree, *installed, *what;
} data_rows[NTSIM_DATA_COUNT] = {
#define NTSIM_DATA_ROW_(id, tree, installed, what) {tree, installed, what},
    NTSIM_DATA_MAP(NTSIM_DATA_ROW_)
#undef NTSIM_DATA_ROW_
};

const char *ntsim_data_what(ntsim_data_t what)
{
    return what < NTSIM_DATA_COUNT ? data_rows[what].what : "(no such data)";
}

/* dir + "/" + tail, malloc'd. */
static char *join(const char *dir, const char *tail)
{
    size_t n = strlen(dir) + 1 + strlen(tail) + 1;
    char *p = malloc(n);
    if (p != NULL)
        snprintf(p, n, "%s/%s", dir, tail);
    return p;
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *dir, const char *tail)
{
    char *p = join(dir, tail);
    struct stat st;
    bool yes = p != NULL && stat(p, &st) == 0 && S_ISREG(st.st_mode);
    free(p);
    return yes;
}

/* Cuts path at its last '/': its parent, in place; false at the root. */
static bool up(char *path)
{
    char *slash = strrchr(path, '/');
    if (slash == NULL || slash == path)
        return false;
    *slash = '\0';
    return true;
}

char *ntsim_data_root_of(const char *exe, bool *installed, char *why, size_t cap)
{
    char *dir = ntsim_strdup(exe);
    if (dir == NULL) {
        snprintf(why, cap, "out of memory");
        return NULL;
    }
    if (exe[0] != '/' || !up(dir)) {
        snprintf(why, cap, "%s: not an absolute path to a program", exe);
        free(dir);
        return NULL;
    }
    /* <prefix>/bin/<program> with <prefix>/share/ntsim beside bin/. */
    const char *base = strrchr(dir, '/');
    if (base != NULL && strcmp(base, "/bin") == 0) {
        char *prefix = ntsim_strdup(dir);
        char *root = NULL;
        if (prefix != NULL && up(prefix))
            root = join(prefix, NTSIM_INSTALLED_DATA);
        free(prefix);
        if (root != NULL && is_dir(root)) {
            free(dir);
            *installed = true;
            return root;
        }
        free(root);
    }
    /* <source>/<BUILD...>/<program>: the first directory up that holds the
     * source tree's marker. */
    for (int level = 0; level <= NTSIM_LOCATE_MAX_UP; level++) {
        if (is_file(dir, NTSIM_SOURCE_MARKER)) {
            *installed = false;
            return dir;
        }
        if (!up(dir))
            break;
    }
    snprintf(why, cap, "%s is neither installed (<prefix>/bin, with <prefix>/%s) nor in a build "
                       "tree (%s within %d levels above it)",
             exe, NTSIM_INSTALLED_DATA, NTSIM_SOURCE_MARKER, NTSIM_LOCATE_MAX_UP);
    free(dir);
    return NULL;
}

/* The running program's path, links resolved, into exe[cap]; false with why. */
static bool own_path(char *exe, size_t cap, char *why, size_t why_cap)
{
    ssize_t n = readlink("/proc/self/exe", exe, cap - 1);
    if (n < 0 || (size_t)n >= cap - 1) {
        snprintf(why, why_cap, "/proc/self/exe: %s", n < 0 ? strerror(errno) : "path too long");
        return false;
    }
    exe[n] = '\0';
    return true;
}

/* root/tail, shown as tail alone when root is the working directory (a
 * program of a build tree run from the tree's top: `vectors`, as the tree
 * names it), else whole; malloc'd, NULL when out of memory. */
static char *shown(const char *root, const char *tail)
{
    char cwd[PATH_MAX];
    if (getcwd(cwd, sizeof cwd) != NULL && strcmp(cwd, root) == 0)
        return ntsim_strdup(tail);
    return join(root, tail);
}

/* root/tail for the running program's root in the layout it must be
 * (want_tree: the build tree only). */
static char *located(const char *tree, const char *installed_tail, bool want_tree, char *why,
                     size_t cap)
{
    char exe[PATH_MAX];
    if (!own_path(exe, sizeof exe, why, cap))
        return NULL;
    bool installed;
    char *root = ntsim_data_root_of(exe, &installed, why, cap);
    if (root == NULL)
        return NULL;
    if (want_tree && installed) {
        snprintf(why, cap, "%s is installed (its data in %s): it has no source tree", exe, root);
        free(root);
        return NULL;
    }
    char *path = shown(root, installed ? installed_tail : tree);
    free(root);
    if (path == NULL)
        snprintf(why, cap, "out of memory");
    return path;
}

char *ntsim_data_path(ntsim_data_t what, char *why, size_t cap)
{
    if (what >= NTSIM_DATA_COUNT) {
        snprintf(why, cap, "no such data");
        return NULL;
    }
    return located(data_rows[what].tree, data_rows[what].installed, false, why, cap);
}

char *ntsim_data_source_path(const char *tail, char *why, size_t cap)
{
    return located(tail, tail, true, why, cap);
}

char *ntsim_data_beside_program(const char *name, char *why, size_t cap)
{
    char exe[PATH_MAX], cwd[PATH_MAX];
    if (!own_path(exe, sizeof exe, why, cap))
        return NULL;
    bool installed;
    char *root = ntsim_data_root_of(exe, &installed, why, cap);
    char *path = up(exe) ? join(exe, name) : NULL;
    /* build/ntsim, as the tree's own commands name it, for a program of the
     * build tree run from the tree's top; a word without a '/' would be
     * looked up in PATH: ./ntsim. */
    size_t n = root != NULL ? strlen(root) : 0;
    if (path != NULL && root != NULL && !installed && getcwd(cwd, sizeof cwd) != NULL &&
        strcmp(cwd, root) == 0 && strncmp(path, root, n) == 0 && path[n] == '/') {
        char *rel = strchr(path + n + 1, '/') != NULL ? ntsim_strdup(path + n + 1)
                                                      : join(".", path + n + 1);
        free(path);
        path = rel;
    }
    free(root);
    if (path == NULL)
        snprintf(why, cap, "out of memory");
    return path;
}

/* Whether `tail` (a manifest line past "share/ntsim/") is piece `what`'s
 * installed file or a file under its installed folder. */
static bool under_piece(const char *tail, ntsim_data_t what)
{
    const char *piece = data_rows[what].installed;
    size_t n = strlen(piece);
    return strncmp(tail, piece, n) == 0 && (tail[n] == '\0' || tail[n] == '/');
}

/* Whether root/tail opens as a regular file; why when not. */
static bool opens(const char *root, const char *tail, char **path, char *why, size_t cap)
{
    *path = join(root, tail);
    if (*path == NULL) {
        snprintf(why, cap, "out of memory");
        return false;
    }
    uint64_t size;
    FILE *f = ntsim_open_input(*path, SIZE_MAX, &size, why, cap);
    if (f == NULL)
        return false;
    (void)fclose(f); /* opened to see that it opens: nothing read, nothing to lose */
    return true;
}

long ntsim_data_check_installed(const ntsim_data_t *wanted, size_t count,
                                ntsim_data_damage_fn damaged, void *ctx, char *why, size_t cap)
{
    /* A program in a build tree, or one that cannot be located (copied out
     * of any tree: its pieces' own lookups say so when it needs them), has
     * no manifest to check. */
    char exe[PATH_MAX], located_why[512];
    bool installed = false;
    char *root = count > 0 && own_path(exe, sizeof exe, located_why, sizeof located_why)
                     ? ntsim_data_root_of(exe, &installed, located_why, sizeof located_why)
                     : NULL;
    if (!installed) {
        free(root);
        return 0;
    }
    char *manifest = join(root, NTSIM_INSTALL_MANIFEST), err[256] = "out of memory";
    uint64_t size;
    FILE *f = manifest ? ntsim_open_input(manifest, SIZE_MAX, &size, err, sizeof err) : NULL;
    if (f == NULL) {
        snprintf(why, cap, "%s: %s", manifest ? manifest : NTSIM_INSTALL_MANIFEST, err);
        free(manifest);
        free(root);
        return -1;
    }
    const char prefix[] = NTSIM_INSTALLED_DATA "/";
    char *line = NULL;
    size_t line_cap = 0;
    long bad = 0;
    ssize_t n;
    errno = 0; /* getline's -1 is the end, a read error (ferror) or ENOMEM */
    while (bad >= 0 && (n = getline(&line, &line_cap, f)) >= 0) {
        if (n > 0 && line[n - 1] == '\n')
            line[n - 1] = '\0';
        if (strncmp(line, prefix, sizeof prefix - 1) != 0)
            continue; /* bin/, lib/, include/, the man pages: not data */
        const char *tail = line + sizeof prefix - 1;
        for (size_t i = 0; i < count; i++) {
            if (wanted[i] >= NTSIM_DATA_COUNT || !under_piece(tail, wanted[i]))
                continue;
            char *path, file_why[256];
            if (!opens(root, tail, &path, file_why, sizeof file_why)) {
                if (path == NULL) {
                    snprintf(why, cap, "out of memory");
                    bad = -1;
                    break;
                }
                damaged(wanted[i], path, file_why, ctx);
                bad++;
            }
            free(path);
            break;
        }
        errno = 0;
    }
    if (bad >= 0 && (ferror(f) || errno == ENOMEM)) {
        snprintf(why, cap, "%s: cannot read: %s", manifest, strerror(errno));
        bad = -1;
    }
    free(line);
    (void)fclose(f); /* read only */
    free(manifest);
    free(root);
    return bad;
}
