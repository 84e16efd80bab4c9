/*
 * conformance/runner/check_data.c: where the run's own data is (D-DATA-LOCATE).
 *
 * Each piece the harness judges by is the option's when it was given
 * (--vectors DIR, --proto DIR, --facts FILE, --decisions FILE, --xfail FILE,
 * --testdata DIR, --ntsim PATH), else where the locator (sim/locate.h) finds
 * it from the program's own path: the build tree's, or an installed
 * prefix's share/ntsim. No piece is looked for in the working directory.
 *
 * A piece that is missing or unreadable is the harness's error, never the
 * testee's: the run stops before anything is judged, with exit 2 and one
 * line per piece naming the file and the option that sets it:
 *
 *   check_ntsim: /opt/ntsim/share/ntsim/docs/spec_facts.md: cannot open: No
 *   such file or directory (the spec's facts, the harness's own data; --facts
 *   FILE reads another): nothing was judged
 *
 * An installed check_ntsim also checks each file of the located pieces it
 * reads against the list make install wrote (share/ntsim/install_manifest.txt):
 * one removed or unreadable is exit 2 the same way, naming the file, the
 * option and "make install puts it back" (D-DATA-LOCATE), so that a lost
 * vector is never a run of one vector fewer and a lost scenario never a
 * vector's failure.
 *
 * The unit suites test the source tree (its sources, its test data): they
 * run from a build tree only. An installed check_ntsim judges the vectors.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "input.h"
#include "kinds.h"
#include "locate.h"

const char *ntsim_check_vectors_dir;
const char *ntsim_check_facts_path;
const char *ntsim_check_decisions_path;
const char *ntsim_check_xfail_default;
const char *ntsim_check_testdata_dir;
const char *ntsim_check_exported_symbols_path;
const char *ntsim_check_ntsim_path;
const char *ntsim_check_source_root;
bool ntsim_check_vectors_given;

/* What the locator gave (and --proto's DIR/ntff.proto): freed at the end. */
enum { MAX_OWNED = 16 };
static char *g_owned[MAX_OWNED];
static size_t g_owned_count;

static const char *own(char *p)
{
    if (p == NULL || g_owned_count == MAX_OWNED) {
        free(p); /* the latter cannot happen: fewer pieces than slots */
        return NULL;
    }
    g_owned[g_owned_count++] = p;
    return p;
}

void ntsim_check_data_free(void)
{
    for (size_t i = 0; i < g_owned_count; i++)
        free(g_owned[i]);
    g_owned_count = 0;
    ntsim_check_vectors_dir = ntsim_check_facts_path = ntsim_check_decisions_path = NULL;
    ntsim_check_xfail_default = ntsim_check_testdata_dir = NULL;
    ntsim_check_exported_symbols_path = ntsim_check_ntsim_path = NULL;
    ntsim_check_source_root = ntsim_check_ntff_proto = NULL;
}

bool ntsim_check_set_proto_dir(const char *dir)
{
    size_t n = strlen(dir) + sizeof "/ntff.proto";
    char *p = malloc(n);
    if (p == NULL)
        return false;
    snprintf(p, n, "%s/ntff.proto", dir);
    ntsim_check_ntff_proto = own(p);
    return ntsim_check_ntff_proto != NULL;
}

/* One piece the run needs: where it is (the option's value, or NULL until
 * located), what it is, and the option that sets it. */
typedef struct piece {
    const char **value;
    ntsim_data_t data;
    const char *option;
    bool dir;
} piece_t;

/* "PATH: cannot open: REASON" for a piece that is not there or cannot be
 * read; false then. A vector directory must list, a file must open. */
static bool readable(const char *path, bool dir, char *err, size_t cap)
{
    if (dir) {
        DIR *d = opendir(path);
        if (d == NULL) {
            snprintf(err, cap, "cannot read the directory: %s", strerror(errno));
            return false;
        }
        closedir(d);
        return true;
    }
    uint64_t size;
    FILE *f = ntsim_open_input(path, SIZE_MAX, &size, err, cap);
    if (f == NULL)
        return false;
    (void)fclose(f); /* opened to see that it opens: nothing read, nothing to lose */
    return true;
}

