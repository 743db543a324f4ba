# mcp-code-mode. `make demo` runs the main job on the built-in example
# servers; `make test` runs every test. Both set up what they need: a Docker
# engine (installed from Debian packages when run as root), the sandbox image
# (built offline when no registry answers) and the pinned npm test servers.

GO          ?= go
BIN         := bin
CLI         := $(BIN)/mcp-code-mode
TESTSERVER  := $(BIN)/testserver
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
UNPARAM     := mvdan.cc/unparam@v0.0.0-20260823230713-2fa3d841b0c8
DEADCODE    := golang.org/x/tools/cmd/deadcode@v0.52.0
NPM_DIR     := testdata/npm

.PHONY: all build engine image testdata testdata-vscode testdata-prometheus test test-podman test-gvisor test-short test-race lint fuzz generate check-generated demo bench soak clean

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

# Debian's Prometheus, which the metrics test runs to scrape serve --http.
testdata-prometheus:
	@bash .ci/prometheus.sh

$(NPM_DIR)/node_modules/.package-lock.json: $(NPM_DIR)/package.json $(NPM_DIR)/package-lock.json
	cd $(NPM_DIR) && npm ci --no-audit --no-fund
	# .npmrc skips install scripts; Claude Code's only links its native binary
	# (an npm optional dependency) into place.
	cd $(NPM_DIR) && node node_modules/@anthropic-ai/claude-code/install.cjs

test: image testdata testdata-vscode testdata-prometheus
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

# The unit tests' world: no container engine (DOCKER_HOST names a socket that
# does not exist, so the tests that need one skip, and no test package builds
# the sandbox image) and CI unset (under CI=true those tests fail instead).
# The tests that need the npm servers or VS Code need the engine too.
UNIT_ENV := env -u CI DOCKER_HOST=unix:///nonexistent/mcp-code-mode-no-engine.sock


# Unit tests only: no engine, no npm servers.
test-short:
	$(UNIT_ENV) $(GO) test -short ./...

# The unit tests under the race detector (which needs cgo: .ci/cc.sh
# installs gcc as root if there is no C compiler).
test-race:
	@GO=$(GO) bash .ci/cc.sh
	$(UNIT_ENV) $(GO) test -race -short -count=1 -timeout 15m ./...

# Packages that exist for the tests: lint accepts exports of theirs that only
# tests use (see .ci/unused.sh).
# Packages no main package imports: the tests' own helpers, and codemode,
# the library, whose callers here are its examples. For them, code that no
# test reaches is dead.
TEST_SUPPORT := internal/testserver/calllog internal/testenv internal/clitest codemode

# Findings let pass, one a line as the tool prints it but without
# :LINE:COLUMN, each with its reason. None today.
define LINT_WAIVED
endef
export LINT_WAIVED

# gofmt, vet and staticcheck, then unused parameters and results (unparam)
# and code that no main package reaches (deadcode): see .ci/unused.sh.
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	GO=$(GO) UNPARAM=$(UNPARAM) DEADCODE=$(DEADCODE) TEST_SUPPORT='$(TEST_SUPPORT)' bash .ci/unused.sh

# Every fuzz target (found by go test -list) for FUZZTIME each.
FUZZTIME ?= 20s
fuzz:
	GO=$(GO) FUZZTIME=$(FUZZTIME) bash .ci/fuzz.sh

# Rewrites the generated files (go generate; the WordNet lexicon needs
# Debian's wordnet-base, installed when run as root) and the golden files
# (go test -update in each package that has the flag).
generate:
	GO=$(GO) bash .ci/generate.sh

# Fails when `make generate` would change a file. It works on a copy of the
# working tree, so it neither needs a clean tree nor touches it.
check-generated:
	GO=$(GO) bash .ci/generate.sh --check

demo: image testdata
	@bash configs/demo.sh

# Performance against the targets: the tool-search quality (recall, MRR) on
# the tuning set and on the seventeen blind splits (testdata/search/blind to
# blind17; the first thirteen have been read and used, the fourteenth and
# fifteenth's misses never read, the last two read only after their one run;
# every split's totals are shown, its misses only written to its
# results.txt), then run latency,
# per-call overhead, concurrency, context size and memory of serve, side by
# side (also written to testdata/bench/results.md).
bench: image testdata build
	$(GO) test -count=1 -run TestSearchQuality -v ./internal/search
	$(GO) run ./cmd/mcp-code-mode-bench

# One serve --http on loopback, 8 clients sending programs of every outcome
# for SOAK (10m; SOAK=30s for a quick look), then checks that it left no
# container, process, descriptor or goroutine behind and that its memory
# stayed flat. Not part of CI.
SOAK ?= 10m
soak: image testdata build
	$(GO) run ./cmd/mcp-code-mode-bench -soak $(SOAK)

clean:
	rm -rf $(BIN)
