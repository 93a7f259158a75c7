# calldir: `make run` and `make test` take a fresh Debian machine with the
# Swift toolchain from nothing to working.

SWIFT      ?= swift
CONFIG     ?= data/sample/calldir.json
STORE      ?= out/store
DEB_PACKAGES = libsqlite3-dev libicu-dev libxml2-dev sqlite3 libsodium-dev libssl-dev libcurl4-openssl-dev busybox time
RELEASE_BIN  = .build/release/calldir
# Release binaries link the Swift runtime and Foundation statically: a
# command starts in about a third of the time (no dynamic symbol binding),
# which matters for short runs from scripts and cron.
RELEASE      = -c release --static-swift-stdlib
# ... and libsodium, libsqlite3 and libcrypto from their Debian archives,
# which `static-libs` links into STATIC_LIBS (see Package.swift): no shared
# library of theirs to load and bind at start-up, 1-2 ms less per command.
STATIC_LIBS  = .build/static-libs

.PHONY: all deps static-libs build run test docs install uninstall fuzz fuzz-smoke bench bench-scale plan clean

all: build

# Install the Debian packages calldir links against, only when absent.
deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  sudo=""; [ "$$(id -u)" -eq 0 ] || sudo="sudo"; \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing; \
	fi

# The archives release builds link, gathered where Package.swift looks; one
# that is absent is simply left out (its shared library serves instead).
static-libs: deps
	@rm -rf $(STATIC_LIBS) && mkdir -p $(STATIC_LIBS) && \
	  for name in sodium sqlite3 crypto; do \
	    archive=/usr/lib/$$(uname -m)-linux-gnu/lib$$name.a; \
	    if [ -f "$$archive" ]; then ln -s "$$archive" $(STATIC_LIBS)/; fi; \
	  done

build: static-libs
	$(SWIFT) build $(RELEASE) --product calldir

# Compile the sample sources in data/sample into a store and show the result.
run: build
	$(RELEASE_BIN) build --config $(CONFIG) --store $(STORE) --verbose
	$(RELEASE_BIN) history --store $(STORE)
	@latest=$$($(RELEASE_BIN) build --config $(CONFIG) --store $(STORE) --json | sed -n 's/.*"snapshot":"\([^"]*\)".*/\1/p'); \
	  $(RELEASE_BIN) inspect "$$latest"; \
	  echo "--- entries of $$latest, without the expanded ranges:"; \
	  $(RELEASE_BIN) inspect --entries "$$latest" | grep -v -E '^block	3316[23]'; \
	  echo "--- loading it into a simulated device (out/device):"; \
	  $(RELEASE_BIN) device load --device out/device "$$latest" && \
	  $(RELEASE_BIN) device status --device out/device
	@echo "--- signing the store's manifest and syncing a second device from it (out/phone):"
	@test -f out/store-key.key || $(RELEASE_BIN) keygen --output out/store-key
	$(RELEASE_BIN) build --config $(CONFIG) --store $(STORE) --signing-key out/store-key.key
	$(RELEASE_BIN) device sync --device out/phone --from $(STORE) --public-key out/store-key.pub

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Regenerate what docs/ holds from the command definitions and the config
# schema: a page per command (docs/reference/commands/), the config
# reference (docs/reference/config.md) and the man page (docs/man/calldir.1).
# DocsTests fails when the committed files differ from what the binary writes.
docs:
	$(SWIFT) build --product calldir
	.build/debug/calldir _docs --output docs --schema schemas/config.schema.json

# Install the release binary, the man page and the completion scripts under
# $(DESTDIR)$(PREFIX); `make uninstall` with the same PREFIX and DESTDIR
# removes them.
PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR   = $(DESTDIR)$(PREFIX)/bin
MANDIR   = $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR  = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR   = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR  = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
install: build
	install -d $(BINDIR) $(MANDIR) $(BASHDIR) $(ZSHDIR) $(FISHDIR)
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	  $(RELEASE_BIN) --generate-manual > $$tmp/calldir.1 && \
	  $(RELEASE_BIN) --generate-completion-script bash > $$tmp/calldir.bash && \
	  $(RELEASE_BIN) --generate-completion-script zsh > $$tmp/_calldir && \
	  $(RELEASE_BIN) --generate-completion-script fish > $$tmp/calldir.fish && \
	  install -m 755 $(RELEASE_BIN) $(BINDIR)/calldir && \
	  install -m 644 $$tmp/calldir.1 $(MANDIR)/calldir.1 && \
	  install -m 644 $$tmp/calldir.bash $(BASHDIR)/calldir && \
	  install -m 644 $$tmp/_calldir $(ZSHDIR)/_calldir && \
	  install -m 644 $$tmp/calldir.fish $(FISHDIR)/calldir.fish && \
	  echo "installed calldir, its man page and completions under $(DESTDIR)$(PREFIX)"

