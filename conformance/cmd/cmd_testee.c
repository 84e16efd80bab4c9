/*
 * conformance/cmd/cmd_testee.c: `ntsim testee` — the built-in testee: reads
 * testee protocol requests on stdin (conformance/testee/testee.proto: 4-byte
 * little-endian length, then the message), answers each on stdout with the
 * real engine (testee_engine.h, the handler `make check` calls in process),
 * until EOF. `--break=LIST` makes it a broken testee on purpose (cli.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "testee_engine.h"
#include "testee_pipe.h"

static const char *const usage_testee =
    "usage: ntsim testee [--break=FAULT,...] [--kinds=LIST] [--capabilities=LIST]\n"
    "\n"
    "The built-in testee of the conformance suite: answers the testee protocol\n"
    "(conformance/testee/testee.proto, conformance/testee/TESTEE.md) on stdin and stdout with the\n"
    "real engine until stdin ends. Run it through the runner:\n"
    "  check_ntsim --testee 'build/ntsim testee'\n"
    "Exit 0 at the end of stdin, 1 on a malformed request frame or a failed write.\n"
    "\n"
    "  --break=LIST   answer wrongly or misbehave on purpose, to test the runner:\n"
    "                 json_key_order  phase before event_type in every JSON event\n"
    "                 record_byte     one bit of every drained record's thread_id flipped\n"
    "                 enum_value      every enum's last member one higher\n"
    "                 nul_names       \"\\0junk\" after every string of layout, enum and\n"
    "                                 event_type replies\n"
    "                 empty           every reply (but hello's) of the right kind with\n"
    "                                 nothing in it: no optional field, no element\n"
    "                 flood=WHAT      stuff ~60 MB into every reply it fits (log lines,\n"
    "                                 unknown fields, layout fields, records, emits\n"
    "                                 results, a JSON document: log, unknown, fields,\n"
    "                                 records, emits, json): the runner's bounds\n"
    "                 omit=FIELD      leave that field out of every reply's body (a\n"
    "                                 field name of testee.proto: global_stats, log...)\n"
    "                 forge           a hello name and Error replies that try to print\n"
    "                                 lines of the runner's own (line breaks, ESC)\n"
    "                 overwrite_count one overwrite fewer in the counters of a ring whose\n"
    "                                 capacity is not a power of two\n"
    "                 json_key_order_rare  the two data keys of nrt_async_sema_wait START\n"
    "                                 events in the other order\n"
    "                 escape_1e       the byte 0x1e escaped as \\u001E (upper case)\n"
    "                 reword          every logged message in other words: the same\n"
    "                                 level, quoted text and values, none of ntsim's\n"
    "                                 words (what a port may log: it must pass what\n"
    "                                 the plain testee passes)\n"
    "                 log_unlisted    every log counts two messages more than it shows\n"
    "                 no_body         every reply (but hello's) a Response with no body\n"
    "                 oom_leak        every api call that runs out of memory\n"
    "                                 (NRT_RESOURCE) reports one block more kept than\n"
    "                                 it found (blocks_kept): a port's forgotten free\n"
    "                 crash=N         SIGSEGV at the N-th request (hello is the first)\n"
    "                 hang=N          never answer the N-th request\n"
    "                 exit=N          exit 3 at the N-th request\n"
    "                 garbage=N       answer the N-th request with bytes that are not a\n"
    "                                 Response\n"
    "                 disorder=N      answer the N-th request with another id\n"
    "                 close_stdout=N  close stdout at the N-th request, and stay\n"
    "                 helper          leave a child that holds the pipes (30 s)\n"
    "                 escape          the same child, in a session of its own\n"
    "                 fds             say on stderr which descriptors it was started with\n"
    "                 stdout_forge    write a summary line into the runner's stdout\n"
    "                                 (/proc/PPID/fd/1) at the start\n"
    "                 (N counts again from 1 when the runner restarts the testee)\n"
    "  --kinds=LIST   announce only these kinds in the hello (comma-separated; '' none)\n"
    "  --capabilities=LIST  announce only these capabilities (log, stats,\n"
    "                 fail_allocations, json_escape, blocks; '' none): a port's view\n";

static const char *frame_error(ntsim_frame_status_t st)
{
    switch (st) {
    case NTSIM_FRAME_TRUNCATED: return "stdin ended inside a frame";
    case NTSIM_FRAME_TOO_LONG: return "a frame longer than the 64 MiB limit";
    case NTSIM_FRAME_NO_MEMORY: return "out of memory";
    default: return "cannot read stdin";
    }
}

/* Answers frames until EOF; the exit status. */
static int serve(const ntsim_testee_faults_t *faults)
{
    ntsim_testee_faults_start(faults);
    for (uint64_t n = 1;; n++) {
        uint8_t *req = NULL, *resp = NULL;
        size_t len = 0, rlen = 0;
        ntsim_frame_status_t st = ntsim_frame_read(STDIN_FILENO, -1, &req, &len);
        if (st == NTSIM_FRAME_EOF)
            return NTSIM_EXIT_OK;
        if (st != NTSIM_FRAME_OK) {
            fprintf(stderr, "ntsim testee: request %llu: %s\n", (unsigned long long)n,
                    frame_error(st));
            return NTSIM_EXIT_FAIL;
        }
        ntsim_testee_faults_before(faults, n);
        NRT_STATUS rc = ntsim_testee_engine_serve(req, len, &resp, &rlen);
        free(req);
        if (rc == NRT_SUCCESS)
            rc = ntsim_testee_faults_apply(faults, n, &resp, &rlen);
        int flooded = rc == NRT_SUCCESS ? ntsim_testee_flood_write(faults, resp, rlen,
                                                                   STDOUT_FILENO)
                                        : 0;
        st = rc != NRT_SUCCESS ? NTSIM_FRAME_NO_MEMORY
             : flooded > 0     ? NTSIM_FRAME_OK
             : flooded < 0     ? NTSIM_FRAME_IO_ERROR
                               : ntsim_frame_write(STDOUT_FILENO, resp, rlen, -1);
        free(resp);
        if (st != NTSIM_FRAME_OK) {
            fprintf(stderr, "ntsim testee: request %llu: %s\n", (unsigned long long)n,
                    rc != NRT_SUCCESS ? "out of memory" : "cannot write stdout");
            return NTSIM_EXIT_FAIL;
        }
    }
}

int ntsim_cmd_testee(int argc, char **argv)
{
    static const struct option opts[] = {{"break", required_argument, NULL, 'b'},
                                         {"kinds", required_argument, NULL, 'k'},
                                         {"capabilities", required_argument, NULL, 'c'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    ntsim_testee_faults_t faults = {0};
    char why[256];
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 'b':
            if (!ntsim_testee_faults_parse(optarg, &faults, why, sizeof why))
                return ntsim_cli_usage_error("testee", "--break: %s", why);
            break;
        case 'k': faults.kinds = optarg; break;
        case 'c': faults.capabilities = optarg; break;
        case 'h': fputs(usage_testee, stdout); return NTSIM_EXIT_OK;
        default: return ntsim_cli_bad_option("testee", c, argv, opts);
        }
    }
    if (optind != argc)
        return ntsim_cli_usage_error("testee", "unexpected argument '%s'", argv[optind]);
    int rc = serve(&faults);
    ntsim_testee_engine_reset();
    ntsim_capture_shutdown();
    return rc;
}
