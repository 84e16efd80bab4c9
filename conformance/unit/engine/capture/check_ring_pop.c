/*
 * conformance/unit/engine/capture/check_ring_pop.c: the consumer's walk and copy
 * (engine/capture/ring.c, C1-C3 and C5): pops in batches, a walk that stops at an
 * uncommitted record, starts two laps back and passes over what was evicted,
 * and never goes back below its claim; drains of 8 MiB or more (streaming
 * stores) byte for byte; and a drain that holds one batch of 256 while it
 * copies.
 */
#define _GNU_SOURCE /* MAP_ANONYMOUS, usleep */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check_ring.h"

/* Pops take at most `max`, oldest first, and interleave with pushes. */
START_TEST(test_ring_pops_in_batches_and_resumes)
{
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(256, false, &r), NRT_SUCCESS);
    push_n(r, 0, 200);
    nrt_sys_trace_event_t out[150];
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 150), 150);
    ck_assert_uint_eq(out[149].nc_local_id, 149);
    push_n(r, 200, 100);
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 150), 150);
    ck_assert_uint_eq(out[0].nc_local_id, 150);
    ck_assert_uint_eq(out[149].nc_local_id, 299);
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 0), 0);
    ck_assert(ntsim__ring_valid(r));
    ntsim__ring_destroy(r);
}
END_TEST

/* A record reserved but not committed is never skipped: the pop stops
 * before it, and records behind it wait. */
START_TEST(test_ring_pop_stops_at_an_uncommitted_record)
{
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(16, false, &r), NRT_SUCCESS);
    ntsim_ring_reservation_t a, b;
    ck_assert_int_eq(ntsim__ring_reserve(r, 0, ntsim__thread_self(), &a), NRT_SUCCESS);
    ck_assert_int_eq(ntsim__ring_reserve(r, 0, ntsim__thread_self(), &b), NRT_SUCCESS);
    memset(a.rec, 0, sizeof *a.rec);
    memset(b.rec, 0, sizeof *b.rec);
    a.rec->nc_local_id = 10;
    b.rec->nc_local_id = 11;
    ntsim__ring_commit(&b);
    expect_pops_around_a_commit(r, &a, 4, 10, 0, 2);
    ntsim__ring_destroy(r);
}
END_TEST

/* A pop far behind the producers starts two laps back from the front and
 * passes over every record evicted since, by its stamp: it returns the
 * newest C, in order, and the rest count as overwritten. */
START_TEST(test_ring_pop_passes_over_records_evicted_laps_ago)
{
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(5, false, &r), NRT_SUCCESS); /* not a power of two */
    push_n(r, 0, 53);
    nrt_sys_trace_event_t out[8];
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 8), 5);
    for (uint64_t i = 0; i < 5; i++)
        ck_assert_uint_eq(out[i].nc_local_id, 48 + i);
    ntsim_ring_counts_t c;
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.drained, 5);
    ck_assert_uint_eq(c.overwritten, 48);
    ck_assert_uint_eq(c.first_overwrite_ns, 1000 + 5);
    ck_assert_uint_eq(c.last_overwrite_ns, 1000 + 52);
    ck_assert(ntsim__ring_valid(r));
    ntsim__ring_destroy(r);
}
END_TEST

/* A drain of 8 MiB or more (engine/capture/ring.c, NTSIM_RING_NT_BYTES; D-RING:
 * "non-temporal drains") copies with streaming stores into an aligned
 * buffer: the bytes must be the ones pushed, every one of them, exactly as
 * the cached copy gives them. 80,000 records of 112 bytes are 8.5 MiB; each
 * record is filled with a pattern of its push index, so a record copied from
 * the wrong slot, a 16-byte block moved or left out, shows. */
static unsigned char big_pattern(uint64_t i, size_t b)
{
    return (unsigned char)(i * 131 + b * 7 + (i >> 8));
}

