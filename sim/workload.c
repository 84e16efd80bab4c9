/*
 * sim/workload.c: the runtime paths of one simulated run.
 *
 * Timeline of one execute (host ns after it starts; exec = the model's
 * device time, jittered by the seed; every draw is its purpose's stream
 * for the exec id, D-SIM-RNG):
 *   0            EXECUTE_API START, POST_REQUEST, MODEL_SUBMIT, ASYNC_SEMA_WAIT
 *   +2 us        RUNTIME_EXECUTE START, tensors allocated and written, buffers copied in
 *   +5 us        EXEC_PRE START, TIMESTAMP_SYNC (the execution's sync point),
 *                MODEL_SWITCH + NC_MODEL_SWITCH when the NC last ran another
 *                model, EXEC_PRE STOP
 *   +6..7 us     EXEC_CORE START, DEVICE_EXEC START (sync_info)
 *   + exec/2     HW_NOTIFY, the device's notifications; with
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
 *
 * Every event goes through nrt_sys_trace_new_event exactly as libnrt's
 * runtime calls it; its payload is a compound literal of the one union
 * member (DATA below), so each call site reads as the record it makes.
 */
#include <stdlib.h>
#include <string.h>

#include "event_table.h"
#include "nrt/nrt_profile_notification.h"
#include "rng.h"
#include "workload.h"

#define US 1000u

#define S NRT_SYS_TRACE_EVENT_PHASE_START
#define T NRT_SYS_TRACE_EVENT_PHASE_STOP
#define I NRT_SYS_TRACE_EVENT_PHASE_INSTANT
#define TY(x) NRT_SYS_TRACE_EVENT_TYPE_##x
/* A payload: the union member `m` with the given fields, the rest zero. The
 * engine copies only that member's fields (D-PAYLOAD-HOLES). */
#define DATA(m, ...) (&(nrt_sys_trace_event_data_t){.m = {__VA_ARGS__}})

/* One execute in flight. */
typedef struct request {
    ntsim__sim_t *sim;
    uint32_t thread, nc;
    const ntsim_model_t *model;
    uint64_t exec_id, request_id, nrta_seq, op_id;
    uint64_t span;            /* base of this execute's tracking ids */
    uint64_t exec_ns;
    uint64_t tensors[16];
    uint32_t n_in, n_out;
} request_t;

/* --- helpers ------------------------------------------------------------------ */

/* The stream of one purpose for one execute (D-SIM-RNG): what it draws
 * depends on the seed, the purpose and the exec id alone. */
static ntsim_rng_t exec_stream(const ntsim__sim_t *s, ntsim_rng_purpose_t purpose,
                               uint64_t exec_id)
{
    return ntsim_rng_stream(s->sc->seed, purpose, exec_id);
}

void ntsim__sim_at(ntsim__sim_t *s, uint64_t delay, ntsim_sched_fn fn, void *arg, uint64_t arg2)
{
    if (ntsim_sched_after(&s->sched, delay, fn, arg, arg2) != NRT_SUCCESS)
        s->oom = true;
}

/* The tracking id nrt_sys_trace_new_event returns is not needed: the
 * simulated runtime pairs its spans with ids it chose itself. */
static void emit(ntsim__sim_t *s, nrt_sys_trace_event_type_t type,
                 nrt_sys_trace_event_phase_t phase, uint32_t nc,
                 const nrt_sys_trace_event_data_t *d, uint64_t tracking)
{
    s->emitted++;
    (void)nrt_sys_trace_new_event(type, phase, nc, d, tracking);
}

static void emit_seq(ntsim__sim_t *s, nrt_sys_trace_event_type_t type,
                     nrt_sys_trace_event_phase_t phase, uint32_t nc,
                     const nrt_sys_trace_event_data_t *d, uint64_t tracking, nrta_seq_t seq)
{
    s->emitted++;
    (void)nrt_sys_trace_new_event_with_seq(type, phase, nc, d, tracking, seq);
}

/* A sync pair read now from physical core `core`'s clock (instance-wide). */
static struct nrt_sys_trace_event_data_sync_info sync_now(ntsim__sim_t *s, uint32_t core)
{
    return (struct nrt_sys_trace_event_data_sync_info){
        ntsim_device_clock(s->sc, core, s->sched.now), s->sched.now};
}

/* Physical core j of logical NC nc, instance-wide, and its index within its
 * device (what device_core_idx holds, D-LNC). */
