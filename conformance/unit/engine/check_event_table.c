/*
 * conformance/unit/engine/check_event_table.c: the one table's invariants and views.
 *
 * The per-row values are pinned by vectors/event_types.yaml; these tests pin
 * what must hold across rows and at the edges of the lookups.
 */
#include <string.h>

#include "check_suites.h"
#include "event_table.h"

START_TEST(test_event_table_row_index_is_the_enum_value)
{
    for (unsigned t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++) {
        ck_assert_ptr_nonnull(ntsim__event_types[t].enum_name);
        ck_assert_uint_eq((unsigned)ntsim__event_types[t].type, t);
        ck_assert_ptr_eq(ntsim__event_type_desc(t), &ntsim__event_types[t]);
    }
}
END_TEST

START_TEST(test_event_table_names_are_unique)
{
    for (unsigned a = 0; a < NRT_SYS_TRACE_EVENT_TYPE_COUNT; a++)
        for (unsigned b = a + 1; b < NRT_SYS_TRACE_EVENT_TYPE_COUNT; b++) {
            ck_assert_str_ne(ntsim__event_types[a].json_name, ntsim__event_types[b].json_name);
        }
}
END_TEST

/* D-NAMES: the public API's names are the interned names, which are the
 * JSON event_type names: lower case, digits and '_' only, at most 63 bytes
 * (they are escaped into fixed buffers without quoting problems). */
