//! Formal equivalence of a design's two languages: the emitted Verilog against the VHDL
//! as `ghdl --synth` reads it, in a yosys miter proved by SAT with temporal induction.
//!
//! In: a design directory (manifest, Verilog and VHDL) and which inputs are the clock and
//! the synchronous reset. Out: a [`Verdict`]: proved for every input sequence whose first
//! cycle has the reset high, a counterexample as a trace of inputs and differing outputs,
//! or what was shown when neither could be reached.
//!
//! Why the miter alone does not prove it: two designs that agree on their outputs may hold
//! different states that no reset reaches (a used-letter bit set in one only, say) and keep
//! agreeing for any number of cycles before they part, so plain induction never closes.
//! Both languages come from one IR, so their registers carry the same names; every
//! register found under one name in both becomes an output of each, and the induction
//! proves outputs and registers equal together. Equal registers after the reset cycle are
//! shown by the base case, so the strengthening assumes nothing that is not proved.
//!
//! A RAM (`Statement::Memory`) is no exception: no reset clears it, but yosys maps its
//! words to flip-flops (`ram[0]`, `ram[1]`, ...) whose power-up values SAT takes as their
//! state in the first cycle, and they are matched by name like any other register.

use crate::emit::manifest::Manifest;
use crate::rtl::ir::SelfTimedError;
use crate::synth::ghdl::{GhdlError, vhdl_to_verilog};
use crate::synth::render_template;
use crate::synth::tool::{ToolError, YOSYS};
use serde::de::{Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use thiserror::Error;

const PREPARE: &str = include_str!("../../templates/prove_prepare.ys.tera");
const MITER: &str = include_str!("../../templates/prove_miter.ys.tera");

#[derive(Debug, Error)]
pub enum ProveError {
    #[error(transparent)]
    Tool(#[from] ToolError),
    #[error(transparent)]
    Ghdl(#[from] GhdlError),
    #[error("cannot read the design in '{}': {message}", dir.display())]
    Design { dir: PathBuf, message: String },
    #[error(transparent)]
    SelfTimed(#[from] SelfTimedError),
    #[error(
        "the Verilog and the VHDL tops differ in their ports: {0}; a miter needs the same names, directions and widths"
    )]
    Ports(String),
    #[error(
        "the design has registers but no reset input '{0}': nothing fixes their state, so there is no first cycle to start the proof from"
    )]
    NoReset(String),
    #[error("cannot write '{}': {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot read yosys's {what} in '{}': {message}", path.display())]
    Output {
        what: &'static str,
        path: PathBuf,
        message: String,
    },
    /// A fault of a template itself, which is compiled into the program.
    #[error("internal error: proof script template: {0}")]
    Template(#[from] tera::Error),
}

/// Which inputs play which part, and how far to search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// The clock input; left out of traces, since SAT steps are its cycles.
    pub clock: String,
    /// The reset, on in the first cycle of every sequence.
    pub reset: String,
    /// The reset's level that puts it on: true for `rst`, false for `rst_n`.
    pub reset_active_high: bool,
    /// Longest induction tried before the proof is given up as open.
    pub induction_limit: u32,
    /// Cycles after reset searched for outputs that differ, once the proof failed.
    pub search_depth: u32,
}

impl Default for Setup {
    /// The names the IR gives a clocked module (`Module::clocked`).
    fn default() -> Setup {
        Setup {
            clock: "clk".into(),
            reset: "rst".into(),
            reset_active_high: true,
            induction_limit: 8,
            search_depth: 40,
        }
    }
}

/// One output whose two values differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    pub output: String,
    pub verilog: String,
    pub vhdl: String,
}

/// One cycle of a counterexample: the inputs (bits, most significant first) and the
/// outputs that differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub cycle: u32,
    pub inputs: Vec<(String, String)>,
    pub differing: Vec<Difference>,
}

/// An input sequence after which the two languages' outputs differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace {
    /// The reset input, high in cycle 1; outputs of cycle 1 are not compared.
    pub reset: String,
    pub steps: Vec<Step>,
}