static uint32_t core_of(const ntsim__sim_t *s, uint32_t nc, uint32_t j)
{
    return ntsim_phys_core(s->sc, nc, j);
}

static uint32_t core_in_device(const ntsim__sim_t *s, uint32_t nc, uint32_t j)
{
    return core_of(s, nc, j) % s->sc->cores_per_device;
}

/* The tracking id of a per-core span: core j's copy of span id `id` (the
 * low 8 bits number an execute's spans, all below 64). */
static uint64_t per_core(uint64_t id, uint32_t j)
{
    return id + 64u * j;
}

/* A fresh span base: the low 8 bits number the spans of one operation. */
static uint64_t new_span(ntsim__sim_t *s)
{
    return ++s->next_span << 8;
}

/* --- the device: notifications ------------------------------------------------- */

/* Which queues a notification comes from: a block's (spec §5's subscribe
 * lists), or a scenario's injected fault (no block's). */
enum queue { QUEUE_TPB, QUEUE_TOPSP, QUEUE_INJECTED };

/* The device posts a notification: 16 bytes (type u32, nc u32, exec id u64,
 * little-endian) through the real converter (D-SIM). */
static void post_notification(ntsim__sim_t *s, enum queue q, int32_t type, uint32_t nc,
                              uint64_t exec_id)
{
    s->posted++;
    if (q != QUEUE_INJECTED && type >= 0 && type <= NOTIFICATION_TYPE_MAX)
        (q == QUEUE_TPB ? s->posted_tpb : s->posted_topsp)[type]++;
    uint8_t bytes[16];
    uint32_t t32 = (uint32_t)type, nc32 = nc;
    memcpy(bytes, &t32, 4);
    memcpy(bytes + 4, &nc32, 4);
    memcpy(bytes + 8, &exec_id, 8);
    ntsim_trace_info_t info;
    if (ntsim_notify_wrap(type, nc, bytes, sizeof bytes, &info) != NRT_SUCCESS)
        return; /* dropped and counted by the converter (D-NOTIFY) */
    ntsim__sim_infos(s, &info, 1); /* the payload is read during the call */
}

/* --- model load and unload ------------------------------------------------------- */

static void dma_alloc(ntsim__sim_t *s, uint32_t nc, dma_mem_usage_type_t usage, uint64_t bytes)
{
    ntsim__sim_nc_t *n = &s->nc[nc];
    uint64_t id = new_span(s);
    uint32_t hbm = core_in_device(s, nc, 0);
    emit(s, TY(DMA_MEM_ALLOC), S, nc,
         DATA(dma_mem_alloc_start, .hbm_idx = hbm, .usage_type = usage, .is_nc_hbm = true,
              .is_aligned = (bytes & 4095) == 0, .mla_idx = hbm / 2),
         id);
    uint64_t phys = UINT64_C(0x4000000000) * (nc + 1) + n->next_phys;
    n->next_phys += (bytes + 4095) & ~UINT64_C(4095);
    n->dma_total += bytes;
    n->dma_by_usage[usage] += bytes;
    emit(s, TY(DMA_MEM_ALLOC), T, nc,
         DATA(dma_mem_alloc_stop, .allocated_bytes = bytes, .physical_address = phys,
              .return_code = 0, .usage_type_total_bytes = n->dma_by_usage[usage],
              .total_bytes = n->dma_total),
         id);
    if (s->alloc_count < sizeof s->allocs / sizeof s->allocs[0])
        s->allocs[s->alloc_count++] = (ntsim__sim_alloc_t){nc, usage, bytes, phys};
}

/* The collectives setup of a model on one NC (inside its MODEL_LOAD span). */
static void load_collectives(ntsim__sim_t *s, uint32_t nc, const ntsim_model_t *md)
{
    /* The collective group is every visible logical NC; a member's id is
     * its instance-wide logical NC (its worker_gid). */
    uint32_t cores = s->sc->cores, gid = s->sc->vnc_gid[nc];
    uint64_t cc = new_span(s);
    emit(s, TY(CC_LOAD), S, nc, DATA(cc_load_start, .g_device_id = gid, .g_device_count = cores),
         cc);
    emit(s, TY(CC_PREPARE), I, nc,
         DATA(hostcc_prepare, .ctx_device_id = gid, .ctx_device_count = cores,
              .cc_op = 1 /* all-reduce */),
         0);
    emit(s, TY(CC_SCHEDULE), I, nc,
         DATA(hostcc_schedule, .ctx_device_id = gid, .ctx_device_count = cores), 0);
    emit(s, TY(HOSTCC_BUILD_CONTEXT), I, nc,
         DATA(hostcc_build_ctx, .ctx_device_id = gid, .ctx_device_count = cores), 0);
    emit(s, TY(HOSTCC_LOAD), I, nc,
         DATA(hostcc_load, .enc_op = 1, .dtype = 7 /* fp32 */, .num_elem = md->weight_bytes / 4),
         0);
    dma_alloc(s, nc, DMA_MEM_USAGE_TYPE_CC, 1u << 16);
    emit(s, TY(CC_LOAD), T, nc, DATA(cc_load_stop, .model_id = md->id), cc);
}

