# gpubot — make run (the bot on its embedded default), make test, make bench.
GO       ?= go
BIN      := bin/bot
PKGS     := ./...
REDIS_SERVER ?= $(shell command -v redis-server 2>/dev/null)

.PHONY: run build test test-unit test-cluster lint bench soak fuzz fuzz-short clean

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

## fuzz: each fuzz target (every package with one) for FUZZTIME; fuzz-short: 3 s each, part of make test
FUZZTIME     ?= 30s
FUZZ_MINIMIZE ?= 5s
FUZZ_PKGS    := $(sort $(dir $(shell grep -rl --include='*_test.go' '^func Fuzz' . 2>/dev/null)))
fuzz:
	@set -e; for p in $(FUZZ_PKGS); do \
		for t in $$($(GO) test -list '^Fuzz' $$p | grep '^Fuzz'); do \
			echo "fuzz: $$t in $$p for $(FUZZTIME)"; \
			if [ -n "$(FUZZ_QUIET)" ]; then \
				out=$$($(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZ_MINIMIZE) $$p 2>&1) \
					|| { case "$$out" in *"Failing input"*) echo "$$out"; exit 1;; esac; \
					     echo "fuzz: $$t stopped without a failing input (a loaded machine: the fuzz timer ran out); running it again"; \
					     out=$$($(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZ_MINIMIZE) $$p 2>&1) \
					     || { echo "$$out"; exit 1; }; }; \
			else \
				$(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZ_MINIMIZE) $$p; \
			fi; \
		done; \
	done

fuzz-short:
	@$(MAKE) --no-print-directory fuzz FUZZTIME=3s FUZZ_MINIMIZE=1s FUZZ_QUIET=1

clean:
	rm -rf bin