impl Trace {
    /// The first cycle whose outputs differ, and those outputs.
    pub fn first_difference(&self) -> Option<(u32, Vec<&str>)> {
        self.steps
            .iter()
            .find(|s| !s.differing.is_empty())
            .map(|s| {
                (
                    s.cycle,
                    s.differing.iter().map(|d| d.output.as_str()).collect(),
                )
            })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Equal outputs in every cycle after the reset cycle, for every input sequence.
    Proved {
        /// Length of the induction that closed; `None` for a design without registers,
        /// proved by one SAT call.
        induction_length: Option<u32>,
        /// Register bits of the Verilog matched by name in the VHDL, and all of them.
        matched_bits: usize,
        register_bits: usize,
    },
    Counterexample(Trace),
    /// A register matched by name differs after reset, but no output differs within the
    /// search depth: the register names do not correspond, or the difference is hidden.
    RegisterDiffers {
        register: String,
        cycle: u32,
        search_depth: u32,
    },
    /// Outputs and matched registers agree for `cycles` cycles after reset, but the
    /// induction did not close: a bounded result only.
    Bounded {
        cycles: u32,
        matched_bits: usize,
        register_bits: usize,
    },
}

#[derive(Deserialize)]
struct Netlist {
    modules: BTreeMap<String, JsonModule>,
}

/// A JSON object's entries in the order of the file: yosys writes ports in declaration
/// order, which traces keep.
struct Ordered<T>(Vec<(String, T)>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Ordered<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for Entries<T> {
            type Value = Ordered<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered<T>, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Ordered(entries))
            }
        }
        deserializer.deserialize_map(Entries(PhantomData))
    }
}

#[derive(Deserialize)]
struct JsonModule {
    ports: Ordered<JsonPort>,
    cells: BTreeMap<String, JsonCell>,
    netnames: BTreeMap<String, JsonNet>,
}

#[derive(Deserialize)]
struct JsonPort {
    direction: String,
    bits: Vec<Value>,
}

#[derive(Deserialize)]
struct JsonCell {
    #[serde(rename = "type")]
    kind: String,
    connections: BTreeMap<String, Vec<Value>>,
}

#[derive(Deserialize)]
struct JsonNet {
    hide_name: u8,
    bits: Vec<Value>,
}

/// Net bits as numbers; `None` for a constant bit.
fn nets(bits: &[Value]) -> Vec<Option<u64>> {
    bits.iter().map(Value::as_u64).collect()
}

impl JsonModule {
    fn port(&self, name: &str) -> Option<&JsonPort> {
        self.ports.0.iter().find(|(n, _)| n == name).map(|(_, p)| p)
    }

    /// Bits driven by a flip-flop.
    fn register_bits(&self) -> BTreeSet<u64> {
        self.cells
            .values()
            .filter(|c| c.kind.starts_with('$') && (c.kind.contains("dff") || c.kind == "$ff"))
            .filter_map(|c| c.connections.get("Q"))
            .flat_map(|q| nets(q).into_iter().flatten())
            .collect()
    }

    /// Public names, not ports, whose every bit is driven by a flip-flop.
    fn register_names(&self, registers: &BTreeSet<u64>) -> BTreeMap<&str, Vec<u64>> {
        self.netnames
            .iter()
            .filter(|(name, net)| net.hide_name == 0 && self.port(name).is_none())
            .filter_map(|(name, net)| {
                let bits: Option<Vec<u64>> = nets(&net.bits).into_iter().collect();
                bits.filter(|b| b.iter().all(|bit| registers.contains(bit)))
                    .map(|b| (name.as_str(), b))
            })
            .collect()
    }
}

