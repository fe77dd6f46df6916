# zertzboard: build, test and run. README.md lists what each target needs.
GO        ?= go
BIN       := bin
PKG       := ./cmd/zertzboard
STATICCHECK_VERSION := v0.7.0
LDFLAGS   := -s -w
# Flags for "make run", e.g. make run ARGS='--speed 4 --http 127.0.0.1:9090'.
ARGS      ?=

.PHONY: all build test test-short test-pi lint run pi bench strength clean funclen

all: build

# The first build downloads the modules and compiles for a minute or so; say
# so before the silence.
build:
	@[ -x $(BIN)/zertzboard ] || echo "make: building $(BIN)/zertzboard (the first build downloads modules and takes a minute or so)"
	$(GO) build -o $(BIN)/zertzboard $(PKG)

# The whole suite, with the race detector when a C compiler is there.
# scripts/test-prereqs says which tests this machine will skip (outside CI)
# or fails (in CI) when a tool they need is missing.
# It builds bin/zertzboard first: the hostile-client suite attacks a build
# without the race detector, which then comes from the build cache.
# -timeout 20m: with the larger Boardspace sample beside the repository the
# referee's exams alone take some 6 minutes under -race on a busy 2-core
# machine, near go test's default of 10 minutes per package.
test: build
	@race=$$(scripts/test-prereqs) || exit 1; \
	  echo "$(GO) test $$race -count=1 -timeout 20m ./..."; \
	  $(GO) test $$race -count=1 -timeout 20m ./...

# Skips the slow conformance and property tests.
test-short:
	$(GO) test -short ./...

# The functions longer than 80 lines, longest first: where to look
# before splitting (docs/LAYERS.md).
funclen:
	$(GO) run ./tools/funclen --max 80 .

lint:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt would change: $$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...

# The main job: the whole controller on a simulated board, playing the
# built-in games, with the embedded MQTT broker and the scoreboard on
# localhost. exec hands the recipe's process to zertzboard, so SIGTERM to
# make and Ctrl-C reach it and it stops cleanly (status 0, no make error).
run: build
	@exec $(BIN)/zertzboard sim $(ARGS)

# Static cross-builds for the Raspberry Pi: arm64 (Pi 3/4/5, Zero 2 W) and
# armv6 (Pi Zero, Pi 1).
pi:
	CGO_ENABLED=0 GOOS=linux GOARCH=arm64 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN)/zertzboard-linux-arm64 $(PKG)
	CGO_ENABLED=0 GOOS=linux GOARCH=arm GOARM=6 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN)/zertzboard-linux-armv6 $(PKG)
	@ls -l $(BIN)/zertzboard-linux-*

# The hardware, sensor, engine and referee tests built for the Pi's CPUs and
# run under qemu-user (Debian's qemu-user package), to catch 32-bit and
# alignment surprises on armv6. sim/table runs the board (board.Node: scan,
# referee, controller, journal) with its players; sim/simboard's end-to-end
# tests, the same code with MQTT for minutes, run natively only (they would
# add five minutes under qemu).
PI_TESTS := ./hardware/... ./sensors/... ./sim/ ./sim/players/ ./sim/table/ ./rig/ ./engine/... ./referee/ ./settle/
test-pi:
	@command -v qemu-aarch64 >/dev/null && command -v qemu-arm >/dev/null || { echo "make test-pi: needs qemu-aarch64 and qemu-arm (Debian: qemu-user)" >&2; exit 1; }
	CGO_ENABLED=0 GOARCH=arm64 $(GO) test -short -exec qemu-aarch64 $(PI_TESTS)
	CGO_ENABLED=0 GOARCH=arm GOARM=6 $(GO) test -short -exec qemu-arm $(PI_TESTS)

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# An engine-vs-engine match over fixed openings, colours swapped, scored
# with a 95 % Wilson interval (tools/strength; docs/ENGINE.md). Another
# match: make strength STRENGTH='--a level:8 --b dumbot:3 --board 37,48,61'.
STRENGTH ?= --a level:6 --b level:4 --board 37 --openings 10
strength:
	$(GO) run ./tools/strength $(STRENGTH)

clean:
	rm -rf $(BIN) dist

# Debian packages for the Pi: dist/zertzboard_VERSION_arm64.deb (Pi 3/4/5,
# Zero 2 W on 64-bit Raspberry Pi OS) and _armhf.deb (armv6 code: every Pi,
# Pi Zero and Pi 1 included, on 32-bit Raspberry Pi OS). The version comes
# from git (go run ./tools/mkdeb version); DEB_VERSION=1.2.3 overrides it.
# Install: packaging/README.md. Check: make deb-check.
DIST        := dist
DEB_VERSION ?=
MKDEB       := $(GO) run ./tools/mkdeb

.PHONY: deb deb-check
deb:
	@set -e; \
	version='$(DEB_VERSION)'; [ -n "$$version" ] || version=$$($(MKDEB) version); \
	echo "deb: version $$version"; \
	rm -f $(DIST)/zertzboard_*.deb; \
	for arch in arm64 armhf; do \
	  case $$arch in arm64) goarch=arm64 goarm=;; armhf) goarch=arm goarm=6;; esac; \
	  echo "deb: building zertzboard for linux/$$goarch$${goarm:+v$$goarm} (the first build takes a minute or two)"; \
	  CGO_ENABLED=0 GOOS=linux GOARCH=$$goarch GOARM=$$goarm $(GO) build -trimpath \
	    -ldflags "$(LDFLAGS) -X main.version=$$version" -o $(BIN)/deb/$$arch/zertzboard $(PKG); \
	  $(MKDEB) build --arch $$arch --binary $(BIN)/deb/$$arch/zertzboard --version "$$version" --out $(DIST); \
	done

# Checks the packages in dist/ with dpkg-deb (and lintian when installed).
deb-check:
	sh packaging/check-deb.sh $(DIST)/zertzboard_*.deb
