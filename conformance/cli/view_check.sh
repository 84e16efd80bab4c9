#!/bin/sh
# conformance/cli/view_check.sh NTSIM PLAYWRIGHT_CORE: `make view-check`. The
# timeline page (D-TIMELINE-HTML) opened in a real browser, Debian's headless
# chromium, driven by conformance/cli/view/view_check.mjs, on three pages:
#
#   small      `ntsim view` of two hand-made instants (where the script puts
#              them and what it says of them, worked out by hand)
#   default    `ntsim run`'s page: every lane and span of its Chrome trace
#              JSON (counted here with jq: thread_name metadata and X events)
#   trn2_48xl  `ntsim run sim/scenarios/trn2_48xl.yaml`'s page: the
#              screenshot (build/view-check/trn2_48xl/timeline.png) shows
#              grouped lanes and no flow curtain, pointing draws a span's
#              flows, the zoom step is measured
set -u
bin=$1
pw=$2
dir=${VIEW_CHECK_OUT:-build/view-check}
rm -rf "$dir"
mkdir -p "$dir/small" "$dir/default" "$dir/trn2_48xl"
dir=$(cd "$dir" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
ev() { # event_type phase nc_local_id timestamp_ns
    printf '{"event_type":"%s","phase":"%s","id":%s,"nc_idx":0,"nc_local_id":%s,"tracking_id":0,' \
        "$1" "$2" "$3" "$3"
    printf '"thread_id":7,"worker_gid":0,"data":{"model_id":0},"timestamp_ns":%s}' "$4"
}
{
    printf '{"events":['
    ev nrt_model_submit instant 0 5000
    printf ','
    ev nrt_model_submit instant 1 2004500
    printf ']}\n'
} >"$dir/small/trace.json"
"$bin" view "$dir/small/trace.json" -o "$dir/small/timeline.html" 2>"$dir/small/err" ||
    { echo "view-check: ntsim view failed: $(cat "$dir/small/err")" >&2; exit 1; }
"$bin" run -q -o "$dir/default" 2>/dev/null || { echo "view-check: ntsim run failed" >&2; exit 1; }
"$bin" run "$here/../../sim/scenarios/trn2_48xl.yaml" -q -o "$dir/trn2_48xl" 2>/dev/null ||
    { echo "view-check: ntsim run trn2_48xl failed" >&2; exit 1; }
jq '{lanes: [.traceEvents[] | select(.ph == "M" and .name == "thread_name") | .args.name],
     spans: [.traceEvents[] | select(.ph == "X")] | length}' \
    "$dir/default/trace.chrome.json" >"$dir/default/want.json" ||
    { echo "view-check: jq cannot read the Chrome JSON" >&2; exit 1; }
node "$here/view/view_check.mjs" "$pw" "$dir"
