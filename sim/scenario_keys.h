/*
 * sim/scenario_keys.h: the one list of a scenario file's keys.
 *
 * Every key of the format is one row of ntsim_scenario_keys (scenario_keys.c):
 * where it sits (its section), its type, whether it is required, its limits,
 * its default as the schema writes it, and where the loader stores it. From
 * the rows come: the keys each mapping of a file may hold (an unknown key is
 * an error), the reading, range check and storing of every scalar with a
 * place in the scenario (scenario_load.c does the rest: cores or instance,
 * the clocks, the type lists, the fault kinds), the built-in default's
 * scalars and each list entry's defaults, and the schema of
 * sim/scenarios/README.md, which a unit suite checks against them
 * (test_scenario_readme_lists_every_key). A scalar key is one row, a field
 * and its use (docs/architecture.md, "Adding a scenario key").
 */
#ifndef NTSIM_SIM_SCENARIO_KEYS_H
#define NTSIM_SIM_SCENARIO_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scenario.h"

/* The mappings of a file, and the struct each one's scalars are stored in. */
typedef enum ntsim_scenario_section {
    NTSIM_SEC_TOP,          /* the document (ntsim_scenario_t) */
    NTSIM_SEC_INSTANCE,     /* instance: (ntsim_scenario_t) */
    NTSIM_SEC_HOST,         /* host: (ntsim_scenario_t) */
    NTSIM_SEC_CLOCK_SPREAD, /* clock_spread: (ntsim_scenario_t) */
    NTSIM_SEC_CLOCKS,       /* each entry of clocks: (ntsim_clock_entry_t) */
    NTSIM_SEC_MODELS,       /* each entry of models: (ntsim_model_t) */
    NTSIM_SEC_CAPTURE,      /* capture: (ntsim_scenario_t) */
    NTSIM_SEC_FAULTS,       /* each entry of faults: (ntsim_fault_t) */
    NTSIM_SEC_COUNT
} ntsim_scenario_section_t;

/* One entry of `clocks`, as the loader reads it before it applies it. */
typedef struct ntsim_clock_entry {
    uint64_t core;            /* instance-wide physical core */
    int64_t offset_ns;        /* device - host at t = 0 */
    int64_t drift_ppm;
} ntsim_clock_entry_t;

typedef enum ntsim_scenario_key_type {
    NTSIM_KEY_UINT,     /* a plain decimal integer in [min, max] */
    NTSIM_KEY_INT,      /* the same, signed */
    NTSIM_KEY_BOOL,     /* true or false */
    NTSIM_KEY_STRING,   /* any one-line text (not stored) */
    NTSIM_KEY_NAME,     /* a text stored in a fixed buffer: at most its size - 1 bytes */
    NTSIM_KEY_MAP,      /* a mapping: the section of the same name */
    NTSIM_KEY_LIST,     /* a list of mappings: the section of the same name, min..max entries */
    NTSIM_KEY_RANGES,   /* an index list in a string: "0-3,8" */
    NTSIM_KEY_TYPES,    /* a list of event types, as enum suffixes (HW_NOTIFY) */
    NTSIM_KEY_NCS,      /* a list of NC indices in [min, max] */
    NTSIM_KEY_FAULT     /* one of NTSIM_FAULT_KIND_MAP's names */
} ntsim_scenario_key_type_t;

typedef struct ntsim_scenario_key {
    ntsim_scenario_section_t section;
    const char *key;
    ntsim_scenario_key_type_t type;
    bool required;
    int64_t min;              /* integers, list entries, NC indices */
    uint64_t max;
    const char *def;          /* the default, as the schema writes it ("required" when required) */
    const char *limit;        /* the schema's limit where min..max does not say it; else NULL */
    size_t offset, size;      /* the field the loader stores it in; size 0: the loader's code */
    const char *what;         /* one line for the schema */
} ntsim_scenario_key_t;

extern const ntsim_scenario_key_t ntsim_scenario_keys[];
extern const size_t ntsim_scenario_key_count;

/* "" for the document, "instance", "host", "clocks[]", ... */
const char *ntsim_scenario_section_path(ntsim_scenario_section_t sec);
/* The row of `key` in `sec`, or NULL. */
const ntsim_scenario_key_t *ntsim_scenario_key_find(ntsim_scenario_section_t sec,
                                                    const char *key);
/* The keys of `sec`, NULL-terminated, in the table's order (a static array). */
const char *const *ntsim_scenario_section_keys(ntsim_scenario_section_t sec);
/* The schema's words for a row: its path ("host.threads", "models[].exec_ns"),
 * its type ("integer", ...) and its limit ("0..256", "at most 63 bytes",
 * "1..8 entries", ...). Each writes into out (cap bytes) and returns it. */
char *ntsim_scenario_key_path(const ntsim_scenario_key_t *k, char *out, size_t cap);
const char *ntsim_scenario_key_type_name(const ntsim_scenario_key_t *k);
char *ntsim_scenario_key_limit(const ntsim_scenario_key_t *k, char *out, size_t cap);

/* Stores every scalar row of `sec` that has a field and a default (not
 * required) at base, its default parsed: the built-in default's scalars
 * (sections of the document) and each list entry's defaults. */
void ntsim_scenario_key_defaults(ntsim_scenario_section_t sec, void *base);

#endif /* NTSIM_SIM_SCENARIO_KEYS_H */
