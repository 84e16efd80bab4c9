#!/bin/sh
# conformance/proofs/mutation.sh [CC]: proves that changing one offset in a header
# is caught twice: by the header's static assert at compile time, and, with
# the static asserts compiled out (-DNTSIM_NO_ABI_ASSERTS), by the layout
# vectors at run time. Each mutation works on a copy of the tree.
#
#   hw_notify:   a 4-byte field inserted before custom_data (0x08 -> 0x0c)
#   record:      phase and nc_idx swapped (0x58 <-> 0x5c)
#   dealloc:     usage_type moved before mla_idx (0x0c <-> 0x08)
set -u
cc=${1:-cc}
top=$(pwd)
fail=0

# mutate NAME HEADER PERL_EXPR ASSERT_TEXT VECTOR_LINE (HEADER under include/nrt/:
# the record is in nrt_sys_trace_event.h, the payload structs in
# nrt_sys_trace_event_data.h, which it includes)
mutate() {
    name=$1 header=include/nrt/$2 expr=$3 assert_text=$4 vector_line=$5
    tmp=$(mktemp -d) || exit 1
    cp -R "$top/Makefile" "$top/include" "$top/engine" "$top/conformance" \
        "$top/sim" "$top/vectors" "$top/docs" "$tmp/"
    perl -0pi -e "$expr" "$tmp/$header"
    if cmp -s "$top/$header" "$tmp/$header"; then
        echo "mutation $name: the mutation did not apply" >&2; fail=1; rm -rf "$tmp"; return
    fi
    if (cd "$tmp" && $cc -std=c11 -Iinclude -c engine/event_table.c -o /dev/null) >"$tmp/cc.log" 2>&1; then
        echo "mutation $name: compiled despite the static asserts" >&2; fail=1
    elif ! grep -qF "$assert_text" "$tmp/cc.log"; then
        echo "mutation $name: compile failed, but not with '$assert_text':" >&2
        sed 's/^/  /' "$tmp/cc.log" | head -5 >&2; fail=1
    fi
    if ! make -s -C "$tmp" CC="$cc" BUILD="$tmp/build" EXTRA_CFLAGS=-DNTSIM_NO_ABI_ASSERTS \
         "$tmp/build/check_ntsim" \
         >"$tmp/make.log" 2>&1; then
        echo "mutation $name: the build without static asserts failed:" >&2
        tail -5 "$tmp/make.log" >&2; fail=1; rm -rf "$tmp"; return
    fi
    (cd "$tmp" && CK_VERBOSITY=silent ./build/check_ntsim) >"$tmp/run.log" 2>&1
    rc=$?
    if [ "$rc" -ne 1 ]; then
        echo "mutation $name: the vectors passed (exit $rc)" >&2; fail=1
    elif ! grep -qF "$vector_line" "$tmp/run.log"; then
        echo "mutation $name: the run failed, but without '$vector_line'" >&2; fail=1
    else
        echo "mutation $name: static assert and layout vector both fail: ok"
    fi
    rm -rf "$tmp"
}

mutate hw_notify nrt_sys_trace_event_data.h \
    's/(uint16_t hint;\n)(\s*uint32_t custom_data;)/$1    uint32_t ntsim_mutant;\n$2/' \
    "nrt_sys_trace_event_data_hw_notify.custom_data must be at offset 0x08" \
    "layout.hw_notify.custom_data: offset: expected 0x08, got 0x0c"
mutate record nrt_sys_trace_event.h \
    's/(nrt_sys_trace_event_phase_t phase;[^\n]*\n)(\s*uint32_t nc_idx;[^\n]*\n)/$2$1/' \
    "nrt_sys_trace_event_t.phase must be at offset 0x58" \
    "layout.record.phase: offset: expected 0x58, got 0x5c"
mutate dealloc nrt_sys_trace_event_data.h \
    's/(struct nrt_sys_trace_event_data_dma_mem_dealloc_start \{\n(?:[^\n]*\n){2})(\s*uint32_t mla_idx;\n)(\s*dma_mem_usage_type_t usage_type;\n)/$1$3$2/' \
    "nrt_sys_trace_event_data_dma_mem_dealloc_start.mla_idx must be at offset 0x08" \
    "layout.dma_mem_dealloc_start.usage_type: offset: expected 0x0c, got 0x08"
exit "$fail"
