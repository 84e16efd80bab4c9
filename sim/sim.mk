# sim/sim.mk: the simulated device and what configures one run: its scenario
# format (the strict YAML reader, the loader), the inspect session's
# variables, the streamed run: libntsim_sim.a (links libyaml).
SIM_SRC := $(addprefix sim/,scheduler.c clock.c scenario_default.c workload.c run.c outputs.c stress.c \
             yaml_reader.c key_sort.c range_list.c scenario_keys.c scenario_load.c scenario_find.c locate.c inspect_env.c inspect_session.c sim_run.c run_counts.c rng.c)
