# gpubot — make run (the bot on its embedded default), make test, make bench.
GO       ?= go
BIN      := bin/bot
PKGS     := ./...
REDIS_SERVER ?= $(shell command -v redis-server 2>/dev/null)

.PHONY: run build test test-unit lint bench fuzz clean

build:
	$(GO) build -o $(BIN) ./cmd/bot

## run: build and start the bot on the embedded default (miniredis + shipped catalogue + console)
run: build
	./$(BIN) serve

## lint: gofmt and go vet
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needs to run on:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)

## test: lint, then every test with the race detector against a real redis-server
test: lint
	@scripts/with-redis.sh $(GO) test -race -count=1 $(PKGS)

## test-unit: tests without starting redis-server (integration tests skip)
test-unit:
	$(GO) test -race -count=1 $(PKGS)

## bench: Go benchmarks with allocations
bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

## fuzz: each fuzz target for a while
FUZZTIME ?= 30s
fuzz:
	@for t in $$($(GO) test -list '^Fuzz' ./bot/parse/ | grep ^Fuzz); do \
		$(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) ./bot/parse/ || exit 1; done

clean:
	rm -rf bin
