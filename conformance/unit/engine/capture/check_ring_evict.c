/*
 * conformance/unit/engine/capture/check_ring_evict.c: the eviction rule
 * (engine/capture/ring.c): exactly one side decides each record, the pusher of p + C
 * in P3 or the consumer in C4. A shared push that finds the consumer took
 * its record yields it and gives its position back; a pop asks the pushers
 * that have claimed which of its claimed records are its own, and with
 * membarrier asks again after its barrier. The other side's steps are put
 * between two steps of a push with page protection, and at the consumer's
 * barrier with a seccomp filter, so that every run takes the same
 * interleaving.
 */
#define _GNU_SOURCE /* MAP_ANONYMOUS, usleep */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "check_ring.h"

/* --- interleavings forced with page protection ----------------------------------
 *
 * A few steps of the protocol only happen when another thread acts between
 * two steps of a push. To make them happen every run, the test moves a
 * ring's header onto two pages of its own: the producers' line (H) on page
 * A, the consumer's line (K, R) and the geometry on page B. A push then
 * touches A to claim (P2) and B right after it to decide (P3), and
 * protecting one page stops the pusher exactly there: the SIGSEGV handler
 * below acts for "the other thread" (or waits for it), moves the
 * protection on and returns, and the access is retried. */

typedef enum { TRAP_GIVE_BACK, TRAP_PAUSE } trap_mode_t;

static struct {
    ntsim_ring_t *r;
    char *a, *b; /* the two pages */
    size_t page;
    trap_mode_t mode;
    uint64_t w; /* the trapped push's position */
    _Atomic int step;
    _Atomic int bad;    /* a fault the script did not expect */
    _Atomic int paused; /* TRAP_PAUSE: the pusher waits between P2 and P3 */
} g_trap;
static struct sigaction g_trap_old;

static void trap_protect(char *page, int prot)
{
    if (mprotect(page, g_trap.page, prot) != 0)
        atomic_store(&g_trap.bad, 1);
}

static void trap_handler(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)uc;
    char *at = si->si_addr;
    bool in_a = at >= g_trap.a && at < g_trap.a + g_trap.page;
    bool in_b = at >= g_trap.b && at < g_trap.b + g_trap.page;
    if (!in_a && !in_b) {
        sigaction(SIGSEGV, &g_trap_old, NULL); /* not ours: fault again, for real */
        return;
    }
    int step = atomic_load(&g_trap.step);
    ntsim_ring_t *r = g_trap.r;
    if (g_trap.mode == TRAP_GIVE_BACK && step == 0 && in_a) {
        /* P2's claim of w: a consumer's C3 takes position w - C first. */
        atomic_store(&r->claim, g_trap.w - r->capacity + 1);
        trap_protect(g_trap.a, PROT_READ | PROT_WRITE);
        trap_protect(g_trap.b, PROT_NONE);
    } else if (g_trap.mode == TRAP_GIVE_BACK && step == 1 && in_b) {
        /* P3 reads K: let it, and stop at the next write of H. */
        trap_protect(g_trap.b, PROT_READ | PROT_WRITE);
        trap_protect(g_trap.a, PROT_READ);
    } else if (g_trap.mode == TRAP_GIVE_BACK && step == 2 && in_a) {
        /* The write of H after the decision: stop at the next read of B. */
        trap_protect(g_trap.a, PROT_READ | PROT_WRITE);
        trap_protect(g_trap.b, PROT_NONE);
    } else if (g_trap.mode == TRAP_GIVE_BACK && step == 3 && in_b) {
        trap_protect(g_trap.b, PROT_READ | PROT_WRITE);
        /* A pusher that kept w would now wait for the consumer's release
         * for good: release, so that the test fails instead of hanging. */
        if (atomic_load(&r->head) != g_trap.w)
            atomic_store(&r->release, g_trap.w - r->capacity + 1);
    } else if (g_trap.mode == TRAP_PAUSE && step == 0 && in_a) {
        /* P2's claim: let it, and stop at the pusher's next look at B. */
        trap_protect(g_trap.a, PROT_READ | PROT_WRITE);
        trap_protect(g_trap.b, PROT_NONE);
    } else if (g_trap.mode == TRAP_PAUSE && step == 1 && in_b) {
        /* Between P2 and P3: wait here until a consumer's C3 stores K. */
        trap_protect(g_trap.b, PROT_READ | PROT_WRITE);
        atomic_store(&g_trap.paused, 1);
        while (atomic_load(&r->claim) == 0)
            nanosleep(&(struct timespec){0, 100000}, NULL);
    } else {
        atomic_store(&g_trap.bad, 1);
        trap_protect(g_trap.a, PROT_READ | PROT_WRITE);
        trap_protect(g_trap.b, PROT_READ | PROT_WRITE);
    }
    atomic_store(&g_trap.step, step + 1);
}

