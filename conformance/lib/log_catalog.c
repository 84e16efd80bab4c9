/* conformance/lib/log_catalog.c: see log_catalog.h. The table is
 * D-LOG-CONTRACT's, message by message; its formats are the engine's. */
#include "log_catalog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define E NTSIM_LOG_ERROR
#define W NTSIM_LOG_WARN
#define I NTSIM_LOG_INFO

const ntsim_log_message_t ntsim_log_catalog[] = {
    /* engine/capture/capture.c */
    {E, "nrt_sys_trace_start: config is NULL", {NULL}, "D-LIFECYCLE"},
    {W, "sys trace capture is already running: start ignored", {NULL}, "D-LIFECYCLE"},
    {W, "sys trace capture is not running: stop ignored", {NULL}, "D-LIFECYCLE"},
    {E, "cannot allocate the ring of NC %zu (%llu events)", {NULL}, "D-RING-MEMORY"},
    {I, "sys trace: %zu NCs x %llu events: %.3f GB of rings%s", {"%3", "GB"}, "D-LOG-CONTRACT"},
    {I, "NC %zu: %llu events not drained before stop", {"%1", "%2"}, "D-LIFECYCLE"},
    {W, "nc_idx %u is out of range [0, 255]: using NC 0", {"%1"}, "D-WARN-ONCE"},
    {W, "invalid event type %u: event dropped", {"%1"}, "D-WARN-ONCE"},
    {W, "NC %u: seq reached 2^50 (%llu): derived tracking ids now collide with nc_idx",
     {"%1", "%2"}, "D-WARN-ONCE"},
    {W, "an emit from inside an emit (a clock or thread-id hook) is refused: event dropped",
     {NULL}, "D-GRACE"},
    {E, "%s called from inside an emit (a clock or thread-id hook): refused, a thread cannot "
        "wait for its own emit",
     {"%1"}, "D-GRACE"},
    {W, "capture hooks cannot change while capturing", {NULL}, "D-LOG"},
    {W, "unknown event type %u: category UNKNOWN", {"%1"}, "D-LOG-CONTRACT"},
    {W, "pthread_atfork failed: a forked child must not use the capture of its parent", {NULL},
     "D-FORK"},
    /* engine/capture/config.c */
    {W, "nc_idx %u is out of range [0, 255]: ignored", {"%1"}, "D-API-ARGS"},
    {E, "unknown event type name '%s'", {"%1"}, "D-SETTER-NAMES"},
    {W, "fetch nc_idx %llu is out of range [0, 255]", {"%1"}, "D-FETCH-NC"},
    /* engine/capture/grace.c */
    {W, "pthread_key_create failed: exited threads' records will not be reused", {NULL},
     "D-GRACE"},
    {I, "membarrier unavailable: emitters use a full fence", {NULL}, "D-GRACE"},
    {E, "membarrier failed: ring handshakes are unordered", {NULL}, "D-GRACE"},
    {W, "membarrier failed during stop", {NULL}, "D-GRACE"},
    /* engine/convert/json.c */
    {W, "phase mismatch: %s has no data for phase %s: writing {} (warned once per type; "
        "counted in ntsim_json_stats)",
     {"%1", "%2"}, "D-JSON-DATA"},
    {W, "nrt_sys_trace_fetch_events: *buffer must be NULL on entry (free the previous one "
        "with nrt_sys_trace_buffer_free)",
     {NULL}, "D-FETCH"},
    {E, "nrt_sys_trace_fetch_events: nc_idx %d is not -1 or 0..255", {"%1"}, "D-FETCH"},
    {E, "nrt_sys_trace_fetch_events: cannot reserve memory for %llu events: nothing fetched",
     {NULL}, "D-FETCH"},
    /* engine/convert/notify.c */
    {E, "Invalid notification type: %d", {"Invalid notification type: %1"}, "D-NOTIFY"},
    /* engine/session.c (a stage past NTSIM_SESSION_HOOKS_MAX: never logged by ntsim's own
     * stages, which register one set each) */
    {E, "more than %d sets of session hooks: one is not registered", {NULL}, "D-LOG-CONTRACT"},
    /* engine/data_view.c (the one table's own consistency: never logged) */
    {E, "event table: %s phase %u json keys: %s", {NULL}, "D-LOG-CONTRACT"},
};
const size_t ntsim_log_catalog_count = sizeof ntsim_log_catalog / sizeof ntsim_log_catalog[0];

#undef E
#undef W
#undef I

/* --- a message against a format ------------------------------------------------------- */

typedef struct span {
    const char *at;
    size_t len;
    char conv; /* 'd' (a signed integer), 'u', 'f' or 's' */
} span_t;

/* After a '%': the conversion at f (".3f", "zu", "llu", "d", "s"), its
 * letter, and where the format goes on. */
static const char *conversion(const char *f, char *conv)
{
    if (f[0] == '.')
        for (f++; *f >= '0' && *f <= '9';)
            f++;
    while (*f == 'z' || *f == 'l')
        f++;
    *conv = *f;
    return *f != '\0' ? f + 1 : f;
}

