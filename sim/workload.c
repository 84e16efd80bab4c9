/*
 * sim/workload.c: the runtime paths of one simulated run.
 *
 * Timeline of one execute (host ns after it starts; exec = the model's
 * device time, jittered by the seed):
 *   0            EXECUTE_API START, POST_REQUEST, MODEL_SUBMIT, ASYNC_SEMA_WAIT
 *   +2 us        RUNTIME_EXECUTE START, tensors allocated and written, buffers copied in
 *   +5 us        EXEC_PRE START/STOP; MODEL_SWITCH + NC_MODEL_SWITCH when the NC
 *                last ran another model
 *   +6..7 us     EXEC_CORE START, DEVICE_EXEC START (sync_info)
 *   + exec/2     HW_NOTIFY, TIMESTAMP_SYNC, the device's notifications; with
 *                collectives: CC_EXEC_BARRIER START, CC_EXEC START, ENC_BARRIER_*,
 *                HOSTCC_EXEC START, HOSTCC_WAIT
 *   + exec       CC_EXEC/barrier/HOSTCC_EXEC STOP, DEVICE_EXEC STOP, NUM_ERR on a
 *                numerical-error fault, EXEC_CORE STOP
 *   +1 us        EXEC_WAIT with the CONSUME_* drains of the notification queues
 *   +2 us        EXEC_POST: tensors read and freed, buffers copied out;
 *                RUNTIME_EXECUTE STOP, EXECUTE_API STOP
 * Model load (t = 0, per NC and model): MODEL_LOAD, DMA_MEM_ALLOC (weights, IO),
 * CC_LOAD and the hostcc setup (CC_PREPARE, CC_SCHEDULE, HOSTCC_BUILD_CONTEXT,
 * HOSTCC_LOAD) for collectives models. Unload (after the last execute):
 * DMA_MEM_DEALLOC. A GENERIC instant marks the session start. Ids line up:
 * one exec_id per execute, one tensor_id per tensor, spans paired by the
 * runtime's own nonzero tracking ids (D-TRACKING-ZERO's advice).
 */
#include <stdlib.h>
#include <string.h>

#include "event_table.h"
#include "nrt/nrt_profile_notification.h"
#include "sim.h"

#define US 1000u
#define LOADER_TID 999u       /* the thread that loads models */
#define FAULT_TID 998u        /* the thread a ring burst comes from */
#define FIRST_HOST_TID 1000u

typedef struct sim_nc {
    uint64_t last_model;
    uint32_t numerical_errors_pending;
    uint64_t dma_total;                               /* bytes allocated on this NC */
    uint64_t dma_by_usage[DMA_MEM_USAGE_TYPE_MAX];    /* bytes by usage type */
    uint64_t next_phys;                               /* bump allocator of addresses */
} sim_nc_t;

typedef struct sim_alloc {
    uint32_t nc;
    dma_mem_usage_type_t usage;
    uint64_t bytes, phys;
} sim_alloc_t;

struct sim;

typedef struct sim_request {
    struct sim *sim;
    uint32_t thread, nc;
    const ntsim_model_t *model;
    uint64_t exec_id, request_id, nrta_seq, op_id;
    uint64_t span;            /* base of this execute's tracking ids */
    uint64_t exec_ns;
    uint64_t tensors[16];
    uint32_t n_in, n_out;
} sim_request_t;

typedef struct sim {
    const ntsim_scenario_t *sc;
    ntsim_sched_t sched;
    uint64_t rng;
    uint64_t tid;
    uint64_t end_ns;
    sim_nc_t nc[NTSIM_NC_COUNT];
    sim_alloc_t allocs[NTSIM_NC_COUNT * NTSIM_MAX_MODELS * 2];
    size_t alloc_count;
    uint64_t next_exec, next_tensor, next_request, next_nrta, next_op, next_span;
    uint64_t thread_requests[64];   /* executes started per host thread */
    ntsim_explicit_notifs_t *explicit_notifs;
    /* outputs */
    nrt_sys_trace_event_t *records;
    size_t record_count, record_cap;
    ntsim_trace_info_t *infos;
    size_t *info_offsets;
    size_t info_count, info_cap;
    uint8_t *payload;
    size_t payload_len, payload_cap;
    uint64_t emitted, posted, executes, fetches;
    bool oom;
    bool stopped;
    bool stop_before_fetch;
    ntsim_progress_fn progress;
    void *progress_ctx;
} sim_t;

/* --- helpers ------------------------------------------------------------------ */

static uint64_t rng_next(sim_t *s)
{
    /* xorshift64*: deterministic per seed, never 0 */
    s->rng ^= s->rng >> 12;
    s->rng ^= s->rng << 25;
    s->rng ^= s->rng >> 27;
    return s->rng * UINT64_C(2685821657736338717);
}

static void at(sim_t *s, uint64_t delay, ntsim_sched_fn fn, void *arg, uint64_t arg2)
{
    if (ntsim_sched_after(&s->sched, delay, fn, arg, arg2) != NRT_SUCCESS)
        s->oom = true;
}

static uint64_t emit(sim_t *s, nrt_sys_trace_event_type_t type,
                     nrt_sys_trace_event_phase_t phase, uint32_t nc,
                     const nrt_sys_trace_event_data_t *d, uint64_t tracking)
{
    s->emitted++;
    return nrt_sys_trace_new_event(type, phase, nc, d, tracking);
}

