/*
 * sim/scenario_load.c: scenario files (scenario_load.h), read over the
 * simulator's built-in default (sim/scenario_default.c).
 *
 * The keys are the table's (scenario_keys.c): each mapping's keys are
 * checked against its section's, and every scalar row with a field is read,
 * range-checked and stored by read_section; the code below does what a row
 * cannot say (cores or instance, the device clocks, the type and NC lists,
 * the fault kinds, the checks across keys). Errors come from the strict
 * YAML reader (yaml_reader.h): unknown keys, missing keys, wrong types and
 * out-of-range values are "file:line:col: field: message".
 */
#include "scenario_load.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "event_table.h"
#include "range_list.h"
#include "rng.h"
#include "scenario_keys.h"
#include "sim.h"
#include "yaml_reader.h"

typedef struct load_ctx {
    ntsim_scenario_t *sc;
} load_ctx_t;

/* Iterates a sequence under `key` of map; NULL when absent. */
static yaml_node_t *seq_of(ntsim_yparse_t *p, yaml_node_t *map, const char *key,
                           const char *path, NRT_STATUS *st)
{
    yaml_node_t *n = ntsim_yp_get(p, map, key);
    *st = NRT_SUCCESS;
    if (n != NULL && n->type != YAML_SEQUENCE_NODE) {
        char field[256];
        ntsim_yp_path(field, sizeof field, "%s%s", path, key);
        *st = ntsim_yp_error(p, n, field, "expected a sequence");
        return NULL;
    }
    return n;
}

/* A name into its fixed buffer: refused, not cut, when it does not fit. */
static NRT_STATUS copy_name(ntsim_yparse_t *p, yaml_node_t *node, const char *field,
                            const char *name, char *out, size_t cap)
{
    size_t n = strlen(name);
    if (n >= cap)
        return ntsim_yp_error(p, node, field, "%zu bytes long, at most %zu", n, cap - 1);
    memcpy(out, name, n + 1);
    return NRT_SUCCESS;
}

/* Stores v in a field of `size` bytes (4 or 8; the unit suite checks every
 * row's limits fit its field). */
static void store_int(unsigned char *at, size_t size, uint64_t v)
{
    if (size == sizeof(uint32_t)) {
        uint32_t w = (uint32_t)v;
        memcpy(at, &w, sizeof w);
    } else {
        memcpy(at, &v, sizeof v);
    }
}

/* One scalar row of the table: read, range-checked and, when it has a
 * field, stored at base. Absent and optional: untouched. */
static NRT_STATUS read_scalar(ntsim_yparse_t *p, yaml_node_t *map, const char *path,
                              const ntsim_scenario_key_t *k, void *base)
{
    yaml_node_t *node = ntsim_yp_get(p, map, k->key);
    unsigned char *at = (unsigned char *)base + k->offset;
    char field[160];
    ntsim_yp_join(field, sizeof field, path, k->key);
    NRT_STATUS st = NRT_SUCCESS;
    if (node == NULL && !k->required)
        return NRT_SUCCESS;
    switch (k->type) {
    case NTSIM_KEY_UINT: {
        uint64_t v = 0;
        if ((st = ntsim_yp_u64(p, map, path, k->key, true, k->max, &v)) != NRT_SUCCESS)
            return st;
        if (v < (uint64_t)k->min)
            return ntsim_yp_error(p, node, field, "%" PRIu64 " is out of range [%" PRId64
                                                  ", %" PRIu64 "]", v, k->min, k->max);
        if (k->size != 0)
            store_int(at, k->size, v);
        return NRT_SUCCESS;
    }
    case NTSIM_KEY_INT: {
        int64_t v = 0;
        if ((st = ntsim_yp_int(p, map, path, k->key, true, k->min, (int64_t)k->max, &v)) !=
            NRT_SUCCESS)
            return st;
        if (k->size != 0)
            store_int(at, k->size, (uint64_t)v);
        return NRT_SUCCESS;
    }
    case NTSIM_KEY_BOOL: {
        bool v = false;
        if ((st = ntsim_yp_bool(p, map, path, k->key, true, &v)) == NRT_SUCCESS && k->size != 0)
            memcpy(at, &v, sizeof v);
        return st;
    }
    case NTSIM_KEY_STRING:
    case NTSIM_KEY_NAME: {
        const char *text = NULL;
        if ((st = ntsim_yp_str(p, map, path, k->key, true, &text)) != NRT_SUCCESS ||
            k->type != NTSIM_KEY_NAME)
            return st;
        return copy_name(p, node, field, text, (char *)at, k->size);
    }
    default:
        return NRT_SUCCESS; /* the loader's own code reads the rest */
    }
}

