#!/bin/sh
# conformance/cli/cli_failures.sh CHECK_BIN [PYTHON3]: the runner's own exit
# status and messages when vectors are wrong, run as part of `make check`.
#
# 1. Broken vector files (testdata/bad): the run must exit 1 and print each
#    load error as "file:line:col: field: message".
# 2. Well-formed but wrong vectors (testdata/wrong): exit 1, and each failure
#    names the vector id, its file:line, and expected vs got.
# 3. A vector file that cannot be read at all: exit 2 naming it and
#    --vectors, before the testee starts (D-DATA-LOCATE).
# 4. With PYTHON3: the --junit files of the failing runs (load errors, failed
#    vectors, expected-failure lines that are wrong) count what their summary
#    lines do, read by python3-junitparser (conformance/cli/junit_check.py).
set -u
bin=$1
py=${2:-}
data=conformance/testdata
fail=0
out=$(mktemp) || exit 1
trap 'rm -f "$out" "$out.repro" "$out.xml"' EXIT

# junit NAME: the last run's --junit file ($out.xml) against its summary line.
junit() {
    [ -z "$py" ] && return
    "$py" conformance/cli/junit_check.py "$out.xml" "$(tail -1 "$out")" >/dev/null ||
        { echo "cli_failures: $1: the --junit file does not count what the summary line does" >&2; fail=1; }
}

expect_line() {
    if ! grep -qF -- "$1" "$out"; then
        echo "cli_failures: missing from the runner's output: $1" >&2
        fail=1
    fi
}

CK_VERBOSITY=silent "$bin" --vectors "$data/bad" --junit "$out.xml" >"$out" 2>&1
rc=$?
junit "broken vectors"
if [ "$rc" -ne 1 ]; then
    echo "cli_failures: broken vectors exited $rc, want 1" >&2
    fail=1
fi
expect_line "FAIL $data/bad/unknown_key.yaml:10:5: vectors[0].sizee: unknown key (did you mean size?)"
expect_line "FAIL $data/bad/missing_field.yaml:5:5: vectors[0].source: missing required field"
expect_line "FAIL $data/bad/wrong_type.yaml:9:11: vectors[0].size: expected an integer, got 'sixteen'"
expect_line "FAIL $data/bad/api_unknown_call.yaml:10:16: vectors[0].calls[0].call: unknown call 'config_alocate'"
expect_line "FAIL $data/bad/inspect_env_twice.yaml:9:40: vectors[0].env.NEURON_RT_INSPECT_ENABLE: duplicate key"

CK_VERBOSITY=silent "$bin" --vectors "$data/wrong" --junit "$out.xml" >"$out" 2>&1
rc=$?
junit "wrong vectors"
if [ "$rc" -ne 1 ]; then
    echo "cli_failures: wrong vectors exited $rc, want 1" >&2
    fail=1
fi
expect_line "layout.hw_notify ($data/wrong/layout_hw_notify.yaml:6): 3 mismatches"
expect_line "layout.hw_notify.hint: offset: expected 0x06, got 0x04"
expect_line "enum.notification_type.NOTIFICATION_TYPE_TOPSP_CC_STATUS: value: expected 8, got 9"
expect_line "event_type.cc_exec.stop: stop: expected cc_exec_start, got cc_exec_stop"
expect_line "  layout: 0 passed, 3 failed"
expect_line "api.wrong.fetch_and_stop ($data/wrong/api_fetch_and_stop.yaml:8): 4 mismatches"
expect_line "api.wrong.fetch_and_stop.calls[0]: written_size: expected 31, got 30"
expect_line "api.wrong.fetch_and_stop.calls[2]: status: expected NRT_SUCCESS (0), got NRT_FAILURE (1) (the calls after it were not run)"
expect_line "  api: 0 passed, 1 failed"
expect_line "inspect.wrong.filters ($data/wrong/inspect_filters.yaml:8): 4 mismatches"
expect_line "inspect.wrong.accepted: status: expected NRT_INVALID (2), got NRT_SUCCESS (0)"
expect_line "  inspect: 0 passed, 2 failed"

# The failure line's repro command replays the vector alone, and fails the same way.
ntsim=$(dirname "$bin")/ntsim
CK_VERBOSITY=silent "$bin" --vectors "$data/wrong" --ntsim "$ntsim" >"$out" 2>&1
expect_line "repro: $ntsim replay $data/wrong/layout_hw_notify.yaml --id layout.hw_notify"
repro=$(grep -F "repro: $ntsim replay $data/wrong/layout_hw_notify.yaml" "$out" | head -1 |
        sed 's/^ *repro: //')
if [ -n "$repro" ]; then
    $repro >"$out.repro" 2>&1
    rc=$?
    if [ "$rc" -ne 1 ] || ! grep -qF "layout.hw_notify.hint: offset: expected 0x06, got 0x04" "$out.repro"; then
        echo "cli_failures: the repro command did not reproduce (exit $rc)" >&2
        fail=1
    fi
fi

# The same for an api vector: its failure block names each call, and its
# repro line replays it alone, with the same report.
expect_line "repro: $ntsim replay $data/wrong/api_fetch_and_stop.yaml --id api.wrong.fetch_and_stop"
repro=$(grep -F "repro: $ntsim replay $data/wrong/api_fetch_and_stop.yaml" "$out" | head -1 |
        sed 's/^ *repro: //')
