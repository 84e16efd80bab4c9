"""abi.py: the example port's own definitions of libnrt's sys_trace ABI, as
a port to Python writes them: ctypes structures for the record, its payload
union, the capture config and the fetch options; the enums; the taxonomy of
the 46 event types. Nothing here is read from ntsim: each definition comes
from the specification (sys_trace_taxonomy.txt) and libnrt's headers, and
the runner judges whether they agree with the contract.

ctypes lays the structures out as the C compiler does (natural alignment,
the same holes and tail padding), so the sizes and offsets the testee
reports are what this port's definitions really give."""
from ctypes import Structure, Union, c_bool, c_int, c_uint8, c_uint16, c_uint32, c_uint64, sizeof
from enum import IntEnum

NC_COUNT = 256  # the config's capture_enabled_for_nc entries

# --- the taxonomy: one row per event type, in enum order ----------------------------

def ALL(member):
    """The same union member in every phase."""
    return member, member, member


# (enum name suffix, category, interned name, the union member its START,
#  STOP and INSTANT records carry or None). Category: H hardware, S software.
EVENT_TYPES = [
    ('GENERIC', 'S', 'generic', None, None, None),  # 0
    ('MODEL_LOAD', 'S', 'nrt_load', None, 'model_load_stop', None),  # 1
    ('POST_REQUEST', 'S', 'post_request', *ALL('exec_post_request')),  # 2
    ('EXECUTE_API', 'S', 'nrt_execute', *ALL('nrt_exec')),  # 3
    ('RUNTIME_EXECUTE', 'S', 'runtime_execute', *ALL('runtime_exec')),  # 4
    ('CC_LOAD', 'S', 'cc_load', 'cc_load_start', 'cc_load_stop', None),  # 5
    ('CC_EXEC_BARRIER', 'H', 'cc_exec_barrier',
     'cc_exec_barrier_start', 'cc_exec_barrier_stop', None),  # 6
    ('DEVICE_EXEC', 'H', 'nc_exec_running', 'nc_exec_start', 'nc_exec_stop', None),  # 7
    ('CC_EXEC', 'H', 'cc_running', 'cc_exec_start', 'cc_exec_stop', None),  # 8
    ('TENSOR_READ', 'S', 'nrt_tensor_read', *ALL('exec_tensor_read')),  # 9
    ('TENSOR_WRITE', 'S', 'nrt_tensor_write', *ALL('exec_tensor_write')),  # 10
    ('TENSOR_READ_BATCH', 'S', 'nrt_tensor_read_batch', *ALL('exec_tensor_read_batch')),  # 11
    ('TENSOR_WRITE_BATCH', 'S', 'nrt_tensor_write_batch', *ALL('exec_tensor_write_batch')),  # 12
    ('NUM_ERR', 'H', 'numerical_err', *ALL('num_err')),  # 13
    ('ENC_BARRIER_RECV', 'S', 'enc_barrier_recv', *ALL('enc_barrier_recv')),  # 14
    ('ENC_BARRIER_SEND', 'S', 'enc_barrier_send', *ALL('enc_barrier_send')),  # 15
    ('ENC_BARRIER', 'S', 'enc_barrier', *ALL('enc_barrier')),  # 16
    ('EXEC_PRE', 'S', 'kbl_exec_pre', *ALL('exec_pre')),  # 17
    ('EXEC_CORE', 'S', 'kmgr_exec_core', *ALL('exec_core')),  # 18
    ('EXEC_WAIT', 'S', 'kbl_exec_wait', *ALL('exec_wait')),  # 19
    ('EXEC_POST', 'S', 'kbl_exec_post', *ALL('exec_post')),  # 20
    ('MODEL_SWITCH', 'S', 'model_switch', *ALL('model_switch')),  # 21
    ('MODEL_SUBMIT', 'S', 'nrt_model_submit', *ALL('model_submit')),  # 22
    ('ASYNC_SEMA_WAIT', 'S', 'nrt_async_sema_wait', *ALL('async_sema_wait')),  # 23
    ('HW_NOTIFY', 'H', 'hw_notify', *ALL('hw_notify')),  # 24
    ('TIMESTAMP_SYNC', 'H', 'timestamp_sync_point', *ALL('timestamp_sync')),  # 25
    ('NC_MODEL_SWITCH', 'H', 'nc_model_switch',
     'nc_model_switch_start', 'nc_model_switch_stop', None),  # 26
    ('TENSOR_ALLOC', 'S', 'nrt_tensor_allocate', *ALL('exec_tensor_alloc')),  # 27
    ('TENSOR_FREE', 'S', 'nrt_tensor_free', *ALL('exec_tensor_free')),  # 28
    ('TENSOR_BLOCK_WHILE_EXEC', 'S', 'tensor_block_while_exec', *ALL('exec_tensor_block')),  # 29
    ('DMEM_BUF_COPYIN', 'S', 'dmem_buf_copyin', *ALL('dmem_buf_copyin')),  # 30
    ('DMEM_BUF_COPYOUT', 'S', 'dmem_buf_copyout', *ALL('dmem_buf_copyout')),  # 31
    ('DMEM_BUF_BATCH_COPYIN', 'S', 'dmem_buf_batch_copyin', *ALL('dmem_buf_batch_copyin')),  # 32
    ('DMEM_BUF_BATCH_COPYOUT', 'S', 'dmem_buf_batch_copyout', *ALL('dmem_buf_batch_copyout')),  # 33
    ('DMA_MEM_ALLOC', 'S', 'nrt_dma_mem_alloc',
     'dma_mem_alloc_start', 'dma_mem_alloc_stop', 'dma_mem_alloc_start'),  # 34
    ('DMA_MEM_DEALLOC', 'S', 'nrt_dma_mem_dealloc',
     'dma_mem_dealloc_start', 'dma_mem_dealloc_stop', 'dma_mem_dealloc_start'),  # 35
    ('CONSUME_TPB_STATUS_NOTIFICATIONS', 'S', 'exec_consume_tpb_status_notifications',
     None, None, None),  # 36
    ('CONSUME_TOPSP_CC_NOTIFICATIONS', 'S', 'exec_consume_cc_core_notifications',
     None, None, None),  # 37
    ('CONSUME_ERROR_NOTIFICATIONS', 'S', 'notification_consume_errors', None, None, None),  # 38
    ('CONSUME_POOL_STDIO', 'S', 'exec_consume_gpsimd_stdio', None, None, None),  # 39
    ('CC_PREPARE', 'S', 'cc_prepare', *ALL('hostcc_prepare')),  # 40
    ('CC_SCHEDULE', 'S', 'cc_schedule', *ALL('hostcc_schedule')),  # 41
    ('HOSTCC_BUILD_CONTEXT', 'S', 'hostcc_build_context', *ALL('hostcc_build_ctx')),  # 42
    ('HOSTCC_LOAD', 'S', 'hostcc_load', *ALL('hostcc_load')),  # 43
    ('HOSTCC_EXEC', 'S', 'hostcc_exec', *ALL('hostcc_exec')),  # 44
    ('HOSTCC_WAIT', 'S', 'hostcc_wait', *ALL('hostcc_wait')),  # 45
]
EVENT_TYPE_COUNT = len(EVENT_TYPES)