/* A mapping of section `sec`: its keys checked against the table's, then
 * every scalar row read (in the table's order, so errors come in it). */
static NRT_STATUS read_section(ntsim_yparse_t *p, yaml_node_t *map, ntsim_scenario_section_t sec,
                               const char *path, void *base)
{
    NRT_STATUS st = ntsim_yp_check_keys(p, map, path, ntsim_scenario_section_keys(sec), NULL);
    for (size_t i = 0; st == NRT_SUCCESS && i < ntsim_scenario_key_count; i++)
        if (ntsim_scenario_keys[i].section == sec)
            st = read_scalar(p, map, path, &ntsim_scenario_keys[i], base);
    return st;
}

/* The number of entries a list row allows (its min..max; max 0: any). */
static NRT_STATUS check_entries(ntsim_yparse_t *p, yaml_node_t *seq, const char *key, size_t n)
{
    const ntsim_scenario_key_t *k = ntsim_scenario_key_find(NTSIM_SEC_TOP, key);
    if (k->max != 0 && (n < (uint64_t)k->min || n > k->max))
        return ntsim_yp_error(p, seq, key, "%zu entries, expected %" PRId64 " to %" PRIu64, n,
                              k->min, k->max);
    return NRT_SUCCESS;
}

/* The list under `key` (NULL when absent, or after an error in *st), its
 * entries counted into *n and checked against the key's row. */
static yaml_node_t *list_of(ntsim_yparse_t *p, yaml_node_t *root, const char *key, size_t *n,
                            NRT_STATUS *st)
{
    yaml_node_t *seq = seq_of(p, root, key, "", st);
    *n = 0;
    if (seq == NULL)
        return NULL;
    *n = (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start);
    return (*st = check_entries(p, seq, key, *n)) == NRT_SUCCESS ? seq : NULL;
}

/* Entry i of a list of section `sec`: base (size bytes) cleared, the
 * section's defaults stored, its keys read; *node and path (cap bytes,
 * "models[2]") say where it is. */
static NRT_STATUS read_entry(ntsim_yparse_t *p, yaml_node_t *seq, size_t i,
                             ntsim_scenario_section_t sec, void *base, size_t size,
                             yaml_node_t **node, char *path, size_t cap)
{
    const char *list = ntsim_scenario_section_path(sec);
    *node = ntsim_yp_node(p, seq->data.sequence.items.start[i]);
    ntsim_yp_path(path, cap, "%.*s[%zu]", (int)strcspn(list, "["), list, i);
    memset(base, 0, size);
    ntsim_scenario_key_defaults(sec, base);
    return read_section(p, *node, sec, path, base);
}

static NRT_STATUS parse_models(ntsim_yparse_t *p, yaml_node_t *root, ntsim_scenario_t *sc)
{
    NRT_STATUS st;
    size_t n;
    yaml_node_t *seq = list_of(p, root, "models", &n, &st), *m;
    if (seq == NULL)
        return st;
    sc->model_count = 0;
    for (size_t i = 0; i < n; i++) {
        char path[64];
        ntsim_model_t *md = &sc->models[i];
        if ((st = read_entry(p, seq, i, NTSIM_SEC_MODELS, md, sizeof *md, &m, path,
                             sizeof path)) != NRT_SUCCESS)
            return st;
        if (ntsim_yp_get(p, m, "name") == NULL)
            snprintf(md->name, sizeof md->name, "model%zu", i + 1);
        for (size_t j = 0; j < i; j++)
            if (sc->models[j].id == md->id)
                return ntsim_yp_error(p, ntsim_yp_get(p, m, "id"), path,
                                      "model id %llu used twice", (unsigned long long)md->id);
        sc->model_count = (uint32_t)i + 1;
    }
    return NRT_SUCCESS;
}

