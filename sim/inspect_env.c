/*
 * sim/inspect_env.c: reading the inspect session's environment
 * variables (D-INSPECT-ENV). The grammar, as ntsim reads it:
 *
 *   blank      := ' ' | '\t'       (ignored around every value, item and
 *                                    range bound; OUTPUT_DIR is verbatim)
 *   unset      := not set, or set to nothing (or only blanks): the default
 *   number     := decimal digits, base 10 whatever zeros lead them
 *                 (01 is 1, 010 is 10)
 *   ENABLE, SYSTEM_PROFILE, ON_EXEC_FAIL := a number, 0 or 1
 *                                   (defaults 0, 1, 0)
 *   OUTPUT_DIR := any bytes, fewer than NTSIM_INSPECT_DIR_MAX (default ./output)
 *   DEVICE_PROFILE := a number, 0 or 1 | 'model' | 'session'   (1 is model; default 0)
 *   EVENT_FILTER_NC   := nc_item (',' nc_item)*
 *   nc_item    := N | N '-' N     (N: a number, 0..255; a range is
 *                                   inclusive and may not run backwards)
 *   EVENT_FILTER_TYPE := type_item (',' type_item)*
 *   type_item  := ['^'] name       ('^' excludes)
 *   name       := an interned name (nc_exec_running) | a lowercase enum
 *                 suffix (device_exec) | 'hardware' | 'software'
 *
 * The NC filter captures exactly the NCs it lists. The type filter starts
 * from the types its items include, or from all of them when no item
 * includes, and removes every type an item excludes, whatever the order.
 * Names are lowercase, as the runtime's tables hold them; both name sets
 * come from the one table (engine/event_table.h), never from a list here.
 * Every problem is one line, "VARIABLE: 'part': what is wrong", and all of
 * them are reported, not only the first.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_table.h"
#include "inspect_env.h"
#include "input.h"
#include "suggest.h"

enum {
#define NTSIM_INSPECT_VAR_ENUM_(ID, name, values, help) VAR_##ID,
    NTSIM_INSPECT_ENV_MAP(NTSIM_INSPECT_VAR_ENUM_)
#undef NTSIM_INSPECT_VAR_ENUM_
    VAR_COUNT
};

static const char *const var_names[VAR_COUNT] = {
#define NTSIM_INSPECT_VAR_NAME_(ID, name, values, help) name,
    NTSIM_INSPECT_ENV_MAP(NTSIM_INSPECT_VAR_NAME_)
#undef NTSIM_INSPECT_VAR_NAME_
};

/* The enum identifiers' common prefix: what is left is the enum suffix. */
#define TYPE_PREFIX "NRT_SYS_TRACE_EVENT_TYPE_"

/* A part of a value is quoted in a message with at most this many bytes. */
enum { QUOTE_BYTES = 64, QUOTE_CAP = QUOTE_BYTES * 4 + 4 };

typedef struct env_reader {
    ntsim_errors_t *errors;   /* may be NULL: lines are only counted */
    ntsim_errors_t *warnings; /* may be NULL */
    size_t failed;            /* problems found */
    bool oom;                 /* a line could not be kept */
} env_reader_t;

/* --- messages ------------------------------------------------------------------- */

/* A part of a value as a message shows it: at most QUOTE_BYTES bytes, any byte
 * outside printable ASCII as \xNN, so a value cannot break the line or the
 * terminal. */
static void quote(const char *s, size_t len, char out[QUOTE_CAP])
{
    ntsim_text_escape(s, len, QUOTE_BYTES, out);
}

/* One line into `list` (errors or warnings): "VAR: 'part': message", or
 * "VAR: message" when part is NULL. */
__attribute__((format(printf, 6, 0)))
static void add_line(env_reader_t *rd, ntsim_errors_t *list, int var, const char *part,
                     size_t len, const char *fmt, va_list ap)
{
    char msg[1024], shown[QUOTE_CAP];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (list == NULL)
        return;
    NRT_STATUS st;
    if (part != NULL) {
        quote(part, len, shown);
        st = ntsim_errors_add(list, "%s: '%s': %s", var_names[var], shown, msg);
    } else {
        st = ntsim_errors_add(list, "%s: %s", var_names[var], msg);
    }
    rd->oom |= st != NRT_SUCCESS;
}

