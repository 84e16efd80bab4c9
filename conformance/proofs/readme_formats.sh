#!/bin/sh
# conformance/proofs/readme_formats.sh NTSIM: README.md's table of timelines
# (the section "## Timelines") lists exactly the files `ntsim run` writes in
# the output formats of the engine's registry (engine/timeline/
# output_formats.h), whose summary lines ("wrote DIR/FILE (N bytes): ...")
# are made from it. Run by make check; make add-format-check proves that a
# format without its README row fails here.
set -u
bin=${1:?usage: readme_formats.sh NTSIM}
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
if ! "$bin" run -o "$tmp/out" >"$tmp/run.log" 2>/dev/null; then
    echo "readme_formats: $bin run failed" >&2
    exit 1
fi
sed -n "s|^wrote $tmp/out/\\([^ ]*\\) ([0-9]* bytes): .*|\\1|p" "$tmp/run.log" | sort >"$tmp/written"
awk '/^## /{ inside = /^## Timelines/; next } inside && /^\| `/ { sub(/^\| `/, ""); sub(/`.*/, ""); print }' \
    "$top/README.md" | sort >"$tmp/listed"
if [ ! -s "$tmp/written" ]; then
    echo "readme_formats: ntsim run said it wrote no timeline" >&2
    exit 1
fi
if ! diff -u "$tmp/listed" "$tmp/written" >"$tmp/diff"; then
    echo "readme_formats: README.md's table of timelines (-) is not what ntsim run writes (+):" >&2
    sed -n 's/^\([-+][^-+]\)/    \1/p' "$tmp/diff" >&2
    exit 1
fi
echo "readme_formats: README.md lists the $(wc -l <"$tmp/written") timeline files ntsim run writes: ok"