/* A shared ring of `capacity` (ownership already SHARED: every push claims
 * by CAS) whose header straddles the two trap pages. `*orig` is the ring
 * ntsim__ring_create made, which owns the slots. */
static ntsim_ring_t *trap_ring(uint64_t capacity, ntsim_ring_t **orig, trap_mode_t mode)
{
    ck_assert_int_eq(ntsim__ring_create(capacity, false, orig), NRT_SUCCESS);
    long page = sysconf(_SC_PAGESIZE);
    ck_assert_int_gt(page, 0);
    g_trap.page = (size_t)page;
    char *map = mmap(NULL, 2 * g_trap.page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                     -1, 0);
    ck_assert(map != MAP_FAILED);
    g_trap.a = map;
    g_trap.b = map + g_trap.page;
    ntsim_ring_t *r = (ntsim_ring_t *)(void *)(g_trap.b - 64); /* H's line ends page A */
    _Static_assert(offsetof(ntsim_ring_t, claim) == 64, "K's line follows H's");
    memcpy(r, *orig, sizeof *r);
    atomic_store(&r->owner, NTSIM_RING_OWNER_SHARED);
    g_trap.r = r;
    g_trap.mode = mode;
    atomic_store(&g_trap.step, 0);
    atomic_store(&g_trap.bad, 0);
    atomic_store(&g_trap.paused, 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = trap_handler;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    ck_assert_int_eq(sigaction(SIGSEGV, &sa, &g_trap_old), 0);
    return r;
}

/* Arms the trap at the next write of H, by the push at position w. */
static void trap_arm(uint64_t w)
{
    g_trap.w = w;
    ck_assert_int_eq(mprotect(g_trap.a, g_trap.page, PROT_READ), 0);
}

static void trap_free(ntsim_ring_t *orig)
{
    sigaction(SIGSEGV, &g_trap_old, NULL);
    munmap(g_trap.a, 2 * g_trap.page);
    ntsim__ring_destroy(orig);
}

/* P3 of a shared producer when the consumer took p = w - C after P1 (K
 * above p, R not): it stamps YIELDED(p), gives w back (CAS H from w + 1 to
 * w: no later position is claimed) and goes back to P1, where it spins and,
 * the consumer still copying, is refused as busy: H is w again, busy 1,
 * and the slot says YIELDED(p), so that the consumer need not wait. Once
 * the consumer releases p the push takes w without an eviction. */
START_TEST(test_ring_shared_push_gives_its_position_back_when_the_consumer_took_the_oldest)
{
    ntsim_ring_t *orig;
    ntsim_ring_t *r = trap_ring(1, &orig, TRAP_GIVE_BACK);
    push_n(r, 0, 1); /* position 0, by CAS */
    trap_arm(1);
    ntsim_ring_reservation_t res;
    ck_assert_int_eq(ntsim__ring_reserve(r, 5, ntsim__thread_self(), &res), NRT_QUEUE_FULL);
    ck_assert_int_eq(atomic_load(&g_trap.bad), 0);
    ck_assert_int_eq(atomic_load(&g_trap.step), 4); /* claim, decide, give back, P1 again */
    ntsim_ring_counts_t c;
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.pushed, 1);
    ck_assert_uint_eq(c.busy, 1); /* (overwritten waits for the pop's drained: not quiet) */
    ck_assert_uint_eq(ntsim__ring_stamp_load(r, 0), ntsim__stamp(0, NTSIM_STAMP_YIELDED));
    atomic_store(&r->drained, 1); /* C5: copied, handed out, released */
    atomic_store(&r->release, 1);
    res = reserve_at(r, 6, 1);
    memset(res.rec, 0, sizeof *res.rec);
    ntsim__ring_commit(&res);
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.overwritten, 0);
    ck_assert_uint_eq(c.first_overwrite_ns, 0);
    ck_assert(ntsim__ring_valid(r));
    trap_free(orig);
}
END_TEST