static void report(env_reader_t *rd, int var, const char *part, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void report(env_reader_t *rd, int var, const char *part, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rd->failed++;
    add_line(rd, rd->errors, var, part, len, fmt, ap);
    va_end(ap);
}

static void warn(env_reader_t *rd, int var, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void warn(env_reader_t *rd, int var, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_line(rd, rd->warnings, var, NULL, 0, fmt, ap);
    va_end(ap);
}

/* --- scalars ---------------------------------------------------------------------- */

static bool is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Narrows [*s, *s + *len) to drop blanks at both ends. */
static void trim(const char **s, size_t *len)
{
    while (*len > 0 && is_blank(**s)) {
        (*s)++;
        (*len)--;
    }
    while (*len > 0 && is_blank((*s)[*len - 1]))
        (*len)--;
}

static bool equals(const char *s, size_t len, const char *word)
{
    return strlen(word) == len && memcmp(s, word, len) == 0;
}

/* A number: decimal digits, read in base 10 whatever zeros lead them ("01"
 * is 1, as "010" is NC 10 in the NC filter); saturates past 255. False for
 * anything else (a sign, a space inside, a letter). */
static bool small_number(const char *s, size_t len, unsigned *out)
{
    unsigned v = 0;
    if (len == 0)
        return false;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v > 255 ? v : v * 10 + (unsigned)(s[i] - '0');
    }
    *out = v;
    return true;
}

/* The numbers 0 or 1 (D-INSPECT-ENV: the documented values, read as every
 * number here is: blanks around it ignored, leading zeros allowed); blank
 * keeps *out. */
static void parse_bool(env_reader_t *rd, int var, const char *value, bool *out)
{
    size_t len = strlen(value);
    trim(&value, &len);
    if (len == 0)
        return;
    unsigned v;
    if (small_number(value, len, &v) && v <= 1)
        *out = v == 1;
    else
        report(rd, var, value, len, "expected 0 or 1");
}

static void parse_device_profile(env_reader_t *rd, const char *value,
                                 ntsim_inspect_device_profile_t *out)
{
    size_t len = strlen(value);
    trim(&value, &len);
    if (len == 0)
        return;
    unsigned v = 2;
    bool number = small_number(value, len, &v);
    if (number && v == 0)
        *out = NTSIM_INSPECT_DEVICE_OFF;
    else if ((number && v == 1) || equals(value, len, "model"))
        *out = NTSIM_INSPECT_DEVICE_MODEL;
    else if (equals(value, len, "session"))
        *out = NTSIM_INSPECT_DEVICE_SESSION;
    else
        report(rd, VAR_DEVICE_PROFILE, value, len, "expected 0, 1, model or session");
}

/* A path is taken as it is: blanks may be part of a directory's name. */
static void parse_output_dir(env_reader_t *rd, const char *value, char out[NTSIM_INSPECT_DIR_MAX])
{
    size_t len = strlen(value);
    if (len == 0)
        return;
    if (len >= NTSIM_INSPECT_DIR_MAX) {
        report(rd, VAR_OUTPUT_DIR, value, len, "%zu bytes, longer than a path may be (%d)", len,
               NTSIM_INSPECT_DIR_MAX - 1);
        return;
    }
    memcpy(out, value, len + 1);
}

/* --- lists ------------------------------------------------------------------------- */

/* Calls item(rd, text, len, ctx) for each comma-separated item of value,
 * trimmed; an empty item is reported instead. */
static void each_item(env_reader_t *rd, int var, const char *value,
                      void (*item)(env_reader_t *, const char *, size_t, void *), void *ctx)
{
    size_t index = 0;
    const char *s = value;
    for (;;) {
        const char *comma = strchr(s, ',');
        size_t len = comma != NULL ? (size_t)(comma - s) : strlen(s);
        const char *t = s;
        size_t tlen = len;
        trim(&t, &tlen);
        index++;
        if (tlen == 0)
            report(rd, var, value, strlen(value), "item %zu is empty", index);
        else
            item(rd, t, tlen, ctx);
        if (comma == NULL)
            break;
        s = comma + 1;
    }
}

/* An NC index of an NC item: digits only, at most 255. `item` is the whole
 * item for the message; s is the item or one bound of its range. */
static bool nc_number(env_reader_t *rd, const char *item, size_t ilen, const char *s, size_t len,
                      unsigned *out)
{
    unsigned v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') {
            if (s == item && len == ilen)
                report(rd, VAR_EVENT_FILTER_NC, item, ilen, "not a number%s",
                       item[0] == '^' ? " ('^' excludes event types, not NCs)"
                                      : " (an NC is 0..255, a range A-B)");
            else
                report(rd, VAR_EVENT_FILTER_NC, item, ilen, "'%.*s' is not a number", (int)len,
                       s);
            return false;
        }
        /* Saturates past the limit, so 20 digits cannot wrap into range. */
        v = v > NTSIM_NC_COUNT ? v : v * 10 + (unsigned)(s[i] - '0');
    }
    if (v >= NTSIM_NC_COUNT) {
        report(rd, VAR_EVENT_FILTER_NC, item, ilen, "%.*s is past the last NC, %d", (int)len, s,
               NTSIM_NC_COUNT - 1);
        return false;
    }
    *out = v;
    return true;
}

