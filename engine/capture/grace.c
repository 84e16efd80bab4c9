/*
 * engine/capture/grace.c: the emitting-thread registry and stop()'s grace period.
 *
 * Why it is correct (the userspace-RCU argument with sys_membarrier):
 *   emitter:  in_emit = 1; compiler fence; r = state; if r: touch ring; in_emit = 0 (release)
 *   stop:     state = 0; membarrier(PRIVATE_EXPEDITED); wait until every in_emit == 0
 * membarrier runs a full barrier on every running thread of the process
 * between stop's store and its scan. So for each emitter, either its
 * in_emit = 1 is visible to the scan (and stop waits for the release store
 * of 0, which orders all its ring accesses before the free), or its later
 * load of the state returns 0 and it touches nothing. A thread that is not
 * running is between instructions, which the kernel's context switch already
 * orders. Without membarrier, emitters fence themselves (a full fence
 * between their store and load) and stop() fences: the classic Dekker pair.
 */
#define _GNU_SOURCE /* syscall, SYS_gettid, SYS_membarrier */
#include "grace.h"

#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "alloc.h"
#include "log.h"

_Atomic bool ntsim__grace_fence_mode = true;

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static ntsim_thread_t *registry_head;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static pthread_key_t exit_key;
_Thread_local ntsim_thread_t *ntsim__tls_self __attribute__((tls_model("initial-exec")));

static pthread_once_t membarrier_once = PTHREAD_ONCE_INIT;
static bool membarrier_ok;

/* Thread exit: the record stays in the list and becomes reusable. */
static void thread_exited(void *arg)
{
    ntsim_thread_t *t = arg;
    pthread_mutex_lock(&registry_lock);
    t->alive = false;
    pthread_mutex_unlock(&registry_lock);
}

static void key_create(void)
{
    if (pthread_key_create(&exit_key, thread_exited) != 0)
        ntsim__log(NTSIM_LOG_WARN, "pthread_key_create failed: exited threads' records "
                                   "will not be reused");
}

ntsim_thread_t *ntsim__thread_register(void)
{
    if (ntsim__tls_self != NULL)
        return ntsim__tls_self;
    pthread_once(&key_once, key_create);
    pthread_mutex_lock(&registry_lock);
    ntsim_thread_t *t = registry_head;
    while (t != NULL && t->alive)
        t = t->next;
    if (t == NULL) {
        t = ntsim__aligned_malloc(_Alignof(ntsim_thread_t), sizeof *t);
        if (t == NULL) {
            pthread_mutex_unlock(&registry_lock);
            return NULL;
        }
        memset(t, 0, sizeof *t);
        t->next = registry_head;
        registry_head = t;
    }
    t->alive = true;
    t->tid = (uint64_t)syscall(SYS_gettid);
    atomic_store_explicit(&t->in_emit, 0, memory_order_relaxed);
    pthread_mutex_unlock(&registry_lock);
    pthread_setspecific(exit_key, t);
    ntsim__tls_self = t;
    return t;
}

#if defined(__SANITIZE_THREAD__)
#define NTSIM_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define NTSIM_TSAN 1
#endif
#endif

static void membarrier_register(void)
{
#ifdef NTSIM_TSAN
    /* ThreadSanitizer cannot see membarrier's ordering: use the seq_cst
     * path, which it models, so that its verdict covers the protocol. */
    membarrier_ok = false;
    return;
#endif
    long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    membarrier_ok = cmds > 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
                    syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
    if (!membarrier_ok)
        ntsim__log(NTSIM_LOG_INFO, "membarrier unavailable: emitters use a full fence");
}

void ntsim__grace_prepare(void)
{
    pthread_once(&membarrier_once, membarrier_register);
    /* relaxed: either value is safe for an emitter that reads it before
     * start() publishes the state (true is the conservative default). */
    atomic_store_explicit(&ntsim__grace_fence_mode, !membarrier_ok, memory_order_relaxed);
}

void ntsim__grace_barrier(void)
{
    if (!atomic_load_explicit(&ntsim__grace_fence_mode, memory_order_relaxed) &&
        syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0) {
        /* Cannot happen after a successful registration; if it did, the
         * ring's handshakes would lose their barrier: say so loudly. */
        ntsim__log(NTSIM_LOG_ERROR, "membarrier failed: ring handshakes are unordered");
    }
}

void ntsim__grace_wait(void)
{
    /* The caller cleared the state with a seq_cst store; the flag loads
     * below are seq_cst too (fence mode: the Dekker pair). */
    if (!atomic_load_explicit(&ntsim__grace_fence_mode, memory_order_relaxed) &&
        syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0) {
        /* Cannot happen after a successful registration; if it does, the
         * scan below still waits for every flag it sees. */
        ntsim__log(NTSIM_LOG_WARN, "membarrier failed during stop");
    }
    pthread_mutex_lock(&registry_lock);
    for (ntsim_thread_t *t = registry_head; t != NULL; t = t->next) {
        unsigned spins = 0;
        /* seq_cst (at least acquire): pairs with the emitter's release in
         * ntsim__grace_exit, ordering its ring accesses before the free. */
        while (atomic_load_explicit(&t->in_emit, memory_order_seq_cst) != 0)
            if (++spins > 64)
                sched_yield(); /* the emitter may be descheduled mid-emit */
    }
    pthread_mutex_unlock(&registry_lock);
}

void ntsim__grace_fork_prepare(void)
{
    pthread_mutex_lock(&registry_lock);
}

void ntsim__grace_fork_parent(void)
{
    pthread_mutex_unlock(&registry_lock);
}

void ntsim__grace_fork_child(void)
{
    /* One thread here, the caller; relaxed: no other thread can read it. */
    for (ntsim_thread_t *t = registry_head; t != NULL; t = t->next) {
        if (t == ntsim__tls_self)
            continue;
        t->alive = false;
        atomic_store_explicit(&t->in_emit, 0, memory_order_relaxed);
    }
    pthread_mutex_unlock(&registry_lock);
}

void ntsim__grace_shutdown(void)
{
    /* Frees the records of exited threads and the caller's own. A record of
     * another thread still alive is kept: that thread's exit handler will
     * still write it. */
    if (ntsim__tls_self != NULL) {
        pthread_setspecific(exit_key, NULL);
        pthread_mutex_lock(&registry_lock);
        ntsim__tls_self->alive = false;
        pthread_mutex_unlock(&registry_lock);
        ntsim__tls_self = NULL;
    }
    pthread_mutex_lock(&registry_lock);
    ntsim_thread_t **link = &registry_head;
    while (*link != NULL) {
        ntsim_thread_t *t = *link;
        if (t->alive) {
            link = &t->next;
            continue;
        }
        *link = t->next;
        ntsim__aligned_free(t);
    }
    pthread_mutex_unlock(&registry_lock);
}