static void load_models(ntsim_sched_t *sched, void *arg, uint64_t unused)
{
    (void)sched;
    (void)unused;
    ntsim__sim_t *s = arg;
    s->tid = NTSIM__LOADER_TID;
    emit(s, TY(GENERIC), I, 0, NULL, 0); /* the session marker */
    for (uint32_t nc = 0; nc < s->sc->cores; nc++) {
        for (uint32_t m = 0; m < s->sc->model_count; m++) {
            const ntsim_model_t *md = &s->sc->models[m];
            uint64_t id = new_span(s);
            emit(s, TY(MODEL_LOAD), S, nc, NULL, id);
            dma_alloc(s, nc, DMA_MEM_USAGE_TYPE_WEIGHT, md->weight_bytes);
            dma_alloc(s, nc, DMA_MEM_USAGE_TYPE_IO, 65536);
            if (md->collectives)
                load_collectives(s, nc, md);
            emit(s, TY(MODEL_LOAD), T, nc, DATA(model_load_stop, .model_id = md->id), id);
        }
    }
}

void ntsim__workload_unload(ntsim__sim_t *s)
{
    s->tid = NTSIM__LOADER_TID;
    for (size_t i = 0; i < s->alloc_count; i++) {
        const ntsim__sim_alloc_t *a = &s->allocs[i];
        ntsim__sim_nc_t *n = &s->nc[a->nc];
        uint64_t id = new_span(s);
        uint32_t hbm = core_in_device(s, a->nc, 0);
        emit(s, TY(DMA_MEM_DEALLOC), S, a->nc,
             DATA(dma_mem_dealloc_start, .hbm_idx = hbm, .is_nc_hbm = true, .mla_idx = hbm / 2,
                  .usage_type = a->usage, .physical_address = a->phys),
             id);
        n->dma_total -= a->bytes;
        n->dma_by_usage[a->usage] -= a->bytes;
        emit(s, TY(DMA_MEM_DEALLOC), T, a->nc,
             DATA(dma_mem_dealloc_stop, .freed_bytes = a->bytes,
                  .usage_type_total_bytes = n->dma_by_usage[a->usage],
                  .total_bytes = n->dma_total),
             id);
    }
}

/* --- one execute ----------------------------------------------------------------- */

/* Size of the i-th tensor of an execute: 4, 8 or 16 KiB. */
static uint32_t tensor_size(uint32_t i)
{
    return 4096u << (i % 3);
}

static void step_submit(ntsim__sim_t *s, request_t *r)
{
    uint64_t model = r->model->id;
    emit_seq(s, TY(EXECUTE_API), S, r->nc, DATA(nrt_exec, .model_id = model), r->span | 1,
             r->nrta_seq);
    emit_seq(s, TY(POST_REQUEST), I, r->nc,
             DATA(exec_post_request, .model_id = model, .request_id = (uint32_t)r->request_id),
             0, r->nrta_seq);
    emit(s, TY(MODEL_SUBMIT), I, r->nc, DATA(model_submit, .model_id = model), 0);
    emit(s, TY(ASYNC_SEMA_WAIT), I, r->nc,
         DATA(async_sema_wait, .available_request_slots = 8 - (r->request_id % 4),
              .has_work = true),
         0);
}

