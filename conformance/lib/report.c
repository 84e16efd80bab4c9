/*
 * conformance/lib/report.c: mismatch reports, diffs and the failure block
 * (report.h).
 */
#include "report.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"

void ntsim_report_init(ntsim_report_t *r)
{
    memset(r, 0, sizeof *r);
}

void ntsim_report_free(ntsim_report_t *r)
{
    free(r->text);
    memset(r, 0, sizeof *r);
}

/* Appends "<subid>: <field>: <what>\n", the control bytes of all three as
 * \xNN (but what's line breaks when it is a diff), within the text's bound. */
static void append(ntsim_report_t *r, const char *subid, const char *field, const char *what,
                   bool keep_newlines)
{
    size_t need = r->len + strlen(subid) + strlen(field) + 4 * strlen(what) + 8;
    if (need > NTSIM_REPORT_TEXT_MAX) {
        r->hidden++;
        return;
    }
    if (need > r->cap) {
        size_t ncap = r->cap ? r->cap : 256;
        while (ncap < need)
            ncap *= 2;
        char *t = realloc(r->text, ncap);
        if (t == NULL) {
            r->hidden++;
            return;
        }
        r->text = t;
        r->cap = ncap;
    }
    const char *parts[3] = {subid, field, what};
    /* A message's own trailing line breaks end the line anyway. */
    size_t what_len = strlen(what);
    while (what_len > 0 && what[what_len - 1] == '\n')
        what_len--;
    for (int k = 0; k < 3; k++) {
        const unsigned char *end = (const unsigned char *)parts[k] + (k == 2 ? what_len : strlen(parts[k]));
        for (const unsigned char *c = (const unsigned char *)parts[k]; c < end; c++) {
            if ((*c < 0x20 && !(k == 2 && keep_newlines && *c == '\n')) || *c == 0x7f)
                r->len += (size_t)snprintf(r->text + r->len, r->cap - r->len, "\\x%02x", *c);
            else
                r->text[r->len++] = (char)*c;
        }
        if (k < 2) {
            memcpy(r->text + r->len, ": ", 2);
            r->len += 2;
        }
    }
    r->text[r->len++] = '\n';
    r->text[r->len] = '\0';
}

