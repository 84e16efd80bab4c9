#!/bin/sh
# conformance/bench/run.sh BENCH_BIN [ARGS...]: runs the capture benchmark with its
# LTTng-UST peer recording into a flight-recorder (snapshot, overwrite)
# session, the same mode ntsim's rings work in. If no session daemon can be
# started, the benchmark still runs and says the peer is missing.
set -u
bin=$1
shift
session=ntsim-bench-$$
have_lttng=0
if command -v lttng >/dev/null 2>&1 && command -v lttng-sessiond >/dev/null 2>&1; then
    if ! pgrep -x lttng-sessiond >/dev/null 2>&1; then
        lttng-sessiond --daemonize --no-kernel >/dev/null 2>&1 || true
        sleep 1
    fi
    if lttng create "$session" --snapshot >/dev/null 2>&1; then
        lttng enable-channel --userspace --overwrite --subbuf-size=4M --num-subbuf=4 ch \
            >/dev/null 2>&1 &&
        lttng enable-event --userspace --channel=ch 'ntsim_bench:*' >/dev/null 2>&1 &&
        lttng start >/dev/null 2>&1 && have_lttng=1
    fi
fi
[ "$have_lttng" = 1 ] || echo "bench: LTTng-UST session unavailable; its row will be n/a"
# The tracepoint registers when the program starts; the session is already
# there, so the events are enabled from the first call.
"$bin" "$@"
rc=$?
if [ "$have_lttng" = 1 ]; then
    lttng stop "$session" >/dev/null 2>&1
    lttng destroy "$session" >/dev/null 2>&1
fi
exit $rc
