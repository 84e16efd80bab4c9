/*
 * conformance/cmd/cmd_view.c: `ntsim view FILE [-o OUT]` — one
 * self-contained HTML page (no network, no external script) drawing FILE's
 * lanes, with zoom and hover details (D-TIMELINE-HTML): the registry's
 * page format (ntsim_cli_timeline_page).
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>

#include "cli.h"

#define USAGE_VIEW                                                                          \
    "usage: ntsim view FILE [-o %s] [--max-events N] [--max-input-bytes N]\n"           \
    "\n"                                                                                \
    "Writes one self-contained HTML page (no network, no external script) that draws\n" \
    "FILE's timeline: a lane per host thread, per NeuronCore and per NC for\n"          \
    "notifications and DMA, spans nested, instants as dots (red: an unmatched START\n"   \
    "or STOP, or events lost), arrows from each nrt_execute to its device spans. The\n"  \
    "wheel or + / - zoom, dragging pans, pointing at a mark shows its details. FILE\n"   \
    "is read as ntsim export reads it (a fetch document, NTFF or a record dump, told\n"  \
    "by content).\n"                                                                     \
    "\n"                                                                                \
    "  -o, --output OUT     the page to write (default %s)\n"                           \
    NTSIM_CLI_CONVERT_LIMITS_USAGE

/* The page's own file name is the registry's (ntsim_cli_timeline_page). */
static void print_usage_view(FILE *out)
{
    const char *file = ntsim_cli_timeline_page()->file;
    fprintf(out, USAGE_VIEW, file, file);
}

int ntsim_cmd_view(int argc, char **argv)
{
    const char *out = ntsim_cli_timeline_page()->file;
    ntsim_read_limits_t limits;
    int rc = ntsim_cli_convert_options("view", argc, argv, print_usage_view, &out, &limits);
    if (rc >= 0)
        return rc;
    return ntsim_cli_convert("view", argv[optind], out, ntsim_cli_timeline_page(), &limits);
}
