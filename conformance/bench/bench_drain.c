/*
 * conformance/bench/bench_drain.c: the capture benchmark's drain bandwidth and
 * its references: memcpy, non-temporal stores, one pass over 128-byte slots
 * (bench_capture.h).
 */
#define _GNU_SOURCE /* CLOCK_THREAD_CPUTIME_ID, pthread_setaffinity_np, getloadavg */
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "bench_capture.h"
#include "ntsim/capture.h"

/* --- drain bandwidth ------------------------------------------------------------------ */

/* The reference copy with non-temporal stores (what the drain does for a
 * drain this large): 16-byte streaming stores, then a fence. */
static void copy_streaming(void *dst, const void *src, size_t n)
{
#if defined(__SSE2__)
    unsigned char *d = dst;
    const unsigned char *s = src;
    size_t lead = (16 - ((uintptr_t)d & 15)) & 15;
    memcpy(d, s, lead < n ? lead : n);
    if (lead >= n)
        return;
    d += lead, s += lead, n -= lead;
    for (; n >= 64; d += 64, s += 64, n -= 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)s);
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(s + 32));
        __m128i e = _mm_loadu_si128((const __m128i *)(const void *)(s + 48));
        _mm_stream_si128((__m128i *)(void *)d, a);
        _mm_stream_si128((__m128i *)(void *)(d + 16), b);
        _mm_stream_si128((__m128i *)(void *)(d + 32), c);
        _mm_stream_si128((__m128i *)(void *)(d + 48), e);
    }
    memcpy(d, s, n);
    _mm_sfence();
#else
    memcpy(dst, src, n);
#endif
}

/* The ring's own layout copied in one pass: 112 bytes out of each 128-byte
 * slot (`n` output bytes: n / 112 slots), with the drain's streaming stores. What a drain could do
 * if it had nothing to check: the drain / this ratio is the cost of the
 * protocol's walk over the stamps, the ratio of this to the dense copy the
 * cost of the layout (16 bytes read and not copied per record). */
static void copy_slots_streaming(void *dst, const void *src, size_t bytes)
{
    size_t n = bytes / 112;
#if defined(__SSE2__)
    if (((uintptr_t)dst & 15) == 0) {
        const __m128i *s = src;
        __m128i *d = dst;
        for (size_t i = 0; i < n; i++, s += 8, d += 7) {
#pragma GCC unroll 7 /* as the drain's copy: seven loads, seven stores */
            for (int w = 0; w < 7; w++)
                _mm_stream_si128(d + w, _mm_load_si128(s + w));
        }
        _mm_sfence();
        return;
    }
#endif
    for (size_t i = 0; i < n; i++)
        memcpy((char *)dst + i * 112, (const char *)src + i * 128, 112);
}

/* memcpy in 64 KiB calls: glibc keeps cached stores at that size (above
 * ~99 MiB on this machine one call switches to non-temporal stores). */
static void copy_cached(void *dst, const void *src, size_t n)
{
    for (size_t at = 0; at < n; at += 65536)
        memcpy((char *)dst + at, (const char *)src + at, n - at < 65536 ? n - at : 65536);
}

/* Reads one byte of every page: this VM pages out memory left idle for a
 * second or so (DAMON), and a copy from such pages measures faults. */
void touch_pages(const void *p, size_t bytes)
{
    const volatile uint8_t *b = p;
    uint64_t sum = 0;
    for (size_t at = 0; at < bytes; at += 4096)
        sum += b[at];
    sink += sum;
}

/* GB/s of a timed copy; both buffers touched just before it. */
static double bandwidth(void (*copy)(void *, const void *, size_t), void *dst, void *src,
                        size_t bytes)
{
    memset(dst, 3, bytes);
    touch_pages(src, bytes);
    uint64_t t0 = now_ns(CLOCK_MONOTONIC);
    copy(dst, src, bytes);
    double secs = (double)(now_ns(CLOCK_MONOTONIC) - t0) / 1e9;
    sink += ((uint8_t *)dst)[bytes - 1];
    return (double)bytes / secs / 1e9;
}

static void copy_one_call(void *dst, const void *src, size_t n)
{
    memcpy(dst, src, n);
}

static void *emit_one(void *arg)
{
    (void)arg;
    emit_loop(0, 1);
    return NULL;
}

/* Fills NC 0's ring with drain_records events and times their drain, in
 * GB/s of records handed out. `shared`: another thread emits the first
 * event, so this thread's emits revoke its ownership and the drain walks
 * every stamp (engine/capture/ring.c C2) where an owned ring's takes a batch on its
 * last stamp (C2'). */
static double timed_drain(nrt_sys_trace_event_t *out, bool shared)
{
    const uint32_t nc0 = 0;
    size_t bytes = (size_t)drain_records * sizeof(nrt_sys_trace_event_t);
    start_capture(drain_records, &nc0, 1);
    if (shared) {
        pthread_t t;
        if (pthread_create(&t, NULL, emit_one, NULL) != 0) {
            fprintf(stderr, "bench: pthread_create failed\n");
            exit(1);
        }
        pthread_join(t, NULL);
    }
    emit_loop(0, drain_records - (shared ? 1 : 0));
    memset(out, 3, bytes);
    size_t got = 0;
    uint64_t t0 = now_ns(CLOCK_MONOTONIC);
    nrt_sys_trace_drain_events(0, out, drain_records, &got);
    double secs = (double)(now_ns(CLOCK_MONOTONIC) - t0) / 1e9;
    nrt_sys_trace_stop();
    if (got != drain_records) {
        fprintf(stderr, "bench: drained %zu records of %" PRIu64 "\n", got, drain_records);
        exit(1);
    }
    return (double)got * sizeof(nrt_sys_trace_event_t) / secs / 1e9;
}

/* One round of the drain figures: drain (of an owned ring, then of a
 * shared one), memcpy, streaming copy, memcpy in one call, of the same
 * bytes into the same buffer, and the one-pass copy of the same records
 * out of 128-byte slots (from `slots`). */
void drain_round(nrt_sys_trace_event_t *out, uint8_t *src, uint8_t *slots, double *drain,
                        double *drain_shared, double *cached, double *streaming, double *one_call,
                        double *slot_copy)
{
    size_t bytes = (size_t)drain_records * sizeof(nrt_sys_trace_event_t);
    *drain = timed_drain(out, false);
    *drain_shared = timed_drain(out, true);
    *cached = bandwidth(copy_cached, out, src, bytes);
    *streaming = bandwidth(copy_streaming, out, src, bytes);
    *one_call = bandwidth(copy_one_call, out, src, bytes);
    touch_pages(slots, (size_t)drain_records * 128); /* bandwidth() touches the first `bytes` */
    *slot_copy = bandwidth(copy_slots_streaming, out, slots, bytes);
}
