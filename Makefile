# errtriage: two commands do all set-up. `make demo` opens the dashboard on the sample data;
# `make test` runs every test. Both install what is missing first.
SWIFT ?= swift
DEBUG_BIN := .build/debug/errtriage
RELEASE_BIN := .build/release/errtriage
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Where `make install` puts things; DESTDIR stages them elsewhere (packaging).
PREFIX ?= /usr/local
BINDIR := $(DESTDIR)$(PREFIX)/bin
MANDIR := $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR := $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR := $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
MANUAL := .build/manual/errtriage.1

.PHONY: setup system-packages build release test demo sample-data clean fuzz bench bench-serve bench-app bench-tools install manual docs

## setup: install the system packages (ncursesw, SQLite and its shell, zlib, zstd, brotli, tmux, pkg-config,
## PostgreSQL's client library and server, which the team-store tests start, and Go and Ruby with their
## Sentry SDKs as Debian packages them, which the SDK tests' services report through) where missing, and the
## Python Sentry SDK the SDK tests report through, pinned, into a project-local .venv
setup: system-packages .venv/requirements.txt

.venv/requirements.txt: Tests/SDK/requirements.txt
	@echo "installing the Python Sentry SDK into .venv (Tests/SDK/requirements.txt)"
	@python3 -m venv .venv || { echo "python3 -m venv failed: install python3 and python3-venv"; exit 1; }
	.venv/bin/pip install --quiet --disable-pip-version-check -r Tests/SDK/requirements.txt
	cp Tests/SDK/requirements.txt .venv/requirements.txt

system-packages:
	@if [ "$$(uname)" = Darwin ]; then \
	  command -v tmux >/dev/null || brew install tmux; \
	  command -v sqlite3 >/dev/null || brew install sqlite; \
	  brew list ncurses >/dev/null 2>&1 || brew install ncurses; \
	  brew list libpq >/dev/null 2>&1 || brew install libpq; \
	  brew list brotli >/dev/null 2>&1 || brew install brotli; \
	  brew list zstd >/dev/null 2>&1 || brew install zstd; \
	  command -v initdb >/dev/null || brew install postgresql@15; \
	  echo "note: the Go and Ruby SDK tests use Debian's golang-github-getsentry-sentry-go-dev, golang-github-pkg-errors-dev and ruby-sentry-ruby"; \
	elif ! (pkg-config --exists ncursesw sqlite3 zlib libzstd libpq libbrotlidec 2>/dev/null && command -v tmux >/dev/null \
	        && command -v sqlite3 >/dev/null && [ -x "$$(pg_config --bindir 2>/dev/null)/initdb" ] \
	        && python3 -c 'import venv, ensurepip' 2>/dev/null && command -v go >/dev/null \
	        && [ -d /usr/share/gocode/src/github.com/getsentry/sentry-go ] && [ -d /usr/share/gocode/src/github.com/pkg/errors ] \
	        && ruby -e 'require "sentry-ruby"' 2>/dev/null); then \
	  echo "installing system packages: libncurses-dev libsqlite3-dev sqlite3 zlib1g-dev libzstd-dev libbrotli-dev tmux pkg-config libpq-dev postgresql python3-venv" \
	       "golang-go golang-github-getsentry-sentry-go-dev golang-github-pkg-errors-dev ruby ruby-sentry-ruby"; \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libncurses-dev libsqlite3-dev sqlite3 zlib1g-dev libzstd-dev libbrotli-dev \
	    tmux pkg-config libpq-dev postgresql python3 python3-venv \
	    golang-go golang-github-getsentry-sentry-go-dev golang-github-pkg-errors-dev ruby ruby-sentry-ruby; \
	fi

build: setup
	$(SWIFT) build --product errtriage

release: setup
	$(SWIFT) build -c release --product errtriage

# The suites of processes sharing a store (kills, concurrent writers, a prune beside ingests and
# readers): `make test` runs them with two CPU-bound processes beside them (scripts/under-load), as on
# a busy machine, where a writer must still never give up on another that progresses (issue 49).
LOADED_SUITES := EndToEndTests\.(RetentionConcurrencyTests|ConcurrencyTests|KillTests|ChainQueueKillTests)/
# The contract pass's suites: every store test and every CLI end-to-end test, on PostgreSQL.
POSTGRES_SUITES := TriageStoreTests|EndToEndTests|DashboardRuntimeTests|TriageIngestTests|TriageServerTests
# How long a loaded pass may run before it is stopped and fails.
UNDER_LOAD_SECONDS ?= 1200

