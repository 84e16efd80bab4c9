#!/bin/sh
# conformance/cli/install_check.sh: `make install` into a scratch prefix, then
# build and run a C program against the installed headers and library using
# only pkg-config, the way a porter links ntsim.
set -eu
top=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s -C "$top" install DESTDIR="$tmp/root" PREFIX=/opt/ntsim >/dev/null
cat > "$tmp/use.c" <<'C'
#include <nrt/nrt.h>
#include <nrt/nrt_sys_trace.h>
#include <ntsim/capture.h>
#include <stdio.h>
int main(void)
{
    const char **names;
    size_t n;
    if (nrt_sys_trace_get_event_types(&names, &n) != NRT_SUCCESS || n != 46)
        return 1;
    printf("%s %s\n", names[24], nrt_get_status_as_str(NRT_INVALID));
    nrt_sys_trace_free_event_types(names, n);
    return 0;
}
C
export PKG_CONFIG_PATH="$tmp/root/opt/ntsim/lib/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR="$tmp/root"
cc -std=c11 $(pkg-config --cflags libntsim) -o "$tmp/use_shared" "$tmp/use.c" \
    $(pkg-config --libs libntsim)
out=$(LD_LIBRARY_PATH="$tmp/root/opt/ntsim/lib" "$tmp/use_shared")
[ "$out" = "hw_notify NRT_INVALID" ] || { echo "install_check: shared: got '$out'" >&2; exit 1; }
cc -std=c11 $(pkg-config --cflags libntsim) -o "$tmp/use_static" "$tmp/use.c" \
    "$tmp/root/opt/ntsim/lib/libntsim.a" $(pkg-config --libs libprotobuf-c) -pthread
out=$("$tmp/use_static")
[ "$out" = "hw_notify NRT_INVALID" ] || { echo "install_check: static: got '$out'" >&2; exit 1; }
# Exactly the committed public symbols, nothing internal (ntsim__*, ring,
# protobuf-c descriptors) and nothing missing.
nm -D --defined-only "$tmp/root/opt/ntsim/lib/libntsim.so.0" | awk '{print $3}' | sort \
    > "$tmp/exported.txt"
grep -v '^#' "$top/conformance/cli/exported_symbols.txt" > "$tmp/expected.txt"
if ! diff -u "$tmp/expected.txt" "$tmp/exported.txt" > "$tmp/symbols.diff"; then
    echo "install_check: libntsim.so.0 exports other symbols than conformance/cli/exported_symbols.txt:" >&2
    cat "$tmp/symbols.diff" >&2
    exit 1
fi
echo "install_check: headers, static and shared library and libntsim.pc work; $(wc -l < "$tmp/exported.txt") exported symbols as listed: ok"
