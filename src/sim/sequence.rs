//! Verification of sequence units: hardware that, started with some inputs, hands out a
//! sequence of items one per request (the MRNS path generator; any later generator with
//! the same handshake). One testbench per language serves every such unit: it is generated
//! from the top module's ports, drives the handshake, and records each item, how it was
//! held and the cycles of work; the comparison with the golden model lives here, once.
//!
//! In: a [`SequenceUnit`] and the positions of its vectors to run. Out: each vector's
//! [`Outcome`], and the [`SequenceReport`] made from them: vectors passed and failed, the
//! first failures in full (inputs, items expected and seen, what is wrong), and the cycles
//! of work per sequence against the unit's bound.
//!
//! The handshake (port names from [`SequenceUnit::handshake`]): `start` captures the data
//! inputs and starts, from any state; `valid` holds an item on the item ports until
//! `next` takes it; `done` rises after the last item and stays until `start` or `rst`;
//! `error` with `done` and no item for inputs the unit refuses. Data inputs are the top's
//! other inputs, item ports its other outputs, in port order; any width.
//!
//! Files, in the testbench's working directory. `vectors.txt`, one vector a line:
//!
//! ```text
//! <data inputs hex>.. <delay> <nudge 0|1> <lead> <reset 0|1> <lead-in data inputs hex>..
//! ```
//!
//! `results.txt`, per vector: `vector <n>`; `reset <low>` if the vector pulses `rst`;
//! `item <hex>.. <held> <alone>` per item; then `done <error> <cycles> <steady>` or
//! `timeout <cycles>`. The flags and the cycle count mean what they mean for the Kautz
//! route generator (docs/verification.md).

use crate::emit::names::{Language, name_design};
use crate::random::mix;
use crate::rtl::ir::{Design, Direction, SignalId, SignalKind};
use crate::sim::bits::Bits;
use crate::sim::outcome::{Describing, Outcome};
use crate::sim::testbench::{Rendered, TIMEOUT_FACTOR, TbReset, check_top, testbench_name};
use crate::sim::vectors::Shard;
use crate::sim::words::Words;
use crate::sim::{SimError, Simulator, copy_wave, write_sources};
use serde::Serialize;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The names of a sequence unit's handshake ports, each one bit wide; `clk` and `rst` are
/// always those.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Handshake {
    /// Input: capture the data inputs and start.
    pub start: &'static str,
    /// Input: take the item shown.
    pub next: &'static str,
    /// Output: an item is on the item ports.
    pub valid: &'static str,
    /// Output: no further item.
    pub done: &'static str,
    /// Output: with `done`, the inputs were refused.
    pub error: &'static str,
}

/// The golden model refuses the inputs: the unit must answer `error` with `done` and no
/// item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refused;

/// One item: the values of the item ports, in port order.
pub type Item = Vec<Bits>;

/// A unit that hands out a sequence of items per start, checked against a golden model.
pub trait SequenceUnit {
    /// What the unit is, for reports: "path generator of Z2xZ3xZ3xZ4".
    fn describe(&self) -> String;
    /// The unit's hardware; its top has `clk` and `rst`.
    fn design(&self) -> Design;
    fn handshake(&self) -> Handshake;
    /// Cycles of work from `start` to `done` that no sequence may exceed (the count of
    /// docs/verification.md: waiting for `next` not counted).
    fn cycle_bound(&self) -> u64;
    /// How many vectors an exhaustive check runs.
    fn vector_count(&self) -> u64;
    /// The most items any answer holds: a recorded sequence is cut after one more, so that
    /// a design that never stops giving items cannot hang the simulation.
    fn most_items(&self) -> usize;
    /// Vector `index` (`0..vector_count()`): the data input values, in port order.
    fn vector(&self, index: u64) -> Vec<Bits>;
    /// The items the golden model gives for `inputs`, in order, or its refusal.
    fn expected(&self, inputs: &[Bits]) -> Result<Vec<Item>, Refused>;
    /// What one sequence is, in reports: "path set".
    fn sequence_name(&self) -> &'static str {
        "sequence"
    }
    /// The HDL files of `language` to simulate, in compile order, when the design is read
    /// rather than printed from [`SequenceUnit::design`] (whose ports it must have).
    fn files(&self, _language: Language) -> Option<Vec<PathBuf>> {
        None
    }
    /// How the inputs and items read in a report, in kautzgen's and in the exported
    /// testbench's; `None`: each port's value in hexadecimal.
    fn words(&self) -> Option<Words> {
        None
    }
    /// The data inputs as a person reads them in a report ("src=0,0,0,0 dst=0,2,2,3");
    /// `None`: each port's value in hexadecimal.
    fn show_inputs(&self, inputs: &[Bits]) -> Option<String> {
        self.words().map(|words| words.show_inputs(inputs))
    }
    /// An item as a person reads it in a report ("d0=3 d1=2 d2=2"); `None`, also for
    /// values that decode to nothing meaningful: each port's value in hexadecimal.
    fn show_item(&self, item: &Item) -> Option<String> {
        self.words().and_then(|words| words.show_item(item))
    }
}