/* instance: {arch?, devices, cores_per_device, lnc?, visible_cores?} (D-LNC). */
static NRT_STATUS parse_instance(ntsim_yparse_t *p, yaml_node_t *inst, ntsim_scenario_t *sc)
{
    const char *visible = NULL;
    NRT_STATUS st;
    if ((st = read_section(p, inst, NTSIM_SEC_INSTANCE, "instance", sc)) != NRT_SUCCESS ||
        (st = ntsim_yp_str(p, inst, "instance", "visible_cores", false, &visible)) !=
            NRT_SUCCESS)
        return st;
    uint64_t devices = sc->devices, per_device = sc->cores_per_device, lnc = sc->lnc;
    if (devices * per_device > NTSIM_MAX_CORES)
        return ntsim_yp_error(p, inst, "instance", "%llu physical cores, at most %d",
                              (unsigned long long)(devices * per_device), NTSIM_MAX_CORES);
    if (per_device % lnc != 0)
        return ntsim_yp_error(p, ntsim_yp_get(p, inst, "lnc"), "instance.lnc",
                              "%llu does not divide cores_per_device %llu",
                              (unsigned long long)lnc, (unsigned long long)per_device);
    uint32_t logical = (uint32_t)(devices * per_device / lnc);
    bool in[NTSIM_MAX_CORES];
    char why[160];
    if (visible == NULL) {
        for (uint32_t g = 0; g < logical; g++)
            in[g] = true;
    } else if (!ntsim_parse_range_list(visible, logical, in, why, sizeof why)) {
        return ntsim_yp_error(p, ntsim_yp_get(p, inst, "visible_cores"),
                              "instance.visible_cores", "%s (the instance's logical NCs are "
                                                        "0..%u)", why, logical - 1);
    }
    uint32_t count = 0;
    for (uint32_t g = 0; g < logical; g++) {
        if (!in[g])
            continue;
        /* F5.start.vnc_panic: the runtime panics past 256 visible NCs. */
        if (count == NTSIM_NC_COUNT)
            return ntsim_yp_error(p, inst, "instance", "more than %d visible logical NCs (the "
                                                       "runtime panics, F5.start.vnc_panic): "
                                                       "narrow visible_cores",
                                  NTSIM_NC_COUNT);
        sc->vnc_gid[count++] = g;
    }
    sc->cores = count;
    return NRT_SUCCESS;
}

/* clock_spread: {offset_ns, drift_ppm}: every physical core's clock drawn
 * from the seed within +-offset_ns and +-drift_ppm, so that an instance of
 * 128 cores needs no 128 lines; `clocks` entries then override. */
static NRT_STATUS parse_clock_spread(ntsim_yparse_t *p, yaml_node_t *root, ntsim_scenario_t *sc)
{
    yaml_node_t *s = ntsim_yp_get(p, root, "clock_spread");
    if (s == NULL)
        return NRT_SUCCESS;
    NRT_STATUS st = read_section(p, s, NTSIM_SEC_CLOCK_SPREAD, "clock_spread", sc);
    if (st != NRT_SUCCESS)
        return st;
    uint64_t off = sc->spread_offset_ns, drift = sc->spread_drift_ppm;
    uint32_t phys = sc->devices * sc->cores_per_device;
    for (uint32_t core = 0; core < phys; core++) {
        /* The core's own stream: its offset, then its drift (D-SIM-RNG). */
        ntsim_rng_t r = ntsim_rng_stream(sc->seed, NTSIM_RNG_CLOCK_SPREAD, core);
        sc->clock_offset_ns[core] = (int64_t)ntsim_rng_below(&r, 2 * off + 1) - (int64_t)off;
        sc->clock_drift_ppm[core] = (int64_t)ntsim_rng_below(&r, 2 * drift + 1) - (int64_t)drift;
    }
    return NRT_SUCCESS;
}

/* clocks: [{core, offset_ns?, drift_ppm?}]: a physical core's device clock
 * (instance-wide index); under LNC > 1, the first core of a logical NC's,
 * which its other cores share (D-LNC). */
