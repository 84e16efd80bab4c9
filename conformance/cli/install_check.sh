#!/bin/sh
# conformance/cli/install_check.sh: `make install` into a scratch prefix, then
# build and run C programs against the installed headers and library using
# only pkg-config, the way a porter links ntsim: one that lists the event
# types, and one that reads back what `ntsim run` wrote (ntsim/read.h): its
# trace.json, its trace.ntff under the name an inspect session gives it
# (ntrace.pb: the format is told by content) and its record dump.
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
cat > "$tmp/read.c" <<'C'
#include <ntsim/read.h>
#include <stdio.h>
#include <string.h>
/* Each file's format and records; the three must hold the same records
 * where every format keeps them (D-READ): the ids, the order, NTFF's and the
 * dump's host times. */
int main(int argc, char **argv)
{
    ntsim_trace_t *t[3];
    char err[512];
    if (argc != 4)
        return 2;
    for (int i = 0; i < 3; i++) {
        if (ntsim_trace_read_file(argv[i + 1], NULL, &t[i], err, sizeof err) != NRT_SUCCESS) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
        printf("%s: %s, %zu events\n", argv[i + 1], ntsim_trace_format_title(t[i]->format),
               t[i]->event_count);
    }
    int same = t[0]->event_count == t[1]->event_count && t[1]->event_count == t[2]->event_count;
    for (size_t k = 0; same && k < t[0]->event_count; k++)
        same = t[0]->events[k].id == t[2]->events[k].id &&
               t[1]->events[k].id == t[2]->events[k].id &&
               t[1]->events[k].timestamp_ns == t[2]->events[k].timestamp_ns &&
               t[1]->events[k].tracking_id == t[2]->events[k].tracking_id;
    printf("%s\n", same ? "same records" : "different records");
    for (int i = 0; i < 3; i++)
        ntsim_trace_free(t[i]);
    return same ? 0 : 1;
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
# The read API: what ntsim run wrote, read back by a client of the shared
# library; trace.ntff copied to ntrace.pb.
make -s -C "$top" build/ntsim >/dev/null
"$top/build/ntsim" run -q -o "$tmp/run" --records "$tmp/run/trace.records" 2>/dev/null
cp "$tmp/run/trace.ntff" "$tmp/run/ntrace.pb"
cc -std=c11 $(pkg-config --cflags libntsim) -o "$tmp/read_shared" "$tmp/read.c" \
    $(pkg-config --libs libntsim)
n=$(( $(wc -c <"$tmp/run/trace.records") / 112 ))
got=$(LD_LIBRARY_PATH="$tmp/root/opt/ntsim/lib" "$tmp/read_shared" "$tmp/run/trace.json" \
      "$tmp/run/ntrace.pb" "$tmp/run/trace.records") ||
    { echo "install_check: read: $got" >&2; exit 1; }
want="$tmp/run/trace.json: a JSON fetch document, $n events
$tmp/run/ntrace.pb: an NTFF ntrace_info, $n events
$tmp/run/trace.records: a record dump, $n events
same records"
[ "$n" -gt 1000 ] && [ "$got" = "$want" ] ||
    { printf 'install_check: read: got\n%s\nwant\n%s\n' "$got" "$want" >&2; exit 1; }
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
echo "install_check: headers, static and shared library and libntsim.pc work; a client read back $n events of ntsim run's trace.json, ntrace.pb and record dump; $(wc -l < "$tmp/exported.txt") exported symbols as listed: ok"