# --- the enums -------------------------------------------------------------------

nrt_sys_trace_event_type = IntEnum(
    'nrt_sys_trace_event_type',
    [(f'NRT_SYS_TRACE_EVENT_TYPE_{row[0]}', value) for value, row in enumerate(EVENT_TYPES)]
    + [('NRT_SYS_TRACE_EVENT_TYPE_COUNT', EVENT_TYPE_COUNT)])


class nrt_sys_trace_event_phase(IntEnum):
    NRT_SYS_TRACE_EVENT_PHASE_START = 0
    NRT_SYS_TRACE_EVENT_PHASE_STOP = 1
    NRT_SYS_TRACE_EVENT_PHASE_INSTANT = 2
    NRT_SYS_TRACE_EVENT_PHASE_COUNT = 3


class nrt_sys_trace_event_category(IntEnum):
    NRT_SYS_TRACE_EVENT_CATEGORY_UNKNOWN = 0
    NRT_SYS_TRACE_EVENT_CATEGORY_HARDWARE = 1
    NRT_SYS_TRACE_EVENT_CATEGORY_SOFTWARE = 2
    NRT_SYS_TRACE_EVENT_CATEGORY_COUNT = 3


dma_mem_usage_type = IntEnum('dma_mem_usage_type', [
    (f'DMA_MEM_USAGE_TYPE_{name}', value) for value, name in enumerate(
        'GENERIC INSTR_PE INSTR_ACT INSTR_POOL IO DRAM_SPILL WEIGHT NOTIFICATION ACT_TABLE '
        'INSTR_DVE INSTR_SP SCRATCHPAD TENSOR UCODE_LIB POOL_STDIO CC SCRATCHPAD_NOT_SHARED XT_CC '
        'DMA_RING DMA_RING_SPILL DMA_RING_IO DMA_RING_COLLECTIVES MAX'.split())])

