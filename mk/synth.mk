# Synthesis and timing of the RTL blocks (docs/synthesis.md). Included from
# the top Makefile.
#   make synth            router sweep at the small sizes (2x1, 8x4, 10x8) +
#                         the DC-L1 node queues when rtl/ has them; seconds
#   make synth-large      the full router sweep (adds 40x32, 80x32, 80x40)
#                         and the NoC area of the DC-L1 design points; long,
#                         see docs/results/area-timing.md for the run times
#   make synth-test       the small flow check (tests/system/synth_small.sh)
#   make synth-large-test the full sweep with its checks as a ctest regression
#                         (tests/synth_large/, label synth_large; about an hour)
# SYNTH_ARGS is passed to scripts/synth (e.g. SYNTH_ARGS="--jobs 2").

SYNTH_ARGS ?=
SYNTH_JOBS ?= 2

.PHONY: synth synth-large synth-test synth-large-test

synth: deps
	scripts/synth --sweep router $(SYNTH_ARGS)
	@if grep -qs "^\s*module\s\+gm_dcl1_queues\b" rtl/*.sv rtl/*.v; then \
		scripts/synth --sweep queues $(SYNTH_ARGS); fi

# The NoC area takes its networks from `gmsim topology` of the four DC-L1
# paper design points' configs: the routers a simulation of them builds.
NOC_AREA_CONFIGS ?= $(foreach d,baseline pr40 sh40 sh40_c10,configs/dcl1/$(d).ini)

synth-large: build
	scripts/synth --sweep router --large --jobs $(SYNTH_JOBS) $(SYNTH_ARGS)
	scripts/noc-area --jobs $(SYNTH_JOBS) --gmsim $(BUILD)/gmsim \
		$(foreach c,$(NOC_AREA_CONFIGS),--config $(c)) \
		--md docs/results/noc-area.md --json docs/results/noc-area.json

synth-test: deps
	sh tests/system/synth_small.sh $(BUILD)/gmsim .

synth-large-test: deps
	cmake -S . -B build-synth -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGM_SYNTH_LARGE=ON
	cmake --build build-synth -j $(JOBS)
	cd build-synth && ctest --output-on-failure -L synth_large
