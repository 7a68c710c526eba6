# orderengine — the two commands a newcomer needs are `make run` and `make test`.
GO        ?= go
BIN       := bin/orderengine
GETH      := .cache/bin/geth
# Every target builds and tests with this Go release: go1.27.3 carries the
# standard library's security fixes that govulncheck asks for. The go
# command fetches it from the Go module proxy once (about 76 MB); a shell
# outside make needs the same export (README).
export GOTOOLCHAIN := go1.27.3
# The Go vulnerability database govulncheck reads: the OSV files of the
# golang.org/x/vulndb module, pinned here and fetched from the Go module
# proxy like any module (vuln.go.dev is not needed). Newer advisories come
# with a newer pseudo-version of that module.
VULNDB    := golang.org/x/vulndb@v0.0.0-20261105234957-e22db6528018
# version and commit are stamped into the binary (orderengine version,
# GET /v1/config, the build_info metric).
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT    ?= $(shell git rev-parse HEAD 2>/dev/null)
LDFLAGS   := -X github.com/orderengine/orderengine/internal/buildinfo.version=$(VERSION) \
             -X github.com/orderengine/orderengine/internal/buildinfo.commit=$(COMMIT)
# Packages with concurrency run under the race detector in `make test`;
# the others run without it. Each test runs once. The longest packages come
# first: the multi-process cluster tests (mostly waiting on their serve
# processes) then overlap the CPU-bound ones instead of running last.
RACE_PKGS ?= ./internal/clusterrun/... ./cmd/... ./http/... ./orders/... ./accounts/... ./actors/... ./app/... ./chainsync/... ./market/... ./keeper/... ./persistence/... ./platform/... ./chain/devchain/... ./cluster/natsjs/... ./cluster/members/...

.PHONY: run build test deps fmt-check vet vulncheck unit plain race bench clean cluster nemesis

run: build
	$(BIN) serve

# cluster runs the shared dev chain and three cluster nodes on loopback,
# prints one development API key for all of them, and stops everything on
# Ctrl-C (docs/cluster.md). CLUSTER_FLAGS adds flags of `orderengine
# cluster` (--port-offset N, --dir D, --independent).
cluster: build
	$(BIN) cluster $(CLUSTER_FLAGS)

build:
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/orderengine

# deps installs everything the tests need that Go modules do not bring.
deps: $(GETH) chromium nftables
	npm ci --prefix contracts
	npm ci --prefix actors/webhook/testdata/stripe
	npm ci --prefix docs/examples/ethers-order
	npm ci --prefix docs/examples/viem-order
	npm ci --prefix docs/examples/streams
	npm ci --prefix tools/openapi-lint
	npm ci --prefix tools/browser --no-audit --no-fund

# chromium is Debian's browser that the browser tests (http/web) drive
# headless through playwright-core, which downloads no browser of its own.
# It is installed once (CI runs as root on a fresh Debian machine; a
# developer's shell uses sudo) and nothing is done when it is there.
.PHONY: chromium
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium for the browser tests"; \
	  SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$SUDO apt-get update -qq && \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null; }

# nftables is Debian's packet filter, which the network-fault tests
# (internal/netns, the cluster's nemesis tests) use inside the network
# namespaces they make, as root; installed once like chromium.
.PHONY: nftables
nftables:
	@command -v nft >/dev/null 2>&1 || { \
	  echo "installing Debian's nftables for the network-fault tests"; \
	  SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$SUDO apt-get update -qq && \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nftables >/dev/null; }

# geth v1.16.7 is the external node of the chain/devchain tests (v1.17's
# command does not build here); built once into the gitignored .cache/bin.
$(GETH):
	GOBIN=$(CURDIR)/.cache/bin $(GO) install github.com/ethereum/go-ethereum/cmd/geth@v1.16.7

# contracts recompiles contracts/src with the pinned solc and regenerates the
# committed ABI/bytecode (contracts/build) and Go bindings (contracts/bindings).
.PHONY: contracts
contracts:
	npm ci --prefix contracts
	sh contracts/scripts/generate.sh

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# vulncheck reports known vulnerabilities reachable from the code (the
# standard library of GOTOOLCHAIN included); any finding fails the build.
vulncheck:
	$(GO) mod download $(VULNDB)
	$(GO) tool govulncheck -db file://$$($(GO) env GOMODCACHE)/$(VULNDB)/data/osv ./...

# unit runs every package without the race detector; race runs the
# concurrent ones with it; plain runs the rest, which with race is all of
# `make test`.
unit:
	$(GO) test -count=1 ./...

race:
	$(GO) test -count=1 -race $(RACE_PKGS)

plain:
	$(GO) test -count=1 $$($(GO) list ./... | grep -v -x -F "$$($(GO) list $(RACE_PKGS))")

test: deps fmt-check vet vulncheck plain race

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# nemesis runs the long fault campaign on a three-node cluster in network
# namespaces (docs/cluster.md, "Fault campaigns"; needs root and make
# deps): NEMESIS_ROUNDS rounds (default 3) of every fault class in random
# order, with longer faults than make test's campaign. Not part of make
# test; about 8 minutes a round.
nemesis: deps
	NEMESIS_CAMPAIGN=1 $(GO) test -count=1 -timeout 3h -v -run 'TestNemesisCampaign$$' ./internal/clusterrun/nemesis/

# bench-load runs the loopback load comparisons of docs/performance.md
# (about two minutes; the memory target at 1,000,000 orders is
# `go run ./bench order-memory -n 1000000`, about seven).
.PHONY: bench-load
bench-load:
	$(GO) run ./bench config
	$(GO) run ./bench read
	$(GO) run ./bench submit -n 30000
	$(GO) run ./bench order-read -n 20000 -reads 80000 -rounds 2
	$(GO) run ./bench restart -n 200000 -closed 0
	$(GO) run ./bench webhooks -rate 5000 -events 50000

clean:
	rm -rf bin

# vectors regenerates the EIP-712 and makerTraits golden vectors of package
# chain with the pinned ethers (needs node and npm; the tests do not).
.PHONY: vectors
vectors:
	npm ci --prefix chain/testdata/ethers --no-audit --no-fund
	node chain/testdata/ethers/gen.js