NRT_STATUS = IntEnum('NRT_STATUS', [
    ('NRT_SUCCESS', 0), ('NRT_FAILURE', 1), ('NRT_INVALID', 2), ('NRT_INVALID_HANDLE', 3),
    ('NRT_RESOURCE', 4), ('NRT_TIMEOUT', 5), ('NRT_HW_ERROR', 6), ('NRT_QUEUE_FULL', 7),
    ('NRT_LOAD_NOT_ENOUGH_NC', 9), ('NRT_UNSUPPORTED_NEFF_VERSION', 10),
    ('NRT_FAIL_HOST_MEM_ALLOC', 11), ('NRT_UNINITIALIZED', 13), ('NRT_CLOSED', 14),
    ('NRT_QUEUE_EMPTY', 15), ('NRT_EXEC_UNIT_UNRECOVERABLE', 101), ('NRT_EXEC_BAD_INPUT', 1002),
    ('NRT_EXEC_COMPLETED_WITH_NUM_ERR', 1003), ('NRT_EXEC_COMPLETED_WITH_ERR', 1004),
    ('NRT_EXEC_NC_BUSY', 1005), ('NRT_EXEC_OOB', 1006), ('NRT_COLL_PENDING', 1100),
    ('NRT_EXEC_HW_ERR_COLLECTIVES', 1200), ('NRT_EXEC_HW_ERR_HBM_UE', 1201),
    ('NRT_EXEC_HW_ERR_NC_UE', 1202), ('NRT_EXEC_HW_ERR_DMA_ABORT', 1203),
    ('NRT_EXEC_SW_NQ_OVERFLOW', 1204), ('NRT_EXEC_HW_ERR_REPAIRABLE_HBM_UE', 1205),
    ('NRT_NETWORK_PROXY_FAILURE', 1206)])

INT_MIN, INT_MAX = -2**31, 2**31 - 1


class notification_type(IntEnum):
    NOTIFICATION_TYPE_TRACE = 0
    NOTIFICATION_TYPE_EVENT = 1
    NOTIFICATION_TYPE_ERROR = 2
    NOTIFICATION_TYPE_INFER_STATUS = 3
    NOTIFICATION_TYPE_DMA = 4
    NOTIFICATION_TYPE_THROTTLE = 5
    NOTIFICATION_TYPE_TOPSP_TRACE = 6
    NOTIFICATION_TYPE_TOPSP_EVENT = 7
    NOTIFICATION_TYPE_TOPSP_ERROR = 8
    NOTIFICATION_TYPE_TOPSP_CC_STATUS = 9
    NOTIFICATION_TYPE_MAX = 10


