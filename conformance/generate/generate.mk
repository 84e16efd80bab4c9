# conformance/generate/generate.mk: generative conformance (check_ntsim
# --generate; docs/generative.md): cases of the judged kinds, their expected
# values the built-in reference's, judged by the kinds' own judges, shrunk.
GENERATE_SRC := $(addprefix conformance/generate/,gen_rng.c gen_text.c gen_payload.c gen_oracle.c \
                  gen_shrink.c gen_run.c gen_record.c gen_record_check.c gen_json.c gen_ntff.c gen_notify.c gen_api.c \
                  gen_api_check.c)
