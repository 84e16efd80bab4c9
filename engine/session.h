/*
 * engine/session.h: what a capture session's start and the engine's
 * shutdown reset, for the stages that keep state per session. Internal.
 *
 * Capture (engine/capture/) is the lowest stage: it must not know the
 * converters above it. A stage that keeps per-session state (the JSON
 * exporter's mismatch counters and sync points, D-JSON-TIME) registers its
 * hooks here when it first holds such state; nrt_sys_trace_start() and
 * ntsim_capture_shutdown() run whatever is registered, under their
 * lifecycle lock, in the order it was registered. Nothing is ever
 * unregistered.
 */
#ifndef NTSIM_ENGINE_SESSION_H
#define NTSIM_ENGINE_SESSION_H

#ifndef NTSIM_ENGINE_INTERNAL
#error "engine-private header: only engine/ and conformance/unit/ may include it (make layers)"
#endif

#include <stdbool.h>
#include <stddef.h>

typedef struct ntsim__session_hooks {
    void (*start)(void);    /* a session starts: forget the last one's state */
    void (*shutdown)(void); /* ntsim_capture_shutdown: free what is held */
} ntsim__session_hooks_t;

/* The most hook sets that can be registered (a stage registers one). */
#define NTSIM_SESSION_HOOKS_MAX 8

/* Registers `hooks` (static storage: kept, never copied); registering the
 * same object again does nothing. Any thread, any time; it takes a lock of
 * its own, so a caller must not hold a lock a hook takes. False, with an
 * error logged, when NTSIM_SESSION_HOOKS_MAX are registered already. */
bool ntsim__session_register(const ntsim__session_hooks_t *hooks);

/* How many sets are registered (for the tests). */
size_t ntsim__session_count(void);

/* Every registered start, then (for shutdown) every registered shutdown,
 * in registration order. Capture calls them with its lifecycle lock held
 * and no other: a hook takes its own stage's locks. */
void ntsim__session_started(void);
void ntsim__session_shutdown(void);

#endif /* NTSIM_ENGINE_SESSION_H */