class notification_trace_type(IntEnum):
    NOTIFICATION_TRACE_TYPE_INSTRUCTION = 0
    NOTIFICATION_TRACE_TYPE_EVENT = 1
    NOTIFICATION_TRACE_TYPE_ERROR = 2
    NOTIFICATION_TRACE_TYPE_EXPLICIT = 3
    NOTIFICATION_TRACE_TYPE_DMA = 4
    NOTIFICATION_TRACE_TYPE_THROTTLE = 5
    NOTIFICATION_TRACE_TYPE_INT_MIN_SENTINEL_DO_NOT_USE_ = INT_MIN
    NOTIFICATION_TRACE_TYPE_INT_MAX_SENTINEL_DO_NOT_USE_ = INT_MAX


class block_type(IntEnum):
    BLOCK_TYPE_NC = 0
    BLOCK_TYPE_DMA = 1
    BLOCK_TYPE_TOPSP = 2
    BLOCK_TYPE_INT_MIN_SENTINEL_DO_NOT_USE_ = INT_MIN
    BLOCK_TYPE_INT_MAX_SENTINEL_DO_NOT_USE_ = INT_MAX


# Each enum by the names a C program spells its type with; all are 4 bytes
# (a C enum whose values fit an int is an int).
ENUMS = {
    'enum nrt_sys_trace_event_type': nrt_sys_trace_event_type,
    'nrt_sys_trace_event_type_t': nrt_sys_trace_event_type,
    'enum nrt_sys_trace_event_phase': nrt_sys_trace_event_phase,
    'nrt_sys_trace_event_phase_t': nrt_sys_trace_event_phase,
    'enum nrt_sys_trace_event_category': nrt_sys_trace_event_category,
    'nrt_sys_trace_event_category_t': nrt_sys_trace_event_category,
    'enum dma_mem_usage_type': dma_mem_usage_type,
    'dma_mem_usage_type_t': dma_mem_usage_type,
    'NRT_STATUS': NRT_STATUS,
    'enum notification_type': notification_type,
    'enum notification_trace_type': notification_trace_type,
    'enum block_type': block_type,
}
ENUM_SIZE = sizeof(c_int)


# --- the structures --------------------------------------------------------------
#
# The C typedefs of scalar types are subclasses of their ctypes type: the
# same size and alignment, and a name the layout reply reports.
class nrt_sys_trace_event_type_t(c_int):
    pass


class nrt_sys_trace_event_phase_t(c_int):
    pass


class dma_mem_usage_type_t(c_int):
    pass


class nrta_seq_t(c_uint64):
    pass


class Payload(Structure):
    """A payload struct of the record's data union (spec §3)."""


class nrt_sys_trace_event_data_sync_info(Payload):
    _word_ = 'sync_info'  # what a payload field of this type is called (spec §3)
    _fields_ = [('nc_timestamp_ns', c_uint64), ('cpu_timestamp_ns', c_uint64)]


class nrt_sys_trace_event_data_exec_pre(Payload):
    _fields_ = [('exec_id', c_uint64), ('model_id', c_uint64)]


class nrt_sys_trace_event_data_exec_core(Payload):
    _fields_ = [('exec_id', c_uint64), ('model_id', c_uint64)]


class nrt_sys_trace_event_data_exec_wait(Payload):
    _fields_ = [('exec_id', c_uint64), ('model_id', c_uint64)]


class nrt_sys_trace_event_data_exec_post(Payload):
    _fields_ = [('exec_id', c_uint64), ('model_id', c_uint64)]


class nrt_sys_trace_event_data_model_exec(Payload):
    _fields_ = [('exec_id', c_uint64), ('model_id', c_uint64)]


class nrt_sys_trace_event_data_nrt_exec(Payload):
    _fields_ = [('model_id', c_uint64)]


