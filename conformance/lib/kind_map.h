/*
 * conformance/lib/kind_map.h: the one list of vector kinds.
 *
 * As NTSIM_EVENT_TYPE_MAP is the one list of event types, this is the one
 * list of the kinds of the vector files; every other view is derived from it:
 * the registry (kinds/kinds.c), the kinds a testee's hello may name and
 * their bits (testee/testee_msg.c), the request bodies' names
 * (testee/testee_client.c), the built-in testee's answers
 * (testee/builtin/testee_engine.c), the runner's per-kind test cases
 * (runner/check_vectors.c) and `check_ntsim --list-kinds`, which the shell
 * checks read. docs/architecture.md's "Adding a vector kind" lists the rest
 * of a new kind's edits; make add-kind-check proves that list.
 *
 * XX(name, HOW, BODY), in report order:
 *   name  the files' `kind:` value and the ids' prefix; the kind is the
 *         ntsim_vector_kind_t ntsim_kind_<name> (kinds/kind_<name>.c)
 *   HOW   JUDGED: an implementation answers it, through the testee protocol:
 *         testee.proto's Request body <BODY> (NTSIM_TESTEE__REQUEST__BODY_<BODY>),
 *         answered in the built-in testee by ntsim__testee_<name>;
 *         OWN: the harness's own kind, which runs itself (BODY is NONE)
 */
#ifndef NTSIM_CONFORMANCE_KIND_MAP_H
#define NTSIM_CONFORMANCE_KIND_MAP_H

#define NTSIM_KIND_MAP(XX)                                                                  \
    XX(layout, JUDGED, LAYOUT)                                                              \
    XX(enum, JUDGED, ENUM_TYPE)                                                             \
    XX(event_type, JUDGED, EVENT_TYPE)                                                      \
    XX(record, JUDGED, RECORD)                                                              \
    XX(json, JUDGED, JSON)                                                                  \
    XX(ntff, JUDGED, NTFF)                                                                  \
    XX(notify, JUDGED, NOTIFY)                                                              \
    XX(scenario, OWN, NONE)                                                                 \
    XX(decode, OWN, NONE)                                                                   \
    XX(api, JUDGED, API)                                                                    \
    XX(inspect, OWN, NONE)

/* NTSIM_KIND_IF_JUDGED(HOW, ...) is ... for a JUDGED kind and nothing for
 * an OWN one: the views of the judged kinds alone expand through it. */
#define NTSIM_KIND_IF_JUDGED(how, ...) NTSIM_KIND_IF_JUDGED_##how(__VA_ARGS__)
#define NTSIM_KIND_IF_JUDGED_JUDGED(...) __VA_ARGS__
#define NTSIM_KIND_IF_JUDGED_OWN(...)

/* How many kinds, and how many of them are judged. */
#define NTSIM_KIND_ONE(name, how, body) +1
#define NTSIM_KIND_ONE_JUDGED(name, how, body) NTSIM_KIND_IF_JUDGED(how, +1)
enum {
    NTSIM_KIND_COUNT = 0 NTSIM_KIND_MAP(NTSIM_KIND_ONE),
    NTSIM_KIND_JUDGED_COUNT = 0 NTSIM_KIND_MAP(NTSIM_KIND_ONE_JUDGED)
};
#undef NTSIM_KIND_ONE
#undef NTSIM_KIND_ONE_JUDGED

#endif /* NTSIM_CONFORMANCE_KIND_MAP_H */