/* A push on another thread that the trap stops at its claim: at `clock`,
 * its record's nc_local_id = `id`; st and pos say how it ended. */
typedef struct trapped_push {
    ntsim_ring_t *ring;
    uint64_t clock, id;
    NRT_STATUS st;
    uint64_t pos;
} trapped_push_t;

static void *push_trapped(void *arg)
{
    trapped_push_t *t = arg;
    ntsim_ring_reservation_t res;
    t->st = ntsim__ring_reserve(t->ring, t->clock, ntsim__thread_self(), &res);
    if (t->st == NRT_SUCCESS) {
        memset(res.rec, 0, sizeof *res.rec);
        res.rec->nc_local_id = t->id;
        t->pos = res.pos;
        ntsim__ring_commit(&res);
    }
    return NULL;
}

/* Starts *a's push on thread *t and returns once the armed trap holds it. */
static void start_trapped_push(trapped_push_t *a, pthread_t *t)
{
    ck_assert_int_eq(pthread_create(t, NULL, push_trapped, a), 0);
    while (!atomic_load(&g_trap.paused))
        nanosleep(&(struct timespec){0, 100000}, NULL);
}

/* C4 and C5 with an evicted record inside a batch. Ring of 4 holding 0..3;
 * push 4 (thread A) claims and stops before P3; push 5 claims, reads K = 0,
 * evicts 1 and commits. A pop of 3 then walks 0 (still PUBLISHED(0)), passes
 * over 1 (slot shows 5), takes 2 and 3: K = 4. H = 6 > 0 + 4: the pushers
 * of 0 + 4 and 1 + 4 have claimed, so it asks (C4): A reads K = 4 > 0 and
 * yields 0 to the consumer. The pop returns 0, 2, 3 in order: a run before
 * the evicted 1 and a run after it. A's push then keeps 4 (H moved on) once
 * R passes 0; the next pop returns 4, 5. Counts: 6 pushed, 5 drained, 1
 * overwritten (position 1, at push 5's clock 15). */
START_TEST(test_ring_pop_returns_the_runs_around_a_record_evicted_inside_its_batch)
{
    ntsim_ring_t *orig;
    ntsim_ring_t *r = trap_ring(4, &orig, TRAP_PAUSE);
    push_n(r, 0, 4);
    trap_arm(4);
    trapped_push_t a = {r, 14, 4, NRT_FAILURE, 0};
    pthread_t t;
    start_trapped_push(&a, &t);
    ntsim_ring_reservation_t res;
    res = reserve_at(r, 15, 5);
    memset(res.rec, 0, sizeof *res.rec);
    res.rec->nc_local_id = 5;
    ntsim__ring_commit(&res);
    nrt_sys_trace_event_t out[8];
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 3), 3);
    ck_assert_uint_eq(out[0].nc_local_id, 0);
    ck_assert_uint_eq(out[1].nc_local_id, 2);
    ck_assert_uint_eq(out[2].nc_local_id, 3);
    pthread_join(t, NULL);
    ck_assert_int_eq(atomic_load(&g_trap.bad), 0);
    ck_assert_int_eq(a.st, NRT_SUCCESS);
    ck_assert_uint_eq(a.pos, 4);
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 8), 2);
    ck_assert_uint_eq(out[0].nc_local_id, 4);
    ck_assert_uint_eq(out[1].nc_local_id, 5);
    expect_counts(r, 6, 5, 1, 0, 15, 15);
    ck_assert(ntsim__ring_valid(r));
    trap_free(orig);
}
END_TEST

/* As test_ring_shared_push_gives_its_position_back_when_the_consumer_took_the_oldest,
 * at a slot other than 0, where the stored stamp is the logical one minus
 * 4 * slot (ring.c, "Storage"). By hand: C = 4, positions 0..3, a pop of
 * one takes 0 (K = R = 1); a push at 4 replaces 0, which the consumer took
 * (no eviction). The push at 5 (slot 1, p = 1) claims, and the consumer's
 * C3 takes 1 first (K = 2, R = 1: copying): it stamps YIELDED(1), gives 5
 * back and, the consumer still copying, is refused: busy 1, H = 5, slot 1
 * reads YIELDED(1). Released (R = 2, drained 2), the push takes 5 without
 * an eviction, and a drain returns 2, 3, 4, 5. */