class nrt_sys_trace_event_data_runtime_exec(Payload):
    _fields_ = [('model_id', c_uint64)]


class nrt_sys_trace_event_data_model_load_stop(Payload):
    _fields_ = [('model_id', c_uint64)]


class nrt_sys_trace_event_data_model_submit(Payload):
    _fields_ = [('model_id', c_uint64)]


class nrt_sys_trace_event_data_cc_load_stop(Payload):
    _fields_ = [('model_id', c_uint64)]


class nrt_sys_trace_event_data_exec_post_request(Payload):
    _fields_ = [('model_id', c_uint64), ('request_id', c_uint32)]


class nrt_sys_trace_event_data_cc_load_start(Payload):
    _fields_ = [('g_device_id', c_uint32), ('g_device_count', c_uint32)]


class nrt_sys_trace_event_data_nc_exec_start(Payload):
    _fields_ = [('device_core_idx', c_uint32), ('exec_id', c_uint32),
                ('sync_info', nrt_sys_trace_event_data_sync_info)]


class nrt_sys_trace_event_data_cc_exec_start(Payload):
    _fields_ = [('gid', c_uint32), ('op_id', c_uint32), ('exec_id', c_uint32),
                ('sync_info', nrt_sys_trace_event_data_sync_info), ('algo', c_uint32)]


class nrt_sys_trace_event_data_cc_exec_barrier_start(Payload):
    _fields_ = [('model_id', c_uint64), ('exec_id', c_uint32),
                ('sync_info', nrt_sys_trace_event_data_sync_info)]


class nrt_sys_trace_event_data_nc_model_switch_start(Payload):
    _fields_ = [('device_core_idx', c_uint32), ('model_id', c_uint64), ('exec_id', c_uint64),
                ('sync_info', nrt_sys_trace_event_data_sync_info)]


class nrt_sys_trace_event_data_nc_exec_stop(Payload):
    _fields_ = [('sync_info', nrt_sys_trace_event_data_sync_info)]


class nrt_sys_trace_event_data_cc_exec_stop(Payload):
    _fields_ = [('sync_info', nrt_sys_trace_event_data_sync_info)]


class nrt_sys_trace_event_data_cc_exec_barrier_stop(Payload):
    _fields_ = [('sync_info', nrt_sys_trace_event_data_sync_info)]


class nrt_sys_trace_event_data_nc_model_switch_stop(Payload):
    _fields_ = [('sync_info', nrt_sys_trace_event_data_sync_info)]


class nrt_sys_trace_event_data_hw_notify(Payload):
    _fields_ = [('device_core_idx', c_uint32), ('hint', c_uint16), ('custom_data', c_uint32),
                ('exec_id', c_uint64), ('sync_info', nrt_sys_trace_event_data_sync_info)]


class nrt_sys_trace_event_data_num_err(Payload):
    _fields_ = [('device_core_idx', c_uint32), ('exec_id', c_uint32),
                ('sync_info', nrt_sys_trace_event_data_sync_info)]


class nrt_sys_trace_event_data_timestamp_sync(Payload):
    _fields_ = [('exec_id', c_uint64), ('nc_timestamp_ns', c_uint64),
                ('cpu_timestamp_ns', c_uint64)]


class nrt_sys_trace_event_data_model_switch(Payload):
    _fields_ = [('device_core_idx', c_uint32), ('model_id', c_uint64),
                ('is_neuron_core_work', c_bool)]


class nrt_sys_trace_event_data_async_sema_wait(Payload):
    _fields_ = [('available_request_slots', c_uint64), ('has_work', c_bool)]


class nrt_sys_trace_event_data_exec_tensor_read(Payload):
    _fields_ = [('tensor_id', c_uint64), ('size', c_uint64)]


class nrt_sys_trace_event_data_exec_tensor_write(Payload):
    _fields_ = [('tensor_id', c_uint64), ('size', c_uint64)]


