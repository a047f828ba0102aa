# The two commands of the README:
#   make run   installs what is missing, builds, runs the default job
#   make test  installs what is missing, builds (plain and ASan+UBSan), runs ctest
# Other targets: build, bench, clean.

BUILD  ?= build
ASAN   ?= build-asan
JOBS   ?= $(shell nproc 2>/dev/null || echo 2)
CTEST_ARGS ?=

.PHONY: all deps build build-asan run test test-asan bench clean rtl-test

all: build

deps:
	@scripts/install-deps

$(BUILD)/CMakeCache.txt:
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null

$(ASAN)/CMakeCache.txt:
	@cmake -S . -B $(ASAN) -DCMAKE_BUILD_TYPE=Debug -DGM_SANITIZE=ON -DGM_RTL=OFF >/dev/null

build: deps $(BUILD)/CMakeCache.txt
	@cmake --build $(BUILD) -j $(JOBS)

build-asan: deps $(ASAN)/CMakeCache.txt
	@cmake --build $(ASAN) -j $(JOBS)

run: build
	$(BUILD)/gmsim

test: build build-asan
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) $(CTEST_ARGS)
	cd $(ASAN) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		ctest --output-on-failure -j $(JOBS) -L 'unit|sanitize' $(CTEST_ARGS)

bench: build
	$(BUILD)/gmsim bench
	$(BUILD)/gmsim bench --generation --size standard

clean:
	rm -rf $(BUILD) $(ASAN)

# RTL lockstep harnesses (Verilator) are built in their own tree while they
# are completed (docs/verification.md): make rtl-test
RTLB ?= build-rtl
rtl-test: deps
	@cmake -S . -B $(RTLB) -DGM_RTL=ON >/dev/null
	@cmake --build $(RTLB) -j $(JOBS)
	cd $(RTLB) && ctest --output-on-failure -j $(JOBS) -L rtl

-include mk/synth.mk