uninstall:
	rm -f $(BINDIR)/calldir $(MANDIR)/calldir.1 $(BASHDIR)/calldir $(ZSHDIR)/_calldir $(FISHDIR)/calldir.fish

# Fuzzes every harness in Tests/Fuzz/Harnesses for FUZZ_SECONDS each (or
# FUZZ_RUNS inputs each), built with SANITIZE (fuzzer,address;
# SANITIZE=fuzzer runs several times faster). Exits non-zero when a harness
# finds something (.build/fuzz/crashes/HARNESS).
FUZZ_SECONDS ?= 60
SANITIZE     ?= fuzzer,address
fuzz: deps
	SANITIZE=$(SANITIZE) FUZZ_SECONDS=$(FUZZ_SECONDS) $(if $(FUZZ_RUNS),FUZZ_RUNS=$(FUZZ_RUNS),) bash Tests/Fuzz/fuzz.sh run

# The CI smoke run, after `make test`: each harness, linked against the debug
# objects the tests built (no sanitized build, which takes minutes), replays
# its seeds and mutates them for SMOKE_SECONDS.
SMOKE_SECONDS ?= 5
fuzz-smoke: deps
	FUZZ_SECONDS=$(SMOKE_SECONDS) FUZZ_JOBS=2 bash Tests/Fuzz/fuzz.sh smoke

# Benchmarks against the baselines a user would otherwise use (QUICK=1 for a
# short run; ONLY=build,diff for some sections: normalize, build, diff,
# decode, encode, stream, paths, memory, national).
bench: static-libs
	@dpkg-query -W -f='$${Status}' time 2>/dev/null | grep -q "install ok installed" || \
	  { sudo=""; [ "$$(id -u)" -eq 0 ] || sudo="sudo"; $$sudo apt-get install -y -qq time; }
	@python3 -c "import phonenumbers" 2>/dev/null || pip install -q phonenumbers || \
	  echo "bench: Python phonenumbers unavailable; the normalize baseline is skipped"
	$(SWIFT) build $(RELEASE) --product calldir
	$(SWIFT) build $(RELEASE) --product calldir-bench
	.build/release/calldir-bench $(if $(QUICK),--quick,) $(if $(ONLY),--only $(ONLY),)

# The cost curve of `calldir build` (time, peak RSS, spilled runs) over input
# sizes, e.g. make bench-scale SIZES=1e6,1e7,1e8,1e9 LIMITS=2G (inputs go to
# $(BENCH_DIR); 1e9 lines take 13 GB there).
SIZES ?= 1e6,1e7
BENCH_DIR ?= .build/bench
bench-scale: static-libs
	@dpkg-query -W -f='$${Status}' time 2>/dev/null | grep -q "install ok installed" || \
	  { sudo=""; [ "$$(id -u)" -eq 0 ] || sudo="sudo"; $$sudo apt-get install -y -qq time; }
	$(SWIFT) build $(RELEASE) --product calldir
	$(SWIFT) build $(RELEASE) --product calldir-bench
	CALLDIR_BENCH_DIR=$(abspath $(BENCH_DIR)) .build/release/calldir-bench --scale $(SIZES) $(if $(LIMITS),--memory-limit $(LIMITS),)

# Regenerate the numbering plan (types and formats too) and the oracle corpora
# from libphonenumber's metadata (needs Python's phonenumbers).
plan:
	python3 data/generate-numbering-plan.py
	python3 data/generate-validity-corpus.py
	python3 data/generate-national-format-corpus.py

clean:
	rm -rf .build out