static void step_inputs(ntsim__sim_t *s, request_t *r)
{
    emit(s, TY(RUNTIME_EXECUTE), S, r->nc, DATA(runtime_exec, .model_id = r->model->id),
         r->span | 2);
    for (uint32_t i = 0; i < r->n_in + r->n_out; i++) {
        r->tensors[i] = ++s->next_tensor;
        emit(s, TY(TENSOR_ALLOC), I, r->nc,
             DATA(exec_tensor_alloc, .tensor_id = r->tensors[i], .size = tensor_size(i)), 0);
    }
    for (uint32_t i = 0; i < r->n_in; i++) {
        uint64_t id = r->span | (16 + i);
        const nrt_sys_trace_event_data_t *w =
            DATA(exec_tensor_write, .tensor_id = r->tensors[i], .size = tensor_size(i));
        emit(s, TY(TENSOR_WRITE), S, r->nc, w, id);
        emit(s, TY(DMEM_BUF_COPYIN), I, r->nc,
             DATA(dmem_buf_copyin, .mem_type = 1 /* host DRAM */,
                  .mem_handle = UINT64_C(0x7f0000000000) + r->tensors[i] * 4096, .offset = 0,
                  .size = tensor_size(i)),
             0);
        emit(s, TY(TENSOR_WRITE), T, r->nc, w, id);
    }
    emit(s, TY(TENSOR_WRITE_BATCH), I, r->nc,
         DATA(exec_tensor_write_batch, .num_batches = r->n_in), 0);
    emit(s, TY(DMEM_BUF_BATCH_COPYIN), I, r->nc,
         DATA(dmem_buf_batch_copyin, .mem_type = 1, .num_batches = 1, .total_num_ops = r->n_in,
              .total_size = (uint64_t)r->n_in * 4096),
         0);
    if (r->request_id % 3 == 0) /* an input still read by the previous execute */
        emit(s, TY(TENSOR_BLOCK_WHILE_EXEC), I, r->nc,
             DATA(exec_tensor_block, .tensor_id = r->tensors[0], .pending_reader_count = 1,
                  .pending_writer_count = 0),
             0);
}

static void step_pre(ntsim__sim_t *s, request_t *r)
{
    const nrt_sys_trace_event_data_t *pre =
        DATA(exec_pre, .exec_id = r->exec_id, .model_id = r->model->id);
    emit(s, TY(EXEC_PRE), S, r->nc, pre, r->span | 3);
    /* One sync point per execution, read as the runtime sets the execution
     * up, before any of its device events: the logical NC's device clock
     * (its cores share it, D-LNC) against the host's. The exporter aligns
     * the execution's device events with it (D-JSON-TIME); it names no
     * physical core. */
    emit(s, TY(TIMESTAMP_SYNC), I, r->nc,
         DATA(timestamp_sync, .exec_id = r->exec_id,
              .nc_timestamp_ns = ntsim_device_clock(s->sc, core_of(s, r->nc, 0), s->sched.now),
              .cpu_timestamp_ns = s->sched.now),
         0);
    ntsim__sim_nc_t *n = &s->nc[r->nc];
    /* Each physical core of the logical NC loads the model's program. */
    for (uint32_t j = 0; n->last_model != 0 && n->last_model != r->model->id && j < s->sc->lnc;
         j++) {
        uint32_t core = core_of(s, r->nc, j), idx = core_in_device(s, r->nc, j);
        emit(s, TY(MODEL_SWITCH), I, r->nc,
             DATA(model_switch, .device_core_idx = idx, .model_id = r->model->id,
                  .is_neuron_core_work = true),
             0);
        emit(s, TY(NC_MODEL_SWITCH), S, r->nc,
             DATA(nc_model_switch_start, .device_core_idx = idx, .model_id = r->model->id,
                  .exec_id = r->exec_id, .sync_info = sync_now(s, core)),
             per_core(r->span | 4, j));
        emit(s, TY(NC_MODEL_SWITCH), T, r->nc,
             DATA(nc_model_switch_stop, .sync_info = sync_now(s, core)),
             per_core(r->span | 4, j));
    }
    n->last_model = r->model->id;
    emit(s, TY(EXEC_PRE), T, r->nc, pre, r->span | 3);
}

/* Core j > 0 of a logical NC finishes its half of the execute a little
 * before core 0 (D-LNC): its DEVICE_EXEC STOP. */
static void core_stop_early(ntsim_sched_t *sched, void *arg, uint64_t j)
{
    (void)sched;
    request_t *r = arg;
    ntsim__sim_t *s = r->sim;
    emit(s, TY(DEVICE_EXEC), T, r->nc,
         DATA(nc_exec_stop, .sync_info = sync_now(s, core_of(s, r->nc, (uint32_t)j))),
         per_core(r->span | 6, (uint32_t)j));
}