START_TEST(test_ring_shared_push_gives_back_a_position_in_a_later_slot)
{
    ntsim_ring_t *orig;
    ntsim_ring_t *r = trap_ring(4, &orig, TRAP_GIVE_BACK);
    push_n(r, 0, 4);
    nrt_sys_trace_event_t out[8];
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 1), 1);
    ck_assert_uint_eq(out[0].nc_local_id, 0);
    push_n(r, 4, 1);
    trap_arm(5);
    ntsim_ring_reservation_t res;
    ck_assert_int_eq(ntsim__ring_reserve(r, 5, ntsim__thread_self(), &res), NRT_QUEUE_FULL);
    ck_assert_int_eq(atomic_load(&g_trap.bad), 0);
    ck_assert_int_eq(atomic_load(&g_trap.step), 4);
    ntsim_ring_counts_t c;
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.pushed, 5);
    ck_assert_uint_eq(c.busy, 1);
    ck_assert_uint_eq(ntsim__ring_stamp_load(r, 1), ntsim__stamp(1, NTSIM_STAMP_YIELDED));
    atomic_store(&r->drained, 2); /* C5: copied, handed out, released */
    atomic_store(&r->release, 2);
    res = reserve_at(r, 6, 5);
    memset(res.rec, 0, sizeof *res.rec);
    res.rec->nc_local_id = 5;
    ntsim__ring_commit(&res);
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.pushed, 6);
    ck_assert_uint_eq(c.overwritten, 0);
    ck_assert_uint_eq(c.first_overwrite_ns, 0);
    ck_assert(ntsim__ring_valid(r));
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 8), 4);
    for (uint64_t i = 0; i < 4; i++)
        ck_assert_uint_eq(out[i].nc_local_id, 2 + i);
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.drained, 6);
    ck_assert_uint_eq(c.overwritten, 0);
    trap_free(orig);
}
END_TEST

/* C1 starts the walk at H - 2C, not H - C (ring.c, C2: the model's
 * counterexample): a record whose evicting push has claimed but not yet
 * read K still belongs to whichever side decides first. By hand, C = 4,
 * shared: push 0..4 (4 evicts 0, clock 1004); thread A's push claims 5
 * (replacing 1) and stops before P3; pushes 6, 7, 8 evict 2, 3, 4 (clocks
 * 1006..1008). H = 9, K = 0. A pop of 1 walks from H - 2C = 1: slot 1
 * still says PUBLISHED(1), so it claims 1 (K = 2), asks A's push (C4: A
 * reads K = 2 > 1, yields), and returns record 1. A then keeps 5 once R
 * passes 1; the next pop returns 5, 6, 7, 8. Counts: 9 pushed, 5 drained, 4
 * overwritten (0, 2, 3, 4). A drain that started at H - C = 5 would find 5
 * uncommitted, return nothing and leave record 1 to nobody. */
START_TEST(test_ring_pop_takes_the_oldest_record_before_its_evicting_push_decides)
{
    ntsim_ring_t *orig;
    ntsim_ring_t *r = trap_ring(4, &orig, TRAP_PAUSE);
    push_n(r, 0, 5);
    trap_arm(5);
    trapped_push_t a = {r, 1005, 5, NRT_FAILURE, 0};
    pthread_t t;
    start_trapped_push(&a, &t);
    push_n(r, 6, 3);
    nrt_sys_trace_event_t out[8];
    memset(out, 0, sizeof out);
    size_t n = ntsim__ring_pop(r, out, 1);
    if (atomic_load(&r->claim) == 0)
        atomic_store(&r->claim, 1); /* the pop took nothing: let A go on, so that we fail, not hang */
    pthread_join(t, NULL);
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(out[0].nc_local_id, 1);
    ck_assert_int_eq(atomic_load(&g_trap.bad), 0);
    ck_assert_int_eq(a.st, NRT_SUCCESS);
    ck_assert_uint_eq(a.pos, 5);
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 8), 4);
    for (uint64_t i = 0; i < 4; i++)
        ck_assert_uint_eq(out[i].nc_local_id, 5 + i);
    expect_counts(r, 9, 5, 4, 0, 1004, 1008);
    ck_assert(ntsim__ring_valid(r));
    trap_free(orig);
}
END_TEST

