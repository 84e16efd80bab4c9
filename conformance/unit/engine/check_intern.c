/*
 * conformance/unit/engine/check_intern.c: interned ids (engine/intern.c;
 * D-NTFF-INTERN): SipHash-1-3 with zero keys as rustc's std DefaultHasher
 * computes it, the names it covers, and its streaming form equal to the one
 * shot.
 */
#include <stdint.h>
#include <string.h>

#include "check_suites.h"
#include "intern.h"
#include "ntsim/convert.h"

/* D-NTFF-INTERN: values computed with rustc's std DefaultHasher (SipHash-1-3,
 * zero keys), outside ntsim. */
START_TEST(test_intern_ids_match_rusts_default_hasher)
{
    ck_assert_uint_eq(ntsim_intern_name_id(""), UINT64_C(121655548788208));
    ck_assert_uint_eq(ntsim_intern_name_id("generic"), UINT64_C(281385432167216));
    ck_assert_uint_eq(ntsim_intern_name_id("hw_notify"), UINT64_C(427767771784892));
    ck_assert_uint_eq(ntsim_intern_name_id("kbl_exec_pre"), UINT64_C(1096771615553675));
    ck_assert_uint_eq(ntsim_intern_name_id("nrt_tensor_read"), UINT64_C(484686224899859));
    ck_assert_uint_eq(ntsim_intern_name_id("exec_consume_tpb_status_notifications"),
                      UINT64_C(835638387398631));
    /* The core over 15 raw bytes 0..14, no 0xFF: both tails of the block loop. */
    uint8_t raw[15];
    for (int i = 0; i < 15; i++)
        raw[i] = (uint8_t)i;
    ck_assert_uint_eq(ntsim__siphash13(0, 0, raw, 15), UINT64_C(0xf30eb725bb91c9ea));
    ck_assert_uint_eq(ntsim_intern_name_id(NULL), 0);
}
END_TEST

/* D-NTFF-INTERN: a name of any length gets get_id, the hash of its bytes
 * and 0xFF masked to 50 bits, plus 1 (facts §5), never 0: 255, 256 and
 * 4096 bytes alike (the id was 0 from 256 bytes on until issue 36). */
START_TEST(test_intern_id_covers_names_of_any_length)
{
    static char name[4097];
    static unsigned char hashed[4097];
    const size_t lens[] = {255, 256, 4096};
    for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
        size_t n = lens[k];
        memset(name, 'n', n);
        name[n] = '\0';
        memset(hashed, 'n', n);
        hashed[n] = 0xff;
        uint64_t want = (ntsim__siphash13(0, 0, hashed, n + 1) & ((UINT64_C(1) << 50) - 1)) + 1;
        ck_assert_uint_ne(want, 0);
        ck_assert_uint_eq(ntsim_intern_name_id(name), want);
    }
}
END_TEST

START_TEST(test_siphash_streaming_equals_one_shot)
{
    unsigned char data[300];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (unsigned char)(i * 131 + 7);
    for (size_t len = 0; len <= sizeof data; len += 13) {
        uint64_t want = ntsim__siphash13(1, 2, data, len);
        for (size_t cut = 1; cut <= 17; cut += 4) {
            ntsim_siphash_t h;
            ntsim__siphash13_init(&h, 1, 2);
            for (size_t i = 0; i < len; i += cut)
                ntsim__siphash13_update(&h, data + i, len - i < cut ? len - i : cut);
            ck_assert_uint_eq(ntsim__siphash13_final(&h), want);
        }
    }
}
END_TEST

Suite *make_intern_suite(void)
{
    Suite *s = suite_create("intern");
    TCase *tc = tcase_create("intern");
    tcase_add_test(tc, test_intern_ids_match_rusts_default_hasher);
    tcase_add_test(tc, test_intern_id_covers_names_of_any_length);
    tcase_add_test(tc, test_siphash_streaming_equals_one_shot);
    suite_add_tcase(s, tc);
    return s;
}