/// How one simulator judged a sequence unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SequenceReport {
    pub simulator: String,
    pub passed: u64,
    pub failed: u64,
    /// The first failures, each in full over several lines.
    pub failures: Vec<String>,
    /// Sequences the golden model accepts that reached `done`, their total and largest
    /// cycles of work.
    pub sequences: u64,
    pub total_cycles: u64,
    pub max_cycles: u64,
    pub bound: u64,
    /// What one sequence is, for the cycle line: "path set".
    pub sequence_name: &'static str,
}

impl SequenceReport {
    pub fn all_passed(&self) -> bool {
        self.failed == 0 && self.passed > 0
    }

    /// The report of `simulator` on vectors of `unit` with these `outcomes`, in their
    /// order, the first `shown` failures in full.
    pub fn of(
        simulator: &str,
        unit: &dyn SequenceUnit,
        outcomes: &[Outcome],
        shown: usize,
    ) -> Self {
        let mut report = SequenceReport {
            simulator: simulator.to_string(),
            passed: 0,
            failed: 0,
            failures: Vec::new(),
            sequences: 0,
            total_cycles: 0,
            max_cycles: 0,
            bound: unit.cycle_bound(),
            sequence_name: unit.sequence_name(),
        };
        for outcome in outcomes {
            if let Some(cycles) = outcome.cycles {
                report.sequences += 1;
                report.total_cycles += cycles;
                report.max_cycles = report.max_cycles.max(cycles);
            }
            if outcome.passed {
                report.passed += 1;
                continue;
            }
            report.failed += 1;
            if report.failures.len() < shown {
                report.failures.push(outcome.failure_text());
            }
        }
        report
    }

    /// The failures shown, how many more there were, the cycles, and
    /// `<sim>: N passed, M failed`.
    pub fn render(&self) -> String {
        let sim = &self.simulator;
        let mut text = String::new();
        for failure in &self.failures {
            text += &format!("{sim}: {failure}\n");
        }
        let hidden = self.failed - self.failures.len() as u64;
        if hidden > 0 {
            text += &format!("{sim}: {hidden} more failures not shown\n");
        }
        if self.sequences > 0 {
            text += &format!(
                "{sim}: cycles per {}: mean {:.1}, max {} (bound {})\n",
                self.sequence_name,
                self.total_cycles as f64 / self.sequences as f64,
                self.max_cycles,
                self.bound
            );
        }
        text += &format!("{sim}: {} passed, {} failed\n", self.passed, self.failed);
        text
    }
}

/// How the testbench drives one vector beyond `start` with its inputs; a function of the
/// inputs alone, so a vector is driven the same way in every shard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stimulus {
    /// Cycles each item is held (and checked stable) before `next` is pulsed: 0 to 3.
    delay: u32,
    /// Drive `next` high whenever `valid` is low, and after `done`: it must be ignored.
    nudge: bool,
    /// When non-zero, first run the previous vector's search for this many cycles (taking
    /// each item at once), so that this vector's `start` or `rst` lands in the middle.
    lead: u64,
    /// Pulse `rst` before this vector's `start`; every output must be low after it.
    reset: bool,
}

impl Stimulus {
    /// About a quarter of the vectors get a lead-in of 1 to 2 bounds and a third a reset.
    fn for_inputs(inputs: &[Bits], bound: u64) -> Self {
        let mut h = 0x7365_7175_656e_6365_u64;
        for value in inputs {
            for byte in value.to_hex().bytes() {
                h = mix(h ^ u64::from(byte));
            }
            h = mix(h ^ u64::from(b' '));
        }
        Stimulus {
            delay: (h % 4) as u32,
            nudge: (h >> 8) & 1 == 1,
            lead: if (h >> 16).is_multiple_of(4) {
                1 + (h >> 24) % (2 * bound)
            } else {
                0
            },
            reset: (h >> 48).is_multiple_of(3),
        }
    }

    fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.delay > 0 {
            parts.push(format!("hold {}", self.delay));
        }
        if self.nudge {
            parts.push("next nudged".to_string());
        }
        if self.lead > 0 {
            parts.push(format!("lead-in {}", self.lead));
        }
        if self.reset {
            parts.push("rst".to_string());
        }
        match parts.is_empty() {
            true => String::new(),
            false => format!(" ({})", parts.join(", ")),
        }
    }
}