/* --- steps of other threads at the consumer's barrier (C4) ------------------------
 *
 * With membarrier (not fence mode), a pop near the eviction front calls
 * membarrier() and reads H again (ring.c, C4): the barrier is the moment a
 * push's claim that sat in its thread's store buffer becomes visible, and a
 * pusher that claimed before the consumer's K decides and commits. To put
 * other threads' steps exactly there, the pop runs on a thread with a
 * seccomp filter that turns its membarrier() into SIGSYS: the handler plays
 * the other threads' steps on the ring by hand (as the protocol has them do
 * it), and the call returns 0 as membarrier does. The filter is the
 * thread's own and ends with it. x86-64 and aarch64 (the return register). */
#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#define RING_BARRIER_HOOK 1
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <ucontext.h>

typedef struct barrier_pop {
    ntsim_ring_t *r;
    nrt_sys_trace_event_t *out;
    size_t max, n;
    void (*at_barrier)(ntsim_ring_t *r); /* the other threads' steps */
    int err;                             /* the filter could not be set up */
    _Atomic int done;
} barrier_pop_t;

static barrier_pop_t *g_barrier_pop;

static void barrier_sigsys(int sig, siginfo_t *si, void *ucv)
{
    (void)sig;
    ucontext_t *uc = ucv;
    long ret = -ENOSYS;
    if (si->si_syscall == __NR_membarrier) {
        g_barrier_pop->at_barrier(g_barrier_pop->r);
        ret = 0;
    }
#if defined(__x86_64__)
    uc->uc_mcontext.gregs[REG_RAX] = ret;
#else
    uc->uc_mcontext.regs[0] = (unsigned long long)ret;
#endif
}

static void *pop_with_barrier_hook(void *arg)
{
    barrier_pop_t *b = arg;
#if defined(__x86_64__)
    const uint32_t arch = AUDIT_ARCH_X86_64;
#else
    const uint32_t arch = AUDIT_ARCH_AARCH64;
#endif
    struct sock_filter f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, arch, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_membarrier, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {(unsigned short)(sizeof f / sizeof f[0]), f};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
        b->err = errno;
    } else {
        b->n = ntsim__ring_pop(b->r, b->out, b->max);
    }
    atomic_store(&b->done, 1);
    return NULL;
}

/* Pops up to max from r on a thread whose membarrier() runs at_barrier;
 * in membarrier mode, as on a kernel that has it. Returns the pop's count. */
static size_t pop_at_barrier(ntsim_ring_t *r, nrt_sys_trace_event_t *out, size_t max,
                             void (*at_barrier)(ntsim_ring_t *r))
{
    static barrier_pop_t b;
    memset(&b, 0, sizeof b);
    b.r = r;
    b.out = out;
    b.max = max;
    b.at_barrier = at_barrier;
    g_barrier_pop = &b;
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = barrier_sigsys;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    ck_assert_int_eq(sigaction(SIGSYS, &sa, &old), 0);
    bool fence_mode = atomic_load(&ntsim__grace_fence_mode);
    atomic_store(&ntsim__grace_fence_mode, false);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, pop_with_barrier_hook, &b), 0);
    /* A pop that misses the decision it must wait for spins for good: fail
     * after 10 s instead (the spinning thread is left alone, with its ring). */
    for (int i = 0; i < 100000 && !atomic_load(&b.done); i++)
        usleep(100);
    ck_assert_msg(atomic_load(&b.done), "the pop did not return");
    pthread_join(t, NULL);
    atomic_store(&ntsim__grace_fence_mode, fence_mode);
    sigaction(SIGSYS, &old, NULL);
    ck_assert_msg(b.err == 0, "seccomp filter: %s", strerror(b.err));
    return b.n;
}

/* The other threads' steps, by hand, besides a push's commit (P4,
 * hand_commit in check_ring.h): a yield (P3, p < K and p >= R), an
 * eviction's overwrite times (P3). */