class nrt_sys_trace_event_data_exec_tensor_alloc(Payload):
    _fields_ = [('tensor_id', c_uint64), ('size', c_uint64)]


class nrt_sys_trace_event_data_exec_tensor_free(Payload):
    _fields_ = [('tensor_id', c_uint64), ('size', c_uint64), ('ref_count', c_uint64)]


class nrt_sys_trace_event_data_exec_tensor_block(Payload):
    _fields_ = [('tensor_id', c_uint64), ('pending_reader_count', c_uint64),
                ('pending_writer_count', c_uint64)]


class nrt_sys_trace_event_data_exec_tensor_read_batch(Payload):
    _fields_ = [('num_batches', c_uint32)]


class nrt_sys_trace_event_data_exec_tensor_write_batch(Payload):
    _fields_ = [('num_batches', c_uint32)]


class nrt_sys_trace_event_data_dmem_buf_copyin(Payload):
    _fields_ = [('mem_type', c_uint8), ('mem_handle', c_uint64), ('offset', c_uint32),
                ('size', c_uint32)]


class nrt_sys_trace_event_data_dmem_buf_copyout(Payload):
    _fields_ = [('mem_type', c_uint8), ('mem_handle', c_uint64), ('offset', c_uint32),
                ('size', c_uint32)]


class nrt_sys_trace_event_data_dmem_buf_batch_copyin(Payload):
    _fields_ = [('mem_type', c_uint8), ('num_batches', c_uint32), ('total_num_ops', c_uint32),
                ('total_size', c_uint64)]


class nrt_sys_trace_event_data_dmem_buf_batch_copyout(Payload):
    _fields_ = [('mem_type', c_uint8), ('num_batches', c_uint32), ('total_num_ops', c_uint32),
                ('total_size', c_uint64)]


class nrt_sys_trace_event_data_enc_barrier_recv(Payload):
    _fields_ = [('peer_id', c_int), ('exec_id', c_uint64), ('nec_dev_id', c_int)]


class nrt_sys_trace_event_data_enc_barrier_send(Payload):
    _fields_ = [('peer_id', c_int), ('exec_id', c_uint64), ('nec_dev_id', c_int)]


class nrt_sys_trace_event_data_enc_barrier(Payload):
    _fields_ = [('peer_id', c_int), ('exec_id', c_uint64), ('nec_dev_id', c_int)]


class nrt_sys_trace_event_data_dma_mem_alloc_start(Payload):
    _fields_ = [('hbm_idx', c_uint32), ('usage_type', dma_mem_usage_type_t), ('is_nc_hbm', c_bool),
                ('is_aligned', c_bool), ('mla_idx', c_uint32)]


class nrt_sys_trace_event_data_dma_mem_alloc_stop(Payload):
    _fields_ = [('allocated_bytes', c_uint64), ('physical_address', c_uint64),
                ('return_code', c_uint64), ('usage_type_total_bytes', c_uint64),
                ('total_bytes', c_uint64)]


class nrt_sys_trace_event_data_dma_mem_dealloc_start(Payload):
    _fields_ = [('hbm_idx', c_uint32), ('is_nc_hbm', c_bool), ('mla_idx', c_uint32),
                ('usage_type', dma_mem_usage_type_t), ('physical_address', c_uint64)]


class nrt_sys_trace_event_data_dma_mem_dealloc_stop(Payload):
    _fields_ = [('freed_bytes', c_uint64), ('usage_type_total_bytes', c_uint64),
                ('total_bytes', c_uint64)]


class nrt_sys_trace_event_data_hostcc_prepare(Payload):
    _fields_ = [('ctx_device_id', c_uint32), ('ctx_device_count', c_uint32), ('cc_op', c_uint32)]


class nrt_sys_trace_event_data_hostcc_schedule(Payload):
    _fields_ = [('ctx_device_id', c_uint32), ('ctx_device_count', c_uint32)]


