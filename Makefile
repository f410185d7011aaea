# fencer: make run (set up, build, run on a bundled example), make test.
SHELL := /bin/bash
export PATH := $(PATH):/usr/local/go/bin
GO ?= go
RACE_PKGS := ./smt/...

.PHONY: all setup build run test vet fmt-check race soak bench bench-scale check-scale hwcheck clean

all: build

setup:
	@./scripts/setup.sh

build: setup
	$(GO) build -o fencer ./cmd/fencer

# The main job on a bundled example: Dekker's algorithm gets its fence.
run: build
	./fencer insert benchmarks/dekker_simple.cs

# The scale benchmarks: one file per lock, N = 2 as written, 3 and 4 with
# -D N=3 / -D N=4 (benchmarks/scale/README.md). make test checks every lock
# at N = 2 and N = 3 (under a minute together on 2 cores); N = 4 takes up
# to minutes per lock: it is in bench-scale and check-scale.
SCALE := $(addprefix benchmarks/scale/,bakery.cs burns.cs dijkstra.cs filter.cs szymanski.cs ticket.cs)
# The same six locks written as a textbook, a paper or a C programmer would
# write them (benchmarks/scale/README.md): each must answer as its SCALE
# file does, in time and memory of the same order.
SCALE_FORMS := $(wildcard benchmarks/scale/forms/*.cs)
# Store buffering around a ring of 6 processes (herd's 6.SB shape), as .cs
# and .litmus: under a second per model, kept with the scale benchmarks.
SCALE_RING := benchmarks/scale/sb6.cs benchmarks/scale/sb6.litmus

test: setup fmt-check vet
	$(GO) test -count=1 ./...
	$(GO) test -count=1 -race $(RACE_PKGS)
	$(GO) test -count=1 -race -short ./cegar/
	$(GO) build -o fencer ./cmd/fencer
	./fencer check benchmarks/*.cs benchmarks/regressions/*.cs benchmarks/litmus/*.cs \
		benchmarks/rmm/*.rmm benchmarks/litmus/x86/*.litmus \
		benchmarks/litmus/x86/herd/*.litmus benchmarks/rmm/constructs/*.rmm \
		benchmarks/litmus/arm/*.litmus benchmarks/litmus/riscv/*.litmus \
		benchmarks/c/*.c
	./fencer check benchmarks/svcomp/*.yml
	./fencer check --timeout 120s $(SCALE) $(SCALE_FORMS)
	./fencer check --timeout 120s -D N=3 $(SCALE) $(SCALE_FORMS)

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change: $$out"; exit 1; fi

# Long runs: the differential suite on thousands of programs, the parser
# fuzzer for a fixed time, and the --html page of every benchmark's fences
# and counterexamples with headless Chromium drawing the examples (skipped
# where the chromium package is not installed).
soak: setup
	FENCER_SOAK=1 $(GO) test -count=1 -v -timeout 24h -run 'Differential' ./cegar/
	FENCER_SOAK=1 $(GO) test -count=1 -run 'DifferentialWeak' ./execgraph/
	FENCER_SOAK=1 $(GO) test -count=1 -run 'WeakInsert' ./cfront/
	FENCER_SOAK=1 $(GO) test -count=1 -timeout 2h -run 'HTMLSweep|BrowserRendersPages' ./cmd/fencer/
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime 5m ./cs/
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime 1m ./rmm/
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime 1m ./litmus/
	$(GO) test -run '^$$' -fuzz FuzzSites -fuzztime 2m ./fences/

# The benchmark table (median of 3 runs, each in a child process: time and
# peak memory), with Table 1's times beside the TSO rows.
BENCH_FLAGS ?= --runs 3 --model tso,pso --timeout 10m
bench: build
	./fencer bench $(BENCH_FLAGS) benchmarks/*.cs

# The scale benchmarks (2, 3 and 4 processes; benchmarks/scale/README.md):
# one run each under every model, 300 s at most per run (Bakery with four
# processes is the longest: README there). check-scale runs
# their expectations under the same limit, at N = 2, 3 and 4 (make test
# checks SCALE at N = 2 and N = 3).
SCALE_TIMEOUT ?= 300s
bench-scale: build
	for n in 2 3 4; do ./fencer bench --runs 1 --model sc,tso,pso --timeout $(SCALE_TIMEOUT) -D N=$$n $(SCALE) $(SCALE_FORMS) || exit $$?; done
	./fencer bench --runs 1 --model sc,tso,pso --timeout $(SCALE_TIMEOUT) $(SCALE_RING)

check-scale: build
	s=0; for n in 2 3 4; do ./fencer check --timeout $(SCALE_TIMEOUT) -D N=$$n $(SCALE) $(SCALE_FORMS) || s=$$?; done; \
	./fencer check --timeout $(SCALE_TIMEOUT) $(SCALE_RING) || s=$$?; exit $$s

# The model checked against this machine's CPU (not in make test: it needs
# an x86-64 host and takes a minute or more): every litmus test and the x86
# tests of benchmarks/ run on the CPU for HW_TIME each; it fails when the CPU
# reaches a bad state that fencer's TSO semantics says is unreachable, and
# prints per test whether the relaxed outcomes TSO allows were seen
# (docs/hw.md). Tests with more threads than CPUs are listed as skipped.
HW_TIME ?= 2s
HW_TESTS := benchmarks/litmus/*.cs benchmarks/litmus/x86/*.litmus $(addprefix benchmarks/,sb.cs sb_procs.cs mp.cs mp_array.cs lb.cs) \
	$(wildcard $(addprefix benchmarks/c/,sb.c mp.c lb.c iriw.c))
hwcheck: build
	./fencer run --hw --check-model --time $(HW_TIME) $(HW_TESTS)

clean:
	rm -f fencer