void ntsim_report_add(ntsim_report_t *r, const char *subid, const char *field, const char *fmt,
                      ...)
{
    /* A full report keeps no more lines: not even formatted (a reply of a
     * million wrong fields must not cost a million formattings). */
    if (r->len + 64 > NTSIM_REPORT_TEXT_MAX) {
        r->mismatches++;
        r->hidden++;
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    char *what = ntsim_vformat(fmt, ap);
    va_end(ap);
    r->mismatches++; /* counted even if the text cannot be kept */
    if (what == NULL) {
        r->hidden++;
        return;
    }
    append(r, subid, field, what, false);
    free(what);
}

/* Splits text into lines (pointers into it, lengths without the newline). */
typedef struct lines {
    const char **at;
    size_t *len;
    size_t n;
} lines_t;

static bool split_lines(const char *text, lines_t *l)
{
    size_t cap = 1;
    for (const char *c = text; *c; c++)
        cap += *c == '\n';
    l->at = malloc(cap * sizeof *l->at);
    l->len = malloc(cap * sizeof *l->len);
    l->n = 0;
    if (l->at == NULL || l->len == NULL)
        return false;
    const char *start = text;
    for (const char *c = text;; c++) {
        if (*c == '\n' || *c == '\0') {
            if (*c == '\0' && c == start)
                break; /* no empty last line after a final newline */
            l->at[l->n] = start;
            l->len[l->n++] = (size_t)(c - start);
            if (*c == '\0')
                break;
            start = c + 1;
        }
    }
    return true;
}

static bool same_line(const lines_t *a, size_t i, const lines_t *b, size_t j)
{
    return a->len[i] == b->len[j] && memcmp(a->at[i], b->at[j], a->len[i]) == 0;
}

/* One line of a diff into text at n, unless it would not leave room for
 * the closing count: then counted in *cut. The new length. */
static size_t diff_line(char *text, size_t n, size_t cap, char mark, const char *at, size_t len,
                        size_t *cut)
{
    if (n + len + 64 >= cap) {
        (*cut)++;
        return n;
    }
    return n + (size_t)snprintf(text + n, cap - n, "%c%.*s\n", mark, (int)len, at);
}

bool ntsim_report_too_long(size_t want_len, size_t got_len)
{
    return got_len > want_len && got_len - want_len > NTSIM_REPORT_DIFF_SLACK;
}

/* Sizes and the first difference, with 40 bytes of each side from there. */
static void report_sizes(ntsim_report_t *r, const char *subid, const char *field,
                         const char *want, size_t wl, const char *got, size_t gl)
{
    size_t i = 0;
    while (i < wl && i < gl && want[i] == got[i])
        i++;
    ntsim_report_add(r, subid, field,
                     "expected %zu bytes, got %zu: more than %zu KiB past the expected text, not "
                     "diffed; the first difference is at byte %zu (expected '%.40s', got '%.40s')",
                     wl, gl, NTSIM_REPORT_DIFF_SLACK >> 10, i, want + i, got + i);
}

void ntsim_report_diff(ntsim_report_t *r, const char *subid, const char *field, const char *want,
                       const char *got)
{
    size_t wl = strlen(want), gl = strlen(got);
    if (ntsim_report_too_long(wl, gl)) {
        report_sizes(r, subid, field, want, wl, got, gl);
        return;
    }
    lines_t a = {0}, b = {0};
    if (!split_lines(want, &a) || !split_lines(got, &b)) {
        ntsim_report_add(r, subid, field, "expected and got differ (no memory for a diff)");
        goto out;
    }
    /* One hunk: everything between the common head and the common tail. */
    size_t head = 0;
    while (head < a.n && head < b.n && same_line(&a, head, &b, head))
        head++;
    size_t tail = 0;
    while (tail < a.n - head && tail < b.n - head &&
           same_line(&a, a.n - 1 - tail, &b, b.n - 1 - tail))
        tail++;
    size_t ctx_lo = head > 3 ? head - 3 : 0;
    size_t a_hi = a.n - tail, b_hi = b.n - tail;
    size_t ctx_a_end = a_hi + (tail > 3 ? 3 : tail);
    /* Past the report's own bound, a diff's lines would be dropped whole:
     * they are cut there instead, and counted. */
    size_t text_cap = 256;
    for (size_t i = ctx_lo; i < ctx_a_end; i++)
        text_cap += a.len[i] + 8;
    for (size_t j = head; j < b_hi; j++)
        text_cap += b.len[j] + 8;
    if (text_cap > NTSIM_REPORT_TEXT_MAX / 8) /* append() reserves 4 bytes a byte */
        text_cap = NTSIM_REPORT_TEXT_MAX / 8;
    char *text = malloc(text_cap);
    if (text == NULL) {
        ntsim_report_add(r, subid, field, "expected and got differ (no memory for a diff)");
        goto out;
    }
    size_t n = (size_t)snprintf(text, text_cap,
                                "expected and got differ:\n--- expected\n+++ got\n"
                                "@@ -%zu,%zu +%zu,%zu @@\n",
                                ctx_lo + 1, ctx_a_end - ctx_lo, ctx_lo + 1,
                                (b_hi + (ctx_a_end - a_hi)) - ctx_lo);
    size_t cut = 0; /* lines left out */
    for (size_t i = ctx_lo; i < head; i++)
        n = diff_line(text, n, text_cap, ' ', a.at[i], a.len[i], &cut);
    for (size_t i = head; i < a_hi; i++)
        n = diff_line(text, n, text_cap, '-', a.at[i], a.len[i], &cut);
    for (size_t j = head; j < b_hi; j++)
        n = diff_line(text, n, text_cap, '+', b.at[j], b.len[j], &cut);
    for (size_t i = a_hi; i < ctx_a_end; i++)
        n = diff_line(text, n, text_cap, ' ', a.at[i], a.len[i], &cut);
    if (cut > 0)
        n += (size_t)snprintf(text + n, text_cap - n, "(%zu more lines of the diff not shown)\n",
                              cut);
    if (n > 0 && text[n - 1] == '\n')
        text[n - 1] = '\0';
    r->mismatches++;
    append(r, subid, field, text, true);
    free(text);
out:
    free(a.at);
    free(a.len);
    free(b.at);
    free(b.len);
}

/* A copy of a document with a newline before each event object. */
static char *split_events(const char *doc)
{
    static const char sep[] = "},{\"event_type\"";
    size_t n = strlen(doc), extra = 2;
    for (const char *p = doc; (p = strstr(p, sep)) != NULL; p++)
        extra++;
    char *out = malloc(n + extra + 1);
    if (out == NULL)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        out[o++] = doc[i];
        if ((doc[i] == ',' && i > 0 && doc[i - 1] == '}' && strncmp(doc + i + 1, sep + 2,
                                                                     sizeof sep - 3) == 0) ||
            (doc[i] == '[' && i == strlen("{\"events\":[") - 1))
            out[o++] = '\n';
    }
    out[o] = '\0';
    return out;
}

void ntsim_report_json_diff(ntsim_report_t *r, const char *subid, const char *field,
                            const char *want, const char *got)
{
    size_t wl = strlen(want), gl = strlen(got);
    if (ntsim_report_too_long(wl, gl)) {
        report_sizes(r, subid, field, want, wl, got, gl);
        return;
    }
    /* One event per line, so the diff names the events that differ. */
    char *w = split_events(want), *g = split_events(got);
    if (w != NULL && g != NULL)
        ntsim_report_diff(r, subid, field, w, g);
    else
        ntsim_report_add(r, subid, field, "expected and got differ");
    free(w);
    free(g);
}

char *ntsim_report_failure(char *out, size_t cap, const char *id, const char *file,
                           unsigned line, const ntsim_report_t *r, const char *repro)
{
    if (cap == 0)
        return out;
    char hidden[96] = "";
    if (r->hidden > 0)
        snprintf(hidden, sizeof hidden, "(%u more mismatch%s not shown: the report is full)\n",
                 r->hidden, r->hidden == 1 ? "" : "es");
    int n = snprintf(out, cap, "%s (%s:%u): %u mismatch%s\n%s%s  repro: %s", id, file, line,
                     r->mismatches, r->mismatches == 1 ? "" : "es", r->text ? r->text : "",
                     hidden, repro);
    size_t tail = strlen(repro) + strlen("...\n  repro: ");
    /* Cut the report, never the repro line: a reader needs the command most. */
    if (n >= 0 && (size_t)n >= cap && cap > tail + 1)
        snprintf(out + cap - tail - 1, tail + 1, "...\n  repro: %s", repro);
    return out;
}