class nrt_sys_trace_event_data_hostcc_build_ctx(Payload):
    _fields_ = [('ctx_device_id', c_uint32), ('ctx_device_count', c_uint32)]


class nrt_sys_trace_event_data_hostcc_load(Payload):
    _fields_ = [('enc_op', c_uint32), ('dtype', c_uint32), ('num_elem', c_uint64)]


class nrt_sys_trace_event_data_hostcc_exec(Payload):
    _fields_ = [('stream_id', c_uint32)]


class nrt_sys_trace_event_data_hostcc_wait(Payload):
    _fields_ = [('total_notif_expected', c_uint32)]


class nrt_sys_trace_event_data_t(Union):
    _fields_ = [('exec_pre', nrt_sys_trace_event_data_exec_pre),
                ('exec_core', nrt_sys_trace_event_data_exec_core),
                ('exec_wait', nrt_sys_trace_event_data_exec_wait),
                ('exec_post', nrt_sys_trace_event_data_exec_post),
                ('model_exec', nrt_sys_trace_event_data_model_exec),
                ('nrt_exec', nrt_sys_trace_event_data_nrt_exec),
                ('runtime_exec', nrt_sys_trace_event_data_runtime_exec),
                ('model_load_stop', nrt_sys_trace_event_data_model_load_stop),
                ('model_submit', nrt_sys_trace_event_data_model_submit),
                ('cc_load_stop', nrt_sys_trace_event_data_cc_load_stop),
                ('exec_post_request', nrt_sys_trace_event_data_exec_post_request),
                ('cc_load_start', nrt_sys_trace_event_data_cc_load_start),
                ('nc_exec_start', nrt_sys_trace_event_data_nc_exec_start),
                ('nc_exec_stop', nrt_sys_trace_event_data_nc_exec_stop),
                ('cc_exec_start', nrt_sys_trace_event_data_cc_exec_start),
                ('cc_exec_stop', nrt_sys_trace_event_data_cc_exec_stop),
                ('cc_exec_barrier_start', nrt_sys_trace_event_data_cc_exec_barrier_start),
                ('cc_exec_barrier_stop', nrt_sys_trace_event_data_cc_exec_barrier_stop),
                ('nc_model_switch_start', nrt_sys_trace_event_data_nc_model_switch_start),
                ('nc_model_switch_stop', nrt_sys_trace_event_data_nc_model_switch_stop),
                ('hw_notify', nrt_sys_trace_event_data_hw_notify),
                ('num_err', nrt_sys_trace_event_data_num_err),
                ('timestamp_sync', nrt_sys_trace_event_data_timestamp_sync),
                ('model_switch', nrt_sys_trace_event_data_model_switch),
                ('async_sema_wait', nrt_sys_trace_event_data_async_sema_wait),
                ('exec_tensor_read', nrt_sys_trace_event_data_exec_tensor_read),
                ('exec_tensor_write', nrt_sys_trace_event_data_exec_tensor_write),
                ('exec_tensor_alloc', nrt_sys_trace_event_data_exec_tensor_alloc),
                ('exec_tensor_free', nrt_sys_trace_event_data_exec_tensor_free),
                ('exec_tensor_block', nrt_sys_trace_event_data_exec_tensor_block),
                ('exec_tensor_read_batch', nrt_sys_trace_event_data_exec_tensor_read_batch),
                ('exec_tensor_write_batch', nrt_sys_trace_event_data_exec_tensor_write_batch),
                ('dmem_buf_copyin', nrt_sys_trace_event_data_dmem_buf_copyin),
                ('dmem_buf_copyout', nrt_sys_trace_event_data_dmem_buf_copyout),
                ('dmem_buf_batch_copyin', nrt_sys_trace_event_data_dmem_buf_batch_copyin),
                ('dmem_buf_batch_copyout', nrt_sys_trace_event_data_dmem_buf_batch_copyout),
                ('enc_barrier_recv', nrt_sys_trace_event_data_enc_barrier_recv),
                ('enc_barrier_send', nrt_sys_trace_event_data_enc_barrier_send),
                ('enc_barrier', nrt_sys_trace_event_data_enc_barrier),
                ('dma_mem_alloc_start', nrt_sys_trace_event_data_dma_mem_alloc_start),
                ('dma_mem_alloc_stop', nrt_sys_trace_event_data_dma_mem_alloc_stop),
                ('dma_mem_dealloc_start', nrt_sys_trace_event_data_dma_mem_dealloc_start),
                ('dma_mem_dealloc_stop', nrt_sys_trace_event_data_dma_mem_dealloc_stop),
                ('hostcc_prepare', nrt_sys_trace_event_data_hostcc_prepare),
                ('hostcc_schedule', nrt_sys_trace_event_data_hostcc_schedule),
                ('hostcc_build_ctx', nrt_sys_trace_event_data_hostcc_build_ctx),
                ('hostcc_load', nrt_sys_trace_event_data_hostcc_load),
                ('hostcc_exec', nrt_sys_trace_event_data_hostcc_exec),
                ('hostcc_wait', nrt_sys_trace_event_data_hostcc_wait)]