START_TEST(test_event_table_names_are_plain_identifiers)
{
    for (unsigned t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++) {
        const char *name = ntsim__event_types[t].json_name;
        ck_assert_uint_gt(strlen(name), 0);
        ck_assert_uint_lt(strlen(name), 64);
        for (const char *c = name; *c; c++)
            ck_assert_msg((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_',
                          "%s: '%c'", name, *c);
    }
}
END_TEST

/* spec §1 NOTE: every payload fits the 40-byte slot; spec §3: fields lie
 * inside their struct, in increasing offset order, without overlap. */
START_TEST(test_every_payload_fits_the_40_byte_slot)
{
    for (unsigned p = 1; p < NTSIM_PAYLOAD_COUNT; p++) {
        const ntsim_payload_desc_t *d = &ntsim__payloads[p];
        ck_assert_uint_le(d->size, 40);
        ck_assert_uint_eq(d->union_offset, 0);
        ck_assert_uint_ge(d->field_count, 1);
        size_t end = 0;
        for (size_t i = 0; i < d->field_count; i++) {
            ck_assert_msg(d->fields[i].offset >= end, "%s.%s overlaps its predecessor",
                          d->member, d->fields[i].name);
            end = d->fields[i].offset + d->fields[i].size;
            ck_assert_uint_le(end, d->size);
        }
    }
}
END_TEST

/* The three union-sizing payloads of spec §1 are exactly 40 bytes. */
START_TEST(test_union_is_sized_by_its_largest_members)
{
    ck_assert_uint_eq(ntsim__payload_by_member("cc_exec_start")->size, 40);
    ck_assert_uint_eq(ntsim__payload_by_member("hw_notify")->size, 40);
    ck_assert_uint_eq(ntsim__payload_by_member("nc_model_switch_start")->size, 40);
    ck_assert_uint_eq(sizeof(nrt_sys_trace_event_data_t), 40);
}
END_TEST

/* Every payload is carried by some (type, phase), except model_exec, which
 * the spec declares but no type reads (D-MODEL-EXEC). */
START_TEST(test_every_payload_but_model_exec_is_carried)
{
    for (unsigned p = 1; p < NTSIM_PAYLOAD_COUNT; p++) {
        bool used = false;
        for (unsigned t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
            for (unsigned ph = 0; ph < NRT_SYS_TRACE_EVENT_PHASE_COUNT; ph++)
                used |= ntsim__event_payload(t, ph) == (ntsim_payload_id_t)p;
        if (p == NTSIM_PAYLOAD_MODEL_EXEC)
            ck_assert_msg(!used, "model_exec is carried by a type: update D-MODEL-EXEC");
        else
            ck_assert_msg(used, "payload %s is carried by no (type, phase)",
                          ntsim__payloads[p].member);
    }
}
END_TEST

/* spec §2 QUIRK: GENERIC and the four CONSUME_* types carry no payload. */
START_TEST(test_generic_and_consume_types_carry_no_payload)
{
    const unsigned none[] = {0, 36, 37, 38, 39};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
        for (unsigned ph = 0; ph < NRT_SYS_TRACE_EVENT_PHASE_COUNT; ph++)
            ck_assert_int_eq(ntsim__event_payload(none[i], ph), NTSIM_PAYLOAD_NONE);
    /* ... so the table's "none" row is an empty struct: no bytes, no fields. */
    const ntsim_payload_desc_t *d = &ntsim__payloads[NTSIM_PAYLOAD_NONE];
    ck_assert_uint_eq(d->size, 0);
    ck_assert_uint_eq(d->union_offset, 0);
    ck_assert_uint_eq(d->field_count, 0);
    ck_assert_ptr_null(d->fields);
}
END_TEST

/* spec §3 NOTE: (type, phase) jointly select the member. */
START_TEST(test_start_and_stop_select_different_members)
{
    ck_assert_int_eq(ntsim__event_payload(8, NRT_SYS_TRACE_EVENT_PHASE_START),
                     NTSIM_PAYLOAD_CC_EXEC_START);
    ck_assert_int_eq(ntsim__event_payload(8, NRT_SYS_TRACE_EVENT_PHASE_STOP),
                     NTSIM_PAYLOAD_CC_EXEC_STOP);
    ck_assert_int_eq(ntsim__event_payload(26, NRT_SYS_TRACE_EVENT_PHASE_START),
                     NTSIM_PAYLOAD_NC_MODEL_SWITCH_START);
    ck_assert_int_eq(ntsim__event_payload(26, NRT_SYS_TRACE_EVENT_PHASE_STOP),
                     NTSIM_PAYLOAD_NC_MODEL_SWITCH_STOP);
}
END_TEST

START_TEST(test_out_of_range_type_or_phase_selects_no_payload)
{
    ck_assert_int_eq(ntsim__event_payload(NRT_SYS_TRACE_EVENT_TYPE_COUNT, 0), NTSIM_PAYLOAD_NONE);
    ck_assert_int_eq(ntsim__event_payload(UINT32_MAX, 0), NTSIM_PAYLOAD_NONE);
    ck_assert_int_eq(ntsim__event_payload(24, 3), NTSIM_PAYLOAD_NONE);
    ck_assert_int_eq(ntsim__event_payload(24, UINT32_MAX), NTSIM_PAYLOAD_NONE);
    ck_assert_ptr_null(ntsim__event_type_desc(NRT_SYS_TRACE_EVENT_TYPE_COUNT));
}
END_TEST

/* facts §1: t > 45 is UNKNOWN; HARDWARE is exactly {6,7,8,13,24,25,26}. */
START_TEST(test_category_matches_the_hardware_bitmap)
{
    /* facts §1: for 6..26 the category is 2 - bit(0x70021C0, t). */
    for (unsigned t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++) {
        unsigned want = (t >= 6 && t <= 26) ? 2u - ((0x70021C0u >> t) & 1u) : 2u;
        ck_assert_uint_eq((unsigned)ntsim__event_category(t), want);
    }
    ck_assert_int_eq(ntsim__event_category(NRT_SYS_TRACE_EVENT_TYPE_COUNT), NRT_SYS_TRACE_EVENT_CATEGORY_UNKNOWN);
    ck_assert_int_eq(ntsim__event_category(UINT32_MAX), NRT_SYS_TRACE_EVENT_CATEGORY_UNKNOWN);
}
END_TEST

START_TEST(test_lookups_by_name)
{
    ck_assert_int_eq(ntsim__event_type_by_json_name("hw_notify")->type, 24);
    ck_assert_int_eq(ntsim__event_type_by_json_name("nc_exec_running")->type, 7);
    ck_assert_ptr_null(ntsim__event_type_by_json_name("device_exec")); /* the enum suffix */
    ck_assert_int_eq(ntsim__event_type_by_enum_name("NRT_SYS_TRACE_EVENT_TYPE_HOSTCC_WAIT")->type,
                     45);
    ck_assert_ptr_null(ntsim__event_type_by_json_name("HW_NOTIFY"));
    ck_assert_ptr_null(ntsim__event_type_by_json_name(NULL));
    ck_assert_ptr_null(ntsim__event_type_by_enum_name("NRT_SYS_TRACE_EVENT_TYPE_COUNT"));
    ck_assert_str_eq(ntsim__payload_by_member("exec_tensor_read_batch")->c_type,
                     "struct nrt_sys_trace_event_data_exec_tensor_read_batch");
    ck_assert_ptr_null(ntsim__payload_by_member("none"));
    /* every member of spec §3, the first of the table's rows included */
    for (unsigned p = 1; p < NTSIM_PAYLOAD_COUNT; p++)
        ck_assert_ptr_eq(ntsim__payload_by_member(ntsim__payloads[p].member), &ntsim__payloads[p]);
    ck_assert_ptr_null(ntsim__payload_by_member(NULL));
}
END_TEST

/* spec §3 GOTCHA: hint is a uint16; peer_id is a C int; usage_type is the enum. */
START_TEST(test_field_kinds_follow_the_c_types)
{
    const ntsim_payload_desc_t *hw = ntsim__payload_by_member("hw_notify");
    ck_assert_str_eq(hw->fields[1].name, "hint");
    ck_assert_int_eq(hw->fields[1].kind, NTSIM_FIELD_U16);
    ck_assert_int_eq(hw->fields[4].kind, NTSIM_FIELD_SYNC_INFO);
    ck_assert_int_eq(ntsim__payload_by_member("enc_barrier")->fields[0].kind, NTSIM_FIELD_INT);
    ck_assert_int_eq(ntsim__payload_by_member("dma_mem_alloc_start")->fields[1].kind,
                     NTSIM_FIELD_USAGE_TYPE);
    ck_assert_int_eq(ntsim__payload_by_member("dmem_buf_copyin")->fields[0].kind, NTSIM_FIELD_U8);
    ck_assert_int_eq(ntsim__payload_by_member("model_switch")->fields[2].kind, NTSIM_FIELD_BOOL);
    ck_assert_str_eq(ntsim__field_kind_name(NTSIM_FIELD_USAGE_TYPE), "dma_mem_usage_type_t");
    ck_assert_str_eq(ntsim__field_kind_name(NTSIM_FIELD_KIND_COUNT), "?");
}
END_TEST

Suite *make_event_table_suite(void)
{
    Suite *s = suite_create("event_table");
    TCase *tc = tcase_create("event_table");
    tcase_add_test(tc, test_event_table_row_index_is_the_enum_value);
    tcase_add_test(tc, test_event_table_names_are_unique);
    tcase_add_test(tc, test_event_table_names_are_plain_identifiers);
    tcase_add_test(tc, test_every_payload_fits_the_40_byte_slot);
    tcase_add_test(tc, test_union_is_sized_by_its_largest_members);
    tcase_add_test(tc, test_every_payload_but_model_exec_is_carried);
    tcase_add_test(tc, test_generic_and_consume_types_carry_no_payload);
    tcase_add_test(tc, test_start_and_stop_select_different_members);
    tcase_add_test(tc, test_out_of_range_type_or_phase_selects_no_payload);
    tcase_add_test(tc, test_category_matches_the_hardware_bitmap);
    tcase_add_test(tc, test_lookups_by_name);
    tcase_add_test(tc, test_field_kinds_follow_the_c_types);
    suite_add_tcase(s, tc);
    return s;
}
