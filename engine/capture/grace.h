/*
 * engine/capture/grace.h: knowing when no emitter can still touch a ring.
 *
 * stop() frees the rings while other threads may be inside an emit. Each
 * emitting thread owns a record with an in_emit flag, set around the part of
 * emit that reads the capture state and writes a ring. stop() clears the
 * capture state, then waits until every flag it can see is clear; a memory
 * barrier forced on every thread (membarrier(2)) makes sure that a thread
 * whose flag it did not see will see the cleared state. The emit side is two
 * plain stores and a compiler fence: no atomic read-modify-write, no lock.
 * Where membarrier is unavailable, emitters use a full fence instead.
 * Internal.
 */
#ifndef NTSIM_ENGINE_GRACE_H
#define NTSIM_ENGINE_GRACE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ntsim_thread {
    _Alignas(64) _Atomic uint32_t in_emit; /* 1 while inside the guarded part of emit */
    uint64_t tid;                          /* gettid(), cached for thread_id */
    bool alive;                            /* false once the thread exited (record reusable) */
    struct ntsim_thread *next;             /* registry list, under the registry mutex */
} ntsim_thread_t;

/* The calling thread's record (initial-exec TLS: no __tls_get_addr call on
 * the emit path, in the static and the shared library alike). */
extern _Thread_local ntsim_thread_t *ntsim__tls_self __attribute__((tls_model("initial-exec")));

/* Registers the calling thread (one mutex-protected registration per
 * thread). NULL only when out of memory. */
ntsim_thread_t *ntsim__thread_register(void);

/* The calling thread's record, registered on first use. */
static inline ntsim_thread_t *ntsim__thread_self(void)
{
    ntsim_thread_t *t = ntsim__tls_self;
    return t != NULL ? t : ntsim__thread_register();
}

/* Called by start() before capturing begins: picks membarrier or fences. */
void ntsim__grace_prepare(void);

/* True when emitters must order their flag themselves (no membarrier).
 * Starts true (always safe) and is set once, at the first start. */
extern _Atomic bool ntsim__grace_fence_mode;

/* Blocks until no thread is inside the guarded part of an emit that began
 * before the capture state was cleared. Called by stop(). */
void ntsim__grace_wait(void);

/* Makes every thread of the process execute a full memory barrier
 * (membarrier) before it returns; nothing in fence mode, where the other
 * side of each handshake orders itself with seq_cst operations. The ring's
 * ownership revocation and its consumer's claim use it (ring.c). */
void ntsim__grace_barrier(void);

/* Frees the records of exited threads and of the caller. Only when no
 * other thread can emit. */
void ntsim__grace_shutdown(void);

/* Around fork (capture.c's pthread_atfork handlers, D-FORK): the registry
 * lock is held across it, so that the child's copy of the list is whole.
 * In the child, every record but the caller's belongs to a thread that does
 * not exist there: its in_emit flag, which nothing would ever clear, is
 * cleared, and the record is free for the child's next thread. */
void ntsim__grace_fork_prepare(void);
void ntsim__grace_fork_parent(void);
void ntsim__grace_fork_child(void);

/* Enter: flag set, then (ordered after it) the caller re-reads the capture
 * state with a seq_cst load. */
static inline void ntsim__grace_enter(ntsim_thread_t *self)
{
    if (atomic_load_explicit(&ntsim__grace_fence_mode, memory_order_relaxed)) {
        /* seq_cst RMW: with stop()'s seq_cst store of the state and seq_cst
         * load of this flag, one total order means one side sees the other
         * (Dekker). */
        atomic_exchange_explicit(&self->in_emit, 1, memory_order_seq_cst);
    } else {
        /* membarrier: stop() forces the hardware barrier on this thread, so
         * only the compiler must keep the store before the state load. */
        atomic_store_explicit(&self->in_emit, 1, memory_order_relaxed);
        atomic_signal_fence(memory_order_seq_cst);
    }
}

/* True when the calling thread is inside the guarded part of an emit: a hook
 * (the clock, the thread id) calling back into the engine. Such a thread must
 * not wait for a grace period, which would wait for itself. */
static inline bool ntsim__grace_inside_emit(void)
{
    ntsim_thread_t *t = ntsim__tls_self;
    return t != NULL && atomic_load_explicit(&t->in_emit, memory_order_relaxed) != 0;
}

static inline void ntsim__grace_exit(ntsim_thread_t *self)
{
    /* release: every ring access of this emit happens before stop() sees 0. */
    atomic_store_explicit(&self->in_emit, 0, memory_order_release);
}

#endif /* NTSIM_ENGINE_GRACE_H */