static uint64_t emit_seq(sim_t *s, nrt_sys_trace_event_type_t type,
                         nrt_sys_trace_event_phase_t phase, uint32_t nc,
                         const nrt_sys_trace_event_data_t *d, uint64_t tracking, nrta_seq_t seq)
{
    s->emitted++;
    return nrt_sys_trace_new_event_with_seq(type, phase, nc, d, tracking, seq);
}

static struct nrt_sys_trace_event_data_sync_info sync_now(sim_t *s, uint32_t nc)
{
    struct nrt_sys_trace_event_data_sync_info si;
    si.nc_timestamp_ns = ntsim_device_clock(s->sc, nc, s->sched.now);
    si.cpu_timestamp_ns = s->sched.now;
    return si;
}

#define S NRT_SYS_TRACE_EVENT_PHASE_START
#define T NRT_SYS_TRACE_EVENT_PHASE_STOP
#define I NRT_SYS_TRACE_EVENT_PHASE_INSTANT
#define TY(x) NRT_SYS_TRACE_EVENT_TYPE_##x

/* --- the device: notifications ------------------------------------------------- */

static void post_notification(sim_t *s, int32_t type, uint32_t nc, uint64_t exec_id)
{
    s->posted++;
    uint8_t bytes[16];
    uint32_t t32 = (uint32_t)type, nc32 = nc;
    memcpy(bytes, &t32, 4);
    memcpy(bytes + 4, &nc32, 4);
    memcpy(bytes + 8, &exec_id, 8);
    ntsim_trace_info_t info;
    /* Wrapped at its final place later: the payload buffer may still move. */
    if (ntsim_notify_wrap(type, nc, bytes, sizeof bytes, &info) != NRT_SUCCESS)
        return; /* dropped and counted by the converter (D-NOTIFY) */
    if (s->info_count == s->info_cap) {
        size_t cap = s->info_cap ? s->info_cap * 2 : 256;
        ntsim_trace_info_t *ni = realloc(s->infos, cap * sizeof *ni);
        size_t *no = realloc(s->info_offsets, cap * sizeof *no);
        if (ni != NULL)
            s->infos = ni;
        if (no != NULL)
            s->info_offsets = no;
        if (ni == NULL || no == NULL) {
            s->oom = true;
            return;
        }
        s->info_cap = cap;
    }
    if (s->payload_len + sizeof bytes > s->payload_cap) {
        size_t cap = s->payload_cap ? s->payload_cap * 2 : 4096;
        uint8_t *np = realloc(s->payload, cap);
        if (np == NULL) {
            s->oom = true;
            return;
        }
        s->payload = np;
        s->payload_cap = cap;
    }
    memcpy(s->payload + s->payload_len, bytes, sizeof bytes);
    s->info_offsets[s->info_count] = s->payload_len;
    s->payload_len += sizeof bytes;
    s->infos[s->info_count++] = info;
}

/* --- draining the rings ---------------------------------------------------------- */

static void drain_all(sim_t *s)
{
    s->fetches++;
    for (uint32_t nc = 0; nc < s->sc->cores; nc++) {
        for (;;) {
            if (s->record_count + 1024 > s->record_cap) {
                size_t cap = s->record_cap ? s->record_cap * 2 : 8192;
                nrt_sys_trace_event_t *r = realloc(s->records, cap * sizeof *r);
                if (r == NULL) {
                    s->oom = true;
                    return;
                }
                s->records = r;
                s->record_cap = cap;
            }
            size_t n = 0;
            nrt_sys_trace_drain_events(nc, s->records + s->record_count, 1024, &n);
            s->record_count += n;
            if (n < 1024)
                break;
        }
    }
}

static void fetch_tick(ntsim_sched_t *sched, void *arg, uint64_t unused)
{
    (void)sched;
    (void)unused;
    sim_t *s = arg;
    drain_all(s);
    if (s->sched.now + s->sc->fetch_interval_ns <= s->end_ns)
        at(s, s->sc->fetch_interval_ns, fetch_tick, s, 0);
}

/* --- model load and unload ------------------------------------------------------- */

static void dma_alloc(sim_t *s, uint32_t nc, dma_mem_usage_type_t usage, uint64_t bytes)
{
    sim_nc_t *n = &s->nc[nc];
    nrt_sys_trace_event_data_t d;
    memset(&d, 0, sizeof d);
    d.dma_mem_alloc_start.hbm_idx = nc;
    d.dma_mem_alloc_start.usage_type = usage;
    d.dma_mem_alloc_start.is_nc_hbm = true;
    d.dma_mem_alloc_start.is_aligned = (bytes & 4095) == 0;
    d.dma_mem_alloc_start.mla_idx = nc / 2;
    uint64_t id = ++s->next_span << 8;
    emit(s, TY(DMA_MEM_ALLOC), S, nc, &d, id);
    uint64_t phys = UINT64_C(0x4000000000) * (nc + 1) + n->next_phys;
    n->next_phys += (bytes + 4095) & ~UINT64_C(4095);
    n->dma_total += bytes;
    n->dma_by_usage[usage] += bytes;
    memset(&d, 0, sizeof d);
    d.dma_mem_alloc_stop.allocated_bytes = bytes;
    d.dma_mem_alloc_stop.physical_address = phys;
    d.dma_mem_alloc_stop.return_code = 0;
    d.dma_mem_alloc_stop.usage_type_total_bytes = n->dma_by_usage[usage];
    d.dma_mem_alloc_stop.total_bytes = n->dma_total;
    emit(s, TY(DMA_MEM_ALLOC), T, nc, &d, id);
    if (s->alloc_count < sizeof s->allocs / sizeof s->allocs[0])
        s->allocs[s->alloc_count++] = (sim_alloc_t){nc, usage, bytes, phys};
}

