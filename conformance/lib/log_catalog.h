/*
 * conformance/lib/log_catalog.h: every message ntsim's engine logs, and
 * what of each a check may judge (D-LOG-CONTRACT).
 *
 * A message's contract is its level and its parts: the text the spec quotes
 * ("Invalid notification type: %d", the GB figure of start's line, the
 * CamelCase name of the phase-mismatch warning) and the values the message
 * is about (the NC, the type, the name). The rest of the sentence is
 * ntsim's English, which no check may demand. The catalogue is how the
 * harness reads a message of ntsim's own without judging its words:
 *   - the generator turns the reference's messages into expected entries
 *     of level and parts (log_expect.h), never copying the sentence;
 *   - `ntsim testee --break=reword` words every message its own way with
 *     the same level and parts, and must pass what the plain testee passes;
 *   - test_log_catalog_is_the_engines_messages holds it equal to the
 *     engine's ntsim__log calls, format and level, both ways.
 */
#ifndef NTSIM_CONFORMANCE_LOG_CATALOG_H
#define NTSIM_CONFORMANCE_LOG_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

#include "log_expect.h"

/* Conversions a catalogued format may hold: %d %u %zu %llu %lld (an
 * integer), %s (any text), %.3f (a decimal), and %% . At most this many. */
#define NTSIM_LOG_CATALOG_MAX_ARGS 4
#define NTSIM_LOG_CATALOG_MAX_PARTS 3

typedef struct ntsim_log_message {
    ntsim_log_level_t level;
    const char *format;    /* exactly the engine's (adjacent literals joined) */
    /* The contract's parts, each a template over the format's conversions:
     * "%1" is the first conversion's text, "Invalid notification type: %1"
     * a quoted text around it, "GB" a quoted text alone. A part that is one
     * integer or decimal conversion alone is that number. */
    const char *parts[NTSIM_LOG_CATALOG_MAX_PARTS];
    const char *decision;  /* where docs/decisions.md says so */
} ntsim_log_message_t;

extern const ntsim_log_message_t ntsim_log_catalog[];
extern const size_t ntsim_log_catalog_count;

/* The catalogued message that `message` (without its level) is an instance
 * of, at `level`, or NULL. */
const ntsim_log_message_t *ntsim_log_catalog_find(ntsim_log_level_t level, const char *message);

/* A line "level: message" as the entry a vector would write for it: its
 * level and its contract's parts (log_expect.h). NRT_INVALID when the line
 * is no catalogued message (the entry is then the level alone),
 * NRT_RESOURCE when out of memory. Free with ntsim_log_entry_free. */
NRT_STATUS ntsim_log_catalog_entry(const char *line, ntsim_log_entry_t *out);

/* The line as another implementation might word it: the same level and
 * parts, none of ntsim's words ("warning: reworded, holding: 256"). False
 * (out: the level and "reworded: no catalogued message") for a line the
 * catalogue does not know. */
bool ntsim_log_catalog_reword(const char *line, char *out, size_t cap);

#endif /* NTSIM_CONFORMANCE_LOG_CATALOG_H */
