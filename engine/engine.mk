# engine/engine.mk: the capture engine and the converters, libntsim.a and
# libntsim.so, by stage. The shared pieces sit at engine/'s top (the one event
# table, the record reader, interned names, the allocator, the log, the
# status names, the per-session hooks, reading inputs and writing outputs);
# each stage keeps its private headers beside its sources.
#
#   capture/   the rings, the grace barrier, emit/drain/start/stop, the config API
#   convert/   the JSON fetch document, NTFF (ntff.proto), notifications
#   timeline/  records as a timeline: model, lanes, clock fit, its writers
#              and the one registry of them, the output formats
#   read/      what the engine writes, read back (ntsim/read.h): JSON, NTFF,
#              record dumps told apart by content; ntsim decode's printers
#   analyze/   what traces say (ntsim/analyze.h): ntsim stats, ntsim diff
ENGINE_SRC := $(addprefix engine/,alloc.c event_table.c log.c data_view.c intern.c status.c input.c output.c suggest.c \
                                   session.c) \
              $(addprefix engine/capture/,ring.c grace.c capture.c config.c) \
              $(addprefix engine/convert/,json.c time_sync.c ntff.c notify.c) \
              $(addprefix engine/timeline/,timeline.c pairs.c timeline_lanes.c clock_align.c pftrace.c \
                                           chrome_trace.c timeline_html.c timeline_page.c \
                                           output_formats.c) \
              $(addprefix engine/read/,read.c read_values.c read_json.c read_ntff.c json_reader.c \
                                       ntff_wire.c decode.c) \
              $(addprefix engine/analyze/,stats.c stats_write.c diff.c)
# protoc-c's output for these goes to $(BUILD)/gen.
ENGINE_PROTOS := engine/convert/ntff.proto engine/timeline/perfetto_trace.proto
# The stages' folders: only the engine and its unit tests have them on -I.
ENGINE_STAGES := engine/capture engine/convert engine/timeline engine/read engine/analyze
# Headers at engine/'s top that only the engine and its unit tests may include
# (each refuses to compile without NTSIM_ENGINE_INTERNAL; make layers probes it).
ENGINE_PRIVATE_TOP := alloc.h log.h growbuf.h session.h