static void nc_item(env_reader_t *rd, const char *item, size_t len, void *ctx)
{
    bool *nc = ctx;
    const char *dash = memchr(item, '-', len);
    unsigned lo, hi;
    if (dash == NULL) {
        if (nc_number(rd, item, len, item, len, &lo))
            nc[lo] = true;
        return;
    }
    const char *a = item, *b = dash + 1;
    size_t alen = (size_t)(dash - item), blen = len - alen - 1;
    trim(&a, &alen);
    trim(&b, &blen);
    if (alen == 0) {
        report(rd, VAR_EVENT_FILTER_NC, item, len, "range without a start");
        return;
    }
    if (blen == 0) {
        report(rd, VAR_EVENT_FILTER_NC, item, len, "range without an end");
        return;
    }
    if (!nc_number(rd, item, len, a, alen, &lo) || !nc_number(rd, item, len, b, blen, &hi))
        return;
    if (lo > hi) {
        report(rd, VAR_EVENT_FILTER_NC, item, len, "range ends before it starts");
        return;
    }
    for (unsigned n = lo; n <= hi; n++)
        nc[n] = true;
}

static void parse_nc_filter(env_reader_t *rd, const char *value, bool nc[NTSIM_NC_COUNT])
{
    size_t len = strlen(value);
    trim(&value, &len);
    if (len == 0)
        return; /* unset: every NC, the default */
    memset(nc, 0, NTSIM_NC_COUNT * sizeof *nc);
    each_item(rd, VAR_EVENT_FILTER_NC, value, nc_item, nc);
}

/* --- event types ----------------------------------------------------------------------- */

/* Does `name` spell this row's enum suffix in lowercase ("device_exec" for
 * NRT_SYS_TRACE_EVENT_TYPE_DEVICE_EXEC)? Compared byte by byte, so a name in
 * any other case does not match. */
static bool is_lower_suffix(const char *enum_name, const char *name, size_t len)
{
    size_t plen = sizeof TYPE_PREFIX - 1;
    if (strncmp(enum_name, TYPE_PREFIX, plen) != 0 || strlen(enum_name + plen) != len)
        return false;
    for (size_t i = 0; i < len; i++) {
        char c = enum_name[plen + i];
        char lower = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
        if (name[i] != lower)
            return false;
    }
    return true;
}

/* Names the public documentation gives a type besides its interned name and
 * enum suffix (D-JSON-NAMES): the system-profile guide's `hardware` group
 * lists NC_MODEL_SWITCH as nrt_model_switch. */
static const struct {
    const char *name;
    nrt_sys_trace_event_type_t type;
} doc_aliases[] = {
    {"nrt_model_switch", NRT_SYS_TRACE_EVENT_TYPE_NC_MODEL_SWITCH},
};

bool ntsim_inspect_type_by_name(const char *name, size_t len, nrt_sys_trace_event_type_t *out)
{
    if (name == NULL || out == NULL)
        return false;
    for (size_t i = 0; i < sizeof doc_aliases / sizeof doc_aliases[0]; i++)
        if (equals(name, len, doc_aliases[i].name)) {
            *out = doc_aliases[i].type;
            return true;
        }
    for (uint32_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++) {
        const ntsim_event_type_desc_t *d = &ntsim__event_types[t];
        if (equals(name, len, d->json_name) || is_lower_suffix(d->enum_name, name, len)) {
            *out = d->type;
            return true;
        }
    }
    return false;
}

