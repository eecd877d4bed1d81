//! The memory primitive (`Statement::Memory`) end to end, on `ram_test`, a RAM whose ports
//! are the top's: lint-clean in Verilator, yosys, GHDL and Icarus Verilog for sizes at the
//! edges (depths that are and are not powers of two, 1-bit and 64-bit words); every output
//! in every cycle equal to a Rust reference in Verilator and GHDL, zero before any write
//! and the old word when one cycle reads and writes one address (a reference that reads
//! the new word fails in exactly the cycles where the two differ); synthesised into RAM
//! cells, not flip-flops, on iCE40 and ECP5 from both languages; and the two languages
//! proved equal, while a VHDL whose RAM powers up otherwise is a counterexample.
//!
//! These tests need the tools `make deps` installs, and for ECP5 the project's .venv; a
//! missing tool fails them with its install command, never skips them.

use crate::common;

use common::{CLOCKED_LINT, assert_lint_clean, write_both};
use kautzgen::emit::names::Language;
use kautzgen::random::SplitMix64;
use kautzgen::rtl::ir::{Design, Expr, Memory, Module, Timing};
use kautzgen::sim::Simulator;
use kautzgen::sim::ghdl::Ghdl;
use kautzgen::sim::stream::{Cycle, StreamUnit, verify};
use kautzgen::sim::verilator::Verilator;
use kautzgen::synth::equiv::{Setup, Verdict, prove};
use kautzgen::synth::flow::{Options, synthesise};
use kautzgen::synth::lint::read_manifest;
use kautzgen::synth::target::Target;
use kautzgen::synth::tool::IVERILOG;
use std::collections::BTreeMap;
use std::path::Path;

/// `ram_test`: a RAM of `depth` words of `width` bits, its write port and read address
/// inputs of the top, its read data the output `rdata`; `written` tells whether anything
/// was written since reset, which gives the reset, which the RAM ignores, a reader.
fn design(depth: u32, width: u32) -> Design {
    let mut m = Module::new("ram_test", &["a RAM whose ports are the top's"]);
    m.clocked();
    let address = Memory::address_width(depth);
    let we = m.input("we", 1, "write enable");
    let waddr = m.input("waddr", address, "write address");
    let wdata = m.input("wdata", width, "the word to write");
    let raddr = m.input("raddr", address, "read address");
    let rdata = m.output("rdata", width, "the word at raddr one clock edge earlier");
    let written = m.output("written", 1, "some word was written since reset");
    let word = m.internal("word", width, "the RAM's read register");
    m.memory(
        Memory {
            name: "ram".into(),
            depth,
            width,
            write_enable: we.into(),
            write_addr: waddr.into(),
            write_data: wdata.into(),
            read_addr: raddr.into(),
            read_data: word,
        },
        "the RAM under test",
    );
    m.assign(rdata, word.into(), "");
    m.register(written, 0, Expr::from(written).or(we.into()), "");
    Design {
        modules: vec![m],
        params: BTreeMap::from([
            ("depth".to_string(), depth.into()),
            ("width".to_string(), width.into()),
        ]),
        summary: "memory test".into(),
        timing: Timing::Synchronous,
    }
}

fn write(dir: &Path, depth: u32, width: u32) {
    write_both(dir, &design(depth, width), "tests/memory.rs");
}

/// Sizes at the edges: a power of two, a depth with addresses past its last word and 1-bit
/// words, the fewest words of the widest, and a deep one: 4096 words, which yosys reads in
/// seconds (its Verilog frontend takes time quadratic in the words one initial block
/// fills: a minute for 16384, twenty for 65536; docs/design.md).
const SIZES: [(u32, u32); 4] = [(16, 8), (10, 1), (2, 64), (4096, 4)];

#[test]
fn every_size_is_lint_clean() {
    for (depth, width) in SIZES {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), depth, width);
        assert_lint_clean(dir.path(), &CLOCKED_LINT, &format!("{depth}x{width}"));
        // Icarus Verilog, which lints only self-timed designs in `lint`, reads it too.
        let manifest = read_manifest(dir.path()).unwrap();
        let mut args: Vec<String> = ["-g2005", "-Wall", "-o", "ram_test.vvp"]
            .map(String::from)
            .to_vec();
        args.extend(
            manifest
                .verilog
                .iter()
                .map(|f| dir.path().join(f).to_string_lossy().into_owned()),
        );
        let outcome = IVERILOG
            .run(&args, dir.path(), "iverilog.log")
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            outcome.success && outcome.log.trim().is_empty(),
            "{depth}x{width}: {}",
            outcome.log
        );
    }
}

/// What `Statement::Memory` says `ram_test` does, one clock edge at a time.
struct Reference {
    words: Vec<u64>,
    read: u64,
    written: bool,
    /// A wrong RAM, for the test of the test: a read of the address written in the same
    /// cycle gives the new word.
    reads_new: bool,
}