/// A data input or item port, as the testbench sees it.
#[derive(Debug, Clone, Serialize)]
struct TbPort {
    /// The legal name in the testbench's language.
    name: String,
    width: u32,
    /// Whole hexadecimal digits, as bits.
    text_bits: u32,
}

/// The ports of the unit's top in `language`: data inputs, item ports, and the legal
/// names of the handshake ports (start, next, valid, done, error).
struct Ports {
    inputs: Vec<TbPort>,
    items: Vec<TbPort>,
    handshake: [String; 5],
}

fn ports(design: &Design, handshake: &Handshake, language: Language) -> Ports {
    let names = name_design(design, language);
    let top = design.top();
    let local = names.of(top);
    let controls = [
        handshake.start,
        handshake.next,
        handshake.valid,
        handshake.done,
        handshake.error,
    ];
    let handshake = controls.map(|wanted| {
        let (id, port) = top
            .ports()
            .find(|(_, s)| s.name == wanted)
            .unwrap_or_else(|| panic!("{} has no handshake port {wanted}", top.name));
        assert_eq!(port.width, 1, "handshake port {wanted} is one bit wide");
        local.signals[id.0 as usize].clone()
    });
    let (mut inputs, mut items) = (Vec::new(), Vec::new());
    let clocking: Vec<SignalId> = top
        .clocking
        .iter()
        .flat_map(|c| [c.clock, c.reset])
        .collect();
    for (id, signal) in top.ports() {
        if clocking.contains(&id) || controls.contains(&&*signal.name) {
            continue;
        }
        let port = TbPort {
            name: local.signals[id.0 as usize].clone(),
            width: signal.width,
            text_bits: signal.width.div_ceil(4) * 4,
        };
        match signal.kind {
            SignalKind::Port(Direction::Input) => inputs.push(port),
            _ => items.push(port),
        }
    }
    Ports {
        inputs,
        items,
        handshake,
    }
}

#[derive(Serialize)]
struct TbContext {
    top: String,
    tb: String,
    describe: String,
    reset: TbReset,
    bound: u64,
    timeout: u64,
    inputs: Vec<TbPort>,
    items: Vec<TbPort>,
    start: String,
    next: String,
    valid: String,
    done: String,
    error: String,
    input_names: String,
    item_names: String,
    read_format: String,
    read_args: String,
    read_fields: usize,
    item_format: String,
    /// Dump every signal to `wave.vcd` (Verilog; GHDL dumps by its own option).
    wave: bool,
    /// Self-checking: the expected answer follows each vector's stimulus.
    check: bool,
    shown: usize,
    /// One more than the most items an answer holds.
    max_items: usize,
    item_read_format: String,
    sequence_name: &'static str,
    /// How inputs and items read in a failure (items of two ports only), and the mask of a
    /// move's value.
    words: Option<Words>,
    value_mask: u64,
}

/// What a rendered testbench does with what it sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Record it in `results.txt` for kautzgen to judge; with `wave`, dump `wave.vcd`.
    Record { wave: bool },
    /// Judge it against the answers in `vectors.txt` ([`checked_vectors`]), none of which
    /// holds `max_items` items or more.
    Check { max_items: usize },
}

/// What a line of `vectors.txt` holds for a self-checking testbench, for its README.
pub const CHECKED_FORMAT: &str = "the data inputs in hexadecimal, then how the vector is \
driven (`<delay> <nudge> <lead> <reset>`: cycles each item is held, whether `next` is \
pulsed while it must be ignored, cycles of a lead-in search cut short by this vector, \
whether `rst` is pulsed first), the lead-in's data inputs, then the golden model's answer: \
`<error> <count>` and `count` items, each the item ports in hexadecimal";

/// The lines of `vectors.txt` of a self-checking testbench of `unit`: every vector's
/// stimulus as [`verify`] drives it, then the golden model's answer; and one more than the
/// most items an answer holds.
pub fn checked_vectors(unit: &dyn SequenceUnit) -> (String, usize) {
    let bound = unit.cycle_bound();
    let count = unit.vector_count();
    let mut text = String::new();
    let mut most = 0;
    // Each vector's lead-in is the one before it, the last for the first.
    let mut lead = match count {
        0 => return (text, 1),
        n => unit.vector(n - 1),
    };
    for i in 0..count {
        let given = unit.vector(i);
        text += &stimulus_line(&given, &lead, bound);
        match unit.expected(&given) {
            Ok(items) => {
                most = most.max(items.len());
                text += &format!(" 0 {}", items.len());
                for item in &items {
                    text += &format!(" {}", hex_line(item));
                }
            }
            Err(Refused) => text += " 1 0",
        }
        text.push('\n');
        lead = given;
    }
    (text, most + 1)
}