static void step_core_start(ntsim__sim_t *s, request_t *r)
{
    emit(s, TY(EXEC_CORE), S, r->nc,
         DATA(exec_core, .exec_id = r->exec_id, .model_id = r->model->id), r->span | 5);
    /* One nc_exec_running span per physical core, each with its own
     * tracking id, the exec_id shared (D-LNC). */
    ntsim_rng_t early_stop = exec_stream(s, NTSIM_RNG_CORE_STOP, r->exec_id);
    for (uint32_t j = 0; j < s->sc->lnc; j++) {
        emit(s, TY(DEVICE_EXEC), S, r->nc,
             DATA(nc_exec_start, .device_core_idx = core_in_device(s, r->nc, j),
                  .exec_id = (uint32_t)r->exec_id, .sync_info = sync_now(s, core_of(s, r->nc, j))),
             per_core(r->span | 6, j));
        if (j > 0) {
            uint64_t early = 1 + ntsim_rng_below(&early_stop, r->exec_ns / 16 + 1);
            ntsim__sim_at(s, r->exec_ns > early ? r->exec_ns - early : 1, core_stop_early, r, j);
        }
    }
}

/* The notification queues of the device, mid-execute (spec §5 subscribe
 * lists): the TPB block {0,3,1,2,4,5}, and with collectives the TopSP block
 * {6,8,7}. Which optional ones appear is the seed's choice. */
static void post_execute_notifications(ntsim__sim_t *s, request_t *r)
{
    /* The TPB queues are per physical core: nc is the process's physical
     * core index (logical NC x LNC + j); the TopSP serves the logical NC
     * (D-LNC). With LNC 1 both are the NC. */
    ntsim_rng_t dma = exec_stream(s, NTSIM_RNG_NOTIFY_DMA, r->exec_id);
    ntsim_rng_t throttle = exec_stream(s, NTSIM_RNG_NOTIFY_THROTTLE, r->exec_id);
    for (uint32_t j = 0; j < s->sc->lnc; j++) {
        uint32_t q = r->nc * s->sc->lnc + j;
        post_notification(s, QUEUE_TPB, NOTIFICATION_TYPE_TRACE, q, r->exec_id);
        post_notification(s, QUEUE_TPB, NOTIFICATION_TYPE_INFER_STATUS, q, r->exec_id);
        post_notification(s, QUEUE_TPB, NOTIFICATION_TYPE_EVENT, q, r->exec_id);
        if (ntsim_rng_below(&dma, 2) == 0)
            post_notification(s, QUEUE_TPB, NOTIFICATION_TYPE_DMA, q, r->exec_id);
        if (ntsim_rng_below(&throttle, 4) == 0)
            post_notification(s, QUEUE_TPB, NOTIFICATION_TYPE_THROTTLE, q, r->exec_id);
        if (s->nc[r->nc].numerical_errors_pending > 0 && j == r->exec_id % s->sc->lnc)
            post_notification(s, QUEUE_TPB, NOTIFICATION_TYPE_ERROR, q, r->exec_id);
    }
    if (!r->model->collectives)
        return;
    post_notification(s, QUEUE_TOPSP, NOTIFICATION_TYPE_TOPSP_TRACE, r->nc, r->exec_id);
    post_notification(s, QUEUE_TOPSP, NOTIFICATION_TYPE_TOPSP_EVENT, r->nc, r->exec_id);
    ntsim_rng_t topsp = exec_stream(s, NTSIM_RNG_NOTIFY_TOPSP_ERROR, r->exec_id);
    if (ntsim_rng_below(&topsp, 4) == 0)
        post_notification(s, QUEUE_TOPSP, NOTIFICATION_TYPE_TOPSP_ERROR, r->nc, r->exec_id);
}