## test: every test: unit, snapshot, store, and end-to-end on the built binary (tmux included) and the app example, then the store and CLI tests again on PostgreSQL; the suites of processes sharing a store run on each engine with two CPU-bound processes beside them
test: setup
	$(SWIFT) build --build-tests
	# The app example builds on its own: ErrorChainKit and nothing else of errtriage (ChainAppTests checks it).
	$(SWIFT) build --package-path Examples/ChainApp
	$(SWIFT) test --skip-build --skip '$(LOADED_SUITES)'
	UNDER_LOAD_SECONDS=$(UNDER_LOAD_SECONDS) scripts/under-load $(SWIFT) test --skip-build --filter '$(LOADED_SUITES)'
	# The contract pass: every store test and every CLI end-to-end test again, on a throwaway
	# PostgreSQL cluster the tests start and stop themselves.
	ERRTRIAGE_TEST_ENGINE=postgres $(SWIFT) test --skip-build --filter '$(POSTGRES_SUITES)' --skip '$(LOADED_SUITES)'
	ERRTRIAGE_TEST_ENGINE=postgres UNDER_LOAD_SECONDS=$(UNDER_LOAD_SECONDS) scripts/under-load $(SWIFT) test --skip-build --filter '$(LOADED_SUITES)'

## demo: the dashboard on the sample data
demo: release
	$(RELEASE_BIN) demo

## sample-data: regenerate the committed sample (deterministic)
sample-data: build
	$(DEBUG_BIN) generate --events 60000 --issues 160 --days 90 --seed 7 --end 2026-11-20T18:00:00Z --order shuffled --release-story \
	  --out sample-data/events.ndjson --decisions sample-data/decisions.ndjson --adoption sample-data/adoption.csv
	gzip -9nf sample-data/events.ndjson

clean:
	rm -rf .build sample-data/demo.sqlite*

## fuzz: every fuzz target under libFuzzer for FUZZ_TIME seconds each (default 600); not part of make test
fuzz: setup
	scripts/fuzz

## bench: every performance goal against its baseline, on BENCH_EVENTS events (default 1000000), errtriage serve's
## included (BENCH_SERVE_SECONDS per measurement, default 10) and the app side's (ErrorChainKit); not part of make test.
## BENCH_RETENTION=1 measures retention instead: a year at BENCH_PER_DAY events a day (default 30000) kept to 90 days
bench: release bench-tools
	$(SWIFT) build -c release --product errtriage-bench
	$(SWIFT) build -c release --product chain-probe
	.build/release/errtriage-bench --events $${BENCH_EVENTS:-1000000} --errtriage $(RELEASE_BIN)

## bench-serve: errtriage serve's goals alone (issue 27): intake into SQLite and PostgreSQL, ack latency, memory, kill -9s
bench-serve: release bench-tools
	$(SWIFT) build -c release --product errtriage-bench
	.build/release/errtriage-bench --serve-only --errtriage $(RELEASE_BIN)

## bench-app: the app side's goals alone (issue 39): ErrorChainKit's report(_:) against a bare file append, reports across 20 SIGKILLs
bench-app: release
	$(SWIFT) build -c release --product errtriage-bench
	$(SWIFT) build -c release --product chain-probe
	.build/release/errtriage-bench --app-only --errtriage $(RELEASE_BIN)

## bench-tools: wrk, the load generator of serve's intake goals, and DuckDB in .venv, the first screen's baseline
## (only the benchmarks need them; without wrk they use our own generator alone, without DuckDB that row has no verdict)
bench-tools: .venv/requirements.txt
	@command -v wrk >/dev/null || { if [ "$$(uname)" = Darwin ]; then brew install wrk; else \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; fi; }
	@.venv/bin/python3 -c 'import duckdb' 2>/dev/null || .venv/bin/pip install --quiet --disable-pip-version-check duckdb

## manual: the man page, made by swift-argument-parser's generate-manual plugin from the commands' help (a debug build serves: the help text is the same)
manual: build
	$(SWIFT) package plugin generate-manual --configuration debug
	mkdir -p $(dir $(MANUAL))
	cp "$$(find .build/plugins -path '*outputs*' -name errtriage.1 | head -n 1)" $(MANUAL)

## docs: docs/commands.md, the command reference, generated from the binary's help (DocCommandsTests fails when it differs)
docs: build
	scripts/command-reference $(DEBUG_BIN) > docs/commands.md.new && mv docs/commands.md.new docs/commands.md

## install: the binary, its man page and its bash, zsh and fish completions under PREFIX (default /usr/local; DESTDIR honoured)
install: release manual
	install -d $(BINDIR) $(MANDIR) $(BASHDIR) $(ZSHDIR) $(FISHDIR)
	install -m 755 $(RELEASE_BIN) $(BINDIR)/errtriage
	install -m 644 $(MANUAL) $(MANDIR)/errtriage.1
	$(RELEASE_BIN) --generate-completion-script bash > $(BASHDIR)/errtriage
	$(RELEASE_BIN) --generate-completion-script zsh > $(ZSHDIR)/_errtriage
	$(RELEASE_BIN) --generate-completion-script fish > $(FISHDIR)/errtriage.fish
