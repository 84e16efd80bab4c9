/*
 * engine/timeline/clock_align.c: device clocks moved onto the host timeline
 * (D-PFTRACE-CLOCK).
 *
 * Every device record that carries a sync pair (the sync_info of the device
 * spans, hw_notify and num_err; TIMESTAMP_SYNC's flat pair) gives one reading
 * of its device clock and of the host clock at the same moment. Per device
 * clock, over its distinct pairs (cpu_i, dev_i), least squares fits
 *
 *     dev - cpu = a + b (cpu - c0)            c0 = the clock's first cpu
 *
 * (a: the offset at c0 in ns; b: the drift, 25 ppm = 25e-6), and a device time
 * d is moved to the host time cpu solving the same line:
 *
 *     cpu = c0 + (d - c0 - a) / (1 + b)
 *
 * rounded to the nearest ns. One pair fits the offset only (b = 0). Sums are
 * taken about the means (two passes), so the 1.7e18 ns epoch times and the
 * 5e9 ns offsets of the scenarios lose nothing to cancellation. The simulator
 * recovers its clocks with the same model (sim/clock.c, about t = 0 instead of
 * c0); the engine cannot include sim/, and the timeline needs the inverse map
 * as well, so the fit is written here once more and the two are compared by
 * test_timeline_clock_fit_matches_the_simulators.
 */
#include "timeline.h"

/* Nearest integer, halves away from zero (llround without libm). */
static int64_t round_ns(double x)
{
    return x >= 0 ? (int64_t)(x + 0.5) : -(int64_t)(-x + 0.5);
}

static double pair_x(const ntsim_tl_pair_t *p, uint64_t c0)
{
    return (double)(int64_t)(p->cpu - c0);
}

static double pair_y(const ntsim_tl_pair_t *p)
{
    return (double)(int64_t)(p->dev - p->cpu);
}

static void fit_one(ntsim_tl_clock_t *c, const ntsim_tl_pair_t *p, size_t n)
{
    c->c0 = p[0].cpu;
    c->a = 0;
    c->b = 0;
    double mx = 0, my = 0;
    for (size_t i = 0; i < n; i++) {
        mx += pair_x(&p[i], c->c0);
        my += pair_y(&p[i]);
    }
    mx /= (double)n;
    my /= (double)n;
    double sxx = 0, sxy = 0;
    for (size_t i = 0; i < n; i++) {
        double dx = pair_x(&p[i], c->c0) - mx;
        sxx += dx * dx;
        sxy += dx * (pair_y(&p[i]) - my);
    }
    c->b = sxx > 0 ? sxy / sxx : 0;
    /* A clock running slower than half the host's rate (1 + b below 0.5,
     * D-PFTRACE-CLOCK: half the rate itself is still a clock), backwards, or
     * with no finite slope (NaN from hostile pairs) is no clock: fit the
     * offset only, so that 1 + b >= 0.5 in the inverse below. Any finite
     * slope at or above -0.5 is a clock, however fast (b - b is 0 exactly
     * for every finite b, NaN for an infinite one). Written so that a NaN
     * fails the test too. */
    if (!(c->b >= -0.5 && c->b - c->b == 0))
        c->b = 0;
    c->a = my - c->b * mx;
    c->max_residual_ns = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t got = ntsim__clock_align(c, p[i].dev);
        double r = (double)(int64_t)(got - p[i].cpu);
        r = r < 0 ? -r : r;
        if (r > c->max_residual_ns)
            c->max_residual_ns = r;
    }
}

void ntsim__clock_fit(ntsim_timeline_t *tl)
{
    size_t i = 0;
    while (i < tl->npairs) {
        size_t j = i;
        while (j < tl->npairs && tl->pairs[j].clock == tl->pairs[i].clock)
            j++;
        ntsim_tl_clock_t *c = &tl->clocks[tl->pairs[i].clock];
        c->pair_first = i;
        c->pairs = j - i;
        fit_one(c, &tl->pairs[i], j - i);
        if (c->max_residual_ns > tl->stats.max_residual_ns)
            tl->stats.max_residual_ns = c->max_residual_ns;
        i = j;
    }
}

uint64_t ntsim__clock_align(const ntsim_tl_clock_t *c, uint64_t dev)
{
    double d = (double)(int64_t)(dev - c->c0);
    double x = (d - c->a) / (1.0 + c->b);
    /* Hostile pairs can still push x past what an int64 holds (or make it
     * NaN); clamp before converting, which would be undefined behaviour. */
    const double limit = 4.6e18; /* < 2^62.0 */
    if (!(x > -limit))
        x = x < 0 ? -limit : 0; /* -inf, or NaN */
    if (x > limit)
        x = limit;
    return c->c0 + (uint64_t)round_ns(x);
}