START_TEST(test_ring_large_drain_copies_every_byte_with_streaming_stores)
{
    enum { N = 80000 };
    ck_assert_uint_ge((uint64_t)N * sizeof(nrt_sys_trace_event_t), (uint64_t)8 << 20);
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(131072, false, &r), NRT_SUCCESS);
    for (uint64_t i = 0; i < N; i++) {
        ntsim_ring_reservation_t res;
        ck_assert_int_eq(ntsim__ring_reserve(r, i, ntsim__thread_self(), &res), NRT_SUCCESS);
        unsigned char *p = (unsigned char *)res.rec;
        for (size_t b = 0; b < sizeof *res.rec; b++)
            p[b] = big_pattern(i, b);
        ntsim__ring_commit(&res);
    }
    nrt_sys_trace_event_t *out = aligned_alloc(64, (size_t)N * sizeof *out);
    ck_assert_ptr_nonnull(out);
    ck_assert_uint_eq(ntsim__ring_pop(r, out, N), N);
    size_t bad = 0;
    for (uint64_t i = 0; i < N; i++) {
        const unsigned char *p = (const unsigned char *)&out[i];
        for (size_t b = 0; b < sizeof out[i]; b++)
            bad += p[b] != big_pattern(i, b);
    }
    ck_assert_uint_eq(bad, 0);
    ntsim_ring_counts_t c;
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.pushed, N);
    ck_assert_uint_eq(c.drained, N);
    ck_assert_uint_eq(c.overwritten, 0);
    free(out);
    ntsim__ring_destroy(r);
}
END_TEST

/* More than two laps but fewer than three pushed before the first drain
 * (2C < H < 3C): overwrite-oldest (D-RING) keeps the newest C, positions
 * H - C .. H - 1, handed out oldest first; the other H - C were
 * overwritten. By hand: C = 4, H = 10: positions 6..9, 6 overwritten;
 * C = 5 (not a power of two), H = 12: positions 7..11, 7 overwritten.
 * The drain starts its walk at H - 2C (position 2 in both; ring.c, C1) and
 * passes over the slots that hold a later lap. */
START_TEST(test_ring_drain_between_two_and_three_laps_returns_the_newest_lap)
{
    static const struct {
        uint64_t cap, pushed;
    } runs[] = {{4, 10}, {5, 12}};
    for (size_t i = 0; i < 2; i++) {
        ntsim_ring_t *r;
        ck_assert_int_eq(ntsim__ring_create(runs[i].cap, false, &r), NRT_SUCCESS);
        push_n(r, 0, runs[i].pushed);
        nrt_sys_trace_event_t out[8];
        ck_assert_uint_eq(ntsim__ring_pop(r, out, 8), runs[i].cap);
        for (uint64_t k = 0; k < runs[i].cap; k++)
            ck_assert_uint_eq(out[k].nc_local_id, runs[i].pushed - runs[i].cap + k);
        ntsim_ring_counts_t c;
        ntsim__ring_counts(r, &c);
        ck_assert_uint_eq(c.drained, runs[i].cap);
        ck_assert_uint_eq(c.overwritten, runs[i].pushed - runs[i].cap);
        ck_assert(ntsim__ring_valid(r));
        ntsim__ring_destroy(r);
    }
}
END_TEST

/* --- a drain stopped in the middle of its copy ----------------------------------
 *
 * The drain's output buffer ends its first 256 records exactly at a page
 * boundary, and the pages after it are protected: the drain's first write
 * of out[256] stops it there, inside C5 of the batch that starts at 256,
 * and the SIGSEGV handler (the drain's thread, stopped) pushes. */
static struct {
    ntsim_ring_t *r;
    char *lo, *hi; /* the protected range */
    uint64_t admitted;
    NRT_STATUS refused;
    _Atomic int fired;
} g_copy_trap;
static struct sigaction g_copy_trap_old;

static void copy_trap_handler(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)uc;
    char *at = si->si_addr;
    if (at < g_copy_trap.lo || at >= g_copy_trap.hi || atomic_load(&g_copy_trap.fired)) {
        sigaction(SIGSEGV, &g_copy_trap_old, NULL); /* not ours: fault again, for real */
        return;
    }
    atomic_store(&g_copy_trap.fired, 1);
    mprotect(g_copy_trap.lo, (size_t)(g_copy_trap.hi - g_copy_trap.lo), PROT_READ | PROT_WRITE);
    /* Push until refused (at most 300 tries). */
    for (uint64_t i = 0; i < 300; i++) {
        ntsim_ring_reservation_t res;
        NRT_STATUS st = ntsim__ring_reserve(g_copy_trap.r, 5000 + i, ntsim__thread_self(), &res);
        if (st != NRT_SUCCESS) {
            g_copy_trap.refused = st;
            return;
        }
        memset(res.rec, 0, sizeof *res.rec);
        res.rec->nc_local_id = 512 + i;
        ntsim__ring_commit(&res);
        g_copy_trap.admitted++;
    }
}

