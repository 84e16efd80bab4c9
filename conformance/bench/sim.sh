#!/bin/sh
# conformance/bench/sim.sh BENCH_SIM: the simulator's speed and peak RSS (issue 13) on the
# trn2_48xl scenario at two durations, each mode in its own process:
#   peer  the same number of bare emits and drains through the engine
#   sim   the simulation, the trace counted and dropped (no files)
#   e2e   the simulation with trace.json, trace.ntff and notifications.ntff
#         streamed to disk
# The machine is shared and noisy: the figures that carry are the ratios to
# the peer measured in the same run, and the RSS growth between durations.
set -u
bin=$1
scenario=${SCENARIO:-sim/scenarios/trn2_48xl.yaml}
short=${SHORT_NS:-10000000}
long=${LONG_NS:-40000000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
field() { # field NAME LINE
    echo "$2" | tr ' ' '\n' | sed -n "/^$1\$/{n;p;q}"
}
echo "simulator: $scenario (conformance/bench/bench_sim.c)"
printf '  %-5s %-9s %11s %8s %12s %9s %14s\n' mode duration events seconds events/s rss_MiB "vs peer (x)"
for d in "$short" "$long"; do
    s=$("$bin" sim "$scenario" "$d") || exit 1
    n=$(field events "$s")
    p=$("$bin" peer "$n") || exit 1
    e=$("$bin" e2e "$scenario" "$d" "$tmp") || exit 1
    peer_rate=$(field events_per_s "$p")
    for line in "$p" "$s" "$e"; do
        mode=$(echo "$line" | cut -d' ' -f1)
        rate=$(field events_per_s "$line")
        awk -v m="$mode" -v d="$d" -v n="$(field events "$line")" -v t="$(field seconds "$line")" \
            -v r="$rate" -v k="$(field peak_rss_kb "$line")" -v pr="$peer_rate" 'BEGIN {
                printf "  %-5s %6.0f ms %11d %8.3f %12.0f %9.1f %14.3f\n", m, d / 1e6, n, t, r,
                       k / 1024, r / pr }'
    done
done