static void load_models(ntsim_sched_t *sched, void *arg, uint64_t unused)
{
    (void)sched;
    (void)unused;
    sim_t *s = arg;
    s->tid = LOADER_TID;
    emit(s, TY(GENERIC), I, 0, NULL, 0); /* the session marker */
    for (uint32_t nc = 0; nc < s->sc->cores; nc++) {
        for (uint32_t m = 0; m < s->sc->model_count; m++) {
            const ntsim_model_t *md = &s->sc->models[m];
            nrt_sys_trace_event_data_t d;
            uint64_t id = ++s->next_span << 8;
            emit(s, TY(MODEL_LOAD), S, nc, NULL, id);
            dma_alloc(s, nc, DMA_MEM_USAGE_TYPE_WEIGHT, md->weight_bytes);
            dma_alloc(s, nc, DMA_MEM_USAGE_TYPE_IO, 65536);
            if (md->collectives) {
                uint64_t cc = ++s->next_span << 8;
                memset(&d, 0, sizeof d);
                d.cc_load_start.g_device_id = nc;
                d.cc_load_start.g_device_count = s->sc->cores;
                emit(s, TY(CC_LOAD), S, nc, &d, cc);
                memset(&d, 0, sizeof d);
                d.hostcc_prepare.ctx_device_id = nc;
                d.hostcc_prepare.ctx_device_count = s->sc->cores;
                d.hostcc_prepare.cc_op = 1; /* all-reduce */
                emit(s, TY(CC_PREPARE), I, nc, &d, 0);
                memset(&d, 0, sizeof d);
                d.hostcc_schedule.ctx_device_id = nc;
                d.hostcc_schedule.ctx_device_count = s->sc->cores;
                emit(s, TY(CC_SCHEDULE), I, nc, &d, 0);
                memset(&d, 0, sizeof d);
                d.hostcc_build_ctx.ctx_device_id = nc;
                d.hostcc_build_ctx.ctx_device_count = s->sc->cores;
                emit(s, TY(HOSTCC_BUILD_CONTEXT), I, nc, &d, 0);
                memset(&d, 0, sizeof d);
                d.hostcc_load.enc_op = 1;
                d.hostcc_load.dtype = 7; /* fp32 */
                d.hostcc_load.num_elem = md->weight_bytes / 4;
                emit(s, TY(HOSTCC_LOAD), I, nc, &d, 0);
                dma_alloc(s, nc, DMA_MEM_USAGE_TYPE_CC, 1u << 16);
                memset(&d, 0, sizeof d);
                d.cc_load_stop.model_id = md->id;
                emit(s, TY(CC_LOAD), T, nc, &d, cc);
            }
            memset(&d, 0, sizeof d);
            d.model_load_stop.model_id = md->id;
            emit(s, TY(MODEL_LOAD), T, nc, &d, id);
        }
    }
}

static void unload_models(sim_t *s)
{
    s->tid = LOADER_TID;
    for (size_t i = 0; i < s->alloc_count; i++) {
        const sim_alloc_t *a = &s->allocs[i];
        sim_nc_t *n = &s->nc[a->nc];
        nrt_sys_trace_event_data_t d;
        memset(&d, 0, sizeof d);
        d.dma_mem_dealloc_start.hbm_idx = a->nc;
        d.dma_mem_dealloc_start.is_nc_hbm = true;
        d.dma_mem_dealloc_start.mla_idx = a->nc / 2;
        d.dma_mem_dealloc_start.usage_type = a->usage;
        d.dma_mem_dealloc_start.physical_address = a->phys;
        uint64_t id = ++s->next_span << 8;
        emit(s, TY(DMA_MEM_DEALLOC), S, a->nc, &d, id);
        n->dma_total -= a->bytes;
        n->dma_by_usage[a->usage] -= a->bytes;
        memset(&d, 0, sizeof d);
        d.dma_mem_dealloc_stop.freed_bytes = a->bytes;
        d.dma_mem_dealloc_stop.usage_type_total_bytes = n->dma_by_usage[a->usage];
        d.dma_mem_dealloc_stop.total_bytes = n->dma_total;
        emit(s, TY(DMA_MEM_DEALLOC), T, a->nc, &d, id);
    }
}

/* --- one execute ----------------------------------------------------------------- */

static void request_step(ntsim_sched_t *sched, void *arg, uint64_t step);
static void thread_next(ntsim_sched_t *sched, void *arg, uint64_t thread);

static void step_submit(sim_t *s, sim_request_t *r)
{
    nrt_sys_trace_event_data_t d;
    memset(&d, 0, sizeof d);
    d.nrt_exec.model_id = r->model->id;
    emit_seq(s, TY(EXECUTE_API), S, r->nc, &d, r->span | 1, r->nrta_seq);
    memset(&d, 0, sizeof d);
    d.exec_post_request.model_id = r->model->id;
    d.exec_post_request.request_id = (uint32_t)r->request_id;
    emit_seq(s, TY(POST_REQUEST), I, r->nc, &d, 0, r->nrta_seq);
    memset(&d, 0, sizeof d);
    d.model_submit.model_id = r->model->id;
    emit(s, TY(MODEL_SUBMIT), I, r->nc, &d, 0);
    memset(&d, 0, sizeof d);
    d.async_sema_wait.available_request_slots = 8 - (r->request_id % 4);
    d.async_sema_wait.has_work = true;
    emit(s, TY(ASYNC_SEMA_WAIT), I, r->nc, &d, 0);
}