/// Values in hexadecimal, whole digits of their width, separated by spaces.
fn hex_line(values: &[Bits]) -> String {
    values
        .iter()
        .map(Bits::to_hex)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A vector as the testbench reads it: its data inputs `given`, how it is driven, and the
/// inputs of its lead-in search `lead` (the previous vector's), without a newline.
fn stimulus_line(given: &[Bits], lead: &[Bits], bound: u64) -> String {
    let s = Stimulus::for_inputs(given, bound);
    format!(
        "{} {} {} {} {} {}",
        hex_line(given),
        s.delay,
        u8::from(s.nudge),
        s.lead,
        u8::from(s.reset),
        hex_line(lead)
    )
}

const VERILOG_TB: &str = include_str!("../../testbenches/sequence.v.tera");
const VHDL_TB: &str = include_str!("../../testbenches/sequence.vhd.tera");

/// The testbench of `unit` (whose hardware is `design`) in `language`, named `tb_<top>`,
/// dumping its waves to `wave.vcd` with `wave` (Verilog): its name and text.
pub fn testbench(
    unit: &dyn SequenceUnit,
    design: &Design,
    language: Language,
    mode: Mode,
) -> Result<Rendered, SimError> {
    let names = name_design(design, language);
    let top = names.modules[&design.top().name].clone();
    check_top(&top)?;
    let Ports {
        inputs,
        items,
        handshake: [start, next, valid, done, error],
    } = ports(design, &unit.handshake(), language);
    let list = |ports: &[TbPort]| {
        ports
            .iter()
            .map(|p| p.name.clone())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let hex = |n: usize| vec!["%h"; n].join(" ");
    let read_format = format!("{} %d %d %d %d {}", hex(inputs.len()), hex(inputs.len()));
    let text = (0..inputs.len()).map(|i| format!(", text_{i}"));
    let lead = (0..inputs.len()).map(|i| format!(", lead_{i}"));
    let read_args = text
        .chain([", delay, nudge, lead, reset".to_string()])
        .chain(lead)
        .collect();
    let bound = unit.cycle_bound();
    let words = unit.words().filter(|_| items.len() == 2);
    let (wave, check, max_items) = match mode {
        Mode::Record { wave } => (wave, false, unit.most_items() + 1),
        Mode::Check { max_items } => (false, true, max_items),
    };
    let context = TbContext {
        tb: testbench_name(&top),
        top,
        describe: unit.describe(),
        reset: TbReset::of(design, language),
        bound,
        timeout: TIMEOUT_FACTOR * bound,
        input_names: list(&inputs),
        item_names: list(&items),
        read_format,
        read_args,
        read_fields: 2 * inputs.len() + 4,
        item_format: hex(items.len()),
        item_read_format: hex(items.len()),
        sequence_name: unit.sequence_name(),
        value_mask: words.as_ref().map_or(0, |w| (1 << w.item.value_bits) - 1),
        words,
        wave,
        check,
        shown: crate::sim::SHOWN_BY_VERIFY,
        max_items,
        inputs,
        items,
        start,
        next,
        valid,
        done,
        error,
    };
    let (name, template) = match language {
        Language::Verilog => ("sequence.v.tera", VERILOG_TB),
        Language::Vhdl => ("sequence.vhd.tera", VHDL_TB),
    };
    Ok(Rendered::new(context.tb.clone(), name, template, &context)?)
}

/// A line the testbenches never write: a testbench or simulator fault.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("results line {line} is not understood: '{text}'")]
pub struct ResultsError {
    pub line: usize,
    pub text: String,
}

/// How a vector ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    Done {
        error: bool,
        cycles: u64,
        steady: bool,
    },
    /// No `done` after this many cycles of work.
    Timeout { cycles: u64 },
    /// The file ended first: the simulation stopped in the middle of this vector.
    Missing,
}

/// What the testbench recorded for one vector.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Record {
    reset_low: Option<bool>,
    items: Vec<SeenItem>,
    end: End,
}

/// One item as it appeared on the ports.
#[derive(Debug, Clone, PartialEq, Eq)]
struct SeenItem {
    /// The item ports in hexadecimal, lowercase, as printed (they may hold `x` or `u`).
    values: Vec<String>,
    held: bool,
    alone: bool,
}