static void hand_yield(ntsim_ring_t *r, uint64_t p)
{
    uint64_t j = p % r->capacity;
    atomic_store_explicit(&r->slots[j].stamp, ntsim__stamp(p, NTSIM_STAMP_YIELDED) - (j << 2),
                          memory_order_release);
}

static void hand_evict(ntsim_ring_t *r, uint64_t now_ns)
{
    atomic_store(&r->last_overwrite_ns, now_ns);
    if (atomic_load(&r->first_overwrite_ns) == 0)
        atomic_store(&r->first_overwrite_ns, now_ns);
}

/* The owner's claim of g_hidden_claim (H = that + 1, a plain store: not a
 * multiple of M = 64) sat in its store buffer while it read an older K and
 * decided to evict the record C = 4 below it; the consumer's C3 read H
 * without it. The barrier after K = H = g_hidden_claim makes it visible:
 * the owner writes its record over the evicted one and commits. */
static uint64_t g_hidden_claim, g_hidden_ns;

static void reveal_buffered_claim(ntsim_ring_t *r)
{
    uint64_t p = g_hidden_claim;
    if (atomic_load(&r->claim) != p || atomic_load(&r->head) != p)
        return; /* a later barrier: nothing left to do */
    atomic_store(&r->head, p + 1);
    hand_evict(r, g_hidden_ns);
    hand_commit(r, p);
}

/* Pops r, a ring of 4 whose walk ends at the hidden claim `claim` (evicted
 * at at_ns), with up to 8 records: the pop must return claim - 3 .. claim
 * (the evicted claim - 4 left out), write nothing more, and leave claim + 1
 * pushed, `drained` drained, `overwritten` overwritten (the last at at_ns),
 * the ring valid; *c has the counts. */
static void pop_past_hidden_claim(ntsim_ring_t *r, uint64_t claim, uint64_t at_ns,
                                  uint64_t drained, uint64_t overwritten, ntsim_ring_counts_t *c)
{
    g_hidden_claim = claim;
    g_hidden_ns = at_ns;
    nrt_sys_trace_event_t out[8];
    memset(out, 0xee, sizeof out);
    ck_assert_uint_eq(pop_at_barrier(r, out, 8, reveal_buffered_claim), 4);
    for (uint64_t i = 0; i < 4; i++)
        ck_assert_uint_eq(out[i].nc_local_id, claim - 3 + i);
    ck_assert_uint_eq(out[4].nc_local_id, UINT64_C(0xeeeeeeeeeeeeeeee)); /* nothing more written */
    ntsim__ring_counts(r, c);
    ck_assert_uint_eq(c->pushed, claim + 1);
    ck_assert_uint_eq(c->drained, drained);
    ck_assert_uint_eq(c->overwritten, overwritten);
    ck_assert_uint_eq(c->last_overwrite_ns, at_ns);
    ck_assert(ntsim__ring_valid(r));
}
#endif /* RING_BARRIER_HOOK */

/* C4 with membarrier: x86-TSO lets the owner's claim of 4 (a plain store:
 * 4 is not a multiple of M = 64) sit in its store buffer while it reads
 * K = 0 and decides to evict 0, and the consumer's C3 (K = 4, then H) reads
 * H = 4 without it. Ring of 4 holding 0..3: the pop's walk takes 0..3; H
 * rounds up to 64 > 0 + 4, so it calls membarrier, after which the claim is
 * visible: H = 5 > 0 + 4, position 0 is asked about (its pusher has
 * claimed) and found evicted. By hand: the pop returns 1, 2, 3, then 4 in
 * its next round; 5 pushed, 4 drained, 1 overwritten (position 0, at 77).
 * Handing 0 out would hand out a record that is also counted overwritten,
 * read while its slot is rewritten. */
START_TEST(test_ring_pop_near_the_front_leaves_a_record_evicted_by_a_claim_the_barrier_shows)
{
    if (ntsim_check_under_valgrind())
        return;
#ifdef RING_BARRIER_HOOK
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(4, false, &r), NRT_SUCCESS);
    push_n(r, 0, 4);
    ntsim_ring_counts_t c;
    pop_past_hidden_claim(r, 4, 77, 4, 1, &c);
    ck_assert_uint_eq(c.first_overwrite_ns, 77);
    ntsim__ring_destroy(r);
