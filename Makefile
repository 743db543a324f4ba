# mcp-code-mode. `make demo` runs the main job on the built-in example
# servers; `make test` runs every test. Both set up what they need: a Docker
# engine (installed from Debian packages when run as root), the sandbox image
# (built offline when no registry answers) and the pinned npm test servers.

GO          ?= go
BIN         := bin
CLI         := $(BIN)/mcp-code-mode
TESTSERVER  := $(BIN)/testserver
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
NPM_DIR     := testdata/npm

.PHONY: all build engine image testdata testdata-vscode test test-podman test-gvisor test-short lint fuzz demo bench clean

all: build

build:
	$(GO) build -o $(CLI) ./cmd/mcp-code-mode
	$(GO) build -o $(TESTSERVER) ./internal/testserver

# A reachable Docker engine (see .ci/engine.sh).
engine:
	@bash .ci/engine.sh

# The sandbox image, rebuilt only when the runner changed.
image: build engine
	$(CLI) build-image --if-stale

# The pinned third-party MCP servers and clients the tests use.
testdata: $(NPM_DIR)/node_modules/.package-lock.json

# VS Code as a test client: code-server driven through Debian's Chromium.
testdata-vscode:
	@bash .ci/vscode.sh

$(NPM_DIR)/node_modules/.package-lock.json: $(NPM_DIR)/package.json $(NPM_DIR)/package-lock.json
	cd $(NPM_DIR) && npm ci --no-audit --no-fund
	# .npmrc skips install scripts; Claude Code's only links its native binary
	# (an npm optional dependency) into place.
	cd $(NPM_DIR) && node node_modules/@anthropic-ai/claude-code/install.cjs

test: image testdata testdata-vscode
	$(GO) test -count=1 ./...

# The security and pool tests again, against Podman's Docker-compatible API.
test-podman: build
	@bash .ci/podman.sh

# The security tests again, with the sandbox on gVisor (runtime runsc, which
# .ci/engine.sh registers when it starts dockerd): the tests that call
# testenv.Engines(t, ..., testenv.GVisor, ...). -v lists them, and the run
# fails when none ran.
test-gvisor: image
	MCM_TEST_SUITE=gvisor MCM_TEST_RUNTIME=runsc $(GO) test -count=1 -v ./internal/aggregator

# Unit tests only: no engine, no npm servers.
test-short:
	$(GO) test -short ./...

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

fuzz:
	$(GO) test -run XXX -fuzz FuzzParseMessage -fuzztime 30s ./runner
	$(GO) test -run XXX -fuzz FuzzFromSchema -fuzztime 30s ./stubs
	$(GO) test -run XXX -fuzz FuzzCheckArgs -fuzztime 30s ./internal/aggregator

demo: image testdata
	@bash configs/demo.sh

# Performance against the targets: the tool-search quality (recall, MRR),
# then run latency, per-call overhead, concurrency, context size and memory
# of serve, side by side (also written to testdata/bench/results.md).
bench: image testdata build
	$(GO) test -count=1 -run TestSearchQuality -v ./internal/search
	$(GO) run ./cmd/mcp-code-mode-bench

clean:
	rm -rf $(BIN)
