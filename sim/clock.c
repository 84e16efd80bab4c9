/*
 * sim/clock.c: the device clocks and recovering them from a trace.
 *
 * NC n's clock reads, at host time t (both in ns):
 *   device(t) = t + offset_n + (t - start) * drift_ppm_n / 10^6
 * in integers, the drift term truncated toward zero, so every run on every
 * machine produces the same nc_timestamp_ns. The product is split at 10^6
 * so that it cannot overflow 64 bits (t - start < 2^50, |drift| <= 10^5). The fit goes the other
 * way: from the (cpu_timestamp_ns, nc_timestamp_ns) pairs the trace carries
 * (each device span's sync_info, hw_notify, num_err, TIMESTAMP_SYNC) it
 * solves least squares for offset and drift per NC.
 */
#include <pthread.h>
#include <string.h>

#include "event_table.h"
#include "sim.h"

uint64_t ntsim_device_clock(const ntsim_scenario_t *sc, uint32_t core, uint64_t host_ns)
{
    /* A logical NC's physical cores share its first core's clock (D-LNC):
     * the runtime aligns them with one sync point per execution. */
    if (sc->lnc > 1)
        core -= core % sc->lnc;
    int64_t elapsed = host_ns > sc->host_start_ns ? (int64_t)(host_ns - sc->host_start_ns) : 0;
    int64_t ppm = sc->clock_drift_ppm[core];
    /* elapsed = q 10^6 + r: elapsed ppm / 10^6 = q ppm + r ppm / 10^6 exactly,
     * and with elapsed >= 0 both terms truncate toward zero together. */
    int64_t drift = (elapsed / 1000000) * ppm + (elapsed % 1000000) * ppm / 1000000;
    int64_t delta = sc->clock_offset_ns[core] + drift;
    if (delta < 0 && (uint64_t)(-delta) > host_ns)
        return 0;
    return delta < 0 ? host_ns - (uint64_t)(-delta) : host_ns + (uint64_t)delta;
}

/* Where a payload keeps its sync pair and its device_core_idx (-1: none),
 * found once from the one table. */
typedef struct pair_layout {
    int sync[NTSIM_PAYLOAD_COUNT];
    int core[NTSIM_PAYLOAD_COUNT];
} pair_layout_t;

static pair_layout_t g_layout;
static pthread_once_t g_layout_once = PTHREAD_ONCE_INIT;

static void pair_layout(void)
{
    pair_layout_t *l = &g_layout;
    for (size_t pid = 0; pid < NTSIM_PAYLOAD_COUNT; pid++) {
        const ntsim_payload_desc_t *d = &ntsim__payloads[pid];
        l->sync[pid] = l->core[pid] = -1;
        for (size_t i = 0; pid != NTSIM_PAYLOAD_NONE && i < d->field_count; i++) {
            if (d->fields[i].kind == NTSIM_FIELD_SYNC_INFO)
                l->sync[pid] = (int)d->fields[i].offset;
            else if (strcmp(d->fields[i].name, "device_core_idx") == 0)
                l->core[pid] = (int)d->fields[i].offset;
        }
    }
}

/* The (cpu, nc) pair a record carries, if any, and the physical core whose
 * clock it read (D-LNC): the one its device_core_idx names; for the STOP of
 * a per-core span (which names none) unknown under LNC > 1, so unused; else
 * its logical NC's first core, whose clock the per-NC device events read. */
static bool sync_pair(const ntsim_scenario_t *sc, const pair_layout_t *l,
                      const nrt_sys_trace_event_t *e, uint64_t *cpu, uint64_t *dev,
                      uint32_t *core)
{
    uint32_t type = (uint32_t)e->trace_type;
    ntsim_payload_id_t pid = ntsim__event_payload(type, (uint32_t)e->phase);
    if (pid == NTSIM_PAYLOAD_NONE || e->nc_idx >= sc->cores)
        return false;
    const unsigned char *data = (const unsigned char *)&e->data;
    uint32_t first = ntsim_phys_core(sc, e->nc_idx, 0);
    *core = first;
    if (l->core[pid] >= 0) {
        uint32_t in_device;
        memcpy(&in_device, data + l->core[pid], 4);
        if (in_device >= sc->cores_per_device)
            return false;
        *core = first - first % sc->cores_per_device + in_device;
    } else if (sc->lnc > 1 && e->phase == NRT_SYS_TRACE_EVENT_PHASE_STOP &&
               (type == NRT_SYS_TRACE_EVENT_TYPE_DEVICE_EXEC ||
                type == NRT_SYS_TRACE_EVENT_TYPE_NC_MODEL_SWITCH)) {
        return false;
    }
    if (l->sync[pid] >= 0) {
        memcpy(dev, data + l->sync[pid], 8);
        memcpy(cpu, data + l->sync[pid] + 8, 8);
        return *cpu != 0;
    }
    if (pid == NTSIM_PAYLOAD_TIMESTAMP_SYNC) {
        *dev = e->data.timestamp_sync.nc_timestamp_ns;
        *cpu = e->data.timestamp_sync.cpu_timestamp_ns;
        return *cpu != 0;
    }
    return false;
}

void ntsim_skew_add(const ntsim_scenario_t *sc, const nrt_sys_trace_event_t *records, size_t n,
                    ntsim_skew_acc_t acc[NTSIM_MAX_CORES])
{
    /* Per physical core: x = cpu - start (ns), y = nc - cpu (ns); fit
     * y = a + b x. Sums are taken about the first sample to keep doubles
     * precise. */
    pthread_once(&g_layout_once, pair_layout);
    for (size_t i = 0; i < n; i++) {
        uint64_t cpu, dev;
        uint32_t core;
        if (!sync_pair(sc, &g_layout, &records[i], &cpu, &dev, &core) || core >= NTSIM_MAX_CORES)
            continue;
        double x = (double)(int64_t)(cpu - sc->host_start_ns);
        double y = (double)(int64_t)(dev - cpu);
        ntsim_skew_acc_t *c = &acc[core];
        if (c->n == 0) {
            c->x0 = x;
            c->y0 = y;
        }
        x -= c->x0;
        y -= c->y0;
        c->sx += x;
        c->sy += y;
        c->sxx += x * x;
        c->sxy += x * y;
        c->n++;
    }
}

void ntsim_skew_solve(const ntsim_skew_acc_t acc[NTSIM_MAX_CORES],
                      ntsim_skew_t out[NTSIM_MAX_CORES])
{
    for (size_t nc = 0; nc < NTSIM_MAX_CORES; nc++) {
        const ntsim_skew_acc_t *c = &acc[nc];
        out[nc].samples = c->n;
        out[nc].offset_ns = 0;
        out[nc].drift_ppm = 0;
        if (c->n == 0)
            continue;
        double nn = (double)c->n;
        double den = nn * c->sxx - c->sx * c->sx;
        double b = den != 0 ? (nn * c->sxy - c->sx * c->sy) / den : 0;
        double a0 = (c->sy - b * c->sx) / nn;
        /* Back to absolute: y = y0 + a0 + b (x - x0), at x = 0. */
        out[nc].offset_ns = c->y0 + a0 - b * c->x0;
        out[nc].drift_ppm = b * 1e6;
    }
}
