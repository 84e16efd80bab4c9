# conformance/kinds/kinds.mk: the vector kinds (kinds.h lists them once):
# each reads its vectors and judges them through a testee, or runs itself.
KINDS_SRC := $(addprefix conformance/kinds/,kinds.c kind_layout.c kind_enum.c kind_event_type.c \
               kind_record.c kind_record_judge.c kind_json.c kind_ntff.c ntff_protoc.c kind_notify.c \
               kind_scenario.c kind_decode.c kind_api.c kind_api_args.c kind_api_run.c kind_inspect.c)
