/* conformance/check_testee.c: placeholder */
#include "check_suites.h"

Suite *make_testee_suite(void)
{
    return suite_create("testee");
}