static bool digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Whether m matches format f from here on, the conversions into caps. */
static bool match(const char *f, const char *m, span_t *caps, size_t n, size_t max)
{
    for (;;) {
        if (*f == '\0')
            return *m == '\0';
        if (f[0] == '%' && f[1] == '%') {
            if (*m != '%')
                return false;
            f += 2, m++;
            continue;
        }
        if (*f != '%') {
            if (*f != *m)
                return false;
            f++, m++;
            continue;
        }
        char conv;
        const char *rest = conversion(f + 1, &conv);
        if (n == max)
            return false;
        if (conv == 's') {
            /* The shortest text that lets the rest match. */
            for (size_t len = 0;; len++) {
                caps[n] = (span_t){m, len, 's'};
                if (match(rest, m + len, caps, n + 1, max))
                    return true;
                if (m[len] == '\0')
                    return false;
            }
        }
        const char *s = m;
        if (*s == '-' && conv != 'u')
            s++;
        if (!digit(*s))
            return false;
        while (digit(*s))
            s++;
        if (conv == 'f') {
            if (*s != '.' || !digit(s[1]))
                return false;
            for (s++; digit(*s);)
                s++;
        }
        caps[n] = (span_t){m, (size_t)(s - m), conv == 'f' ? 'f' : 'd'};
        return match(rest, s, caps, n + 1, max);
    }
}

static size_t count_conversions(const char *f)
{
    size_t n = 0;
    for (; *f != '\0'; f++)
        if (f[0] == '%' && f[1] == '%')
            f++;
        else if (f[0] == '%')
            n++;
    return n;
}

static const ntsim_log_message_t *find(ntsim_log_level_t level, const char *message,
                                       span_t caps[NTSIM_LOG_CATALOG_MAX_ARGS])
{
    for (size_t i = 0; i < ntsim_log_catalog_count; i++) {
        const ntsim_log_message_t *c = &ntsim_log_catalog[i];
        size_t n = count_conversions(c->format);
        if (c->level == level && n <= NTSIM_LOG_CATALOG_MAX_ARGS &&
            match(c->format, message, caps, 0, n))
            return c;
    }
    return NULL;
}

const ntsim_log_message_t *ntsim_log_catalog_find(ntsim_log_level_t level, const char *message)
{
    span_t caps[NTSIM_LOG_CATALOG_MAX_ARGS];
    return find(level, message, caps);
}

/* A part's template with the conversions' texts in place; *alone is the
 * conversion when the template is one number alone, else 0. */
static bool expand(const char *tpl, const span_t *caps, char *out, size_t cap, char *alone)
{
    size_t len = 0;
    *alone = 0;
    if (tpl[0] == '%' && tpl[1] >= '1' && tpl[1] <= '9' && tpl[2] == '\0' &&
        caps[tpl[1] - '1'].conv != 's')
        *alone = caps[tpl[1] - '1'].conv;
    for (const char *t = tpl; *t != '\0'; t++) {
        const char *piece = t;
        size_t n = 1;
        if (t[0] == '%' && t[1] >= '1' && t[1] <= '9') {
            piece = caps[t[1] - '1'].at;
            n = caps[t[1] - '1'].len;
            t++;
        }
        if (len + n >= cap)
            return false;
        memcpy(out + len, piece, n);
        len += n;
    }
    out[len] = '\0';
    return true;
}

NRT_STATUS ntsim_log_catalog_entry(const char *line, ntsim_log_entry_t *out)
{
    memset(out, 0, sizeof *out);
    const char *message;
    if (!ntsim_log_line_split(line, &out->level, &message))
        return NRT_INVALID;
    span_t caps[NTSIM_LOG_CATALOG_MAX_ARGS];
    const ntsim_log_message_t *c = find(out->level, message, caps);
    if (c == NULL)
        return NRT_INVALID;
    size_t n = 0;
    while (n < NTSIM_LOG_CATALOG_MAX_PARTS && c->parts[n] != NULL)
        n++;
    if (n > 0 && (out->parts = calloc(n, sizeof *out->parts)) == NULL)
        return NRT_RESOURCE;
    for (size_t i = 0; i < n; i++) {
        char text[512], alone;
        if (!expand(c->parts[i], caps, text, sizeof text, &alone))
            return NRT_INVALID;
        NRT_STATUS st = ntsim_log_part_set(&out->parts[i], text, alone != 0);
        if (st == NRT_INVALID) /* an empty value (a name ""): nothing to hold */
            continue;
        if (st != NRT_SUCCESS)
            return st;
        out->n_parts++;
    }
    return NRT_SUCCESS;
}

bool ntsim_log_catalog_reword(const char *line, char *out, size_t cap)
{
    ntsim_log_level_t level;
    const char *message;
    span_t caps[NTSIM_LOG_CATALOG_MAX_ARGS];
    const ntsim_log_message_t *c = NULL;
    if (ntsim_log_line_split(line, &level, &message))
        c = find(level, message, caps);
    if (c == NULL) {
        snprintf(out, cap, "%s: reworded: no catalogued message",
                 ntsim_log_line_split(line, &level, &message) ? ntsim_log_level_name(level)
                                                              : "error");
        return false;
    }
    /* Another implementation's words: none of ntsim's, the parts between
     * separators that keep each a whole. */
    int w = snprintf(out, cap, "%s: reworded, holding:", ntsim_log_level_name(level));
    size_t len = w > 0 ? (size_t)w : 0;
    for (size_t i = 0; i < NTSIM_LOG_CATALOG_MAX_PARTS && c->parts[i] != NULL && len < cap; i++) {
        char text[512], alone;
        if (!expand(c->parts[i], caps, text, sizeof text, &alone))
            break;
        w = snprintf(out + len, cap - len, "%s %s", i ? " /" : "", text);
        len += w > 0 ? (size_t)w : 0;
    }
    return true;
}
