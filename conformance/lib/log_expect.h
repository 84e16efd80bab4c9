/*
 * conformance/lib/log_expect.h: what a vector says a request logs, and the
 * one judge of a log (record, json, notify and api kinds; vectors/README.md,
 * "Logs"; D-LOG-CONTRACT).
 *
 * A check may demand a message's level, how many messages there are, the
 * text the spec quotes and the values the message is about, never the
 * implementation's English around them. A vector's `log` lists every
 * message at error or warning, in the order they are logged:
 *
 *   log: []                                   # nothing at error or warning
 *   log: [warning]                            # one warning, whatever it says
 *   log: [{warning: [256]}]                   # one warning that holds 256
 *   log: [{info: [0.109, GB]}, {error: ["Invalid notification type: 9"]}]
 *
 * An entry is a level (`error`, `warning`, `info`), alone or as the one key
 * of a mapping whose value lists the parts the message must hold, in any
 * order, each as a whole (not inside a longer word or number):
 *   - a plain integer (decimal or 0x hex, a sign allowed): that number in
 *     decimal (`256` is not found in "2560" nor in "-256");
 *   - a plain decimal (`0.109`): a number of the message that rounds to it
 *     at its places ("0.109375" holds 0.109, "0.11" does not);
 *   - any other scalar (quoted ones always): that text.
 * Info messages need not be listed (an environment's note, such as
 * "membarrier unavailable"); one that is listed must be there, in order.
 * The reply's count must equal its lines: a message counted and not shown
 * cannot be judged, so it fails every log check (each demands that no
 * other error or warning was logged).
 */
#ifndef NTSIM_CONFORMANCE_LOG_EXPECT_H
#define NTSIM_CONFORMANCE_LOG_EXPECT_H

#include <stdbool.h>
#include <stdint.h>

#include "ntsim/capture.h"
#include "report.h"
#include "yaml_reader.h"

/* How many messages a vector's log may list (an api range setter makes a call
 * per NC, each of which may warn). */
#define NTSIM_LOG_EXPECT_MAX 512

typedef enum ntsim_log_part_kind {
    NTSIM_LOG_PART_TEXT,
    NTSIM_LOG_PART_INT,     /* text: the integer in decimal */
    NTSIM_LOG_PART_DECIMAL, /* text: as written; value and places */
} ntsim_log_part_kind_t;

typedef struct ntsim_log_part {
    ntsim_log_part_kind_t kind;
    char *text;             /* malloc'd */
    double value;           /* DECIMAL */
    unsigned places;        /* DECIMAL: digits after the point */
} ntsim_log_part_t;

typedef struct ntsim_log_entry {
    ntsim_log_level_t level;
    ntsim_log_part_t *parts; /* malloc'd */
    size_t n_parts;
} ntsim_log_entry_t;

typedef struct ntsim_vec_log {
    bool given;
    ntsim_log_entry_t *entries; /* malloc'd; ntsim_vec_log_free */
    size_t count;
} ntsim_vec_log_t;

/* The optional `log` key of map (absent: given false). */
NRT_STATUS ntsim_vec_parse_log(ntsim_yparse_t *p, yaml_node_t *map, const char *path,
                               ntsim_vec_log_t *out);
void ntsim_vec_log_free(ntsim_vec_log_t *log);
void ntsim_log_entry_free(ntsim_log_entry_t *e);

/* "error", "warning", "info" and back; false for any other word. */
const char *ntsim_log_level_name(ntsim_log_level_t level);
bool ntsim_log_level_parse(const char *word, size_t len, ntsim_log_level_t *out);
/* A line "level: message" split: its level and where the message starts;
 * false when the line has no such prefix. */
bool ntsim_log_line_split(const char *line, ntsim_log_level_t *level, const char **message);

/* A part from a scalar: plain says whether it was written plain (only plain
 * scalars are numbers). NRT_INVALID for an empty text (it would hold in
 * every message), NRT_RESOURCE when out of memory. */
NRT_STATUS ntsim_log_part_set(ntsim_log_part_t *part, const char *text, bool plain);
/* Whether `message` holds the part as a whole. */
bool ntsim_log_part_found(const ntsim_log_part_t *part, const char *message);
/* Whether line ("level: message") is the entry's level and holds its parts. */
bool ntsim_log_entry_matches(const ntsim_log_entry_t *e, const char *line);
/* The entry as a vector writes it ({warning: [256, "GB"]}), cut to cap. */
void ntsim_log_entry_text(const ntsim_log_entry_t *e, char *out, size_t cap);

/* Judges what an implementation logged (lines "level: message" in order,
 * count how many it logged) against a given log; mismatches as
 * "<subid>: log: ..."; nothing when the vector gave none. */
void ntsim_vec_check_log(const ntsim_vec_log_t *want, char *const *lines, size_t n_lines,
                         uint64_t count, const char *subid, ntsim_report_t *r);

#endif /* NTSIM_CONFORMANCE_LOG_EXPECT_H */