if [ -n "$repro" ]; then
    $repro >"$out.repro" 2>&1
    rc=$?
    if [ "$rc" -ne 1 ] ||
       ! grep -qF "api.wrong.fetch_and_stop ($data/wrong/api_fetch_and_stop.yaml:8): 4 mismatches" "$out.repro" ||
       ! grep -qF "api.wrong.fetch_and_stop.calls[1]: category: expected SOFTWARE, got HARDWARE (1)" "$out.repro" ||
       ! grep -qF -- '+],"data_version":2}' "$out.repro"; then
        echo "cli_failures: the api repro command did not reproduce (exit $rc)" >&2
        fail=1
    fi
fi

# A text mismatch is shown as a unified diff.
tmpv=$(mktemp -d)
sed 's/        hint: "generic"$/        hint: "generix"/' vectors/ntff_smoke.yaml >"$tmpv/n.yaml"
CK_VERBOSITY=silent "$bin" --vectors "$tmpv" --kind ntff >"$out" 2>&1
expect_line "ntff.smoke.generic_instant: decode: expected and got differ:"
expect_line '-  hint: "generix"'
expect_line '+  hint: "generic"'

# Filters: one kind, one file, one id; the rest are skipped.
"$bin" --kind notify >"$out" 2>&1 || fail=1
expect_line "conformance: $(awk 'FNR == 1 { k = "" } /^kind: / { k = $2 } /^ *- id: / && k == "notify" { n++ }
                              END { print n + 0 }' vectors/*.yaml) passed, 0 failed,"
"$bin" --file notify.yaml --id notify.dma >"$out" 2>&1 || fail=1
expect_line "conformance: 1 passed, 0 failed,"

# Expected failures, both ways: a listed vector that fails does not fail
# the run; a listed vector that passes does, and so does a listed id that no
# vector has.
printf 'layout.hw_notify hint offset under investigation\n' >"$tmpv/xfail.txt"
CK_VERBOSITY=silent "$bin" --vectors "$data/wrong" --id layout.hw_notify \
    --expected-failures "$tmpv/xfail.txt" >"$out" 2>&1
rc=$?
[ "$rc" -eq 0 ] || { echo "cli_failures: a listed failing vector failed the run ($rc)" >&2; fail=1; }
expect_line "layout: 0 passed, 0 failed, 1 failing as listed in xfail.txt"
printf 'notify.dma believed broken\n' >"$tmpv/xfail.txt"
CK_VERBOSITY=silent "$bin" --id notify.dma --expected-failures "$tmpv/xfail.txt" >"$out" 2>&1
rc=$?
[ "$rc" -eq 1 ] || { echo "cli_failures: a listed passing vector did not fail the run ($rc)" >&2; fail=1; }
expect_line "notify.dma (vectors/notify.yaml:39): listed in xfail.txt (\"believed broken\") but passes: remove its line"
printf 'no.such.vector stale entry\nnotify.dma\n' >"$tmpv/xfail.txt"
CK_VERBOSITY=silent "$bin" --kind notify --expected-failures "$tmpv/xfail.txt" >"$out" 2>&1
expect_line "xfail.txt:2: notify.dma: an expected failure needs a reason after its id"
CK_VERBOSITY=silent "$bin" --expected-failures "$tmpv/xfail.txt" --junit "$out.xml" >"$out" 2>&1
expect_line "xfail.txt:1: no.such.vector: listed as an expected failure, but no vector has this id"
junit "a stale and a reasonless expected failure"

# A vector file the runner cannot read at all (a link to nothing, a FIFO)
# is its own input failing, not a vector's nor the testee's: exit 2 naming
# it and --vectors, before the testee starts (the "testee" here would leave
# a file); one that reads but does not parse is a load failure (1, above).
mkdir "$tmpv/unread" && cp vectors/enum_status.yaml "$tmpv/unread/" &&
    ln -s nowhere.yaml "$tmpv/unread/lost.yaml" && mkfifo "$tmpv/unread/pipe.yaml" || fail=1
"$bin" --vectors "$tmpv/unread" --testee "touch $tmpv/started" >"$out" 2>&1
rc=$?
[ "$rc" -eq 2 ] || { echo "cli_failures: unreadable vector files: exit $rc, want 2" >&2; fail=1; }
expect_line "$tmpv/unread/lost.yaml: cannot open: No such file or directory (under the vectors' directory: the harness's own input, not the testee's; --vectors DIR reads another)"
expect_line "$tmpv/unread/pipe.yaml: not a regular file (a FIFO) (under the vectors' directory"
expect_line "nothing was judged: 2 unreadable under the vectors' directory (above)"
[ ! -e "$tmpv/started" ] || { echo "cli_failures: unreadable vector files: the testee was started" >&2; fail=1; }
rm -rf "$tmpv"

"$bin" --no-such-option >"$out" 2>&1
rc=$?
if [ "$rc" -ne 2 ]; then
    echo "cli_failures: a bad option exited $rc, want 2" >&2
    fail=1
fi
expect_line "$bin: unknown option '--no-such-option'"
expect_line "($bin --help says more)"

if [ "$fail" -eq 0 ]; then
    echo "cli_failures: broken and wrong vectors fail the run with precise messages: ok"
fi
exit "$fail"
