#!/bin/sh
# conformance/cli_failures.sh CHECK_BIN: the runner's own exit status and
# messages when vectors are wrong, run as part of `make check`.
#
# 1. Broken vector files (testdata/bad): the run must exit 1 and print each
#    load error as "file:line:col: field: message".
# 2. Well-formed but wrong vectors (testdata/wrong): exit 1, and each failure
#    names the vector id, its file:line, and expected vs got.
set -u
bin=$1
data=conformance/testdata
fail=0
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT

expect_line() {
    if ! grep -qF -- "$1" "$out"; then
        echo "cli_failures: missing from the runner's output: $1" >&2
        fail=1
    fi
}

CK_VERBOSITY=silent "$bin" --vectors "$data/bad" >"$out" 2>&1
rc=$?
if [ "$rc" -ne 1 ]; then
    echo "cli_failures: broken vectors exited $rc, want 1" >&2
    fail=1
fi
expect_line "FAIL $data/bad/unknown_key.yaml:10:5: vectors[0].sizee: unknown key"
expect_line "FAIL $data/bad/missing_field.yaml:5:5: vectors[0].source: missing required field"
expect_line "FAIL $data/bad/wrong_type.yaml:9:11: vectors[0].size: expected an integer, got 'sixteen'"

CK_VERBOSITY=silent "$bin" --vectors "$data/wrong" >"$out" 2>&1
rc=$?
if [ "$rc" -ne 1 ]; then
    echo "cli_failures: wrong vectors exited $rc, want 1" >&2
    fail=1
fi
expect_line "layout.hw_notify ($data/wrong/layout_hw_notify.yaml:6): 3 mismatches"
expect_line "layout.hw_notify.hint: offset: expected 0x06, got 0x04"
expect_line "enum.notification_type.NOTIFICATION_TYPE_TOPSP_CC_STATUS: value: expected 8, got 9"
expect_line "event_type.cc_exec.stop: stop: expected cc_exec_start, got cc_exec_stop"
expect_line "  layout: 0 passed, 3 failed"

"$bin" --no-such-option >"$out" 2>&1
rc=$?
if [ "$rc" -ne 2 ]; then
    echo "cli_failures: a bad option exited $rc, want 2" >&2
    fail=1
fi
expect_line "usage:"

if [ "$fail" -eq 0 ]; then
    echo "cli_failures: broken and wrong vectors fail the run with precise messages: ok"
fi
exit "$fail"