/* The collectives of an execute start on the device and on the host. */
static void start_collectives(ntsim__sim_t *s, request_t *r)
{
    /* Per logical NC, on its first core's clock (D-LNC). */
    uint32_t core = core_of(s, r->nc, 0);
    emit(s, TY(CC_EXEC_BARRIER), S, r->nc,
         DATA(cc_exec_barrier_start, .model_id = r->model->id, .exec_id = (uint32_t)r->exec_id,
              .sync_info = sync_now(s, core)),
         r->span | 7);
    emit(s, TY(CC_EXEC), S, r->nc,
         DATA(cc_exec_start, .gid = s->sc->vnc_gid[r->nc], .op_id = (uint32_t)r->op_id,
              .exec_id = (uint32_t)r->exec_id, .sync_info = sync_now(s, core),
              .algo = 1 + (uint32_t)(r->op_id % 3)),
         r->span | 8);
    int peer = (int)((r->nc + 1) % s->sc->cores);
    emit(s, TY(ENC_BARRIER_SEND), I, r->nc,
         DATA(enc_barrier_send, .peer_id = peer, .exec_id = r->exec_id, .nec_dev_id = 0), 0);
    emit(s, TY(ENC_BARRIER_RECV), I, r->nc,
         DATA(enc_barrier_recv, .peer_id = peer, .exec_id = r->exec_id, .nec_dev_id = 0), 0);
    emit(s, TY(ENC_BARRIER), I, r->nc,
         DATA(enc_barrier, .peer_id = -1 /* all peers */, .exec_id = r->exec_id,
              .nec_dev_id = 0),
         0);
    emit(s, TY(HOSTCC_EXEC), S, r->nc, DATA(hostcc_exec, .stream_id = r->nc), r->span | 9);
    emit(s, TY(HOSTCC_WAIT), I, r->nc, DATA(hostcc_wait, .total_notif_expected = 2), 0);
}

static void step_mid(ntsim__sim_t *s, request_t *r)
{
    for (uint32_t j = 0; j < s->sc->lnc; j++)
        emit(s, TY(HW_NOTIFY), I, r->nc,
             DATA(hw_notify, .device_core_idx = core_in_device(s, r->nc, j),
                  .hint = (uint16_t)(r->exec_id & 0xffff), .custom_data = (uint32_t)r->model->id,
                  .exec_id = r->exec_id, .sync_info = sync_now(s, core_of(s, r->nc, j))),
             0);
    post_execute_notifications(s, r);
    if (r->model->collectives)
        start_collectives(s, r);
}

/* The collectives end; their status goes to the EXPLICIT path (8 bytes:
 * exec id u32, op id u32). */
static void stop_collectives(ntsim__sim_t *s, request_t *r)
{
    emit(s, TY(HOSTCC_EXEC), T, r->nc, DATA(hostcc_exec, .stream_id = r->nc), r->span | 9);
    uint32_t core = core_of(s, r->nc, 0);
    emit(s, TY(CC_EXEC), T, r->nc, DATA(cc_exec_stop, .sync_info = sync_now(s, core)),
         r->span | 8);
    emit(s, TY(CC_EXEC_BARRIER), T, r->nc,
         DATA(cc_exec_barrier_stop, .sync_info = sync_now(s, core)), r->span | 7);
    uint8_t status[8];
    uint32_t e32 = (uint32_t)r->exec_id, op = (uint32_t)r->op_id;
    memcpy(status, &e32, 4);
    memcpy(status + 4, &op, 4);
    if (ntsim_explicit_append(s->explicit_notifs, r->nc, status, sizeof status) != NRT_SUCCESS)
        s->oom = true;
}

static void step_core_stop(ntsim__sim_t *s, request_t *r)
{
    if (r->model->collectives)
        stop_collectives(s, r);
    /* Core 0's span ends last; the others ended in core_stop_early. */
    emit(s, TY(DEVICE_EXEC), T, r->nc,
         DATA(nc_exec_stop, .sync_info = sync_now(s, core_of(s, r->nc, 0))), r->span | 6);
    ntsim__sim_nc_t *n = &s->nc[r->nc];
    if (n->numerical_errors_pending > 0) {
        /* Raised by one physical core of the logical NC (D-LNC). */
        uint32_t j = (uint32_t)(r->exec_id % s->sc->lnc);
        n->numerical_errors_pending--;
        emit(s, TY(NUM_ERR), I, r->nc,
             DATA(num_err, .device_core_idx = core_in_device(s, r->nc, j),
                  .exec_id = (uint32_t)r->exec_id, .sync_info = sync_now(s, core_of(s, r->nc, j))),
             0);
    }
    emit(s, TY(EXEC_CORE), T, r->nc,
         DATA(exec_core, .exec_id = r->exec_id, .model_id = r->model->id), r->span | 5);
}

static void step_wait(ntsim__sim_t *s, request_t *r)
{
    const nrt_sys_trace_event_data_t *wait =
        DATA(exec_wait, .exec_id = r->exec_id, .model_id = r->model->id);
    emit(s, TY(EXEC_WAIT), S, r->nc, wait, r->span | 10);
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
    emit(s, TY(EXEC_WAIT), T, r->nc, wait, r->span | 10);
}

