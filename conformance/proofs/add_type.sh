#!/bin/sh
# conformance/proofs/add_type.sh [CC]: proves vectors/README.md's checklist for
# adding an event type is exactly right, on a scratch copy of the tree.
#
# It adds a throwaway 47th type, SCRATCH_PROBE = 46 (COUNT becomes 47), with
# the checklist's hand edits for a type without a payload, one function per
# edit:
#   1. edit_header      the enumerator, and COUNT, in nrt/nrt_sys_trace_event.h
#   2. edit_map         one entry in NTSIM_EVENT_TYPE_MAP (engine/event_table.h)
#   3. edit_enum        the member and COUNT in vectors/enum_sys_trace.yaml
#   4. edit_event_type  one vector in vectors/event_types.yaml
#   5. edit_layout      the config's type array, bool[47], in vectors/layout_record.yaml
#   6. edit_workload    the runtime path that emits it (sim/workload.c)
#   7. rerecord         every scenario vector, with `ntsim record`
# (8, the D-JSON-NAMES row in docs/decisions.md, is prose: no test reads it.)
#
# Then: with all seven edits the whole suite passes (the checklist is
# enough); with any one left out, the build or the suite fails (none is
# superfluous). Exit 0 when both hold.
set -u
cc=${1:-cc}
top=$(pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
say() { echo "add_type: $*"; }

fresh() { # a clean copy of the tree in $tmp/t
    rm -rf "$tmp/t"
    mkdir -p "$tmp/t"
    cp -R "$top/Makefile" "$top/include" "$top/engine" "$top/sim" \
        "$top/conformance" "$top/vectors" "$top/docs" "$tmp/t/"
}

edit_header() {
    perl -0pi -e 's/(NRT_SYS_TRACE_EVENT_TYPE_HOSTCC_WAIT\s+= 45,\n)/$1    NRT_SYS_TRACE_EVENT_TYPE_SCRATCH_PROBE = 46,\n/; s/(NRT_SYS_TRACE_EVENT_TYPE_COUNT\s+=) 46/$1 47/' \
        "$tmp/t/include/nrt/nrt_sys_trace_event.h"
}
edit_map() {
    perl -0pi -e 's/(XX\(HOSTCC_WAIT, [^\n]*\n[^\n]*\n[^\n]*"total_notif_expected"\)\))/$1 \\\n    XX(SCRATCH_PROBE, "scratch_probe", SOFTWARE, (NONE, NONE, NONE), ("", "", ""))/' \
        "$tmp/t/engine/event_table.h"
}
edit_enum() {
    perl -0pi -e 's/(      - \{name: NRT_SYS_TRACE_EVENT_TYPE_HOSTCC_WAIT, value: 45\}\n)      - \{name: NRT_SYS_TRACE_EVENT_TYPE_COUNT, value: 46\}/$1      - {name: NRT_SYS_TRACE_EVENT_TYPE_SCRATCH_PROBE, value: 46}\n      - {name: NRT_SYS_TRACE_EVENT_TYPE_COUNT, value: 47}/' \
        "$tmp/t/vectors/enum_sys_trace.yaml"
}
edit_event_type() {
    cat >>"$tmp/t/vectors/event_types.yaml" <<'YAML'
  - id: event_type.scratch_probe
    comment: the throwaway 47th type of conformance/proofs/add_type.sh
    source: D-JSON-NAMES, D-PHASE
    expect: valid
    enum: NRT_SYS_TRACE_EVENT_TYPE_SCRATCH_PROBE
    value: 46
    category: SOFTWARE
    json_name: scratch_probe
    start: none
    stop: none
    instant: none
YAML
}
edit_layout() {
    perl -0pi -e 's/(capture_enabled_for_event_type, offset: 0x108,) size: 46, type: "bool\[46\]"/$1 size: 47, type: "bool[47]"/' \
        "$tmp/t/vectors/layout_record.yaml"
}
edit_workload() {
    perl -0pi -e 's|(static void step_submit\(ntsim__sim_t \*s, request_t \*r\)\n\{\n)|$1    emit(s, TY(SCRATCH_PROBE), I, r->nc, NULL, 0);\n|' \
        "$tmp/t/sim/workload.c"
}
rerecord() { # needs a built ntsim in $tmp/t/build
    for v in "$tmp"/t/vectors/scenario_*.yaml; do
        sc=$(sed -n 's/^ *scenario: *//p' "$v" | head -1)
        id=$(sed -n 's/^ *- id: *//p' "$v" | head -1)
        src=$(sed -n 's/^ *source: *//p' "$v" | head -1)
        (cd "$tmp/t" && ./build/ntsim record "$sc" -o "$v" --id "$id" --source "$src") >/dev/null 2>&1 ||
            { say "ntsim record $sc failed"; return 1; }
    done
}

EDITS="edit_header edit_map edit_enum edit_event_type edit_layout edit_workload"

# Every edit must change its file: a pattern that no longer matches means the
# checklist and this script have drifted apart.
applied() { # applied FILE EDIT
    cp "$tmp/t/$1" "$tmp/before"
    "$2"
    if cmp -s "$tmp/before" "$tmp/t/$1"; then
        say "$2 did not apply to $1: update the script and vectors/README.md together"
        fail=1
    fi
}

build() { # builds the suite and ntsim in the scratch tree; 0 when it built
    make -s -C "$tmp/t" CC="$cc" BUILD="$tmp/t/build" "$tmp/t/build/check_ntsim" \
        "$tmp/t/build/ntsim" >"$tmp/build.log" 2>&1
}

suite() { # runs the whole suite; 0 when every check passed
    (cd "$tmp/t" && CK_VERBOSITY=silent ./build/check_ntsim) >"$tmp/suite.log" 2>&1
}

# --- all seven edits: the suite passes ------------------------------------------
fresh
applied include/nrt/nrt_sys_trace_event.h edit_header
applied engine/event_table.h edit_map
applied vectors/enum_sys_trace.yaml edit_enum
applied vectors/event_types.yaml edit_event_type
applied vectors/layout_record.yaml edit_layout
applied sim/workload.c edit_workload
if ! build; then
    say "with every edit, the build failed:"; tail -5 "$tmp/build.log" | sed 's/^/    /'; exit 1
fi
rerecord || exit 1
if suite; then
    say "1-7 applied: $(tail -1 "$tmp/suite.log")"
else
    say "with every edit, the suite failed:"; grep -E '^FAIL|conformance:' "$tmp/suite.log" | head -8
    exit 1
fi
cp -R "$tmp/t/vectors" "$tmp/vectors.done"

# --- each edit left out: the build or the suite fails -----------------------------
for skip in $EDITS rerecord; do
    fresh
    for e in $EDITS; do
        [ "$e" = "$skip" ] || "$e"
    done
    if [ "$skip" != rerecord ]; then
        # the re-recorded scenario vectors of the full run, so only $skip is missing
        cp "$tmp"/vectors.done/scenario_*.yaml "$tmp/t/vectors/"
    fi
    if ! build; then
        say "without $skip: the build fails: ok ($(grep -m1 -E 'error' "$tmp/build.log" | cut -c1-100))"
        continue
    fi
    if suite; then
        say "without $skip: the suite still passes, so the checklist lists an edit nobody needs"
        fail=1
    else
        say "without $skip: the suite fails: ok ($(grep -m1 '^FAIL' "$tmp/suite.log" | cut -c1-100))"
    fi
done

[ "$fail" -eq 0 ] && say "the checklist's 7 edits are enough, and each is needed: ok"
exit "$fail"