/* The types a name means: one type, or a category's (facts §1). */
static bool name_types(const char *name, size_t len, bool types[NRT_SYS_TRACE_EVENT_TYPE_COUNT])
{
    nrt_sys_trace_event_category_t category = NRT_SYS_TRACE_EVENT_CATEGORY_UNKNOWN;
    if (equals(name, len, "hardware"))
        category = NRT_SYS_TRACE_EVENT_CATEGORY_HARDWARE;
    else if (equals(name, len, "software"))
        category = NRT_SYS_TRACE_EVENT_CATEGORY_SOFTWARE;
    if (category != NRT_SYS_TRACE_EVENT_CATEGORY_UNKNOWN) {
        for (uint32_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
            types[t] |= ntsim__event_category(t) == category;
        return true;
    }
    nrt_sys_trace_event_type_t t;
    if (!ntsim_inspect_type_by_name(name, len, &t))
        return false;
    types[t] = true;
    return true;
}

typedef struct type_filter {
    bool include[NRT_SYS_TRACE_EVENT_TYPE_COUNT];
    bool exclude[NRT_SYS_TRACE_EVENT_TYPE_COUNT];
    bool any_include;
} type_filter_t;

/* The message for a name that means nothing; a name in the wrong case gets
 * the lowercase spelling that would work. */
static void unknown_name(env_reader_t *rd, const char *item, size_t ilen, const char *name,
                         size_t len)
{
    char lower[128];
    bool fits = len < sizeof lower;
    for (size_t i = 0; fits && i < len; i++)
        lower[i] = (name[i] >= 'A' && name[i] <= 'Z') ? (char)(name[i] - 'A' + 'a') : name[i];
    bool scratch[NRT_SYS_TRACE_EVENT_TYPE_COUNT] = {false};
    if (fits && name_types(lower, len, scratch))
        report(rd, VAR_EVENT_FILTER_TYPE, item, ilen,
               "unknown event type (names are lowercase: '%.*s')", (int)len, lower);
    else
        report(rd, VAR_EVENT_FILTER_TYPE, item, ilen,
               "unknown event type (an interned name such as nc_exec_running, a lowercase enum "
               "suffix such as device_exec, hardware or software)");
}

static void type_item(env_reader_t *rd, const char *item, size_t len, void *ctx)
{
    type_filter_t *f = ctx;
    bool excludes = item[0] == '^';
    const char *name = excludes ? item + 1 : item;
    size_t nlen = excludes ? len - 1 : len;
    trim(&name, &nlen);
    if (excludes && nlen == 0) {
        report(rd, VAR_EVENT_FILTER_TYPE, item, len,
               "'^' without an event type or category after it");
        return;
    }
    if (!name_types(name, nlen, excludes ? f->exclude : f->include)) {
        unknown_name(rd, item, len, name, nlen);
        return;
    }
    f->any_include |= !excludes;
}

static void parse_type_filter(env_reader_t *rd, const char *value,
                              bool types[NRT_SYS_TRACE_EVENT_TYPE_COUNT])
{
    size_t len = strlen(value);
    trim(&value, &len);
    if (len == 0)
        return; /* unset: every type, the default */
    type_filter_t f;
    memset(&f, 0, sizeof f);
    size_t failed = rd->failed;
    each_item(rd, VAR_EVENT_FILTER_TYPE, value, type_item, &f);
    if (rd->failed != failed)
        return;
    size_t selected = 0;
    for (uint32_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++) {
        /* Exclusions win, whatever the order of the items. */
        types[t] = (f.any_include ? f.include[t] : true) && !f.exclude[t];
        selected += types[t];
    }
    if (selected == 0)
        report(rd, VAR_EVENT_FILTER_TYPE, value, len,
               "selects no event type (NEURON_RT_INSPECT_SYSTEM_PROFILE=0 turns the system "
               "profile off)");
}

/* --- the whole environment ------------------------------------------------------------ */

static void set_defaults(ntsim_inspect_config_t *c)
{
    memset(c, 0, sizeof *c);
    snprintf(c->output_dir, sizeof c->output_dir, "%s", NTSIM_INSPECT_OUTPUT_DIR_DEFAULT);
    c->system_profile = true;
    for (size_t i = 0; i < NTSIM_NC_COUNT; i++)
        c->nc_enabled[i] = true;
    for (size_t i = 0; i < NRT_SYS_TRACE_EVENT_TYPE_COUNT; i++)
        c->type_enabled[i] = true;
}

/* What a config holds when its variables could not be read: nothing. */
static void enable_nothing(ntsim_inspect_config_t *c)
{
    c->enabled = false;
    c->system_profile = false;
    memset(c->nc_enabled, 0, sizeof c->nc_enabled);
    memset(c->type_enabled, 0, sizeof c->type_enabled);
}

/* Set to something: OUTPUT_DIR when not empty, the others when not blank
 * (the same test their readers make before reading a value). */
static bool var_is_set(int var, const char *value)
{
    if (value == NULL || var == VAR_OUTPUT_DIR)
        return value != NULL && value[0] != '\0';
    size_t len = strlen(value);
    trim(&value, &len);
    return len > 0;
}

/* Variables that were read but will do nothing: the likely mistakes. */
static void warn_unused(env_reader_t *rd, const char *const v[VAR_COUNT],
                        const ntsim_inspect_config_t *c)
{
    if (!c->enabled) {
        char names[512] = "";
        size_t n = 0;
        for (int i = VAR_ENABLE + 1; i < VAR_COUNT; i++)
            if (var_is_set(i, v[i]))
                n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", n ? ", " : "",
                                      var_names[i]);
        if (n > 0)
            warn(rd, VAR_ENABLE, "not 1, so there is no inspect session: %s only checked",
                 names);
        return;
    }
    for (int i = VAR_EVENT_FILTER_NC; !c->system_profile && i <= VAR_EVENT_FILTER_TYPE; i++)
        if (var_is_set(i, v[i]))
            warn(rd, i, "unused: NEURON_RT_INSPECT_SYSTEM_PROFILE=0 turns the system profile "
                        "off");
}

