# conformance/runner/runner.mk: the Check runner of make check: main (the
# suites table), options, filters, shards, expected failures, the vectors
# suite and the summary.
RUNNER_SRC := $(addprefix conformance/runner/,check_main.c check_runner.c check_data.c check_xfail.c \
                                          check_junit.c check_summary.c check_vectors.c \
                                          check_generate.c)
