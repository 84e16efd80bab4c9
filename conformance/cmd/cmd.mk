# conformance/cmd/cmd.mk: the ntsim command, the top layer: main.c
# dispatches, one file per subcommand. Nothing below includes its headers.
CMD_SRC := $(addprefix conformance/cmd/,main.c cmd_run.c cmd_record.c cmd_replay.c cmd_decode.c io.c \
             summary.c timelines.c cmd_export.c cmd_view.c inspect.c cmd_testee.c testee_faults.c \
             testee_flood.c testee_reword.c usage.c cmd_stats.c cmd_diff.c run_log.c)