NRT_STATUS ntsim_inspect_env_parse(ntsim_inspect_lookup_fn lookup, void *ctx,
                                   ntsim_inspect_config_t *out, ntsim_errors_t *errors,
                                   ntsim_errors_t *warnings)
{
    if (lookup == NULL || out == NULL)
        return NRT_INVALID;
    set_defaults(out);
    env_reader_t rd = {errors, warnings, 0, false};
    const char *v[VAR_COUNT];
    for (int i = 0; i < VAR_COUNT; i++)
        v[i] = lookup(var_names[i], ctx);
    if (v[VAR_ENABLE] != NULL)
        parse_bool(&rd, VAR_ENABLE, v[VAR_ENABLE], &out->enabled);
    if (v[VAR_OUTPUT_DIR] != NULL)
        parse_output_dir(&rd, v[VAR_OUTPUT_DIR], out->output_dir);
    if (v[VAR_SYSTEM_PROFILE] != NULL)
        parse_bool(&rd, VAR_SYSTEM_PROFILE, v[VAR_SYSTEM_PROFILE], &out->system_profile);
    if (v[VAR_DEVICE_PROFILE] != NULL)
        parse_device_profile(&rd, v[VAR_DEVICE_PROFILE], &out->device_profile);
    if (v[VAR_ON_EXEC_FAIL] != NULL)
        parse_bool(&rd, VAR_ON_EXEC_FAIL, v[VAR_ON_EXEC_FAIL], &out->on_exec_fail);
    if (v[VAR_EVENT_FILTER_NC] != NULL)
        parse_nc_filter(&rd, v[VAR_EVENT_FILTER_NC], out->nc_enabled);
    if (v[VAR_EVENT_FILTER_TYPE] != NULL)
        parse_type_filter(&rd, v[VAR_EVENT_FILTER_TYPE], out->type_enabled);
    /* Advice on what would go unused only makes sense for a config that was
     * read; with errors, the errors are what to fix. */
    if (rd.failed == 0)
        warn_unused(&rd, v, out);
    if (rd.failed == 0 && !rd.oom)
        return NRT_SUCCESS;
    enable_nothing(out);
    return rd.oom ? NRT_RESOURCE : NRT_INVALID;
}