static void step_inputs(sim_t *s, sim_request_t *r)
{
    nrt_sys_trace_event_data_t d;
    memset(&d, 0, sizeof d);
    d.runtime_exec.model_id = r->model->id;
    emit(s, TY(RUNTIME_EXECUTE), S, r->nc, &d, r->span | 2);
    for (uint32_t i = 0; i < r->n_in + r->n_out; i++) {
        r->tensors[i] = ++s->next_tensor;
        memset(&d, 0, sizeof d);
        d.exec_tensor_alloc.tensor_id = r->tensors[i];
        d.exec_tensor_alloc.size = 4096u << (i % 3);
        emit(s, TY(TENSOR_ALLOC), I, r->nc, &d, 0);
    }
    for (uint32_t i = 0; i < r->n_in; i++) {
        uint64_t id = r->span | (16 + i);
        memset(&d, 0, sizeof d);
        d.exec_tensor_write.tensor_id = r->tensors[i];
        d.exec_tensor_write.size = 4096u << (i % 3);
        emit(s, TY(TENSOR_WRITE), S, r->nc, &d, id);
        memset(&d, 0, sizeof d);
        d.dmem_buf_copyin.mem_type = 1; /* host DRAM */
        d.dmem_buf_copyin.mem_handle = UINT64_C(0x7f0000000000) + r->tensors[i] * 4096;
        d.dmem_buf_copyin.offset = 0;
        d.dmem_buf_copyin.size = 4096u << (i % 3);
        emit(s, TY(DMEM_BUF_COPYIN), I, r->nc, &d, 0);
        memset(&d, 0, sizeof d);
        d.exec_tensor_write.tensor_id = r->tensors[i];
        d.exec_tensor_write.size = 4096u << (i % 3);
        emit(s, TY(TENSOR_WRITE), T, r->nc, &d, id);
    }
    memset(&d, 0, sizeof d);
    d.exec_tensor_write_batch.num_batches = r->n_in;
    emit(s, TY(TENSOR_WRITE_BATCH), I, r->nc, &d, 0);
    memset(&d, 0, sizeof d);
    d.dmem_buf_batch_copyin.mem_type = 1;
    d.dmem_buf_batch_copyin.num_batches = 1;
    d.dmem_buf_batch_copyin.total_num_ops = r->n_in;
    d.dmem_buf_batch_copyin.total_size = (uint64_t)r->n_in * 4096;
    emit(s, TY(DMEM_BUF_BATCH_COPYIN), I, r->nc, &d, 0);
    if (r->request_id % 3 == 0) { /* an input still read by the previous execute */
        memset(&d, 0, sizeof d);
        d.exec_tensor_block.tensor_id = r->tensors[0];
        d.exec_tensor_block.pending_reader_count = 1;
        d.exec_tensor_block.pending_writer_count = 0;
        emit(s, TY(TENSOR_BLOCK_WHILE_EXEC), I, r->nc, &d, 0);
    }
}

static void step_pre(sim_t *s, sim_request_t *r)
{
    nrt_sys_trace_event_data_t d;
    memset(&d, 0, sizeof d);
    d.exec_pre.exec_id = r->exec_id;
    d.exec_pre.model_id = r->model->id;
    emit(s, TY(EXEC_PRE), S, r->nc, &d, r->span | 3);
    sim_nc_t *n = &s->nc[r->nc];
    if (n->last_model != 0 && n->last_model != r->model->id) {
        memset(&d, 0, sizeof d);
        d.model_switch.device_core_idx = r->nc;
        d.model_switch.model_id = r->model->id;
        d.model_switch.is_neuron_core_work = true;
        emit(s, TY(MODEL_SWITCH), I, r->nc, &d, 0);
        memset(&d, 0, sizeof d);
        d.nc_model_switch_start.device_core_idx = r->nc;
        d.nc_model_switch_start.model_id = r->model->id;
        d.nc_model_switch_start.exec_id = r->exec_id;
        d.nc_model_switch_start.sync_info = sync_now(s, r->nc);
        emit(s, TY(NC_MODEL_SWITCH), S, r->nc, &d, r->span | 4);
        memset(&d, 0, sizeof d);
        d.nc_model_switch_stop.sync_info = sync_now(s, r->nc);
        emit(s, TY(NC_MODEL_SWITCH), T, r->nc, &d, r->span | 4);
    }
    n->last_model = r->model->id;
    memset(&d, 0, sizeof d);
    d.exec_pre.exec_id = r->exec_id;
    d.exec_pre.model_id = r->model->id;
    emit(s, TY(EXEC_PRE), T, r->nc, &d, r->span | 3);
}

static void step_core_start(sim_t *s, sim_request_t *r)
{
    nrt_sys_trace_event_data_t d;
    memset(&d, 0, sizeof d);
    d.exec_core.exec_id = r->exec_id;
    d.exec_core.model_id = r->model->id;
    emit(s, TY(EXEC_CORE), S, r->nc, &d, r->span | 5);
    memset(&d, 0, sizeof d);
    d.nc_exec_start.device_core_idx = r->nc;
    d.nc_exec_start.exec_id = (uint32_t)r->exec_id;
    d.nc_exec_start.sync_info = sync_now(s, r->nc);
    emit(s, TY(DEVICE_EXEC), S, r->nc, &d, r->span | 6);
}