/// Parses a results file of items of `item_ports` values each.
fn parse(text: &str, item_ports: usize) -> Result<Vec<Record>, ResultsError> {
    let mut records: Vec<Record> = Vec::new();
    let mut open = false;
    for (i, line) in text.lines().enumerate() {
        let bad = || ResultsError {
            line: i + 1,
            text: line.to_string(),
        };
        let fields: Vec<&str> = line.split_whitespace().collect();
        let flag = |text: &str| match text {
            "0" => Ok(false),
            "1" => Ok(true),
            _ => Err(bad()),
        };
        match fields.as_slice() {
            [] => {}
            ["vector", n] => {
                if open || n.parse::<usize>().ok() != Some(records.len()) {
                    return Err(bad());
                }
                records.push(Record {
                    reset_low: None,
                    items: Vec::new(),
                    end: End::Missing,
                });
                open = true;
            }
            ["reset", low] if open => {
                records.last_mut().expect("open").reset_low = Some(flag(low)?);
            }
            ["item", rest @ ..] if open && rest.len() == item_ports + 2 => {
                let seen = SeenItem {
                    values: rest[..item_ports]
                        .iter()
                        .map(|v| v.to_ascii_lowercase())
                        .collect(),
                    held: flag(rest[item_ports])?,
                    alone: flag(rest[item_ports + 1])?,
                };
                records.last_mut().expect("open").items.push(seen);
            }
            ["done", error, cycles, steady] if open => {
                records.last_mut().expect("open").end = End::Done {
                    error: flag(error)?,
                    cycles: cycles.parse().map_err(|_| bad())?,
                    steady: flag(steady)?,
                };
                open = false;
            }
            ["timeout", cycles] if open => {
                records.last_mut().expect("open").end = End::Timeout {
                    cycles: cycles.parse().map_err(|_| bad())?,
                };
                open = false;
            }
            _ => return Err(bad()),
        }
    }
    Ok(records)
}

/// `[..]` around an item as the unit shows it, or `[name=value ..]` in hexadecimal.
fn show_item(unit: &dyn SequenceUnit, ports: &[TbPort], values: &[String]) -> String {
    let decoded: Option<Item> = ports
        .iter()
        .zip(values)
        .map(|(p, v)| Bits::from_hex(p.width, v))
        .collect();
    if let Some(text) = decoded.and_then(|item| unit.show_item(&item)) {
        return format!("[{text}]");
    }
    let fields: Vec<String> = ports
        .iter()
        .zip(values)
        .map(|(p, v)| format!("{}={v}", p.name))
        .collect();
    format!("[{}]", fields.join(" "))
}

/// What is wrong with `record` given the expected answer; empty when it passes. Also the
/// cycles of work of an accepted sequence that reached `done`.
fn judge(
    unit: &dyn SequenceUnit,
    record: &Record,
    expected: &Result<Vec<Item>, Refused>,
    stimulus: &Stimulus,
    items: &[TbPort],
) -> (Vec<String>, Option<u64>) {
    let bound = unit.cycle_bound();
    let mut problems = Vec::new();
    let want: Vec<Vec<String>> = match expected {
        Ok(list) => list
            .iter()
            .map(|item| item.iter().map(Bits::to_hex).collect())
            .collect(),
        Err(Refused) => Vec::new(),
    };
    let got: Vec<&Vec<String>> = record.items.iter().map(|s| &s.values).collect();
    if let Some(i) = (0..want.len().min(got.len())).find(|&i| &want[i] != got[i]) {
        problems.push(format!(
            "item {} is {}, expected {}",
            i + 1,
            show_item(unit, items, got[i]),
            show_item(unit, items, &want[i])
        ));
    }
    if got.len() != want.len() {
        problems.push(format!("{} items, expected {}", got.len(), want.len()));
    }
    for (i, seen) in record.items.iter().enumerate() {
        if !seen.held {
            problems.push(format!("item {} changed while held", i + 1));
        }
        if !seen.alone {
            problems.push(format!("done or error high while item {} was valid", i + 1));
        }
    }
    if stimulus.reset && record.reset_low != Some(true) {
        problems.push("outputs not all low after rst".to_string());
    }
    let mut cycles_seen = None;
    match record.end {
        End::Done {
            error,
            cycles,
            steady,
        } => {
            if error != expected.is_err() {
                problems.push(format!(
                    "error {} at done, expected {}",
                    u8::from(error),
                    u8::from(expected.is_err())
                ));
            }
            if !steady {
                problems.push("done, error or valid changed after done".to_string());
            }
            if cycles > bound {
                problems.push(format!(
                    "{cycles} cycles of work, over the bound of {bound}"
                ));
            }
            if expected.is_ok() {
                cycles_seen = Some(cycles);
            }
        }
        End::Timeout { cycles } => problems.push(format!("no done after {cycles} cycles of work")),
        End::Missing => problems.push("the record ends before done".to_string()),
    }
    (problems, cycles_seen)
}

/// Vectors per run of the simulator: the vectors and records of one batch are in memory
/// at a time, however many the check holds.
const BATCH: usize = 50_000;