const char *ntsim_inspect_environ_lookup(const char *name, void *ctx)
{
    size_t len = strlen(name);
    for (char *const *e = ctx; e != NULL && *e != NULL; e++)
        if (strncmp(*e, name, len) == 0 && (*e)[len] == '=')
            return *e + len + 1;
    return NULL;
}

/* One warning per NEURON_RT_INSPECT_* name of env that is none of ours. */
static void warn_unknown(env_reader_t *rd, char *const *env)
{
    size_t plen = sizeof NTSIM_INSPECT_ENV_PREFIX - 1;
    for (char *const *e = env; *e != NULL; e++) {
        if (strncmp(*e, NTSIM_INSPECT_ENV_PREFIX, plen) != 0)
            continue;
        size_t len = strcspn(*e, "=");
        bool known = false;
        for (int i = 0; i < VAR_COUNT; i++)
            known |= equals(*e, len, var_names[i]);
        if (known || rd->warnings == NULL)
            continue;
        char shown[QUOTE_CAP];
        quote(*e, len, shown);
        ntsim_suggest_t s;
        ntsim_suggest_init(&s, *e, len);
        for (int i = 0; i < VAR_COUNT; i++)
            ntsim_suggest_add_z(&s, var_names[i]);
        const char *near = ntsim_suggest_best(&s, NULL);
        if (near != NULL)
            rd->oom |= ntsim_errors_add(rd->warnings, "%s: not a variable ntsim honours (did you "
                                        "mean %s?); ignored", shown, near) != NRT_SUCCESS;
        else
            rd->oom |= ntsim_errors_add(rd->warnings, "%s: not a variable ntsim honours; ignored",
                                        shown) != NRT_SUCCESS;
    }
}

NRT_STATUS ntsim_inspect_env_read(char *const *env, ntsim_inspect_config_t *out,
                                  ntsim_errors_t *errors, ntsim_errors_t *warnings)
{
    if (env == NULL || out == NULL)
        return NRT_INVALID;
    /* The lookup only reads the array; its context is void * by convention. */
    NRT_STATUS st = ntsim_inspect_env_parse(ntsim_inspect_environ_lookup, (void *)env, out,
                                            errors, warnings);
    env_reader_t rd = {errors, warnings, 0, false};
    warn_unknown(&rd, env);
    if (rd.oom) {
        enable_nothing(out);
        return NRT_RESOURCE;
    }
    return st;
}

void ntsim_inspect_apply(const ntsim_inspect_config_t *cfg, ntsim_scenario_t *sc)
{
    if (cfg == NULL || sc == NULL || !cfg->enabled || !cfg->system_profile)
        return;
    for (size_t nc = 0; nc < NTSIM_NC_COUNT; nc++)
        sc->nc_disabled[nc] = !cfg->nc_enabled[nc];
    for (size_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        sc->type_disabled[t] = !cfg->type_enabled[t];
}

NRT_STATUS ntsim_inspect_check_scenario(const ntsim_inspect_config_t *cfg,
                                       const ntsim_scenario_t *sc, ntsim_errors_t *warnings)
{
    if (cfg == NULL || sc == NULL || !cfg->enabled || !cfg->system_profile || warnings == NULL)
        return NRT_SUCCESS;
    for (uint32_t nc = 0; nc < sc->cores && nc < NTSIM_NC_COUNT; nc++)
        if (cfg->nc_enabled[nc])
            return NRT_SUCCESS;
    /* A warning, not an error: the same variables are set for every
     * instance of a fleet, and a filter that names no NC of this one is
     * valid where there are more (D-INSPECT-ENV). */
    return ntsim_errors_add(warnings,
                            "%s: no NC of this run is in the filter (its NCs are 0..%u): "
                            "nothing will be captured",
                            var_names[VAR_EVENT_FILTER_NC], sc->cores ? sc->cores - 1 : 0);
}

const char *ntsim_inspect_device_profile_name(ntsim_inspect_device_profile_t p)
{
    switch (p) {
    case NTSIM_INSPECT_DEVICE_OFF: return "off";
    case NTSIM_INSPECT_DEVICE_MODEL: return "model";
    case NTSIM_INSPECT_DEVICE_SESSION: return "session";
    }
    return "unknown";
}
