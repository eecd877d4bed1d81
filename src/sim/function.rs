//! Verification of function units: hardware whose outputs are a fixed function of its
//! inputs after a fixed number of clock edges (routing functions, next-hop units, switch
//! settings). One testbench per language serves every such unit: it is generated from
//! the top module's ports, applies each vector, and records the outputs; the comparison
//! with the golden model lives here, once.
//!
//! In: a [`FunctionUnit`] and the positions of its vectors to run. Out: each vector's
//! [`Outcome`], and the report made from them ([`FunctionReport::of`]): vectors passed and
//! failed, the first failures in full with port names.

use crate::emit::names::{Language, name_design};
use crate::rtl::ir::{Design, Direction, Signal, SignalId, SignalKind};
use crate::sim::outcome::{Describing, Outcome};
use crate::sim::testbench::{Rendered, TbReset, testbench_name};
use crate::sim::vectors::Shard;
use crate::sim::{SimError, Simulator, copy_wave, write_sources};
use serde::Serialize;
use std::path::Path;

/// A unit whose outputs are a function of its inputs, `latency` clock edges later.
///
/// The vector's fields are the top module's ports other than `clk` and `rst`, in port
/// order: inputs in [`FunctionUnit::vector`], outputs in [`FunctionUnit::expected`]. Every
/// such port is at most 64 bits wide.
pub trait FunctionUnit {
    /// What the unit is, for reports: "e-cube router of the 3-ary 3-cube".
    fn describe(&self) -> String;
    /// The unit's hardware.
    fn design(&self) -> Design;
    /// Clock edges between applying inputs and reading outputs; 0 for a combinational
    /// unit, which then has no `clk` and `rst` ports.
    fn latency(&self) -> u32;
    /// How many vectors an exhaustive check runs.
    fn vector_count(&self) -> u64;
    /// Vector `index` (`0..vector_count()`): the input port values.
    fn vector(&self, index: u64) -> Vec<u64>;
    /// The output port values the golden model gives for `inputs`.
    fn expected(&self, inputs: &[u64]) -> Vec<u64>;
}

/// How one simulator judged a function unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionReport {
    pub simulator: String,
    pub passed: u64,
    pub failed: u64,
    /// The first failures, each on one line with port names and values.
    pub failures: Vec<String>,
    /// Failures that a shown line describes together with its own (the cycles a stop kept
    /// from running), so not counted as "not shown".
    grouped: u64,
}

impl FunctionReport {
    /// A report of `simulator` with nothing judged yet.
    pub fn new(simulator: &str) -> Self {
        FunctionReport {
            simulator: simulator.to_string(),
            passed: 0,
            failed: 0,
            failures: Vec::new(),
            grouped: 0,
        }
    }

    /// Counts one item judged equal to its model.
    pub fn pass(&mut self) {
        self.passed += 1;
    }

    /// Counts one item that differs; its description is made and kept only while fewer
    /// than `shown` are kept.
    pub fn fail(&mut self, shown: usize, describe: impl FnOnce() -> String) {
        self.failed += 1;
        if self.failures.len() < shown {
            self.failures.push(describe());
        }
    }

    /// Counts `count` items that failed for one reason, described once, in one line.
    pub fn fail_together(&mut self, shown: usize, count: u64, description: String) {
        if count == 0 {
            return;
        }
        self.failed += count;
        if self.failures.len() < shown {
            self.failures.push(description);
            self.grouped += count - 1;
        }
    }

    pub fn all_passed(&self) -> bool {
        self.failed == 0 && self.passed > 0
    }

    /// The report of `simulator` on vectors with these `outcomes`, in their order, the
    /// first `shown` failures in full.
    pub fn of(simulator: &str, outcomes: &[Outcome], shown: usize) -> Self {
        let mut report = FunctionReport::new(simulator);
        for outcome in outcomes {
            match outcome.passed {
                true => report.pass(),
                false => report.fail(shown, || outcome.failure_text()),
            }
        }
        report
    }

    /// The failures shown, how many more there were, and `<sim>: N passed, M failed`.
    pub fn render(&self) -> String {
        let mut text = String::new();
        for failure in &self.failures {
            text += &format!("{}: {failure}\n", self.simulator);
        }
        let hidden = self.failed - self.failures.len() as u64 - self.grouped;
        if hidden > 0 {
            text += &format!("{}: {hidden} more failures not shown\n", self.simulator);
        }
        text += &format!(
            "{}: {} passed, {} failed\n",
            self.simulator, self.passed, self.failed
        );
        text
    }
}

/// A port of the unit's top, as a testbench sees it.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct TbPort {
    /// The legal name in the testbench's language.
    pub name: String,
    pub width: u32,
    /// Whole hexadecimal digits, as bits.
    text_bits: u32,
}

/// What a rendered testbench does with the outputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Write them to `results.txt` for kautzgen to compare; with `wave`, dump `wave.vcd`.
    Record { wave: bool },
    /// Compare them with the expected values that follow the inputs on each line of
    /// `vectors.txt`, and report as `verify` does, naming each line as `style` says. With
    /// `masked`, a mask per output follows the expected values: only its bits are compared.
    Check { style: Style, masked: bool },
}