/// The registers to expose: names that both designs drive from flip-flops with the same
/// width, the fewest that cover what they can of the Verilog's register bits. Returns
/// them with the number of Verilog register bits covered.
fn match_registers(gold: &JsonModule, gate: &JsonModule) -> (Vec<String>, usize, usize) {
    let gold_registers = gold.register_bits();
    let gate_registers = gate.register_bits();
    let mut covered: BTreeSet<u64> = gold
        .ports
        .0
        .iter()
        .map(|(_, p)| p)
        .filter(|p| p.direction == "output")
        .flat_map(|p| nets(&p.bits).into_iter().flatten())
        .filter(|b| gold_registers.contains(b))
        .collect();
    let gate_names = gate.register_names(&gate_registers);
    let mut chosen = Vec::new();
    for (name, bits) in gold.register_names(&gold_registers) {
        let new = bits.iter().any(|b| !covered.contains(b));
        if new && gate_names.get(name).is_some_and(|g| g.len() == bits.len()) {
            covered.extend(bits);
            chosen.push(name.to_string());
        }
    }
    (chosen, covered.len(), gold_registers.len())
}

/// Compares the two tops' ports; an error names every difference.
fn check_ports(gold: &JsonModule, gate: &JsonModule) -> Result<(), ProveError> {
    let describe = |m: &JsonModule| -> BTreeMap<String, (String, usize)> {
        m.ports
            .0
            .iter()
            .map(|(n, p)| (n.clone(), (p.direction.clone(), p.bits.len())))
            .collect()
    };
    let (g, h) = (describe(gold), describe(gate));
    let mut problems = Vec::new();
    for (name, (dir, width)) in &g {
        match h.get(name) {
            None => problems.push(format!("{name} only in the Verilog")),
            Some(other) if other != &(dir.clone(), *width) => problems.push(format!(
                "{name} is {dir} {width} bits in the Verilog, {} {} bits in the VHDL",
                other.0, other.1
            )),
            Some(_) => {}
        }
    }
    for name in h.keys().filter(|n| !g.contains_key(*n)) {
        problems.push(format!("{name} only in the VHDL"));
    }
    match problems.is_empty() {
        true => Ok(()),
        false => Err(ProveError::Ports(problems.join("; "))),
    }
}

#[derive(Serialize)]
struct PrepareContext<'a> {
    top: &'a str,
    verilog: String,
    netlist: String,
}

#[derive(Serialize)]
struct MiterContext<'a> {
    purpose: &'a str,
    exposed: String,
    options: String,
}

/// What a `sat` run concluded, and the model it printed.
struct SatRun {
    proved: bool,
    base_case_failed: bool,
    /// The last induction or base-case length yosys reached.
    length: u32,
    /// Time step -> signal -> bits, from the model table.
    model: BTreeMap<u32, BTreeMap<String, String>>,
}

fn run_sat(
    work: &Path,
    name: &str,
    purpose: &str,
    exposed: &[String],
    options: String,
) -> Result<SatRun, ProveError> {
    let exposed = exposed
        .iter()
        .map(|n| pattern(n))
        .flat_map(|n| [format!("gold/w:{n}"), format!("gate/w:{n}")])
        .collect::<Vec<_>>()
        .join(" ");
    let script = render_template(
        "prove_miter.ys.tera",
        MITER,
        &MiterContext {
            purpose,
            exposed,
            options,
        },
    )?;
    let path = work.join(format!("{name}.ys"));
    std::fs::write(&path, script).map_err(|source| ProveError::Io { path, source })?;
    let outcome = YOSYS.run_ok(
        &["-s".into(), format!("{name}.ys")],
        work,
        &format!("{name}.log"),
    )?;
    Ok(parse_sat(&outcome.log))
}

/// A selection pattern that matches the wire `name` alone: `memory` names a RAM's words
/// `ram[3]`, and brackets, like `*` and `?`, are wildcards in a pattern (`ram[1]` would
/// select `ram1` too).
fn pattern(name: &str) -> String {
    name.chars()
        .flat_map(|c| match c {
            '[' | ']' | '*' | '?' => vec!['\\', c],
            _ => vec![c],
        })
        .collect()
}

