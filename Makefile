# fencer: make run (set up, build, run on a bundled example), make test.
SHELL := /bin/bash
export PATH := $(PATH):/usr/local/go/bin
GO ?= go
RACE_PKGS := ./smt/...

.PHONY: all setup build run test vet fmt-check race soak bench clean

all: build

setup:
	@./scripts/setup.sh

build: setup
	$(GO) build -o fencer ./cmd/fencer

# The main job on a bundled example: Dekker's algorithm gets its fence.
run: build
	./fencer insert benchmarks/dekker_simple.cs

test: setup fmt-check vet
	$(GO) test -count=1 ./...
	$(GO) test -count=1 -race $(RACE_PKGS)
	$(GO) test -count=1 -race -short ./cegar/
	$(GO) build -o fencer ./cmd/fencer
	./fencer check benchmarks/*.cs benchmarks/regressions/*.cs

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change: $$out"; exit 1; fi

# Long runs: the differential suite on thousands of programs and the parser
# fuzzer for a fixed time.
soak: setup
	FENCER_SOAK=1 $(GO) test -count=1 -v -timeout 24h -run 'Differential' ./cegar/
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime 5m ./cs/

bench: build
	./fencer bench --runs 3 benchmarks/*.cs

clean:
	rm -f fencer
