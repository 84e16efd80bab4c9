/*
 * conformance/kinds/kind_scenario.c: `scenario` vectors — a scenario file run through the
 * simulator, and what the run must produce.
 *
 *   - id: scenario.ring_overflow
 *     ...common keys...
 *     scenario: ring_overflow                       # a shipped scenario's name, or a
 *                                                   # path from the vector file's own
 *                                                   # directory (D-SCENARIO-NAMES,
 *                                                   # D-DATA-LOCATE)
 *     counts:                                       # any subset
 *       executes: 0
 *       events_emitted: 1500
 *       trace_events: 1024
 *       types_present: 1
 *       per_type: {GENERIC: 1024}
 *       ncs: [{nc: 0, created: 1500, overwritten: 476, drained: 1024, lost_at_stop: 0, busy: 0}]
 *       notifications: {posted: 0, converted: 0, dropped: 0, dropped_cc_status: 0,
 *                       dropped_max: 0, dropped_out_of_range: 0, explicit: 0}
 *     subscribed: {tpb: [0, 3, 1, 2, 4, 5], topsp: [6, 8, 7]}
 *                        # the notification types the device posted from each
 *                        # block's queues, as a set (spec §5's subscribe lists)
 *     digests: {json: "0x…", ntff: "0x…", notifications: "0x…"}   # regression pins
 *     events: [{index: 0, hex: "…112 bytes…"}]                     # full records
 *
 * `ntsim record` writes these; the counts of every recorded vector are
 * checked by hand against its scenario (sim/scenarios/README.md).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "event_table.h"
#include "kinds.h"
#include "record_input.h"
#include "run_counts.h"
#include "scenario_load.h"
#include "sim.h"
#include "sim_run.h"

enum { MAX_CHECKS = 2600, MAX_EVENTS = 16 }; /* 256 NCs x 8 counters, 46 types, the rest */

typedef struct check {
    char name[64];     /* "executes", "per_type.GENERIC", "nc0.overwritten", ... */
    uint64_t want;
} check_t;

typedef struct scenario_body {
    char *path;
    check_t checks[MAX_CHECKS];
    size_t check_count;
    bool has_digest[3];
    uint64_t digest[3];
    size_t event_index[MAX_EVENTS];
    uint8_t event_hex[MAX_EVENTS][112];
    size_t event_count;
    bool has_subscribed;
    bool subscribed[2][NOTIFICATION_TYPE_MAX + 1]; /* TPB, TopSP: the types posted */
} scenario_body_t;

static const char *const scenario_keys[] = {"scenario", "counts", "subscribed", "digests",
                                            "events", NULL};
static const char *const block_keys[] = {"tpb", "topsp", NULL};
/* The counts' keys, from the run's lists (sim/run_counts.h): its totals,
 * then the groups; an NC's entry names its NC, then its counts. */
#define NTSIM_COUNT_KEY_(name, value) #name,
static const char *const count_keys[] = {NTSIM_RUN_COUNT_MAP(NTSIM_COUNT_KEY_) "per_type", "ncs",
                                         "notifications", NULL};
static const char *const nc_keys[] = {"nc", NTSIM_RUN_NC_COUNT_MAP(NTSIM_COUNT_KEY_) NULL};
#undef NTSIM_COUNT_KEY_
static const char *const digest_keys[] = {"json", "ntff", "notifications", NULL};
static const char *const event_keys[] = {"index", "hex", NULL};

static void scenario_free(void *body)
{
    scenario_body_t *b = body;
    free(b->path);
    free(b);
}

static NRT_STATUS add_check(ntsim_yparse_t *p, scenario_body_t *b, yaml_node_t *map,
                            const char *path, const char *key, const char *name)
{
    if (ntsim_yp_get(p, map, key) == NULL)
        return NRT_SUCCESS;
    if (b->check_count == MAX_CHECKS)
        return ntsim_yp_error(p, map, path, "too many counts (at most %d)", MAX_CHECKS);
    check_t *c = &b->checks[b->check_count];
    NRT_STATUS st = ntsim_yp_u64(p, map, path, key, true, UINT64_MAX, &c->want);
    if (st != NRT_SUCCESS)
        return st;
    snprintf(c->name, sizeof c->name, "%s", name);
    b->check_count++;
    return NRT_SUCCESS;
}

