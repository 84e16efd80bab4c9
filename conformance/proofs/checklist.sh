# conformance/proofs/checklist.sh: what the proofs of docs/architecture.md's
# checklists share (sourced by add_kind.sh, add_scenario_key.sh and
# add_format.sh, after they set `proof`, their name in messages, and `cc`).
#
# A proof builds the unedited tree once in $tmp/base; each variant starts
# from a copy of it with the times kept (cp -p), so that make rebuilds only
# what an edit touched (BUILD is relative, so the copied dependency files
# name the copy's objects). The proof defines one function per edit, lists
# them in EDITS, and a suite() that runs what judges them in $tmp/t
# (0 when it passed); then:
#   checklist_base            the built base, or exit 1
#   fresh                     the built base in $tmp/t
#   applied EDIT FILE...      runs EDIT and says when it left a FILE unchanged
#   build                     the suite and ntsim in $tmp/t; 0 when they built
#   leave_each_out            every variant with one edit left out must fail
#                             to build or fail its suite
#   checklist_done N          the verdict line, and the exit status
set -u
top=$(pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
say() { echo "$proof: $*"; }

checklist_base() {
    mkdir -p "$tmp/base"
    cp -Rp "$top/Makefile" "$top/README.md" "$top/include" "$top/engine" "$top/sim" \
        "$top/conformance" "$top/vectors" "$top/docs" "$tmp/base/"
    if ! make -s -C "$tmp/base" CC="$cc" BUILD=build build/check_ntsim \
        build/ntsim >"$tmp/build.log" 2>&1; then
        say "the unedited tree does not build:"; tail -5 "$tmp/build.log" | sed 's/^/    /'; exit 1
    fi
}

fresh() {
    rm -rf "$tmp/t"
    cp -Rp "$tmp/base" "$tmp/t"
}

# Every edit must change (or make) its files: a pattern that no longer
# matches means the checklist and the proof have drifted apart.
applied() {
    e=$1
    shift
    for f in "$@"; do [ -f "$tmp/t/$f" ] && cp "$tmp/t/$f" "$tmp/before.$(basename "$f")"; done
    "$e"
    for f in "$@"; do
        if [ -f "$tmp/before.$(basename "$f")" ] && cmp -s "$tmp/before.$(basename "$f")" "$tmp/t/$f"; then
            say "$e did not apply to $f: update the proof and docs/architecture.md together"
            fail=1
        fi
        rm -f "$tmp/before.$(basename "$f")"
    done
}

build() {
    make -s -C "$tmp/t" CC="$cc" BUILD=build build/check_ntsim build/ntsim >"$tmp/build.log" 2>&1
}

leave_each_out() {
    for skip in $EDITS; do
        fresh
        for e in $EDITS; do
            [ "$e" = "$skip" ] || "$e"
        done
        if ! build; then
            say "without $skip: the build fails: ok ($({ grep -m1 -E 'No rule|error' "$tmp/build.log" ||
                tail -n 1 "$tmp/build.log"; } | cut -c1-100))"
            continue
        fi
        for l in "$tmp"/*.log; do [ "$l" = "$tmp/build.log" ] || rm -f "$l"; done
        if suite; then
            say "without $skip: the suite still passes, so the checklist lists an edit nobody needs"
            fail=1
        else
            say "without $skip: the suite fails: ok ($(cat "$tmp"/*.log 2>/dev/null |
                grep -v ': ok$' | grep -m1 -E '^FAIL|^file_map|^readme_formats' | cut -c1-110))"
        fi
    done
}

checklist_done() {
    [ "$fail" -eq 0 ] && say "the checklist's $1 edits are enough, and each is needed: ok"
    exit "$fail"
}