static void step_post(ntsim__sim_t *s, request_t *r)
{
    uint64_t model = r->model->id;
    const nrt_sys_trace_event_data_t *post =
        DATA(exec_post, .exec_id = r->exec_id, .model_id = model);
    emit(s, TY(EXEC_POST), S, r->nc, post, r->span | 14);
    for (uint32_t i = 0; i < r->n_out; i++) {
        uint64_t t = r->tensors[r->n_in + i];
        uint64_t id = r->span | (32 + i);
        const nrt_sys_trace_event_data_t *rd =
            DATA(exec_tensor_read, .tensor_id = t, .size = tensor_size(r->n_in + i));
        emit(s, TY(TENSOR_READ), S, r->nc, rd, id);
        emit(s, TY(DMEM_BUF_COPYOUT), I, r->nc,
             DATA(dmem_buf_copyout, .mem_type = 2 /* device DRAM */,
                  .mem_handle = UINT64_C(0x4000000000) * (r->nc + 1) + t * 4096, .offset = 0,
                  .size = tensor_size(r->n_in + i)),
             0);
        emit(s, TY(TENSOR_READ), T, r->nc, rd, id);
    }
    emit(s, TY(TENSOR_READ_BATCH), I, r->nc,
         DATA(exec_tensor_read_batch, .num_batches = r->n_out), 0);
    emit(s, TY(DMEM_BUF_BATCH_COPYOUT), I, r->nc,
         DATA(dmem_buf_batch_copyout, .mem_type = 2, .num_batches = 1, .total_num_ops = r->n_out,
              .total_size = (uint64_t)r->n_out * 4096),
         0);
    for (uint32_t i = 0; i < r->n_in + r->n_out; i++)
        emit(s, TY(TENSOR_FREE), I, r->nc,
             DATA(exec_tensor_free, .tensor_id = r->tensors[i], .size = tensor_size(i),
                  .ref_count = 0),
             0);
    emit(s, TY(EXEC_POST), T, r->nc, post, r->span | 14);
    emit(s, TY(RUNTIME_EXECUTE), T, r->nc, DATA(runtime_exec, .model_id = model), r->span | 2);
    emit_seq(s, TY(EXECUTE_API), T, r->nc, DATA(nrt_exec, .model_id = model), r->span | 1,
             r->nrta_seq);
}

static void thread_next(ntsim_sched_t *sched, void *arg, uint64_t thread);

/* The runtime knows which model each execution runs (the exporters ask:
 * DEVICE_EXEC START and NUM_ERR carry model_id in JSON, D-JSON-MODEL-ID).
 * The table holds exec ids [exec_live, next_exec] from exec_first on; room
 * is made by sliding the live part to the front before growing. */
static bool register_exec(ntsim__sim_t *s, uint64_t exec_id, uint64_t model_id)
{
    if (s->exec_first == 0)
        s->exec_first = s->exec_live = exec_id;
    if (exec_id - s->exec_first >= s->exec_model_cap && s->exec_live > s->exec_first) {
        size_t keep = (size_t)(exec_id - s->exec_live);
        memmove(s->exec_models, s->exec_models + (s->exec_live - s->exec_first),
                keep * sizeof *s->exec_models);
        s->exec_first = s->exec_live;
    }
    if (exec_id - s->exec_first >= s->exec_model_cap) {
        size_t cap = s->exec_model_cap ? s->exec_model_cap * 2 : 1024;
        uint64_t *n = realloc(s->exec_models, cap * sizeof *n);
        if (n == NULL)
            return false;
        s->exec_models = n;
        s->exec_model_cap = cap;
    }
    s->exec_models[exec_id - s->exec_first] = model_id;
    if (exec_id - s->exec_live + 1 > s->exec_table_peak)
        s->exec_table_peak = exec_id - s->exec_live + 1;
    return true;
}

uint64_t ntsim__exec_model(uint64_t exec_id, void *sim)
{
    ntsim__sim_t *s = sim;
    if (exec_id >= s->exec_live && exec_id <= s->next_exec && s->exec_first != 0)
        return s->exec_models[exec_id - s->exec_first];
    if (exec_id >= 1 && exec_id <= s->next_exec)
        s->exec_lookup_misses++; /* a real execution, forgotten too early */
    return 0;
}

