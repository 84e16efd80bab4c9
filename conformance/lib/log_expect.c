/* conformance/lib/log_expect.c: see log_expect.h (the grammar and the rule). */
#include "log_expect.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"

static const char *const level_names[] = {"error", "warning", "info"};

const char *ntsim_log_level_name(ntsim_log_level_t level)
{
    return (unsigned)level <= NTSIM_LOG_INFO ? level_names[level] : "?";
}

bool ntsim_log_level_parse(const char *word, size_t len, ntsim_log_level_t *out)
{
    for (unsigned i = 0; i <= NTSIM_LOG_INFO; i++)
        if (strlen(level_names[i]) == len && memcmp(word, level_names[i], len) == 0) {
            *out = (ntsim_log_level_t)i;
            return true;
        }
    return false;
}

bool ntsim_log_line_split(const char *line, ntsim_log_level_t *level, const char **message)
{
    const char *colon = strchr(line, ':');
    if (colon == NULL || colon[1] != ' ' ||
        !ntsim_log_level_parse(line, (size_t)(colon - line), level))
        return false;
    *message = colon + 2;
    return true;
}

/* --- parts ---------------------------------------------------------------------------- */

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* A character that continues a word or a number. */
static bool is_word(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* -?(0|[1-9][0-9]*) or 0x[hex]+ (the vectors' integers, D-VECTOR-SCHEMA),
 * into its decimal text. */
static bool parse_integer(const char *s, char *out, size_t cap)
{
    if (s[0] == '0' && s[1] == 'x' && s[2] != '\0') {
        uint64_t v = 0;
        for (const char *c = s + 2; *c != '\0'; c++) {
            int d = is_digit(*c) ? *c - '0' : (*c >= 'a' && *c <= 'f') ? *c - 'a' + 10
                                          : (*c >= 'A' && *c <= 'F')   ? *c - 'A' + 10
                                                                       : -1;
            if (d < 0 || v >> 60 != 0)
                return false;
            v = v << 4 | (uint64_t)d;
        }
        snprintf(out, cap, "%" PRIu64, v);
        return true;
    }
    const char *d = s + (s[0] == '-');
    if (!is_digit(d[0]) || (d[0] == '0' && d[1] != '\0') || strlen(d) > 20)
        return false;
    for (const char *c = d; *c != '\0'; c++)
        if (!is_digit(*c))
            return false;
    snprintf(out, cap, "%s", s);
    return !(s[0] == '-' && strcmp(d, "0") == 0); /* -0 is not an integer's spelling */
}

/* -?[0-9]+\.[0-9]+: its places. */
static bool parse_decimal(const char *s, unsigned *places)
{
    const char *c = s + (s[0] == '-');
    if (!is_digit(*c))
        return false;
    while (is_digit(*c))
        c++;
    if (*c != '.' || !is_digit(c[1]))
        return false;
    const char *frac = ++c;
    while (is_digit(*c))
        c++;
    *places = (unsigned)(c - frac);
    return *c == '\0' && *places <= 9;
}

NRT_STATUS ntsim_log_part_set(ntsim_log_part_t *part, const char *text, bool plain)
{
    memset(part, 0, sizeof *part);
    if (text[0] == '\0')
        return NRT_INVALID;
    char digits[32];
    unsigned places = 0;
    if (plain && parse_integer(text, digits, sizeof digits)) {
        part->kind = NTSIM_LOG_PART_INT;
        text = digits;
    } else if (plain && parse_decimal(text, &places)) {
        part->kind = NTSIM_LOG_PART_DECIMAL;
        part->value = strtod(text, NULL);
        part->places = places;
    }
    return (part->text = ntsim_strdup(text)) != NULL ? NRT_SUCCESS : NRT_RESOURCE;
}

/* Whether the text at m[at, at+n) stands alone: the characters around it
 * do not continue it (a word, or a number: its sign, digits, point). */
static bool whole_at(const char *m, size_t at, size_t n, bool number)
{
    const char *t = m + at;
    char before = at > 0 ? m[at - 1] : '\0', after = t[n];
    if (is_word(t[0]) || number) {
        if (is_word(before) || (number && (before == '-' || before == '.')))
            return false;
    }
    if (is_word(t[n - 1]) || number) {
        if (is_word(after) || (number && after == '.' && is_digit(t[n + 1])))
            return false;
    }
    return true;
}

static bool text_found(const char *m, const char *text, bool number)
{
    size_t n = strlen(text);
    for (const char *p = strstr(m, text); p != NULL; p = strstr(p + 1, text))
        if (whole_at(m, (size_t)(p - m), n, number))
            return true;
    return false;
}

/* Every number of the message (-?[0-9]+(.[0-9]+)?, standing alone): one
 * that rounds to the part's value at its places. */
static bool decimal_found(const char *m, const ntsim_log_part_t *part)
{
    double half = 0.5;
    for (unsigned k = 0; k < part->places; k++)
        half /= 10.0;
    for (size_t i = 0; m[i] != '\0'; i++) {
        size_t at = i;
        if (m[i] == '-' && is_digit(m[i + 1]))
            i++;
        if (!is_digit(m[i]))
            continue;
        while (is_digit(m[i]))
            i++;
        if (m[i] == '.' && is_digit(m[i + 1]))
            for (i++; is_digit(m[i]);)
                i++;
        bool alone = whole_at(m, at, i - at, true);
        double v = strtod(m + at, NULL);
        double d = v > part->value ? v - part->value : part->value - v;
        if (alone && d < half * (1.0 - 1e-9))
            return true;
        if (m[i] == '\0')
            break;
    }
    return false;
}

bool ntsim_log_part_found(const ntsim_log_part_t *part, const char *message)
{
    switch (part->kind) {
    case NTSIM_LOG_PART_INT: return text_found(message, part->text, true);
    case NTSIM_LOG_PART_DECIMAL: return decimal_found(message, part);
    default: return text_found(message, part->text, false);
    }
}

bool ntsim_log_entry_matches(const ntsim_log_entry_t *e, const char *line)
{
    ntsim_log_level_t level;
    const char *message;
    if (!ntsim_log_line_split(line, &level, &message) || level != e->level)
        return false;
    for (size_t i = 0; i < e->n_parts; i++)
        if (!ntsim_log_part_found(&e->parts[i], message))
            return false;
    return true;
}

void ntsim_log_entry_text(const ntsim_log_entry_t *e, char *out, size_t cap)
{
    size_t len = 0;
#define PUT(...)                                                                           \
    do {                                                                                   \
        int w_ = snprintf(out + len, cap - len, __VA_ARGS__);                              \
        len += w_ > 0 ? (size_t)w_ : 0;                                                    \
        if (len >= cap)                                                                    \
            return;                                                                        \
    } while (0)
    if (cap == 0)
        return;
    out[0] = '\0';
    if (e->n_parts == 0) {
        PUT("%s", ntsim_log_level_name(e->level));
        return;
    }
    PUT("{%s: [", ntsim_log_level_name(e->level));
    for (size_t i = 0; i < e->n_parts; i++)
        PUT(e->parts[i].kind == NTSIM_LOG_PART_TEXT ? "%s\"%s\"" : "%s%s", i ? ", " : "",
            e->parts[i].text);
    PUT("]}");
#undef PUT
}

void ntsim_log_entry_free(ntsim_log_entry_t *e)
{
    for (size_t i = 0; i < e->n_parts; i++)
        free(e->parts[i].text);
    free(e->parts);
    memset(e, 0, sizeof *e);
}

void ntsim_vec_log_free(ntsim_vec_log_t *log)
{
    for (size_t i = 0; i < log->count; i++)
        ntsim_log_entry_free(&log->entries[i]);
    free(log->entries);
    memset(log, 0, sizeof *log);
}

/* --- the vector's key ----------------------------------------------------------------- */

static NRT_STATUS parse_entry(ntsim_yparse_t *p, yaml_node_t *item, const char *path,
                              ntsim_log_entry_t *e)
{
    static const char want[] = "a level (error, warning, info), or {level: [part, ...]}";
    const char *word = ntsim_yp_scalar(item);
    if (word != NULL) {
        if (!ntsim_log_level_parse(word, strlen(word), &e->level))
            return ntsim_yp_error(p, item, path, "expected %s, got '%s'", want, word);
        return NRT_SUCCESS;
    }
    if (item->type != YAML_MAPPING_NODE ||
        item->data.mapping.pairs.top - item->data.mapping.pairs.start != 1)
        return ntsim_yp_error(p, item, path, "expected %s", want);
    yaml_node_pair_t *pair = item->data.mapping.pairs.start;
    const char *key = ntsim_yp_scalar(ntsim_yp_node(p, pair->key));
    yaml_node_t *seq = ntsim_yp_node(p, pair->value);
    if (key == NULL || !ntsim_log_level_parse(key, strlen(key), &e->level))
        return ntsim_yp_error(p, item, path, "expected %s, got the key '%s'", want,
                              key ? key : "?");
    char ppath[600];
    ntsim_yp_path(ppath, sizeof ppath, "%s.%s", path, key);
    if (seq->type != YAML_SEQUENCE_NODE)
        return ntsim_yp_error(p, seq, ppath, "expected a sequence of the texts and values the "
                                             "message holds");
    size_t n = (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start);
    if (n > 0 && (e->parts = calloc(n, sizeof *e->parts)) == NULL)
        return NRT_RESOURCE;
    for (size_t i = 0; i < n; i++) {
        yaml_node_t *s = ntsim_yp_node(p, seq->data.sequence.items.start[i]);
        char ipath[620];
        ntsim_yp_path(ipath, sizeof ipath, "%s[%zu]", ppath, i);
        const char *text;
        NRT_STATUS st = ntsim_yp_text(p, s, ipath, "a text or a value", &text);
        if (st != NRT_SUCCESS)
            return st;
        st = ntsim_log_part_set(&e->parts[i], text, s->data.scalar.style == YAML_PLAIN_SCALAR_STYLE);
        if (st == NRT_INVALID)
            return ntsim_yp_error(p, s, ipath, "an empty text is in every message: leave it out");
        if (st != NRT_SUCCESS)
            return st;
        e->n_parts = i + 1;
    }
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_vec_parse_log(ntsim_yparse_t *p, yaml_node_t *map, const char *path,
                               ntsim_vec_log_t *out)
{
    memset(out, 0, sizeof *out);
    yaml_node_t *seq = ntsim_yp_get(p, map, "log");
    if (seq == NULL)
        return NRT_SUCCESS;
    char lpath[512];
    ntsim_yp_path(lpath, sizeof lpath, "%s.log", path);
    if (seq->type != YAML_SEQUENCE_NODE)
        return ntsim_yp_error(p, seq, lpath, "expected a sequence of messages, one per level "
                                             "(error, warning, info) or {level: [part, ...]}");
    size_t n = (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start);
    if (n > NTSIM_LOG_EXPECT_MAX)
        return ntsim_yp_error(p, seq, lpath, "at most %d messages", NTSIM_LOG_EXPECT_MAX);
    out->given = true;
    if (n > 0 && (out->entries = calloc(n, sizeof *out->entries)) == NULL)
        return NRT_RESOURCE;
    for (size_t i = 0; i < n; i++) {
        char ipath[530];
        ntsim_yp_path(ipath, sizeof ipath, "%s[%zu]", lpath, i);
        out->count = i + 1;
        NRT_STATUS st = parse_entry(p, ntsim_yp_node(p, seq->data.sequence.items.start[i]),
                                    ipath, &out->entries[i]);
        if (st != NRT_SUCCESS)
            return st;
    }
    return NRT_SUCCESS;
}

/* --- the judge ------------------------------------------------------------------------ */

void ntsim_vec_check_log(const ntsim_vec_log_t *want, char *const *lines, size_t n_lines,
                         uint64_t count, const char *subid, ntsim_report_t *r)
{
    if (!want->given)
        return;
    /* A message counted and not shown could be any error or warning: no
     * check of what was logged can pass over it (issue 35). */
    if (count != n_lines) {
        ntsim_report_add(r, subid, "log",
                         "the reply counts %" PRIu64 " messages and shows %zu: %s", count,
                         n_lines,
                         count > n_lines ? "the ones not shown cannot be judged (every error "
                                           "and warning must be listed)"
                                         : "it cannot show more than it counts");
        return;
    }
    char text[256];
    size_t w = 0;
    for (size_t g = 0; g < n_lines; g++) {
        const char *line = lines[g], *message;
        ntsim_log_level_t level;
        if (!ntsim_log_line_split(line, &level, &message)) {
            ntsim_report_add(r, subid, "log", "expected \"level: message\" (error, warning or "
                                              "info), got \"%s\"", line);
            return;
        }
        if (w < want->count && ntsim_log_entry_matches(&want->entries[w], line))
            w++;
        else if (level != NTSIM_LOG_INFO) {
            if (w < want->count)
                ntsim_log_entry_text(&want->entries[w], text, sizeof text);
            ntsim_report_add(r, subid, "log", "expected %s, got \"%s\"",
                             w < want->count ? text : "no other error or warning", line);
            return;
        }
    }
    if (w < want->count) {
        ntsim_log_entry_text(&want->entries[w], text, sizeof text);
        ntsim_report_add(r, subid, "log", "expected %s to be logged (%" PRIu64 " messages seen)",
                         text, count);
    }
}