/// Reads a `sat` log: the verdict lines and the model table of `-show-ports`.
fn parse_sat(log: &str) -> SatRun {
    let mut run = SatRun {
        proved: false,
        base_case_failed: false,
        length: 0,
        model: BTreeMap::new(),
    };
    for line in log.lines() {
        let trimmed = line.trim();
        if trimmed.ends_with("SUCCESS!") {
            run.proved = true;
        }
        if trimmed.contains("model found for base case: FAIL!")
            || trimmed == "SAT proof finished - model found: FAIL!"
        {
            run.base_case_failed = true;
        }
        let length = trimmed
            .strip_prefix("** Trying induction with length ")
            .or_else(|| trimmed.strip_prefix("Base case for induction length "));
        if let Some(n) = length.and_then(|r| r.split_whitespace().next()?.parse().ok()) {
            run.length = run.length.max(n);
        }
        let words: Vec<&str> = trimmed.split_whitespace().collect();
        if let [time, name, .., bits] = words.as_slice()
            && let (Ok(time), Some(name)) = (time.parse::<u32>(), name.strip_prefix('\\'))
        {
            run.model
                .entry(time)
                .or_default()
                .insert(name.to_string(), bits.to_string());
        }
    }
    run
}

/// The trace of a failed output miter: inputs per cycle and differing outputs.
fn trace(run: &SatRun, gold: &JsonModule, setup: &Setup) -> Trace {
    let steps = run
        .model
        .iter()
        .map(|(&cycle, values)| {
            let value = |name: String| values.get(&name).cloned().unwrap_or_default();
            let mut inputs = Vec::new();
            let mut differing = Vec::new();
            for (port, p) in &gold.ports.0 {
                if p.direction == "input" && port != &setup.clock {
                    inputs.push((port.clone(), value(format!("in_{port}"))));
                }
                let (verilog, vhdl) =
                    (value(format!("gold_{port}")), value(format!("gate_{port}")));
                if p.direction == "output" && cycle > 1 && verilog != vhdl {
                    differing.push(Difference {
                        output: port.clone(),
                        verilog,
                        vhdl,
                    });
                }
            }
            Step {
                cycle,
                inputs,
                differing,
            }
        })
        .collect();
    Trace {
        reset: setup.reset.clone(),
        steps,
    }
}

/// The first matched register that differs in a failed strengthened run.
fn first_register_difference(run: &SatRun, exposed: &[String]) -> Option<(String, u32)> {
    run.model
        .iter()
        .filter(|(cycle, _)| **cycle > 1)
        .find_map(|(&cycle, values)| {
            exposed.iter().find_map(|name| {
                let gold = values.get(&format!("gold_{name}"))?;
                let gate = values.get(&format!("gate_{name}"))?;
                (gold != gate).then(|| (name.clone(), cycle))
            })
        })
}

fn read_manifest(dir: &Path) -> Result<Manifest, ProveError> {
    let fail = |message: String| ProveError::Design {
        dir: dir.to_path_buf(),
        message,
    };
    let text = std::fs::read_to_string(dir.join("manifest.json"))
        .map_err(|e| fail(format!("manifest.json: {e}")))?;
    let manifest: Manifest =
        serde_json::from_str(&text).map_err(|e| fail(format!("manifest.json: {e}")))?;
    if manifest.verilog.is_empty() || manifest.vhdl.is_empty() {
        return Err(fail(
            "the manifest must list Verilog and VHDL files (generate with --lang both)".into(),
        ));
    }
    // The miter is stepped by a clock from a reset; a loop has neither.
    manifest
        .timing
        .require_synchronous("the equivalence proof", &manifest.top)?;
    Ok(manifest)
}