/* The piece's value, located when no option gave it; false, with its line
 * printed, when it cannot be found or read. */
static bool settle(const char *argv0, const piece_t *p)
{
    char why[512], err[512];
    if (*p->value == NULL) {
        char *path = ntsim_data_path(p->data, why, sizeof why);
        if (path == NULL) {
            fprintf(stderr, "%s: cannot find %s: %s (the harness's own data; %s gives it)\n",
                    argv0, ntsim_data_what(p->data), why, p->option);
            return false;
        }
        *p->value = own(path);
    }
    if (readable(*p->value, p->dir, err, sizeof err))
        return true;
    fprintf(stderr, "%s: %s: %s (%s, the harness's own data; %s reads another)\n", argv0,
            *p->value, err, ntsim_data_what(p->data), p->option);
    return false;
}

/* The source tree's pieces for the unit suites; false (and no unit suite)
 * when the program is installed. */
static bool settle_tree(void)
{
    char why[512];
    char *root = ntsim_data_source_path(".", why, sizeof why);
    if (root == NULL)
        return false;
    /* "." below the working directory is the tree's top: paths read as the
     * tree names them. */
    size_t n = strlen(root);
    if (n >= 2 && strcmp(root + n - 2, "/.") == 0)
        root[n - 2] = '\0';
    ntsim_check_source_root = own(root);
    if (ntsim_check_testdata_dir == NULL)
        ntsim_check_testdata_dir = own(ntsim_data_source_path("conformance/testdata", why, sizeof why));
    ntsim_check_exported_symbols_path =
        own(ntsim_data_source_path("conformance/cli/exported_symbols.txt", why, sizeof why));
    return ntsim_check_testdata_dir != NULL && ntsim_check_exported_symbols_path != NULL;
}

const char *ntsim_check_tree(char *buf, size_t cap, const char *tail)
{
    const char *root = ntsim_check_source_root != NULL ? ntsim_check_source_root : ".";
    if (strcmp(root, ".") == 0)
        snprintf(buf, cap, "%s", tail);
    else
        snprintf(buf, cap, "%s/%s", root, tail);
    return buf;
}

/* The pieces an installed run may check against the manifest, with the
 * option that reads another (NULL: none does). */
static const struct {
    ntsim_data_t data;
    const char *option;
    bool dir;
} installed_pieces[] = {
    {NTSIM_DATA_VECTORS, "--vectors DIR", true},
    {NTSIM_DATA_SCENARIOS, NULL, true},
    {NTSIM_DATA_NTFF_PROTO, "--proto DIR", false},
    {NTSIM_DATA_FACTS, "--facts FILE", false},
    {NTSIM_DATA_DECISIONS, "--decisions FILE", false},
    {NTSIM_DATA_EXPECTED_FAILURES, "--xfail FILE", false},
};
enum { INSTALLED_PIECES = sizeof installed_pieces / sizeof installed_pieces[0] };
/* The most damaged files named one by one; the rest are counted. */
enum { DAMAGE_SHOWN = 10 };

typedef struct damage {
    const char *argv0;
    long count;
} damage_t;

/* One line per file of the install that is missing or does not open. */
static void damaged(ntsim_data_t what, const char *path, const char *why, void *ctx)
{
    damage_t *d = ctx;
    if (d->count++ >= DAMAGE_SHOWN)
        return;
    size_t i = 0;
    while (i + 1 < INSTALLED_PIECES && installed_pieces[i].data != what)
        i++;
    const char *option = installed_pieces[i].option;
    fprintf(stderr, "%s: %s: %s (%s%s, the harness's own data as make install put it; %s%smake "
                    "install puts it back)\n",
            d->argv0, path, why, installed_pieces[i].dir ? "a file of " : "", ntsim_data_what(what),
            option != NULL ? option : "", option != NULL ? " reads another, " : "");
}

/* For an installed program: every file of the located pieces this run
 * reads (wanted[0..count)) is there and opens, as make install listed
 * them; -1 to go on, else 2, each one that is not named. */