class nrt_sys_trace_event_t(Structure):
    _fields_ = [('trace_type', nrt_sys_trace_event_type_t), ('thread_id', c_uint64),
                ('id', c_uint64), ('nc_local_id', c_uint64), ('tracking_id', c_uint64),
                ('timestamp_ns', c_uint64), ('data', nrt_sys_trace_event_data_t),
                ('phase', nrt_sys_trace_event_phase_t), ('nc_idx', c_uint32),
                ('nrta_seq_id', nrta_seq_t), ('has_nrta_seq_id', c_bool)]


class nrt_sys_trace_config_t(Structure):
    _fields_ = [('max_events_per_nc', c_uint64), ('capture_enabled_for_nc', c_bool * NC_COUNT),
                ('capture_enabled_for_event_type', c_bool * EVENT_TYPE_COUNT)]


class nrt_sys_trace_fetch_options_t(Structure):
    _fields_ = [('max_events_per_nc', c_uint64), ('nc_idx', c_int)]


# Every structure a layout request may name, by its C spelling.
LAYOUTS = {f'struct {cls.__name__}': cls for cls in Payload.__subclasses__()}
LAYOUTS.update({cls.__name__: cls for cls in (nrt_sys_trace_event_t, nrt_sys_trace_event_data_t,
                                                nrt_sys_trace_config_t,
                                                nrt_sys_trace_fetch_options_t)})

SCALAR_WORDS = {c_uint8: 'uint8', c_uint16: 'uint16', c_uint32: 'uint32', c_uint64: 'uint64',
                c_int: 'int', c_bool: 'bool'}


def type_word(ctype, in_union=False):
    """The word a layout reply gives a field's type (TESTEE.md, "Type words"):
    the spec's word for a scalar, a typedef's own name, `struct NAME` for a
    member of the union, an array as ELEMENT[N]."""
    if hasattr(ctype, '_length_'):
        return f'{type_word(ctype._type_)}[{ctype._length_}]'
    if ctype in SCALAR_WORDS:
        return SCALAR_WORDS[ctype]
    if issubclass(ctype, Union) or ctype.__bases__[0] in SCALAR_WORDS:
        return ctype.__name__
    return f'struct {ctype.__name__}' if in_union else ctype._word_


def layout(c_type):
    """(size, [(name, offset, size, word)]) of a structure, or None."""
    cls = LAYOUTS.get(c_type)
    if cls is None:
        return None
    fields = []
    for name, ctype in cls._fields_:
        desc = getattr(cls, name)
        fields.append((name, desc.offset, desc.size, type_word(ctype, issubclass(cls, Union))))
    return sizeof(cls), fields