/* D-RING: a drain copies a batch of 256 records at a time, and a push that
 * needs a slot of the batch being copied is refused as busy; the slots of
 * the batches it has released take pushes again. By hand: C = 512 holding
 * positions 0..511; a pop of 512 claims 0..255 (K = 256), copies them and
 * releases them (R = 256), claims 256..511 (K = 512) and starts copying
 * them: it stops at out[256]. There, pushes at 512..767 replace 0..255,
 * which the drain took and released: 256 admitted, no eviction; the push
 * at 768 needs 256's slot, being copied: refused, busy 1, no position. The
 * pop then returns 0..511 in order, and the next one 512..767. */
START_TEST(test_ring_drain_holds_one_batch_of_256_while_it_copies)
{
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(512, false, &r), NRT_SUCCESS);
    push_n(r, 0, 512);
    long page = sysconf(_SC_PAGESIZE);
    ck_assert_int_gt(page, 0);
    size_t pg = (size_t)page;
    size_t head_bytes = 256 * sizeof(nrt_sys_trace_event_t); /* out[0..255] */
    size_t tail_bytes = 256 * sizeof(nrt_sys_trace_event_t); /* out[256..511] */
    size_t head_pages = (head_bytes + pg - 1) / pg, tail_pages = (tail_bytes + pg - 1) / pg;
    char *map = mmap(NULL, (head_pages + tail_pages) * pg, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ck_assert(map != MAP_FAILED);
    char *boundary = map + head_pages * pg;
    nrt_sys_trace_event_t *out = (nrt_sys_trace_event_t *)(void *)(boundary - head_bytes);
    g_copy_trap.r = r;
    g_copy_trap.lo = boundary;
    g_copy_trap.hi = boundary + tail_pages * pg;
    g_copy_trap.admitted = 0;
    g_copy_trap.refused = NRT_SUCCESS;
    atomic_store(&g_copy_trap.fired, 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = copy_trap_handler;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    ck_assert_int_eq(sigaction(SIGSEGV, &sa, &g_copy_trap_old), 0);
    ck_assert_int_eq(mprotect(g_copy_trap.lo, tail_pages * pg, PROT_NONE), 0);
    size_t n = ntsim__ring_pop(r, out, 512);
    sigaction(SIGSEGV, &g_copy_trap_old, NULL);
    ck_assert_int_eq(atomic_load(&g_copy_trap.fired), 1);
    ck_assert_uint_eq(g_copy_trap.admitted, 256);
    ck_assert_int_eq(g_copy_trap.refused, NRT_QUEUE_FULL);
    ck_assert_uint_eq(n, 512);
    for (uint64_t i = 0; i < 512; i++)
        ck_assert_uint_eq(out[i].nc_local_id, i);
    ntsim_ring_counts_t c;
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.pushed, 768);
    ck_assert_uint_eq(c.busy, 1);
    ck_assert_uint_eq(c.drained, 512);
    ck_assert_uint_eq(c.overwritten, 0);
    ck_assert_uint_eq(c.first_overwrite_ns, 0);
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 512), 256);
    for (uint64_t i = 0; i < 256; i++)
        ck_assert_uint_eq(out[i].nc_local_id, 512 + i);
    ck_assert(ntsim__ring_valid(r));
    munmap(map, (head_pages + tail_pages) * pg);
    ntsim__ring_destroy(r);
}
END_TEST

/* Fills the next `n` pushes of `r`, push index i from `first`, with
 * big_pattern(i, b) in every byte b of the record. */
static void push_patterned(ntsim_ring_t *r, uint64_t first, uint64_t n)
{
    for (uint64_t i = first; i < first + n; i++) {
        ntsim_ring_reservation_t res;
        ck_assert_int_eq(ntsim__ring_reserve(r, i, ntsim__thread_self(), &res), NRT_SUCCESS);
        unsigned char *p = (unsigned char *)res.rec;
        for (size_t b = 0; b < sizeof *res.rec; b++)
            p[b] = big_pattern(i, b);
        ntsim__ring_commit(&res);
    }
}

