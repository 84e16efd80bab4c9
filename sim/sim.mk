# sim/sim.mk: the simulated device (no YAML, no vectors): libntsim_sim.a.
SIM_SRC := $(addprefix sim/,scheduler.c clock.c scenario_default.c workload.c run.c outputs.c stress.c)