static void step_mid(sim_t *s, sim_request_t *r)
{
    nrt_sys_trace_event_data_t d;
    memset(&d, 0, sizeof d);
    d.hw_notify.device_core_idx = r->nc;
    d.hw_notify.hint = (uint16_t)(r->exec_id & 0xffff);
    d.hw_notify.custom_data = (uint32_t)r->model->id;
    d.hw_notify.exec_id = r->exec_id;
    d.hw_notify.sync_info = sync_now(s, r->nc);
    emit(s, TY(HW_NOTIFY), I, r->nc, &d, 0);
    memset(&d, 0, sizeof d);
    d.timestamp_sync.exec_id = r->exec_id;
    d.timestamp_sync.nc_timestamp_ns = ntsim_device_clock(s->sc, r->nc, s->sched.now);
    d.timestamp_sync.cpu_timestamp_ns = s->sched.now;
    emit(s, TY(TIMESTAMP_SYNC), I, r->nc, &d, 0);
    /* The TPB block's notification queue: types {0,3,1,2,4,5} (spec §5). */
    post_notification(s, NOTIFICATION_TYPE_TRACE, r->nc, r->exec_id);
    post_notification(s, NOTIFICATION_TYPE_INFER_STATUS, r->nc, r->exec_id);
    post_notification(s, NOTIFICATION_TYPE_EVENT, r->nc, r->exec_id);
    if (rng_next(s) % 2 == 0)
        post_notification(s, NOTIFICATION_TYPE_DMA, r->nc, r->exec_id);
    if (rng_next(s) % 4 == 0)
        post_notification(s, NOTIFICATION_TYPE_THROTTLE, r->nc, r->exec_id);
    if (s->nc[r->nc].numerical_errors_pending > 0)
        post_notification(s, NOTIFICATION_TYPE_ERROR, r->nc, r->exec_id);
    if (!r->model->collectives)
        return;
    /* The TopSP block: {6,8,7}; and the collectives on the device. */
    post_notification(s, NOTIFICATION_TYPE_TOPSP_TRACE, r->nc, r->exec_id);
    post_notification(s, NOTIFICATION_TYPE_TOPSP_EVENT, r->nc, r->exec_id);
    if (rng_next(s) % 4 == 0)
        post_notification(s, NOTIFICATION_TYPE_TOPSP_ERROR, r->nc, r->exec_id);
    memset(&d, 0, sizeof d);
    d.cc_exec_barrier_start.model_id = r->model->id;
    d.cc_exec_barrier_start.exec_id = (uint32_t)r->exec_id;
    d.cc_exec_barrier_start.sync_info = sync_now(s, r->nc);
    emit(s, TY(CC_EXEC_BARRIER), S, r->nc, &d, r->span | 7);
    memset(&d, 0, sizeof d);
    d.cc_exec_start.gid = r->nc;
    d.cc_exec_start.op_id = (uint32_t)r->op_id;
    d.cc_exec_start.exec_id = (uint32_t)r->exec_id;
    d.cc_exec_start.sync_info = sync_now(s, r->nc);
    d.cc_exec_start.algo = 1 + (uint32_t)(r->op_id % 3);
    emit(s, TY(CC_EXEC), S, r->nc, &d, r->span | 8);
    int peer = (int)((r->nc + 1) % s->sc->cores);
    memset(&d, 0, sizeof d);
    d.enc_barrier_send.peer_id = peer;
    d.enc_barrier_send.exec_id = r->exec_id;
    d.enc_barrier_send.nec_dev_id = 0;
    emit(s, TY(ENC_BARRIER_SEND), I, r->nc, &d, 0);
    memset(&d, 0, sizeof d);
    d.enc_barrier_recv.peer_id = peer;
    d.enc_barrier_recv.exec_id = r->exec_id;
    d.enc_barrier_recv.nec_dev_id = 0;
    emit(s, TY(ENC_BARRIER_RECV), I, r->nc, &d, 0);
    memset(&d, 0, sizeof d);
    d.enc_barrier.peer_id = -1; /* all peers */
    d.enc_barrier.exec_id = r->exec_id;
    d.enc_barrier.nec_dev_id = 0;
    emit(s, TY(ENC_BARRIER), I, r->nc, &d, 0);
    memset(&d, 0, sizeof d);
    d.hostcc_exec.stream_id = r->nc;
    emit(s, TY(HOSTCC_EXEC), S, r->nc, &d, r->span | 9);
    memset(&d, 0, sizeof d);
    d.hostcc_wait.total_notif_expected = 2;
    emit(s, TY(HOSTCC_WAIT), I, r->nc, &d, 0);
}

static void step_core_stop(sim_t *s, sim_request_t *r)
{
    nrt_sys_trace_event_data_t d;
    if (r->model->collectives) {
        memset(&d, 0, sizeof d);
        d.hostcc_exec.stream_id = r->nc;
        emit(s, TY(HOSTCC_EXEC), T, r->nc, &d, r->span | 9);
        memset(&d, 0, sizeof d);
        d.cc_exec_stop.sync_info = sync_now(s, r->nc);
        emit(s, TY(CC_EXEC), T, r->nc, &d, r->span | 8);
        memset(&d, 0, sizeof d);
        d.cc_exec_barrier_stop.sync_info = sync_now(s, r->nc);
        emit(s, TY(CC_EXEC_BARRIER), T, r->nc, &d, r->span | 7);
        /* The collectives status of this execute: the EXPLICIT path. */
        uint8_t status[8];
        uint32_t e32 = (uint32_t)r->exec_id, op = (uint32_t)r->op_id;
        memcpy(status, &e32, 4);
        memcpy(status + 4, &op, 4);
        if (ntsim_explicit_append(s->explicit_notifs, r->nc, status, sizeof status) !=
            NRT_SUCCESS)
            s->oom = true;
    }
    memset(&d, 0, sizeof d);
    d.nc_exec_stop.sync_info = sync_now(s, r->nc);
    emit(s, TY(DEVICE_EXEC), T, r->nc, &d, r->span | 6);
    sim_nc_t *n = &s->nc[r->nc];
    if (n->numerical_errors_pending > 0) {
        n->numerical_errors_pending--;
        memset(&d, 0, sizeof d);
        d.num_err.device_core_idx = r->nc;
        d.num_err.exec_id = (uint32_t)r->exec_id;
        d.num_err.sync_info = sync_now(s, r->nc);
        emit(s, TY(NUM_ERR), I, r->nc, &d, 0);
    }
    memset(&d, 0, sizeof d);
    d.exec_core.exec_id = r->exec_id;
    d.exec_core.model_id = r->model->id;
    emit(s, TY(EXEC_CORE), T, r->nc, &d, r->span | 5);
}

