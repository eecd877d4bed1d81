# kautzgen: `make run` for the papers' default example, `make test` for everything CI runs.
# Each target installs what it needs first, so both work on a fresh machine.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
CARGO ?= cargo
KAUTZGEN := target/release/kautzgen

# Debian packages the project runs: simulators, synthesis, place-and-route, drawing.
APT_PACKAGES := verilator ghdl yosys nextpnr-ice40 fpga-icestorm iverilog graphviz

.PHONY: all deps rust-deps run test bench clean

all: test

## deps: install the Debian packages and Rust components that are missing (root, or sudo).
deps: rust-deps
	@missing=""; \
	for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	  $$sudo apt-get update -qq; \
	  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing >/dev/null; \
	fi

rust-deps:
	@$(CARGO) fmt --version >/dev/null 2>&1 || rustup component add rustfmt
	@$(CARGO) clippy --version >/dev/null 2>&1 || rustup component add clippy

$(KAUTZGEN): $(shell find src -name '*.rs') Cargo.toml Cargo.lock
	$(CARGO) build --release --locked

## run: the papers' default, K(4,5): Table 3 of seed 000, its route set as JSON, and the
## K(2,3) drawing of Fig. 2 with the section 3.2 example highlighted, under generated/.
run: deps $(KAUTZGEN)
	mkdir -p generated
	$(KAUTZGEN) routes --d 4 --k 5 --src 01234 --dst 23430 | tee generated/k45-table3.txt
	$(KAUTZGEN) routes --d 4 --k 5 --src 01234 --dst 23430 --format json > generated/k45-table3.json
	$(KAUTZGEN) draw --d 2 --k 3 --src 120 --dst 201 --out generated/k23-routes.svg
	@echo "wrote generated/k45-table3.txt, generated/k45-table3.json, generated/k23-routes.svg"

## test: formatting, lints, and every test (unit, property, command line).
test: deps
	$(CARGO) fmt --check
	$(CARGO) clippy --locked --all-targets -- -D warnings
	$(CARGO) test --locked

## bench: route sets per second of the golden model and the flow reference, one thread.
bench: deps $(KAUTZGEN)
	$(KAUTZGEN) bench

clean:
	$(CARGO) clean
