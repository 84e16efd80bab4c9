/*
 * sim/locate.h: the data ntsim ships, found from where the running program
 * is, never from the working directory ("work from anywhere").
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
 * The pieces are listed once, in NTSIM_DATA_MAP; a new one (vectors,
 * testee.proto, ntff.proto, the facts: issue 37) is one XX line giving its
 * path in each layout, and `make install` copies the tree path to the
 * installed one.
 */
#ifndef NTSIM_SIM_LOCATE_H
#define NTSIM_SIM_LOCATE_H

#include <stdbool.h>
#include <stddef.h>

/* XX(ID, tree path, installed path, what it is) */
#define NTSIM_DATA_MAP(XX)                                                                \
    XX(SCENARIOS, "sim/scenarios", "scenarios", "the shipped scenarios")

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

/* The data root for the program at `exe` (an absolute path, links
 * resolved): malloc'd, *installed says which layout; NULL with why (cap
 * bytes) when exe is in neither. For tests: ntsim_data_path asks it about
 * the running program. */
char *ntsim_data_root_of(const char *exe, bool *installed, char *why, size_t cap);

/* Where piece `what` is for the running program: a malloc'd path (which may
 * not exist: the caller's open says so), or NULL with why when the program
 * cannot be located or memory ran out. */
char *ntsim_data_path(ntsim_data_t what, char *why, size_t cap);

/* "the shipped scenarios" and so on: for messages. */
const char *ntsim_data_what(ntsim_data_t what);

#endif /* NTSIM_SIM_LOCATE_H */
