#!/bin/sh
# conformance/cli/interop.sh NTSIM TRACE_ENGINE_DIR: `make interop`. ntsim's
# timelines read by tools nobody here wrote, their counts checked against an
# independent count of the run's fetch document (jq over trace.json):
#
#   trace.pftrace      protoc --decode=perfetto.protos.Trace against
#                      engine/timeline/perfetto_trace.proto: slice begins and ends equal
#                      jq's START/STOP pairs, instants equal jq's INSTANT
#                      events + unmatched edges + nc_local_id gaps
#   trace.chrome.json  Chrome DevTools' trace model (@paulirish/trace_engine):
#                      it must find every named thread, every span (X), every
#                      instant (I) and every flow the file holds
#
# for the default scenario, ring_overflow (whose overwritten events leave a
# gap) and clock_drift (4 drifting device clocks, 10,000 items). Prints one
# line per tool and file.
set -u
bin=$1
te=$2
out=${INTEROP_OUT:-build/interop}
fail=0

mismatch() { echo "interop: $1" >&2; fail=1; }

# jq's own count of a fetch document: pairs by (event_type, nc_idx,
# tracking_id), instants, unmatched edges, gaps in each NC's nc_local_id.
jq_counts() {
    jq -r '
      (reduce .events[] as $e ({open: {}, spans: 0, ustop: 0, inst: 0};
        ($e.event_type + "/" + ($e.nc_idx | tostring) + "/" + ($e.tracking_id | tostring)) as $k
        | if $e.phase == "start" then .open[$k] += 1
          elif $e.phase == "stop" then
            (if (.open[$k] // 0) > 0 then .open[$k] -= 1 | .spans += 1 else .ustop += 1 end)
          else .inst += 1 end)) as $p
      | ([.events | group_by(.nc_idx)[] | [.[].nc_local_id] | unique | . as $ids
          | [range(0; length) | if . == 0 then $ids[0] > 0 else $ids[.] > $ids[. - 1] + 1 end]
          | map(select(.)) | length] | add // 0) as $gaps
      | "\($p.spans) \($p.inst) \($p.ustop + ([$p.open[]] | add // 0)) \($gaps)"' "$1"
}

for scenario in default sim/scenarios/ring_overflow.yaml sim/scenarios/clock_drift.yaml; do
    name=$(basename "$scenario" .yaml)
    dir=$out/$name
    rm -rf "$dir"
    if [ "$scenario" = default ]; then
        "$bin" run -q -o "$dir" 2>/dev/null || { mismatch "$name: ntsim run failed"; continue; }
    else
        "$bin" run -q "$scenario" -o "$dir" 2>/dev/null || { mismatch "$name: ntsim run failed"; continue; }
    fi
    set -- $(jq_counts "$dir/trace.json")
    spans=$1 inst=$2 unmatched=$3 gaps=$4
    echo "interop: $name: trace.json (jq): $spans spans, $inst instants, $unmatched unmatched, $gaps gaps"

    # .pftrace through protoc.
    if ! protoc --decode=perfetto.protos.Trace -Iengine engine/timeline/perfetto_trace.proto \
        <"$dir/trace.pftrace" >"$dir/pftrace.txt" 2>"$dir/protoc.err"; then
        mismatch "$name: protoc cannot decode trace.pftrace: $(head -c 300 "$dir/protoc.err")"
        continue
    fi
    b=$(grep -c 'type: TYPE_SLICE_BEGIN' "$dir/pftrace.txt")
    e=$(grep -c 'type: TYPE_SLICE_END' "$dir/pftrace.txt")
    i=$(grep -c 'type: TYPE_INSTANT' "$dir/pftrace.txt")
    c=$(grep -c 'type: TYPE_COUNTER' "$dir/pftrace.txt")
    th=$(grep -c 'thread_name:' "$dir/pftrace.txt")
    snap=$(grep -c 'clock_snapshot {' "$dir/pftrace.txt")
    echo "interop: $name: trace.pftrace (protoc --decode): $b slice begins, $e slice ends," \
         "$i instants, $c counter values, $th thread tracks, $snap clock snapshots"
    [ "$b" = "$spans" ] || mismatch "$name: pftrace: $b slice begins, the JSON has $spans spans"
    [ "$e" = "$spans" ] || mismatch "$name: pftrace: $e slice ends, the JSON has $spans spans"
    want_i=$((inst + unmatched + gaps))
    [ "$i" = "$want_i" ] || mismatch "$name: pftrace: $i instants, want $want_i"
    grep -q '^[0-9]' "$dir/pftrace.txt" && mismatch "$name: pftrace: unknown fields in protoc's text"

    # Chrome JSON through DevTools' trace model.
    x=$(jq '[.traceEvents[] | select(.ph == "X")] | length' "$dir/trace.chrome.json")
    ci=$(jq '[.traceEvents[] | select(.ph == "I")] | length' "$dir/trace.chrome.json")
    tn=$(jq '[.traceEvents[] | select(.ph == "M" and .name == "thread_name")] | length' \
        "$dir/trace.chrome.json")
    fl=$(jq '[.traceEvents[] | select(.ph == "s")] | length' "$dir/trace.chrome.json")
    [ "$x" = "$spans" ] || mismatch "$name: chrome json: $x X events, the JSON has $spans spans"
    [ "$th" = "$tn" ] || mismatch "$name: $th thread tracks in the pftrace, $tn in the chrome json"
    if ! TRACE_ENGINE_DIR=$te node conformance/cli/interop/trace_engine.mjs "$dir/trace.chrome.json" \
        >"$dir/trace_engine.json" 2>"$dir/trace_engine.err"; then
        mismatch "$name: trace_engine failed: $(head -c 300 "$dir/trace_engine.err")"
        continue
    fi
    set -- $(jq -r '"\(.threads) \(.named_threads) \(.entries.X // 0) \(.entries.I // 0) \(.flows) \(.generic)"' \
        "$dir/trace_engine.json")
    echo "interop: $name: trace.chrome.json (@paulirish/trace_engine): $1 threads ($2 named)," \
         "$3 spans, $4 instants, $5 flows; the file: $tn threads, $x X, $ci I, $fl flows"
    [ "$1" = "$tn" ] && [ "$2" = "$tn" ] || mismatch "$name: trace_engine found $1 threads ($2 named), want $tn"
    [ "$3" = "$x" ] || mismatch "$name: trace_engine found $3 spans, want $x"
    [ "$4" = "$ci" ] || mismatch "$name: trace_engine found $4 instants, want $ci"
    [ "$5" = "$fl" ] || mismatch "$name: trace_engine found $5 flows, want $fl"
    [ "$6" = true ] || mismatch "$name: trace_engine did not read the trace as generic"
    [ -s "$dir/trace_engine.err" ] && mismatch "$name: trace_engine complained: $(head -c 300 "$dir/trace_engine.err")"
done
[ "$fail" -eq 0 ] && echo "interop: protoc and DevTools' trace model read every timeline: ok"
exit "$fail"