static void step_wait(sim_t *s, sim_request_t *r)
{
    nrt_sys_trace_event_data_t d;
    memset(&d, 0, sizeof d);
    d.exec_wait.exec_id = r->exec_id;
    d.exec_wait.model_id = r->model->id;
    emit(s, TY(EXEC_WAIT), S, r->nc, &d, r->span | 10);
    /* The runtime drains the notification queues (no payload: spec §2). */
    emit(s, TY(CONSUME_TPB_STATUS_NOTIFICATIONS), S, r->nc, NULL, r->span | 11);
    emit(s, TY(CONSUME_TPB_STATUS_NOTIFICATIONS), T, r->nc, NULL, r->span | 11);
    if (r->model->collectives) {
        emit(s, TY(CONSUME_TOPSP_CC_NOTIFICATIONS), S, r->nc, NULL, r->span | 12);
        emit(s, TY(CONSUME_TOPSP_CC_NOTIFICATIONS), T, r->nc, NULL, r->span | 12);
    }
    emit(s, TY(CONSUME_ERROR_NOTIFICATIONS), S, r->nc, NULL, r->span | 13);
    emit(s, TY(CONSUME_ERROR_NOTIFICATIONS), T, r->nc, NULL, r->span | 13);
    emit(s, TY(CONSUME_POOL_STDIO), I, r->nc, NULL, 0);
    memset(&d, 0, sizeof d);
    d.exec_wait.exec_id = r->exec_id;
    d.exec_wait.model_id = r->model->id;
    emit(s, TY(EXEC_WAIT), T, r->nc, &d, r->span | 10);
}

static void step_post(sim_t *s, sim_request_t *r)
{
    nrt_sys_trace_event_data_t d;
    memset(&d, 0, sizeof d);
    d.exec_post.exec_id = r->exec_id;
    d.exec_post.model_id = r->model->id;
    emit(s, TY(EXEC_POST), S, r->nc, &d, r->span | 14);
    for (uint32_t i = 0; i < r->n_out; i++) {
        uint64_t t = r->tensors[r->n_in + i];
        uint64_t id = r->span | (32 + i);
        memset(&d, 0, sizeof d);
        d.exec_tensor_read.tensor_id = t;
        d.exec_tensor_read.size = 4096u << ((r->n_in + i) % 3);
        emit(s, TY(TENSOR_READ), S, r->nc, &d, id);
        memset(&d, 0, sizeof d);
        d.dmem_buf_copyout.mem_type = 2; /* device DRAM */
        d.dmem_buf_copyout.mem_handle = UINT64_C(0x4000000000) * (r->nc + 1) + t * 4096;
        d.dmem_buf_copyout.offset = 0;
        d.dmem_buf_copyout.size = 4096u << ((r->n_in + i) % 3);
        emit(s, TY(DMEM_BUF_COPYOUT), I, r->nc, &d, 0);
        memset(&d, 0, sizeof d);
        d.exec_tensor_read.tensor_id = t;
        d.exec_tensor_read.size = 4096u << ((r->n_in + i) % 3);
        emit(s, TY(TENSOR_READ), T, r->nc, &d, id);
    }
    memset(&d, 0, sizeof d);
    d.exec_tensor_read_batch.num_batches = r->n_out;
    emit(s, TY(TENSOR_READ_BATCH), I, r->nc, &d, 0);
    memset(&d, 0, sizeof d);
    d.dmem_buf_batch_copyout.mem_type = 2;
    d.dmem_buf_batch_copyout.num_batches = 1;
    d.dmem_buf_batch_copyout.total_num_ops = r->n_out;
    d.dmem_buf_batch_copyout.total_size = (uint64_t)r->n_out * 4096;
    emit(s, TY(DMEM_BUF_BATCH_COPYOUT), I, r->nc, &d, 0);
    for (uint32_t i = 0; i < r->n_in + r->n_out; i++) {
        memset(&d, 0, sizeof d);
        d.exec_tensor_free.tensor_id = r->tensors[i];
        d.exec_tensor_free.size = 4096u << (i % 3);
        d.exec_tensor_free.ref_count = 0;
        emit(s, TY(TENSOR_FREE), I, r->nc, &d, 0);
    }
    memset(&d, 0, sizeof d);
    d.exec_post.exec_id = r->exec_id;
    d.exec_post.model_id = r->model->id;
    emit(s, TY(EXEC_POST), T, r->nc, &d, r->span | 14);
    memset(&d, 0, sizeof d);
    d.runtime_exec.model_id = r->model->id;
    emit(s, TY(RUNTIME_EXECUTE), T, r->nc, &d, r->span | 2);
    memset(&d, 0, sizeof d);
    d.nrt_exec.model_id = r->model->id;
    emit_seq(s, TY(EXECUTE_API), T, r->nc, &d, r->span | 1, r->nrta_seq);
}