/* How many bytes of out[0 .. n - 1] differ from big_pattern of push index i. */
static size_t patterned_mismatches(const nrt_sys_trace_event_t *out, uint64_t n)
{
    size_t bad = 0;
    for (uint64_t i = 0; i < n; i++) {
        const unsigned char *p = (const unsigned char *)&out[i];
        for (size_t b = 0; b < sizeof out[i]; b++)
            bad += p[b] != big_pattern(i, b);
    }
    return bad;
}

/* A drain of 8 MiB or more whose range wraps past the end of the ring
 * (D-RING: oldest first, 112-byte stride; the non-temporal path), into an
 * aligned buffer one record longer than asked for. By hand: C = 100000 (not
 * a power of two); skip_to(160000) makes position 160000 the next, in slot
 * 160000 mod C = 60000, with K = R = drained = 160000; 80000 pushes then
 * take positions 160000 .. 239999, slots 60000 .. 99999 and then 0 .. 39999,
 * and evict nothing (each replaced position is below K and R: the consumer
 * had it). 80000 x 112 bytes = 8,960,000 >= 8 MiB. The pop returns the
 * 80000 records in push order, byte for byte, and writes nothing past
 * out[79999]: the record after them keeps its 0xa5 bytes. */
START_TEST(test_ring_large_drain_across_the_end_of_the_ring_is_byte_exact_and_in_bounds)
{
    enum { N = 80000, C = 100000 };
    ck_assert_uint_ge((uint64_t)N * sizeof(nrt_sys_trace_event_t), (uint64_t)8 << 20);
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(C, false, &r), NRT_SUCCESS);
    ck_assert(ntsim__ring_skip_to(r, 2 * C - 40000));
    push_patterned(r, 0, N);
    /* aligned_alloc wants a multiple of the alignment (C11 7.22.3.1) */
    nrt_sys_trace_event_t *out = aligned_alloc(64, ((size_t)N + 1) * sizeof *out / 64 * 64 + 64);
    ck_assert_ptr_nonnull(out);
    memset(&out[N], 0xa5, sizeof out[N]);
    ck_assert_uint_eq(ntsim__ring_pop(r, out, N), N);
    ck_assert_uint_eq(patterned_mismatches(out, N), 0);
    size_t clobbered = 0;
    for (size_t b = 0; b < sizeof out[N]; b++)
        clobbered += ((const unsigned char *)&out[N])[b] != 0xa5;
    ck_assert_uint_eq(clobbered, 0);
    ntsim_ring_counts_t c;
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.pushed, 2 * C - 40000 + N);
    ck_assert_uint_eq(c.drained, 2 * C - 40000 + N);
    ck_assert_uint_eq(c.overwritten, 0);
    ck_assert_uint_eq(ntsim__ring_pop(r, out, N), 0);
    ck_assert(ntsim__ring_valid(r));
    free(out);
    ntsim__ring_destroy(r);
}
END_TEST

/* The caller's buffer only has the record type's alignment (8 bytes), not
 * the 16 that streaming stores need: a drain of 8 MiB or more into it is
 * still byte-exact (ring.h: out[] at a 112-byte stride; the non-temporal
 * path is a choice of the engine, D-RING, not a requirement on the caller).
 * out starts 8 bytes into a 64-byte-aligned block: 8 mod 16 and 8 mod 32.
 * 80000 pushes into a ring of 80000 (nothing evicted), one pop of 80000. */
START_TEST(test_ring_large_drain_into_a_buffer_aligned_to_8_bytes_is_byte_exact)
{
    enum { N = 80000 };
    ck_assert_uint_eq(_Alignof(nrt_sys_trace_event_t), 8);
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(N, false, &r), NRT_SUCCESS);
    push_patterned(r, 0, N);
    unsigned char *block = aligned_alloc(64, ((size_t)N + 1) * sizeof(nrt_sys_trace_event_t) / 64 * 64 + 64);
    ck_assert_ptr_nonnull(block);
    nrt_sys_trace_event_t *out = (nrt_sys_trace_event_t *)(void *)(block + 8);
    ck_assert_uint_eq((uintptr_t)out % 32, 8);
    ck_assert_uint_eq(ntsim__ring_pop(r, out, N), N);
    ck_assert_uint_eq(patterned_mismatches(out, N), 0);
    ntsim_ring_counts_t c;
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.drained, N);
    ck_assert_uint_eq(c.overwritten, 0);
    free(block);
    ntsim__ring_destroy(r);
}
END_TEST

