# The two commands of the README:
#   make run   installs what is missing, builds, runs the default job
#   make test  installs what is missing, builds (plain, ASan+UBSan, and the
#              Verilator/SystemC tree, the latter also in Release), runs ctest
#              in each and the RTL smoke regression (scripts/regress smoke)
# Other targets: build, build-rtl-release, bench, rtl-test, regress-nightly,
# test-slurm (the sweep engine on a real one-node Slurm: docs/sweeps.md),
# test-pinned-full (the whole pinned-behaviour table), clean.

BUILD  ?= build
ASAN   ?= build-asan
JOBS   ?= $(shell nproc 2>/dev/null || echo 2)
CTEST_ARGS ?=

RTLB  ?= build-rtl
RTLR  ?= build-rtl-release

.PHONY: all deps build build-asan build-rtl build-rtl-release run test test-asan bench clean rtl-test \
	regress-smoke regress-nightly test-slurm test-pinned-full

all: build

deps:
	@scripts/install-deps

# A tree is configured until CMake has written its Makefile, its last
# step: an interrupted first configure leaves CMakeCache.txt without one,
# and keying on the cache would then skip configuring for good.
$(BUILD)/Makefile:
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null

$(ASAN)/Makefile:
	@cmake -S . -B $(ASAN) -DCMAKE_BUILD_TYPE=Debug -DGM_SANITIZE=ON -DGM_RTL=OFF >/dev/null

build: deps $(BUILD)/Makefile
	@cmake --build $(BUILD) -j $(JOBS)

build-asan: deps $(ASAN)/Makefile
	@cmake --build $(ASAN) -j $(JOBS)

# The RTL tree: the same model plus the Verilated lockstep benches, the
# SystemC top and gmsim-cosim (docs/verification.md, docs/cosim.md).
$(RTLB)/Makefile:
	@cmake -S . -B $(RTLB) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGM_RTL=ON >/dev/null

build-rtl: deps $(RTLB)/Makefile
	@cmake --build $(RTLB) -j $(JOBS)

# The RTL tree must build in every build type (-O3 warns where -O2 does
# not). A second full Verilated tree in Release costs about 12 CPU minutes
# on the 2-core machine; the harnesses that meet third-party headers in
# optimised code (the SystemC top and the co-simulation: target
# rtl-release-check, tb/CMakeLists.txt) cost about one.
$(RTLR)/Makefile:
	@cmake -S . -B $(RTLR) -DCMAKE_BUILD_TYPE=Release -DGM_RTL=ON >/dev/null

build-rtl-release: deps $(RTLR)/Makefile
	@cmake --build $(RTLR) -j $(JOBS) --target rtl-release-check

run: build
	$(BUILD)/gmsim

test: build build-asan build-rtl build-rtl-release
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) $(CTEST_ARGS)
	cd $(ASAN) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		ctest --output-on-failure -j $(JOBS) -L 'unit|sanitize' $(CTEST_ARGS)
	cd $(RTLB) && ctest --output-on-failure -j $(JOBS) -L rtl $(CTEST_ARGS)
	cd $(RTLR) && ctest --output-on-failure -L systemc $(CTEST_ARGS)
	scripts/regress smoke --build $(RTLB) -j $(JOBS)

bench: build
	scripts/bench --gmsim $(BUILD)/gmsim
	$(BUILD)/gmsim bench --generation --size standard

clean:
	rm -rf $(BUILD) $(ASAN) $(RTLB) $(RTLR)

# The RTL part of `make test` alone, and the regressions.
rtl-test: build-rtl
	cd $(RTLB) && ctest --output-on-failure -j $(JOBS) -L rtl $(CTEST_ARGS)

regress-smoke: build-rtl
	scripts/regress smoke --build $(RTLB) -j $(JOBS)

regress-nightly: build-rtl
	scripts/regress nightly --build $(RTLB) -j $(JOBS)

# Starts munged, slurmctld and slurmd here (root; installs slurm-wlm and
# munge), runs a DC-L1 subset and the smoke regression through Slurm and
# locally and compares them (tests/slurm/slurm_sweeps.sh). Not in `make
# test`: it repeats the smoke regression twice (docs/sweeps.md).
test-slurm: deps $(RTLB)/Makefile
	@scripts/install-deps --slurm
	@cmake -S . -B $(RTLB) -DGM_SLURM_TEST=ON >/dev/null
	@cmake --build $(RTLB) -j $(JOBS)
	cd $(RTLB) && ctest --output-on-failure -L slurm $(CTEST_ARGS)

# The whole pinned-behaviour table, every config x every kernel (2592 rows, over 20
# CPU minutes; the default suite checks a subset): run it before changing
# anything on a timing path (docs/architecture.md, "Exact shortcuts").
test-pinned-full: build
	@cmake -S . -B $(BUILD) -DGM_PINNED_FULL=ON >/dev/null
	cd $(BUILD) && ctest --output-on-failure -L pinned_full $(CTEST_ARGS)

-include mk/synth.mk
