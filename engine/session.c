/*
 * engine/session.c: the per-session hooks (session.h).
 *
 * The hooks are an append-only array: a registration fills the next slot
 * and then publishes the new count with a release store, under g_lock (one
 * registration at a time). Running them takes no lock: an acquire load of
 * the count makes every slot below it, filled before that count was
 * published, visible. So running the hooks adds no lock to the order of the
 * locks they take (capture's lifecycle lock, then a stage's own), and a
 * registration made while a hook runs waits for nothing.
 */
#include "session.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#include "log.h"

static const ntsim__session_hooks_t *g_hooks[NTSIM_SESSION_HOOKS_MAX];
static _Atomic size_t g_count;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

bool ntsim__session_register(const ntsim__session_hooks_t *hooks)
{
    pthread_mutex_lock(&g_lock);
    size_t n = atomic_load_explicit(&g_count, memory_order_relaxed); /* written under g_lock */
    size_t i = 0;
    while (i < n && g_hooks[i] != hooks)
        i++;
    bool ok = i < n || n < NTSIM_SESSION_HOOKS_MAX; /* there already, or room for it */
    if (i == n && ok) {
        g_hooks[n] = hooks;
        /* release: the slot is filled before a runner can see the count. */
        atomic_store_explicit(&g_count, n + 1, memory_order_release);
    }
    pthread_mutex_unlock(&g_lock);
    if (!ok)
        ntsim__log(NTSIM_LOG_ERROR, "more than %d sets of session hooks: one is not registered",
                   NTSIM_SESSION_HOOKS_MAX);
    return ok;
}

size_t ntsim__session_count(void)
{
    return atomic_load_explicit(&g_count, memory_order_acquire); /* as in the runners below */
}

void ntsim__session_started(void)
{
    /* acquire: pairs with the registration's release (every slot below n). */
    size_t n = atomic_load_explicit(&g_count, memory_order_acquire);
    for (size_t i = 0; i < n; i++)
        if (g_hooks[i]->start != NULL)
            g_hooks[i]->start();
}

void ntsim__session_shutdown(void)
{
    size_t n = atomic_load_explicit(&g_count, memory_order_acquire); /* as above */
    for (size_t i = 0; i < n; i++)
        if (g_hooks[i]->shutdown != NULL)
            g_hooks[i]->shutdown();
}