/* Steps of one execute: each runs a part of the runtime path, then
 * schedules the next after the host (or device) time it takes. */
enum { STEP_SUBMIT, STEP_INPUTS, STEP_PRE, STEP_CORE_START, STEP_MID, STEP_CORE_STOP, STEP_WAIT,
       STEP_POST };

static void request_step(ntsim_sched_t *sched, void *arg, uint64_t step)
{
    (void)sched;
    sim_request_t *r = arg;
    sim_t *s = r->sim;
    s->tid = FIRST_HOST_TID + r->thread;
    uint64_t next = 0;
    switch (step) {
    case STEP_SUBMIT: step_submit(s, r); next = 2 * US; break;
    case STEP_INPUTS: step_inputs(s, r); next = 3 * US; break;
    case STEP_PRE: step_pre(s, r); next = 1 * US; break;
    case STEP_CORE_START: step_core_start(s, r); next = r->exec_ns / 2; break;
    case STEP_MID: step_mid(s, r); next = r->exec_ns - r->exec_ns / 2; break;
    case STEP_CORE_STOP: step_core_stop(s, r); next = 1 * US; break;
    case STEP_WAIT: step_wait(s, r); next = 2 * US; break;
    case STEP_POST:
    default:
        step_post(s, r);
        s->executes++;
        at(s, s->sc->request_interval_ns, thread_next, s, r->thread);
        free(r);
        return;
    }
    at(s, next, request_step, r, step + 1);
}

/* A host thread starts its next execute, unless the scenario's time is up. */
static void thread_next(ntsim_sched_t *sched, void *arg, uint64_t thread)
{
    (void)sched;
    sim_t *s = arg;
    if (s->sched.now >= s->end_ns || s->oom)
        return;
    sim_request_t *r = calloc(1, sizeof *r);
    if (r == NULL) {
        s->oom = true;
        return;
    }
    r->sim = s;
    r->thread = (uint32_t)thread;
    r->nc = (uint32_t)(thread % s->sc->cores);
    r->exec_id = ++s->next_exec;
    r->request_id = ++s->next_request;
    r->nrta_seq = ++s->next_nrta;
    r->op_id = ++s->next_op;
    /* Each thread cycles through the models, so its NC switches model on
     * every execute (when there are two or more). */
    r->model = &s->sc->models[(thread + s->thread_requests[thread % 64]++) %
                              s->sc->model_count];
    r->span = ++s->next_span << 8;
    r->n_in = r->model->inputs;
    r->n_out = r->model->outputs;
    /* Device time jitters by up to 1/8 around the model's, from the seed. */
    uint64_t jitter = r->model->exec_ns / 8;
    r->exec_ns = r->model->exec_ns - jitter / 2 + (jitter ? rng_next(s) % (jitter + 1) : 0);
    if (r->exec_ns < 2)
        r->exec_ns = 2;
    request_step(&s->sched, r, STEP_SUBMIT);
}

/* --- faults -------------------------------------------------------------------- */

static void fault_fire(ntsim_sched_t *sched, void *arg, uint64_t index)
{
    (void)sched;
    sim_t *s = arg;
    const ntsim_fault_t *f = &s->sc->faults[index];
    switch (f->kind) {
    case NTSIM_FAULT_RING_BURST:
        s->tid = FAULT_TID;
        for (uint64_t i = 0; i < f->events; i++)
            emit(s, TY(GENERIC), I, f->nc, NULL, 0);
        break;
    case NTSIM_FAULT_INVALID_NOTIFICATION:
        for (uint64_t i = 0; i < f->count; i++)
            post_notification(s, f->type, f->nc, 0);
        break;
    case NTSIM_FAULT_NUMERICAL_ERROR:
        s->nc[f->nc].numerical_errors_pending++;
        break;
    case NTSIM_FAULT_STOP_BEFORE_FETCH:
        break; /* handled at the end of the run */
    }
}

/* --- the run --------------------------------------------------------------------- */

static uint64_t hook_now(void *ctx)
{
    return ((sim_t *)ctx)->sched.now;
}

static uint64_t hook_tid(void *ctx)
{
    return ((sim_t *)ctx)->tid;
}

static void free_sim(sim_t *s)
{
    ntsim_sched_free(&s->sched);
    ntsim_explicit_free(s->explicit_notifs);
    free(s->records);
    free(s->infos);
    free(s->info_offsets);
    free(s->payload);
}

void ntsim_run_result_free(ntsim_run_result_t *r)
{
    free(r->records);
    free(r->infos);
    free(r->info_bytes);
    memset(r, 0, sizeof *r);
}