/// Proves the Verilog and the VHDL of the design in `dir` equal, working in `work`.
pub fn prove(dir: &Path, setup: &Setup, work: &Path) -> Result<Verdict, ProveError> {
    let manifest = read_manifest(dir)?;
    let design = std::fs::canonicalize(dir).map_err(|e| ProveError::Design {
        dir: dir.to_path_buf(),
        message: e.to_string(),
    })?;
    let netlist = vhdl_to_verilog(&design, &manifest, work)?;
    let verilog: Vec<String> = manifest
        .verilog
        .iter()
        .map(|f| design.join(f).to_string_lossy().into_owned())
        .collect();
    let script = render_template(
        "prove_prepare.ys.tera",
        PREPARE,
        &PrepareContext {
            top: &manifest.top,
            verilog: verilog.join(" "),
            netlist: netlist.to_string_lossy().into_owned(),
        },
    )?;
    let path = work.join("prepare.ys");
    std::fs::write(&path, script).map_err(|source| ProveError::Io { path, source })?;
    YOSYS.run_ok(&["-s".into(), "prepare.ys".into()], work, "prepare.log")?;
    let json_path = work.join("prepared.json");
    let fail = |message: String| ProveError::Output {
        what: "netlists",
        path: json_path.clone(),
        message,
    };
    let text = std::fs::read_to_string(&json_path).map_err(|e| fail(e.to_string()))?;
    let mut netlist: Netlist = serde_json::from_str(&text).map_err(|e| fail(e.to_string()))?;
    let (Some(gold), Some(gate)) = (
        netlist.modules.remove("gold"),
        netlist.modules.remove("gate"),
    ) else {
        return Err(fail("no modules gold and gate".into()));
    };
    check_ports(&gold, &gate)?;
    let undef = "-enable_undef -set-def-inputs";
    if gold.register_bits().is_empty() && gate.register_bits().is_empty() {
        let run = run_sat(
            work,
            "combinational",
            "Combinational miter",
            &[],
            undef.into(),
        )?;
        return Ok(match run.proved {
            true => Verdict::Proved {
                induction_length: None,
                matched_bits: 0,
                register_bits: 0,
            },
            false => Verdict::Counterexample(trace(&run, &gold, setup)),
        });
    }
    if gold
        .port(&setup.reset)
        .is_none_or(|p| p.direction != "input")
    {
        return Err(ProveError::NoReset(setup.reset.clone()));
    }
    let reset = format!(
        "-seq 1 -set-at 1 in_{} {}",
        setup.reset,
        u8::from(setup.reset_active_high)
    );
    let (exposed, matched_bits, register_bits) = match_registers(&gold, &gate);
    let induction = run_sat(
        work,
        "induction",
        "Temporal induction over outputs and matched registers",
        &exposed,
        format!(
            "{undef} -tempinduct-def -maxsteps {} {reset}",
            setup.induction_limit
        ),
    )?;
    if induction.proved {
        return Ok(Verdict::Proved {
            induction_length: Some(induction.length),
            matched_bits,
            register_bits,
        });
    }
    if !induction.base_case_failed {
        return Ok(Verdict::Bounded {
            cycles: induction.length,
            matched_bits,
            register_bits,
        });
    }
    let search = run_sat(
        work,
        "search",
        "Search for differing outputs after reset",
        &[],
        format!(
            "{undef} -tempinduct-baseonly -maxsteps {} {reset}",
            setup.search_depth
        ),
    )?;
    if search.base_case_failed {
        return Ok(Verdict::Counterexample(trace(&search, &gold, setup)));
    }
    let (register, cycle) = first_register_difference(&induction, &exposed)
        .unwrap_or_else(|| ("(unnamed)".to_string(), induction.length));
    Ok(Verdict::RegisterDiffers {
        register,
        cycle,
        search_depth: setup.search_depth,
    })
}

impl Verdict {
    /// Whether the two languages were shown equal.
    pub fn proved(&self) -> bool {
        matches!(self, Verdict::Proved { .. })
    }