#endif
}
END_TEST

/* C4's rounding is up, to the next multiple of M = 64, whatever e2 is. The
 * scene of the test above one lap of 64 on, where e2 = 65 = 1 (mod 64):
 * ring of 4, 0..60 pushed (0..56 overwritten) and 57..60 drained (K = 61),
 * then 61..64 pushed (H = 65). The pop walks 61..64 (K = 65) and reads
 * H = 65, which the owner's claim of 65 (still in its store buffer) does
 * not show yet. f = 128 > 61 + 4: membarrier, after which H = 66 > 65:
 * position 61 is asked about, found evicted (record 65 over it). The pop
 * returns 62, 63, 64, then 65 in its next round; 66 pushed, 8 drained,
 * 58 overwritten, the last at 165. (Rounding 65 down to 64, or any f <=
 * 65, skips the barrier and hands out 61, which is also counted
 * overwritten and read while its slot is rewritten.) */
START_TEST(test_ring_pop_rounds_the_front_up_to_a_whole_fence_period)
{
    if (ntsim_check_under_valgrind())
        return;
#ifdef RING_BARRIER_HOOK
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(4, false, &r), NRT_SUCCESS);
    push_n(r, 0, 61);
    nrt_sys_trace_event_t out[8];
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 8), 4);
    for (uint64_t i = 0; i < 4; i++)
        ck_assert_uint_eq(out[i].nc_local_id, 57 + i);
    push_n(r, 61, 4);
    ntsim_ring_counts_t c;
    pop_past_hidden_claim(r, 65, 165, 8, 58, &c);
    ntsim__ring_destroy(r);
#endif
}
END_TEST

#ifdef RING_BARRIER_HOOK
/* Ring of 8 (shared mode). Before the pop: 0..3 and 5..7 committed, 4
 * claimed by a producer that has not committed; X0 claimed 8 and X2
 * claimed 10 and neither has read K yet (P3 to come); Y1 pushed 9 and Y3
 * pushed 11, each reading K = 0: they evicted 1 and 3. H = 12. */
static void shared_pushers_at_barrier(ntsim_ring_t *r)
{
    uint64_t k = atomic_load(&r->claim);
    if (k == 4 && atomic_load(&r->head) == 12) {
        /* Round 1 claimed 0..3 (K = 4, R = 0). X0 and X2 read K = 4: they
         * yield 0 and 2 (YIELDED), cannot give 8 and 10 back (later
         * positions are claimed) and wait for R. 4 commits; X4 claims 12
         * and waits before P3; Y5 claims 13, reads K = 4 and evicts 5. */
        hand_yield(r, 0);
        hand_yield(r, 2);
        hand_commit(r, 4);
        atomic_store(&r->head, 13); /* X4 */
        atomic_store(&r->head, 14); /* Y5 */
        hand_evict(r, 113);
        hand_commit(r, 13);
    } else if (k == 8 && atomic_load(&r->slots[4].stamp) == ntsim__stamp(4, NTSIM_STAMP_PUBLISHED) - (4 << 2)) {
        /* Round 2 claimed 4, 6, 7 (K = 8; R = 4 released 0 and 2): X4
         * reads K = 8 and yields 4; X0 and X2 fill 8 and 10 and commit. */
        hand_yield(r, 4);
        hand_commit(r, 8);
        hand_commit(r, 10);
    } else if (k == 12 && atomic_load(&r->slots[4].stamp) == ntsim__stamp(4, NTSIM_STAMP_YIELDED) - (4 << 2)) {
        hand_commit(r, 12); /* R = 8 released 4: X4 fills 12 and commits */
    }
}
#endif