/// How a self-checking testbench names a line of `vectors.txt` in a failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Style {
    /// A vector of a function unit: `vector 3: a=1 b=2; expected y=3; got y=4`.
    Function,
    /// A cycle of a stream unit: `after cycle 3: y 4, expected 3; z 0, expected 1`.
    Stream,
}

impl Style {
    /// What one line of `vectors.txt` is.
    pub(crate) fn noun(self) -> &'static str {
        match self {
            Style::Function => "vector",
            Style::Stream => "cycle",
        }
    }
}

#[derive(Serialize)]
struct TbContext {
    top: String,
    tb: String,
    describe: String,
    latency: u32,
    reset: TbReset,
    wave: bool,
    check: bool,
    masked: bool,
    style: Style,
    noun: &'static str,
    shown: usize,
    inputs: Vec<TbPort>,
    outputs: Vec<TbPort>,
    input_names: String,
    output_names: String,
    read_format: String,
    read_args: String,
    read_fields: usize,
    write_format: String,
}

const VERILOG_TB: &str = include_str!("../../testbenches/function.v.tera");
const VHDL_TB: &str = include_str!("../../testbenches/function.vhd.tera");

/// The top's ports a row of the testbench carries: all but `clk` and `rst`, in port order.
pub(crate) fn row_ports(design: &Design) -> impl Iterator<Item = (SignalId, &Signal)> {
    let top = design.top();
    let clocking: Vec<SignalId> = top
        .clocking
        .iter()
        .flat_map(|c| [c.clock, c.reset])
        .collect();
    top.ports().filter(move |(id, _)| !clocking.contains(id))
}

/// The ports of a vector: `(inputs, outputs)` of the top, without `clk` and `rst`.
pub(crate) fn vector_ports(design: &Design, language: Language) -> (Vec<TbPort>, Vec<TbPort>) {
    let names = name_design(design, language);
    let local = names.of(design.top());
    let (mut inputs, mut outputs) = (Vec::new(), Vec::new());
    for (id, signal) in row_ports(design) {
        let port = TbPort {
            name: local.signals[id.0 as usize].clone(),
            width: signal.width,
            text_bits: signal.width.div_ceil(4) * 4,
        };
        match signal.kind {
            SignalKind::Port(Direction::Input) => inputs.push(port),
            _ => outputs.push(port),
        }
    }
    (inputs, outputs)
}