    /// The verdict as a person reads it; `top` names the design.
    pub fn render(&self, top: &str) -> String {
        let mut out = String::new();
        match self {
            Verdict::Proved {
                induction_length: None,
                ..
            } => writeln!(
                out,
                "PROVED: the Verilog and the VHDL of {top} have equal outputs for every input (one SAT call over a miter; no registers)."
            )
            .unwrap(),
            Verdict::Proved {
                induction_length: Some(length),
                matched_bits,
                register_bits,
            } => writeln!(
                out,
                "PROVED: the Verilog and the VHDL of {top} have equal outputs in every cycle after a reset in cycle 1, for every input sequence.\n\
                 method: yosys miter of the emitted Verilog and the VHDL through ghdl --synth; SAT temporal induction of length {length}, \
                 strengthened by {matched_bits} of {register_bits} register bits matched by name."
            )
            .unwrap(),
            Verdict::Counterexample(trace) => render_trace(&mut out, top, trace),
            Verdict::RegisterDiffers {
                register,
                cycle,
                search_depth,
            } => writeln!(
                out,
                "NOT PROVED: register {register} of {top} differs between the Verilog and the VHDL in cycle {cycle}, \
                 but no output differs within {search_depth} cycles of reset."
            )
            .unwrap(),
            Verdict::Bounded {
                cycles,
                matched_bits,
                register_bits,
            } => writeln!(
                out,
                "NOT PROVED: the Verilog and the VHDL of {top} agree for the first {cycles} cycles after the reset cycle (bounded), \
                 but the induction did not close: {matched_bits} of {register_bits} register bits are matched by name."
            )
            .unwrap(),
        }
        out
    }
}

fn render_trace(out: &mut String, top: &str, trace: &Trace) {
    let (cycle, outputs) = trace
        .first_difference()
        .unwrap_or((0, vec!["(none shown)"]));
    writeln!(
        out,
        "COUNTEREXAMPLE: the Verilog and the VHDL of {top} differ in cycle {cycle}: {}",
        outputs.join(", ")
    )
    .unwrap();
    writeln!(
        out,
        "inputs per cycle ({} high in cycle 1, whose outputs are not compared) and the outputs that differ (Verilog / VHDL):",
        trace.reset
    )
    .unwrap();
    let Some(first) = trace.steps.first() else {
        return;
    };
    let mut rows = vec![
        std::iter::once("cycle".to_string())
            .chain(first.inputs.iter().map(|(n, _)| n.clone()))
            .chain(std::iter::once("differing outputs".to_string()))
            .collect::<Vec<_>>(),
    ];
    for step in &trace.steps {
        let differing = step
            .differing
            .iter()
            .map(|d| format!("{}: {} / {}", d.output, d.verilog, d.vhdl))
            .collect::<Vec<_>>()
            .join(", ");
        rows.push(
            std::iter::once(step.cycle.to_string())
                .chain(step.inputs.iter().map(|(_, v)| v.clone()))
                .chain(std::iter::once(differing))
                .collect(),
        );
    }
    let columns = rows[0].len();
    let widths: Vec<usize> = (0..columns)
        .map(|c| rows.iter().map(|r| r[c].len()).max().unwrap_or(0))
        .collect();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, cell)| match c + 1 == columns {
                true => cell.clone(),
                false => format!("{cell:>w$}", w = widths[c]),
            })
            .collect();
        writeln!(out, "{}", cells.join("  ").trim_end()).unwrap();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = r"
** Trying induction with length 2 **
SAT temporal induction proof finished - model found for base case: FAIL!

  Time Signal Name                                        Dec       Hex           Bin
  ---- ------------------------------------------ ----------- --------- -------------
     1 \gate_error                                          0         0             0
     1 \gold_error                                          1         1             1
     1 \in_clk                                              0         0             0
     1 \in_rst                                              1         1             1
     1 \in_src                                             61        3d        111101
     2 \gate_error                                          0         0             0
     2 \gold_error                                          0         0             0
     2 \in_clk                                              0         0             0
     2 \in_rst                                              0         0             0
     2 \in_src                                              8         8        001000
     3 \gate_error                                          0         0             0
     3 \gold_error                                         --        --             x
     3 \in_clk                                              0         0             0
     3 \in_rst                                              1         1             1
     3 \in_src                                             63        3f        111111