static NRT_STATUS parse_counts(ntsim_yparse_t *p, yaml_node_t *c, const char *path,
                               scenario_body_t *b)
{
    NRT_STATUS st;
    if ((st = ntsim_yp_check_keys(p, c, path, count_keys, NULL)) != NRT_SUCCESS)
        return st;
    for (const char *const *k = ntsim_run_count_names(NTSIM_COUNTS_RUN); *k != NULL; k++)
        if ((st = add_check(p, b, c, path, *k, *k)) != NRT_SUCCESS)
            return st;
    yaml_node_t *pt = ntsim_yp_get(p, c, "per_type");
    if (pt != NULL) {
        char tpath[512];
        ntsim_yp_path(tpath, sizeof tpath, "%s.per_type", path);
        if (pt->type != YAML_MAPPING_NODE)
            return ntsim_yp_error(p, pt, tpath, "expected a mapping of type names to counts");
        for (yaml_node_pair_t *pair = pt->data.mapping.pairs.start;
             pair < pt->data.mapping.pairs.top; pair++) {
            const char *key = ntsim_yp_scalar(ntsim_yp_node(p, pair->key));
            char name[128];
            snprintf(name, sizeof name, "NRT_SYS_TRACE_EVENT_TYPE_%s", key ? key : "");
            if (ntsim__event_type_by_enum_name(name) == NULL)
                return ntsim_yp_error(p, ntsim_yp_node(p, pair->key), tpath,
                                      "'%s' is not an event type", key ? key : "?");
            char cname[64];
            snprintf(cname, sizeof cname, "per_type.%s", key);
            if ((st = add_check(p, b, pt, tpath, key, cname)) != NRT_SUCCESS)
                return st;
        }
    }
    yaml_node_t *ncs = ntsim_yp_get(p, c, "ncs");
    if (ncs != NULL) {
        char npath[512];
        ntsim_yp_path(npath, sizeof npath, "%s.ncs", path);
        if (ncs->type != YAML_SEQUENCE_NODE)
            return ntsim_yp_error(p, ncs, npath, "expected a sequence of per-NC counts");
        for (yaml_node_item_t *it = ncs->data.sequence.items.start;
             it < ncs->data.sequence.items.top; it++) {
            yaml_node_t *m = ntsim_yp_node(p, *it);
            uint64_t nc;
            if ((st = ntsim_yp_check_keys(p, m, npath, nc_keys, NULL)) != NRT_SUCCESS ||
                (st = ntsim_yp_u64(p, m, npath, "nc", true, NTSIM_NC_COUNT - 1, &nc)) !=
                    NRT_SUCCESS)
                return st;
            for (size_t k = 1; nc_keys[k] != NULL; k++) {
                char cname[64];
                snprintf(cname, sizeof cname, "nc%llu.%s", (unsigned long long)nc, nc_keys[k]);
                if ((st = add_check(p, b, m, npath, nc_keys[k], cname)) != NRT_SUCCESS)
                    return st;
            }
        }
    }
    yaml_node_t *n = ntsim_yp_get(p, c, "notifications");
    if (n != NULL) {
        char npath[512];
        ntsim_yp_path(npath, sizeof npath, "%s.notifications", path);
        const char *const *notif_keys = ntsim_run_count_names(NTSIM_COUNTS_NOTIFY);
        if ((st = ntsim_yp_check_keys(p, n, npath, notif_keys, NULL)) != NRT_SUCCESS)
            return st;
        for (size_t k = 0; notif_keys[k] != NULL; k++) {
            char cname[64];
            snprintf(cname, sizeof cname, "notifications.%s", notif_keys[k]);
            if ((st = add_check(p, b, n, npath, notif_keys[k], cname)) != NRT_SUCCESS)
                return st;
        }
    }
    return NRT_SUCCESS;
}

