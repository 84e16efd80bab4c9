#!/bin/sh
# conformance/cli/testee_check.sh CHECK NTSIM [IN_PROCESS_LOG [CHECK_ARGS...]]:
# the conformance suite through a testee process, run by `make check`.
#
#   1. The whole suite through `NTSIM testee` (the built-in testee, over
#      pipes): it must pass, and its line for every kind a testee answers
#      must equal the in-process run's (IN_PROCESS_LOG, the output of
#      `CHECK --ntsim NTSIM CHECK_ARGS...`; run here when not given), so the
#      two modes are one judgement.
#   2. Broken testees (`NTSIM testee --break=...`) get the right failure
#      blocks, and the run goes on: a wrong JSON key order, a flipped record
#      byte, a wrong enum value; a testee that crashes, hangs, exits, writes
#      garbage, answers out of order or closes its stdout mid-run (the
#      verdict names what it did; the vectors after it pass); a crash while
#      a helper holds the pipes; one that cannot start; one that exits
#      non-zero at the end; what a testee leaves behind (a helper, one that
#      left its process group) ends with it; it starts with fds 0, 1, 2 only.
#   3. A testee lacking capabilities skips what it cannot be judged on; the
#      shards of a run add up to the run.
#   4. --first SUITES runs those suites first and changes nothing else;
#      an unknown suite is a usage error; --list-suites names every suite.
set -u
check=${1:?usage: testee_check.sh CHECK NTSIM [IN_PROCESS_LOG [CHECK_ARGS...]]}
ntsim=${2:?}
inlog=${3:-}
[ $# -ge 3 ] && shift 3 || shift $#
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
# The kinds a testee answers, from the one list (lib/kind_map.h).
kinds=$("$check" --list-kinds | awk '$2 == "judged" { printf "%s%s", sep, $1; sep = "|" }')
[ -n "$kinds" ] || { echo "testee_check: $check --list-kinds named no judged kind" >&2; exit 1; }
# How many vectors there are, as the runner counts them (so that adding a
# vector does not break the lines below that quote the total).
vectors_total=$("$check" --id testee_check.no_such_vector 2>&1 | sed -n 's/^loaded \([0-9]*\) vectors .*/\1/p')
[ -n "$vectors_total" ] || { echo "testee_check: the runner did not say how many vectors it loaded" >&2; exit 1; }
# Where the first json vector is (the json_key_order break fails it).
json_line=$(grep -n '^  - id: json.data.model_load.stop$' vectors/json_events.yaml | cut -d: -f1)

bad() {
    echo "testee_check: $*" >&2
    fail=1
}

# run NAME EXPECTED_RC ARGS...: runs CHECK with ARGS, output in $tmp/NAME.
run() {
    name=$1 want=$2
    shift 2
    "$check" "$@" >"$tmp/$name" 2>"$tmp/$name.err"
    rc=$?
    [ "$rc" -eq "$want" ] || { bad "$name: exit $rc, want $want"; sed 's/^/    /' "$tmp/$name.err" | tail -5 >&2; }
}

# has NAME TEXT: the output of run NAME holds the line fragment TEXT.
has() {
    grep -qF -- "$2" "$tmp/$1" || bad "$1: no line with: $2"
}

# judging KIND PATTERN: how many vectors of KIND hold a line matching PATTERN
# (PATTERN "." counts them all): every count below comes from the vectors,
# so adding one breaks nothing here.
judging() {
    awk -v kind="$1" -v pat="$2" '
        FNR == 1 { if (hit) n++; hit = 0; in_vec = 0; in_kind = 0 }
        /^kind: / { in_kind = ($2 == kind) }
        /^(  )?- id: / { if (hit) n++; hit = 0; in_vec = in_kind; next }
        in_vec && $0 ~ pat { hit = 1 }
        END { if (hit) n++; print n + 0 }' vectors/*.yaml
}

# --- 1. the whole suite, in process and through the testee ---------------------

if [ -z "$inlog" ]; then
    inlog=$tmp/in-process
    "$check" --ntsim "$ntsim" "$@" >"$inlog" 2>/dev/null || bad "the in-process run failed"
fi
start=$(date +%s.%N)
run testee 0 --testee "$ntsim testee" --xfail conformance/runner/expected_failures.txt "$@"
end=$(date +%s.%N)
grep -E "^  ($kinds): " "$inlog" >"$tmp/kinds.in"
# A vector the harness checks itself (an ntff schema vector) is skipped with
# a testee, and passes in process: counted back for the comparison.
grep -E "^  ($kinds): " "$tmp/testee" | awk '
    match($0, /, [0-9]+ skipped \(the harness.s own check: it asks the testee nothing\)/) {
        split(substr($0, RSTART + 2), w, " ")
        line = substr($0, 1, RSTART - 1) substr($0, RSTART + RLENGTH)
        match(line, /: [0-9]+ passed/)
        $0 = substr(line, 1, RSTART + 1) (substr(line, RSTART + 2, RLENGTH - 9) + w[1]) \
             substr(line, RSTART + RLENGTH - 7)
    }
    { print }' >"$tmp/kinds.testee"
if [ ! -s "$tmp/kinds.in" ] && [ $# -eq 0 ]; then
    bad "the in-process log has no per-kind line"
elif ! cmp -s "$tmp/kinds.in" "$tmp/kinds.testee"; then
    bad "per-kind counts differ between the in-process run and the testee run:"
    diff "$tmp/kinds.in" "$tmp/kinds.testee" | sed 's/^/    /' >&2
fi
has testee "testee: $ntsim testee (ntsim "
has testee "capabilities: log, stats, fail_allocations, json_escape, blocks"

# A filtered run only checks that; the rest needs the whole vector set.
if [ $# -gt 0 ]; then
    [ "$fail" -eq 0 ] && echo "testee_check: the testee run's per-kind counts equal the in-process run's"
    exit "$fail"
fi

# --- 2. broken testees ----------------------------------------------------------------

t="$ntsim testee"
run json_key_order 1 --testee "$t --break=json_key_order" --id json.data.model_load.stop
has json_key_order "FAIL [json] json.data.model_load.stop (vectors/json_events.yaml:$json_line): 1 mismatch"
has json_key_order '-{"event_type":"nrt_load","phase":"stop","id":1125899906842625,'
has json_key_order '+{"phase":"stop","event_type":"nrt_load","id":1125899906842625,'
has json_key_order "  repro: $check --testee '$t --break=json_key_order' --id json.data.model_load.stop"
has json_key_order '  json: 0 passed, 1 failed'

run record_byte 1 --testee "$t --break=record_byte" --file record_smoke.yaml
has record_byte 'record.smoke.hw_notify_instant_nc1.records[0]: bytes: 1 bytes differ, first at +0x08 (thread_id): expected 92, got 93'
has record_byte '  record: 1 passed, 1 failed'

run enum_value 1 --testee "$t --break=enum_value" --kind enum
has enum_value 'enum.notification_type.NOTIFICATION_TYPE_MAX: value: expected 10, got 11'
has enum_value 'enum.event_type.NRT_SYS_TRACE_EVENT_TYPE_COUNT: value: expected 46, got 47'
has enum_value "  enum: 0 passed, $(judging enum .) failed"

# Request 4 of each process fails: hello, two vectors, then the third
# (block_type, then phase after a restart); after two restarts the seventh
# and eighth enum vectors pass.
# A testee that closes its stdout and stays is seen as such (the runner's own
# copies of the pipes are closed in the child: issue 27, item 5), and a crash
# is a crash at once even when a helper the testee left behind still holds
# its pipes (before: a timeout, after the whole timeout).
for fault in "crash=4:crashed (killed by signal 11, SIGSEGV)" "exit=4:exited with status 3" \
             "hang=4:did not answer within 500 ms (killed)" \
             "garbage=4:wrote a malformed frame: 5 bytes that are not a Response" \
             "disorder=4:answered out of order: its reply carries id 5" \
             "close_stdout=4:closed its stdout without exiting (killed)" \
             "helper,crash=4:crashed (killed by signal 11, SIGSEGV)"; do
    f=${fault%%:*} verdict=${fault#*:}
    run "$f" 1 --testee "$t --break=$f" --testee-timeout 0.5 --kind enum
    has "$f" "enum.block_type: testee: $verdict while answering request 4 (enum); restarted for the next request"
    has "$f" "enum.phase: testee: $verdict while answering request 4 (enum)"
    has "$f" '  enum: 6 passed, 2 failed'
done

# The crash with a helper holding the pipes is seen at once: not after the
# 5 s timeout, and not twice 5 s.
t0=$(date +%s%N)
run helper_crash 1 --testee "$t --break=helper,crash=4" --testee-timeout 5 --kind enum
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
has helper_crash "enum.block_type: testee: crashed (killed by signal 11, SIGSEGV) while answering request 4 (enum); restarted for the next request"
[ "$ms" -lt 4000 ] || bad "helper_crash: took $ms ms: the crash waited for the timeout"

# The testee starts with the three descriptors of the protocol, none of the
# runner's.
run fds 0 --testee "$t --break=fds" --kind enum
grep -qx "ntsim testee: open descriptors: 0 1 2" "$tmp/fds.err" ||
    bad "fds: the testee started with: $(grep 'open descriptors' "$tmp/fds.err")"

# What a testee leaves behind ends with it, after a passing run too: a helper
# in its process group, and one that left the group (setsid) and came back
# to the runner, a child subreaper, when the testee ended. Each says its pid.
for f in helper escape; do
    run "$f" 0 --testee "$t --break=$f" --kind enum
    has "$f" "  enum: $(judging enum .) passed, 0 failed"
    pid=$(sed -n 's/^ntsim testee: helper \([0-9][0-9]*\).*/\1/p' "$tmp/$f.err")
    if [ -z "$pid" ]; then
        bad "$f: the testee named no helper"
        continue
    fi
    gone=no
    for i in 1 2 3 4 5 6 7 8 9 10; do
        kill -0 "$pid" 2>/dev/null || { gone=yes; break; }
        sleep 0.1
    done
    if [ "$gone" = no ]; then
        bad "$f: the testee's helper (pid $pid) outlived the run"
        kill -9 "$pid" 2>/dev/null
    fi
done

# A testee must end well: a non-zero exit at the end of its stdin (how a
# testee under valgrind --error-exitcode reports) fails the run.
run bad_end 1 --testee "sh -c '$t; exit 5'" --kind enum
has bad_end "FAIL the testee 'sh -c '$t; exit 5'' exited with status 5 at the end of the run"
has bad_end "  enum: $(judging enum .) passed, 0 failed"

run no_start 1 --testee "sh -c 'exit 7'" --kind enum
has no_start.err "the testee 'sh -c 'exit 7'' could not be started: its hello failed: it exited with status 7"

# A hello naming a kind or capability the runner does not know is an error
# naming it (a misspelled kind must not become a testee that answers nothing),
# and a run that judged nothing fails (issue 27: both were green).
run misspelled 1 --testee "$t --kinds=Layout,records" --kind enum
has misspelled.err "could not be started: its hello names an unknown kind 'Layout' (known: layout, enum,"
run misspelled_cap 1 --testee "$t --capabilities=stats,Log" --kind enum
has misspelled_cap.err "its hello names an unknown capability 'Log' (known: log, stats,"
run no_kinds 1 --testee "$t --kinds=" --xfail conformance/runner/expected_failures.txt
has no_kinds "FAIL nothing was judged: every vector was skipped or filtered out ($vectors_total skipped); the testee answers none of the selected kinds"
has no_kinds "conformance: 0 passed, 1 failed, $vectors_total skipped"
run only_own 1 --testee "$t" --kind scenario
has only_own "FAIL nothing was judged"

# Text from a testee cannot forge the runner's output: its name and its
# Error messages are shown with every control byte as \xNN, so no line it
# sends starts a line of ours.
run forge 1 --testee "$t --break=forge" --kind enum
has forge 'testee: '"$t"' --break=forge (ntsim\x0aconformance: 9999 passed,...)'
has forge 'enum.phase: testee: answered request 7 (enum) with an error: ntsim\x0aconformance: 9999 passed, 0 failed, 0 skipped\x0a\x1b[2J\x0d'
if grep -q '^conformance: 9999' "$tmp/forge" || grep -q "$(printf '\033')" "$tmp/forge"; then
    bad "forge: a line or an escape of the testee's reached the runner's output"
fi
has forge "  enum: 0 passed, $(judging enum .) failed"

# A reply that leaves out what a vector judges fails that vector: an absent
# counter, status or log is never read as 0 or as nothing logged (issue 27:
# without global_stats, the vectors wanting the global counters at 0 passed).
# FIELD KIND PATTERN: with FIELD left out of every reply, exactly the vectors
# of KIND whose text matches PATTERN (the ones that judge it) fail.
for omit in "global_stats record ^    global:" "log notify ^    notification_type:" \
            "names_status event_type ^    value:" "setter_status event_type ^    value:" \
            "append_status notify ^      appends:" "returns api [ {]returns: " \
            "log api [ {]log: "; do
    field=${omit%% *} rest=${omit#* }
    kind=${rest%% *} pattern=${rest#* }
    all=$(judging "$kind" .)
    judges=$(judging "$kind" "$pattern")
    [ "$judges" -gt 0 ] || bad "omit=$field: no $kind vector matches '$pattern'"
    run "omit_$field" 1 --testee "$t --break=omit=$field" --kind "$kind"
    has "omit_$field" "  $kind: $((all - judges)) passed, $judges failed"
done
# A testee that answers every request with an empty reply of the right kind
# passes nothing; the ntff schema vector, which asks it nothing, is skipped.
run empty 1 --testee "$t --break=empty" --xfail conformance/runner/expected_failures.txt
grep -q '^conformance: 0 passed, [1-9][0-9]* failed' "$tmp/empty" ||
    bad "empty: $(grep '^conformance:' "$tmp/empty"), want 0 passed"
schema=$(judging ntff '^    message:')
has empty "  ntff: 0 passed, $(($(judging ntff .) - schema)) failed, $schema skipped (the harness's own check: it asks the testee nothing)"
has omit_global_stats "record.engine.nc255.derived_ids: global: expected the global counters, the reply has no global_stats"
has omit_setter_status "event_type.generic: type_setter: expected 'generic' to disable exactly type 0, the reply has no setter_status"

# --- issue 35: the runner cannot be fooled, escaped or kept running ------------------

# Item 7: what the run is judged by is read before the testee starts. A
# testee that rewrites its vector during its hello (the wrapper below, before
# it execs the testee) and then answers as rewritten still fails (before:
# exit 0, "1 passed").
mkdir -p "$tmp/frozen.d"
cp vectors/enum_notification.yaml "$tmp/frozen.d/"
cat >"$tmp/rewrite.sh" <<EOF
sed -i 's/NOTIFICATION_TYPE_MAX, value: 10}/NOTIFICATION_TYPE_MAX, value: 11}/' '$tmp/frozen.d/enum_notification.yaml'
exec $t --break=enum_value
EOF
run frozen 1 --testee "sh $tmp/rewrite.sh" --vectors "$tmp/frozen.d" --id enum.notification_type
has frozen "enum.notification_type.NOTIFICATION_TYPE_MAX: value: expected 10, got 11"
grep -q "NOTIFICATION_TYPE_MAX, value: 11}" "$tmp/frozen.d/enum_notification.yaml" ||
    bad "frozen: the testee did not rewrite its vector (the test tests nothing)"

# Item 10: an --xfail line of any length is one entry. A reason longer than
# 1 KiB hid another id in its tail (read as a second line): listed by
# nothing, enum.notification_type must fail (before: exit 0, "expected").
{ printf 'enum.event_type a long reason'
  awk 'BEGIN { for (i = 0; i < 994; i++) printf "x" }'
  printf 'enum.notification_type hidden in the reason\n'; } >"$tmp/long.xfail"
[ "$(head -c 1023 "$tmp/long.xfail" | tail -c 1)" = x ] || bad "long_xfail: the list is not cut where a 1 KiB buffer cuts it"
run long_xfail 1 --testee "$t --break=enum_value" --xfail "$tmp/long.xfail" --id enum.notification_type
has long_xfail "FAIL [enum] enum.notification_type (vectors/enum_notification.yaml:7): 1 mismatch"

# Item 9: protobuf strings are compared with their length. Every name of a
# layout, enum or event_type reply with "\0junk" after it fails every vector
# (before: all 54, 8 and 46 passed, read as C strings), and the testee, in
# step, is kept.
for k in layout enum event_type; do
    run "nul_$k" 1 --testee "$t --break=nul_names" --kind "$k"
    has "nul_$k" "  $k: 0 passed, $(judging "$k" .) failed"
done
has nul_layout "layout.sync_info: testee: sent a string with a NUL byte in layout.fields[0].name (byte 15 of 20): a name or a text is compared whole, and none holds one while answering request 2 (layout)"
has nul_enum "enum.phase: testee: sent a string with a NUL byte in enum_type.members[0].name (byte 31 of 36): a name or a text is compared whole, and none holds one while answering request 7 (enum)"

# Item 12: SIGINT or SIGTERM to the runner ends its testee's group, SIGKILL
# the testee itself (before: the testee, in a group of its own, ran on,
# reparented to init). The runner waits on a testee that hangs (hang=2)
# beside its helper; each is gone within 2 s of the signal. A background job of a script starts with
# SIGINT ignored: env --default-signal gives it back its default.
alive() { # PID: a process that is there and no zombie
    [ -r "/proc/$1/stat" ] && ! sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | grep -q '^Z'
}
for sig in INT TERM KILL; do
    # In a session of its own: Check's handler (before the fix) killed the
    # runner's whole process group, this script with it.
    setsid env --default-signal=INT "$check" --testee "$t --break=helper,hang=2" \
        --testee-timeout 60 --kind enum >"$tmp/signal_$sig" 2>"$tmp/signal_$sig.err" &
    for i in $(seq 50); do grep -qs '^ntsim testee: helper ' "$tmp/signal_$sig.err" && break; sleep 0.1; done
    helper=$(sed -n 's/^ntsim testee: helper \([0-9][0-9]*\).*/\1/p' "$tmp/signal_$sig.err")
    testee=$(ps -o pgid= -p "${helper:-0}" 2>/dev/null | tr -d ' ')
    runner=$(ps -o ppid= -p "${testee:-0}" 2>/dev/null | tr -d ' ')
    if [ -z "$helper" ] || [ -z "$testee" ] || [ -z "$runner" ]; then
        bad "signal $sig: the testee named no helper"
        kill -9 $testee $helper 2>/dev/null
        continue
    fi
    sleep 0.2 # the runner waits on request 2
    kill -"$sig" "$runner"
    for i in $(seq 20); do
        alive "$testee" || alive "$helper" || break
        sleep 0.1
    done
    wait
    for p in "$testee" "$helper"; do
        # SIGKILL, which no handler sees, ends the testee (PR_SET_PDEATHSIG),
        # not what it started: its helper is out of reach (README).
        if [ "$sig" = KILL ] && [ "$p" = "$helper" ]; then
            kill -9 "$p" 2>/dev/null
        elif alive "$p"; then
            bad "signal $sig: process $p of the testee's group outlived the runner"
            kill -9 "$p" 2>/dev/null
        fi
    done
done

# A testee cannot write into the runner's stdout through /proc/PPID/fd/1:
# a runner that is not root is not dumpable, so /proc keeps its descriptors
# from other processes of the user (before: the forged summary line landed
# in the report). Root may open any process's descriptors: as root, the
# runner runs as nobody here, from a copy nobody can read, its report in a
# file nobody owns.
forge=$tmp/stdout_forge.d
forge_as=
if [ "$(id -u)" -eq 0 ]; then
    forge=$(mktemp -d) && chmod 755 "$forge"
    forge_as="setpriv --reuid=nobody --regid=nogroup --clear-groups"
fi
mkdir -p "$forge/vectors" "$forge/docs"
cp "$check" "$ntsim" "$forge/" && cp vectors/enum_*.yaml "$forge/vectors/" &&
    cp docs/spec_facts.md docs/decisions.md engine/convert/ntff.proto "$forge/docs/" &&
    chmod -R a+rX "$forge"
: >"$forge/out" && : >"$forge/err"
[ -z "$forge_as" ] || chown nobody "$forge/out" "$forge/err"
# >>: the forged line, appended, is not written over by the runner's own. A
# program copied out of its tree finds no data of its own: the options say
# where it is (D-DATA-LOCATE).
(cd "$forge" && $forge_as "./${check##*/}" --testee "./${ntsim##*/} testee --break=stdout_forge" \
    --vectors vectors --facts docs/spec_facts.md --decisions docs/decisions.md --proto docs \
    >>out 2>>err)
cp "$forge/out" "$tmp/stdout_forge" && cp "$forge/err" "$tmp/stdout_forge.err"
[ "$forge" = "$tmp/stdout_forge.d" ] || rm -rf "$forge"
has stdout_forge '  enum: 8 passed, 0 failed'
has stdout_forge.err "ntsim testee: stdout_forge: cannot open the runner's stdout: Permission denied"
! grep -q '(forged)' "$tmp/stdout_forge" || bad "stdout_forge: a line of the testee's is in the runner's stdout"

# Item 16: --testee is a /bin/sh command line. A simple one is exec'd after
# its assignments (FOO=1 exec cmd); a list runs as written, its shell the
# process watched, and the run says so (before: `exec` was put before each,
# and none of these could start). A crash through the shell is its exit
# status, read for what it says; what the testee started ends with it.
abs_ntsim=$(cd "${ntsim%/*}" && pwd)/${ntsim##*/}
for form in "FOO=1 $abs_ntsim testee" "cd / && $abs_ntsim testee" \
            "ulimit -v 4000000; $abs_ntsim testee"; do
    run form 0 --testee "$form" --kind enum
    has form '  enum: 8 passed, 0 failed'
done
has form "testee: not one simple command: /bin/sh runs it and is the process watched; its exit status stands for the testee's (128+N: a command killed by signal N)"
run form_crash 1 --testee "cd / && $abs_ntsim testee --break=helper,crash=4" --kind enum
has form_crash "enum.block_type: testee: exited with status 139 (its shell's status for a command killed by signal 11, SIGSEGV) while answering request 4 (enum); restarted for the next request"
has form_crash '  enum: 6 passed, 2 failed'
for pid in $(sed -n 's/^ntsim testee: helper \([0-9][0-9]*\).*/\1/p' "$tmp/form_crash.err"); do
    if kill -0 "$pid" 2>/dev/null && ! grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null; then
        bad "form_crash: the helper $pid outlived its testee's shell"
        kill -9 "$pid" 2>/dev/null
    fi
done

# --- 3. capabilities and shards -------------------------------------------------------

run port 0 --testee "$t --kinds=layout,json,api --capabilities=" --xfail conformance/runner/expected_failures.txt
escapes=$(judging json '^    string:') logs=$(judging json '^    log:')
allocs=$(judging api 'fail_allocations')
has port "  enum: $(judging enum .) skipped (the testee does not answer enum)"
has port "  json: $(($(judging json .) - escapes)) passed, 0 failed, $escapes skipped (needs the testee's json_escape); $logs without their log checks (not announced)"
has port "  api: $(($(judging api .) - allocs)) passed, 0 failed, $allocs skipped (needs the testee's fail_allocations)"
has port "  scenario: $(judging scenario .) skipped (the harness's own kind)"

total=$(sed -n 's/^conformance: \([0-9]*\) passed.*/\1/p' "$tmp/testee")
sum=0
for k in 0 1 2; do
    run "shard$k" 0 --testee "$t" --shard "$k/3" --xfail conformance/runner/expected_failures.txt
    n=$(sed -n 's/^conformance: \([0-9]*\) passed.*/\1/p' "$tmp/shard$k")
    sum=$((sum + ${n:-0}))
done
[ "$sum" -eq "${total:-x}" ] || bad "shards 0/3, 1/3, 2/3 passed $sum vectors, the whole run $total"

# --- 4. suite order (--first, make mutants' speed-up) ---------------------------------

# The named suites run first, in that order, then every other one as usual:
# the same tests, the same summary.
CK_TAP_LOG_FILE_NAME=$tmp/first.tap "$check" --ntsim "$ntsim" --first timeline,loader "$@" \
    >"$tmp/first" 2>/dev/null || bad "the run with --first timeline,loader failed"
grep '^conformance: ' "$inlog" >"$tmp/summary.in"
grep '^conformance: ' "$tmp/first" >"$tmp/summary.first"
cmp -s "$tmp/summary.in" "$tmp/summary.first" ||
    bad "--first timeline,loader: '$(cat "$tmp/summary.first")', the usual order: '$(cat "$tmp/summary.in")'"
# The suite of each TAP line (file:SUITE-or-tcase:test), in order of first appearance.
order=$(sed -n 's/^ok [0-9]* - conformance\/[a-z_/]*check_\([a-z_]*\)\.c:.*/\1/p' "$tmp/first.tap" | uniq | head -3 | tr '\n' ' ')
[ "$order" = "timeline loader vectors " ] ||
    bad "--first timeline,loader ran the tests of check_{$order} first, want timeline, loader, then vectors"
run first_bad 2 --first timeline,nosuch
has first_bad.err "check_ntsim: --first: no suite 'nosuch'"
# --list-suites names every suite the sources create, each once.
run list 0 --list-suites
sed -n 's/.*suite_create("\([a-z_]*\)").*/\1/p' $(find conformance -name 'check_*.c') | sort >"$tmp/list.src"
sort "$tmp/list" | cmp -s - "$tmp/list.src" ||
    bad "--list-suites: $(tr '\n' ' ' <"$tmp/list"), the sources create: $(tr '\n' ' ' <"$tmp/list.src")"

if [ "$fail" -eq 0 ]; then
    printf 'testee_check: the testee run (%s vectors, %.1f s) counts what the in-process run does; broken testees, capabilities, shards and suite order: ok\n' \
        "$total" "$(awk "BEGIN { print $end - $start }")"
fi
exit "$fail"