static NRT_STATUS parse_clocks(ntsim_yparse_t *p, yaml_node_t *root, ntsim_scenario_t *sc)
{
    NRT_STATUS st;
    size_t n;
    yaml_node_t *seq = list_of(p, root, "clocks", &n, &st), *d;
    if (seq == NULL)
        return st;
    uint32_t phys = sc->devices * sc->cores_per_device;
    for (size_t i = 0; i < n; i++) {
        char path[64];
        ntsim_clock_entry_t e;
        if ((st = read_entry(p, seq, i, NTSIM_SEC_CLOCKS, &e, sizeof e, &d, path, sizeof path)) !=
            NRT_SUCCESS)
            return st;
        uint64_t core = e.core;
        if (core >= phys) {
            char field[80];
            ntsim_yp_path(field, sizeof field, "%s.core", path);
            return ntsim_yp_error(p, ntsim_yp_get(p, d, "core"), field,
                                  "core %llu is past the instance's %u physical cores",
                                  (unsigned long long)core, phys);
        }
        if (core % sc->lnc != 0) {
            /* Under LNC > 1 a logical NC's physical cores run on one device
             * clock, its first core's (D-LNC): a clock for another core would
             * be silently unused. */
            char field[80];
            ntsim_yp_path(field, sizeof field, "%s.core", path);
            return ntsim_yp_error(p, ntsim_yp_get(p, d, "core"), field,
                                  "core %llu shares the device clock of core %llu, the first of "
                                  "its logical NC (lnc %u): give the clock to core %llu",
                                  (unsigned long long)core,
                                  (unsigned long long)(core - core % sc->lnc), sc->lnc,
                                  (unsigned long long)(core - core % sc->lnc));
        }
        sc->clock_offset_ns[core] = e.offset_ns;
        sc->clock_drift_ppm[core] = e.drift_ppm;
    }
    return NRT_SUCCESS;
}

