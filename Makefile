# errtriage: two commands do all set-up. `make demo` opens the dashboard on the sample data;
# `make test` runs every test. Both install what is missing first.
SWIFT ?= swift
DEBUG_BIN := .build/debug/errtriage
RELEASE_BIN := .build/release/errtriage
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup build release test demo sample-data clean fuzz bench

## setup: install the system packages (ncursesw, SQLite and its shell, zlib, tmux, pkg-config, and
## PostgreSQL's client library and server, which the team-store tests start) where missing
setup:
	@if [ "$$(uname)" = Darwin ]; then \
	  command -v tmux >/dev/null || brew install tmux; \
	  command -v sqlite3 >/dev/null || brew install sqlite; \
	  brew list ncurses >/dev/null 2>&1 || brew install ncurses; \
	  brew list libpq >/dev/null 2>&1 || brew install libpq; \
	  command -v initdb >/dev/null || brew install postgresql@15; \
	elif ! (pkg-config --exists ncursesw sqlite3 zlib libpq 2>/dev/null && command -v tmux >/dev/null \
	        && command -v sqlite3 >/dev/null && [ -x "$$(pg_config --bindir 2>/dev/null)/initdb" ]); then \
	  echo "installing system packages: libncurses-dev libsqlite3-dev sqlite3 zlib1g-dev tmux pkg-config libpq-dev postgresql"; \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libncurses-dev libsqlite3-dev sqlite3 zlib1g-dev \
	    tmux pkg-config libpq-dev postgresql; \
	fi

build: setup
	$(SWIFT) build --product errtriage

release: setup
	$(SWIFT) build -c release --product errtriage

## test: every test: unit, snapshot, store, and end-to-end on the built binary (tmux included)
test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

## demo: the dashboard on the sample data
demo: release
	$(RELEASE_BIN) demo

## sample-data: regenerate the committed sample (deterministic)
sample-data: build
	$(DEBUG_BIN) generate --events 60000 --issues 160 --days 90 --seed 7 --end 2026-11-20T18:00:00Z \
	  --out sample-data/events.ndjson --decisions sample-data/decisions.ndjson
	gzip -9nf sample-data/events.ndjson

clean:
	rm -rf .build sample-data/demo.sqlite*

## fuzz: every fuzz target under libFuzzer for FUZZ_TIME seconds each (default 600); not part of make test
fuzz: setup
	scripts/fuzz

## bench: every performance goal against its baseline, on BENCH_EVENTS events (default 1000000); not part of make test
bench: release
	$(RELEASE_BIN) bench --events $${BENCH_EVENTS:-1000000}