impl Reference {
    fn new(depth: u32, reads_new: bool) -> Self {
        Reference {
            words: vec![0; depth as usize],
            read: 0,
            written: false,
            reads_new,
        }
    }

    /// One clock edge with the inputs `[we, waddr, wdata, raddr]`; returns the outputs
    /// after it, `[rdata, written]`.
    fn step(&mut self, inputs: &[u64]) -> Vec<u64> {
        let &[we, waddr, wdata, raddr] = inputs else {
            panic!("ram_test has four inputs besides clk and rst: {inputs:?}")
        };
        let writes = we == 1 && waddr < self.words.len() as u64;
        if raddr < self.words.len() as u64 {
            self.read = match self.reads_new && writes && waddr == raddr {
                true => wdata,
                false => self.words[raddr as usize],
            };
        }
        if writes {
            self.words[waddr as usize] = wdata;
        }
        self.written |= we == 1;
        vec![self.read, u64::from(self.written)]
    }
}

/// `ram_test` under directed cases and random traffic, checked against [`Reference`].
struct RamUnit {
    depth: u32,
    width: u32,
    random_cycles: u64,
    seed: u64,
    reads_new: bool,
}

impl RamUnit {
    fn new(depth: u32, width: u32) -> Self {
        RamUnit {
            depth,
            width,
            random_cycles: 2000,
            seed: u64::from(depth * 100 + width),
            reads_new: false,
        }
    }

    /// The input rows `[we, waddr, wdata, raddr]`: every address read before any write
    /// (zero), each written while it is read (the old word, zero), read back, written
    /// again while read (the old, non-zero word), then random traffic that reads the
    /// address it writes half of the time. Addresses cover every value of their bits,
    /// past the last word too.
    fn stimulus(&self) -> Vec<Vec<u64>> {
        let addresses = 1u64 << Memory::address_width(self.depth);
        let mask = u64::MAX >> (64 - self.width);
        let pattern = |a: u64| (a.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1) & mask;
        let mut rows = Vec::new();
        rows.extend((0..addresses).map(|a| vec![0, 0, 0, a]));
        rows.extend((0..addresses).map(|a| vec![1, a, pattern(a), a]));
        rows.extend((0..addresses).map(|a| vec![0, 0, 0, a]));
        rows.extend((0..addresses).map(|a| vec![1, a, !pattern(a) & mask, a]));
        let mut random = SplitMix64::new(self.seed);
        for _ in 0..self.random_cycles {
            let waddr = random.below(addresses);
            let raddr = match random.below(2) {
                0 => waddr,
                _ => random.below(addresses),
            };
            let wdata = random.next_u64() & mask;
            rows.push(vec![random.below(2), waddr, wdata, raddr]);
        }
        rows
    }
}

impl StreamUnit for RamUnit {
    fn describe(&self) -> String {
        format!("RAM of {} words of {} bits", self.depth, self.width)
    }

    fn design(&self) -> Design {
        design(self.depth, self.width)
    }

    fn cycles(&self) -> Vec<Cycle> {
        let mut reference = Reference::new(self.depth, self.reads_new);
        self.stimulus()
            .into_iter()
            .map(|inputs| {
                let outputs = reference.step(&inputs);
                Cycle::narrow(inputs, &outputs)
            })
            .collect()
    }
}

/// Every output of the RAM of `depth` words of `width` bits in every cycle equals the
/// reference's in `simulator`. Each size and simulator is a test of its own, so that they
/// run side by side.
fn every_output_equals_the_reference(depth: u32, width: u32, simulator: &dyn Simulator) {
    let unit = RamUnit::new(depth, width);
    let cycles = unit.cycles().len();
    let report =
        verify(simulator, &unit, 2, None).unwrap_or_else(|e| panic!("{}: {e}", simulator.name()));
    assert_eq!(
        report.render(),
        format!("{}: {cycles} passed, 0 failed\n", simulator.name()),
        "{}",
        unit.describe()
    );
}

#[test]
fn every_output_of_16x8_equals_the_reference_in_verilator() {
    every_output_equals_the_reference(16, 8, &Verilator::default());
}

#[test]
fn every_output_of_16x8_equals_the_reference_in_ghdl() {
    every_output_equals_the_reference(16, 8, &Ghdl::default());
}

#[test]
fn every_output_of_10x1_equals_the_reference_in_verilator() {
    every_output_equals_the_reference(10, 1, &Verilator::default());
}

#[test]
fn every_output_of_10x1_equals_the_reference_in_ghdl() {
    every_output_equals_the_reference(10, 1, &Ghdl::default());
}

#[test]
fn every_output_of_2x64_equals_the_reference_in_verilator() {
    every_output_equals_the_reference(2, 64, &Verilator::default());
}

#[test]
fn every_output_of_2x64_equals_the_reference_in_ghdl() {
    every_output_equals_the_reference(2, 64, &Ghdl::default());
}

