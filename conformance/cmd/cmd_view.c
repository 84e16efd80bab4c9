/*
 * conformance/cmd/cmd_view.c: `ntsim view FILE -o timeline.html` — one
 * self-contained HTML page (no network, no external script) drawing FILE's
 * lanes as SVG, with zoom and hover details (D-TIMELINE).
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>

#include "cli.h"

static const char *const usage_view =
    "usage: ntsim view FILE [-o timeline.html] [--max-events N] [--max-input-bytes N]\n"
    "\n"
    "Writes one self-contained HTML page (no network, no external script) that draws\n"
    "FILE's timeline: a lane per host thread, per NeuronCore and per NC for\n"
    "notifications and DMA, spans nested, instants as dots (red: an unmatched START or\n"
    "STOP, or events lost), arrows from each nrt_execute to its device spans. The\n"
    "wheel or + / - zoom, dragging pans, pointing at a mark shows its details. FILE is\n"
    "read as ntsim export reads it (a fetch document, NTFF or a record dump, by content).\n"
    "\n"
    "  -o, --output OUT     the page to write (default timeline.html)\n"
    NTSIM_CLI_CONVERT_LIMITS_USAGE;

static void print_usage_view(FILE *out)
{
    fputs(usage_view, out);
}

int ntsim_cmd_view(int argc, char **argv)
{
    const char *out = "timeline.html";
    ntsim_read_limits_t limits;
    int rc = ntsim_cli_convert_options(argc, argv, print_usage_view, &out, &limits);
    if (rc >= 0)
        return rc;
    return ntsim_cli_convert("view", argv[optind], out, NTSIM_TIMELINE_HTML, &limits);
}
