# orderengine — the two commands a newcomer needs are `make run` and `make test`.
GO        ?= go
BIN       := bin/orderengine
# Packages with concurrency run under the race detector in `make test`.
RACE_PKGS ?= ./actors/... ./http/... ./persistence/...

.PHONY: run build test deps fmt-check vet unit race bench clean

run: build
	$(BIN) serve

build:
	$(GO) build -o $(BIN) ./cmd/orderengine

# deps installs everything the tests need that Go modules do not bring.
deps:

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

unit:
	$(GO) test -count=1 ./...

race:
	$(GO) test -count=1 -race $(RACE_PKGS)

test: deps fmt-check vet unit race

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin
