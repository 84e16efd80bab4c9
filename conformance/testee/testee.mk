# conformance/testee/testee.mk: the testee protocol (testee.proto, protoc-c
# into $(BUILD)/gen-conf): messages, the runner's client, the transport; and
# builtin/, the real engine behind the protocol (`ntsim testee`, and make
# check's in-process testee).
TESTEE_SRC  := $(addprefix conformance/testee/,testee_msg.c testee_client.c testee_pipe.c testee_proc.c api_calls.c)
BUILTIN_SRC := $(addprefix conformance/testee/builtin/,testee_engine.c testee_abi.c testee_capture.c \
                 testee_convert.c testee_api.c)
TESTEE_PROTOS := conformance/testee/testee.proto