typedef struct timed_pop {
    ntsim_ring_t *ring;
    nrt_sys_trace_event_t *out;
    size_t max, n;
    _Atomic int done;
} timed_pop_t;

static void *pop_in_a_thread(void *arg)
{
    timed_pop_t *t = arg;
    t->n = ntsim__ring_pop(t->ring, t->out, t->max);
    atomic_store(&t->done, 1);
    return NULL;
}

/* A drain must not go back below its claim K (ring.c, C1: d = K, or H - 2C
 * when that is larger): positions below K were drained already. By hand,
 * C = 4, one producer: push 0..3; pop 2 (positions 0, 1: K = R = 2); push 4
 * (replaces 0, below R: no eviction); reserve 5 (replaces 1, below R) and
 * hold it uncommitted, so slot 1 still says PUBLISHED(1); push 6, 7, 8
 * (evict 2, 3 and 4, at clocks 1006, 1007, 1008). H = 9. The next pop walks
 * from K = 2: 2, 3, 4 show later laps (evicted), 5 is not committed: it
 * returns 0 at once (ring.h: it stops at an uncommitted record) and neither
 * hands out position 1 again nor waits for the push of 5. It runs in a
 * thread and gets 5 s. Once 5 commits, a pop returns 5, 6, 7, 8. Counts: 9
 * pushed, 6 drained, 3 overwritten. */
START_TEST(test_ring_pop_neither_returns_nor_waits_on_a_drained_record_being_replaced)
{
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(4, false, &r), NRT_SUCCESS);
    push_n(r, 0, 4);
    nrt_sys_trace_event_t out[8];
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 2), 2);
    ck_assert_uint_eq(out[0].nc_local_id, 0);
    ck_assert_uint_eq(out[1].nc_local_id, 1);
    push_n(r, 4, 1);
    ntsim_ring_reservation_t held;
    held = reserve_at(r, 1005, 5);
    memset(held.rec, 0, sizeof *held.rec);
    held.rec->nc_local_id = 5;
    push_n(r, 6, 3);
    timed_pop_t t = {.ring = r, .out = out, .max = 8, .n = 99};
    atomic_init(&t.done, 0);
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, pop_in_a_thread, &t), 0);
    for (int i = 0; i < 5000 && !atomic_load(&t.done); i++)
        usleep(1000);
    int returned = atomic_load(&t.done);
    ntsim__ring_commit(&held); /* also ends a pop that waits for it */
    pthread_join(th, NULL);
    ck_assert_int_eq(returned, 1);
    ck_assert_uint_eq(t.n, 0);
    ck_assert_uint_eq(ntsim__ring_pop(r, out, 8), 4);
    for (uint64_t i = 0; i < 4; i++)
        ck_assert_uint_eq(out[i].nc_local_id, 5 + i);
    expect_counts(r, 9, 6, 3, 0, 1006, 1008);
    ck_assert(ntsim__ring_valid(r));
    ntsim__ring_destroy(r);
}
END_TEST

Suite *make_ring_pop_suite(void)
{
    Suite *s = suite_create("ring_pop");
    TCase *tc = tcase_create("ring_pop");
    tcase_add_test(tc, test_ring_pops_in_batches_and_resumes);
    tcase_add_test(tc, test_ring_pop_stops_at_an_uncommitted_record);
    tcase_add_test(tc, test_ring_pop_passes_over_records_evicted_laps_ago);
    tcase_add_test(tc, test_ring_large_drain_copies_every_byte_with_streaming_stores);
    tcase_add_test(tc, test_ring_drain_between_two_and_three_laps_returns_the_newest_lap);
    tcase_add_test(tc, test_ring_drain_holds_one_batch_of_256_while_it_copies);
    tcase_add_test(tc, test_ring_large_drain_across_the_end_of_the_ring_is_byte_exact_and_in_bounds);
    tcase_add_test(tc, test_ring_large_drain_into_a_buffer_aligned_to_8_bytes_is_byte_exact);
    tcase_add_test(tc, test_ring_pop_neither_returns_nor_waits_on_a_drained_record_being_replaced);
    suite_add_tcase(s, tc);
    return s;
}