/* subscribed: {tpb: [TYPE*], topsp: [TYPE*]}: notification_type values
 * 0..10, each once; a block left out posted nothing. */
static NRT_STATUS parse_subscribed(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                   scenario_body_t *b)
{
    NRT_STATUS st = ntsim_yp_check_keys(p, node, path, block_keys, NULL);
    if (st != NRT_SUCCESS)
        return st;
    b->has_subscribed = true;
    for (size_t k = 0; k < 2; k++) {
        yaml_node_t *list = ntsim_yp_get(p, node, block_keys[k]);
        if (list == NULL || (list->type == YAML_SEQUENCE_NODE &&
                             list->data.sequence.items.top == list->data.sequence.items.start))
            continue; /* posted nothing */
        yaml_node_item_t *items;
        size_t n;
        if ((st = ntsim_yp_seq(p, node, path, block_keys[k], &items, &n)) != NRT_SUCCESS)
            return st;
        for (size_t i = 0; i < n; i++) {
            char field[600];
            ntsim_yp_path(field, sizeof field, "%s.%s[%zu]", path, block_keys[k], i);
            uint64_t t;
            if ((st = ntsim_yp_u64_node(p, ntsim_yp_node(p, items[i]), field,
                                        NOTIFICATION_TYPE_MAX, &t)) != NRT_SUCCESS)
                return st;
            if (b->subscribed[k][t])
                return ntsim_yp_error(p, ntsim_yp_node(p, items[i]), field,
                                      "type %" PRIu64 " listed twice", t);
            b->subscribed[k][t] = true;
        }
    }
    return NRT_SUCCESS;
}

static NRT_STATUS scenario_parse(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                 void **out)
{
    scenario_body_t *b = calloc(1, sizeof *b);
    if (b == NULL)
        return NRT_RESOURCE;
    *out = b;
    const char *file;
    NRT_STATUS st = ntsim_yp_str(p, node, path, "scenario", true, &file);
    if (st != NRT_SUCCESS)
        return st;
    if ((b->path = ntsim_strdup(file)) == NULL)
        return NRT_RESOURCE;
    char sub[512];
    yaml_node_t *c = ntsim_yp_get(p, node, "counts");
    if (c != NULL) {
        ntsim_yp_path(sub, sizeof sub, "%s.counts", path);
        if ((st = parse_counts(p, c, sub, b)) != NRT_SUCCESS)
            return st;
    }
    yaml_node_t *sb = ntsim_yp_get(p, node, "subscribed");
    if (sb != NULL) {
        ntsim_yp_path(sub, sizeof sub, "%s.subscribed", path);
        if ((st = parse_subscribed(p, sb, sub, b)) != NRT_SUCCESS)
            return st;
    }
    yaml_node_t *d = ntsim_yp_get(p, node, "digests");
    if (d != NULL) {
        ntsim_yp_path(sub, sizeof sub, "%s.digests", path);
        if ((st = ntsim_yp_check_keys(p, d, sub, digest_keys, NULL)) != NRT_SUCCESS)
            return st;
        for (size_t k = 0; k < 3; k++) {
            b->has_digest[k] = ntsim_yp_get(p, d, digest_keys[k]) != NULL;
            if ((st = ntsim_yp_u64(p, d, sub, digest_keys[k], false, UINT64_MAX,
                                   &b->digest[k])) != NRT_SUCCESS)
                return st;
        }
    }
    yaml_node_t *ev = ntsim_yp_get(p, node, "events");
    if (ev != NULL) {
        ntsim_yp_path(sub, sizeof sub, "%s.events", path);
        if (ev->type != YAML_SEQUENCE_NODE)
            return ntsim_yp_error(p, ev, sub, "expected a sequence of {index, hex}");
        for (yaml_node_item_t *it = ev->data.sequence.items.start;
             it < ev->data.sequence.items.top; it++) {
            if (b->event_count == MAX_EVENTS)
                return ntsim_yp_error(p, ev, sub, "at most %d events", MAX_EVENTS);
            yaml_node_t *e = ntsim_yp_node(p, *it);
            uint64_t index;
            const char *hex;
            if ((st = ntsim_yp_check_keys(p, e, sub, event_keys, NULL)) != NRT_SUCCESS ||
                (st = ntsim_yp_u64(p, e, sub, "index", true, UINT32_MAX, &index)) !=
                    NRT_SUCCESS ||
                (st = ntsim_yp_str(p, e, sub, "hex", true, &hex)) != NRT_SUCCESS)
                return st;
            if (!ntsim_vec_parse_hex(hex, b->event_hex[b->event_count], 112))
                return ntsim_yp_error(p, ntsim_yp_get(p, e, "hex"), sub,
                                      "expected exactly 112 bytes of hex");
            b->event_index[b->event_count++] = (size_t)index;
        }
    }
    return NRT_SUCCESS;
}