";

    fn module(ports: &[(&str, &str, usize)]) -> JsonModule {
        JsonModule {
            ports: Ordered(
                ports
                    .iter()
                    .map(|(n, d, w)| {
                        (
                            n.to_string(),
                            JsonPort {
                                direction: d.to_string(),
                                bits: (0..*w).map(|b| Value::from(b as u64 + 2)).collect(),
                            },
                        )
                    })
                    .collect(),
            ),
            cells: BTreeMap::new(),
            netnames: BTreeMap::new(),
        }
    }

    #[test]
    fn a_failed_base_case_becomes_a_trace() {
        let run = parse_sat(LOG);
        assert!(run.base_case_failed && !run.proved);
        assert_eq!(run.length, 2);
        let gold = module(&[
            ("clk", "input", 1),
            ("rst", "input", 1),
            ("src", "input", 6),
            ("error", "output", 1),
        ]);
        let trace = trace(&run, &gold, &Setup::default());
        assert_eq!(trace.first_difference(), Some((3, vec!["error"])));
        let text = Verdict::Counterexample(trace).render("t");
        assert_eq!(
            text,
            "COUNTEREXAMPLE: the Verilog and the VHDL of t differ in cycle 3: error\n\
             inputs per cycle (rst high in cycle 1, whose outputs are not compared) and the outputs that differ (Verilog / VHDL):\n\
             cycle  rst     src  differing outputs\n    \
             1    1  111101\n    \
             2    0  001000\n    \
             3    1  111111  error: x / 0\n"
        );
    }

    #[test]
    fn a_ram_word_is_selected_alone() {
        assert_eq!(pattern("u.ram[1]"), "u.ram\\[1\\]");
        assert_eq!(pattern("state"), "state");
    }

    #[test]
    fn ports_must_agree() {
        let gold = module(&[("a", "input", 2), ("y", "output", 1)]);
        let gate = module(&[("a", "input", 3), ("z", "output", 1)]);
        assert_eq!(
            check_ports(&gold, &gate).unwrap_err().to_string(),
            "the Verilog and the VHDL tops differ in their ports: a is input 2 bits in the Verilog, input 3 bits in the VHDL; \
             y only in the Verilog; z only in the VHDL; a miter needs the same names, directions and widths"
        );
    }

    #[test]
    fn registers_are_matched_by_name_and_width() {
        let register = |q: &[u64]| JsonCell {
            kind: "$dff".into(),
            connections: BTreeMap::from([(
                "Q".to_string(),
                q.iter().map(|&b| Value::from(b)).collect(),
            )]),
        };
        let net = |bits: &[u64], hidden: u8| JsonNet {
            hide_name: hidden,
            bits: bits.iter().map(|&b| Value::from(b)).collect(),
        };
        let mut gold = module(&[("y", "output", 1)]);
        gold.cells = BTreeMap::from([
            ("a".to_string(), register(&[10, 11])),
            ("b".to_string(), register(&[12])),
            ("c".to_string(), register(&[2])),
        ]);
        gold.netnames = BTreeMap::from([
            ("u.state".to_string(), net(&[10, 11], 0)),
            ("u.state_alias".to_string(), net(&[10, 11], 0)),
            ("u.flag".to_string(), net(&[12], 0)),
            ("$auto".to_string(), net(&[12], 1)),
        ]);
        let mut gate = module(&[("y", "output", 1)]);
        gate.cells = BTreeMap::from([
            ("a".to_string(), register(&[20, 21])),
            ("b".to_string(), register(&[22, 23])),
        ]);
        gate.netnames = BTreeMap::from([
            ("u.state".to_string(), net(&[20, 21], 0)),
            ("u.state_alias".to_string(), net(&[20, 21], 0)),
            ("u.flag".to_string(), net(&[22, 23], 0)),
        ]);
        // u.flag has another width in the gate; the alias adds no bits; y is a port.
        assert_eq!(
            match_registers(&gold, &gate),
            (vec!["u.state".to_string()], 3, 4)
        );
    }
}
