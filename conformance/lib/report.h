/*
 * conformance/lib/report.h: what a vector run found, and how a failure is shown.
 *
 * A kind's runner adds one line per mismatch to a report; the failure block
 * that `make check` and `ntsim replay` print is formatted here, once:
 *
 *   <id> (<file>:<line>): <n> mismatch[es]
 *   <sub-id>: <field>: expected <x>, got <y>
 *   ...
 *     repro: <command> replay <file> --id <id>
 */
#ifndef NTSIM_CONFORMANCE_REPORT_H
#define NTSIM_CONFORMANCE_REPORT_H

#include <stdbool.h>
#include <stddef.h>

/* Accumulates the mismatches of one vector run, one line each:
 *   "<sub-id>: <field>: expected <x>, got <y>"
 * Text a testee or a file chose cannot break a line or reach the terminal:
 * every byte below 0x20 and 0x7f is kept as \xNN (a diff keeps its own
 * line breaks). The text is bounded (NTSIM_REPORT_TEXT_MAX): the lines past
 * it are counted, not kept, and the failure block says how many. */
#define NTSIM_REPORT_TEXT_MAX ((size_t)1 << 20)
typedef struct ntsim_report {
    char *text;
    size_t len;
    size_t cap;
    unsigned mismatches;
    unsigned hidden; /* mismatches whose lines did not fit */
} ntsim_report_t;

void ntsim_report_init(ntsim_report_t *r);
void ntsim_report_free(ntsim_report_t *r);
/* Appends "<subid>: <field>: <message>\n" and counts one mismatch (counted
 * even when memory for the text runs out). */
void ntsim_report_add(ntsim_report_t *r, const char *subid, const char *field,
                      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* A text judged against an expected one that is longer than it by more than
 * this is not diffed (nor parsed, nor decoded, by the kinds): the report
 * gives both sizes and the first difference. A 60 MB reply to a vector that
 * expects 2 KB must not cost the runner gigabytes and seconds. */
#define NTSIM_REPORT_DIFF_SLACK ((size_t)1 << 20)
/* Whether got_len is past want_len + NTSIM_REPORT_DIFF_SLACK. */
bool ntsim_report_too_long(size_t want_len, size_t got_len);

/* Appends "<subid>: <field>: expected and got differ:" and a unified diff
 * (one hunk, 3 lines of context) of two texts, line by line, and counts
 * one mismatch. The diff's text stops at NTSIM_REPORT_TEXT_MAX (the lines
 * past it counted); a text too long (ntsim_report_too_long) is reported by
 * its size and first difference instead. */
void ntsim_report_diff(ntsim_report_t *r, const char *subid, const char *field, const char *want,
                       const char *got);

/* The same for two JSON fetch documents ({"events":[...],...}), split before
 * each event object first, so that the diff names the events that differ. */
void ntsim_report_json_diff(ntsim_report_t *r, const char *subid, const char *field,
                            const char *want, const char *got);

/* Formats the failure block of a vector into out (cap bytes, NUL-terminated),
 * without a trailing newline. The repro line is "  repro: <repro>" and is
 * kept whole even when the report is cut short to fit. Returns out. */
char *ntsim_report_failure(char *out, size_t cap, const char *id, const char *file,
                           unsigned line, const ntsim_report_t *r, const char *repro);

#endif /* NTSIM_CONFORMANCE_REPORT_H */