/* The value of a named count of a run: "executes", "per_type.GENERIC",
 * "nc3.overwritten", "notifications.posted" (the names add_check gave). */
static bool count_of(const ntsim_run_result_t *r, const char *name, uint64_t *out)
{
    if (strncmp(name, "per_type.", 9) == 0) {
        char enum_name[128];
        snprintf(enum_name, sizeof enum_name, "NRT_SYS_TRACE_EVENT_TYPE_%s", name + 9);
        const ntsim_event_type_desc_t *d = ntsim__event_type_by_enum_name(enum_name);
        if (d == NULL)
            return false;
        *out = r->per_type[d->type];
        return true;
    }
    if (strncmp(name, "nc", 2) == 0 && name[2] >= '0' && name[2] <= '9') {
        char *dot = NULL;
        unsigned long nc = strtoul(name + 2, &dot, 10);
        return nc < NTSIM_NC_COUNT && dot != NULL && *dot == '.' &&
               ntsim_run_count(r, NTSIM_COUNTS_NC, dot + 1, (uint32_t)nc, out);
    }
    if (strncmp(name, "notifications.", 14) == 0)
        return ntsim_run_count(r, NTSIM_COUNTS_NOTIFY, name + 14, 0, out);
    return ntsim_run_count(r, NTSIM_COUNTS_RUN, name, 0, out);
}

