# gpubot — make run (the bot on its embedded default), make test-quick while
# you work, make test before you push (and in CI), make bench.
GO       ?= go
BIN      := bin/bot
PKGS     := ./...
REDIS_SERVER ?= $(shell command -v redis-server 2>/dev/null)

.PHONY: run build test test-quick test-unit test-cluster lint bench soak fuzz fuzz-short clean

build:
	$(GO) build -o $(BIN) ./cmd/bot

## run: build and start the bot on the embedded default (miniredis + shipped catalogue + console)
run: build
	./$(BIN) serve

STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

## lint: gofmt, go vet and staticcheck
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needs to run on:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	$(GO) run $(STATICCHECK) $(PKGS)

## test: lint, each fuzz target briefly, then every test with the race detector against a real redis-server
test: lint
	@$(MAKE) --no-print-directory fuzz-short
	@scripts/with-redis.sh $(GO) test -race -count=1 $(PKGS)
	@# memory bounds are measured without the race detector, which allocates more
	@$(GO) test -count=1 -run 'Memory$$' ./bot/ledger/

## test-quick: every package's tests in -short mode, cached (0.5 s; 27–49 s with nothing cached on a shared 2-core machine): no lint
## or vet (make lint), no race detector, no fuzzing, no redis-server (integration tests skip), and the slow corpus and soak tests skip (testing.Short)
test-quick:
	$(GO) test -short -vet=off $(PKGS)

## test-cluster: the Redis-backed suites (ledger, de-duplication, scheduler, catalogue, outbox) against a real 3-master Redis Cluster
CLUSTER_PKGS := ./bot/store/ ./bot/ledger/ ./bot/schedule/ ./knowledge/catalog/ ./bot/transport/ ./bot/slackpost/ ./bot/subscribe/ ./infra/redisconn/
test-cluster:
	@scripts/with-redis-cluster.sh $(GO) test -count=1 -run 'RealRedis|Integration|Replicas|Cluster' $(CLUSTER_PKGS)

## test-unit: tests without starting redis-server (integration tests skip)
test-unit:
	$(GO) test -race -count=1 $(PKGS)

## bench: Go benchmarks (-benchmem), the catalogue at 100k offers, and the HTTP load test; prints one table (BENCHMARKS.md)
BENCH_OUT     := bin/bench-go.txt
LOADGEN_FLAGS ?=
bench:
	@mkdir -p bin
	@echo "bench: Go benchmarks (a minute or two; raw output in $(BENCH_OUT))" >&2
	@$(GO) test -run '^$$' -bench . -skip PeakRSS -benchmem $(PKGS) > $(BENCH_OUT) || { cat $(BENCH_OUT); exit 1; }
	@$(GO) test -run '^$$' -bench PeakRSS -benchtime 1x -benchmem ./knowledge/catalog/ >> $(BENCH_OUT) || { cat $(BENCH_OUT); exit 1; }
	@$(GO) run ./cmd/loadgen -gobench $(BENCH_OUT) $(LOADGEN_FLAGS)

## soak: the load test for SOAKTIME with redis-server killed every 20 s, again with it stopped (SIGSTOP) for 10 s of every 20,
## then the fault and hostile-client tests SOAK_COUNT times (silent and stalled bodies, idle and per-address connection floods,
## a stalled Redis under /gpu fit, shutdown with writes pending): signed commands acked and answered within 3 s, loopback only
SOAKTIME   ?= 2m
SOAK_COUNT ?= 5
SOAK_STALL_RATE ?= 200
soak:
	@scripts/with-redis.sh $(GO) run ./cmd/loadgen -duration $(SOAKTIME) -open-baseline=false -redis-kill 20s -redis-down 3s -check errors $(LOADGEN_FLAGS)
	@scripts/with-redis.sh $(GO) run ./cmd/loadgen -duration $(SOAKTIME) -rate $(SOAK_STALL_RATE) -open-baseline=false -closed 0 -redis-kill 20s -redis-down 10s -redis-stall -check errors $(LOADGEN_FLAGS)
	@scripts/with-redis.sh $(GO) test -race -count=$(SOAK_COUNT) \
		-run 'TestRedisKilledMidLoad|TestRealRedisDown|TestLLMFaultsLeaveTheTemplate|TestSlackServerErrors|TestGarbageFromAHostedSource|TestSlowLoris|TestOversizedBodies|TestUnsignedFlood|TestBudgetBounds|TestHungLLM|TestFullQueue|TestOutbox|TestServeStartsWithRedisDown|TestSilentBodiesDoNotStarveSignedCommands|TestStalledBodiesAreCappedPerClient|TestIdleClientsAfterA401DoNotExhaustConnections|TestIdleKeepAlivesAreClosedWhenTheListenerIsFull|TestConnectionsArePerIPCapped|TestManySignedCommandsFromOneAddressAreNotCapped|TestStalledRedisCostsTheAnswersNothing|TestContextDeadlinesAreHonoured|TestShutdownTellsEveryPendingSettlement' \
		./bot/transport/ ./bot/ledger/ ./knowledge/catalog/ ./bot/slackpost/ ./cmd/bot/ ./bot/ ./infra/redisconn/

## fuzz: each fuzz target (every func FuzzX) for FUZZTIME, FUZZ_JOBS at a time (default: the CPUs), one per package first so
## each instrumented build happens once; fuzz-short: 3 s each, part of make test (scripts/fuzz.sh)
FUZZTIME      ?= 30s
FUZZ_MINIMIZE ?= 5s
FUZZ_JOBS     ?=
fuzz:
	@GO="$(GO)" FUZZTIME=$(FUZZTIME) FUZZ_MINIMIZE=$(FUZZ_MINIMIZE) FUZZ_JOBS=$(FUZZ_JOBS) FUZZ_QUIET=$(FUZZ_QUIET) scripts/fuzz.sh

fuzz-short:
	@$(MAKE) --no-print-directory fuzz FUZZTIME=3s FUZZ_MINIMIZE=1s FUZZ_QUIET=1

clean:
	rm -rf bin