void ntsim__exec_forget_drained(ntsim__sim_t *s)
{
    /* Every execution older than the oldest still in flight has emitted
     * its last record, and the drain just took (or the rings lost) them. */
    uint64_t live = s->next_exec + 1;
    for (uint32_t t = 0; t < s->sc->host_threads; t++)
        if (s->thread_exec[t] != 0 && s->thread_exec[t] < live)
            live = s->thread_exec[t];
    if (s->exec_first != 0 && live > s->exec_live)
        s->exec_live = live;
}

/* Steps of one execute: each runs a part of the runtime path, then
 * schedules the next after the host (or device) time it takes. */
enum { STEP_SUBMIT, STEP_INPUTS, STEP_PRE, STEP_CORE_START, STEP_MID, STEP_CORE_STOP, STEP_WAIT,
       STEP_POST };

static void request_step(ntsim_sched_t *sched, void *arg, uint64_t step)
{
    (void)sched;
    request_t *r = arg;
    ntsim__sim_t *s = r->sim;
    s->tid = NTSIM__FIRST_HOST_TID + r->thread;
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
        s->thread_exec[r->thread] = 0;
        ntsim__sim_at(s, s->sc->request_interval_ns, thread_next, s, r->thread);
        free(r);
        return;
    }
    ntsim__sim_at(s, next, request_step, r, step + 1);
}

/* A host thread starts its next execute, unless the scenario's time is up. */
static void thread_next(ntsim_sched_t *sched, void *arg, uint64_t thread)
{
    (void)sched;
    ntsim__sim_t *s = arg;
    if (s->sched.now >= s->end_ns || ntsim__sim_failed(s))
        return;
    request_t *r = calloc(1, sizeof *r);
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
    r->model = &s->sc->models[(thread + s->thread_requests[thread]++) % s->sc->model_count];
    if (!register_exec(s, r->exec_id, r->model->id)) {
        free(r);
        s->oom = true;
        return;
    }
    s->thread_exec[thread] = r->exec_id;
    r->span = new_span(s);
    r->n_in = r->model->inputs;
    r->n_out = r->model->outputs;
    /* Device time jitters by up to 1/8 around the model's, from the seed. */
    uint64_t jitter = r->model->exec_ns / 8;
    ntsim_rng_t draw = exec_stream(s, NTSIM_RNG_EXEC_JITTER, r->exec_id);
    r->exec_ns = r->model->exec_ns - jitter / 2 + ntsim_rng_below(&draw, jitter + 1);
    if (r->exec_ns < 2)
        r->exec_ns = 2;
    request_step(&s->sched, r, STEP_SUBMIT);
}

/* --- faults -------------------------------------------------------------------- */

static void fault_fire(ntsim_sched_t *sched, void *arg, uint64_t index)
{
    (void)sched;
    ntsim__sim_t *s = arg;
    const ntsim_fault_t *f = &s->sc->faults[index];
    switch (f->kind) {
    case NTSIM_FAULT_RING_BURST:
        s->tid = NTSIM__FAULT_TID;
        for (uint64_t i = 0; i < f->events; i++)
            emit(s, TY(GENERIC), I, f->nc, NULL, 0);
        break;
    case NTSIM_FAULT_INVALID_NOTIFICATION:
        for (uint64_t i = 0; i < f->count; i++)
            post_notification(s, QUEUE_INJECTED, f->type, f->nc * s->sc->lnc, 0); /* its first core's queue */
        break;
    case NTSIM_FAULT_NUMERICAL_ERROR:
        s->nc[f->nc].numerical_errors_pending++;
        break;
    case NTSIM_FAULT_STOP_BEFORE_FETCH:
    case NTSIM_FAULT_KIND_COUNT: /* not a fault: the loader gives none */
        break; /* run.c: at the end of the run */
    }
}

void ntsim__workload_start(ntsim__sim_t *s)
{
    const ntsim_scenario_t *sc = s->sc;
    ntsim__sim_at(s, 0, load_models, s, 0);
    for (uint32_t t = 0; t < sc->host_threads; t++)
        ntsim__sim_at(s, 10 * US + t * US, thread_next, s, t);
    for (uint32_t f = 0; f < sc->fault_count; f++)
        if (sc->faults[f].kind != NTSIM_FAULT_STOP_BEFORE_FETCH)
            ntsim__sim_at(s, sc->faults[f].at_ns, fault_fire, s, f);
}