static void scenario_run(const ntsim_vector_t *v, ntsim_report_t *rep)
{
    const scenario_body_t *b = v->body;
    ntsim_scenario_t *sc = malloc(sizeof *sc);
    ntsim_run_result_t *r = malloc(sizeof *r);
    if (sc == NULL || r == NULL) {
        ntsim_report_add(rep, v->id, "run", "out of memory");
        free(sc);
        free(r);
        return;
    }
    char errors[4096];
    ntsim_errors_t lookup;
    ntsim_errors_init(&lookup);
    /* A path is relative to the vector file's own directory, so that a
     * vector and its scenario move together and run from anywhere
     * (D-DATA-LOCATE); a name is a shipped scenario's. */
    char *base = ntsim_strdup(v->file);
    char *slash = base != NULL ? strrchr(base, '/') : NULL;
    if (slash != NULL)
        *slash = '\0';
    char *path = base == NULL ? NULL
                              : ntsim_scenario_find_in(b->path, slash != NULL ? base : ".", &lookup);
    free(base);
    NRT_STATUS st = path == NULL ? NRT_INVALID
                                 : ntsim_scenario_load(path, sc, errors, sizeof errors);
    if (path == NULL)
        snprintf(errors, sizeof errors, "%s", lookup.count ? lookup.items[0] : "out of memory");
    free(path);
    ntsim_errors_free(&lookup);
    if (st != NRT_SUCCESS) {
        ntsim_report_add(rep, v->id, "scenario", "expected %s to load, got: %s", b->path, errors);
        free(sc);
        free(r);
        return;
    }
    /* Digested as they stream by; the records the vector shows are picked
     * out on the way. */
    nrt_sys_trace_event_t kept[MAX_EVENTS];
    bool found[MAX_EVENTS];
    ntsim_run_picks_t picks = {b->event_index, b->event_count, kept, found, {0}, {0}};
    ntsim_run_io_t io = {{NULL, NULL, NULL, NULL, false}, &picks, NULL, NULL, NULL, NULL, 0};
    ntsim_outputs_t o;
    if (ntsim_run_scenario(sc, &io, r, &o) != NRT_SUCCESS) {
        ntsim_report_add(rep, v->id, "run", "expected the simulation to run");
        free(sc);
        free(r);
        ntsim_capture_shutdown();
        return;
    }
    char subid[256];
    for (size_t i = 0; i < b->check_count; i++) {
        uint64_t got;
        ntsim_yp_path(subid, sizeof subid, "%s.%s", v->id, b->checks[i].name);
        if (!count_of(r, b->checks[i].name, &got))
            ntsim_report_add(rep, subid, "counts", "no such count");
        else if (got != b->checks[i].want)
            ntsim_report_add(rep, subid, "counts", "expected %" PRIu64 ", got %" PRIu64,
                             b->checks[i].want, got);
    }
    for (size_t k = 0; b->has_subscribed && k < 2; k++) {
        const uint64_t *posted = k == 0 ? r->posted_tpb : r->posted_topsp;
        char want[64] = "", got[64] = "";
        for (int t = 0; t <= NOTIFICATION_TYPE_MAX; t++) {
            if (b->subscribed[k][t])
                snprintf(want + strlen(want), sizeof want - strlen(want), " %d", t);
            if (posted[t] > 0)
                snprintf(got + strlen(got), sizeof got - strlen(got), " %d", t);
        }
        if (strcmp(want, got) != 0) {
            ntsim_yp_path(subid, sizeof subid, "%s.subscribed.%s", v->id, block_keys[k]);
            ntsim_report_add(rep, subid, "subscribed", "expected the types {%s }, got {%s }", want,
                             got);
        }
    }
    const uint64_t digest[3] = {o.json_digest, o.ntff_digest, o.notif_digest};
    const uint64_t len[3] = {o.json_len, o.ntff_len, o.notif_len};
    for (size_t k = 0; k < 3; k++) {
        if (b->has_digest[k] && digest[k] != b->digest[k]) {
            ntsim_yp_path(subid, sizeof subid, "%s.digests.%s", v->id, digest_keys[k]);
            ntsim_report_add(rep, subid, "digest", "expected 0x%016" PRIx64 ", got 0x%016" PRIx64
                             " (%" PRIu64 " bytes)", b->digest[k], digest[k], len[k]);
        }
    }
    for (size_t i = 0; i < b->event_count; i++) {
        ntsim_yp_path(subid, sizeof subid, "%s.events[%zu]", v->id, i);
        size_t idx = b->event_index[i];
        if (!found[i])
            ntsim_report_add(rep, subid, "index",
                             "expected a record at %zu, got %" PRIu64 " records", idx,
                             r->record_count);
        else if (memcmp(&kept[i], b->event_hex[i], 112) != 0)
            ntsim_report_add(rep, subid, "hex", "record %zu differs from the expected bytes",
                             idx);
    }
    free(r);
    free(sc);
    ntsim_capture_shutdown();
}

/* The scenario the vector runs, as it names it: the coverage checks ask
 * that every shipped scenario has a vector. */
static const char *scenario_subject(const void *body)
{
    return ((const scenario_body_t *)body)->path;
}

/* The keys a vector of this kind is judged by (facts.h: FACT@key). */
static const char *const scenario_judged[] = {"counts", "subscribed", "digests", "events", NULL};

const ntsim_vector_kind_t ntsim_kind_scenario = {
    .name = "scenario",
    .keys = scenario_keys,
    .judged = scenario_judged,
    .allows_invalid = false,
    .parse = scenario_parse,
    .free_body = scenario_free,
    .run = scenario_run,
    .subject = scenario_subject,
};