#[test]
fn a_reference_that_reads_the_new_word_fails_where_the_two_differ() {
    let unit = RamUnit {
        reads_new: true,
        ..RamUnit::new(16, 8)
    };
    // Every cycle that writes the address it reads, with a word other than the old one.
    let right = RamUnit::new(16, 8).cycles();
    let wrong = unit.cycles();
    let differing = right
        .iter()
        .zip(&wrong)
        .filter(|(r, w)| r.outputs != w.outputs)
        .count() as u64;
    assert!(differing > 16, "{differing}");
    // The first: address 0 written with pattern(0) = 1 while read, in cycle 16.
    let first = "after cycle 16: rdata 00, expected 01";
    let both: [&dyn Simulator; 2] = [&Verilator::default(), &Ghdl::default()];
    for simulator in both {
        let report = verify(simulator, &unit, 1, None).unwrap();
        assert_eq!(report.failed, differing, "{}", simulator.name());
        assert_eq!(report.failures, [first], "{}", simulator.name());
    }
}

/// Synthesises `sizes` (depth, width) of the RAM for iCE40 and ECP5 in `languages`: every
/// result holds RAM cells, and fewer flip-flops than the RAM has bits.
fn maps_to_ram_cells(sizes: &[(u32, u32)], languages: &[Language]) {
    let options = Options {
        targets: vec![Target::Ice40Hx8k, Target::Ecp5_25k],
        languages: languages.to_vec(),
        seeds: 1,
        unit: "ram-test".into(),
        command: "tests/memory.rs".into(),
        cycles: None,
    };
    for &(depth, width) in sizes {
        let work = tempfile::tempdir().unwrap();
        let report = synthesise(&design(depth, width), &options, work.path(), &mut |_| {})
            .unwrap_or_else(|e| panic!("{depth}x{width}: {e}"));
        assert_eq!(report.results.len(), 2 * languages.len());
        for result in &report.results {
            let what = format!("{depth}x{width} {result:?}");
            let ram_cells: &[&str] = match result.target {
                Target::Ecp5_25k => &["DP16KD", "TRELLIS_DPR16X4"],
                _ => &["SB_RAM40_4K"],
            };
            let rams: u64 = ram_cells
                .iter()
                .filter_map(|cell| result.cells.get(*cell))
                .sum();
            assert!(rams > 0 && rams == result.rams, "{what}");
            // The words are not flip-flops: those there are (the read register, yosys's
            // own for the old word on a collision, written) are fewer than one per bit.
            assert!(result.flip_flops < u64::from(depth * width), "{what}");
        }
    }
}

// 16 x 8 fits in LUT RAM on ECP5, 512 x 8 takes a block RAM there too.

#[test]
fn synthesis_maps_the_ram_to_ram_cells_in_each_language() {
    maps_to_ram_cells(&[(16, 8)], &[Language::Verilog]);
    maps_to_ram_cells(&[(512, 8)], &[Language::Vhdl]);
}

#[test]
#[ignore = "long (about 25 s, eight place-and-route runs): make test maps 16 x 8 from Verilog and 512 x 8 from VHDL; make verify-full runs this"]
fn synthesis_maps_the_ram_to_ram_cells_not_flip_flops() {
    maps_to_ram_cells(&[(16, 8), (512, 8)], &[Language::Verilog, Language::Vhdl]);
}

#[test]
fn both_languages_are_proved_equal() {
    for (depth, width) in [(16, 8), (10, 1), (2, 64)] {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), depth, width);
        let work = tempfile::tempdir().unwrap();
        let verdict = prove(dir.path(), &Setup::default(), work.path())
            .unwrap_or_else(|e| panic!("{depth}x{width}: {e}"));
        // Every register bit matched: the words, the read register and `written`.
        let bits = (depth * width + width + 1) as usize;
        assert_eq!(
            verdict,
            Verdict::Proved {
                induction_length: Some(1),
                matched_bits: bits,
                register_bits: bits,
            },
            "{depth}x{width}: {}",
            verdict.render("ram_test")
        );
    }
}

#[test]
fn a_vhdl_ram_that_powers_up_otherwise_is_a_counterexample() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), 16, 8);
    let path = dir.path().join("vhdl/ram_test.vhd");
    let vhdl = std::fs::read_to_string(&path).unwrap();
    let zeros = "signal ram : ram_words := (others => \"00000000\");";
    assert!(vhdl.contains(zeros), "{vhdl}");
    let ones = zeros.replace("00000000", "00000001");
    std::fs::write(&path, vhdl.replace(zeros, &ones)).unwrap();
    let work = tempfile::tempdir().unwrap();
    let verdict = prove(dir.path(), &Setup::default(), work.path()).unwrap();
    let Verdict::Counterexample(trace) = &verdict else {
        panic!("{}", verdict.render("ram_test"))
    };
    // The first read of a word nobody wrote, one edge after reset.
    let (cycle, outputs) = trace.first_difference().unwrap();
    assert_eq!((cycle, outputs), (2, vec!["rdata"]));
}
