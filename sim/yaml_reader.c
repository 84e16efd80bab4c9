/*
 * sim/yaml_reader.c: the strict YAML reader (yaml_reader.h).
 *
 * libyaml parses one document into a node tree; the callers walk only the
 * fixed shape they expect (never a generic recursive descent), so YAML
 * aliases, however nested, cannot make a walk loop or blow up.
 */
#include "yaml_reader.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "suggest.h"

struct ntsim_yparse {
    ntsim_errors_t *errors;
    const char *file;
    yaml_document_t *doc;
    bool decimal_only;  /* 0x hex is refused too (scenario files) */
};

/* --- the error list ------------------------------------------------------------ */

void ntsim_errors_init(ntsim_errors_t *e)
{
    memset(e, 0, sizeof *e);
}

void ntsim_errors_free(ntsim_errors_t *e)
{
    for (size_t i = 0; i < e->count; i++)
        free(e->items[i]);
    free(e->items);
    memset(e, 0, sizeof *e);
}

NRT_STATUS ntsim_errors_add(ntsim_errors_t *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = ntsim_vformat(fmt, ap);
    va_end(ap);
    if (msg == NULL)
        return NRT_RESOURCE;
    if (e->count == e->cap) {
        size_t ncap = e->cap ? e->cap * 2 : 16;
        char **n = realloc(e->items, ncap * sizeof *n);
        if (n == NULL) {
            free(msg);
            return NRT_RESOURCE;
        }
        e->items = n;
        e->cap = ncap;
    }
    e->items[e->count++] = msg;
    return NRT_SUCCESS;
}

/* --- node access ----------------------------------------------------------------- */

const char *ntsim_yp_file(const ntsim_yparse_t *p)
{
    return p->file;
}

NRT_STATUS ntsim_yp_error(ntsim_yparse_t *p, const yaml_node_t *node, const char *path,
                          const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *what = ntsim_vformat(fmt, ap);
    va_end(ap);
    unsigned line = node ? (unsigned)node->start_mark.line + 1 : 1;
    unsigned col = node ? (unsigned)node->start_mark.column + 1 : 1;
    if (path == NULL || path[0] == '\0')
        path = "(file)";
    if (what == NULL)
        return NRT_RESOURCE;
    NRT_STATUS st = ntsim_errors_add(p->errors, "%s:%u:%u: %s: %s", p->file, line, col, path,
                                     what);
    free(what);
    return st == NRT_SUCCESS ? NRT_INVALID : st;
}

NRT_STATUS ntsim_yp_repeats(ntsim_yparse_t *p, yaml_node_item_t *items, ntsim_key_t *keys,
                            size_t n, const char *path, const char *list, const char *key,
                            const char *what)
{
    ntsim_keys_sort(keys, n);
    size_t earlier, i = ntsim_keys_first_repeat(keys, n, &earlier);
    if (i == SIZE_MAX)
        return NRT_SUCCESS;
    char at[256];
    snprintf(at, sizeof at, "%s.%s[%zu]", path, list, i);
    yaml_node_t *entry = ntsim_yp_node(p, items[i]);
    const char *name = ntsim_yp_scalar(ntsim_yp_get(p, entry, key));
    return ntsim_yp_error(p, ntsim_yp_get(p, entry, key), at, "%s '%s' listed twice", what,
                          name ? name : "?");
}

char *ntsim_yp_path(char *out, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, cap, fmt, ap);
    va_end(ap);
    return out;
}

yaml_node_t *ntsim_yp_node(ntsim_yparse_t *p, int index)
{
    return yaml_document_get_node(p->doc, index);
}

const char *ntsim_yp_scalar(const yaml_node_t *node)
{
    if (node == NULL || node->type != YAML_SCALAR_NODE)
        return NULL;
    return (const char *)node->data.scalar.value;
}

const char *ntsim_yp_node_type_name(const yaml_node_t *node)
{
    switch (node->type) {
    case YAML_SCALAR_NODE: return "a scalar";
    case YAML_SEQUENCE_NODE: return "a sequence";
    case YAML_MAPPING_NODE: return "a mapping";
    default: return "an empty node";
    }
}