static NRT_STATUS parse_capture(ntsim_yparse_t *p, yaml_node_t *root, ntsim_scenario_t *sc)
{
    yaml_node_t *c = ntsim_yp_get(p, root, "capture");
    if (c == NULL)
        return NRT_SUCCESS;
    NRT_STATUS st;
    if ((st = read_section(p, c, NTSIM_SEC_CAPTURE, "capture", sc)) != NRT_SUCCESS)
        return st;
    /* enabled_types lists the only types captured; disabled_types the ones
     * not captured. One or the other. */
    yaml_node_t *enabled = seq_of(p, c, "enabled_types", "capture.", &st);
    if (st != NRT_SUCCESS)
        return st;
    yaml_node_t *types = seq_of(p, c, "disabled_types", "capture.", &st);
    if (st != NRT_SUCCESS)
        return st;
    if (enabled != NULL && types != NULL)
        return ntsim_yp_error(p, types, "capture.disabled_types",
                              "give enabled_types or disabled_types, not both");
    const char *list_name = enabled != NULL ? "enabled_types" : "disabled_types";
    if (enabled != NULL) {
        for (size_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
            sc->type_disabled[t] = true;
        types = enabled;
    }
    for (size_t i = 0; types != NULL && types->data.sequence.items.start + i <
                                            types->data.sequence.items.top; i++) {
        yaml_node_t *t = ntsim_yp_node(p, types->data.sequence.items.start[i]);
        const char *text = ntsim_yp_scalar(t);
        char name[128];
        snprintf(name, sizeof name, "NRT_SYS_TRACE_EVENT_TYPE_%s", text ? text : "");
        const ntsim_event_type_desc_t *d = ntsim__event_type_by_enum_name(name);
        if (d == NULL) {
            char field[64];
            ntsim_yp_path(field, sizeof field, "capture.%s[%zu]", list_name, i);
            return ntsim_yp_error(p, t, field, "unknown event type '%s' (an enum suffix such as "
                                               "HW_NOTIFY)",
                                  text ? text : "(not a scalar)");
        }
        sc->type_disabled[d->type] = enabled == NULL;
    }
    const ntsim_scenario_key_t *nc_key = ntsim_scenario_key_find(NTSIM_SEC_CAPTURE, "disabled_ncs");
    yaml_node_t *ncs = seq_of(p, c, "disabled_ncs", "capture.", &st);
    if (st != NRT_SUCCESS)
        return st;
    for (size_t i = 0; ncs != NULL && ncs->data.sequence.items.start + i <
                                          ncs->data.sequence.items.top; i++) {
        yaml_node_t *t = ntsim_yp_node(p, ncs->data.sequence.items.start[i]);
        char field[64];
        uint64_t v;
        ntsim_yp_path(field, sizeof field, "capture.disabled_ncs[%zu]", i);
        if ((st = ntsim_yp_u64_node(p, t, field, nc_key->max, &v)) != NRT_SUCCESS)
            return st;
        sc->nc_disabled[v] = true;
    }
    return NRT_SUCCESS;
}

static const char *const fault_names[NTSIM_FAULT_KIND_COUNT] = {
#define NTSIM_FAULT_NAME_(id, name, what) name,
    NTSIM_FAULT_KIND_MAP(NTSIM_FAULT_NAME_)
#undef NTSIM_FAULT_NAME_
};

static NRT_STATUS parse_faults(ntsim_yparse_t *p, yaml_node_t *root, ntsim_scenario_t *sc)
{
    NRT_STATUS st;
    size_t n;
    yaml_node_t *seq = list_of(p, root, "faults", &n, &st), *f;
    if (seq == NULL)
        return st;
    sc->fault_count = 0;
    for (size_t i = 0; i < n; i++) {
        char path[64];
        ntsim_fault_t *ft = &sc->faults[i];
        const char *kind;
        if ((st = read_entry(p, seq, i, NTSIM_SEC_FAULTS, ft, sizeof *ft, &f, path,
                             sizeof path)) != NRT_SUCCESS ||
            (st = ntsim_yp_str(p, f, path, "kind", true, &kind)) != NRT_SUCCESS)
            return st;
        size_t k = 0;
        while (k < NTSIM_FAULT_KIND_COUNT && strcmp(kind, fault_names[k]) != 0)
            k++;
        if (k == NTSIM_FAULT_KIND_COUNT) {
            char kfield[80], kinds[160];
            ntsim_yp_path(kfield, sizeof kfield, "%s.kind", path);
            ntsim_scenario_key_limit(ntsim_scenario_key_find(NTSIM_SEC_FAULTS, "kind"), kinds,
                                     sizeof kinds);
            return ntsim_yp_error(p, ntsim_yp_get(p, f, "kind"), kfield,
                                  "unknown fault '%s' (%s)", kind, kinds);
        }
        ft->kind = (ntsim_fault_kind_t)k;
        if (ft->kind == NTSIM_FAULT_RING_BURST && ft->events == 0)
            return ntsim_yp_error(p, f, path, "ring_burst needs events >= 1");
        if (ft->kind == NTSIM_FAULT_INVALID_NOTIFICATION && ntsim_yp_get(p, f, "type") == NULL)
            return ntsim_yp_error(p, f, path, "invalid_notification needs a type");
        sc->fault_count = (uint32_t)i + 1;
    }
    return NRT_SUCCESS;
}

static uint64_t g_event_budget = NTSIM_SCENARIO_EVENT_BUDGET;

void ntsim_scenario_set_event_budget(uint64_t events)
{
    g_event_budget = events;
}

/* The run's estimate against the budget, reported at the fields that make
 * the larger part of it (D-SCENARIO-BUDGET). */
static NRT_STATUS check_budget(ntsim_yparse_t *p, yaml_node_t *root, const ntsim_scenario_t *sc)
{
    ntsim_scenario_estimate_t e;
    ntsim_scenario_estimate(sc, &e);
    if (g_event_budget == 0 || e.total <= g_event_budget)
        return NRT_SUCCESS;
    if (e.host >= e.faults) {
        yaml_node_t *at = ntsim_yp_get(p, root, "duration_ns");
        return ntsim_yp_error(p, at ? at : root, "duration_ns",
                              "the run would emit up to about %llu events (host.threads %u "
                              "running about %llu executes in all over duration_ns %llu at "
                              "host.request_interval_ns %llu, up to %llu events each), past the "
                              "budget of %llu: shorten duration_ns, lengthen "
                              "host.request_interval_ns, or raise the budget with --max-events",
                              (unsigned long long)e.total, sc->host_threads,
                              (unsigned long long)e.executes, (unsigned long long)sc->duration_ns,
                              (unsigned long long)sc->request_interval_ns,
                              (unsigned long long)e.per_execute,
                              (unsigned long long)g_event_budget);
    }
    yaml_node_t *at = ntsim_yp_get(p, root, "faults");
    return ntsim_yp_error(p, at ? at : root, "faults",
                          "the faults would emit up to about %llu events (faults[].events of "
                          "ring_burst, faults[].count of invalid_notification), past the budget "
                          "of %llu: lower them, or raise the budget with --max-events",
                          (unsigned long long)e.faults, (unsigned long long)g_event_budget);
}

static NRT_STATUS parse_root(ntsim_yparse_t *p, yaml_node_t *root, void *vctx)
{
    ntsim_scenario_t *sc = ((load_ctx_t *)vctx)->sc;
    NRT_STATUS st;
    /* A scenario is typed by hand: its integers are decimal, as 010 is
     * (refused, not read as octal), so that 0x10 is no exception to the
     * rule (D-SCENARIO-INTEGERS). */
    ntsim_yp_set_decimal_only(p, true);
    if ((st = read_section(p, root, NTSIM_SEC_TOP, "", sc)) != NRT_SUCCESS)
        return st;
    /* cores: a one-device instance of that many cores, LNC 1. */
    yaml_node_t *cn = ntsim_yp_get(p, root, "cores"), *inst = ntsim_yp_get(p, root, "instance");
    if (cn != NULL && inst != NULL)
        return ntsim_yp_error(p, inst, "instance", "give cores or instance, not both");
    if (cn != NULL) {
        int64_t c;
        if ((st = ntsim_yp_int(p, root, "", "cores", true, 1, NTSIM_NC_COUNT, &c)) != NRT_SUCCESS)
            return st;
        ntsim_scenario_set_cores(sc, (uint32_t)c);
    }
    if (inst != NULL && (st = parse_instance(p, inst, sc)) != NRT_SUCCESS)
        return st;
    yaml_node_t *host = ntsim_yp_get(p, root, "host");
    if (host != NULL && (st = read_section(p, host, NTSIM_SEC_HOST, "host", sc)) != NRT_SUCCESS)
        return st;
    if ((st = parse_clock_spread(p, root, sc)) != NRT_SUCCESS ||
        (st = parse_clocks(p, root, sc)) != NRT_SUCCESS ||
        (st = parse_models(p, root, sc)) != NRT_SUCCESS ||
        (st = parse_capture(p, root, sc)) != NRT_SUCCESS ||
        (st = parse_faults(p, root, sc)) != NRT_SUCCESS)
        return st;
    for (uint32_t f = 0; f < sc->fault_count; f++)
        if (sc->faults[f].nc >= sc->cores && sc->faults[f].kind != NTSIM_FAULT_STOP_BEFORE_FETCH)
            return ntsim_yp_error(p, ntsim_yp_get(p, root, "faults"), "faults",
                                  "fault %u names NC %u, but the scenario has %u cores", f,
                                  sc->faults[f].nc, sc->cores);
    return check_budget(p, root, sc);
}

static void reset_for_file(ntsim_scenario_t *sc, const char *path)
{
    ntsim_scenario_default(sc);
    /* A file starts from the default's shape but none of its faults or
     * device clocks: a scenario says what it injects. */
    sc->fault_count = 0;
    memset(sc->clock_offset_ns, 0, sizeof sc->clock_offset_ns);
    memset(sc->clock_drift_ppm, 0, sizeof sc->clock_drift_ppm);
    snprintf(sc->path, sizeof sc->path, "%s", path);
}

static void collect_errors(const ntsim_errors_t *list, char *errors, size_t cap)
{
    size_t used = 0;
    if (cap > 0)
        errors[0] = '\0';
    for (size_t i = 0; i < list->count && used < cap; i++)
        used += (size_t)snprintf(errors + used, cap - used, "%s\n", list->items[i]);
}

NRT_STATUS ntsim_scenario_load_string(const char *name, const char *text, size_t len,
                                      ntsim_scenario_t *sc, char *errors, size_t cap)
{
    reset_for_file(sc, name);
    ntsim_errors_t list;
    ntsim_errors_init(&list);
    load_ctx_t ctx = {sc};
    NRT_STATUS st = ntsim_yaml_load_string(&list, name, text, len, parse_root, &ctx);
    collect_errors(&list, errors, cap);
    ntsim_errors_free(&list);
    return st;
}

NRT_STATUS ntsim_scenario_load(const char *path, ntsim_scenario_t *sc, char *errors, size_t cap)
{
    reset_for_file(sc, path);
    ntsim_errors_t list;
    ntsim_errors_init(&list);
    load_ctx_t ctx = {sc};
    NRT_STATUS st = ntsim_yaml_load_file(&list, path, NTSIM_INPUT_SCENARIO, parse_root, &ctx);
    collect_errors(&list, errors, cap);
    ntsim_errors_free(&list);
    return st;
}
