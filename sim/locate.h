/*
 * sim/locate.h: the data ntsim ships, found from where the running program
 * is, never from the working directory ("work from anywhere", D-DATA-LOCATE).
 *
 * The program's own path (/proc/self/exe, links resolved) says which of two
 * layouts it runs from:
 *
 *   installed   <prefix>/bin/<program>: the data root is <prefix>/share/ntsim
 *               (when that directory exists), and each piece of data is
 *               <root>/<installed path> ("scenarios");
 *   build tree  <source>/<BUILD...>/<program>, BUILD being build/,
 *               build/asan/, build/clang/ or any depth: the data root is the
 *               first directory above the program's that holds
 *               NTSIM_SOURCE_MARKER (at most NTSIM_LOCATE_MAX_UP levels up),
 *               and each piece is <root>/<tree path> ("sim/scenarios").
 *
 * The installed layout is tried first, so a program copied into a prefix
 * never reads a source tree it happens to sit in.
 *
 * The pieces are listed once, in NTSIM_DATA_MAP, for every layer that reads
 * one (the simulator its scenarios, the harness its vectors, schemas, facts
 * and decisions): this is the lowest layer that needs the locator, and the
 * layers above include it. `make install` copies each row's tree path to
 * its installed path (the Makefile reads the rows from this file), and the
 * man pages' FILES sections are checked against them.
 *
 * A path the locator returns is absolute, but for a program of a build
 * tree run from the tree's top, which reads `vectors`, as the tree names
 * it, not `/home/me/ntsim/vectors`: the same run prints the same lines
 * wherever the tree is.
 */
#ifndef NTSIM_SIM_LOCATE_H
#define NTSIM_SIM_LOCATE_H

#include <stdbool.h>
#include <stddef.h>

/* XX(ID, tree path, installed path under share/ntsim, what it is) */
#define NTSIM_DATA_MAP(XX)                                                                \
    XX(SCENARIOS, "sim/scenarios", "scenarios", "the shipped scenarios")                  \
    XX(VECTORS, "vectors", "vectors", "the vectors")                                      \
    XX(NTFF_PROTO, "engine/convert/ntff.proto", "proto/ntff.proto", "the NTFF schema")    \
    XX(PERFETTO_PROTO, "engine/timeline/perfetto_trace.proto",                            \
       "proto/perfetto_trace.proto", "the Perfetto subset the timelines are written in")  \
    XX(TESTEE_PROTO, "conformance/testee/testee.proto", "proto/testee.proto",             \
       "the testee protocol")                                                             \
    XX(FACTS, "docs/spec_facts.md", "docs/spec_facts.md", "the spec's facts")             \
    XX(DECISIONS, "docs/decisions.md", "docs/decisions.md", "the decisions")              \
    XX(EXPECTED_FAILURES, "conformance/runner/expected_failures.txt",                      \
       "expected_failures.txt", "ntsim's own expected failures")                          \
    XX(TESTEE_GUIDE, "conformance/testee/TESTEE.md", "docs/TESTEE.md",                    \
       "the porter's guide to writing a testee")                                          \
    XX(EXAMPLES, "conformance/testee/examples", "examples", "the example testees")

typedef enum ntsim_data {
#define NTSIM_DATA_ENUM_(id, tree, installed, what) NTSIM_DATA_##id,
    NTSIM_DATA_MAP(NTSIM_DATA_ENUM_)
#undef NTSIM_DATA_ENUM_
        NTSIM_DATA_COUNT
} ntsim_data_t;

/* A file every source tree holds and nothing else does: what marks the
 * build tree's root. */
#define NTSIM_SOURCE_MARKER "sim/sim.mk"
/* The most levels the build-tree walk climbs from the program's directory. */
#define NTSIM_LOCATE_MAX_UP 8
/* Under <prefix>: where the installed data is. */
#define NTSIM_INSTALLED_DATA "share/ntsim"
/* Under the installed data: the list make install writes of every file it
 * put, one path a line relative to <prefix> ("share/ntsim/vectors/x.yaml";
 * the Makefile reads the name from here). */
#define NTSIM_INSTALL_MANIFEST "install_manifest.txt"

/* The data root for the program at `exe` (an absolute path, links
 * resolved): malloc'd, *installed says which layout; NULL with why (cap
 * bytes) when exe is in neither. For tests: ntsim_data_path asks it about
 * the running program. */
char *ntsim_data_root_of(const char *exe, bool *installed, char *why, size_t cap);

/* Where piece `what` is for the running program: a malloc'd path (which may
 * not exist: the caller's open says so), or NULL with why when the program
 * cannot be located or memory ran out. */
char *ntsim_data_path(ntsim_data_t what, char *why, size_t cap);

/* `tail` in the source tree the running program was built in (the unit
 * suites read the tree: its sources, its test data): a malloc'd path, or
 * NULL with why, for an installed program too (it has no source tree). */
char *ntsim_data_source_path(const char *tail, char *why, size_t cap);

/* The program `name` beside the running one (check_ntsim's ntsim): a
 * malloc'd path, or NULL with why. */
char *ntsim_data_beside_program(const char *name, char *why, size_t cap);

/* One file of an installed piece that is missing or does not open: the
 * piece, the file's path and why ("cannot open: No such file or directory"). */
typedef void (*ntsim_data_damage_fn)(ntsim_data_t what, const char *path, const char *why,
                                     void *ctx);

/* For a program run from an installed prefix: every file its manifest lists
 * under the pieces wanted[0..count) that is missing or does not open (a
 * FIFO or a directory where a file was installed: not a regular file), each
 * given to damaged(ctx) in the manifest's order. Returns how many, or -1
 * with why (naming the manifest) when the manifest cannot be read or memory
 * ran out. A program of a build tree, or one that cannot be located, has no
 * manifest: 0, nothing checked. */
long ntsim_data_check_installed(const ntsim_data_t *wanted, size_t count,
                                ntsim_data_damage_fn damaged, void *ctx, char *why, size_t cap);

/* "the shipped scenarios" and so on: for messages. */
const char *ntsim_data_what(ntsim_data_t what);

#endif /* NTSIM_SIM_LOCATE_H */