/// How a sequence unit's check runs.
#[derive(Clone, Copy)]
pub struct Options<'a> {
    /// Failures kept in full.
    pub shown: usize,
    /// Copy the run's waves (VCD) here; the vectors then run as one batch.
    pub wave: Option<&'a Path>,
    /// Told how many vectors each finished batch held.
    pub progress: &'a dyn Fn(u64),
}

/// Runs every vector of `shard` of `unit` through `simulator`, built once and run batch by
/// batch, and compares each record with the golden model. When the error names a log, the
/// working directory is kept.
pub fn verify(
    simulator: &dyn Simulator,
    unit: &dyn SequenceUnit,
    shard: Shard,
    options: Options,
) -> Result<SequenceReport, SimError> {
    let positions: Vec<u64> = (0..unit.vector_count())
        .filter(|&i| shard.selects(i))
        .collect();
    let outcomes = outcomes(simulator, unit, &positions, options)?;
    Ok(SequenceReport::of(
        simulator.name(),
        unit,
        &outcomes,
        options.shown,
    ))
}

/// Runs the vectors of `unit` at `positions` through `simulator`, built once and run batch
/// by batch, and compares each record with the golden model: each vector's outcome. When
/// the error names a log, the working directory is kept.
pub fn outcomes(
    simulator: &dyn Simulator,
    unit: &dyn SequenceUnit,
    positions: &[u64],
    options: Options,
) -> Result<Vec<Outcome>, SimError> {
    let design = unit.design();
    let work =
        crate::interrupt::scratch::ScratchDir::new(&format!("kautzgen-{}-", simulator.name()))
            .map_err(SimError::io("cannot create a temporary directory"))?;
    let outcomes = run(simulator, unit, &design, positions, options, work.path());
    if outcomes.as_ref().is_err_and(SimError::keeps_files) {
        let _kept = work.keep();
    }
    outcomes
}

fn run(
    simulator: &dyn Simulator,
    unit: &dyn SequenceUnit,
    design: &Design,
    positions: &[u64],
    options: Options,
    work: &Path,
) -> Result<Vec<Outcome>, SimError> {
    let language = simulator.language();
    let mut sources = match unit.files(language) {
        Some(files) if files.is_empty() => {
            return Err(SimError::NoSources(match language {
                Language::Verilog => "Verilog",
                Language::Vhdl => "VHDL",
            }));
        }
        Some(files) => files,
        None => write_sources(design, language, &unit.describe(), work)?,
    };
    let wave = options.wave.is_some();
    let Rendered { top: tb, text, .. } = testbench(unit, design, language, Mode::Record { wave })?;
    let tb_path = work.join(match language {
        Language::Verilog => format!("{tb}.v"),
        Language::Vhdl => format!("{tb}.vhd"),
    });
    std::fs::write(&tb_path, text).map_err(SimError::io("cannot write the testbench"))?;
    sources.push(tb_path);
    simulator.compile(work, &sources, &tb, wave)?;
    let ports = ports(design, &unit.handshake(), language);
    let mut describing = Describing::first(options.shown);
    let mut outcomes = Vec::with_capacity(positions.len());
    let batch = if wave { positions.len().max(1) } else { BATCH };
    for indices in positions.chunks(batch) {
        let records = run_batch(simulator, unit, indices, &ports, &tb, wave, work)?;
        for (position, &i) in indices.iter().enumerate() {
            let outcome = judge_vector(unit, i, records.get(position), &ports, &mut describing);
            outcomes.push(outcome);
        }
        (options.progress)(indices.len() as u64);
    }
    if let Some(path) = options.wave {
        copy_wave(work, path)?;
    }
    Ok(outcomes)
}

/// Runs the vectors at `indices` through the built testbench and reads what it recorded.
fn run_batch(
    simulator: &dyn Simulator,
    unit: &dyn SequenceUnit,
    indices: &[u64],
    ports: &Ports,
    tb: &str,
    wave: bool,
    work: &Path,
) -> Result<Vec<Record>, SimError> {
    let (bound, count) = (unit.cycle_bound(), unit.vector_count());
    let mut vectors = String::new();
    for &i in indices {
        let lead = unit.vector((i + count - 1) % count);
        vectors += &stimulus_line(&unit.vector(i), &lead, bound);
        vectors.push('\n');
    }
    std::fs::write(work.join("vectors.txt"), vectors)
        .map_err(SimError::io("cannot write vectors.txt"))?;
    // A stale file from the previous batch must not pass for this one's results.
    let results = work.join("results.txt");
    match std::fs::remove_file(&results) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(SimError::io(format!("cannot remove {}", results.display()))(e));
        }
        _ => {}
    }
    simulator.simulate(work, tb, wave)?;
    let text = std::fs::read_to_string(&results).unwrap_or_default();
    parse(&text, ports.items.len()).map_err(|cause| SimError::Results {
        simulator: simulator.name(),
        cause,
        dir: work.to_path_buf(),
    })
}