NRT_STATUS ntsim_sim_run(const ntsim_scenario_t *sc, ntsim_progress_fn progress, void *ctx,
                         ntsim_run_result_t *out)
{
    memset(out, 0, sizeof *out);
    if (ntsim_capture_is_capturing())
        return NRT_FAILURE;
    sim_t *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NRT_RESOURCE;
    s->sc = sc;
    s->rng = sc->seed ? sc->seed : UINT64_C(0x9E3779B97F4A7C15);
    s->end_ns = sc->host_start_ns + sc->duration_ns;
    s->progress = progress;
    s->progress_ctx = ctx;
    ntsim_sched_init(&s->sched, sc->host_start_ns);
    if (ntsim_explicit_create(sc->cores, &s->explicit_notifs) != NRT_SUCCESS) {
        free(s);
        return NRT_RESOURCE;
    }
    ntsim_notify_reset_stats();

    ntsim_capture_hooks_t hooks = {hook_now, hook_tid, s};
    ntsim_capture_set_hooks(&hooks);
    nrt_sys_trace_config_t cfg;
    nrt_sys_trace_config_set_defaults(&cfg);
    nrt_sys_trace_config_set_max_events_per_nc(&cfg, sc->max_events_per_nc);
    for (uint32_t nc = 0; nc < NTSIM_NC_COUNT; nc++)
        cfg.capture_enabled_for_nc[nc] = nc < sc->cores && !sc->nc_disabled[nc];
    for (uint32_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        cfg.capture_enabled_for_event_type[t] = !sc->type_disabled[t];
    NRT_STATUS st = nrt_sys_trace_start(&cfg);
    if (st != NRT_SUCCESS) {
        ntsim_capture_set_hooks(NULL);
        free_sim(s);
        free(s);
        return st;
    }

    at(s, 0, load_models, s, 0);
    for (uint32_t t = 0; t < sc->host_threads; t++)
        at(s, 10 * US + t * US, thread_next, s, t);
    for (uint32_t f = 0; f < sc->fault_count; f++) {
        if (sc->faults[f].kind == NTSIM_FAULT_STOP_BEFORE_FETCH)
            s->stop_before_fetch = true;
        else
            at(s, sc->faults[f].at_ns, fault_fire, s, f);
    }
    if (sc->fetch_interval_ns > 0)
        at(s, sc->fetch_interval_ns, fetch_tick, s, 0);

    /* Run in slices so that long runs can report progress. */
    const uint64_t slice = 1u << 20;
    while (s->sched.count > 0 && !s->oom) {
        uint64_t before = s->sched.fired;
        while (s->sched.count > 0 && s->sched.fired - before < slice && !s->oom)
            ntsim_sched_run(&s->sched, s->sched.heap[0].time);
        if (progress != NULL)
            progress(s->sched.now - sc->host_start_ns, sc->duration_ns, s->emitted, ctx);
    }
    if (!s->oom) {
        unload_models(s);
        if (s->stop_before_fetch) {
            /* The fault: capture stops before the final fetch; what the rings
             * still hold is dropped, and counted as lost_at_stop. */
            nrt_sys_trace_stop();
            s->stopped = true;
        } else {
            drain_all(s);
        }
    }
    for (uint32_t nc = 0; nc < NTSIM_NC_COUNT; nc++)
        ntsim_capture_nc_stats(nc, &out->nc_stats[nc]);
    if (!s->stopped)
        nrt_sys_trace_stop();
    for (uint32_t nc = 0; nc < NTSIM_NC_COUNT; nc++)
        ntsim_capture_nc_stats(nc, &out->nc_stats[nc]); /* now with lost_at_stop */
    ntsim_capture_set_hooks(NULL);

    /* The EXPLICIT trace_infos, one per TopSP, after the converted ones. */
    size_t explicit_count = 0;
    ntsim_trace_info_t *explicit_infos = calloc(sc->cores, sizeof *explicit_infos);
    if (explicit_infos == NULL ||
        ntsim_explicit_collect(s->explicit_notifs, explicit_infos, sc->cores,
                               &explicit_count) != NRT_SUCCESS)
        s->oom = true;
    size_t total_infos = s->info_count + explicit_count;
    size_t explicit_bytes = 0;
    for (size_t i = 0; i < explicit_count; i++)
        explicit_bytes += explicit_infos[i].payload_len;
    out->infos = calloc(total_infos ? total_infos : 1, sizeof *out->infos);
    out->info_bytes = malloc(s->payload_len + explicit_bytes + 1);
    if (s->oom || out->infos == NULL || out->info_bytes == NULL) {
        free(explicit_infos);
        free_sim(s);
        free(s);
        ntsim_run_result_free(out);
        return NRT_RESOURCE;
    }
    if (s->payload_len > 0)
        memcpy(out->info_bytes, s->payload, s->payload_len);
    for (size_t i = 0; i < s->info_count; i++) {
        out->infos[i] = s->infos[i];
        out->infos[i].payload = out->info_bytes + s->info_offsets[i];
    }
    size_t off = s->payload_len;
    for (size_t i = 0; i < explicit_count; i++) {
        out->infos[s->info_count + i] = explicit_infos[i];
        if (explicit_infos[i].payload_len > 0)
            memcpy(out->info_bytes + off, explicit_infos[i].payload,
                   explicit_infos[i].payload_len);
        out->infos[s->info_count + i].payload = out->info_bytes + off;
        off += explicit_infos[i].payload_len;
    }
    out->info_count = total_infos;
    free(explicit_infos);

    out->records = s->records;
    out->record_count = s->record_count;
    s->records = NULL;
    for (size_t i = 0; i < out->record_count; i++) {
        uint32_t t = (uint32_t)out->records[i].trace_type;
        if (t < NRT_SYS_TRACE_EVENT_TYPE_COUNT)
            out->per_type[t]++;
        if (out->records[i].nc_idx < NTSIM_NC_COUNT)
            out->per_nc[out->records[i].nc_idx]++;
    }
    out->events_emitted = s->emitted;
    out->notifications_posted = s->posted;
    out->executes = s->executes;
    out->fetches = s->fetches;
    out->simulated_ns = s->sched.now - sc->host_start_ns;
    ntsim_notify_stats(&out->notify);
    ntsim_skew_fit(sc, out->records, out->record_count, out->skew);
    free_sim(s);
    free(s);
    return NRT_SUCCESS;
}