yaml_node_t *ntsim_yp_get(ntsim_yparse_t *p, yaml_node_t *map, const char *key)
{
    if (map == NULL || map->type != YAML_MAPPING_NODE)
        return NULL;
    for (yaml_node_pair_t *pair = map->data.mapping.pairs.start;
         pair < map->data.mapping.pairs.top; pair++) {
        const char *k = ntsim_yp_scalar(ntsim_yp_node(p, pair->key));
        if (k != NULL && strcmp(k, key) == 0)
            return ntsim_yp_node(p, pair->value);
    }
    return NULL;
}

static bool in_list(const char *const *list, const char *s)
{
    for (; list != NULL && *list != NULL; list++)
        if (strcmp(*list, s) == 0)
            return true;
    return false;
}

void ntsim_yp_join(char *out, size_t cap, const char *path, const char *key)
{
    if (path == NULL || path[0] == '\0')
        snprintf(out, cap, "%s", key);
    else
        snprintf(out, cap, "%s.%s", path, key);
}

NRT_STATUS ntsim_yp_check_keys(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                               const char *const *list1, const char *const *list2)
{
    if (node->type != YAML_MAPPING_NODE)
        return ntsim_yp_error(p, node, path, "expected a mapping, got %s", ntsim_yp_node_type_name(node));
    for (yaml_node_pair_t *pair = node->data.mapping.pairs.start;
         pair < node->data.mapping.pairs.top; pair++) {
        yaml_node_t *knode = ntsim_yp_node(p, pair->key);
        const char *k = ntsim_yp_scalar(knode);
        if (k == NULL || knode->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
            return ntsim_yp_error(p, knode, path, "keys must be plain scalars");
        char field[256];
        ntsim_yp_join(field, sizeof field, path, k);
        if (!in_list(list1, k) && !in_list(list2, k)) {
            /* did you mean: the allowed key nearest the one written */
            ntsim_suggest_t s;
            ntsim_suggest_init(&s, k, strlen(k));
            for (const char *const *l = list1; l != NULL && *l != NULL; l++)
                ntsim_suggest_add_z(&s, *l);
            for (const char *const *l = list2; l != NULL && *l != NULL; l++)
                ntsim_suggest_add_z(&s, *l);
            const char *near = ntsim_suggest_best(&s, NULL);
            if (near != NULL)
                return ntsim_yp_error(p, knode, field, "unknown key (did you mean %s?)", near);
            return ntsim_yp_error(p, knode, field, "unknown key");
        }
        for (yaml_node_pair_t *q = node->data.mapping.pairs.start; q < pair; q++) {
            const char *k2 = ntsim_yp_scalar(ntsim_yp_node(p, q->key));
            if (k2 != NULL && strcmp(k2, k) == 0)
                return ntsim_yp_error(p, knode, field, "duplicate key");
        }
    }
    return NRT_SUCCESS;
}

/* Finds key's value node; reports a missing required key at the map. */
static NRT_STATUS lookup(ntsim_yparse_t *p, yaml_node_t *map, const char *path, const char *key,
                         bool required, yaml_node_t **out)
{
    *out = ntsim_yp_get(p, map, key);
    if (*out == NULL && required) {
        char field[256];
        ntsim_yp_join(field, sizeof field, path, key);
        return ntsim_yp_error(p, map, field, "missing required field");
    }
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_yp_text(ntsim_yparse_t *p, yaml_node_t *node, const char *field, const char *want,
                         const char **out)
{
    if (node->type != YAML_SCALAR_NODE)
        return ntsim_yp_error(p, node, field, "expected %s, got %s", want, ntsim_yp_node_type_name(node));
    if (strlen((const char *)node->data.scalar.value) != node->data.scalar.length)
        return ntsim_yp_error(p, node, field, "contains a NUL byte");
    *out = (const char *)node->data.scalar.value;
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_yp_str(ntsim_yparse_t *p, yaml_node_t *map, const char *path, const char *key,
                        bool required, const char **out)
{
    yaml_node_t *node;
    char field[256];
    ntsim_yp_join(field, sizeof field, path, key);
    NRT_STATUS st = lookup(p, map, path, key, required, &node);
    if (st != NRT_SUCCESS || node == NULL)
        return st;
    return ntsim_yp_text(p, node, field, "a string", out);
}

void ntsim_yp_set_decimal_only(ntsim_yparse_t *p, bool on)
{
    p->decimal_only = on;
}

/* What an integer's text is. */
typedef enum int_text {
    INT_OK,           /* [-](0|[1-9][0-9]*) or 0x[0-9a-fA-F]+ */
    INT_WIDE,         /* one of those past 64 bits (*mag is then UINT64_MAX) */
    INT_LEADING_ZERO, /* decimal digits after a 0: YAML 1.1's octal, read by nobody here */
    INT_BAD           /* anything else */
} int_text_t;

/* Classifies an integer literal; sets *neg, *hex and the magnitude. */
static int_text_t parse_int_text(const char *s, bool *neg, bool *hex, uint64_t *mag)
{
    bool wide = false;
    *neg = *hex = false;
    *mag = 0;
    if (*s == '-') {
        *neg = true;
        s++;
    }
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        if (*neg || s[2] == '\0')
            return INT_BAD;
        *hex = true;
        for (s += 2; *s; s++) {
            unsigned d;
            if (*s >= '0' && *s <= '9') d = (unsigned)(*s - '0');
            else if (*s >= 'a' && *s <= 'f') d = (unsigned)(*s - 'a' + 10);
            else if (*s >= 'A' && *s <= 'F') d = (unsigned)(*s - 'A' + 10);
            else return INT_BAD;
            wide = wide || *mag > (UINT64_MAX >> 4);
            *mag = (*mag << 4) | d;
        }
    } else {
        if (*s < '0' || *s > '9')
            return INT_BAD;
        bool leading_zero = s[0] == '0' && s[1] != '\0';
        for (; *s; s++) {
            if (*s < '0' || *s > '9')
                return INT_BAD;
            unsigned d = (unsigned)(*s - '0');
            wide = wide || *mag > (UINT64_MAX - d) / 10;
            *mag = *mag * 10 + d;
        }
        if (leading_zero)
            return INT_LEADING_ZERO;
    }
    if (wide)
        *mag = UINT64_MAX;
    return wide ? INT_WIDE : INT_OK;
}

/* An integer node: its sign and magnitude, *wide when past 64 bits (the
 * caller reports its range). A quoted one, a leading zero and, in a
 * decimal-only file, hex are each named for what they are. */
static NRT_STATUS int_node(ntsim_yparse_t *p, yaml_node_t *node, const char *field, bool *neg,
                           uint64_t *mag, bool *wide)
{
    const char *text;
    NRT_STATUS st = ntsim_yp_text(p, node, field, "an integer", &text);
    if (st != NRT_SUCCESS)
        return st;
    bool hex;
    int_text_t kind = parse_int_text(text, neg, &hex, mag);
    *wide = kind == INT_WIDE;
    if (kind != INT_BAD && node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return ntsim_yp_error(p, node, field,
                              "expected an integer, got the quoted string '%s' (a quoted "
                              "scalar is a string: write it without quotes)", text);
    if (kind == INT_BAD || node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return ntsim_yp_error(p, node, field, "expected an integer, got '%s'", text);
    if (kind == INT_LEADING_ZERO) {
        const char *digits = text + (*neg ? 1 : 0);
        while (digits[0] == '0' && digits[1] != '\0')
            digits++;
        return ntsim_yp_error(p, node, field,
                              "'%s' has a leading zero, which is not read as octal here: "
                              "write %s%s", text, *neg ? "-" : "", digits);
    }
    if (hex && p->decimal_only) {
        if (*wide)
            return ntsim_yp_error(p, node, field, "'%s': integers here are decimal", text);
        return ntsim_yp_error(p, node, field, "'%s': integers here are decimal (write %" PRIu64
                                              ")", text, *mag);
    }
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_yp_int(ntsim_yparse_t *p, yaml_node_t *map, const char *path, const char *key,
                        bool required, int64_t min, int64_t max, int64_t *out)
{
    yaml_node_t *node;
    char field[256];
    ntsim_yp_join(field, sizeof field, path, key);
    NRT_STATUS st = lookup(p, map, path, key, required, &node);
    if (st != NRT_SUCCESS || node == NULL)
        return st;
    bool neg, wide;
    uint64_t mag;
    if ((st = int_node(p, node, field, &neg, &mag, &wide)) != NRT_SUCCESS)
        return st;
    /* -(INT64_MIN) is 2^63, one past INT64_MAX: compare magnitudes unsigned. */
    bool fits = !wide && (neg ? mag <= (uint64_t)INT64_MAX + 1 : mag <= (uint64_t)INT64_MAX);
    int64_t v = 0;
    if (fits)
        v = neg ? (mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag) : (int64_t)mag;
    if (!fits || v < min || v > max)
        return ntsim_yp_error(p, node, field, "%s is out of range [%" PRId64 ", %" PRId64 "]",
                              ntsim_yp_scalar(node), min, max);
    *out = v;
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_yp_u64(ntsim_yparse_t *p, yaml_node_t *map, const char *path, const char *key,
                        bool required, uint64_t max, uint64_t *out)
{
    yaml_node_t *node;
    char field[256];
    ntsim_yp_join(field, sizeof field, path, key);
    NRT_STATUS st = lookup(p, map, path, key, required, &node);
    if (st != NRT_SUCCESS || node == NULL)
        return st;
    return ntsim_yp_u64_node(p, node, field, max, out);
}

NRT_STATUS ntsim_yp_u64_node(ntsim_yparse_t *p, yaml_node_t *node, const char *field,
                             uint64_t max, uint64_t *out)
{
    NRT_STATUS st;
    bool neg, wide;
    uint64_t mag;
    if ((st = int_node(p, node, field, &neg, &mag, &wide)) != NRT_SUCCESS)
        return st;
    if ((neg && mag != 0) || wide || mag > max)
        return ntsim_yp_error(p, node, field, "%s is out of range [0, %" PRIu64 "]",
                              ntsim_yp_scalar(node), max);
    *out = mag;
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_yp_bool(ntsim_yparse_t *p, yaml_node_t *map, const char *path, const char *key,
                         bool required, bool *out)
{
    yaml_node_t *node;
    char field[256];
    ntsim_yp_join(field, sizeof field, path, key);
    NRT_STATUS st = lookup(p, map, path, key, required, &node);
    if (st != NRT_SUCCESS || node == NULL)
        return st;
    const char *text;
    if ((st = ntsim_yp_text(p, node, field, "true or false", &text)) != NRT_SUCCESS)
        return st;
    if (node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && strcmp(text, "true") == 0)
        *out = true;
    else if (node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && strcmp(text, "false") == 0)
        *out = false;
    else
        return ntsim_yp_error(p, node, field, "expected true or false, got '%s'", text);
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_yp_seq(ntsim_yparse_t *p, yaml_node_t *map, const char *path, const char *key,
                        yaml_node_item_t **items, size_t *count)
{
    yaml_node_t *node;
    char field[256];
    ntsim_yp_join(field, sizeof field, path, key);
    NRT_STATUS st = lookup(p, map, path, key, true, &node);
    if (st != NRT_SUCCESS)
        return st;
    if (node->type != YAML_SEQUENCE_NODE)
        return ntsim_yp_error(p, node, field, "expected a sequence, got %s", ntsim_yp_node_type_name(node));
    *items = node->data.sequence.items.start;
    *count = (size_t)(node->data.sequence.items.top - node->data.sequence.items.start);
    if (*count == 0)
        return ntsim_yp_error(p, node, field, "must not be empty");
    return NRT_SUCCESS;
}

/* --- documents ------------------------------------------------------------------- */

/* Where libyaml says the problem is. A reader error (a control character,
 * invalid UTF-8) carries a byte offset, not a mark; its line and column are
 * counted from the text. */
static void problem_position(const yaml_parser_t *parser, const char *text, size_t len,
                             size_t *line, size_t *col)
{
    if (parser->error != YAML_READER_ERROR) {
        *line = parser->problem_mark.line + 1;
        *col = parser->problem_mark.column + 1;
        return;
    }
    size_t off = parser->problem_offset < len ? parser->problem_offset : len;
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *col = 1;
        } else if (((unsigned char)text[i] & 0xC0) != 0x80) {
            (*col)++; /* columns count characters, not UTF-8 continuation bytes */
        }
    }
}

static NRT_STATUS report_yaml_error(ntsim_errors_t *errors, const char *name,
                                    const yaml_parser_t *parser, const char *text, size_t len)
{
    size_t line, col;
    problem_position(parser, text, len, &line, &col);
    const char *problem = parser->problem ? parser->problem : "malformed YAML";
    NRT_STATUS st;
    if (parser->error == YAML_READER_ERROR && parser->problem_value >= 0)
        st = ntsim_errors_add(errors, "%s:%zu:%zu: yaml: %s (byte 0x%02x at offset %zu)", name,
                              line, col, problem, (unsigned)parser->problem_value & 0xffu,
                              parser->problem_offset);
    else if (parser->context != NULL)
        st = ntsim_errors_add(errors, "%s:%zu:%zu: yaml: %s (%s at line %zu)", name, line, col,
                              problem, parser->context, parser->context_mark.line + 1);
    else
        st = ntsim_errors_add(errors, "%s:%zu:%zu: yaml: %s", name, line, col, problem);
    return st == NRT_SUCCESS ? NRT_INVALID : st;
}

/* Where the event pass is: one frame per open collection, to name a field
 * as the loaders do ("models[0].exec_ns"). */
typedef struct frame {
    bool mapping;
    bool want_key;       /* a mapping's next scalar is a key */
    size_t index;        /* a sequence's next item */
    char key[48];        /* a mapping's last key (cut: it only labels a message) */
} frame_t;

/* The field of the value the pass is at, into out. */
static void event_path(const frame_t *st, unsigned depth, char *out, size_t cap)
{
    size_t used = 0;
    out[0] = '\0';
    for (unsigned i = 0; i < depth && used < cap; i++) {
        if (st[i].mapping)
            used += (size_t)snprintf(out + used, cap - used, "%s%s", used ? "." : "", st[i].key);
        else
            used += (size_t)snprintf(out + used, cap - used, "[%zu]", st[i].index);
    }
}

/* After a value (a scalar that is not a key, or a collection that ended):
 * the parent mapping wants a key again, the parent sequence moves on. */
static void value_done(frame_t *st, unsigned depth)
{
    if (depth == 0)
        return;
    if (st[depth - 1].mapping)
        st[depth - 1].want_key = true;
    else
        st[depth - 1].index++;
}

/* A node's explicit tag ("!!str 2", "!foo", "! x"), as the file wrote its
 * YAML 1.1 shorthand; NULL when it has none. */
static const char *explicit_tag(const yaml_event_t *ev, char *out, size_t cap)
{
    const yaml_char_t *tag = ev->type == YAML_SCALAR_EVENT           ? ev->data.scalar.tag
                             : ev->type == YAML_SEQUENCE_START_EVENT ? ev->data.sequence_start.tag
                             : ev->type == YAML_MAPPING_START_EVENT  ? ev->data.mapping_start.tag
                                                                      : NULL;
    if (tag == NULL)
        return NULL;
    static const char core[] = "tag:yaml.org,2002:";
    if (strncmp((const char *)tag, core, sizeof core - 1) == 0)
        snprintf(out, cap, "!!%s", (const char *)tag + sizeof core - 1);
    else
        snprintf(out, cap, "%s", (const char *)tag);
    return out;
}

/* The event-by-event pass that guards the document load: it stops at the
 * first collection nested deeper than NTSIM_YAML_MAX_DEPTH, so a hostile
 * "[[[[..." costs time linear in the limit, not quadratic in the depth (the
 * cost libyaml's scanner pays on deep flow collections); and at the first
 * explicit tag. The reader types scalars by their text (D-VECTOR-SCHEMA):
 * a tag would say a type it does not apply, and the document load drops
 * whether a tag was written, so `cores: !!str 2` would be read as the
 * integer 2 while `cores: "2"` is refused as a string. Every tag is refused
 * alike, at its field. A YAML error is left for the load to report.
 * Returns NRT_SUCCESS, NRT_INVALID (reported) or NRT_RESOURCE. */
static NRT_STATUS check_events(ntsim_errors_t *errors, const char *name, const char *text,
                               size_t len)
{
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return NRT_RESOURCE;
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    NRT_STATUS st = NRT_SUCCESS;
    frame_t stack[NTSIM_YAML_MAX_DEPTH];
    unsigned depth = 0;
    for (bool done = false; !done;) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev))
            break; /* the load reports it, at the same place */
        char tag[160], field[512];
        if (explicit_tag(&ev, tag, sizeof tag) != NULL) {
            event_path(stack, depth, field, sizeof field);
            st = ntsim_errors_add(errors, "%s:%zu:%zu: %s: the tag '%s' is not read here: a "
                                          "value is typed by its text (2 is an integer, \"2\" a "
                                          "string); write it without the tag",
                                  name, ev.start_mark.line + 1, ev.start_mark.column + 1,
                                  field[0] ? field : "(file)", tag);
            st = st == NRT_SUCCESS ? NRT_INVALID : st;
            done = true;
        } else if (ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT) {
            if (depth == NTSIM_YAML_MAX_DEPTH) {
                st = ntsim_errors_add(errors, "%s:%zu:%zu: yaml: nesting deeper than %d", name,
                                      ev.start_mark.line + 1, ev.start_mark.column + 1,
                                      NTSIM_YAML_MAX_DEPTH);
                st = st == NRT_SUCCESS ? NRT_INVALID : st;
                done = true;
            } else {
                stack[depth++] = (frame_t){ev.type == YAML_MAPPING_START_EVENT, true, 0, ""};
            }
        } else if (ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT) {
            depth--;
            value_done(stack, depth);
        } else if (ev.type == YAML_SCALAR_EVENT || ev.type == YAML_ALIAS_EVENT) {
            frame_t *top = depth > 0 ? &stack[depth - 1] : NULL;
            if (top != NULL && top->mapping && top->want_key) {
                snprintf(top->key, sizeof top->key, "%s",
                         ev.type == YAML_SCALAR_EVENT ? (const char *)ev.data.scalar.value : "*");
                top->want_key = false;
            } else {
                value_done(stack, depth);
            }
        } else if (ev.type == YAML_STREAM_END_EVENT) {
            done = true;
        }
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    return st;
}

/* Parses one YAML document from text and hands its root to `fn`; a second
 * document, an empty stream, nesting past the limit and malformed YAML are
 * errors of the list. */
NRT_STATUS ntsim_yaml_load_string(ntsim_errors_t *errors, const char *name, const char *text,
                                  size_t len, ntsim_yaml_root_fn fn, void *ctx)
{
    ntsim_yparse_t p = {errors, name, NULL, false};
    yaml_parser_t parser;
    yaml_document_t doc;

    errors->files++;
    NRT_STATUS st = check_events(errors, name, text, len);
    if (st != NRT_SUCCESS) {
        if (st == NRT_RESOURCE)
            (void)ntsim_errors_add(errors, "%s: out of memory", name);
        return st;
    }
    if (!yaml_parser_initialize(&parser)) {
        (void)ntsim_errors_add(errors, "%s: out of memory", name);
        return NRT_RESOURCE;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    if (!yaml_parser_load(&parser, &doc)) {
        st = report_yaml_error(errors, name, &parser, text, len);
        yaml_parser_delete(&parser);
        return st;
    }
    p.doc = &doc;
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (root == NULL) {
        st = ntsim_errors_add(errors, "%s:1:1: (file): empty document", name);
        st = st == NRT_SUCCESS ? NRT_INVALID : st;
    } else {
        st = fn(&p, root, ctx);
    }
    yaml_document_delete(&doc);

    /* A second document would be silently ignored by a lax reader; reject it. */
    if (st == NRT_SUCCESS) {
        if (!yaml_parser_load(&parser, &doc)) {
            st = report_yaml_error(errors, name, &parser, text, len);
        } else {
            yaml_node_t *extra = yaml_document_get_root_node(&doc);
            if (extra != NULL) {
                st = ntsim_errors_add(errors, "%s:%zu:%zu: (file): more than one YAML "
                                              "document; a file holds one",
                                      name, extra->start_mark.line + 1,
                                      extra->start_mark.column + 1);
                st = st == NRT_SUCCESS ? NRT_INVALID : st;
            }
            yaml_document_delete(&doc);
        }
    }
    yaml_parser_delete(&parser);
    return st;
}

NRT_STATUS ntsim_yaml_load_file(ntsim_errors_t *errors, const char *path,
                                ntsim_input_kind_t kind, ntsim_yaml_root_fn fn, void *ctx)
{
    char *buf, err[256];
    size_t len;
    NRT_STATUS st = ntsim_read_input(path, kind, &buf, &len, err, sizeof err);
    if (st != NRT_SUCCESS) {
        errors->files++;
        NRT_STATUS e = ntsim_errors_add(errors, "%s: %s", path, err);
        return e != NRT_SUCCESS || st == NRT_RESOURCE ? NRT_RESOURCE : NRT_FAILURE;
    }
    st = ntsim_yaml_load_string(errors, path, buf, len, fn, ctx);
    free(buf);
    return st;
}