/* C4 and C5 with several records evicted inside batches, in a later round
 * of one pop too (the scene above; every step a shared producer's, in an
 * order the protocol allows). By hand, round by round (ring.c, C1-C5):
 *   1. walk 0 (claimed), 1 (later lap: passed over), 2, 3 (passed over),
 *      stop at 4 (not committed): K = 4. H = 12 > 0 + 8: ask. 0 and 2
 *      yielded: ours; 1 and 3 evicted. Out: 0, 2 (two runs, one record
 *      each, around the evicted ones).
 *   2. walk 4, 5 (passed over: 13), 6, 7, stop at 8 (slot 0 says
 *      YIELDED(0)): K = 8. H = 14 > 4 + 8: ask 4 and 5: 4 yielded, ours.
 *      Out: 4, then 6, 7 (a run before the evicted 5 and one after it).
 *   3. walk 8..11, stop at 12 (YIELDED(4)): K = 12; H = 14 <= 8 + 8: no
 *      push reaches 8, all ours: 8, 9, 10, 11.
 *   4. walk 12, 13: K = 14; out 12, 13. 5. nothing published: done.
 * 11 records in order, 14 pushed, 3 overwritten (1, 3, 5: Y5 last, at
 * 113; Y1 and Y3 at 109 and 111, first), nothing written outside out[0..10]. */
START_TEST(test_ring_pop_hands_out_the_runs_around_records_evicted_in_later_rounds)
{
    if (ntsim_check_under_valgrind())
        return;
#ifdef RING_BARRIER_HOOK
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(8, false, &r), NRT_SUCCESS);
    push_n(r, 0, 4);
    (void)reserve_at(r, 104, 4); /* position 4: claimed, never committed */
    push_n(r, 5, 3);
    atomic_store(&r->owner, NTSIM_RING_OWNER_SHARED); /* the other producers revoked it */
    atomic_store(&r->head, 9);                         /* X0 claims 8 */
    atomic_store(&r->head, 10);                        /* Y1 claims 9, reads K = 0: evicts 1 */
    hand_evict(r, 109);
    hand_commit(r, 9);
    atomic_store(&r->head, 11); /* X2 claims 10 */
    atomic_store(&r->head, 12); /* Y3 claims 11, reads K = 0: evicts 3 */
    hand_evict(r, 111);
    hand_commit(r, 11);
    static const uint64_t want[11] = {0, 2, 4, 6, 7, 8, 9, 10, 11, 12, 13};
    nrt_sys_trace_event_t buf[24];
    memset(buf, 0xee, sizeof buf);
    nrt_sys_trace_event_t *out = buf + 4; /* guards on both sides */
    ck_assert_uint_eq(pop_at_barrier(r, out, 16, shared_pushers_at_barrier), 11);
    for (size_t i = 0; i < 11; i++)
        ck_assert_msg(out[i].nc_local_id == want[i], "out[%zu] = %u, want %u", i,
                      (unsigned)out[i].nc_local_id, (unsigned)want[i]);
    for (size_t i = 0; i < 24; i++)
        if (i < 4 || i >= 4 + 11)
            ck_assert_msg(buf[i].nc_local_id == UINT64_C(0xeeeeeeeeeeeeeeee), "buf[%zu] written", i);
    ntsim_ring_counts_t c;
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.pushed, 14);
    ck_assert_uint_eq(c.drained, 11);
    ck_assert_uint_eq(c.overwritten, 3);
    ck_assert_uint_eq(c.first_overwrite_ns, 109);
    ck_assert_uint_eq(c.last_overwrite_ns, 113);
    ck_assert(ntsim__ring_valid(r));
    ntsim__ring_destroy(r);
#endif
}
END_TEST

Suite *make_ring_evict_suite(void)
{
    Suite *s = suite_create("ring_evict");
    TCase *tc = tcase_create("ring_evict");
    tcase_add_test(tc, test_ring_shared_push_gives_its_position_back_when_the_consumer_took_the_oldest);
    tcase_add_test(tc, test_ring_pop_returns_the_runs_around_a_record_evicted_inside_its_batch);
    tcase_add_test(tc, test_ring_shared_push_gives_back_a_position_in_a_later_slot);
    tcase_add_test(tc, test_ring_pop_takes_the_oldest_record_before_its_evicting_push_decides);
    tcase_add_test(tc, test_ring_pop_near_the_front_leaves_a_record_evicted_by_a_claim_the_barrier_shows);
    tcase_add_test(tc, test_ring_pop_rounds_the_front_up_to_a_whole_fence_period);
    tcase_add_test(tc, test_ring_pop_hands_out_the_runs_around_records_evicted_in_later_rounds);
    suite_add_tcase(s, tc);
    return s;
}