/// The testbench of `unit` in `language`, named `tb_<top>`.
pub(crate) fn testbench(
    describe: &str,
    latency: u32,
    design: &Design,
    language: Language,
    mode: Mode,
) -> Result<Rendered, SimError> {
    let names = name_design(design, language);
    let top = names.modules[&design.top().name].clone();
    let (inputs, outputs) = vector_ports(design, language);
    let list = |ports: &[TbPort]| {
        ports
            .iter()
            .map(|p| p.name.clone())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let format = |ports: &[TbPort]| vec!["%h"; ports.len()].join(" ");
    let (wave, check, masked, style) = match mode {
        Mode::Record { wave } => (wave, false, false, Style::Function),
        Mode::Check { style, masked } => (false, true, masked, style),
    };
    // A self-checking testbench reads the expected outputs after the inputs, and their
    // masks after them.
    let wanted = (0..outputs.len()).filter(|_| check);
    let cared = (0..outputs.len()).filter(|_| masked);
    let read: Vec<String> = (0..inputs.len())
        .map(|i| format!(", read_{i}"))
        .chain(wanted.map(|i| format!(", want_{i}")))
        .chain(cared.map(|i| format!(", care_{i}")))
        .collect();
    let read_format = vec!["%h"; read.len()].join(" ");
    let context = TbContext {
        tb: testbench_name(&top),
        top,
        describe: describe.to_string(),
        latency,
        reset: TbReset::of(design, language),
        wave,
        check,
        masked,
        style,
        noun: style.noun(),
        shown: crate::sim::SHOWN_BY_VERIFY,
        input_names: list(&inputs),
        output_names: list(&outputs),
        read_format,
        read_fields: read.len(),
        read_args: read.concat(),
        write_format: format(&outputs),
        inputs,
        outputs,
    };
    let (name, template) = match language {
        Language::Verilog => ("function.v.tera", VERILOG_TB),
        Language::Vhdl => ("function.vhd.tera", VHDL_TB),
    };
    Ok(Rendered::new(context.tb.clone(), name, template, &context)?)
}

/// Width of an input or output value in whole hexadecimal digits.
pub(crate) fn digits(width: u32) -> usize {
    width.div_ceil(4) as usize
}

/// What one simulation of a design's testbench recorded: the ports of a row and each
/// row's output line (hexadecimal fields in port order; empty when the testbench wrote
/// none).
pub(crate) struct Run {
    pub inputs: Vec<TbPort>,
    pub outputs: Vec<TbPort>,
    pub lines: Vec<String>,
}

/// Applies `rows` (input port values in port order) one after another to `design` in
/// `simulator`, reading the outputs `latency` clock edges after each, in one run; with
/// `wave` the run's waves (VCD) are copied there.
pub(crate) fn simulate(
    simulator: &dyn Simulator,
    design: &Design,
    describe: &str,
    latency: u32,
    rows: &[Vec<u64>],
    wave: Option<&Path>,
) -> Result<Run, SimError> {
    let language = simulator.language();
    let work =
        crate::interrupt::scratch::ScratchDir::new(&format!("kautzgen-{}-", simulator.name()))
            .map_err(SimError::io("cannot create a temporary directory"))?;
    let mut sources = write_sources(design, language, describe, work.path())?;
    let mode = Mode::Record {
        wave: wave.is_some(),
    };
    let Rendered { top: tb, text, .. } = testbench(describe, latency, design, language, mode)?;
    let tb_path = work.path().join(match language {
        Language::Verilog => format!("{tb}.v"),
        Language::Vhdl => format!("{tb}.vhd"),
    });
    std::fs::write(&tb_path, text).map_err(SimError::io("cannot write the testbench"))?;
    sources.push(tb_path);
    let (inputs, outputs) = vector_ports(design, language);
    let mut vectors = String::new();
    for values in rows {
        let fields: Vec<String> = values
            .iter()
            .zip(&inputs)
            .map(|(v, p)| format!("{v:0width$x}", width = digits(p.width)))
            .collect();
        vectors += &fields.join(" ");
        vectors.push('\n');
    }
    std::fs::write(work.path().join("vectors.txt"), vectors)
        .map_err(SimError::io("cannot write vectors.txt"))?;
    simulator.compile(work.path(), &sources, &tb, wave.is_some())?;
    simulator.simulate(work.path(), &tb, wave.is_some())?;
    if let Some(path) = wave {
        copy_wave(work.path(), path)?;
    }
    let results = std::fs::read_to_string(work.path().join("results.txt"))
        .map_err(SimError::io("the testbench wrote no results.txt"))?;
    let mut lines: Vec<String> = results.lines().map(str::to_string).collect();
    lines.resize(rows.len(), String::new());
    Ok(Run {
        inputs,
        outputs,
        lines,
    })
}

/// The values of a recorded line, `None` for a field that is not hexadecimal.
pub(crate) fn parse_line(line: &str) -> Vec<Option<u64>> {
    line.split_whitespace()
        .map(|f| u64::from_str_radix(f, 16).ok())
        .collect()
}

/// Runs every vector of `shard` of `unit` through `simulator` and compares the outputs
/// with the golden model; the first `shown` failures are kept in full.
pub fn verify(
    simulator: &dyn Simulator,
    unit: &dyn FunctionUnit,
    shard: Shard,
    shown: usize,
) -> Result<FunctionReport, SimError> {
    let positions: Vec<u64> = (0..unit.vector_count())
        .filter(|&i| shard.selects(i))
        .collect();
    let outcomes = outcomes(simulator, unit, &positions, shown)?;
    Ok(FunctionReport::of(simulator.name(), &outcomes, shown))
}

/// Runs the vectors of `unit` at `positions` through `simulator` and compares the outputs
/// with the golden model: each vector's outcome, the first `shown` failures in full.
pub fn outcomes(
    simulator: &dyn Simulator,
    unit: &dyn FunctionUnit,
    positions: &[u64],
    shown: usize,
) -> Result<Vec<Outcome>, SimError> {
    let design = unit.design();
    let rows: Vec<Vec<u64>> = positions.iter().map(|&i| unit.vector(i)).collect();
    let run = simulate(
        simulator,
        &design,
        &unit.describe(),
        unit.latency(),
        &rows,
        None,
    )?;
    let (inputs, outputs) = (&run.inputs, &run.outputs);
    let show = |ports: &[TbPort], values: &[String]| {
        ports
            .iter()
            .zip(values)
            .map(|(p, v)| format!("{}={v}", p.name))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut describing = Describing::first(shown);
    let mut outcomes = Vec::with_capacity(positions.len());
    for ((&i, given), line) in positions.iter().zip(&rows).zip(&run.lines) {
        let expected = unit.expected(given);
        let got = parse_line(line);
        let matches =
            got.len() == expected.len() && got.iter().zip(&expected).all(|(g, e)| *g == Some(*e));
        let describe = || {
            let hex = |values: &[u64], ports: &[TbPort]| -> Vec<String> {
                values
                    .iter()
                    .zip(ports)
                    .map(|(v, p)| format!("{v:0width$x}", width = digits(p.width)))
                    .collect()
            };
            // Lowercase, as the stream check and the exported testbenches write values:
            // GHDL writes hexadecimal in capitals.
            let got_text: Vec<String> = if line.is_empty() {
                vec!["(nothing)".to_string()]
            } else {
                line.split_whitespace()
                    .map(|f| f.to_ascii_lowercase())
                    .collect()
            };
            format!(
                "vector {i}: {}; expected {}; got {}",
                show(inputs, &hex(given, inputs)),
                show(outputs, &hex(&expected, outputs)),
                show(outputs, &got_text)
            )
        };
        outcomes.push(describing.outcome(matches, describe, None));
    }
    Ok(outcomes)
}