/// Judges vector `i` by its `record` (none: the records ended before it), describing it in
/// full if `describing` still does.
fn judge_vector(
    unit: &dyn SequenceUnit,
    i: u64,
    record: Option<&Record>,
    ports: &Ports,
    describing: &mut Describing,
) -> Outcome {
    let missing = Record {
        reset_low: None,
        items: Vec::new(),
        end: End::Missing,
    };
    let record = record.unwrap_or(&missing);
    let given = unit.vector(i);
    let stimulus = Stimulus::for_inputs(&given, unit.cycle_bound());
    let expected = unit.expected(&given);
    let (problems, cycles) = judge(unit, record, &expected, &stimulus, &ports.items);
    let passed = problems.is_empty();
    describing.outcome(passed, || failure(unit, i, record, ports, problems), cycles)
}

/// Vector `i`, failing with `problems`, in full: its inputs and stimulus, the answer
/// expected and the one seen in `record`, and each problem. Its inputs, stimulus and
/// answer are made again here: only the few failures shown need them.
fn failure(
    unit: &dyn SequenceUnit,
    i: u64,
    record: &Record,
    ports: &Ports,
    problems: Vec<String>,
) -> String {
    let given = &unit.vector(i);
    let expected = &unit.expected(given);
    let stimulus = Stimulus::for_inputs(given, unit.cycle_bound());
    let items = &ports.items;
    let inputs_shown = unit.show_inputs(given).unwrap_or_else(|| {
        let fields: Vec<String> = ports
            .inputs
            .iter()
            .zip(given)
            .map(|(p, v)| format!("{}={}", p.name, v.to_hex()))
            .collect();
        fields.join(" ")
    });
    let expected_shown = match expected {
        Ok(list) => {
            let mut shown: Vec<String> = list
                .iter()
                .map(|item| {
                    let hex: Vec<String> = item.iter().map(Bits::to_hex).collect();
                    show_item(unit, items, &hex)
                })
                .collect();
            shown.push("done".to_string());
            shown.join(" ")
        }
        Err(Refused) => "error".to_string(),
    };
    let mut got: Vec<String> = record
        .items
        .iter()
        .map(|s| show_item(unit, items, &s.values))
        .collect();
    got.push(match record.end {
        End::Done {
            error: false,
            cycles,
            ..
        } => format!("done after {cycles} cycles"),
        End::Done {
            error: true,
            cycles,
            ..
        } => format!("error after {cycles} cycles"),
        End::Timeout { cycles } => format!("no done after {cycles} cycles"),
        End::Missing => "(record ends)".to_string(),
    });
    let mut text = format!(
        "vector {i}: {inputs_shown}{}\n  expected: {expected_shown}\n  got:      {}",
        stimulus.describe(),
        got.join(" ")
    );
    for problem in problems {
        text += &format!("\n  - {problem}");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_items_of_any_number_of_ports() {
        let text = "vector 0\nitem 0a 3 1 1\nitem 1b 4 0 1\ndone 0 17 1\n\
                    vector 1\nreset 1\ntimeout 136\nvector 2\n";
        let records = parse(text, 2).unwrap();
        assert_eq!(
            records[0].items[1],
            SeenItem {
                values: vec!["1b".into(), "4".into()],
                held: false,
                alone: true
            }
        );
        assert_eq!(
            records[0].end,
            End::Done {
                error: false,
                cycles: 17,
                steady: true
            }
        );
        assert_eq!(records[1].reset_low, Some(true));
        assert_eq!(records[1].end, End::Timeout { cycles: 136 });
        assert_eq!(records[2].end, End::Missing);
        // One port too many for items of two ports.
        assert_eq!(
            parse("vector 0\nitem 0a 3 5 1 1\n", 2),
            Err(ResultsError {
                line: 2,
                text: "item 0a 3 5 1 1".into()
            })
        );
        assert_eq!(parse("item 0a 3 1 1\n", 2).unwrap_err().line, 1);
    }

    #[test]
    fn stimulus_depends_on_the_inputs_only_and_covers_every_case() {
        let vector = |a: u64, b: u64| vec![Bits::from_u64(7, a), Bits::from_u64(7, b)];
        assert_eq!(
            Stimulus::for_inputs(&vector(3, 5), 17),
            Stimulus::for_inputs(&vector(3, 5), 17)
        );
        let all: Vec<Stimulus> = (0..20)
            .flat_map(|a| (0..20).map(move |b| Stimulus::for_inputs(&vector(a, b), 17)))
            .collect();
        assert!((0..4).all(|d| all.iter().any(|s| s.delay == d)));
        assert!(all.iter().any(|s| s.nudge) && all.iter().any(|s| !s.nudge));
        assert!(all.iter().any(|s| s.reset) && all.iter().any(|s| !s.reset));
        assert!(all.iter().any(|s| s.lead == 0));
        assert!(all.iter().all(|s| s.lead <= 34));
        assert!(all.iter().any(|s| s.lead > 17));
    }

    /// A unit whose answer to any input is the items 0a, 0b, with a bound of 20 cycles.
    struct TwoItems;

    impl SequenceUnit for TwoItems {
        fn describe(&self) -> String {
            "two items".to_string()
        }
        fn design(&self) -> Design {
            unreachable!("judging needs no design")
        }
        fn handshake(&self) -> Handshake {
            unreachable!("judging needs no handshake")
        }
        fn cycle_bound(&self) -> u64 {
            20
        }
        fn vector_count(&self) -> u64 {
            1
        }
        fn most_items(&self) -> usize {
            2
        }
        fn vector(&self, _: u64) -> Vec<Bits> {
            vec![Bits::from_u64(8, 1)]
        }
        fn expected(&self, _: &[Bits]) -> Result<Vec<Item>, Refused> {
            Ok(vec![
                vec![Bits::from_u64(8, 0x0a)],
                vec![Bits::from_u64(8, 0x0b)],
            ])
        }
    }

    /// The problems `judge` finds in the record `text` (a results file of one vector) of
    /// [`TwoItems`], expecting its answer or, with `refused`, an error; `reset` when the
    /// vector pulses `rst`.
    fn problems(text: &str, refused: bool, reset: bool) -> Vec<String> {
        let record = &parse(text, 1).unwrap()[0];
        let ports = [TbPort {
            name: "item".to_string(),
            width: 8,
            text_bits: 8,
        }];
        let stimulus = Stimulus {
            delay: 0,
            nudge: false,
            lead: 0,
            reset,
        };
        let expected = match refused {
            true => Err(Refused),
            false => TwoItems.expected(&[]),
        };
        judge(&TwoItems, record, &expected, &stimulus, &ports).0
    }

    #[test]
    fn a_correct_record_passes() {
        let ok = "vector 0\nitem 0a 1 1\nitem 0b 1 1\ndone 0 7 1\n";
        assert_eq!(problems(ok, false, false), Vec::<String>::new());
        let refused = "vector 0\ndone 1 3 1\n";
        assert_eq!(problems(refused, true, false), Vec::<String>::new());
    }

    #[test]
    fn every_kind_of_mismatch_is_named() {
        for (text, refused, reset, expected) in [
            (
                "vector 0\nitem 0b 1 1\nitem 0a 1 1\ndone 0 7 1\n",
                false,
                false,
                vec!["item 1 is [item=0b], expected [item=0a]"],
            ),
            (
                "vector 0\nitem 0a 1 1\ndone 0 7 1\n",
                false,
                false,
                vec!["1 items, expected 2"],
            ),
            (
                "vector 0\nitem 0a 1 1\nitem 0b 1 1\nitem 0c 1 1\ndone 0 7 1\n",
                false,
                false,
                vec!["3 items, expected 2"],
            ),
            (
                "vector 0\nitem 0a 0 1\nitem 0b 1 0\ndone 0 7 1\n",
                false,
                false,
                vec![
                    "item 1 changed while held",
                    "done or error high while item 2 was valid",
                ],
            ),
            (
                "vector 0\nreset 0\nitem 0a 1 1\nitem 0b 1 1\ndone 0 7 1\n",
                false,
                true,
                vec!["outputs not all low after rst"],
            ),
            (
                "vector 0\nitem 0a 1 1\nitem 0b 1 1\ndone 1 7 0\n",
                false,
                false,
                vec![
                    "error 1 at done, expected 0",
                    "done, error or valid changed after done",
                ],
            ),
            (
                "vector 0\nitem 0a 1 1\nitem 0b 1 1\ndone 0 21 1\n",
                false,
                false,
                vec!["21 cycles of work, over the bound of 20"],
            ),
            (
                "vector 0\nitem 0a 1 1\ntimeout 160\n",
                false,
                false,
                vec!["1 items, expected 2", "no done after 160 cycles of work"],
            ),
            (
                "vector 0\nitem 0a 1 1\n",
                false,
                false,
                vec!["1 items, expected 2", "the record ends before done"],
            ),
            (
                "vector 0\nitem 0a 1 1\ndone 0 4 1\n",
                true,
                false,
                vec!["1 items, expected 0", "error 0 at done, expected 1"],
            ),
        ] {
            assert_eq!(problems(text, refused, reset), expected, "{text}");
        }
    }
}