static int check_installed(const char *argv0, const ntsim_data_t *wanted, size_t count)
{
    char why[512];
    damage_t d = {argv0, 0};
    long bad = ntsim_data_check_installed(wanted, count, damaged, &d, why, sizeof why);
    if (bad < 0) {
        fprintf(stderr, "%s: %s (make install's list of what it put, by which an installed "
                        "check_ntsim checks its data; make install puts it back): nothing was "
                        "judged\n",
                argv0, why);
        return 2;
    }
    if (bad == 0)
        return -1;
    if (bad > DAMAGE_SHOWN)
        fprintf(stderr, "%s: ... and %ld more\n", argv0, bad - DAMAGE_SHOWN);
    fprintf(stderr, "%s: nothing was judged: %ld file%s of the installed data above missing or "
                    "unreadable\n",
            argv0, bad, bad == 1 ? "" : "s");
    return 2;
}

int ntsim_check_locate(const char *argv0, bool generating, bool in_process, bool xfail_given,
                       bool *tree)
{
    const piece_t pieces[] = {
        {&ntsim_check_vectors_dir, NTSIM_DATA_VECTORS, "--vectors DIR", true},
        {&ntsim_check_ntff_proto, NTSIM_DATA_NTFF_PROTO, "--proto DIR", false},
        {&ntsim_check_facts_path, NTSIM_DATA_FACTS, "--facts FILE", false},
        {&ntsim_check_decisions_path, NTSIM_DATA_DECISIONS, "--decisions FILE", false},
    };
    ntsim_check_vectors_given = ntsim_check_vectors_dir != NULL;
    bool ok = true, located = false;
    /* What this run reads from where the locator found it: in process, the
     * scenarios the scenario vectors name (a harness kind: skipped with a
     * testee; none under --generate) and the default expected failures
     * (unless --xfail); each piece no option gave. */
    ntsim_data_t wanted[INSTALLED_PIECES];
    size_t n_wanted = 0;
    if (in_process && !generating)
        wanted[n_wanted++] = NTSIM_DATA_SCENARIOS;
    if (in_process && !generating && !xfail_given)
        wanted[n_wanted++] = NTSIM_DATA_EXPECTED_FAILURES;
    for (size_t i = 0; i < sizeof pieces / sizeof pieces[0]; i++)
        if (!generating || pieces[i].value != &ntsim_check_vectors_dir) {
            bool given = *pieces[i].value != NULL, here = settle(argv0, &pieces[i]);
            ok &= here;
            located |= !here && !given;
            if (!given)
                wanted[n_wanted++] = pieces[i].data;
        }
    if (!ok) {
        fprintf(stderr, "%s: nothing was judged: the harness's own data above is missing%s\n",
                argv0, located ? " (make install puts it in PREFIX/share/ntsim)" : "");
        return 2;
    }
    int rc = check_installed(argv0, wanted, n_wanted);
    if (rc >= 0)
        return rc;
    char why[512];
    /* Optional: a tree or a prefix without the list has no expected failure. */
    if (ntsim_check_xfail_default == NULL)
        ntsim_check_xfail_default =
            own(ntsim_data_path(NTSIM_DATA_EXPECTED_FAILURES, why, sizeof why));
    if (ntsim_check_ntsim_path == NULL)
        ntsim_check_ntsim_path = own(ntsim_data_beside_program("ntsim", why, sizeof why));
    if (ntsim_check_ntsim_path == NULL)
        ntsim_check_ntsim_path = "ntsim";
    *tree = settle_tree();
    return -1;
}

int ntsim_check_vectors_unreadable(const char *argv0)
{
    const ntsim_errors_t *unreadable = &ntsim_check_vectors.unreadable;
    for (size_t e = 0; e < unreadable->count; e++)
        fprintf(stderr, "%s: %s (under the vectors' directory: the harness's own input, not the "
                        "testee's; --vectors DIR reads another)\n",
                argv0, unreadable->items[e]);
    if (unreadable->count == 0)
        return -1;
    fprintf(stderr, "%s: nothing was judged: %zu unreadable under the vectors' directory (above)\n",
            argv0, unreadable->count);
    return 2;
}
